/* cuda_memory.c — device memory of the cuda backend: zeroed allocations and whole-buffer host transfers. */
#include <stdio.h>

#include "backends/cuda/cuda_backend.h"

int sqz__cuda_fail(sqz_context *ctx, CUresult r, const char *what) {
  return sqz__fail(ctx, r == SQZ_CUDA_ERROR_OUT_OF_MEMORY ? SQZ_ERR_OUT_OF_MEMORY : SQZ_ERR_INTERNAL,
                   "%s on %s failed: %s", what, ctx->device_name, sqz__cuda_error(ctx->cuda, r));
}

int sqz__cuda_alloc(sqz_context *ctx, uint64_t bytes, unsigned long long *out) {
  sqz_cuda *cu = ctx->cuda;
  *out = 0;
  if (bytes == 0) bytes = 1;
  if (bytes > ctx->global_mem || bytes > SIZE_MAX)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "a buffer of %llu bytes does not fit in the %llu bytes of %s",
                     (unsigned long long)bytes, (unsigned long long)ctx->global_mem, ctx->device_name);
  CUdeviceptr p = 0;
  CUresult r = cu->api.cuMemAlloc(&p, (size_t)bytes);
  if (r != 0) {
    char what[96];
    snprintf(what, sizeof what, "cuMemAlloc of %llu bytes", (unsigned long long)bytes);
    return sqz__cuda_fail(ctx, r, what);
  }
  if ((r = cu->api.cuMemsetD8(p, 0, (size_t)bytes)) != 0) {
    cu->api.cuMemFree(p);
    return sqz__cuda_fail(ctx, r, "cuMemsetD8");
  }
  *out = p;
  return SQZ_OK;
}

void sqz__cuda_free(sqz_context *ctx, unsigned long long ptr) {
  if (ctx && ctx->cuda && ptr) ctx->cuda->api.cuMemFree((CUdeviceptr)ptr);
}

int sqz__cuda_upload(sqz_context *ctx, unsigned long long dst, const void *src, uint64_t bytes) {
  CUresult r = bytes ? ctx->cuda->api.cuMemcpyHtoD((CUdeviceptr)dst, src, (size_t)bytes) : 0;
  return r ? sqz__cuda_fail(ctx, r, "cuMemcpyHtoD") : SQZ_OK;
}

int sqz__cuda_download(sqz_context *ctx, void *dst, unsigned long long src, uint64_t bytes) {
  CUresult r = bytes ? ctx->cuda->api.cuMemcpyDtoH(dst, (CUdeviceptr)src, (size_t)bytes) : 0;
  return r ? sqz__cuda_fail(ctx, r, "cuMemcpyDtoH") : SQZ_OK;
}
