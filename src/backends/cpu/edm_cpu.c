/* edm_cpu.c (cpu) — the reference Euclidean distance matrix, two roundings per square as on devices. */
#include <math.h>

#include "backends/cpu/cpu_engine.h"
#include "simplex/simplex_plan.h"

int sqz__cpu_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
  sqz_simplex_plan plan; /* validates the map like the device path */
  int st = sqz__simplex_plan(ctx, 2, n, map, 0, 0, &plan);
  if (st != SQZ_OK) return st;
  sqz__simplex_plan_free(&plan);
  double t0 = sqz__now();
  for (uint64_t y = 0; y < n; y++)
    for (uint64_t x = 0; x <= y; x++) {
      float dx = xy[2 * x] - xy[2 * y], dy = xy[2 * x + 1] - xy[2 * y + 1];
      float d2 = dx * dx; /* two roundings, as on the device (no fma contraction) */
      d2 = d2 + dy * dy;
      out[sqz_tri(y) + x] = sqrtf(d2);
    }
  ctx->kernel_s += sqz__now() - t0;
  return SQZ_OK;
}
