/* engine_bits.c (opencl) — Life-like steps and random fills of layout bits (cl/engine_bits_*.cl): launches, tile tables, chunking. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_bits.h"
#include "core/engine_paths.h"
#include "core/engine_report.h"
#include "layouts/bits/bits.h"
#include "core/field_parts.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_list.h"

#define SQZ__BITS_SPAN ((uint64_t)32768)     /* rows and planes per simplex launch */
#define SQZ__BITS_GROUPS ((uint64_t)1 << 20) /* tiles (work-groups) per fractal launch */
#define SQZ__BITS_LOCAL 64u                  /* simplex work-items per group */
#define SQZ__BITS_BOX_LOCAL 256u             /* work-items per group of the box step */
#define SQZ__BITS_BOX_TILES_PER_GROUP 8u     /* tiles a group of the box step where there are many (sqz__bits_global) */
#define SQZ__BITS_LIST_GPU_LANES 128u        /* work-items per group of the list step on GPUs (H200: 1.13x 256, 2 entries each) */
#define SQZ__BITS_HOIST_MAX 4u               /* list entries a work-item keeps the neighbours of in registers, at most */

/* The program of a family; u (steps only) makes its rule compile-time constants, parted builds the
 * steps for a part's view (SQZ_PARTED). */
static int sqz__bits_program(sqz_context *ctx, int fractal, const sqz_update *u, int parted, const char *kernel,
                             cl_kernel *k) {
  static const char *const simplex_files[] = {"sqz_common.h", "sqz_parts.h", "sqz_bits.h", "engine_bits_simplex.cl", NULL};
  static const char *const fractal_files[] = {"sqz_common.h", "sqz_fractal.h", "sqz_parts.h", "sqz_bits.h",
                                              "engine_bits_fractal.cl", NULL};
  cl_program prog = NULL;
  char pre[96] = "";
  if (u) snprintf(pre, sizeof pre, "#define SQZ_BITS_B %uu\n#define SQZ_BITS_S %uu\n%s", u->birth, u->survive,
                  parted ? "#define SQZ_PARTED 1\n" : "");
  int st = sqz__program(ctx, pre, fractal ? fractal_files : simplex_files, "", &prog);
  return st == SQZ_OK ? sqz__kernel(ctx, prog, kernel, k) : st;
}

/* The simplex launches: (words of the longest row, n cells) x rows y x planes z (one in 2D), in
 * chunks of SQZ__BITS_SPAN rows and planes (a grid dimension's limit on some devices); y0 and z0
 * are the kernel's last two arguments, from arg. */
static int sqz__bits_simplex_run(sqz_context *ctx, cl_kernel k, cl_uint arg, uint64_t n, int dims) {
  size_t local[3] = {ctx->max_work_group < SQZ__BITS_LOCAL ? 1 : SQZ__BITS_LOCAL, 1, 1};
  size_t words = (size_t)sqz_bits_words(n), global[3] = {(words + local[0] - 1) / local[0] * local[0], 0, 1};
  int st = SQZ_OK;
  for (cl_ulong z0 = 0; st == SQZ_OK && z0 < (dims == 3 ? n : 1); z0 += SQZ__BITS_SPAN)
    for (cl_ulong y0 = 0; st == SQZ_OK && y0 + z0 < n; y0 += SQZ__BITS_SPAN) {
      global[1] = (size_t)(n - y0 - z0 < SQZ__BITS_SPAN ? n - y0 - z0 : SQZ__BITS_SPAN);
      if (dims == 3) global[2] = (size_t)(n - z0 < SQZ__BITS_SPAN ? n - z0 : SQZ__BITS_SPAN);
      cl_int e = clSetKernelArg(k, arg, sizeof y0, &y0) | clSetKernelArg(k, arg + 1, sizeof z0, &z0);
      st = e == CL_SUCCESS ? sqz__run(ctx, k, 3, global, local)
                           : sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the rows of a bits launch failed");
    }
  return st;
}

/* The launch positions [*first, *end) of f's tiles (a part's own tiles or its view's set:
 * sqz__step_units) and, for a part's view, its remap as the kernel's arguments from `at`
 * (cl/engine_bits_fractal.cl, BITS_PART_ARGS: first, u0, u1, n_halo, halo, n_runs, runs). */
static int sqz__bits_part_args(sqz_field *f, cl_kernel k, cl_uint at, uint64_t tiles, cl_ulong *first, cl_ulong *end) {
  uint64_t f64, e64, n_runs;
  const uint64_t *runs;
  sqz_mem runs_dev;
  sqz__step_units(f, tiles, &f64, &e64, &n_runs, &runs, &runs_dev);
  *first = f64;
  *end = e64;
  const sqz_field_part *pt = f->part;
  if (!pt) return SQZ_OK;
  cl_ulong u0 = pt->u0, u1 = pt->u1, nh = pt->n_halo, nr = n_runs;
  cl_mem halo = (cl_mem)pt->halo_dev, rd = (cl_mem)runs_dev;
  cl_int e = clSetKernelArg(k, at, sizeof *first, first) | clSetKernelArg(k, at + 1, sizeof u0, &u0) |
             clSetKernelArg(k, at + 2, sizeof u1, &u1) | clSetKernelArg(k, at + 3, sizeof nh, &nh) |
             clSetKernelArg(k, at + 4, sizeof halo, &halo) | clSetKernelArg(k, at + 5, sizeof nr, &nr) |
             clSetKernelArg(k, at + 6, sizeof rd, &rd);
  return e == CL_SUCCESS ? SQZ_OK : sqz__fail(f->ctx, SQZ_ERR_INTERNAL, "setting the part of a bits launch failed");
}

/* The fractal's tables on the device: lam, nu and the dense word list in one buffer (tab, its
 * count in bt->nw), H_λ + H_ν in another (fr). */
static int sqz__bits_fractal_tables(sqz_field *f, sqz_bits_tiling *bt, cl_mem *tab, cl_mem *fr, cl_uint *nw) {
  sqz_context *ctx = f->ctx;
  sqz_bits_tables t;
  *tab = *fr = NULL;
  sqz__bits_tiling(f->dom, bt);
  int st = sqz__bits_tables(ctx, f->dom, bt, &t);
  if (st != SQZ_OK) return st;
  *nw = t.nw;
  st = sqz__const_buffer(ctx, t.words * sizeof *t.all, t.all, tab);
  if (st == SQZ_OK) st = sqz__bits_fr_buffer(f, fr);
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
  cl_ulong first, end;
  int st = sqz__bits_part_args(f, k, 16, bt->tiles, &first, &end);
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    for (cl_ulong t0 = first; st == SQZ_OK && t0 < end; t0 += SQZ__BITS_GROUPS) {
      uint64_t groups = end - t0 < SQZ__BITS_GROUPS ? end - t0 : SQZ__BITS_GROUPS;
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


/* Bytes of local memory of the box step's `area`: the plan's, and with bytes (a u8 state) for the
 * window its third area whatever the depth and the tile's bit array (kt cells and a word) past it. */
static size_t sqz__bits_box_area(const sqz_bits_box *p, int bytes, uint32_t kt) {
  if (!bytes || p->list) return sqz__bits_box_local(p) * 4u;
  return ((size_t)3 * p->rows * p->rw + (kt + 31u) / 32u + 1u) * 4u;
}

/* Work-items of a group of the list step: the multiple of 32 up to `most` (on GPUs at most
 * SQZ__BITS_LIST_GPU_LANES) whose rounds over the ne entries leave the fewest idle; SQZ_BITS_LANES:
 * a given count up to `most`. */
static size_t sqz__bits_list_lanes(const sqz_context *ctx, uint32_t ne, size_t most, int gpu) {
  size_t pick = gpu && most > SQZ__BITS_LIST_GPU_LANES ? SQZ__BITS_LIST_GPU_LANES : most;
  size_t best = pick < 32 ? pick : 32, idle = SIZE_MAX;
  for (size_t l = 32; l <= pick; l += 32) {
    size_t waste = (ne + l - 1) / l * l - ne;
    if (waste <= idle) {
      best = l;
      idle = waste;
    }
  }
  return sqz__opt_num(ctx, NULL, SQZ_OPT_BITS_LANES, best) <= most ? (size_t)sqz__opt_num(ctx, NULL, SQZ_OPT_BITS_LANES, best) : best;
}

/* What the box step chose: the tiling and the plan of its boxes (list or window). */
typedef struct {
  sqz_bits_tiling bt;
  sqz_bits_box p;
} sqz__bits_box_choice;

/* Work-items of a group of the box step before the list's lanes and the kernel's limit. */
static size_t sqz__bits_box_items(const sqz_context *ctx) {
  return ctx->max_work_group < SQZ__BITS_BOX_LOCAL ? ctx->max_work_group : SQZ__BITS_BOX_LOCAL;
}

int sqz__cl_bits_box_plan(sqz_field *f, uint64_t steps, int bytes, sqz_path_plan *plan) {
  sqz_context *ctx = f->ctx;
  sqz__bits_box_choice *c = sqz__calloc(1, sizeof *c);
  if (!c) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  plan->data = c;
  sqz__bits_tiling(f->dom, &c->bt);
  uint32_t q = sqz__bits_box_level(f->dom, &c->bt), depth = sqz__bits_depth(f, steps);
  uint64_t words = ctx->local_mem > 72u ? (ctx->local_mem - 72u) / 4u : 0u, arr = bytes ? (c->bt.kt + 31u) / 32u + 1u : 0u;
  for (; depth >= 1 && !c->p.tab; depth--) { /* the deepest window that fits (its row stride padded within what is left) */
    int st = sqz__bits_step_plan(ctx, f->dom, &c->bt, q, depth, (uint32_t)sqz__bits_box_items(ctx),
                                 words > arr ? words - arr : 0u, &c->p);
    if (st != SQZ_OK) return st;
    if (sqz__bits_box_area(&c->p, bytes, c->bt.kt) + 9u * 8u > ctx->local_mem) {
      free(c->p.tab);
      c->p.tab = NULL;
    }
  }
  plan->depth = c->p.depth;
  return c->p.tab ? SQZ_OK : SQZ_ERR_UNSUPPORTED;
}

void sqz__cl_bits_box_drop(sqz_path_plan *plan) {
  sqz__bits_box_choice *c = plan->data;
  if (c) free(c->p.tab);
  free(c);
}

/* The box step's program for the plan, with the work-items of its groups in *local. */
static int sqz__bits_box_kernel(sqz_field *f, const sqz_update *u, const sqz_bits_box *p, int bytes, size_t *local,
                                cl_kernel *k) {
  static const char *const files[] = {"sqz_common.h", "sqz_fractal.h", "sqz_parts.h", "sqz_bits.h", "sqz_bits_box.h",
                                      "sqz_bits_list.h", "engine_bits_fractal.cl", NULL};
  sqz_context *ctx = f->ctx;
  *local = sqz__bits_box_items(ctx);
  /* the list's neighbours in registers: on GPUs (on PoCL they cost ~20 %: work-item context); H
   * entries a work-item, as the lanes (chosen here, before the build) need */
  if (p->list) *local = sqz__bits_list_lanes(ctx, p->ne, *local, ctx->is_gpu);
  unsigned hoist = p->list && sqz__opt_num(ctx, NULL, SQZ_OPT_BITS_HOIST, ctx->is_gpu ? 1u : 0u)
                       ? (unsigned)((p->ne + *local - 1) / *local) : 0u;
  if (hoist > SQZ__BITS_HOIST_MAX) hoist = 0; /* more registers than they save */
  char pre[352], hdef[40];
  snprintf(hdef, sizeof hdef, "#define SQZ_BITS_HOIST %uu\n", hoist);
  snprintf(pre, sizeof pre,
           "#define SQZ_BITS_B %uu\n#define SQZ_BITS_S %uu\n#define SQZ_BITS_BOX %uu\n#define SQZ_BITS_KQ %uu\n"
           "#define SQZ_BITS_FR_S %uu\n#define SQZ_BITS_FR_K %uu\n%s%s%s%s",
           u->birth, u->survive, p->bs, p->kq, (unsigned)f->dom->fr.s, (unsigned)f->dom->fr.k,
           f->part ? "#define SQZ_PARTED 1\n" : "", p->list ? "#define SQZ_BITS_LIST 1\n" : "",
           bytes ? "#define SQZ_BITS_BYTES 1\n" : "", hoist ? hdef : "");
  int st = sqz__program_kernel(ctx, pre, files, "", "sqz_bits_fractal_box", k);
  size_t kwg = 0;
  if (st == SQZ_OK && clGetKernelWorkGroupInfo(*k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg,
                                               NULL) == CL_SUCCESS && kwg > 0 && kwg < *local)
    *local = kwg;
  return st;
}

int sqz__cl_bits_box(sqz_field *f, const sqz_update *u, uint64_t steps, int bytes, const sqz_path_plan *plan) {
  sqz_context *ctx = f->ctx;
  const sqz__bits_box_choice *c = plan->data;
  const sqz_bits_box *p = &c->p;
  size_t local = 0;
  cl_kernel k = NULL;
  cl_mem tab = NULL, fr = NULL;
  int st = sqz__bits_box_kernel(f, u, p, bytes, &local, &k);
  if (st == SQZ_OK) st = sqz__const_buffer(ctx, p->words * sizeof *p->tab, p->tab, &tab);
  if (st == SQZ_OK) st = sqz__bits_fr_buffer(f, &fr);
  /* groups: a few tiles each (the window's zeroing paid per group; sqz__bits_global) */
  cl_ulong first = 0, tiles = c->bt.tiles; /* launch positions [first, tiles) */
  if (st == SQZ_OK) st = sqz__bits_part_args(f, k, 13, c->bt.tiles, &first, &tiles);
  size_t global = sqz__bits_global(ctx, tiles - first, SQZ__BITS_BOX_TILES_PER_GROUP, local);
  uint32_t rb = (uint32_t)f->dom->fr.r - c->bt.t, wt = bytes ? c->bt.kt : c->bt.wt;
  size_t area = sqz__bits_box_area(p, bytes, c->bt.kt);
  if (st == SQZ_OK)
    sqz__bits_plan_dump(f, rb, wt, p->depth, u, area, global / local, local, p->tab, p->words, c->bt.tiles, p->bs,
                        p->list | (bytes ? 2u : 0u));
  return sqz__bits_launches(f, k, tab, fr, rb, wt, tiles, area, p->depth, u, steps, global, local, st);
}

/* The simplex step: the one-step kernel k over every row (a part's band: each run of its rows), `steps` times. */
static int sqz__bits_simplex_steps(sqz_field *f, cl_kernel k, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  cl_ulong n = f->dom->side, zero = 0, all = ~(cl_ulong)0; /* y0 and z0: set per launch */
  cl_uint dims = (cl_uint)f->dom->dims;
  const sqz_field_part *pt = f->part; /* a part's band of rows (parts_bands.c): its words, each run of its launch */
  cl_ulong pu0 = pt ? pt->u0 : 0, pu1 = pt ? pt->u1 : all, before = pt ? sqz__band_before(pt) : 0;
  int st = SQZ_OK;
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    uint64_t lo = 0, hi = all;
    for (uint64_t r = 0, n_runs = 1; st == SQZ_OK && r < n_runs; r++) {
      if (pt) n_runs = sqz__band_run(f, 1, r, &lo, &hi);
      cl_ulong wlo = lo, whi = hi;
      st = sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof n, &n, sizeof dims, &dims, sizeof u->birth,
                     &u->birth, sizeof u->survive, &u->survive, sizeof pu0, &pu0, sizeof pu1, &pu1, sizeof before,
                     &before, sizeof wlo, &wlo, sizeof whi, &whi, sizeof zero, &zero, sizeof zero, &zero, (size_t)0);
      if (st == SQZ_OK) st = sqz__bits_simplex_run(ctx, k, 11, n, (int)dims);
    }
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  return st;
}

int sqz__cl_bits_step(sqz_field *f, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  int fractal = f->dom->kind == SQZ_DOMAIN_FRACTAL;
  cl_kernel k = NULL;
  int st = sqz__bits_program(ctx, fractal, u, f->part != NULL, fractal ? "sqz_bits_fractal_step" : "sqz_bits_simplex_step", &k);
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
    st = sqz__bits_simplex_steps(f, k, u, steps);
  }
  clReleaseKernel(k);
  return st;
}

int sqz__cl_fill_bits(sqz_field *f, uint64_t threshold, uint64_t seed) {
  sqz_context *ctx = f->ctx;
  int fractal = f->dom->kind == SQZ_DOMAIN_FRACTAL;
  cl_kernel k = NULL;
  int st = sqz__bits_program(ctx, fractal, NULL, 0, fractal ? "sqz_bits_fractal_fill" : "sqz_bits_simplex_fill", &k);
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
    uint64_t e0, own; /* a part's own words (base: the first, at slot 0), or all */
    sqz__own_elems(f, &e0, &own);
    cl_ulong base = e0 / SQZ_BITS_W, items = (e0 + own) / SQZ_BITS_W;
    size_t local = 256;
    for (cl_ulong at = base; st == SQZ_OK && at < items; at += SQZ__BITS_GROUPS * local) {
      uint64_t m = items - at < SQZ__BITS_GROUPS * local ? items - at : SQZ__BITS_GROUPS * local;
      size_t global = (size_t)((m + local - 1) / local * local);
      st = sqz__args(ctx, k, sizeof dst, &dst, sizeof tab, &tab, sizeof fr, &fr, sizeof s, &s, sizeof kk, &kk,
                     sizeof rb, &rb, sizeof side, &side, sizeof kt, &kt, sizeof wt, &wt, sizeof n, &n, sizeof sd, &sd,
                     sizeof th, &th, sizeof at, &at, sizeof items, &items, sizeof base, &base, (size_t)0);
      if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
    }
    if (st == SQZ_OK) st = sqz__cl_finish(ctx);
    if (tab) clReleaseMemObject(tab);
    if (fr) clReleaseMemObject(fr);
  } else {
    cl_uint dims = (cl_uint)f->dom->dims;
    uint64_t e0, own; /* a part's own words (its rows), or all */
    sqz__own_elems(f, &e0, &own);
    cl_ulong pu0 = e0 / SQZ_BITS_W, pu1 = (e0 + own) / SQZ_BITS_W;
    st = sqz__args(ctx, k, sizeof dst, &dst, sizeof n, &n, sizeof dims, &dims, sizeof sd, &sd, sizeof th, &th,
                   sizeof pu0, &pu0, sizeof pu1, &pu1, sizeof zero, &zero, sizeof zero, &zero, (size_t)0);
    if (st == SQZ_OK) st = sqz__bits_simplex_run(ctx, k, 7, n, (int)dims);
  }
  clReleaseKernel(k);
  return st;
}

const char *sqz__cl_fractal_boxes_why_not(const sqz_field *f) {
  if (f->layout != SQZ_LAYOUT_COMPACT) return "the boxes step layout compact";
  if (f->part) return "a field in parts";
  if (f->block) return "a launch block is set (--block)";
  if (sqz__engine_forced(f, "fractal-boxes-life-u8")) return NULL; /* forced: the device's preference aside */
  if (sqz__opt_is(NULL, f, SQZ_OPT_FRACTAL_STEP, "words")) return "SQZ_FRACTAL_STEP=words";
  if (sqz__opt_is(NULL, f, SQZ_OPT_FRACTAL_STEP, "boxes") || f->ctx->is_gpu) return NULL;
  sqz_bits_tiling bt;
  sqz__bits_tiling(f->dom, &bt);
  /* CPU devices: the list only; the window on bytes ran slower than the word step there */
  if (!sqz__bits_list_wanted(f->dom, sqz__bits_box_level(f->dom, &bt)))
    return "on a CPU device only the list of boxes (boxes of side 8) runs, and this fractal's boxes are smaller";
  return NULL;
}

int sqz__cl_fractal_boxes_applies(const sqz_field *f) { return sqz__cl_fractal_boxes_why_not(f) == NULL; }
