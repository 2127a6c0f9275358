/* life_simplex.c — dispatch of the simplex Life step and random fill to the cpu or opencl backend. */
#include "simplex/simplex_plan.h"

int sqz__life_simplex(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps) {
  if (f->ctx->backend == SQZ_BACKEND_CPU) return sqz__life_simplex_cpu(f, birth, survive, steps);
  if (f->ctx->backend == SQZ_BACKEND_OPENCL) return sqz__life_simplex_cl(f, birth, survive, steps);
  return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "simplex life runs on the cpu and opencl backends, not %s",
                   sqz_context_backend(f->ctx));
}

/* The cpu backend fills through the generic host path (SQZ_ERR_UNSUPPORTED asks for it). */
int sqz__fill_random_simplex(sqz_field *f, uint64_t threshold, uint64_t seed) {
  if (f->ctx->backend != SQZ_BACKEND_OPENCL) return SQZ_ERR_UNSUPPORTED;
  return sqz__fill_random_simplex_cl(f, threshold, seed);
}
