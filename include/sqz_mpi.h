/* sqz_mpi.h — fields in parts on MPI ranks (the library libsqz-mpi: find_package(sqz COMPONENTS mpi), sqz::mpi; pkg-config sqz-mpi): contiguous blocks of parts per rank, halos by MPI messages. */
#ifndef SQZ_MPI_H
#define SQZ_MPI_H
#include <mpi.h>

#include "sqz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A field in P parts (P = the communicator's size, or more: sqz_field_create_mpi_parts; the plan of
 * sqz_field_create_parts) whose part r lives on rank r, on that rank's context ctx (its own device). It is an ordinary sqz_field with
 * parts held elsewhere: sqz_life_step, sqz_heat_step, sqz_stencil_step(_fn), sqz_field_fill_random
 * and sqz_field_fill_uniform work on it and are collective (every rank calls them alike: each step
 * exchanges halos, one message per pair of neighbouring parts on two ranks each way, overlapped
 * with the step of the units that read no halo); functions that read or write
 * cells by position (sqz_field_read/write, the files) need the whole state and fail with
 * SQZ_ERR_UNSUPPORTED on it: move the state to and from an ordinary field on one rank with
 * sqz_mpi_field_scatter / sqz_mpi_field_gather. The results equal a field in one buffer bit for bit.
 * Layouts: those that part (compact; block:RHO on fractals), on backends that hold parts (opencl,
 * cpu). Collective; every rank gets the same status (sqz_mpi_agree): more ranks than the layout
 * has units is SQZ_ERR_INVALID_ARGUMENT naming the largest valid count, a part that does not fit
 * its rank's device SQZ_ERR_OUT_OF_MEMORY "rank R: ..." naming the bytes, on every rank. */
/* sqz_field_release of such a field is collective too (it frees the field's communicator). */
SQZ_API int sqz_field_create_mpi(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type, const char *layout,
                                 sqz_field **out);
/* The same in `parts` parts (>= the communicator's size P), part p on rank p * P / parts (contiguous
 * blocks of parts per rank; halos between parts of one rank move by device copy, between ranks by
 * MPI). parts = 0 (what sqz_field_create_mpi takes): P, or the fewest parts that each fit every
 * rank's device allocation limit when a part per rank would not (SQZ_MAX_ALLOC lowers it, as for
 * sqz_field_create). Fewer parts than ranks: SQZ_ERR_INVALID_ARGUMENT on every rank. */
SQZ_API int sqz_field_create_mpi_parts(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type,
                                       const char *layout, uint64_t parts, sqz_field **out);

/* The state between an MPI field and an ordinary field `whole` of the same domain, type and layout
 * on rank root (read on root only; NULL elsewhere), one piece of at most 2^24 storage elements at a
 * time (host memory on each rank: one piece). Collective, agreed statuses. A failed gather leaves
 * whole's state undefined. */
SQZ_API int sqz_mpi_field_scatter(sqz_field *field, sqz_field *whole, int root);
SQZ_API int sqz_mpi_field_gather(sqz_field *field, sqz_field *whole, int root);

/* Non-zero cells and the sum of the whole field, on every rank (collective). The count is exact;
 * the sum is the ranks' sums (sqz_field_sum with method) added in rank order. */
SQZ_API int sqz_mpi_field_count(sqz_field *field, uint64_t *nonzero);
SQZ_API int sqz_mpi_field_sum(sqz_field *field, sqz_sum_method method, double *sum);

/* sqz_field_observe over the whole field, on every rank (collective): each rank's partial sums
 * combined in rank order, the probe from the rank that holds its cell. */
SQZ_API int sqz_mpi_field_observe(sqz_field *field, const sqz_observable *items, size_t n, double *out);
/* This rank's figures (not collective): its part, its own and halo storage units and elements per
 * unit, bytes of its two buffers, neighbouring ranks, bytes it sends per step, and seconds since
 * creation spent in halo exchanges (packing, messages, waits), of those blocked on messages
 * (wait_s), and in the calls that step the inner and the border units (sqz_parts_times). */
typedef struct {
  uint64_t part, units, halo_units, unit_elems, bytes, neighbours, send_bytes;
  double exchange_s, wait_s, inner_s, border_s;
  uint64_t parts; /* parts held here (part: the first of them; units, halo_units, bytes: their sums) */
} sqz_mpi_rank_stats;
SQZ_API int sqz_mpi_field_stats(const sqz_field *field, sqz_mpi_rank_stats *stats);

/* Agrees on a status over comm: SQZ_OK when st is SQZ_OK on every rank, else the status of the
 * lowest rank R that failed, with sqz_last_error(ctx) = "rank R: <R's detail>" on every rank (a
 * detail that already starts with "rank " is kept as it is). */
SQZ_API int sqz_mpi_agree(sqz_context *ctx, MPI_Comm comm, int st);

#ifdef __cplusplus
}
#endif
#endif
