/* sqz_mpi.h — fields in parts on MPI ranks (libsqz built with -DSQZ_WITH_MPI): part r on rank r, halos by non-blocking messages. */
#ifndef SQZ_MPI_H
#define SQZ_MPI_H
#include <mpi.h>

#include "sqz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A field whose P parts (the plan of sqz_parts_info with P = the communicator's size) live on the
 * P ranks of a communicator: rank r holds part r, its own cells in compact order and its halo.
 * Before every step each rank sends the cells its neighbours' halos hold (one message per
 * neighbouring rank, MPI_Isend) and receives its halo (MPI_Irecv straight into the halo slots),
 * stepping the cells that read no halo cell meanwhile. Results are those of one part in one process,
 * bit for bit (the per-cell arithmetic is the cpu backend's).
 *
 * Every function here except sqz_mpi_field_stats is collective: every rank of the communicator
 * calls it with the same arguments (the root's field aside), and every rank gets the same status.
 * When one rank fails (its part does not fit its memory, its root field is bad), every rank returns
 * that status and sqz_last_error(ctx) reads "rank R: <the detail of rank R>" on every rank: no rank
 * is left waiting for another. A rank that dies is MPI's to report: Open MPI's default (errors are
 * fatal, mpirun ends the job when a process exits without MPI_Finalize) stops the others.
 *
 * Today a part is stepped on the host (the parted host run of the cpu backend): ctx must be a
 * context of the cpu backend and layout NULL or "compact"; other backends and layouts give
 * SQZ_ERR_UNSUPPORTED naming them, until parts of device fields take the same exchange.
 * More ranks than cells (or than 2^20) is SQZ_ERR_INVALID_ARGUMENT naming the largest valid count. */
typedef struct sqz_mpi_field sqz_mpi_field;
SQZ_API int sqz_field_create_mpi(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type, const char *layout,
                                 sqz_mpi_field **out);
SQZ_API void sqz_mpi_field_release(sqz_mpi_field *field); /* collective; NULL is a no-op */

/* The state between the parts and an ordinary field `whole` of the same domain and type (any layout
 * and backend) on rank root; `whole` is read only on root (NULL elsewhere). The root moves one part
 * at a time: its host memory is one part's cells (checked before allocation), besides `whole`.
 * A gather makes whole's state current only when every part arrived (a failure leaves it as it was). */
SQZ_API int sqz_mpi_field_scatter(sqz_mpi_field *field, sqz_field *whole, int root);
SQZ_API int sqz_mpi_field_gather(sqz_mpi_field *field, sqz_field *whole, int root);

/* The workloads of sqz.h on the parts (same rules, statuses and arithmetic). */
SQZ_API int sqz_mpi_life_step(sqz_mpi_field *field, const char *rule, uint64_t steps);
SQZ_API int sqz_mpi_heat_step(sqz_mpi_field *field, double alpha, uint64_t steps);
/* Non-zero cells of the whole field, on every rank. */
SQZ_API int sqz_mpi_field_count(sqz_mpi_field *field, uint64_t *nonzero);

/* This rank's figures (not collective): its part, own and halo cells, host bytes of the part,
 * neighbouring ranks, bytes it sends per step, seconds in steps and of those waiting for halos. */
typedef struct {
  uint64_t part, cells, halo_cells, bytes, neighbours, send_bytes;
  double step_s, wait_s;
} sqz_mpi_rank_stats;
SQZ_API int sqz_mpi_field_stats(const sqz_mpi_field *field, sqz_mpi_rank_stats *stats);

/* Agrees on a status over comm: SQZ_OK when st is SQZ_OK on every rank, else the status of the
 * lowest rank R that failed, with sqz_last_error(ctx) = "rank R: <R's detail>" on every rank. */
SQZ_API int sqz_mpi_agree(sqz_context *ctx, MPI_Comm comm, int st);

#ifdef __cplusplus
}
#endif
#endif
