/* cli_mpi.h — `mpirun -np P sqz life|heat ...`: MPI start and end, agreement of every rank on the outcome, the rank's device, and the steps of a run in parts on the ranks. */
#ifndef SQZ_CLI_MPI_H
#define SQZ_CLI_MPI_H
#include <stddef.h>
#include <stdint.h>

#include "sqz.h"

/* Starts MPI when a launcher started this process (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK
 * in the environment; a plain `sqz` never touches MPI, nor does a build without MPI). Ranks other
 * than 0 write nothing: stdout goes nowhere, stderr to a scratch file whose text rank 0 prints
 * when that rank alone failed. */
void sqz_cli_mpi_init(int *argc, char ***argv);
/* Passes sqz_cli_mpi_agree's points a command did not reach (it ended early), ends MPI and returns the
 * agreed exit status. */
int sqz_cli_mpi_finalize(int rc);
/* Ranks of the run (1: no MPI), this process's rank and its rank among the ranks of its node. */
int sqz_cli_mpi_ranks(void);
int sqz_cli_mpi_rank(void);
/* The points where every rank agrees on the exit status so far (the largest of the ranks'): BEGIN
 * before the collective steps (text, len: rank 0's text, e.g. the rule a file recorded, given to
 * every rank), END at the end. A rank that gives up early passes BEGIN with its status on the way
 * to END, so no rank waits in a collective that another skipped. */
enum { SQZ_CLI_MPI_BEGIN = 1, SQZ_CLI_MPI_END = 2 };
int sqz_cli_mpi_agree(int point, int rc, char *text, size_t len);
/* --device of this rank: one of a comma-separated list by node-local rank (list[local % n]); one
 * device or none as given. buf gets the pick. */
const char *sqz_cli_mpi_device(const char *device, char *buf, size_t len);
/* Refuses (exit status 2) the options a run on ranks does not take (yet; --parts: a part per rank) (backend: --backend, else
 * $SQZ_BACKEND; only cpu). */
int sqz_cli_mpi_options(const char *cmd, const char *backend, const char *layout, const char *map, uint64_t block,
                        const char *frames, uint64_t parts);

/* The steps of a run on the ranks (a build with MPI): each rank makes its part, rank 0's field `whole` (NULL elsewhere)
 * is scattered, `steps` of Life (rule) or heat (alpha) run, and the state comes back into whole.
 * kernel_s, wall_s: the slowest rank's; *ranks_json (rank 0; the caller frees it): per-rank figures
 * as a JSON array. Returns a status every rank agrees on. */
typedef struct {
  int heat;
  const char *rule;
  double alpha;
} sqz_cli_mpi_job;
int sqz_cli_mpi_steps(sqz_context *ctx, sqz_domain *dom, sqz_type type, sqz_field *whole, const sqz_cli_mpi_job *job,
                      uint64_t steps, double *kernel_s, double *wall_s, char **ranks_json);
#endif
