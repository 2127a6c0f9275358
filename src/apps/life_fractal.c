/* life_fractal.c — dispatch of Life steps on fractal domains to the cpu, opencl or cuda backend. */
#include "fractal/fractal_internal.h"

int sqz__life_fractal(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps) {
  switch (f->ctx->backend) {
  case SQZ_BACKEND_CPU: return sqz__life_fractal_cpu(f, birth, survive, steps);
  case SQZ_BACKEND_OPENCL: return sqz__life_fractal_opencl(f, birth, survive, steps);
  case SQZ_BACKEND_CUDA: return sqz__cuda_life_fractal(f, birth, survive, steps);
  default: break;
  }
  return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "fractal life steps run on the opencl and cpu backends, not on %s",
                   sqz_context_backend(f->ctx));
}
