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

/* 1 when work-group (wx, wy) of 2D launch l may own a cell of a row y >= y0 (its block's rows, unfolded for RB). */
static int sqz__cover_reaches(const sqz_simplex_plan *plan, const sqz_simplex_launch *l, uint32_t wx, uint32_t wy,
                              uint32_t y0) {
  sqz_u32 bx, by, rho = plan->rho, e = 1u - (plan->n & 1u);
  if (!sqz_sblock2(l->kind, l->p[0], l->p[1], l->p[2], l->o[0], l->o[1], wx, wy, rho, &bx, &by)) return 0;
  if (l->kind == SQZ_SK_RB) /* rectangle rows v: straight y = v - e, turned y = n - 1 - v */
    return (uint64_t)by + rho - 1u >= (uint64_t)y0 + e || (uint64_t)by + y0 <= plan->n - 1u;
  return (uint64_t)by + rho - 1u >= y0;
}

/* One part of launch l: groups [a, b) x [row0, row0 + rows). */
static int sqz__cover_part(sqz_context *ctx, cl_kernel k, const sqz_simplex_plan *plan, const sqz_simplex_launch *l,
                           uint32_t a, uint32_t b, uint32_t row0, uint32_t rows, uint64_t *groups) {
  cl_uint4 g0 = {{a, row0, 0, 0}};
  uint32_t grid[3] = {b - a, rows, 1};
  SQZ_CL_CHECK(ctx, clSetKernelArg(k, 7, sizeof g0, &g0));
  *groups += (uint64_t)grid[0] * rows;
  return sqz__simplex_enqueue_grid(ctx, k, 6, plan, l, grid);
}

/* The work-groups of 2D launch l that may reach rows y >= y0: per grid row the span of such groups, consecutive
 * rows joined into one part while its box holds at most twice the groups of their spans. */
static int sqz__cover_band_launch(sqz_context *ctx, cl_kernel k, const sqz_simplex_plan *plan,
                                  const sqz_simplex_launch *l, uint32_t y0, uint64_t *groups) {
  uint32_t row0 = 0, rows = 0, a = 0, b = 0;
  uint64_t spans = 0;
  for (uint32_t wy = 0; wy <= l->grid[1]; wy++) {
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t wx = 0; wy < l->grid[1] && wx < l->grid[0]; wx++)
      if (sqz__cover_reaches(plan, l, wx, wy, y0)) {
        if (lo == UINT32_MAX) lo = wx;
        hi = wx + 1u;
      }
    int have = lo < hi;
    uint32_t ja = have && lo < a ? lo : a, jb = have && hi > b ? hi : b;
    if (rows && (!have || (uint64_t)(jb - ja) * (rows + 1u) > 2u * (spans + hi - lo))) {
      int st = sqz__cover_part(ctx, k, plan, l, a, b, row0, rows, groups);
      if (st != SQZ_OK) return st;
      rows = 0;
    }
    if (!have) continue;
    if (rows == 0) {
      row0 = wy;
      a = lo;
      b = hi;
      spans = 0;
    } else {
      a = ja;
      b = jb;
    }
    rows++;
    spans += hi - lo;
  }
  return SQZ_OK;
}

/* The cells of rows y >= y0 of compact triangle:n whose bit is not set. */
static uint64_t sqz__cover_band_missing(sqz_u32 n, uint32_t y0, const cl_uint *bits) {
  uint64_t missing = 0;
  for (sqz_u32 y = y0; y < n; y++) {
    sqz_srow r = sqz_tri_srow(SQZ_SL_COMPACT, n, y);
    for (sqz_u32 x = 0; x <= y; x++) {
      uint64_t i = sqz_srow_index(r, x);
      missing += !((bits[i >> 5] >> (i & 31u)) & 1u);
    }
  }
  return missing;
}

/* The coverage run: the whole plan (band = 0) or the work-groups reaching rows y >= y0 (band = 1). */
static int sqz__cover_run(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho, int slayout,
                          int bitmap, int band, uint32_t y0, sqz_simplex_cover_result *out) {
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
  cl_uint4 g0 = {{0, 0, 0, 0}};
  st = sqz__args(ctx, k, sizeof acc, &acc, sizeof flags, &flags, sizeof cn, &cn, sizeof crho, &crho, sizeof celems,
                 &celems, sizeof mode, &mode, (size_t)0);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clSetKernelArg(k, 7, sizeof g0, &g0));
  uint64_t groups = 0;
  if (!band) {
    st = sqz__simplex_enqueue(ctx, k, 6, &plan);
    out->launched = sqz__simplex_plan_threads(&plan);
  }
  for (size_t i = 0; band && st == SQZ_OK && i < plan.count; i++)
    st = sqz__cover_band_launch(ctx, k, &plan, &plan.launch[i], y0, &groups);
  if (band) out->launched = groups * plan.rho * plan.rho;
  if (st == SQZ_OK) st = sqz__cl_finish(ctx);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, acc, CL_TRUE, 0, words * sizeof *host, host, 0, NULL, NULL));
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, flags, CL_TRUE, 0, sizeof fl, fl, 0, NULL, NULL));
  sqz__cover_tally(dims, slayout, cn, elems, bitmap, host, out);
  if (band) out->missing = sqz__cover_band_missing(cn, y0, host);
  out->outside += fl[0];
  out->extra += fl[1];
done:
  if (acc) clReleaseMemObject(acc);
  if (flags) clReleaseMemObject(flags);
  free(host);
  clReleaseKernel(k);
  sqz__simplex_plan_free(&plan);
  return st;
}

int sqz__simplex_cover(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho, int slayout, int bitmap,
                       sqz_simplex_cover_result *out) {
  return sqz__cover_run(ctx, dims, n, map, rho, slayout, bitmap, 0, 0, out);
}

int sqz__simplex_cover_band(sqz_context *ctx, uint64_t n, const char *map, uint32_t rho, uint32_t y0,
                            sqz_simplex_cover_result *out) {
  if (y0 >= n) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "band row %u is not a row of triangle:%llu", y0,
                                (unsigned long long)n);
  return sqz__cover_run(ctx, 2, n, map, rho, SQZ_SL_COMPACT, 1, 1, y0, out);
}
