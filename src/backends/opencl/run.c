/* run.c — kernel creation, argument setting, launches with event or host timing, the gate and buffers of enqueued steps, checked buffers. */
#include <stdarg.h>
#include <stdlib.h>

#include "backends/opencl/cl_internal.h"

int sqz__kernel(sqz_context *ctx, cl_program program, const char *name, cl_kernel *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateKernel(program, name, &err);
  if (err != CL_SUCCESS)
    return sqz__fail(ctx, err, "clCreateKernel(%s) failed: %s", name, sqz_status_name(err));
  return SQZ_OK;
}

int sqz__args(sqz_context *ctx, cl_kernel k, ...) {
  va_list ap;
  va_start(ap, k);
  int st = SQZ_OK;
  for (cl_uint i = 0;; i++) {
    size_t size = va_arg(ap, size_t);
    if (size == 0) break;
    const void *ptr = va_arg(ap, const void *);
    cl_int err = clSetKernelArg(k, i, size, ptr);
    if (err != CL_SUCCESS) {
      st = sqz__fail(ctx, err, "clSetKernelArg(%u) failed: %s", i, sqz_status_name(err));
      break;
    }
  }
  va_end(ap);
  return st;
}

static int sqz__collect(sqz_context *ctx) {
  for (size_t i = 0; i < SQZ_CL(ctx)->n_pending; i++) {
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(SQZ_CL(ctx)->pending[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(SQZ_CL(ctx)->pending[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) == CL_SUCCESS &&
        t1 >= t0)
      ctx->kernel_s += 1e-9 * (double)(t1 - t0);
    clReleaseEvent(SQZ_CL(ctx)->pending[i]);
  }
  SQZ_CL(ctx)->n_pending = 0;
  return SQZ_OK;
}

int sqz__cl_finish(sqz_context *ctx) {
  if (ctx->ops != &sqz__opencl_ops || !SQZ_CL(ctx) || !SQZ_CL(ctx)->queue) return SQZ_OK;
  cl_int err = clFinish(SQZ_CL(ctx)->queue);
  sqz__collect(ctx);
  if (SQZ_CL(ctx)->host_t0 > 0.0) { /* a queue without profiling: the host's view of the launches */
    ctx->kernel_s += sqz__now() - SQZ_CL(ctx)->host_t0;
    SQZ_CL(ctx)->host_t0 = 0.0;
  }
  if (err != CL_SUCCESS) return sqz__fail(ctx, err, "clFinish failed: %s", sqz_status_name(err));
  return SQZ_OK;
}

int sqz__cl_gate(sqz_context *ctx) {
  sqz_cl_state *cl = SQZ_CL(ctx);
  if (!cl->enq || cl->gated || cl->enq->n_wait == 0) return SQZ_OK;
  cl->gated = 1;
  SQZ_CL_CHECK(ctx, clEnqueueBarrierWithWaitList(cl->queue, cl->enq->n_wait, (const cl_event *)cl->enq->wait, NULL));
  return SQZ_OK;
}

int sqz__cl_done_with(sqz_context *ctx, cl_mem a, cl_mem b) {
  sqz_cl_state *cl = SQZ_CL(ctx);
  cl_mem m[2] = {a, b};
  int st = !cl->enq && (a || b) ? sqz__cl_finish(ctx) : SQZ_OK;
  for (int i = 0; i < 2; i++) {
    if (!m[i]) continue;
    if (cl->enq && cl->n_keep < SQZ_CL_KEEP) cl->keep[cl->n_keep++] = m[i];
    else clReleaseMemObject(m[i]); /* deleted once the commands that use it finish (OpenCL 1.2, 5.4.1) */
  }
  return st;
}

int sqz__run(sqz_context *ctx, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local) {
  for (cl_uint d = 0; d < dims; d++)
    if (global[d] == 0) return SQZ_OK; /* nothing to launch */
  sqz_cl_state *cl = SQZ_CL(ctx);
  if (cl->dry) return SQZ_OK; /* a prepare: the kernel is built, nothing runs */
  int timed = cl->profiling && !cl->enq; /* enqueued steps report no device time (include/sqz_opencl.h) */
  int st = sqz__cl_gate(ctx);
  if (st != SQZ_OK) return st;
  if (!cl->profiling && !cl->enq && cl->host_t0 <= 0.0) cl->host_t0 = sqz__now();
  if (timed && SQZ_CL(ctx)->n_pending == SQZ_CL(ctx)->cap_pending) {
    if (SQZ_CL(ctx)->n_pending >= 1024) {
      st = sqz__cl_finish(ctx);
      if (st != SQZ_OK) return st;
    } else {
      size_t cap = SQZ_CL(ctx)->cap_pending ? 2 * SQZ_CL(ctx)->cap_pending : 64;
      cl_event *p = sqz__realloc(SQZ_CL(ctx)->pending, cap * sizeof *p);
      if (!p) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
      SQZ_CL(ctx)->pending = p;
      SQZ_CL(ctx)->cap_pending = cap;
    }
  }
  cl_event ev = NULL;
  cl_int err = clEnqueueNDRangeKernel(SQZ_CL(ctx)->queue, k, dims, NULL, global, local, 0, NULL, timed ? &ev : NULL);
  if (err != CL_SUCCESS) {
    char name[128] = "?";
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    return sqz__fail(ctx, err, "launch of %s (global %zu x %zu x %zu, local %zu) failed: %s", name, global[0],
                     dims > 1 ? global[1] : 1, dims > 2 ? global[2] : 1, local ? local[0] : 0,
                     sqz_status_name(err));
  }
  if (timed) SQZ_CL(ctx)->pending[SQZ_CL(ctx)->n_pending++] = ev;
  if (sqz__opt_num(ctx, NULL, SQZ_OPT_SYNC, 0) && !cl->enq && (err = clFinish(SQZ_CL(ctx)->queue)) != CL_SUCCESS) {
    char name[128] = "?";
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    return sqz__fail(ctx, err, "%s (global %zu x %zu x %zu, local %zu) failed: %s", name, global[0],
                     dims > 1 ? global[1] : 1, dims > 2 ? global[2] : 1, local ? local[0] : 0, sqz_status_name(err));
  }
  return SQZ_OK;
}

static int sqz__buffer_host(sqz_context *ctx, uint64_t bytes, cl_mem_flags flags, const void *host, cl_mem *out) {
  *out = NULL;
  if (bytes == 0) bytes = 1;
  if (bytes > ctx->max_alloc)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE,
                     "a buffer of %llu bytes is needed but %s allows at most %llu bytes in one allocation",
                     (unsigned long long)bytes, ctx->device_name, (unsigned long long)ctx->max_alloc);
  if (bytes > SIZE_MAX) return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%llu bytes exceed size_t", (unsigned long long)bytes);
  cl_int err = CL_SUCCESS;
  *out = clCreateBuffer(SQZ_CL(ctx)->cl, flags, (size_t)bytes, (void *)host, &err);
  if (err != CL_SUCCESS)
    return sqz__fail(ctx, err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ? SQZ_ERR_OUT_OF_MEMORY : err,
                     "allocating %llu bytes on %s failed: %s (device memory %llu bytes)", (unsigned long long)bytes,
                     ctx->device_name, sqz_status_name(err), (unsigned long long)ctx->global_mem);
  return SQZ_OK;
}

int sqz__buffer(sqz_context *ctx, uint64_t bytes, cl_mem_flags flags, cl_mem *out) {
  return sqz__buffer_host(ctx, bytes, flags, NULL, out);
}

int sqz__const_buffer(sqz_context *ctx, uint64_t bytes, const void *host, cl_mem *out) {
  return sqz__buffer_host(ctx, bytes, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host, out);
}

/* NVIDIA's OpenCL (driver 580) fails every clEnqueueFillBuffer that reaches a byte offset of
 * 2^31 or more, in any buffer (the queue is lost: CL_INVALID_COMMAND_QUEUE), while copies,
 * transfers and kernels there work. So only the first piece below 2^30 bytes is filled, and the
 * rest of the buffer is copied from it, piece by piece. */
int sqz__zero_buffer(sqz_context *ctx, cl_mem buf, uint64_t bytes) {
  const uint64_t piece = (uint64_t)1 << 30;
  const cl_uint zero = 0;
  uint64_t first = bytes < piece ? bytes : piece;
  size_t pattern = first % sizeof zero == 0 ? sizeof zero : 1;
  if (first == 0) return SQZ_OK;
  SQZ_CL_CHECK(ctx, clEnqueueFillBuffer(SQZ_CL(ctx)->queue, buf, &zero, pattern, 0, (size_t)first, 0, NULL, NULL));
  for (uint64_t at = first; at < bytes; at += piece) {
    uint64_t len = bytes - at < piece ? bytes - at : piece;
    SQZ_CL_CHECK(ctx, clEnqueueCopyBuffer(SQZ_CL(ctx)->queue, buf, buf, 0, (size_t)at, (size_t)len, 0, NULL, NULL));
  }
  if (sqz__opt_num(ctx, NULL, SQZ_OPT_SYNC, 0) && !SQZ_CL(ctx)->enq) {
    cl_int err = clFinish(SQZ_CL(ctx)->queue);
    if (err != CL_SUCCESS)
      return sqz__fail(ctx, err, "zeroing a buffer of %llu bytes failed: %s", (unsigned long long)bytes,
                       sqz_status_name(err));
  }
  return SQZ_OK;
}
