/* observe_cl.c — the opencl backend's observe (cl/observe.cl): program per cell type, family and centre count, a bounded grid, partials folded on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/opencl/cl_engine.h"
#include "core/part_view.h"
#include "fractal/fractal_internal.h"
#include "sqz_simplex.h"

#define OBS_MAX_LOCAL 256
#define OBS_MAX_GROUPS 1024

/* The prelude: cell type and its extremes, accumulator, centres, family (and simplex layout). */
static void obs_prelude(const sqz_field *f, int fp64, uint32_t np, char *buf, size_t len) {
  static const char *const t[] = {"", "uchar", "int", "float", "double"};
  static const char *const lo[] = {"", "0", "(-2147483647 - 1)", "(-INFINITY)", "(-INFINITY)"};
  static const char *const hi[] = {"", "255", "2147483647", "INFINITY", "INFINITY"};
  const int simplex = f->dom->kind != SQZ_DOMAIN_FRACTAL;
  snprintf(buf, len,
           "%s#define SQZ_OBS_T %s\n#define SQZ_OBS_TMIN %s\n#define SQZ_OBS_TMAX %s\n#define SQZ_OBS_ACC %s\n"
           "#define SQZ_OBS_NP %u\n#define SQZ_OBS_FAMILY %d\n#define SQZ_DIMS %d\n#define SQZ_SLAYOUT %d\n",
           fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", t[f->type], lo[f->type], hi[f->type],
           fp64 ? "double" : "float", np, simplex ? 1 : 2, f->dom->dims,
           f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT);
}

/* The work-group size: the kernel's limit, at most OBS_MAX_LOCAL, and local memory for its tree. */
static size_t obs_local(sqz_context *ctx, cl_kernel k, size_t per_item) {
  size_t local = 1;
  if (clGetKernelWorkGroupInfo(k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof local, &local, NULL) != CL_SUCCESS)
    local = 1;
  if (local > OBS_MAX_LOCAL) local = OBS_MAX_LOCAL;
  while (local > 1 && local * per_item > ctx->local_mem) local /= 2;
  return sqz_pow2floor((sqz_u32)(local ? local : 1));
}

/* Stage two: the groups' partials into acc (sums and their corrections, count, min and max). */
static void obs_fold(const sqz_field *f, int fp64, uint32_t np, const void *sums, const cl_ulong *count,
                     const void *mm, size_t groups, sqz_obs_acc *acc) {
  const uint32_t ns = SQZ_OBS_SM2 + np;
  for (size_t g = 0; g < groups; g++) {
    double s[SQZ_OBS_SUMS], c[SQZ_OBS_SUMS], m[2];
    for (uint32_t q = 0; q < 2 * ns; q++) {
      size_t at = g * 2 * ns + q;
      double val = fp64 ? ((const cl_double *)sums)[at] : ((const cl_float *)sums)[at];
      if (q % 2) c[q / 2] = val;
      else s[q / 2] = val;
    }
    for (int e = 0; e < 2; e++) {
      size_t at = 2 * g + (size_t)e;
      m[e] = f->type == SQZ_U8    ? ((const cl_uchar *)mm)[at]
             : f->type == SQZ_I32 ? ((const cl_int *)mm)[at]
             : f->type == SQZ_F32 ? ((const cl_float *)mm)[at]
                                  : ((const cl_double *)mm)[at];
    }
    sqz__obs_acc_add(acc, np, s, count[g], m[0], m[1]);
    sqz__obs_acc_add(acc, np, c, 0, INFINITY, -INFINITY);
  }
}

/* The launch over f's own storage elements and the read-back of the partials into acc. */
static int obs_launch(sqz_field *f, cl_kernel k, int fp64, uint32_t np, cl_mem fr, cl_mem pts, sqz_obs_acc *acc) {
  sqz_context *ctx = f->ctx;
  const sqz_fractal *p = &f->dom->fr;
  const int fractal = f->dom->kind == SQZ_DOMAIN_FRACTAL, block = f->layout == SQZ_LAYOUT_BLOCK;
  const size_t ab = fp64 ? sizeof(cl_double) : sizeof(cl_float), tb = sqz_type_size(f->type), ns = SQZ_OBS_SM2 + np;
  const size_t per_item = 2 * ns * ab + sizeof(cl_ulong) + 2 * tb, local = obs_local(ctx, k, per_item);
  uint64_t e0, n;
  sqz__own_elems(f, &e0, &n);
  uint64_t groups = (n + local * 8 - 1) / (local * 8), cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * 8;
  if (cap > OBS_MAX_GROUPS) cap = OBS_MAX_GROUPS;
  groups = groups < 1 ? 1 : groups > cap ? cap : groups;
  cl_mem sums = NULL, count = NULL, mm = NULL;
  unsigned char *host = sqz__malloc((size_t)groups * (2 * ns * ab + sizeof(cl_ulong) + 2 * tb));
  int st = host ? SQZ_OK : sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %llu partials", (unsigned long long)groups);
  if (st == SQZ_OK) st = sqz__buffer(ctx, groups * 2 * ns * ab, CL_MEM_WRITE_ONLY, &sums);
  if (st == SQZ_OK) st = sqz__buffer(ctx, groups * sizeof(cl_ulong), CL_MEM_WRITE_ONLY, &count);
  if (st == SQZ_OK) st = sqz__buffer(ctx, groups * 2 * tb, CL_MEM_WRITE_ONLY, &mm);
  cl_mem v = (cl_mem)f->mem[f->cur];
  cl_ulong first = e0, nn = n, rho = block ? f->layout_rho : f->dom->side;
  cl_uint side = (cl_uint)f->dom->side, s = fractal ? (cl_uint)p->s : 0, kk = fractal ? (cl_uint)p->k : 0;
  cl_uint levels = fractal ? (cl_uint)p->r : 0, compact = f->layout == SQZ_LAYOUT_COMPACT;
  cl_uint j = block ? (cl_uint)sqz__fractal_rho_level(p->s, f->layout_rho) : levels;
  if (st == SQZ_OK)
    st = sqz__args(ctx, k, sizeof v, &v, sizeof first, &first, sizeof nn, &nn, sizeof side, &side, sizeof s, &s,
                   sizeof kk, &kk, sizeof levels, &levels, sizeof j, &j, sizeof rho, &rho, sizeof compact, &compact,
                   sizeof fr, &fr, sizeof pts, &pts, sizeof sums, &sums, sizeof count, &count, sizeof mm, &mm,
                   local * 2 * ns * ab, (const void *)NULL, local * sizeof(cl_ulong), (const void *)NULL,
                   local * 2 * tb, (const void *)NULL, (size_t)0);
  const size_t global = (size_t)groups * local;
  if (st == SQZ_OK && n) st = sqz__run(ctx, k, 1, &global, &local);
  if (st == SQZ_OK && n) st = sqz__cl_finish(ctx);
  unsigned char *hs = host, *hc = host + groups * 2 * ns * ab, *hm = hc + groups * sizeof(cl_ulong);
  cl_command_queue q = st == SQZ_OK ? SQZ_CL(ctx)->queue : NULL;
  if (q && n) SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(q, sums, CL_TRUE, 0, groups * 2 * ns * ab, hs, 0, NULL, NULL));
  if (q && n) SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(q, count, CL_TRUE, 0, groups * sizeof(cl_ulong), hc, 0, NULL, NULL));
  if (q && n) SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(q, mm, CL_TRUE, 0, groups * 2 * tb, hm, 0, NULL, NULL));
  if (q && n) obs_fold(f, fp64, np, hs, (const cl_ulong *)hc, hm, (size_t)groups, acc);
done:
  if (mm) clReleaseMemObject(mm);
  if (count) clReleaseMemObject(count);
  if (sums) clReleaseMemObject(sums);
  free(host);
  return st;
}

int sqz__cl_observe(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc) {
  sqz_context *ctx = f->ctx;
  const int fp64 = sqz__cl_has_fp64(ctx);
  if (f->type == SQZ_F64 && !fp64)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "observing float64 cells needs cl_khr_fp64, which %s lacks",
                     ctx->device_name);
  static const char *const fractal_files[] = {"sqz_common.h", "sqz_fractal.h", "observe.cl", NULL};
  static const char *const simplex_files[] = {"sqz_common.h", "sqz_simplex.h", "observe.cl", NULL};
  char pre[512];
  obs_prelude(f, fp64, req->n_points, pre, sizeof pre);
  cl_kernel k = NULL;
  cl_mem fr = NULL, pts = NULL;
  int st = sqz__program_kernel(ctx, pre, f->dom->kind == SQZ_DOMAIN_FRACTAL ? fractal_files : simplex_files, "",
                               "sqz_observe", &k);
  if (st == SQZ_OK && f->dom->kind == SQZ_DOMAIN_FRACTAL) st = sqz__cl_fractal_pattern(ctx, &f->dom->fr, &fr);
  else if (st == SQZ_OK) st = sqz__const_buffer(ctx, sizeof(cl_int), &(cl_int){0}, &fr);
  double pd[3 * SQZ_OBSERVE_MAX_POINTS + 1] = {0};
  float pf[3 * SQZ_OBSERVE_MAX_POINTS + 1] = {0};
  for (uint32_t c = 0; c < 3 * req->n_points; c++) pf[c] = (float)(pd[c] = req->point[c / 3][c % 3]);
  size_t pbytes = (3 * req->n_points + 1) * (fp64 ? sizeof(cl_double) : sizeof(cl_float));
  if (st == SQZ_OK) st = sqz__const_buffer(ctx, pbytes, fp64 ? (const void *)pd : (const void *)pf, &pts);
  if (st == SQZ_OK) st = obs_launch(f, k, fp64, req->n_points, fr, pts, acc);
  if (pts) clReleaseMemObject(pts);
  if (fr) clReleaseMemObject(fr);
  if (k) clReleaseKernel(k);
  return st;
}
