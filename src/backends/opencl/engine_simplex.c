/* engine_simplex.c (opencl) — the map kernels of the stencil engine (path simplex-map-generic), micro-workloads and random fills on triangle/tetrahedron fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"
#include "backends/opencl/cl_simplex.h"
#include "core/field_parts.h"

static int sqz__slayout(const sqz_field *f) { return f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT; }

/* The tile size of the step kernels: the largest block side rho whose rho^dims work-items the
 * device allows, so that rho stays a kernel argument. */
static uint64_t sqz__rho_max(const sqz_field *f) {
  int dims = f->dom->dims;
  uint64_t rmax = 1, cap = dims == 2 ? 1024u : 64u, wg = f->ctx->max_work_group;
  while (rmax < cap && (dims == 2 ? (rmax + 1) * (rmax + 1) : (rmax + 1) * (rmax + 1) * (rmax + 1)) <= wg) rmax++;
  return rmax;
}

/* Arguments of sqz_engine2/3 (cl/engine_simplex.cl), by name. */
enum { SA_SRC, SA_DST, SA_PARAM, SA_IP, SA_N, SA_RHO, SA_LAUNCH, SA_PU0, SA_PU1, SA_PNH, SA_PHALO, SA_PRN, SA_PRUNS };

int sqz__cl_simplex_map(sqz_field *f, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  int dims = f->dom->dims;
  const char *files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_parts.h", "sqz_rule.h", "sqz_heat.h", "simplex_blocks.cl",
                         NULL, "engine_simplex.cl", NULL};
  files[6] = sqz__cl_update_file(u);
  if (!files[6]) { /* the user's update is in the prelude */
    files[6] = files[7];
    files[7] = NULL;
  }
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  cl_mem param = NULL;
  cl_uint2 ip;
  char *upre = sqz__cl_update_prelude(ctx, f, u);
  if (!upre) return SQZ_ERR_OUT_OF_MEMORY;
  size_t len = strlen(upre) + 80;
  char *pre = sqz__malloc(len);
  if (!pre) {
    free(upre);
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  }
  snprintf(pre, len, "#define SQZ_RHO_MAX %llu\n%s%s", (unsigned long long)sqz__rho_max(f),
           f->part ? "#define SQZ_PARTED 1\n" : "", upre); /* parts: the slot remap (cl/engine_simplex.cl) */
  free(upre);
  int st = sqz__simplex_kernel(ctx, dims, f->dom->side, f->map, f->block, sqz__slayout(f), pre, files,
                               dims == 2 ? "sqz_engine2" : "sqz_engine3", &plan, &k);
  free(pre);
  if (st != SQZ_OK) return st;
  st = sqz__field_ensure_pair(f);
  if (st == SQZ_OK) st = sqz__cl_update_params(ctx, f, u, &param, &ip);
  cl_uint n = (cl_uint)f->dom->side, rho = plan.rho;
  const sqz_field_part *pt = f->part; /* the unit remap (cl/sqz_parts.h): identity in one buffer */
  cl_ulong pu0 = pt ? pt->u0 : 0, pu1 = pt ? pt->u1 : f->elems, pnh = pt ? pt->n_halo : 0;
  cl_mem phalo = pt ? (cl_mem)pt->halo_dev : NULL, pruns = NULL;
  uint64_t first, end, n_runs; /* the launch's unit set: cells tested against its runs (cl/sqz_parts.h) */
  const uint64_t *runs;
  sqz__step_units(f, f->elems, &first, &end, &n_runs, &runs, (sqz_mem *)&pruns);
  cl_ulong prn = n_runs;
  for (uint64_t s = 0; st == SQZ_OK && s < steps; s++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    cl_int e = clSetKernelArg(k, SA_SRC, sizeof src, &src) | clSetKernelArg(k, SA_DST, sizeof dst, &dst) |
               clSetKernelArg(k, SA_PARAM, sizeof param, &param) | clSetKernelArg(k, SA_IP, sizeof ip, &ip) |
               clSetKernelArg(k, SA_N, sizeof n, &n) | clSetKernelArg(k, SA_RHO, sizeof rho, &rho) |
               clSetKernelArg(k, SA_PU0, sizeof pu0, &pu0) | clSetKernelArg(k, SA_PU1, sizeof pu1, &pu1) |
               clSetKernelArg(k, SA_PNH, sizeof pnh, &pnh) | clSetKernelArg(k, SA_PHALO, sizeof phalo, &phalo) |
               clSetKernelArg(k, SA_PRN, sizeof prn, &prn) | clSetKernelArg(k, SA_PRUNS, sizeof pruns, &pruns);
    st = e == CL_SUCCESS ? sqz__simplex_enqueue(ctx, k, SA_LAUNCH, &plan)
                         : sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the arguments of a simplex step failed");
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  int fin = sqz__cl_done_with(ctx, param, NULL); /* the parameters must outlive the launches that read them */
  if (st == SQZ_OK) st = fin;
  clReleaseKernel(k);
  sqz__simplex_plan_free(&plan);
  return st;
}

/* Arguments of sqz_touch2/3 (cl/simplex_touch.cl): dst, n, rho, acc, then the launch. */
enum { TA_LAUNCH = 4 };

int sqz__simplex_touch(sqz_field *f, int accumulate, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  if (ctx->ops != &sqz__opencl_ops)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the map and accumulate workloads run on the opencl backend");
  if (f->type != SQZ_U8 || f->dom->kind == SQZ_DOMAIN_FRACTAL)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "the map and accumulate workloads need a SQZ_U8 simplex field");
  int dims = f->dom->dims;
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "simplex_blocks.cl", "simplex_touch.cl", NULL};
  sqz__op_begin(ctx);
  int st = sqz__simplex_kernel(ctx, dims, f->dom->side, f->map, f->block, sqz__slayout(f), NULL, files,
                               dims == 2 ? "sqz_touch2" : "sqz_touch3", &plan, &k);
  if (st == SQZ_OK) {
    cl_uint n = (cl_uint)f->dom->side, rho = plan.rho, acc = accumulate ? 1u : 0u;
    st = sqz__args(ctx, k, sizeof(cl_mem), &f->mem[f->cur], sizeof n, &n, sizeof rho, &rho, sizeof acc, &acc,
                   (size_t)0);
    for (uint64_t s = 0; st == SQZ_OK && s < steps; s++) st = sqz__simplex_enqueue(ctx, k, TA_LAUNCH, &plan);
    if (st == SQZ_OK) st = sqz__cl_finish(ctx);
    clReleaseKernel(k);
    sqz__simplex_plan_free(&plan);
  }
  sqz__op_end(ctx);
  return st;
}

#define SQZ__FILL_CHUNK ((uint64_t)1 << 30) /* work-items per launch */

int sqz__cl_fill_simplex(sqz_field *f, const sqz_fill *fill) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "simplex_fill.cl", NULL};
  sqz_context *ctx = f->ctx;
  char pre[128];
  snprintf(pre, sizeof pre, "#define SQZ_DIMS %d\n#define SQZ_SLAYOUT %d\n#define SQZ_FILL_BYTES %u\n", f->dom->dims,
           sqz__slayout(f), (unsigned)sqz_type_size(f->type));
  cl_program prog = NULL;
  cl_kernel k = NULL;
  int st = sqz__program(ctx, pre, files, "", &prog);
  if (st == SQZ_OK) st = sqz__kernel(ctx, prog, "sqz_simplex_fill", &k);
  if (st != SQZ_OK) return st;
  cl_uint n = (cl_uint)f->dom->side, mode = fill->mode;
  uint64_t e0, own;
  sqz__own_elems(f, &e0, &own); /* a part's own cells, at its buffer's start */
  cl_ulong elems = e0 + own, base = e0, sd = fill->seed, th = fill->threshold, val = fill->value;
  size_t local = 256;
  for (cl_ulong first = e0; st == SQZ_OK && first < elems; first += SQZ__FILL_CHUNK) {
    uint64_t left = elems - first, items = left < SQZ__FILL_CHUNK ? left : SQZ__FILL_CHUNK;
    size_t global = (size_t)((items + local - 1) / local * local);
    st = sqz__args(ctx, k, sizeof(cl_mem), &f->mem[f->cur], sizeof n, &n, sizeof first, &first, sizeof elems, &elems,
                   sizeof mode, &mode, sizeof sd, &sd, sizeof th, &th, sizeof val, &val, sizeof base, &base, (size_t)0);
    if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
  }
  clReleaseKernel(k);
  return st;
}
