/* engine_simplex_rows.c (opencl) — any update on triangle storage rows (cl/engine_simplex_rows.cl): when it applies, and its launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"
#include "backends/opencl/cl_simplex.h"
#include "core/field_parts.h"
#include "sqz_simplex.h"

#define SQZ__ROWS_LOCAL 128u         /* work-items per group along a storage row (GPUs) */
#define SQZ__ROWS_SEG 8u             /* storage rows a work-item walks (GPUs; SR_SEG of the kernel) */
#define SQZ__ROWS_CW(f) ((f)->type == SQZ_U8 ? 4u : 1u) /* storage columns a work-item walks (GPUs; SR_CW) */
#define SQZ__ROWS_WALK_LOCAL 16u     /* work-items (rows) per group on CPU devices */
#define SQZ__ROWS_SPAN ((uint64_t)32768) /* storage rows per launch (a grid dimension's limit on some devices) */

const char *sqz__cl_simplex_rows_why_not(const sqz_field *f) {
  if (sqz__opt_is(NULL, f, SQZ_OPT_ENGINE, "generic")) return "SQZ_ENGINE=generic";
  if (f->dom->dims == 3 && f->ctx->is_gpu)
    return "on GPUs tetrahedra run the map kernels (the tetrahedron row step is written for CPU devices)";
  if (f->layout != SQZ_LAYOUT_COMPACT && f->layout != SQZ_LAYOUT_BB) return "layout bits has its own steps";
  return NULL;
}

/* Arguments of sqz_rows2, sqz_rows2_walk and sqz_rows3_walk, by name (3D: wrow and hrows unused, V0 the first
 * plane). */
enum { RA_SRC, RA_DST, RA_PARAM, RA_IP, RA_N, RA_WROW, RA_HROWS, RA_V0, RA_PU0, RA_PU1, RA_PNH, RA_PHALO, RA_PRN, RA_PRUNS };

/* Triangles: a work-item per cell and column segment on GPUs, per storage row on CPU devices; tetrahedra (CPU
 * devices): a work-item per row (cl/engine_simplex_rows.cl). */
static const char *sqz__rows_name(const sqz_field *f) {
  return f->dom->dims == 3 ? "sqz_rows3_walk" : f->ctx->is_gpu ? "sqz_rows2" : "sqz_rows2_walk";
}

static int sqz__rows_kernel(sqz_field *f, const sqz_update *u, cl_kernel *k) {
  const char *files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_parts.h", "sqz_rule.h", "sqz_heat.h", NULL,
                         "engine_simplex_rows.cl", NULL};
  files[5] = sqz__cl_update_file(u);
  if (!files[5]) { /* the user's update is in the prelude */
    files[5] = files[6];
    files[6] = NULL;
  }
  char *upre = sqz__cl_update_prelude(f->ctx, f, u);
  if (!upre) return SQZ_ERR_OUT_OF_MEMORY;
  size_t len = strlen(upre) + 160;
  char *pre = sqz__malloc(len);
  int st = SQZ_ERR_OUT_OF_MEMORY;
  if (pre) {
    snprintf(pre, len, "#define SQZ_KERNEL_%s 1\n#define SQZ_SLAYOUT %d\n%s%s%s", sqz__rows_name(f),
             f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT,
             f->elems <= ((uint64_t)1 << 32) ? "#define SQZ_IDX32 1\n" : "", f->part ? "#define SQZ_PARTED 1\n" : "",
             upre);
    st = sqz__cl_swar_kernel(f, files, pre, sqz__rows_name(f), k); /* checks the map and block, pairs the state */
  } else {
    sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  }
  free(pre);
  free(upre);
  return st;
}

/* The part's unit remap as the kernel's last arguments (identity in one buffer) and the launch rows [*v0, *v1) that
 * hold its own cells: storage rows of a triangle (wrow cells each), planes of a tetrahedron. */
static int sqz__rows_part_args(sqz_field *f, cl_kernel k, cl_uint wrow, cl_uint hrows, uint64_t *v0, uint64_t *v1) {
  const sqz_field_part *pt = f->part;
  cl_ulong pu0 = pt ? pt->u0 : 0, pu1 = pt ? pt->u1 : f->elems, pnh = pt ? pt->n_halo : 0;
  cl_mem phalo = pt ? (cl_mem)pt->halo_dev : NULL, pruns = NULL;
  uint64_t first, end, n_runs;
  const uint64_t *runs;
  sqz__step_units(f, f->elems, &first, &end, &n_runs, &runs, (sqz_mem *)&pruns);
  cl_ulong prn = n_runs;
  if (f->dom->dims == 3) {
    sqz_u32 x, y, z0 = 0, z1 = 0, n = (sqz_u32)f->dom->side, sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT;
    if (pu1 > pu0) {
      sqz_tet_cell(sl, n, pu0, &x, &y, &z0);
      sqz_tet_cell(sl, n, pu1 - 1, &x, &y, &z1);
    }
    *v0 = z0;
    *v1 = pu1 > pu0 ? (uint64_t)z1 + 1 : 0;
  } else {
    *v0 = pu0 / wrow;
    *v1 = pu1 ? (pu1 - 1) / wrow + 1 : 0;
  }
  if (*v1 > hrows) *v1 = hrows;
  if (!pt) return SQZ_OK;
  cl_int e = clSetKernelArg(k, RA_PU0, sizeof pu0, &pu0) | clSetKernelArg(k, RA_PU1, sizeof pu1, &pu1) |
             clSetKernelArg(k, RA_PNH, sizeof pnh, &pnh) | clSetKernelArg(k, RA_PHALO, sizeof phalo, &phalo) |
             clSetKernelArg(k, RA_PRN, sizeof prn, &prn) | clSetKernelArg(k, RA_PRUNS, sizeof pruns, &pruns);
  return e == CL_SUCCESS ? SQZ_OK : sqz__fail(f->ctx, SQZ_ERR_INTERNAL, "setting a part's row-step arguments failed");
}

int sqz__cl_simplex_rows(sqz_field *f, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  cl_kernel k = NULL;
  cl_mem param = NULL;
  cl_uint2 ip;
  int st = sqz__rows_kernel(f, u, &k);
  if (st != SQZ_OK) return st;
  st = sqz__cl_update_params(ctx, f, u, &param, &ip);
  cl_uint n = (cl_uint)f->dom->side, compact = f->layout == SQZ_LAYOUT_COMPACT, tet = f->dom->dims == 3;
  cl_uint wrow = compact && !tet ? sqz_fold_w(n) : n, hrows = compact && !tet ? (cl_uint)sqz_fold_h(n) : n;
  uint64_t v0 = 0, v1 = 0;
  if (st == SQZ_OK) st = sqz__rows_part_args(f, k, wrow, hrows, &v0, &v1);
  if (st == SQZ_OK &&
      (clSetKernelArg(k, RA_PARAM, sizeof param, &param) | clSetKernelArg(k, RA_IP, sizeof ip, &ip) |
       clSetKernelArg(k, RA_N, sizeof n, &n) | clSetKernelArg(k, RA_WROW, sizeof wrow, &wrow) |
       clSetKernelArg(k, RA_HROWS, sizeof hrows, &hrows)) != CL_SUCCESS)
    st = sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the arguments of a row step failed");
  int walk = !ctx->is_gpu; /* a work-item per row: 1D launches over rows, small groups balance the threads */
  size_t local[2] = {walk ? SQZ__ROWS_WALK_LOCAL : SQZ__ROWS_LOCAL, 1};
  size_t cols = ((size_t)wrow + SQZ__ROWS_CW(f) - 1) / SQZ__ROWS_CW(f);
  size_t gx = (cols + SQZ__ROWS_LOCAL - 1) / SQZ__ROWS_LOCAL * SQZ__ROWS_LOCAL;
  for (uint64_t s = 0; st == SQZ_OK && s < steps; s++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    cl_int e = clSetKernelArg(k, RA_SRC, sizeof src, &src) | clSetKernelArg(k, RA_DST, sizeof dst, &dst);
    if (e != CL_SUCCESS) st = sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the state arguments of a row step failed");
    for (uint64_t r0 = v0; st == SQZ_OK && r0 < v1; r0 += SQZ__ROWS_SPAN) {
      cl_uint row0 = (cl_uint)r0;
      size_t rows = (size_t)(v1 - r0 < SQZ__ROWS_SPAN ? v1 - r0 : SQZ__ROWS_SPAN);
      size_t global[2] = {walk ? (rows + local[0] - 1) / local[0] * local[0] : gx,
                          walk ? rows : (rows + SQZ__ROWS_SEG - 1) / SQZ__ROWS_SEG};
      if (tet) { /* (y, plane) */
        global[0] = ((size_t)n + local[0] - 1) / local[0] * local[0];
        global[1] = rows;
      }
      st = clSetKernelArg(k, RA_V0, sizeof row0, &row0) == CL_SUCCESS
               ? sqz__run(ctx, k, walk && !tet ? 1 : 2, global, local)
               : sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the rows of a row step failed");
    }
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  int fin = sqz__cl_done_with(ctx, param, NULL); /* the parameters must outlive the launches that read them */
  if (st == SQZ_OK) st = fin;
  clReleaseKernel(k);
  return st;
}
