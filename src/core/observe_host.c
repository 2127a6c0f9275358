/* observe_host.c — the observables' moments on the host: the accumulator of partials, and the pass over storage that the cpu backend runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe_host.h"

void sqz__obs_acc_init(sqz_obs_acc *acc) {
  memset(acc, 0, sizeof *acc);
  acc->min = INFINITY;
  acc->max = -INFINITY;
}

void sqz__obs_acc_add(sqz_obs_acc *acc, uint32_t n_points, const double *sums, uint64_t count, double min,
                      double max) {
  for (uint32_t s = 0; s < SQZ_OBS_SM2 + n_points; s++) sqz__red_add(&acc->sum[s], sums[s]);
  acc->count += count;
  if (min < acc->min) acc->min = min;
  if (max > acc->max) acc->max = max;
}

/* Cell i of a store of f's type as a double. */
static double obs_cell(sqz_type type, const void *store, uint64_t i) {
  switch (type) {
  case SQZ_U8: return ((const uint8_t *)store)[i];
  case SQZ_I32: return ((const int32_t *)store)[i];
  case SQZ_F32: return ((const float *)store)[i];
  default: return ((const double *)store)[i];
  }
}

/* One block's partial: Neumaier (sum, correction) pairs in double, as the kernels keep them. */
typedef struct {
  double s[SQZ_OBS_SUMS], c[SQZ_OBS_SUMS], min, max;
  uint64_t count;
} obs_block;

static void obs_block_add(obs_block *b, uint32_t k, double v) {
  const double t = b->s[k] + v;
  b->c[k] += fabs(b->s[k]) >= fabs(v) ? (b->s[k] - t) + v : (v - t) + b->s[k];
  b->s[k] = t;
}

static void obs_block_run(const sqz_field *f, const void *store, uint64_t e0, uint64_t i0, uint64_t i1,
                          const sqz_obs_req *req, obs_block *b) {
  memset(b, 0, sizeof *b);
  b->min = INFINITY;
  b->max = -INFINITY;
  for (uint64_t i = i0; i < i1; i++) {
    uint64_t x, y, z;
    if (!sqz__layout_coords(f, e0 + i, &x, &y, &z)) continue;
    const double u = obs_cell(f->type, store, i), p[3] = {(double)x, (double)y, (double)z};
    b->count += u != 0.0;
    b->min = u < b->min ? u : b->min;
    b->max = u > b->max ? u : b->max;
    obs_block_add(b, SQZ_OBS_SU, u);
    for (uint32_t d = 0; d < 3; d++) obs_block_add(b, SQZ_OBS_SX + d, u * p[d]);
    for (uint32_t c = 0; c < req->n_points; c++) {
      double r2 = 0.0;
      for (uint32_t d = 0; d < 3; d++) r2 += (p[d] - req->point[c][d]) * (p[d] - req->point[c][d]);
      obs_block_add(b, SQZ_OBS_SM2 + c, u * r2);
    }
  }
}

#define SQZ_OBS_BLOCK ((uint64_t)1 << 16) /* cells a block: the partials' order, whatever the threads */

/* Block k of n cells into b. */
static void obs_block_k(const sqz_field *f, const void *store, uint64_t e0, uint64_t n, int64_t k,
                        const sqz_obs_req *req, obs_block *b) {
  uint64_t i0 = (uint64_t)k * SQZ_OBS_BLOCK, i1 = n - i0 > SQZ_OBS_BLOCK ? i0 + SQZ_OBS_BLOCK : n;
  obs_block_run(f, store, e0, i0, i1, req, b);
}

static void obs_block_fold(sqz_obs_acc *acc, const sqz_obs_req *req, const obs_block *b) {
  sqz__obs_acc_add(acc, req->n_points, b->s, b->count, b->min, b->max);
  sqz__obs_acc_add(acc, req->n_points, b->c, 0, INFINITY, -INFINITY);
}

void sqz__obs_host_range(const sqz_field *f, const void *store, uint64_t e0, uint64_t n, const sqz_obs_req *req,
                         sqz_obs_acc *acc) {
  const int64_t blocks = (int64_t)((n + SQZ_OBS_BLOCK - 1) / SQZ_OBS_BLOCK);
  obs_block one, *part = blocks > 1 ? malloc((size_t)blocks * sizeof *part) : NULL;
  if (part) {
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t k = 0; k < blocks; k++) obs_block_k(f, store, e0, n, k, req, &part[k]);
  }
  for (int64_t k = 0; k < blocks; k++) { /* in block order; serially when there is no room for the partials */
    if (!part) obs_block_k(f, store, e0, n, k, req, &one);
    obs_block_fold(acc, req, part ? &part[k] : &one);
  }
  free(part);
}
