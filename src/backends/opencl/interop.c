/* interop.c — the public OpenCL interop of include/sqz_opencl.h: a context on the user's objects, a context's objects, a field's cl_mem. */
#include <stdlib.h>

#include "backends/opencl/cl_devices.h"
#include "sqz_opencl.h"

int sqz_context_create_opencl(cl_context context, cl_device_id device, cl_command_queue queue, sqz_context **out) {
  if (!out) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_create_opencl: out is NULL");
  *out = NULL;
  sqz__clear_error(NULL);
  if (!context || !device || !queue)
    return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_create_opencl: the %s is NULL",
                     !context ? "cl_context" : !device ? "device" : "command queue");
  sqz_context *ctx = sqz__context_new(&sqz__opencl_ops);
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_OUT_OF_MEMORY, "cannot allocate a context");
  int st = sqz__opt_from_env(ctx, &ctx->opts); /* the options, as sqz_context_create reads them */
  if (st == SQZ_OK && !(ctx->backend = sqz__calloc(1, sizeof(sqz_cl_state))))
    st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  if (st == SQZ_OK) {
    sqz__cl_global_lock();
    st = sqz__cl_adopt(ctx, context, device, queue);
    sqz__cl_global_unlock();
  }
  if (st != SQZ_OK) {
    sqz__fail(NULL, st, "%s", sqz_last_error(ctx));
    sqz_context_release(ctx); /* releases only what sqz__cl_adopt retained */
    return st;
  }
  *out = ctx;
  return SQZ_OK;
}

int sqz_context_opencl(const sqz_context *ctx, cl_context *context, cl_device_id *device, cl_command_queue *queue) {
  if (!ctx) return SQZ_ERR_INVALID_ARGUMENT;
  if (ctx->ops != &sqz__opencl_ops)
    return sqz__fail((sqz_context *)ctx, SQZ_ERR_UNSUPPORTED, "a %s context has no OpenCL objects", ctx->ops->name);
  const sqz_cl_state *cl = ctx->backend;
  if (context) *context = cl->cl;
  if (device) *device = cl->device;
  if (queue) *queue = cl->queue;
  return SQZ_OK;
}

int sqz_field_cl_mem(const sqz_field *f, cl_mem *current) {
  if (current) *current = NULL;
  if (!f || !current)
    return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_cl_mem: the field or current is NULL");
  if (f->ctx->ops != &sqz__opencl_ops)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "a field of the %s backend has no cl_mem (its memory is %s)",
                     f->ctx->ops->name, f->ctx->ops->host_memory ? "host memory" : "the backend's own");
  if (f->parts)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s is stored in %llu parts: there is no single cl_mem of its state",
                     f->dom->spec, (unsigned long long)sqz_field_parts(f));
  sqz__lock(f->ctx); /* a step on another thread flips the pair */
  *current = (cl_mem)f->mem[f->cur];
  sqz__unlock(f->ctx);
  return SQZ_OK;
}
