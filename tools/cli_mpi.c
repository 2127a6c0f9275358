/* cli_mpi.c — `mpirun -np P sqz ...`: MPI start and end, the ranks' agreement on the outcome, per-rank devices and the steps of a run in parts on the ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_mpi.h"

static int sqz_mpi_size = 1, sqz_mpi_rank;

int sqz_cli_mpi_ranks(void) { return sqz_mpi_size; }
int sqz_cli_mpi_rank(void) { return sqz_mpi_rank; }

int sqz_cli_mpi_options(const char *cmd, const char *backend, const char *layout, const char *map, uint64_t block,
                        const char *frames, uint64_t parts) {
  if (parts)
    return sqz_cli_usage(cmd, "--parts %llu: a run on %d MPI ranks has a part per rank", (unsigned long long)parts,
                         sqz_mpi_size);
  if (!backend) backend = getenv("SQZ_BACKEND");
  if (backend && *backend && strcmp(backend, "cpu") != 0)
    return sqz_cli_usage(cmd, "backend %s: a run on %d MPI ranks steps its parts on the host (cpu) until parts on "
                              "devices exist", backend, sqz_mpi_size);
  if (layout && strcmp(layout, "compact") != 0)
    return sqz_cli_usage(cmd, "--layout %s: a run on %d MPI ranks stores its parts in layout compact", layout, sqz_mpi_size);
  if (map || block)
    return sqz_cli_usage(cmd, "--%s: a run on %d MPI ranks steps its parts on the host, without thread maps",
                         map ? "map" : "block", sqz_mpi_size);
  if (frames) return sqz_cli_usage(cmd, "--frames: not with a run on %d MPI ranks (yet)", sqz_mpi_size);
  return 0;
}

#ifdef SQZ_HAVE_MPI
#include "sqz_mpi.h"

static int sqz_mpi_on, sqz_mpi_local, sqz_mpi_passed;
static FILE *sqz_mpi_err; /* ranks other than 0: their stderr */

void sqz_cli_mpi_init(int *argc, char ***argv) {
  const char *launched = getenv("OMPI_COMM_WORLD_SIZE");
  if (!launched) launched = getenv("PMI_SIZE");
  if (!launched && !getenv("PMIX_RANK")) return;
  int rc = MPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    sqz_mpi_on = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &sqz_mpi_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &sqz_mpi_rank);
  }
  if (rc != MPI_SUCCESS || (launched && atoi(launched) != sqz_mpi_size)) { /* never a silent run on one rank */
    fprintf(stderr, "sqz: started by an MPI launcher (%s ranks) but MPI_Init %s\n", launched ? launched : "its",
            rc != MPI_SUCCESS ? "failed" : "gave another world size");
    exit(1);
  }
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, sqz_mpi_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &sqz_mpi_local);
  MPI_Comm_free(&node);
  if (sqz_mpi_rank == 0) return;
  if (!freopen("/dev/null", "w", stdout)) fclose(stdout);
  fflush(stderr);
  if ((sqz_mpi_err = tmpfile()) != NULL) dup2(fileno(sqz_mpi_err), STDERR_FILENO);
}

int sqz_cli_mpi_finalize(int rc) {
  rc = sqz_cli_mpi_agree(SQZ_CLI_MPI_END, rc, NULL, 0); /* a command that ended before its agreements */
  if (sqz_mpi_on) MPI_Finalize();
  return rc;
}

/* The text rank `from` wrote to stderr (its last 2 KiB), printed by rank 0. */
static void sqz__mpi_relay(int from) {
  char text[2048] = "";
  if (sqz_mpi_rank == from && sqz_mpi_err) {
    fflush(stderr);
    long end = (fseek(sqz_mpi_err, 0, SEEK_END), ftell(sqz_mpi_err));
    fseek(sqz_mpi_err, end > (long)sizeof text - 1 ? end - (long)sizeof text + 1 : 0, SEEK_SET);
    text[fread(text, 1, sizeof text - 1, sqz_mpi_err)] = 0;
    MPI_Send(text, (int)sizeof text, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
  }
  if (sqz_mpi_rank == 0) {
    MPI_Recv(text, (int)sizeof text, MPI_CHAR, from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "sqz: rank %d of %d failed: %s", from, sqz_mpi_size, *text ? text : "(no message)\n");
  }
}

int sqz_cli_mpi_agree(int point, int rc, char *text, size_t len) {
  while (sqz_mpi_on && sqz_mpi_size > 1 && sqz_mpi_passed < point) {
    int worst = rc, first = rc ? sqz_mpi_rank : sqz_mpi_size;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int lowest = first;
    MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int zero_rc = rc;
    MPI_Bcast(&zero_rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (worst && !zero_rc) sqz__mpi_relay(lowest); /* rank 0 has not said why: the failed rank's message */
    if (++sqz_mpi_passed == SQZ_CLI_MPI_BEGIN && !worst && text && len) MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    rc = zero_rc ? zero_rc : worst; /* rank 0's status when it failed, so that every rank exits with it */
  }
  return rc;
}

const char *sqz_cli_mpi_device(const char *device, char *buf, size_t len) {
  if (!device || !strchr(device, ',')) return device;
  int n = 1;
  for (const char *p = device; *p; p++) n += *p == ',';
  const char *p = device;
  for (int i = sqz_mpi_local % n; i > 0; i--) p = strchr(p, ',') + 1;
  size_t k = strcspn(p, ",");
  snprintf(buf, len, "%.*s", (int)k, p);
  return buf;
}

/* One rank's figures as a JSON object. */
static void sqz__mpi_rank_row(FILE *out, int i, void *user) {
  const sqz_mpi_rank_stats *s = (const sqz_mpi_rank_stats *)user + i;
  fprintf(out,
          "{\"rank\":%d,\"cells\":%llu,\"halo_cells\":%llu,\"bytes\":%llu,\"neighbours\":%llu,\"send_bytes_per_step\":%llu,"
          "\"step_s\":%.6f,\"halo_wait_s\":%.6f}",
          i, (unsigned long long)s->cells, (unsigned long long)s->halo_cells, (unsigned long long)s->bytes,
          (unsigned long long)s->neighbours, (unsigned long long)s->send_bytes, s->step_s, s->wait_s);
}

int sqz_cli_mpi_steps(sqz_context *ctx, sqz_domain *dom, sqz_type type, sqz_field *whole, const sqz_cli_mpi_job *job,
                      uint64_t steps, double *kernel_s, double *wall_s, char **ranks_json) {
  *kernel_s = *wall_s = 0;
  *ranks_json = NULL;
  sqz_mpi_field *f = NULL;
  int st = sqz_field_create_mpi(ctx, MPI_COMM_WORLD, dom, type, "compact", &f);
  if (st == SQZ_OK) st = sqz_mpi_field_scatter(f, whole, 0);
  if (st == SQZ_OK) st = job->heat ? sqz_mpi_heat_step(f, job->alpha, steps) : sqz_mpi_life_step(f, job->rule, steps);
  double t[2] = {0, 0}, worst[2] = {0, 0};
  if (st == SQZ_OK) sqz_context_timing(ctx, &t[0], &t[1]);
  if (st == SQZ_OK) st = sqz_mpi_field_gather(f, whole, 0);
  if (st == SQZ_OK) {
    MPI_Reduce(t, worst, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    *kernel_s = worst[0];
    *wall_s = worst[1];
    sqz_mpi_rank_stats mine, *all = sqz_cli_calloc(sqz_mpi_rank == 0 ? (size_t)sqz_mpi_size : 1, sizeof *all);
    int have = all != NULL, every = 0;
    sqz_mpi_field_stats(f, &mine);
    MPI_Allreduce(&have, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (every) MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (every && sqz_mpi_rank == 0) *ranks_json = sqz_json_rows(sqz_mpi_size, sqz__mpi_rank_row, all);
    free(all);
  }
  sqz_mpi_field_release(f);
  return st;
}
#else /* one process: nothing to start, to agree with or to spread over */
void sqz_cli_mpi_init(int *argc, char ***argv) {}
int sqz_cli_mpi_finalize(int rc) { return rc; }
int sqz_cli_mpi_agree(int point, int rc, char *text, size_t len) { return rc; }
const char *sqz_cli_mpi_device(const char *device, char *buf, size_t len) { return device; }
#endif
