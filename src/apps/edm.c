/* edm.c — sqz_edm: Euclidean distance matrix of 2D points into packed lower-triangle storage (validation, then the backend). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core/backend.h"
#include "simplex/simplex_plan.h"

int sqz_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_edm: ctx is NULL");
  if (!xy || !out) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_edm: points or output is NULL");
  if (n == 0) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_edm: no points (n = 0)");
  if (n > 0x80000000ull || sqz_tri(n) > SIZE_MAX / sizeof(float))
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "sqz_edm: %llu points give more entries than fit in memory",
                     (unsigned long long)n);
  for (uint64_t i = 0; i < 2 * n; i++)
    if (!isfinite(xy[i]))
      return sqz__fail(ctx, SQZ_ERR_NON_FINITE, "sqz_edm: point %llu has a non-finite %c coordinate",
                       (unsigned long long)(i / 2), i % 2 ? 'y' : 'x');
  sqz__op_begin(ctx);
  int st = ctx->ops->edm(ctx, xy, n, map, out);
  sqz__op_end(ctx);
  /* finite points give an infinite entry only where the distance exceeds FLT_MAX */
  for (uint64_t y = 0; st == SQZ_OK && y < n; y++)
    for (uint64_t x = 0; x <= y; x++)
      if (!isfinite(out[sqz_tri(y) + x]))
        return sqz__fail(ctx, SQZ_ERR_NON_FINITE,
                         "sqz_edm: the distance of points %llu and %llu, (%.9g, %.9g) and (%.9g, %.9g), exceeds "
                         "the largest float, %.9g",
                         (unsigned long long)x, (unsigned long long)y, xy[2 * x], xy[2 * x + 1], xy[2 * y],
                         xy[2 * y + 1], FLT_MAX);
  return st;
}
