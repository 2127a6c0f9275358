/* cli_mpi.c — `mpirun -np P sqz ...`: MPI start and end, the ranks' agreement on the outcome, per-rank devices and the steps of a run in parts on the ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_mpi.h"

static int sqz_mpi_size = 1, sqz_mpi_rank;

int sqz_cli_mpi_ranks(void) { return sqz_mpi_size; }
int sqz_cli_mpi_rank(void) { return sqz_mpi_rank; }

int sqz_cli_mpi_options(const char *cmd, uint64_t parts, const char *map, uint64_t block, const char *frames) {
  if (parts && parts < (uint64_t)sqz_mpi_size)
    return sqz_cli_usage(cmd, "--parts %llu: a run on %d MPI ranks holds at least one part per rank (--parts %d or more)",
                         (unsigned long long)parts, sqz_mpi_size, sqz_mpi_size);
  if (map || block)
    return sqz_cli_usage(cmd, "--%s: not with a run on %d MPI ranks (yet): the parts take the default map and block",
                         map ? "map" : "block", sqz_mpi_size);
  if (frames) return sqz_cli_usage(cmd, "--frames: not with a run on %d MPI ranks (yet)", sqz_mpi_size);
  return 0;
}

#ifdef SQZ_HAVE_MPI
#include "sqz_mpi.h"

static int sqz_mpi_on, sqz_mpi_local, sqz_mpi_passed, sqz_mpi_err_fd = -1;
static FILE *sqz_mpi_err; /* ranks other than 0: their stderr, sqz_mpi_err_fd the one they had */

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
  sqz_mpi_err_fd = dup(STDERR_FILENO);
  if ((sqz_mpi_err = tmpfile()) != NULL) dup2(fileno(sqz_mpi_err), STDERR_FILENO);
}

int sqz_cli_mpi_started(void) { return sqz_mpi_on; }

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

static char sqz_mpi_cfg[8192], sqz_mpi_cmd[16]; /* this rank's run as "key\tvalue\n" lines (sqz_cli_mpi_config) */

void sqz_cli_mpi_config(const char *cmd, const sqz_cli_kv *kv, size_t n) {
  static const char *const tuning[] = {"exchange_steps", "overlap"}; /* options that shape the messages */
  size_t at = 0;
  snprintf(sqz_mpi_cmd, sizeof sqz_mpi_cmd, "%s", cmd);
  at += (size_t)snprintf(sqz_mpi_cfg, sizeof sqz_mpi_cfg, "command\t%s\n", cmd);
  for (size_t i = 0; i < n + 2 && at < sizeof sqz_mpi_cfg; i++) {
    const char *key = i < n ? kv[i].key : tuning[i - n], *value = i < n ? kv[i].value : sqz_cli_option(tuning[i - n]);
    at += (size_t)snprintf(sqz_mpi_cfg + at, sizeof sqz_mpi_cfg - at, "%s\t%.1000s\n", key, value ? value : "(not set)");
  }
}

/* Rank 0's configuration against this rank's: the first line that differs, as "KEY is X here but Y on rank 0" on
 * stderr, and 1; 0 when they agree or either rank gave up before it had one. */
static int sqz__mpi_config_check(void) {
  static char root[sizeof sqz_mpi_cfg];
  memcpy(root, sqz_mpi_cfg, sizeof root);
  MPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
  const char *a = sqz_mpi_cfg, *b = root;
  while (*a && *b) {
    size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n"), ka = strcspn(a, "\t"), kb = strcspn(b, "\t");
    if (la != lb || memcmp(a, b, la) != 0) {
      fprintf(stderr, "sqz %s: rank %d: %.*s is %.*s here but %.*s on rank 0 (the ranks of a run take the same command, "
              "files and options exchange_steps / overlap)\n", sqz_mpi_cmd, sqz_mpi_rank, (int)ka, a,
              (int)(la - ka - 1), a + ka + 1, (int)(lb - kb - 1), b + kb + 1);
      return 1;
    }
    a += la + (a[la] != 0);
    b += lb + (b[lb] != 0);
  }
  return 0;
}

int sqz_cli_mpi_agree(int point, int rc, char *text, size_t len) {
  while (sqz_mpi_on && sqz_mpi_size > 1 && sqz_mpi_passed < point) {
    if (sqz_mpi_passed + 1 == SQZ_CLI_MPI_BEGIN && sqz__mpi_config_check() && !rc) rc = 1; /* before any exchange */
    int worst = rc, first = rc ? sqz_mpi_rank : sqz_mpi_size;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int lowest = first;
    MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int zero_rc = rc;
    MPI_Bcast(&zero_rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (worst && !zero_rc) sqz__mpi_relay(lowest); /* rank 0 has not said why: the failed rank's message */
    if (++sqz_mpi_passed == SQZ_CLI_MPI_BEGIN && !worst && text && len)
      MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    rc = zero_rc ? zero_rc : worst; /* rank 0's status when it failed, so that every rank exits with it */
  }
  return rc;
}

/* Device i of list l is the backend's (a GPU when gpus_only). */
static int sqz__mpi_device_is(const sqz_device_list *l, size_t i, const char *backend, int gpus_only) {
  return strcmp(sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), backend) == 0 &&
         (!gpus_only || strcmp(sqz_device_list_str(l, i, SQZ_DEVICE_TYPE), "GPU") == 0);
}

/* No device named: the node-local rank's GPU of the backend (local rank mod GPUs), else its device
 * among all of the backend's; NULL (the library's default) when the backend lists none. */
static const char *sqz__mpi_auto_device(const char *backend, char *buf, size_t len) {
  const char *want = backend ? backend : sqz_cli_option("backend") ? sqz_cli_option("backend") : "opencl";
  sqz_device_list *l = NULL;
  const char *pick = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return NULL;
  size_t count = sqz_device_list_count(l);
  for (int gpus_only = 1; gpus_only >= 0 && !pick; gpus_only--) {
    size_t n = 0, k = 0;
    for (size_t i = 0; i < count; i++) n += (size_t)sqz__mpi_device_is(l, i, want, gpus_only);
    for (size_t i = 0; n && i < count && !pick; i++)
      if (sqz__mpi_device_is(l, i, want, gpus_only) && k++ == (size_t)sqz_mpi_local % n) {
        snprintf(buf, len, "%s", sqz_device_list_str(l, i, SQZ_DEVICE_ID));
        pick = buf;
      }
  }
  sqz_device_list_release(l);
  return pick;
}

int sqz_cli_mpi_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx) {
  char buf[256], entry[256];
  if (!device) device = sqz_cli_option("device");
  if (!device || !*device) return sqz_cli_open(cmd, backend, sqz__mpi_auto_device(backend, buf, sizeof buf), ctx);
  if (!strchr(device, ',')) return sqz_cli_open(cmd, backend, device, ctx);
  int n = 1;
  for (const char *p = device; *p; p++) n += *p == ',';
  const char *p = device;
  for (int i = sqz_mpi_local % n; i > 0; i--) p = strchr(p, ',') + 1;
  snprintf(entry, sizeof entry, "%.*s", (int)strcspn(p, ","), p);
  const char *dev;
  int rc = sqz_cli_device_entry(cmd, backend, entry, buf, sizeof buf, &dev);
  return rc ? rc : sqz_cli_open(cmd, backend, dev, ctx);
}

/* One rank's figures as a JSON object. */
static void sqz__mpi_rank_row(FILE *out, int i, void *user) {
  const sqz_mpi_rank_stats *s = (const sqz_mpi_rank_stats *)user + i;
  fprintf(out,
          "{\"rank\":%d,\"units\":%llu,\"halo_units\":%llu,\"unit_elems\":%llu,\"bytes\":%llu,\"neighbours\":%llu,"
          "\"send_bytes_per_step\":%llu,\"exchange_s\":%.6f,\"halo_wait_s\":%.6f,\"inner_s\":%.6f,\"border_s\":%.6f,"
          "\"parts\":%llu,\"first_part\":%llu}",
          i, (unsigned long long)s->units, (unsigned long long)s->halo_units, (unsigned long long)s->unit_elems,
          (unsigned long long)s->bytes, (unsigned long long)s->neighbours, (unsigned long long)s->send_bytes,
          s->exchange_s, s->wait_s, s->inner_s, s->border_s, (unsigned long long)s->parts, (unsigned long long)s->part);
}

/* Every rank's figures to rank 0 as JSON. */
static char *sqz__mpi_ranks_json(sqz_field *f) {
  sqz_mpi_rank_stats mine, *all = sqz_cli_calloc(sqz_mpi_rank == 0 ? (size_t)sqz_mpi_size : 1, sizeof *all);
  int have = all != NULL, every = 0;
  char *json = NULL;
  sqz_mpi_field_stats(f, &mine);
  MPI_Allreduce(&have, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (every) MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (every && sqz_mpi_rank == 0) json = sqz_json_rows(sqz_mpi_size, sqz__mpi_rank_row, all);
  free(all);
  return json;
}

/* The steps, with an agreed status: every rank meets the others at a barrier after them. A rank
 * whose steps failed waits there SQZ_CLI_MPI_GRACE seconds at most: when the others failed alike
 * (a kernel that does not build fails on every rank) they all arrive and the failure is agreed as
 * any other; when they did not, they are waiting for this rank's halo, and it ends every rank
 * (MPI_Abort, its message on its own stderr). */
#define SQZ_CLI_MPI_GRACE 10.0
static int sqz__mpi_steps(sqz_context *ctx, sqz_field *f, const sqz_cli_mpi_job *job, uint64_t steps) {
  int st = job->kind == SQZ_CLI_MPI_HEAT ? sqz_heat_step(f, job->alpha, steps)
           : job->kind == SQZ_CLI_MPI_RUN
               ? sqz_stencil_step(f, job->source, job->source_name, job->params, job->n_params, steps)
               : sqz_life_step(f, job->rule, steps);
  MPI_Request rq;
  int met = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &rq);
  if (st == SQZ_OK) MPI_Wait(&rq, MPI_STATUS_IGNORE);
  for (double t0 = sqz_cli_clock(); st != SQZ_OK && !met && sqz_cli_clock() - t0 < SQZ_CLI_MPI_GRACE;) {
    MPI_Test(&rq, &met, MPI_STATUS_IGNORE);
    if (!met) nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  if (st == SQZ_OK || met) return sqz_mpi_agree(ctx, MPI_COMM_WORLD, st);
  if (sqz_mpi_err_fd >= 0) dup2(sqz_mpi_err_fd, STDERR_FILENO); /* this rank's own stderr again */
  fprintf(stderr, "sqz: rank %d of %d: the steps failed here alone, ending every rank: ", sqz_mpi_rank, sqz_mpi_size);
  fflush(stderr);
  sqz_cli_fail(job->kind == SQZ_CLI_MPI_HEAT ? "heat" : job->kind == SQZ_CLI_MPI_RUN ? "run" : "life", ctx, st);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return st;
}

int sqz_cli_mpi_run(sqz_context *ctx, sqz_domain *dom, sqz_type type, const char *layout, sqz_field *whole,
                    sqz_cli_mpi_job *job, uint64_t steps, sqz_field **mf) {
  double t[2] = {0, 0};
  int st = sqz_field_create_mpi_parts(ctx, MPI_COMM_WORLD, dom, type, layout, job->parts, mf);
  sqz_field *f = *mf;
  if (st == SQZ_OK && job->gen) st = sqz_mpi_agree(ctx, MPI_COMM_WORLD, sqz_cli_gen_apply(f, job->gen));
  else if (st == SQZ_OK) st = sqz_mpi_field_scatter(f, whole, 0);
  if (st == SQZ_OK && job->kind == SQZ_CLI_MPI_HEAT) st = sqz_cli_sum_ok(sqz_mpi_field_sum(f, SQZ_SUM_NEUMAIER, &job->sum0), &job->sum0);
  if (st == SQZ_OK && job->obs && job->obs->n) { /* collective rows: every rank observes, rank 0 writes */
    job->obs->observe = sqz_mpi_field_observe;
    st = sqz_cli_observe_start(job->obs, ctx, f, 0, job->every);
  }
  if (st == SQZ_OK) st = sqz__mpi_steps(ctx, f, job, steps);
  if (st == SQZ_OK) sqz_context_timing(ctx, &t[0], &t[1]);
  if (st == SQZ_OK) MPI_Reduce(t, &job->kernel_s, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (st == SQZ_OK) MPI_Reduce(t + 1, &job->wall_s, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (st == SQZ_OK && job->kind == SQZ_CLI_MPI_HEAT) {
    st = sqz_cli_sum_ok(sqz_mpi_field_sum(f, SQZ_SUM_NEUMAIER, &job->sum1), &job->sum1);
    job->overflowed = st == SQZ_ERR_NON_FINITE; /* from a finite start (sum0 passed): every rank reports it alike */
    if (job->overflowed) st = SQZ_OK;
  }
  if (st == SQZ_OK) st = sqz_mpi_field_count(f, &job->nonzero);
  if (st == SQZ_OK && job->gather) st = sqz_mpi_field_gather(f, whole, 0);
  if (st == SQZ_OK) job->ranks_json = sqz__mpi_ranks_json(f);
  return st;
}
#else /* one process: nothing to start, to agree with or to spread over */
void sqz_cli_mpi_init(int *argc, char ***argv) {}
int sqz_cli_mpi_started(void) { return 0; }
void sqz_cli_mpi_config(const char *cmd, const sqz_cli_kv *kv, size_t n) { (void)cmd, (void)kv, (void)n; }
int sqz_cli_mpi_finalize(int rc) { return rc; }
int sqz_cli_mpi_agree(int point, int rc, char *text, size_t len) { return rc; }
int sqz_cli_mpi_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx) {
  return sqz_cli_open(cmd, backend, device, ctx);
}
#endif
