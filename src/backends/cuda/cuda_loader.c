/* cuda_loader.c — opens libcuda at run time (never linked) and sets up the cuda backend context. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/cuda/cuda_api.h"
#include "backends/cuda/cuda_backend.h"

int sqz__cuda_api_load(sqz_cuda_api *api, char *why, size_t why_len) {
  memset(api, 0, sizeof *api);
  api->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api->lib) {
    const char *e = dlerror();
    snprintf(why, why_len, "cannot open libcuda.so.1 (%s)", e ? e : "no NVIDIA driver");
    return -1;
  }
#define SQZ_CUDA_SYM_(name, sym, args)                                        \
  *(void **)(&api->name) = dlsym(api->lib, sym);                              \
  if (!api->name) {                                                           \
    snprintf(why, why_len, "libcuda.so.1 has no symbol %s (driver too old)", sym); \
    sqz__cuda_api_unload(api);                                                \
    return -1;                                                                \
  }
  SQZ_CUDA_SYMBOLS(SQZ_CUDA_SYM_)
#undef SQZ_CUDA_SYM_
  return 0;
}

void sqz__cuda_api_unload(sqz_cuda_api *api) {
  if (api->lib) dlclose(api->lib);
  memset(api, 0, sizeof *api);
}

/* 1 if `part` occurs in `name`, ignoring case. */
static int sqz__cuda_name_matches(const char *name, const char *part) {
  size_t m = strlen(part);
  for (; *name; name++)
    if (strncasecmp(name, part, m) == 0) return 1;
  return 0;
}

int sqz__cuda_open(sqz_context *ctx, const char *device) {
  if (!sqz__cuda_ptx_available())
    return sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE,
                     "CUDA backend unavailable: this build of sqz has no PTX (built without nvcc or with SQZ_WITH_CUDA=OFF)");
  sqz_cuda *cu = sqz__calloc(1, sizeof *cu);
  if (!cu) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  ctx->backend = cu;
  char why[512];
  if (sqz__cuda_api_load(&cu->api, why, sizeof why) != 0)
    return sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE, "CUDA backend unavailable: %s", why);
  CUresult r = cu->api.cuInit(0);
  int n = 0;
  if (r == 0) r = cu->api.cuDeviceGetCount(&n);
  if (r != 0 || n == 0)
    return sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE, "CUDA backend unavailable: %s",
                     r != 0 ? sqz__cuda_error(cu, r) : "no CUDA device");
  int ordinal = 0;
  if (device && *device) { /* an ordinal, or a case-insensitive substring of the name (as for OpenCL) */
    char *end = NULL;
    long v = strtol(device, &end, 10);
    ordinal = end && !*end && v >= 0 && v < n ? (int)v : -1;
    for (int i = 0; ordinal < 0 && !(end && !*end) && i < n; i++) {
      char name[256] = "";
      CUdevice d = 0;
      if (cu->api.cuDeviceGet(&d, i) == 0 && cu->api.cuDeviceGetName(name, (int)sizeof name, d) == 0 &&
          sqz__cuda_name_matches(name, device))
        ordinal = i;
    }
    if (ordinal < 0)
      return sqz__fail(ctx, SQZ_ERR_DEVICE_NOT_FOUND,
                       "no CUDA device '%s' (there are %d, numbered 0..%d, or give part of the name)", device, n,
                       n - 1);
  }
  if ((r = cu->api.cuDeviceGet(&cu->dev, ordinal)) != 0 ||
      (r = cu->api.cuDevicePrimaryCtxRetain(&cu->ctx, cu->dev)) != 0 || (r = cu->api.cuCtxSetCurrent(cu->ctx)) != 0)
    return sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE, "CUDA backend unavailable: %s", sqz__cuda_error(cu, r));
  cu->has_ctx = 1;
  size_t mem = 0;
  int sms = 0, major = 0, minor = 0, drv = 0;
  cu->api.cuDeviceGetName(ctx->device_name, (int)sizeof ctx->device_name, cu->dev);
  cu->api.cuDeviceTotalMem(&mem, cu->dev);
  cu->api.cuDeviceGetAttribute(&sms, SQZ_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, cu->dev);
  cu->api.cuDeviceGetAttribute(&major, SQZ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cu->dev);
  cu->api.cuDeviceGetAttribute(&minor, SQZ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, cu->dev);
  cu->api.cuDriverGetVersion(&drv);
  cu->cc = major * 10 + minor;
  snprintf(ctx->platform_name, sizeof ctx->platform_name, "CUDA");
  snprintf(ctx->driver_version, sizeof ctx->driver_version, "%d.%d", drv / 1000, (drv % 1000) / 10);
  snprintf(ctx->c_version, sizeof ctx->c_version, "compute %d.%d", major, minor);
  ctx->global_mem = ctx->max_alloc = mem;
  ctx->compute_units = (unsigned)sms;
  ctx->max_work_group = 1024;
  ctx->is_gpu = 1;
  return sqz__cuda_load_modules(ctx);
}

void sqz__cuda_close(sqz_context *ctx) {
  sqz_cuda *cu = SQZ_CU(ctx);
  if (!cu) return;
  if (cu->has_ctx) cu->api.cuCtxSetCurrent(cu->ctx); /* the release may come from another thread */
  sqz__cuda_unload_modules(ctx);
  if (cu->has_ctx) cu->api.cuDevicePrimaryCtxRelease(cu->dev);
  sqz__cuda_api_unload(&cu->api);
  free(cu);
  ctx->backend = NULL;
}
