/* cuda_memory.c — device memory of the cuda backend (zeroed allocations, transfers) and its driver error names. */
#include <stdio.h>

#include "backends/cuda/cuda_backend.h"

const char *sqz__cuda_error(const sqz_cuda *cu, CUresult r) {
  const char *s = NULL;
  if (cu && cu->api.cuGetErrorName && cu->api.cuGetErrorName(r, &s) == 0 && s) return s;
  return "CUDA_ERROR_UNKNOWN";
}

int sqz__cuda_fail(sqz_context *ctx, CUresult r, const char *what) {
  return sqz__fail(ctx, r == SQZ_CUDA_ERROR_OUT_OF_MEMORY ? SQZ_ERR_OUT_OF_MEMORY : SQZ_ERR_INTERNAL,
                   "%s on %s failed: %s", what, ctx->device_name, sqz__cuda_error(SQZ_CU(ctx), r));
}

int sqz__cu_alloc(sqz_context *ctx, uint64_t bytes, CUdeviceptr *out) {
  sqz_cuda *cu = SQZ_CU(ctx);
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

void sqz__cu_free(sqz_context *ctx, CUdeviceptr ptr) {
  if (ctx && SQZ_CU(ctx) && ptr) SQZ_CU(ctx)->api.cuMemFree(ptr);
}

int sqz__cu_upload(sqz_context *ctx, CUdeviceptr dst, const void *src, uint64_t bytes) {
  CUresult r = bytes ? SQZ_CU(ctx)->api.cuMemcpyHtoD(dst, src, (size_t)bytes) : 0;
  return r ? sqz__cuda_fail(ctx, r, "cuMemcpyHtoD") : SQZ_OK;
}

int sqz__cu_download(sqz_context *ctx, void *dst, CUdeviceptr src, uint64_t bytes) {
  CUresult r = bytes ? SQZ_CU(ctx)->api.cuMemcpyDtoH(dst, src, (size_t)bytes) : 0;
  return r ? sqz__cuda_fail(ctx, r, "cuMemcpyDtoH") : SQZ_OK;
}

int sqz__cu_zero(sqz_context *ctx, CUdeviceptr mem, uint64_t bytes) {
  CUresult r = bytes ? SQZ_CU(ctx)->api.cuMemsetD8(mem, 0, (size_t)bytes) : 0;
  return r ? sqz__cuda_fail(ctx, r, "cuMemsetD8") : SQZ_OK;
}
