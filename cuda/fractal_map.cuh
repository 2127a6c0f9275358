/* fractal_map.cuh — warp-level tile maps λ_b and ν_b for a group of tiles: int8 MMA or ALU digit loops. */
#ifndef SQZ_FRACTAL_MAP_CUH
#define SQZ_FRACTAL_MAP_CUH
#include "sqz_common.h"
#include "sqz_fractal.h"
#include "sqz_mma.h"
#include "sqz_cuda_fractal.h"

#define SQZ_CU_FULL 0xffffffffu

/* Shared state of one CTA of a tile kernel: the parameter block, and per warp the tile
 * indices of every tile's 9 directions (cl/sqz_fractal.h numbering; -1 = dead halo) and
 * each tile's λ_b packed as x | y << 32. */
struct sqz_cu_shared {
  sqz_cu_fractal T;
  sqz_i64 nb[SQZ_CU_WARPS][SQZ_CU_MAX_TPW][9];
  sqz_u64 lam[SQZ_CU_WARPS][SQZ_CU_MAX_TPW];
};

/* Copies the parameter block into shared memory (the whole CTA calls this first). */
__device__ __forceinline__ void sqz_cu_load_table(sqz_cu_fractal *dst, const sqz_cu_fractal *src) {
  const unsigned *a = (const unsigned *)src;
  unsigned *b = (unsigned *)dst;
  for (unsigned i = threadIdx.x; i < sizeof(sqz_cu_fractal) / 4u; i += blockDim.x) b[i] = a[i];
  __syncthreads();
}

/* D = A B + D with the documented m8n8k16 u8 fragments (sqz_mma.h). */
__device__ __forceinline__ void sqz_cu_mma(int &d0, int &d1, unsigned a, unsigned b) {
#ifdef SQZ_CU_HOST_EMULATION /* tests/cuda_emu: the lanes of a warp are host threads */
  sqz_cu_emulated_mma(d0, d1, a, b);
#else
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+r"(d0), "+r"(d1)
               : "r"(a), "r"(b));
#endif
}

/* λ_b and ν_b of tiles tile0 .. tile0 + ntiles - 1 (ntiles <= 32) on tensor cores. Per
 * 4 tiles one λ MMA (columns 2q, 2q + 1 = x, y of tile q); per tile one ν MMA (column p =
 * neighbour p); a second chained MMA of each when the grid has more than 16 levels. Lane l
 * computes the B digits of column l / 4 at levels 4(l % 4) .. + 3 (and + 16), as sqz_mma.h
 * says; the partial sums of the weight groups (rows of D) are combined with shuffles. S, K:
 * compile-time scale and replica count, 0 = read from the table. The whole warp calls this. */
template <unsigned S, unsigned K>
__device__ void sqz_cu_map_mma(const sqz_cu_fractal &T, sqz_u64 tile0, unsigned ntiles, sqz_i64 (*nb)[9],
                               sqz_u64 *lam, unsigned lane) {
  const unsigned s = S ? S : T.s, k = K ? K : T.k, rb = T.rb, two = rb > SQZ_MMA_K;
  const unsigned col = lane >> 2, l0 = 4u * (lane & 3u), lim = T.pow_s[rb];
  const unsigned as0 = T.a_s[0][lane], as1 = T.a_s[1][lane], ak0 = T.a_k[0][lane], ak1 = T.a_k[1][lane];
  const unsigned sc_s = T.scale_s[col]; /* the D row of this lane is lane / 4 as well */
  const sqz_u64 sc_k = T.scale_k[col];
  const unsigned dir = sqz_mma_direction(col), dx = dir % 3u, dy = dir / 3u;
  for (unsigned q0 = 0; q0 < ntiles; q0 += 4u) {
    const unsigned q = q0 + (col >> 1);
    unsigned bw0 = 0u, bw1 = 0u;
    if (q < ntiles) {
      bw0 = sqz_mma_lambda_word(k, T.hl, T.pow_k, rb, tile0 + q, col & 1u, l0);
      if (two) bw1 = sqz_mma_lambda_word(k, T.hl, T.pow_k, rb, tile0 + q, col & 1u, SQZ_MMA_K + l0);
    }
    int d0 = 0, d1 = 0;
    sqz_cu_mma(d0, d1, as0, bw0);
    if (two) sqz_cu_mma(d0, d1, as1, bw1);
    unsigned x = (unsigned)d0 * sc_s, y = (unsigned)d1 * sc_s;
    for (unsigned off = 4u; off < T.reduce_s; off <<= 1) {
      x += __shfl_xor_sync(SQZ_CU_FULL, x, off);
      y += __shfl_xor_sync(SQZ_CU_FULL, y, off);
    }
    /* lane t < 4 now holds λ_b of tile q0 + t */
    if (lane < 4u && q0 + lane < ntiles) lam[q0 + lane] = x | (sqz_u64)y << 32;
    for (unsigned t = 0; t < 4u && q0 + t < ntiles; t++) {
      const unsigned bx = __shfl_sync(SQZ_CU_FULL, x, t), by = __shfl_sync(SQZ_CU_FULL, y, t);
      const unsigned nx = bx + dx - 1u, ny = by + dy - 1u;
      unsigned hole = nx >= lim || ny >= lim; /* outside the grid (x - 1 wraps around) */
      const unsigned nw0 = sqz_mma_nu_word(s, T.hnu, T.pow_s, rb, nx, ny, l0, &hole);
      const unsigned nw1 = two ? sqz_mma_nu_word(s, T.hnu, T.pow_s, rb, nx, ny, SQZ_MMA_K + l0, &hole) : 0u;
      const unsigned bad = __ballot_sync(SQZ_CU_FULL, hole);
      int e0 = 0, e1 = 0;
      sqz_cu_mma(e0, e1, ak0, nw0);
      if (two) sqz_cu_mma(e0, e1, ak1, nw1);
      sqz_u64 v0 = (sqz_u64)(unsigned)e0 * sc_k, v1 = (sqz_u64)(unsigned)e1 * sc_k;
      for (unsigned off = 4u; off < T.reduce_k; off <<= 1) {
        v0 += __shfl_xor_sync(SQZ_CU_FULL, v0, off);
        v1 += __shfl_xor_sync(SQZ_CU_FULL, v1, off);
      }
      if (lane < 4u) { /* neighbours 2 lane and 2 lane + 1; a hole in any of their 4 lanes kills them */
        const unsigned p0 = 2u * lane, p1 = p0 + 1u;
        nb[q0 + t][sqz_mma_direction(p0)] = ((bad >> (4u * p0)) & 15u) ? (sqz_i64)-1 : (sqz_i64)v0;
        nb[q0 + t][sqz_mma_direction(p1)] = ((bad >> (4u * p1)) & 15u) ? (sqz_i64)-1 : (sqz_i64)v1;
        if (lane == 0u) nb[q0 + t][4] = (sqz_i64)(tile0 + q0 + t);
      }
    }
  }
}

/* The same maps with the digit loops of cl/sqz_fractal.h: one lane per tile for λ_b, then
 * one lane per (tile, direction) for ν_b. The whole warp calls this. */
template <unsigned S, unsigned K>
__device__ void sqz_cu_map_alu(const sqz_cu_fractal &T, sqz_u64 tile0, unsigned ntiles, sqz_i64 (*nb)[9],
                               sqz_u64 *lam, unsigned lane) {
  const unsigned s = S ? S : T.s, k = K ? K : T.k;
  for (unsigned q = lane; q < ntiles; q += 32u) {
    sqz_u32 x, y;
    sqz_fr_lambda(s, k, T.hl, T.rb, tile0 + q, &x, &y);
    lam[q] = x | (sqz_u64)y << 32;
  }
  __syncwarp();
  for (unsigned i = lane; i < 9u * ntiles; i += 32u) {
    const unsigned q = i / 9u, d = i % 9u;
    const sqz_u64 l = lam[q];
    nb[q][d] = d == 4u ? (sqz_i64)(tile0 + q)
                       : sqz_fr_tile_neighbour(s, k, T.hnu, T.rb, (sqz_u32)l, (sqz_u32)(l >> 32), d);
  }
}

/* Maps of a tile group with the method chosen at compile time, visible to the whole warp
 * afterwards. */
template <bool MMA, unsigned S, unsigned K>
__device__ __forceinline__ void sqz_cu_map(const sqz_cu_fractal &T, sqz_u64 tile0, unsigned ntiles,
                                           sqz_i64 (*nb)[9], sqz_u64 *lam, unsigned lane) {
  if (MMA) sqz_cu_map_mma<S, K>(T, tile0, ntiles, nb, lam, lane);
  else sqz_cu_map_alu<S, K>(T, tile0, ntiles, nb, lam, lane);
  __syncwarp();
}

/* extern "C" kernels for the compile-time fractal specialisations: X(suffix, S, K). */
#define SQZ_CU_SPECIALISATIONS(X) X(s2k3, 2u, 3u) X(s3k8, 3u, 8u) X(s3k5, 3u, 5u) X(gen, 0u, 0u)

#endif /* SQZ_FRACTAL_MAP_CUH */
