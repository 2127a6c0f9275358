/* simplex_cover.c (opencl) — the coverage proof: visits per storage cell through a map's launches. */
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_simplex.h"

static const char *const sqz_cover_files[] = {"sqz_common.h", "sqz_simplex.h", "coverage_simplex.cl", NULL};

static int sqz__cover_cell(int dims, int slayout, sqz_u32 n, uint64_t i) {
  sqz_u32 x, y, z;
  return dims == 2 ? sqz_tri_cell(slayout, n, i, &x, &y) : sqz_tet_cell(slayout, n, i, &x, &y, &z);
}

/* Folds the device counters into *out: counts (one per cell) or a bitmap. */
static void sqz__cover_tally(int dims, int slayout, sqz_u32 n, uint64_t elems, int bitmap, const cl_uint *acc,
                             sqz_simplex_cover_result *out) {
  if (bitmap && slayout == SQZ_SL_COMPACT) { /* every storage cell is a domain cell */
    for (uint64_t w = 0; w < (elems + 31u) / 32u; w++) {
      cl_uint bits = acc[w];
      if (32u * w + 32u > elems) bits &= (1u << (elems - 32u * w)) - 1u;
      out->once += (uint64_t)__builtin_popcount(bits);
    }
    out->missing = elems - out->once;
    return;
  }
  for (uint64_t i = 0; i < elems; i++) {
    cl_uint c = bitmap ? (acc[i >> 5] >> (i & 31u)) & 1u : acc[i];
    if (!sqz__cover_cell(dims, slayout, n, i)) out->outside += c;
    else if (c == 0) out->missing++;
    else {
      out->once++;
      out->extra += c - 1u;
    }
  }
}

int sqz__simplex_cover(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho, int slayout, int bitmap,
                       sqz_simplex_cover_result *out) {
  memset(out, 0, sizeof *out);
  uint64_t elems = slayout == SQZ_SL_COMPACT ? (dims == 2 ? sqz_tri(n) : sqz_tet(n)) : (dims == 2 ? n * n : n * n * n);
  uint64_t words = bitmap ? (elems + 31u) / 32u : elems;
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  cl_mem acc = NULL, flags = NULL;
  cl_uint *host = NULL, fl[2] = {0, 0};
  int st = sqz__simplex_kernel(ctx, dims, n, map, rho, slayout, NULL, sqz_cover_files,
                               dims == 2 ? "sqz_cover2" : "sqz_cover3", &plan, &k);
  if (st != SQZ_OK) return st;
  host = sqz__malloc((size_t)words * sizeof *host);
  if (!host) {
    st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "coverage needs %llu bytes of host memory",
                   (unsigned long long)(words * sizeof *host));
    goto done;
  }
  st = sqz__buffer(ctx, words * sizeof(cl_uint), CL_MEM_READ_WRITE, &acc);
  if (st == SQZ_OK) st = sqz__buffer(ctx, sizeof fl, CL_MEM_READ_WRITE, &flags);
  if (st != SQZ_OK) goto done;
  st = sqz__zero_buffer(ctx, acc, words * sizeof(cl_uint));
  if (st == SQZ_OK) st = sqz__zero_buffer(ctx, flags, sizeof fl);
  if (st != SQZ_OK) goto done;
  cl_uint cn = (cl_uint)n, crho = plan.rho, mode = (cl_uint)bitmap;
  cl_ulong celems = elems;
  st = sqz__args(ctx, k, sizeof acc, &acc, sizeof flags, &flags, sizeof cn, &cn, sizeof crho, &crho, sizeof celems,
                 &celems, sizeof mode, &mode, (size_t)0);
  if (st == SQZ_OK) st = sqz__simplex_enqueue(ctx, k, 6, &plan);
  if (st == SQZ_OK) st = sqz__cl_finish(ctx);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, acc, CL_TRUE, 0, words * sizeof *host, host, 0, NULL, NULL));
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, flags, CL_TRUE, 0, sizeof fl, fl, 0, NULL, NULL));
  sqz__cover_tally(dims, slayout, cn, elems, bitmap, host, out);
  out->outside += fl[0];
  out->extra += fl[1];
  out->launched = sqz__simplex_plan_threads(&plan);
done:
  if (acc) clReleaseMemObject(acc);
  if (flags) clReleaseMemObject(flags);
  free(host);
  clReleaseKernel(k);
  sqz__simplex_plan_free(&plan);
  return st;
}
