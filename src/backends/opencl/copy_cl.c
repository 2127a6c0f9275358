/* copy_cl.c (opencl) — units gathered through a part's halo list by one kernel (cl/copy.cl): the backend's copy_units. */
#include "backends/opencl/cl_engine.h"

/* Arguments of sqz_copy_units, by name. */
enum { CA_DST, CA_SLOT0, CA_SRC, CA_G0, CA_G, CA_I0, CA_N, CA_UB };

int sqz__cl_copy_units(sqz_context *ctx, sqz_mem dst, uint64_t slot0, sqz_mem src, uint64_t g0, sqz_mem g,
                       uint64_t i0, uint64_t n, uint64_t ub) {
  static const char *const files[] = {"copy.cl", NULL};
  if (n == 0) return SQZ_OK;
  cl_kernel k = NULL;
  int st = sqz__program_kernel(ctx, "", files, "", "sqz_copy_units", &k);
  if (st != SQZ_OK) return st;
  cl_mem d = (cl_mem)dst, s = (cl_mem)src, gl = (cl_mem)g;
  cl_ulong a[5] = {slot0, g0, i0, n, ub};
  if ((clSetKernelArg(k, CA_DST, sizeof d, &d) | clSetKernelArg(k, CA_SLOT0, sizeof a[0], &a[0]) |
       clSetKernelArg(k, CA_SRC, sizeof s, &s) | clSetKernelArg(k, CA_G0, sizeof a[1], &a[1]) |
       clSetKernelArg(k, CA_G, sizeof gl, &gl) | clSetKernelArg(k, CA_I0, sizeof a[2], &a[2]) |
       clSetKernelArg(k, CA_N, sizeof a[3], &a[3]) | clSetKernelArg(k, CA_UB, sizeof a[4], &a[4])) != CL_SUCCESS)
    st = sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the arguments of a halo gather failed");
  size_t local = 64, global = (size_t)((n + local - 1) / local * local);
  if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
  clReleaseKernel(k);
  return st;
}
