/* cuda_api.h — the CUDA driver API subset sqz uses, declared locally and resolved with dlsym. */
#ifndef SQZ_CUDA_API_H
#define SQZ_CUDA_API_H
#include <stddef.h>

/* Types of the driver API (cuda.h), pinned to API version 12000+ (the _v2 entry points). */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef int CUjit_option;
#define SQZ_CU_JIT_INFO_LOG_BUFFER 3
#define SQZ_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES 4
#define SQZ_CU_JIT_ERROR_LOG_BUFFER 5
#define SQZ_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6
#define SQZ_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define SQZ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define SQZ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define SQZ_CUDA_ERROR_OUT_OF_MEMORY 2

/* X(name, symbol, return, args) — one table declares the pointers and drives dlsym. */
#define SQZ_CUDA_SYMBOLS(X)                                                                   \
  X(cuInit, "cuInit", (unsigned flags))                                                       \
  X(cuDriverGetVersion, "cuDriverGetVersion", (int *v))                                       \
  X(cuDeviceGetCount, "cuDeviceGetCount", (int *n))                                           \
  X(cuDeviceGet, "cuDeviceGet", (CUdevice * d, int ordinal))                                  \
  X(cuDeviceGetName, "cuDeviceGetName", (char *name, int len, CUdevice d))                    \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t * bytes, CUdevice d))                    \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *v, int attr, CUdevice d))             \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext * c, CUdevice d))        \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice d))                  \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext c))                                        \
  X(cuCtxSynchronize, "cuCtxSynchronize", (void))                                             \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                                 \
    (CUmodule * m, const void *image, unsigned n, CUjit_option *opts, void **vals))           \
  X(cuModuleUnload, "cuModuleUnload", (CUmodule m))                                           \
  X(cuModuleGetFunction, "cuModuleGetFunction", (CUfunction * f, CUmodule m, const char *name)) \
  X(cuLaunchKernel, "cuLaunchKernel",                                                         \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, \
     unsigned shmem, CUstream s, void **params, void **extra))                                \
  X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr * p, size_t bytes))                             \
  X(cuMemFree, "cuMemFree_v2", (CUdeviceptr p))                                               \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr dst, const void *src, size_t bytes))        \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *dst, CUdeviceptr src, size_t bytes))              \
  X(cuMemsetD8, "cuMemsetD8_v2", (CUdeviceptr dst, unsigned char v, size_t n))                \
  X(cuEventCreate, "cuEventCreate", (CUevent * e, unsigned flags))                            \
  X(cuEventRecord, "cuEventRecord", (CUevent e, CUstream s))                                  \
  X(cuEventSynchronize, "cuEventSynchronize", (CUevent e))                                    \
  X(cuEventElapsedTime, "cuEventElapsedTime", (float *ms, CUevent a, CUevent b))              \
  X(cuEventDestroy, "cuEventDestroy_v2", (CUevent e))                                         \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",     \
    (int *blocks, CUfunction f, int block_size, size_t dynamic_shmem))                         \
  X(cuGetErrorName, "cuGetErrorName", (CUresult r, const char **s))

typedef struct sqz_cuda_api {
  void *lib;
#define SQZ_CUDA_PTR_(name, sym, args) CUresult(*name) args;
  SQZ_CUDA_SYMBOLS(SQZ_CUDA_PTR_)
#undef SQZ_CUDA_PTR_
} sqz_cuda_api;

/* Opens libcuda.so.1 and resolves every symbol; 0 on success, else writes the reason. */
int sqz__cuda_api_load(sqz_cuda_api *api, char *why, size_t why_len);
void sqz__cuda_api_unload(sqz_cuda_api *api);
#endif
