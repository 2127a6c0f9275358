/* simplex_info.c — analysis behind `sqz info`: map waste, largest side per layout, m-simplex volumes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "simplex/simplex_plan.h"
#include "sqz_bench.h"

int sqz__simplex_map_stats(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho,
                           sqz_simplex_map_stats *out) {
  sqz_simplex_plan plan;
  memset(out, 0, sizeof *out);
  int st = sqz__simplex_plan(ctx, dims, n, map, rho, 0, &plan);
  if (st != SQZ_OK) return st;
  snprintf(out->map, sizeof out->map, "%s", plan.map);
  out->rho = plan.rho;
  out->launches = plan.count;
  out->launched = sqz__simplex_plan_threads(&plan);
  out->useful = dims == 2 ? sqz_tri(n) : sqz_tet(n);
  out->waste = (double)(out->launched - out->useful) / (double)out->useful;
  sqz__simplex_plan_free(&plan);
  return SQZ_OK;
}

/* storage cells of one buffer for side n, 0 on overflow */
static uint64_t sqz__cells(int dims, sqz_layout_id layout, uint64_t n) {
  uint64_t c;
  if (layout == SQZ_LAYOUT_COMPACT) return dims == 2 ? sqz_tri(n) : sqz_tet(n);
  if (!sqz__checked_mul(n, n, &c)) return 0;
  if (dims == 3 && !sqz__checked_mul(c, n, &c)) return 0;
  return c;
}

static int sqz__fits(int dims, sqz_layout_id layout, uint64_t n, uint64_t cell_bytes, uint64_t buffers,
                     uint64_t max_alloc, uint64_t global_mem) {
  uint64_t c = sqz__cells(dims, layout, n), one, all;
  if (!c || !sqz__checked_mul(c, cell_bytes, &one) || !sqz__checked_mul(one, buffers, &all)) return 0;
  return one <= max_alloc && all <= global_mem;
}

uint64_t sqz__simplex_max_side(int dims, sqz_layout_id layout, uint64_t cell_bytes, uint64_t buffers,
                               uint64_t max_alloc, uint64_t global_mem) {
  uint64_t lo = 0, hi = dims == 2 ? 0x80000000ull : 0x200000ull; /* the domain's largest side */
  if (sqz__fits(dims, layout, hi, cell_bytes, buffers, max_alloc, global_mem)) return hi;
  while (hi - lo > 1) { /* fits(lo), !fits(hi) */
    uint64_t mid = lo + (hi - lo) / 2;
    if (sqz__fits(dims, layout, mid, cell_bytes, buffers, max_alloc, global_mem)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* C(n + m - 1, m) in floating point */
static double sqz__simplex_volume(uint64_t n, int m) {
  double v = 1.0;
  for (int i = 1; i <= m; i++) v = v * (double)(n + (uint64_t)i - 1u) / i;
  return v;
}

int sqz_bench_msimplex(int32_t m, double r, double beta, uint64_t n, sqz_msimplex_volume *out) {
  sqz_context *ctx = NULL; /* a host analysis: details go to the thread's slot */
  if (!out) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_bench_msimplex needs an output record");
  memset(out, 0, sizeof *out);
  if (m < 2 || m > 16) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "m = %d: the analysis covers m = 2..16", m);
  if (!(r > 0.0 && r < 1.0)) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "scale r = %g is not in (0, 1)", r);
  if (!(beta >= 1.0 && beta <= 1e6)) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "arity beta = %g is not in [1, 1e6]", beta);
  double denom = pow(r, -m) - beta;
  if (!(denom > 0.0))
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "beta * r^m = %g is not below 1: the recursive set grows without bound (m = %d, r = %g, beta = %g)",
                     beta * pow(r, m), m, r, beta);
  double mfact = 1.0;
  for (int i = 2; i <= m; i++) mfact *= i;
  out->m = m;
  out->r = r;
  out->beta = beta;
  out->denom = denom;
  out->gamma = log(beta) / log(1.0 / r);
  out->limit_extra = mfact / denom - 1.0;
  out->mfact_r = pow(mfact + beta, -1.0 / m);
  if (n == 0) {
    double s = 1.0 / r;
    n = fabs(s - floor(s + 0.5)) < 1e-9 ? (uint64_t)pow(floor(s + 0.5), 4) : 16u;
  }
  out->n = n;
  /* closed form (exact for n a power of 1/r): V(S) = (n^m - n^gamma) / (r^-m - beta) */
  out->volume_set = (pow((double)n, m) - pow((double)n, out->gamma)) / denom;
  out->volume_simplex = sqz__simplex_volume(n, m);
  out->extra = out->volume_set / out->volume_simplex - 1.0;
  return SQZ_OK;
}
