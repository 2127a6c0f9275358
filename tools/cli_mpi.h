/* cli_mpi.h — `mpirun -np P sqz life|heat ...`: MPI start and end, agreement of every rank on the outcome, the rank's device, and the steps of a run in parts on the ranks. */
#ifndef SQZ_CLI_MPI_H
#define SQZ_CLI_MPI_H
#include <stddef.h>
#include <stdint.h>

#include "cli_init.h"
#include "cli_observe.h"
#include "sqz.h"

/* Starts MPI when a launcher started this process (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK
 * in the environment; a plain `sqz` never touches MPI, nor does a build without MPI). Ranks other
 * than 0 write nothing: stdout goes nowhere, stderr to a scratch file whose text rank 0 prints
 * when that rank alone failed. */
void sqz_cli_mpi_init(int *argc, char ***argv);
/* Passes sqz_cli_mpi_agree's points a command did not reach (it ended early), ends MPI and returns the
 * agreed exit status. */
int sqz_cli_mpi_finalize(int rc);
/* 1 when this process started MPI (a launcher started it, even with one rank), else 0. */
int sqz_cli_mpi_started(void);
/* Ranks of the run (1: no MPI), this process's rank and its rank among the ranks of its node. */
int sqz_cli_mpi_ranks(void);
int sqz_cli_mpi_rank(void);
/* The points where every rank agrees on the exit status so far (the largest of the ranks'): BEGIN
 * before the collective steps (text, len: rank 0's text, e.g. the rule a file recorded, given to
 * every rank), END at the end. A rank that gives up early passes BEGIN with its status on the way
 * to END, so no rank waits in a collective that another skipped. */
enum { SQZ_CLI_MPI_BEGIN = 1, SQZ_CLI_MPI_END = 2 };
int sqz_cli_mpi_agree(int point, int rc, char *text, size_t len);
/* What every rank of a run must agree on (the command, its options and files as given: value NULL = not given;
 * SQZ_EXCHANGE_STEPS and SQZ_OVERLAP are added): set before BEGIN, where each rank compares it with rank 0's and
 * one that differs fails (exit 1) with "rank R: KEY is X here but Y on rank 0", which rank 0 prints, so no rank
 * waits for a halo another never sends. Device selections and kernel tuning variables may differ per rank. */
typedef struct {
  const char *key, *value;
} sqz_cli_kv;
void sqz_cli_mpi_config(const char *cmd, const sqz_cli_kv *kv, size_t n);
/* Opens this rank's context (sqz_cli_open) on its device: of a comma-separated --device/--devices (else
 * $SQZ_DEVICE) list the entry of its node-local rank (list[local % n]; an entry of digits only is the Nth
 * device of the backend, as in --devices, and one past them exit status 2); one device as given; none:
 * the backend's GPUs (else all its devices) by node-local rank, so the ranks of a node spread over its
 * GPUs. Returns 0 or the exit status after a message. */
int sqz_cli_mpi_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx);
/* Refuses (exit status 2) the options a run on ranks does not take (--parts below the ranks: each
 * rank holds a part; --map, --block, --frames: not yet). */
int sqz_cli_mpi_options(const char *cmd, uint64_t parts, const char *map, uint64_t block, const char *frames);

/* A run on the ranks (a build with MPI): every rank makes its part of a field on the ranks (*mf, in
 * layout; the caller releases it), fills it (random: each part from the seed, as one field would
 * be; else scattered from rank 0's field `whole`), runs `steps` of Life, heat or the user's stencil,
 * counts (heat: sums before and after), and gathers the state into whole when whole is given
 * (rank 0; NULL elsewhere, and on rank 0 when no file is written). A step that fails on one rank
 * ends every rank (MPI_Abort, its message on stderr): the others wait for its halo. Returns a
 * status every rank agrees on. */
enum { SQZ_CLI_MPI_LIFE, SQZ_CLI_MPI_HEAT, SQZ_CLI_MPI_RUN };
typedef struct {
  int kind;            /* Life with rule, heat with alpha, or the user's source with params */
  const char *rule;
  double alpha;
  const char *source, *source_name;
  const double *params;
  size_t n_params;
  const sqz_cli_gen *gen; /* fill the parts (random, uniform, const, point); NULL: scatter rank 0's whole */
  int gather;          /* the state back into rank 0's whole after the steps */
  uint64_t parts;      /* --parts (>= the ranks; 0: a part per rank, or more where one does not fit) */
  sqz_cli_obs *obs;    /* --observe: rows at step 0 and every `every` steps (sqz_mpi_field_observe); n = 0: none */
  uint64_t every;
  uint64_t nonzero;    /* out: non-zero cells after the steps */
  double sum0, sum1;   /* out (heat): the sums before and after (NaN where finite values sum past the range) */
  int overflowed;      /* out (heat): the state became non-finite from a finite start (sum1 then unset) */
  double kernel_s, wall_s; /* out: the slowest rank's */
  char *ranks_json;    /* out (rank 0): per-rank figures as a JSON array; the caller frees it */
} sqz_cli_mpi_job;
int sqz_cli_mpi_run(sqz_context *ctx, sqz_domain *dom, sqz_type type, const char *layout, sqz_field *whole,
                    sqz_cli_mpi_job *job, uint64_t steps, sqz_field **mf);
#endif
