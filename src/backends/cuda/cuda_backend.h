/* cuda_backend.h — state of the cuda backend: driver table, device, context and loaded modules. */
#ifndef SQZ_CUDA_BACKEND_H
#define SQZ_CUDA_BACKEND_H
#include "backends/cuda/cuda_api.h"
#include "core/backend.h"

#define SQZ_CUDA_MAX_MODULES 8
struct sqz_cuda {
  sqz_cuda_api api;
  CUdevice dev;
  CUcontext ctx;
  int has_ctx;
  int cc; /* compute capability, e.g. 90 */
  CUmodule modules[SQZ_CUDA_MAX_MODULES];
  const char *module_names[SQZ_CUDA_MAX_MODULES];
  int n_modules;
};
typedef struct sqz_cuda sqz_cuda;
#define SQZ_CU(ctx) ((sqz_cuda *)(ctx)->backend)
/* CUdeviceptr <-> sqz_mem */
#define SQZ_CU_PTR(mem) ((CUdeviceptr)(uintptr_t)(mem))

SQZ_INTERNAL const char *sqz__cuda_error(const sqz_cuda *cu, CUresult r);
/* 1 when PTX was embedded at build time. */
SQZ_INTERNAL int sqz__cuda_ptx_available(void);
/* JIT-loads every embedded PTX module; BACKEND_UNAVAILABLE with the JIT log on failure. */
SQZ_INTERNAL int sqz__cuda_load_modules(sqz_context *ctx);
SQZ_INTERNAL void sqz__cuda_unload_modules(sqz_context *ctx);
/* Records a failed driver call: SQZ_ERR_OUT_OF_MEMORY for CUDA_ERROR_OUT_OF_MEMORY, else
 * SQZ_ERR_INTERNAL, with `what` and the driver's error name in the detail. */
SQZ_INTERNAL int sqz__cuda_fail(sqz_context *ctx, CUresult r, const char *what);
/* Looks up a kernel in the loaded modules. */
SQZ_INTERNAL int sqz__cuda_function(sqz_context *ctx, const char *name, CUfunction *out);

/* Opening and closing (cuda_loader.c), the Life step and fill of block:RHO fields (cuda_life.c):
 * entries of the cuda operations table (cuda_ops.c). */
SQZ_INTERNAL int sqz__cuda_open(sqz_context *ctx, const char *device);
SQZ_INTERNAL void sqz__cuda_close(sqz_context *ctx);
/* Device memory (cuda_memory.c): zeroed allocation with the byte count in the detail on
 * failure, free (0 is a no-op), transfers and zeroing. */
SQZ_INTERNAL int sqz__cu_alloc(sqz_context *ctx, uint64_t bytes, CUdeviceptr *out);
SQZ_INTERNAL void sqz__cu_free(sqz_context *ctx, CUdeviceptr ptr);
SQZ_INTERNAL int sqz__cu_upload(sqz_context *ctx, CUdeviceptr dst, const void *src, uint64_t bytes);
SQZ_INTERNAL int sqz__cu_download(sqz_context *ctx, void *dst, CUdeviceptr src, uint64_t bytes);
SQZ_INTERNAL int sqz__cu_zero(sqz_context *ctx, CUdeviceptr mem, uint64_t bytes);
SQZ_INTERNAL int sqz__cuda_life_fractal(sqz_field *f, uint32_t birth, uint32_t survive, uint32_t states, uint64_t steps);
SQZ_INTERNAL int sqz__cuda_fill_random_fractal(sqz_field *f, uint64_t threshold, uint64_t seed);
#endif
