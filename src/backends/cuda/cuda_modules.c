/* cuda_modules.c — JIT-loads the PTX embedded at build time, keeping the JIT log on failure. */
#include <stdio.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

#ifdef SQZ_HAVE_PTX
int sqz__cuda_ptx_available(void) { return sqz_ptx_files[0].name != NULL; }
#else
const sqz_embedded_file sqz_ptx_files[] = {{NULL, NULL, 0}};
int sqz__cuda_ptx_available(void) { return 0; }
#endif

int sqz__cuda_load_modules(sqz_context *ctx) {
  sqz_cuda *cu = SQZ_CU(ctx);
  for (const sqz_embedded_file *f = sqz_ptx_files; f->name && cu->n_modules < SQZ_CUDA_MAX_MODULES; f++) {
    char info[4096] = "", err[4096] = "";
    CUjit_option opts[4] = {SQZ_CU_JIT_INFO_LOG_BUFFER, SQZ_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            SQZ_CU_JIT_ERROR_LOG_BUFFER, SQZ_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[4] = {info, (void *)(size_t)sizeof info, err, (void *)(size_t)sizeof err};
    CUmodule m = NULL;
    CUresult r = cu->api.cuModuleLoadDataEx(&m, f->data, 4, opts, vals);
    if (r != 0) {
      sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE, "CUDA backend unavailable: the driver cannot load PTX %s (%s); JIT log:",
                f->name, sqz__cuda_error(cu, r));
      sqz__append_detail(ctx, *err ? err : (*info ? info : "(empty JIT log)"));
      return SQZ_ERR_BACKEND_UNAVAILABLE;
    }
    cu->modules[cu->n_modules] = m;
    cu->module_names[cu->n_modules++] = f->name;
  }
  return SQZ_OK;
}

void sqz__cuda_unload_modules(sqz_context *ctx) {
  sqz_cuda *cu = SQZ_CU(ctx);
  for (int i = 0; i < cu->n_modules; i++) cu->api.cuModuleUnload(cu->modules[i]);
  cu->n_modules = 0;
}

int sqz__cuda_function(sqz_context *ctx, const char *name, CUfunction *out) {
  sqz_cuda *cu = SQZ_CU(ctx);
  for (int i = 0; i < cu->n_modules; i++)
    if (cu->api.cuModuleGetFunction(out, cu->modules[i], name) == 0) return SQZ_OK;
  return sqz__fail(ctx, SQZ_ERR_INTERNAL, "no CUDA kernel named %s in the embedded PTX", name);
}
