/* cuda_backend.h — state of the cuda backend: driver table, device, context and loaded modules. */
#ifndef SQZ_CUDA_BACKEND_H
#define SQZ_CUDA_BACKEND_H
#include "backends/cuda/cuda_api.h"
#include "core/sqz_internal.h"

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
#endif
