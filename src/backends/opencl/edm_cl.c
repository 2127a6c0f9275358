/* edm_cl.c (opencl) — the Euclidean distance matrix through a triangle thread map (cl/edm.cl). */
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"
#include "backends/opencl/cl_simplex.h"

/* Arguments of sqz_edm (cl/edm.cl): points, result, n, rho, then the launch of the plan. */
enum { EA_LAUNCH = 4 };

int sqz__cl_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_edm.h", "edm.cl", NULL};
  /* double arithmetic where the device has it (as the cpu backend), else the scaled float form;
   * the option edm_fp32=1 takes the float form anyway (tests compile and check it on any device) */
  int fp64 = sqz__cl_has_fp64(ctx) && !sqz__opt_num(ctx, NULL, SQZ_OPT_EDM_FP32, 0);
  const char *extra = fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define SQZ_EDM_FP64 1\n" : NULL;
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  cl_mem pts = NULL, res = NULL;
  uint64_t entries = sqz_tri(n);
  int st = sqz__simplex_kernel(ctx, 2, n, map, 0, SQZ_SL_COMPACT, extra, files, "sqz_edm", &plan, &k);
  if (st != SQZ_OK) return st;
  st = sqz__buffer(ctx, 2 * n * sizeof(float), CL_MEM_READ_ONLY, &pts);
  if (st == SQZ_OK) st = sqz__buffer(ctx, entries * sizeof(float), CL_MEM_WRITE_ONLY, &res);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueWriteBuffer(SQZ_CL(ctx)->queue, pts, CL_FALSE, 0, 2 * n * sizeof(float), xy, 0, NULL, NULL));
  cl_uint cn = (cl_uint)n, rho = plan.rho;
  st = sqz__args(ctx, k, sizeof pts, &pts, sizeof res, &res, sizeof cn, &cn, sizeof rho, &rho, (size_t)0);
  if (st == SQZ_OK) st = sqz__simplex_enqueue(ctx, k, EA_LAUNCH, &plan);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, res, CL_TRUE, 0, entries * sizeof(float), out, 0, NULL, NULL));
  st = sqz__cl_finish(ctx);
done:
  if (pts) clReleaseMemObject(pts);
  if (res) clReleaseMemObject(res);
  clReleaseKernel(k);
  sqz__simplex_plan_free(&plan);
  return st;
}
