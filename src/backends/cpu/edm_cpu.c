/* edm_cpu.c (cpu) — the reference Euclidean distance matrix, through cl/sqz_edm.h as on fp64 devices. */
#include "backends/cpu/cpu_engine.h"
#include "simplex/simplex_plan.h"
#include "sqz_common.h"
#include "sqz_edm.h"

int sqz__cpu_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
  sqz_simplex_plan plan; /* validates the map like the device path */
  int st = sqz__simplex_plan(ctx, 2, n, map, 0, 0, &plan);
  if (st != SQZ_OK) return st;
  sqz__simplex_plan_free(&plan);
  double t0 = sqz__now();
  for (uint64_t y = 0; y < n; y++)
    for (uint64_t x = 0; x <= y; x++)
      out[sqz_tri(y) + x] = sqz_edm_dist64(xy[2 * x], xy[2 * x + 1], xy[2 * y], xy[2 * y + 1]);
  ctx->kernel_s += sqz__now() - t0;
  return SQZ_OK;
}
