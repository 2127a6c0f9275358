/* bench_common.c — helpers shared by the `sqz bench` commands: a monotonic clock and the device copy bandwidth. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "backends/opencl/cl_internal.h"

double sqz_bench_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double sqz_bench_copy_bandwidth(sqz_context *ctx, uint64_t *bytes) {
  uint64_t n = (uint64_t)1 << 30;
  if (ctx->ops != &sqz__opencl_ops) n >>= 2;
  while (n > ctx->max_alloc || 4 * n > ctx->global_mem) n >>= 1;
  double best = 0;
  *bytes = n;
  if (ctx->ops == &sqz__opencl_ops) {
    cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS;
    cl_mem a = clCreateBuffer(SQZ_CL(ctx)->cl, CL_MEM_READ_WRITE, (size_t)n, NULL, &e1);
    cl_mem b = clCreateBuffer(SQZ_CL(ctx)->cl, CL_MEM_READ_WRITE, (size_t)n, NULL, &e2);
    unsigned char one = 1;
    if (e1 == CL_SUCCESS && e2 == CL_SUCCESS &&
        clEnqueueFillBuffer(SQZ_CL(ctx)->queue, a, &one, 1, 0, (size_t)n, 0, NULL, NULL) == CL_SUCCESS) {
      for (int rep = 0; rep < 6; rep++) {
        cl_event ev = NULL;
        cl_ulong t0 = 0, t1 = 0;
        if (clEnqueueCopyBuffer(SQZ_CL(ctx)->queue, a, b, 0, 0, (size_t)n, 0, NULL, &ev) != CL_SUCCESS) break;
        clWaitForEvents(1, &ev);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        clReleaseEvent(ev);
        double bw = t1 > t0 ? 2.0 * (double)n / (1e-9 * (double)(t1 - t0)) : 0.0;
        if (rep > 0 && bw > best) best = bw; /* the first copy is a warm-up */
      }
    }
    if (a) clReleaseMemObject(a);
    if (b) clReleaseMemObject(b);
    return best;
  }
  unsigned char *a = malloc((size_t)n), *b = malloc((size_t)n);
  if (a && b) {
    memset(a, 1, (size_t)n);
    memset(b, 0, (size_t)n);
    for (int rep = 0; rep < 6; rep++) {
      double t0 = sqz_bench_clock();
      memcpy(b, a, (size_t)n);
      double t = sqz_bench_clock() - t0, bw = t > 0 ? 2.0 * (double)n / t : 0.0;
      if (rep > 0 && bw > best && b[n / 2] == 1) best = bw;
    }
  }
  free(a);
  free(b);
  return best;
}

char *sqz_bench_json_rows(int n, void (*row)(FILE *out, int i, void *user), void *user) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem) return NULL;
  fputc('[', mem);
  for (int i = 0; i < n; i++) {
    if (i) fputc(',', mem);
    row(mem, i, user);
  }
  fputc(']', mem);
  fclose(mem);
  return text;
}
