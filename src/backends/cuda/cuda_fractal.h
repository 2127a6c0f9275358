/* cuda_fractal.h — host side of the CUDA fractal kernels: parameter blocks, launches, timing, the map runs. */
#ifndef SQZ_CUDA_FRACTAL_HOST_H
#define SQZ_CUDA_FRACTAL_HOST_H
#include "backends/cuda/cuda_backend.h"
#include "sqz_cuda_fractal.h"

/* A kernel's parameter block on the device and, for tile kernels, the micro-fractal mask
 * (rho^2 bytes, 0xff on fractal cells, 0 on holes). */
typedef struct {
  sqz_cu_fractal tab;
  CUdeviceptr dtab, dmask;
} sqz_cu_plan;

/* The parameter block for the level-rb tile grid of fr with tiles of side s^j and the rule
 * masks (birth | survive << 9); host only, no device needed. */
SQZ_INTERNAL void sqz__cu_table(const sqz_fractal *fr, uint32_t rb, uint32_t j, uint32_t rule, sqz_cu_fractal *t);
/* Fills plan->tab with sqz__cu_table (states: 2, or a Generations rule's states above 2) and
 * uploads it (and the mask when with_mask).
 * SQZ_ERR_UNSUPPORTED when the maps cannot be encoded (more than 8 weight groups: not
 * reachable with s^rb < 2^31). */
SQZ_INTERNAL int sqz__cu_plan(sqz_context *ctx, const sqz_fractal *fr, uint32_t rb, uint32_t j, uint32_t rule,
                              uint32_t states, int with_mask, sqz_cu_plan *plan);
SQZ_INTERNAL void sqz__cu_plan_free(sqz_context *ctx, sqz_cu_plan *plan);

/* Kernel `<prefix>_<mma|alu>_<specialisation><suffix>` for fr (specialisations: s2k3,
 * s3k8, s3k5, gen; cuda/fractal_map.cuh). */
SQZ_INTERNAL int sqz__cu_kernel(sqz_context *ctx, const char *prefix, int mma, const sqz_fractal *fr,
                                const char *suffix, CUfunction *out);
/* Launches fn with 1-D CTAs of `threads` on min(blocks, what is resident at once) CTAs
 * (the kernels loop over their work). */
SQZ_INTERNAL int sqz__cu_launch(sqz_context *ctx, CUfunction fn, unsigned threads, uint64_t blocks, void **params);

/* Event pair around a sequence of launches. sqz__cu_timer_end waits for them, adds their
 * time in seconds to *seconds and returns st, or the failure of the wait when st is SQZ_OK. */
typedef struct {
  CUevent a, b;
} sqz_cu_timer;
SQZ_INTERNAL int sqz__cu_timer_begin(sqz_context *ctx, sqz_cu_timer *t);
SQZ_INTERNAL int sqz__cu_timer_end(sqz_context *ctx, sqz_cu_timer *t, int st, double *seconds);

/* The tile maps alone, MMA (mma != 0) or ALU, on tiles tile0 .. tile0 + count - 1 of the
 * level-rb grid of fr. With out (count * 10 values): per tile the 9 direction tile indices
 * (-1 = none) and λ_b as x | y << 32 (cuda/map_bench.cu). Without out: an XOR checksum of
 * the same values in *checksum. *kernel_s gets the kernel time. */
SQZ_INTERNAL int sqz__cuda_maps(sqz_context *ctx, const sqz_fractal *fr, uint32_t rb, int mma, uint64_t tile0,
                                uint64_t count, uint64_t *out, uint64_t *checksum, double *kernel_s);
#endif
