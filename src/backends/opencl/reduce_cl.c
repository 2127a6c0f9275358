/* reduce_cl.c — OpenCL stage one of the reductions (cl/reduce.cl): program per element type and kernel, bounded grid, partials read back. */
#include <stdio.h>
#include <stdlib.h>

#include "backends/opencl/cl_engine.h"

#define SQZ_RED_MAX_LOCAL 256   /* work-group size cap (power of two) */
#define SQZ_RED_MAX_GROUPS 1024 /* groups of a float reduction, so stage two stays small */
#define SQZ_RED_PER_ITEM 8      /* at least this many elements per work-item before adding groups */

/* OpenCL C spellings of an element type and of the unsigned type of its width. */
static void red_type_names(sqz_type type, const char **t, const char **bits) {
  switch (type) {
  case SQZ_U8: *t = "uchar"; *bits = "uchar"; return;
  case SQZ_I32: *t = "int"; *bits = "uint"; return;
  case SQZ_F32: *t = "float"; *bits = "uint"; return;
  case SQZ_F64: *t = "double"; *bits = "ulong"; return;
  }
  *t = *bits = "?";
}

static const char *red_kernel_name(sqz_red_op op) {
  static const char *const names[] = {"sqz_red_count", "sqz_red_isum", "sqz_red_pairwise", "sqz_red_neumaier",
                                      "sqz_red_count"}; /* SQZ_RED_ABOVE1: the count under another mask */
  return names[op];
}

/* Builds (or takes from the cache) the kernel of op for one element type and accumulator. */
static int red_kernel(sqz_context *ctx, sqz_red_op op, sqz_type type, int fp64, int acc_double, cl_kernel *out) {
  const char *t, *bits;
  red_type_names(type, &t, &bits);
  const int is_float = type == SQZ_F32 || type == SQZ_F64;
  const int kind = !is_float ? 1 : (type == SQZ_F64 && !fp64) ? 0 : 2;
  const int uses_double = (type == SQZ_F64 && fp64) || acc_double;
  char prelude[256];
  snprintf(prelude, sizeof prelude,
           "#define SQZ_RED_BITS %s\n#define SQZ_RED_T %s\n#define SQZ_RED_KIND %d\n#define SQZ_RED_ACC %s\n%s", bits,
           t, kind, acc_double ? "double" : "float", uses_double ? "#define SQZ_RED_FP64 1\n" : "");
  static const char *const files[] = {"reduce.cl", NULL};
  return sqz__program_kernel(ctx, prelude, files, "", red_kernel_name(op), out);
}

/* Bytes of one group's partial (the kernel's local scratch per work-item is the same). */
static size_t red_partial_bytes(sqz_red_op op, sqz_type type, int acc_double) {
  switch (op) {
  case SQZ_RED_COUNT:
  case SQZ_RED_ABOVE1:
  case SQZ_RED_ISUM: return sizeof(cl_ulong);
  case SQZ_RED_PAIRWISE: return sqz_type_size(type);
  case SQZ_RED_NEUMAIER: return 2 * (acc_double ? sizeof(cl_double) : sizeof(cl_float));
  }
  return 0;
}

/* Stage two: folds the groups' partials into acc. */
static void red_combine(sqz_red_op op, sqz_type type, int acc_double, const void *p, size_t groups,
                        sqz_red_acc *acc) {
  for (size_t g = 0; g < groups; g++) {
    switch (op) {
    case SQZ_RED_COUNT:
    case SQZ_RED_ABOVE1: acc->count += ((const cl_ulong *)p)[g]; break;
    case SQZ_RED_ISUM: sqz__red_add_int(acc, ((const cl_long *)p)[g]); break;
    case SQZ_RED_PAIRWISE:
      sqz__red_add(acc, type == SQZ_F64 ? ((const cl_double *)p)[g] : ((const cl_float *)p)[g]);
      break;
    case SQZ_RED_NEUMAIER:
      for (size_t j = 2 * g; j < 2 * g + 2; j++)
        sqz__red_add(acc, acc_double ? ((const cl_double *)p)[j] : ((const cl_float *)p)[j]);
      break;
    }
  }
}

int sqz__cl_reduce(sqz_context *ctx, sqz_red_op op, sqz_type type, sqz_mem mem, uint64_t n, int acc_mode,
                    sqz_red_acc *acc) {
  cl_mem buf = (cl_mem)mem;
  if (n == 0) return SQZ_OK;
  const int fp64 = sqz__cl_has_fp64(ctx);
  const int is_count = op == SQZ_RED_COUNT || op == SQZ_RED_ABOVE1;
  if (type == SQZ_F64 && !is_count && !fp64)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "summing float64 data needs cl_khr_fp64, which %s lacks",
                     ctx->device_name);
  /* Neumaier accumulates float32 data in double where the device has doubles. */
  const int acc_double = type == SQZ_F64 || (type == SQZ_F32 && fp64 && acc_mode != SQZ_RED_ACC_FLOAT);
  cl_kernel k = NULL;
  cl_mem part = NULL, flag = NULL;
  void *host = NULL;
  int st = red_kernel(ctx, op, type, fp64, acc_double, &k);
  if (st != SQZ_OK) goto done;

  size_t local = 1;
  SQZ_CL_GOTO(ctx, st, done,
              clGetKernelWorkGroupInfo(k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof local, &local, NULL));
  local = sqz_pow2floor((sqz_u32)(local < SQZ_RED_MAX_LOCAL ? (local ? local : 1) : SQZ_RED_MAX_LOCAL));
  uint64_t cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * 8;
  if (cap > SQZ_RED_MAX_GROUPS) cap = SQZ_RED_MAX_GROUPS;
  uint64_t groups = (n + (uint64_t)local * SQZ_RED_PER_ITEM - 1) / ((uint64_t)local * SQZ_RED_PER_ITEM);
  if (groups > cap) groups = cap;
  /* an integer group partial stays exact while the group sums fewer than 2^32 elements */
  if (op == SQZ_RED_ISUM && n / groups >= ((uint64_t)1 << 31)) groups = (n >> 31) + 1;
  const size_t global = (size_t)groups * local;
  const size_t pbytes = red_partial_bytes(op, type, acc_double);
  const size_t scratch = pbytes; /* local bytes per work-item: one partial's worth */
  const int is_sum = op == SQZ_RED_PAIRWISE || op == SQZ_RED_NEUMAIER;

  st = sqz__buffer(ctx, groups * pbytes, CL_MEM_WRITE_ONLY, &part);
  if (st == SQZ_OK && is_sum) st = sqz__buffer(ctx, sizeof(cl_int), CL_MEM_READ_WRITE, &flag);
  if (st != SQZ_OK) goto done;
  const cl_ulong n64 = n;
  if (is_count) {
    const uint64_t m = sqz__red_mask(op, type);
    const cl_uchar m8 = (cl_uchar)m;
    const cl_uint m32 = (cl_uint)m;
    const cl_ulong m64 = m;
    const size_t w = sqz_type_size(type);
    const void *mp = w == 1 ? (const void *)&m8 : w == 4 ? (const void *)&m32 : (const void *)&m64;
    st = sqz__args(ctx, k, sizeof buf, &buf, sizeof n64, &n64, w, mp, sizeof part, &part, local * scratch,
                   (const void *)NULL, (size_t)0);
  } else if (op == SQZ_RED_ISUM) {
    st = sqz__args(ctx, k, sizeof buf, &buf, sizeof n64, &n64, sizeof part, &part, local * scratch,
                   (const void *)NULL, (size_t)0);
  } else {
    static const cl_int zero = 0;
    SQZ_CL_GOTO(ctx, st, done, clEnqueueWriteBuffer(SQZ_CL(ctx)->queue, flag, CL_FALSE, 0, sizeof zero, &zero, 0, NULL, NULL));
    st = sqz__args(ctx, k, sizeof buf, &buf, sizeof n64, &n64, sizeof part, &part, sizeof flag, &flag,
                   local * scratch, (const void *)NULL, (size_t)0);
  }
  if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
  if (st == SQZ_OK) st = sqz__cl_finish(ctx);
  if (st != SQZ_OK) goto done;

  host = sqz__malloc(groups * pbytes);
  if (!host) {
    st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %llu partial sums", (unsigned long long)groups);
    goto done;
  }
  SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, part, CL_TRUE, 0, groups * pbytes, host, 0, NULL, NULL));
  if (is_sum) {
    cl_int bad = 0;
    SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, flag, CL_TRUE, 0, sizeof bad, &bad, 0, NULL, NULL));
    if (bad) acc->nonfinite = 1;
  }
  red_combine(op, type, acc_double, host, (size_t)groups, acc);
done:
  free(host);
  if (flag) clReleaseMemObject(flag);
  if (part) clReleaseMemObject(part);
  if (k) clReleaseKernel(k);
  return st;
}
