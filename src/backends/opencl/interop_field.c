/* interop_field.c — a field over the caller's cl_mem (include/sqz_opencl.h): the buffer's checks, the sub-buffer of the field's bytes. */
#include "backends/opencl/cl_internal.h"
#include "core/field_parts.h"
#include "sqz_opencl.h"

#define SQZ_CREATE_CL "sqz_field_create_opencl"

/* Type, context, flags and size of the caller's buffer against field f of `bytes` bytes at offset. */
static int sqz__user_buffer_check(sqz_field *f, cl_mem buffer, size_t offset, uint64_t bytes) {
  sqz_context *ctx = f->ctx;
  cl_mem_object_type type = 0;
  cl_context owner = NULL;
  cl_mem_flags flags = 0;
  size_t size = 0;
  cl_int err = clGetMemObjectInfo(buffer, CL_MEM_TYPE, sizeof type, &type, NULL);
  if (err == CL_SUCCESS) err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
  if (err == CL_SUCCESS) err = clGetMemObjectInfo(buffer, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
  if (err == CL_SUCCESS) err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL);
  if (err != CL_SUCCESS)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, SQZ_CREATE_CL ": the buffer is no valid cl_mem (clGetMemObjectInfo: %s)",
                     sqz_status_name(err));
  if (type != CL_MEM_OBJECT_BUFFER)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, SQZ_CREATE_CL ": the cl_mem is an image (type 0x%x), not a buffer",
                     (unsigned)type);
  if (owner != SQZ_CL(ctx)->cl)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT,
                     SQZ_CREATE_CL ": the buffer belongs to cl_context %p, the field's sqz context runs on cl_context %p "
                     "(create it with sqz_context_create_opencl on the buffer's context)", (void *)owner,
                     (void *)SQZ_CL(ctx)->cl);
  if (flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, SQZ_CREATE_CL ": the buffer is %s, but steps read and write it",
                     flags & CL_MEM_READ_ONLY ? "CL_MEM_READ_ONLY" : "CL_MEM_WRITE_ONLY");
  if (offset > size || bytes > size - offset)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT,
                     SQZ_CREATE_CL ": %s in layout %s needs %llu bytes at offset %zu (bytes %zu to %llu) but the buffer has %zu "
                     "bytes (CL_MEM_SIZE)", f->dom->spec, f->layout_str, (unsigned long long)bytes, offset, offset,
                     (unsigned long long)(offset + bytes), size);
  uint64_t limit = sqz__parts_alloc_limit(ctx); /* the device's, or SQZ_MAX_ALLOC's */
  if (bytes > limit) /* the scratch buffer is sqz's, of the same size */
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE,
                     SQZ_CREATE_CL ": the second state buffer of %llu bytes exceeds the largest allocation of %s (%llu bytes); "
                     "a field over a caller's buffer is one buffer and does not part", (unsigned long long)bytes,
                     ctx->device_name, (unsigned long long)limit);
  return SQZ_OK;
}

/* The field's bytes [offset, offset + bytes) of buffer as a sub-buffer in *out (of the buffer's parent
 * when it is a sub-buffer itself, which OpenCL cannot divide again), its origin aligned to the device's
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
static int sqz__user_sub_buffer(sqz_context *ctx, cl_mem buffer, size_t offset, uint64_t bytes, cl_mem *out) {
  cl_mem parent = NULL;
  size_t base = 0;
  cl_uint align_bits = 0;
  cl_int err = clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
  if (err == CL_SUCCESS && parent) err = clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof base, &base, NULL);
  if (err == CL_SUCCESS)
    err = clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  if (err != CL_SUCCESS) return sqz__fail(ctx, err, SQZ_CREATE_CL ": querying the buffer failed: %s", sqz_status_name(err));
  size_t align = align_bits >= 8 ? align_bits / 8 : 1, origin = base + offset;
  if (origin % align != 0)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT,
                     SQZ_CREATE_CL ": offset %zu%s is not a multiple of %zu bytes, the alignment of sub-buffers on %s "
                     "(CL_DEVICE_MEM_BASE_ADDR_ALIGN %u bits)", offset, parent ? " (in the buffer's parent: more)" : "",
                     align, ctx->device_name, align_bits);
  cl_buffer_region region = {origin, (size_t)bytes};
  *out = clCreateSubBuffer(parent ? parent : buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  if (err != CL_SUCCESS)
    return sqz__fail(ctx, err == CL_MISALIGNED_SUB_BUFFER_OFFSET ? SQZ_ERR_INVALID_ARGUMENT : err,
                     SQZ_CREATE_CL ": clCreateSubBuffer of bytes %zu to %llu failed: %s", origin,
                     (unsigned long long)(origin + bytes), sqz_status_name(err));
  return SQZ_OK;
}

int sqz_field_create_opencl(sqz_domain *dom, sqz_type type, const char *layout, cl_mem buffer, size_t offset,
                            sqz_field **out) {
  if (out) *out = NULL;
  if (!dom || !out || !buffer)
    return sqz__fail(dom ? dom->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, SQZ_CREATE_CL ": the %s is NULL",
                     !dom ? "domain" : !out ? "out pointer" : "buffer");
  if (dom->ctx && dom->ctx->ops != &sqz__opencl_ops)
    return sqz__fail(dom->ctx, SQZ_ERR_UNSUPPORTED, SQZ_CREATE_CL ": the domain's context is a %s context, not an opencl one",
                     dom->ctx->ops->name);
  sqz_field *f = NULL;
  int st = sqz__field_shell(dom, type, layout, &f);
  if (st != SQZ_OK) return st;
  uint64_t bytes = 0;
  cl_mem mem = buffer;
  if (f->layout != SQZ_LAYOUT_BITS && !sqz__checked_mul(f->elems, sqz_type_size(type), &bytes))
    st = sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, SQZ_CREATE_CL ": %s in layout %s: its size overflows 64 bits", dom->spec, f->layout_str);
  else bytes = sqz__field_storage_bytes(f);
  if (st == SQZ_OK) st = sqz__user_buffer_check(f, buffer, offset, bytes);
  if (st == SQZ_OK && offset != 0) st = sqz__user_sub_buffer(f->ctx, buffer, offset, bytes, &mem);
  if (st != SQZ_OK) {
    sqz_field_release(f);
    return st;
  }
  clRetainMemObject(buffer); /* the field's reference to the caller's buffer (user_mem) */
  if (mem == buffer) clRetainMemObject(buffer); /* and mem[0]'s, dropped as a sub-buffer would be */
  f->user_mem = buffer;
  f->mem[0] = mem;
  f->cur = 0;
  *out = f;
  return SQZ_OK;
}
