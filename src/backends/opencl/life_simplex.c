/* life_simplex.c (opencl) — Life-like steps and random fills of triangle/tetrahedron fields on a device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simplex/simplex_plan.h"

static const char *const sqz_life_simplex_files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_rule.h",
                                                     "life_simplex.cl", NULL};

static int sqz__slayout(const sqz_field *f) { return f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT; }

/* The prelude of the program: the tile size of the Life kernels (from the largest block side rho
 * whose rho^dims work-items the device allows, so that rho stays a kernel argument) and, with
 * rule_too, the field's user rule. */
static char *sqz__life_prelude(const sqz_field *f, int rule_too) {
  int dims = f->dom->dims;
  uint64_t rmax = 1, cap = dims == 2 ? 1024u : 64u, wg = f->ctx->max_work_group;
  while (rmax < cap && (dims == 2 ? (rmax + 1) * (rmax + 1) : (rmax + 1) * (rmax + 1) * (rmax + 1)) <= wg) rmax++;
  char *rule = rule_too ? sqz__rule_prelude(f) : NULL;
  if (rule_too && !rule) return NULL;
  size_t len = (rule ? strlen(rule) : 0) + 48;
  char *pre = malloc(len);
  if (pre) snprintf(pre, len, "#define SQZ_RHO_MAX %llu\n%s", (unsigned long long)rmax, rule ? rule : "");
  free(rule);
  return pre;
}

int sqz__life_simplex_cl(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  int dims = f->dom->dims;
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  char *pre = sqz__life_prelude(f, 1);
  if (!pre) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  int st = sqz__simplex_kernel(ctx, dims, f->dom->side, f->map, f->block, sqz__slayout(f), pre,
                               sqz_life_simplex_files, dims == 2 ? "sqz_life2" : "sqz_life3", &plan, &k);
  free(pre);
  if (st != SQZ_OK) return st;
  st = sqz__field_ensure_pair(f);
  cl_uint n = (cl_uint)f->dom->side, rho = plan.rho;
  for (uint64_t s = 0; st == SQZ_OK && s < steps; s++) {
    st = sqz__args(ctx, k, sizeof(cl_mem), &f->buf[f->cur], sizeof(cl_mem), &f->buf[1 - f->cur], sizeof n, &n,
                   sizeof rho, &rho, sizeof birth, &birth, sizeof survive, &survive, (size_t)0);
    if (st == SQZ_OK) st = sqz__simplex_enqueue(ctx, k, 6, &plan);
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  clReleaseKernel(k);
  sqz__simplex_plan_free(&plan);
  return st;
}

int sqz__simplex_touch(sqz_field *f, int accumulate, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  if (ctx->backend != SQZ_BACKEND_OPENCL)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the map and accumulate workloads run on the opencl backend");
  if (f->type != SQZ_U8 || f->dom->kind == SQZ_DOMAIN_FRACTAL)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "the map and accumulate workloads need a SQZ_U8 simplex field");
  int dims = f->dom->dims;
  sqz_simplex_plan plan;
  cl_kernel k = NULL;
  char *pre = sqz__life_prelude(f, 0);
  if (!pre) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  sqz__op_begin(ctx);
  int st = sqz__simplex_kernel(ctx, dims, f->dom->side, f->map, f->block, sqz__slayout(f), pre,
                               sqz_life_simplex_files, dims == 2 ? "sqz_touch2" : "sqz_touch3", &plan, &k);
  free(pre);
  if (st == SQZ_OK) {
    cl_uint n = (cl_uint)f->dom->side, rho = plan.rho, acc = accumulate ? 1u : 0u;
    st = sqz__args(ctx, k, sizeof(cl_mem), &f->buf[f->cur], sizeof n, &n, sizeof rho, &rho, sizeof acc, &acc,
                   (size_t)0);
    for (uint64_t s = 0; st == SQZ_OK && s < steps; s++) st = sqz__simplex_enqueue(ctx, k, 4, &plan);
    if (st == SQZ_OK) st = sqz__finish(ctx);
    clReleaseKernel(k);
    sqz__simplex_plan_free(&plan);
  }
  sqz__op_end(ctx);
  return st;
}

#define SQZ__FILL_CHUNK ((uint64_t)1 << 30) /* work-items per launch */

int sqz__fill_random_simplex_cl(sqz_field *f, uint64_t threshold, uint64_t seed) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "simplex_fill.cl", NULL};
  sqz_context *ctx = f->ctx;
  char pre[96];
  snprintf(pre, sizeof pre, "#define SQZ_DIMS %d\n#define SQZ_SLAYOUT %d\n", f->dom->dims, sqz__slayout(f));
  cl_program prog = NULL;
  cl_kernel k = NULL;
  int st = sqz__program(ctx, pre, files, "", &prog);
  if (st == SQZ_OK) st = sqz__kernel(ctx, prog, "sqz_simplex_fill", &k);
  if (st != SQZ_OK) return st;
  cl_uint n = (cl_uint)f->dom->side;
  cl_ulong elems = f->elems, sd = seed, th = threshold;
  size_t local = 256;
  for (cl_ulong first = 0; st == SQZ_OK && first < elems; first += SQZ__FILL_CHUNK) {
    uint64_t left = elems - first, items = left < SQZ__FILL_CHUNK ? left : SQZ__FILL_CHUNK;
    size_t global = (size_t)((items + local - 1) / local * local);
    st = sqz__args(ctx, k, sizeof(cl_mem), &f->buf[f->cur], sizeof n, &n, sizeof first, &first, sizeof elems, &elems,
                   sizeof sd, &sd, sizeof th, &th, (size_t)0);
    if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
  }
  clReleaseKernel(k);
  return st;
}
