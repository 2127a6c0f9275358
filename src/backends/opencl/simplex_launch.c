/* simplex_launch.c (opencl) — builds the kernel of a simplex map plan and enqueues the plan's launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_simplex.h"

static uint64_t sqz__group(int dims, uint32_t rho) { return dims == 2 ? (uint64_t)rho * rho : (uint64_t)rho * rho * rho; }

/* Program and kernel for a plan; *kwg gets the kernel's work-group limit. */
static int sqz__simplex_build(sqz_context *ctx, const sqz_simplex_plan *plan, int slayout, int idx32,
                              const char *extra, const char *const *files, const char *kname, cl_kernel *kernel,
                              size_t *kwg) {
  size_t cap = (extra ? strlen(extra) : 0) + 160;
  char *pre = sqz__malloc(cap);
  if (!pre) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  snprintf(pre, cap, "#define SQZ_DIMS %d\n#define SQZ_KIND_MASK 0x%xu\n#define SQZ_SLAYOUT %d\n%s%s", plan->dims,
           plan->kind_mask, slayout, idx32 ? "#define SQZ_IDX32 1\n" : "", extra ? extra : "");
  cl_program prog = NULL;
  int st = sqz__program(ctx, pre, files, "", &prog);
  free(pre);
  if (st == SQZ_OK) st = sqz__kernel(ctx, prog, kname, kernel);
  if (st != SQZ_OK) return st;
  cl_int err = clGetKernelWorkGroupInfo(*kernel, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof *kwg, kwg, NULL);
  if (err != CL_SUCCESS) {
    clReleaseKernel(*kernel);
    *kernel = NULL;
    return sqz__fail(ctx, err, "clGetKernelWorkGroupInfo(%s) failed: %s", kname, sqz_status_name(err));
  }
  return SQZ_OK;
}

/* The plan of `map` for rho = *rho (block 0: halved until rho^dims work-items fit in limit),
 * SQZ_ERR_INVALID_ARGUMENT naming rho and the limit when they do not. */
static int sqz__simplex_plan_within(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t block,
                                    size_t limit, uint32_t *rho, sqz_simplex_plan *plan) {
  while (!block && *rho > 1u && sqz__group(dims, *rho) > limit) *rho /= 2u;
  if (sqz__group(dims, *rho) > limit)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "block side rho = %u needs %llu work-items per group but %s allows %zu",
                     *rho, (unsigned long long)sqz__group(dims, *rho), ctx->device_name, limit);
  return sqz__simplex_plan(ctx, dims, n, map, *rho, 0, plan);
}

int sqz__simplex_check(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t block) {
  uint32_t rho = block ? block : sqz__simplex_default_rho(dims);
  sqz_simplex_plan plan;
  int st = sqz__simplex_plan_within(ctx, dims, n, map, block, ctx->max_work_group, &rho, &plan);
  if (st == SQZ_OK) sqz__simplex_plan_free(&plan);
  return st;
}

int sqz__simplex_kernel(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t block, int slayout,
                        const char *extra, const char *const *files, const char *kname, sqz_simplex_plan *plan,
                        cl_kernel *kernel) {
  *kernel = NULL;
  uint64_t elems = slayout == SQZ_SL_COMPACT ? (dims == 2 ? sqz_tri(n) : sqz_te(n)) : (dims == 2 ? n * n : n * n * n);
  int idx32 = elems <= ((uint64_t)1 << 32) && !sqz__opt_num(ctx, NULL, SQZ_OPT_INDEX64, 0);
  uint32_t rho = block ? block : sqz__simplex_default_rho(dims);
  size_t limit = ctx->max_work_group;
  for (;;) {
    int st = sqz__simplex_plan_within(ctx, dims, n, map, block, limit, &rho, plan);
    if (st != SQZ_OK) return st;
    size_t kwg = 0;
    st = sqz__simplex_build(ctx, plan, slayout, idx32, extra, files, kname, kernel, &kwg);
    if (st != SQZ_OK) {
      sqz__simplex_plan_free(plan);
      return st;
    }
    if (sqz__group(dims, rho) <= kwg) return SQZ_OK;
    clReleaseKernel(*kernel); /* the kernel allows fewer work-items than the device: retry */
    *kernel = NULL;
    sqz__simplex_plan_free(plan);
    limit = kwg;
  }
}

int sqz__simplex_enqueue_grid(sqz_context *ctx, cl_kernel k, cl_uint argi, const sqz_simplex_plan *plan,
                              const sqz_simplex_launch *l, const uint32_t grid[3]) {
  size_t local[3] = {plan->rho, plan->rho, plan->rho}, global[3];
  cl_uint8 lp;
  memset(&lp, 0, sizeof lp);
  lp.s[0] = l->kind;
  for (int j = 0; j < 3; j++) {
    lp.s[1 + j] = l->p[j];
    lp.s[4 + j] = l->o[j];
    global[j] = (size_t)grid[j] * plan->rho;
  }
  SQZ_CL_CHECK(ctx, clSetKernelArg(k, argi, sizeof lp, &lp));
  return sqz__run(ctx, k, (cl_uint)plan->dims, global, local);
}

int sqz__simplex_enqueue(sqz_context *ctx, cl_kernel k, cl_uint argi, const sqz_simplex_plan *plan) {
  for (size_t i = 0; i < plan->count; i++) {
    int st = sqz__simplex_enqueue_grid(ctx, k, argi, plan, &plan->launch[i], plan->launch[i].grid);
    if (st != SQZ_OK) return st;
  }
  return SQZ_OK;
}
