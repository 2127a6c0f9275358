/* edm.c — sqz_edm: Euclidean distance matrix of 2D points into packed lower-triangle storage (cpu, opencl). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simplex/simplex_plan.h"

static int sqz__edm_cpu(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
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

static int sqz__edm_cl(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "edm.cl", NULL};
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  cl_mem pts = NULL, res = NULL;
  uint64_t entries = sqz_tri(n);
  int st = sqz__simplex_kernel(ctx, 2, n, map, 0, SQZ_SL_COMPACT, NULL, files, "sqz_edm", &plan, &k);
  if (st != SQZ_OK) return st;
  st = sqz__buffer(ctx, 2 * n * sizeof(float), CL_MEM_READ_ONLY, &pts);
  if (st == SQZ_OK) st = sqz__buffer(ctx, entries * sizeof(float), CL_MEM_WRITE_ONLY, &res);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueWriteBuffer(ctx->queue, pts, CL_FALSE, 0, 2 * n * sizeof(float), xy, 0, NULL, NULL));
  cl_uint cn = (cl_uint)n, rho = plan.rho;
  st = sqz__args(ctx, k, sizeof pts, &pts, sizeof res, &res, sizeof cn, &cn, sizeof rho, &rho, (size_t)0);
  if (st == SQZ_OK) st = sqz__simplex_enqueue(ctx, k, 4, &plan);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(ctx->queue, res, CL_TRUE, 0, entries * sizeof(float), out, 0, NULL, NULL));
  st = sqz__finish(ctx);
done:
  if (pts) clReleaseMemObject(pts);
  if (res) clReleaseMemObject(res);
  clReleaseKernel(k);
  sqz__simplex_plan_free(&plan);
  return st;
}

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
  int st;
  if (ctx->backend == SQZ_BACKEND_CPU) st = sqz__edm_cpu(ctx, xy, n, map, out);
  else if (ctx->backend == SQZ_BACKEND_OPENCL) st = sqz__edm_cl(ctx, xy, n, map, out);
  else st = sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "sqz_edm runs on the cpu and opencl backends, not %s",
                      sqz_context_backend(ctx));
  sqz__op_end(ctx);
  return st;
}
