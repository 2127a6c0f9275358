/* sqz_cuda_fractal.h — the parameter block of the CUDA fractal kernels, shared by host C and nvcc. */
#ifndef SQZ_CUDA_FRACTAL_H
#define SQZ_CUDA_FRACTAL_H
/* Needs sqz_common.h first. The host fills one block per launch configuration
 * (src/cuda/cuda_fractal.c), copies it to device memory, and every CTA copies it into shared
 * memory. Fixed-width fields, 64-bit ones first: identical layout in gcc and nvcc. */

#define SQZ_CU_MAX_S 16u          /* largest pattern side (SQZ_MAX_SCALE) */
#define SQZ_CU_LEVELS 32u         /* tile-grid levels: s^rb < 2^31 gives rb <= 30 */
#define SQZ_CU_WARPS 8u           /* warps per CTA of the tile kernels */
#define SQZ_CU_MAX_TPW 32u        /* tiles per warp */

typedef struct sqz_cu_fractal {
  sqz_u64 tiles;                    /* k^rb tiles */
  sqz_u64 pow_k[SQZ_CU_LEVELS];     /* k^i, i < rb */
  sqz_u64 scale_k[8];               /* D row scales of ν: k^(g_k m) */
  sqz_u32 pow_s[SQZ_CU_LEVELS + 1]; /* s^i, i <= rb */
  sqz_u32 scale_s[8];               /* D row scales of λ: s^(g_s m) */
  sqz_u32 a_s[2][32];               /* A registers of λ per K-half and lane (sqz_mma.h) */
  sqz_u32 a_k[2][32];               /* A registers of ν */
  sqz_u32 s, k, rb, j, rho;         /* scale, replicas, tile-grid levels, tile level, tile side s^j */
  sqz_u32 unit;                     /* cells per lane per row: 4 when rho % 4 == 0, else 1 */
  sqz_u32 units;                    /* rho / unit: lane columns of one tile */
  sqz_u32 tpw;                      /* tiles per warp: 32 / units, or 1 when units > 32 */
  sqz_u32 rule;                     /* birth mask | survive mask << 9 */
  sqz_u32 reduce_s, reduce_k;       /* shuffle span of the row reduction: 4 * next pow2(groups) */
  sqz_u32 states;                   /* 2, or a Generations rule's states (the sqz_gens kernels) */
  sqz_i32 hl[2 * SQZ_CU_MAX_S * SQZ_CU_MAX_S]; /* H_λ */
  sqz_i32 hnu[SQZ_CU_MAX_S * SQZ_CU_MAX_S];    /* H_ν, -1 on holes */
} sqz_cu_fractal;

#endif /* SQZ_CUDA_FRACTAL_H */
