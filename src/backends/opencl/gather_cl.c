/* gather_cl.c (opencl) — cells between a field's buffer and host arrays through a list of storage indices (cl/gather.cl). */
#include <stdio.h>

#include "backends/opencl/cl_engine.h"

/* Arguments of sqz_gather / sqz_scatter, by name. */
enum { GA_MEM, GA_IDX, GA_HOST, GA_N };

static int cl_move(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *host, int gather) {
  static const char *const files[] = {"gather.cl", NULL};
  if (n == 0) return SQZ_OK;
  char pre[64];
  snprintf(pre, sizeof pre, "#define SQZ_T %s\n", ts == 1 ? "uchar" : ts == 4 ? "uint" : "ulong");
  cl_kernel k = NULL;
  cl_mem dev_idx = NULL, dev_host = NULL;
  int st = sqz__program_kernel(ctx, pre, files, "", gather ? "sqz_gather" : "sqz_scatter", &k);
  if (st == SQZ_OK) st = sqz__buffer(ctx, n * sizeof *idx, CL_MEM_READ_ONLY, &dev_idx);
  if (st == SQZ_OK) st = sqz__buffer(ctx, n * ts, CL_MEM_READ_WRITE, &dev_host);
  if (st != SQZ_OK) goto done;
  cl_command_queue q = SQZ_CL(ctx)->queue;
  cl_mem m = (cl_mem)mem;
  cl_ulong cn = n;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueWriteBuffer(q, dev_idx, CL_FALSE, 0, (size_t)(n * sizeof *idx), idx, 0, NULL, NULL));
  if (!gather) SQZ_CL_GOTO(ctx, st, done, clEnqueueWriteBuffer(q, dev_host, CL_FALSE, 0, (size_t)(n * ts), host, 0, NULL, NULL));
  SQZ_CL_GOTO(ctx, st, done, clSetKernelArg(k, GA_MEM, sizeof m, &m) | clSetKernelArg(k, GA_IDX, sizeof dev_idx, &dev_idx) |
                                 clSetKernelArg(k, GA_HOST, sizeof dev_host, &dev_host) | clSetKernelArg(k, GA_N, sizeof cn, &cn));
  size_t local = 256, global = (size_t)((n + local - 1) / local * local);
  if ((st = sqz__run(ctx, k, 1, &global, &local)) != SQZ_OK) goto done;
  if (gather) SQZ_CL_GOTO(ctx, st, done, clEnqueueReadBuffer(q, dev_host, CL_TRUE, 0, (size_t)(n * ts), host, 0, NULL, NULL));
  st = sqz__cl_finish(ctx);
done:
  if (st != SQZ_OK) sqz__cl_finish(ctx); /* nothing may still read the buffers released below */
  if (dev_idx) clReleaseMemObject(dev_idx);
  if (dev_host) clReleaseMemObject(dev_host);
  if (k) clReleaseKernel(k);
  return st;
}

int sqz__cl_gather(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *out) {
  return cl_move(ctx, mem, ts, idx, n, out, 1);
}

int sqz__cl_scatter(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, const void *in) {
  return cl_move(ctx, mem, ts, idx, n, (void *)in, 0);
}
