/* cl_engine.c — the opencl backend's stencil and fill entries: the checks common to both families, then the family's engine. */
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"

int sqz__cl_has_fp64(const sqz_context *ctx) {
  cl_device_fp_config cfg = 0;
  if (clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL) != CL_SUCCESS) return 0;
  return cfg != 0;
}

int sqz__cl_stencil(sqz_field *f, const sqz_update *u, uint64_t steps) {
  if (u->kind == SQZ_UPDATE_FN)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED,
                     "a C update function runs on the cpu backend; on opencl the update is OpenCL C (sqz_stencil_step)");
  if (f->type == SQZ_F64 && !sqz__cl_has_fp64(f->ctx))
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "f64 cells need cl_khr_fp64, which %s lacks", f->ctx->device_name);
  return f->dom->kind == SQZ_DOMAIN_FRACTAL ? sqz__cl_stencil_fractal(f, u, steps) : sqz__cl_stencil_simplex(f, u, steps);
}

int sqz__cl_fill_random(sqz_field *f, uint64_t threshold, uint64_t seed) {
  if (f->type != SQZ_U8) { /* other types: the host fill through the layout, uploaded */
    size_t ts = sqz_type_size(f->type);
    void *store = NULL;
    int st = sqz__host_alloc(f->ctx, f->elems * ts, 1, &store, "%s: the host fill", f->dom->spec);
    if (st != SQZ_OK) return st;
    sqz__host_fill(f, store, 0, threshold, seed);
    cl_int err = clEnqueueWriteBuffer(SQZ_CL(f->ctx)->queue, (cl_mem)f->mem[f->cur], CL_TRUE, 0, (size_t)(f->elems * ts),
                                      store, 0, NULL, NULL);
    free(store);
    return err == CL_SUCCESS ? SQZ_OK : sqz__fail(f->ctx, err, "uploading the random state failed: %s", sqz_status_name(err));
  }
  return f->dom->kind == SQZ_DOMAIN_FRACTAL ? sqz__cl_fill_random_fractal(f, threshold, seed)
                                             : sqz__cl_fill_random_simplex(f, threshold, seed);
}
