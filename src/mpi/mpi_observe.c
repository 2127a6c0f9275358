/* mpi_observe.c — sqz_mpi_field_observe: each rank's moments and probes, combined in rank order on rank 0 and given to every rank. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apps/observe.h"
#include "mpi/mpi_internal.h"

/* This rank's share as doubles: the sums, min, max, then per probe its value and 1 where held here. */
static int obs_mine(sqz_field *f, const sqz_observable *items, size_t n, const sqz_obs_req *req, double *mine,
                    uint64_t *count) {
  sqz_obs_acc acc;
  sqz__op_begin(f->ctx);
  int st = sqz__field_obs_acc(f, req, &acc);
  sqz__op_end(f->ctx);
  if (st != SQZ_OK) return st;
  size_t m = 0;
  for (int s = 0; s < SQZ_OBS_SUMS; s++) mine[m++] = (double)(acc.sum[s].s + acc.sum[s].c);
  mine[m++] = acc.min;
  mine[m++] = acc.max;
  *count = acc.count;
  for (size_t i = 0; st == SQZ_OK && i < n; i++) {
    int here = 0;
    if (items[i].kind != SQZ_OBS_PROBE) continue;
    st = sqz__field_probe(f, &items[i], &mine[m], &here);
    mine[m + 1] = here;
    m += 2;
  }
  return st;
}

/* Rank 0: the ranks' shares (m doubles and a count each) in rank order into the items' values. */
static void obs_combine(sqz_field *f, const sqz_observable *items, size_t n, const sqz_obs_req *req, int ranks,
                        size_t m, const double *all, const uint64_t *counts, double *probe, double *out) {
  sqz_obs_acc acc;
  sqz__obs_acc_init(&acc);
  size_t np = (m - SQZ_OBS_SUMS - 2) / 2;
  for (int r = 0; r < ranks; r++) {
    const double *d = all + (size_t)r * m;
    sqz__obs_acc_add(&acc, req->n_points, d, counts[r], d[SQZ_OBS_SUMS], d[SQZ_OBS_SUMS + 1]);
    for (size_t p = 0; p < np; p++)
      if (d[SQZ_OBS_SUMS + 3 + 2 * p] != 0.0) probe[p] = d[SQZ_OBS_SUMS + 2 + 2 * p]; /* the rank holding it */
  }
  sqz__obs_values(f, items, n, &acc, probe, out);
}

int sqz_mpi_field_observe(sqz_field *f, const sqz_observable *items, size_t n, double *out) {
  sqz_mpi_state *x = sqz__mpi_state(f);
  if (!x || (n && (!items || !out)))
    return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_mpi_field_observe: %s",
                     !x ? "not a field on MPI ranks" : "items or out is NULL");
  sqz_obs_req req;
  size_t np = 0, width = 0;
  for (size_t i = 0; i < n; i++) {
    np += items[i].kind == SQZ_OBS_PROBE;
    width += sqz_observable_width(&items[i], f->dom->dims);
  }
  const size_t m = SQZ_OBS_SUMS + 2 + 2 * np, ranks = x->rank == 0 ? (size_t)x->size : 1;
  double *mine = sqz__calloc(m, sizeof *mine), *all = sqz__calloc(ranks * m, sizeof *all);
  double *probe = sqz__calloc(np + 1, sizeof *probe);
  uint64_t count = 0, *counts = sqz__calloc(ranks, sizeof *counts);
  int st = mine && all && probe && counts ? sqz__obs_request(f, items, n, &req)
                                          : sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the observables of %d ranks", x->size);
  if (st == SQZ_OK) st = obs_mine(f, items, n, &req, mine, &count);
  if ((st = sqz_mpi_agree(f->ctx, x->comm, st)) == SQZ_OK) {
    MPI_Gather(mine, (int)m, MPI_DOUBLE, all, (int)m, MPI_DOUBLE, 0, x->comm);
    MPI_Gather(&count, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, 0, x->comm);
    if (x->rank == 0) obs_combine(f, items, n, &req, x->size, m, all, counts, probe, out);
    if (width) MPI_Bcast(out, (int)width, MPI_DOUBLE, 0, x->comm);
  }
  free(mine);
  free(all);
  free(probe);
  free(counts);
  return st;
}
