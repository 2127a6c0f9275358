/* engine_bits.c (opencl) — Life-like steps and random fills of layout bits (cl/engine_bits_*.cl): launches, tile tables, chunking. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_bits.h"
#include "core/bits.h"
#include "sqz_bits.h"

#define SQZ__BITS_ITEMS ((uint64_t)1 << 30)  /* work-items per simplex launch (row words) */
#define SQZ__BITS_GROUPS ((uint64_t)1 << 20) /* tiles (work-groups) per fractal launch */
#define SQZ__BITS_LOCAL 64u                  /* simplex work-items per group */

/* The program of a family; u (steps only) makes its rule compile-time constants. */
static int sqz__bits_program(sqz_context *ctx, int fractal, const sqz_update *u, const char *kernel, cl_kernel *k) {
  static const char *const simplex_files[] = {"sqz_common.h", "sqz_bits.h", "engine_bits_simplex.cl", NULL};
  static const char *const fractal_files[] = {"sqz_common.h", "sqz_fractal.h", "sqz_bits.h", "engine_bits_fractal.cl",
                                              NULL};
  cl_program prog = NULL;
  char pre[64] = "";
  if (u) snprintf(pre, sizeof pre, "#define SQZ_BITS_B %uu\n#define SQZ_BITS_S %uu\n", u->birth, u->survive);
  int st = sqz__program(ctx, pre, fractal ? fractal_files : simplex_files, "", &prog);
  return st == SQZ_OK ? sqz__kernel(ctx, prog, kernel, k) : st;
}

/* The simplex launches over rows 0 .. rows - 1, each item a word of a row (w words a row, those
 * of the longest row, n cells), at most SQZ__BITS_ITEMS items a launch; the row offset and w are
 * the kernel's last two arguments, from r0_arg. */
static int sqz__bits_simplex_run(sqz_context *ctx, cl_kernel k, cl_uint r0_arg, uint64_t n, uint64_t rows) {
  cl_uint w = (cl_uint)sqz_bits_words(n);
  uint64_t per = SQZ__BITS_ITEMS / w; /* rows a launch */
  size_t local = ctx->max_work_group < SQZ__BITS_LOCAL ? 1 : SQZ__BITS_LOCAL;
  int st = SQZ_OK;
  for (cl_ulong r0 = 0; st == SQZ_OK && r0 < rows; r0 += per) {
    uint64_t items = (rows - r0 < per ? rows - r0 : per) * w;
    size_t global = (size_t)((items + local - 1) / local * local);
    cl_int e = clSetKernelArg(k, r0_arg, sizeof r0, &r0) | clSetKernelArg(k, r0_arg + 1, sizeof w, &w);
    st = e == CL_SUCCESS ? sqz__run(ctx, k, 1, &global, &local)
                         : sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the rows of a bits launch failed");
  }
  return st;
}

/* The fractal's tables on the device: lam, nu and the dense word list in one buffer (tab, its
 * count in bt->nw), H_λ + H_ν in another (fr). */
static int sqz__bits_fractal_tables(sqz_field *f, sqz_bits_tiling *bt, cl_mem *tab, cl_mem *fr, cl_uint *nw) {
  sqz_context *ctx = f->ctx;
  const sqz_fractal *d = &f->dom->fr;
  sqz_bits_tables t;
  *tab = *fr = NULL;
  sqz__bits_tiling(f->dom, bt);
  int st = sqz__bits_tables(ctx, f->dom, bt, &t);
  if (st != SQZ_OK) return st;
  int32_t frt[2 * SQZ_MAX_SCALE * SQZ_MAX_SCALE + SQZ_MAX_SCALE * SQZ_MAX_SCALE];
  size_t nfr = 2u * (size_t)d->k + (size_t)d->s * (size_t)d->s;
  memcpy(frt, d->hl, 2u * (size_t)d->k * sizeof *frt);
  memcpy(frt + 2 * d->k, d->hnu, (size_t)d->s * (size_t)d->s * sizeof *frt);
  *nw = t.nw;
  st = sqz__const_buffer(ctx, t.words * sizeof *t.all, t.all, tab);
  if (st == SQZ_OK) st = sqz__const_buffer(ctx, nfr * sizeof *frt, frt, fr);
  free(t.all);
  return st;
}

static int sqz__bits_fractal_step(sqz_field *f, cl_kernel k, const sqz_bits_tiling *bt, cl_mem tab, cl_mem fr,
                                  cl_uint nw, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  cl_uint s = (cl_uint)f->dom->fr.s, kk = (cl_uint)f->dom->fr.k, rb = (cl_uint)f->dom->fr.r - bt->t, side = bt->side,
          kt = bt->kt, wt = bt->wt, rw = (side + 33u) / 32u;
  cl_int err = CL_SUCCESS;
  size_t lmem = ((size_t)(side + 2u) + side) * rw * 4u;
  if (lmem + 9u * 8u > ctx->local_mem)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "a bits tile of side %u needs %zu bytes of local memory, %s has %llu", side,
                     lmem + 72u, ctx->device_name, (unsigned long long)ctx->local_mem);
  size_t local = 256u, kwg = 0; /* at most what the kernel allows on this device */
  if (clGetKernelWorkGroupInfo(k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL) == CL_SUCCESS &&
      kwg > 0 && kwg < local)
    local = kwg;
  if (ctx->max_work_group < local) local = ctx->max_work_group;
  int st = SQZ_OK;
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    for (cl_ulong t0 = 0; st == SQZ_OK && t0 < bt->tiles; t0 += SQZ__BITS_GROUPS) {
      uint64_t groups = bt->tiles - t0 < SQZ__BITS_GROUPS ? bt->tiles - t0 : SQZ__BITS_GROUPS;
      size_t global = (size_t)groups * local;
      st = sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof tab, &tab, sizeof fr, &fr,
                     sizeof s, &s, sizeof kk, &kk, sizeof rb, &rb, sizeof side, &side, sizeof kt, &kt, sizeof wt, &wt,
                     sizeof nw, &nw, sizeof u->birth, &u->birth, sizeof u->survive, &u->survive, sizeof t0, &t0, (size_t)0);
      if (st == SQZ_OK && ((err = clSetKernelArg(k, 14, (size_t)(side + 2u) * rw * 4u, NULL)) != CL_SUCCESS ||
                           (err = clSetKernelArg(k, 15, (size_t)side * rw * 4u, NULL)) != CL_SUCCESS))
        st = sqz__fail(ctx, err, "setting the local memory of a bits step failed: %s", sqz_status_name(err));
      if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
    }
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  return st;
}

int sqz__cl_stencil_bits(sqz_field *f, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  int fractal = f->dom->kind == SQZ_DOMAIN_FRACTAL;
  cl_kernel k = NULL;
  int st = sqz__bits_check_update(f, u);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  if (st == SQZ_OK) st = sqz__bits_program(ctx, fractal, u, fractal ? "sqz_bits_fractal_step" : "sqz_bits_simplex_step", &k);
  if (st != SQZ_OK) return st;
  if (fractal) {
    sqz_bits_tiling bt;
    cl_mem tab = NULL, fr = NULL;
    cl_uint nw = 0;
    st = sqz__bits_fractal_tables(f, &bt, &tab, &fr, &nw);
    if (st == SQZ_OK) st = sqz__bits_fractal_step(f, k, &bt, tab, fr, nw, u, steps);
    int fin = sqz__cl_done_with(ctx, tab, fr);
    if (st == SQZ_OK) st = fin;
  } else {
    cl_ulong n = f->dom->side, r0 = 0;
    cl_uint dims = (cl_uint)f->dom->dims, w = 0; /* r0 and w: set per launch */
    uint64_t rows = dims == 2 ? n : n * n;
    for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
      cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
      st = sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof n, &n, sizeof dims, &dims, sizeof u->birth,
                     &u->birth, sizeof u->survive, &u->survive, sizeof r0, &r0, sizeof w, &w, (size_t)0);
      if (st == SQZ_OK) st = sqz__bits_simplex_run(ctx, k, 6, n, rows);
      if (st == SQZ_OK) f->cur = 1 - f->cur;
    }
  }
  clReleaseKernel(k);
  return st;
}

int sqz__cl_fill_bits(sqz_field *f, uint64_t threshold, uint64_t seed) {
  sqz_context *ctx = f->ctx;
  int fractal = f->dom->kind == SQZ_DOMAIN_FRACTAL;
  cl_kernel k = NULL;
  int st = sqz__bits_program(ctx, fractal, NULL, fractal ? "sqz_bits_fractal_fill" : "sqz_bits_simplex_fill", &k);
  if (st != SQZ_OK) return st;
  cl_mem dst = (cl_mem)f->mem[f->cur];
  cl_ulong n = f->dom->side, sd = seed, th = threshold, zero = 0;
  if (fractal) {
    sqz_bits_tiling bt;
    cl_mem tab = NULL, fr = NULL;
    cl_uint nw = 0;
    st = sqz__bits_fractal_tables(f, &bt, &tab, &fr, &nw);
    cl_uint s = (cl_uint)f->dom->fr.s, kk = (cl_uint)f->dom->fr.k, rb = (cl_uint)f->dom->fr.r - bt.t, side = bt.side,
            kt = bt.kt, wt = bt.wt;
    cl_ulong items = f->elems / SQZ_BITS_W;
    size_t local = 256;
    for (cl_ulong at = 0; st == SQZ_OK && at < items; at += SQZ__BITS_GROUPS * local) {
      uint64_t m = items - at < SQZ__BITS_GROUPS * local ? items - at : SQZ__BITS_GROUPS * local;
      size_t global = (size_t)((m + local - 1) / local * local);
      st = sqz__args(ctx, k, sizeof dst, &dst, sizeof tab, &tab, sizeof fr, &fr, sizeof s, &s, sizeof kk, &kk,
                     sizeof rb, &rb, sizeof side, &side, sizeof kt, &kt, sizeof wt, &wt, sizeof n, &n, sizeof sd, &sd,
                     sizeof th, &th, sizeof at, &at, sizeof items, &items, (size_t)0);
      if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
    }
    if (st == SQZ_OK) st = sqz__cl_finish(ctx);
    if (tab) clReleaseMemObject(tab);
    if (fr) clReleaseMemObject(fr);
  } else {
    cl_uint dims = (cl_uint)f->dom->dims;
    cl_uint w = 0;
    st = sqz__args(ctx, k, sizeof dst, &dst, sizeof n, &n, sizeof dims, &dims, sizeof sd, &sd, sizeof th, &th,
                   sizeof zero, &zero, sizeof w, &w, (size_t)0);
    if (st == SQZ_OK) st = sqz__bits_simplex_run(ctx, k, 5, n, dims == 2 ? n : n * n);
  }
  clReleaseKernel(k);
  return st;
}
