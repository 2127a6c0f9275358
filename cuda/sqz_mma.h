/* sqz_mma.h — the exact int8 tensor-core encoding of the fractal maps λ and ν (host C and CUDA). */
#ifndef SQZ_MMA_H
#define SQZ_MMA_H
/* Needs sqz_common.h first. Used by the CUDA kernels and, on the host, by the tests that
 * emulate the MMA, so the encoding is checked without a GPU.
 *
 * One mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32 (sm_75 and newer) computes
 * D (8 x 8, int32) = A (8 x 16, u8) · B (16 x 8, u8) + C. λ and ν are weighted digit sums
 * Σ_i w^i d_i over the L levels of a tile grid (λ: w = s, d = τ_x or τ_y of the replica
 * digit; ν: w = k, d = β = H_ν of the base-s digit pair, docs/MAPS.md 4.3/4.4). The encoding:
 *   K (the 16 columns of A / rows of B): level i, two chained MMAs (C = D of the first)
 *     when L > 16; L <= 31 because s^L < 2^31;
 *   row m of A (a weight group, docs/MAPS.md 5.3 weight splitting): w^(i - g m) for the levels
 *     g m <= i < g (m + 1), 0 everywhere else (padding included, so no NaN-like garbage);
 *   column c of B: the digits of point c (λ: 4 tiles × (x, y); ν: the 8 neighbours);
 *   D[m][c]: the exact partial sum of group m, combined on the ALU as Σ_m w^(g m) D[m][c].
 * g is the largest group with w^(g-1) <= 255, so every A entry and every digit (< s <= 16,
 * or < k <= 255) is a u8, and each partial sum is below w^g <= 255 w < 2^31: int32
 * accumulation is exact at every level, with no fp16-style limit. With s^L < 2^31 and
 * k < s^2 there are at most 7 groups, so the 8 rows of A always suffice.
 *
 * Fragment layout (PTX ISA, mma.m8n8k16 with .u8): lane l holds A[l/4][4(l%4) + e] and
 * B[4(l%4) + e][l/4] in byte e of one 32-bit register, and D[l/4][2(l%4) + e] in register e. */

#define SQZ_MMA_ROWS 8u /* rows of A and D: weight groups */
#define SQZ_MMA_K 16u   /* levels per MMA */

/* Levels per weight group for base w: the largest g with w^(g-1) <= 255 (w = 1, a
 * one-replica pattern, has only the weight 1: one group for every level). */
SQZ_FN sqz_u32 sqz_mma_group(sqz_u32 w) {
  sqz_u32 g = 1u, p = 1u;
  if (w < 2u) return 2u * SQZ_MMA_K;
  while (p * w <= 255u) {
    p *= w;
    g++;
  }
  return g;
}

/* Weight groups (rows of A in use) for `levels` levels of base w. */
SQZ_FN sqz_u32 sqz_mma_groups(sqz_u32 w, sqz_u32 levels) {
  sqz_u32 g = sqz_mma_group(w);
  return (levels + g - 1u) / g;
}

/* Level held in byte e of lane's B register for K-half h: row 4(lane % 4) + e of B. */
SQZ_FN sqz_u32 sqz_mma_level(sqz_u32 lane, sqz_u32 h, sqz_u32 e) { return SQZ_MMA_K * h + 4u * (lane & 3u) + e; }

/* Lane's A register for K-half h: row lane / 4 = weight group m, bytes e = levels. */
SQZ_FN sqz_u32 sqz_mma_a_word(sqz_u32 w, sqz_u32 levels, sqz_u32 lane, sqz_u32 h) {
  sqz_u32 g = sqz_mma_group(w), m = lane >> 2, word = 0u;
  for (sqz_u32 e = 0; e < 4u; e++) {
    sqz_u32 i = sqz_mma_level(lane, h, e), p = 1u;
    if (i >= levels || i / g != m) continue;
    for (sqz_u32 q = g * m; q < i; q++) p *= w;
    word |= p << (8u * e);
  }
  return word;
}

/* Scale of row m of D in the combined sum: w^(g m) (0 for rows beyond the last group). */
SQZ_FN sqz_u64 sqz_mma_scale(sqz_u32 w, sqz_u32 levels, sqz_u32 m) {
  sqz_u32 g = sqz_mma_group(w);
  sqz_u64 p = 1u;
  if (m >= sqz_mma_groups(w, levels)) return 0u;
  for (sqz_u32 q = 0; q < g * m; q++) p *= w;
  return p;
}

/* B register for λ: bytes e hold τ_axis(β_i) of tile b at levels i = level0 + e < levels,
 * β_i = ⌊b / k^i⌋ mod k (digit order, cl/sqz_fractal.h). pow_k[i] = k^i for i < levels. */
SQZ_FN sqz_u32 sqz_mma_lambda_word(sqz_u32 k, SQZ_CONST sqz_i32 *hl, SQZ_CONST sqz_u64 *pow_k, sqz_u32 levels,
                                   sqz_u64 b, sqz_u32 axis, sqz_u32 level0) {
  sqz_u32 word = 0u, e = 0u;
  if (level0 >= levels) return 0u;
  sqz_u64 p = pow_k[level0], c = ((b | p) >> 32) == 0u ? (sqz_u64)((sqz_u32)b / (sqz_u32)p) : b / p;
  for (; e < 4u && level0 + e < levels && (c >> 32) != 0u; e++, c /= k) /* 64-bit only while needed */
    word |= (sqz_u32)hl[2u * (sqz_u32)(c % k) + axis] << (8u * e);
  sqz_u32 c32 = (sqz_u32)c;
  for (; e < 4u && level0 + e < levels; e++, c32 /= k) word |= (sqz_u32)hl[2u * (c32 % k) + axis] << (8u * e);
  return word;
}

/* B register for ν: bytes e hold β_i = H_ν(digit pair i of (x, y)) at levels
 * i = level0 + e < levels; *hole is set when a pair is a hole. pow_s[i] = s^i. The caller
 * tests x, y < s^levels itself (neighbours of border tiles wrap around). */
SQZ_FN sqz_u32 sqz_mma_nu_word(sqz_u32 s, SQZ_CONST sqz_i32 *hnu, SQZ_CONST sqz_u32 *pow_s, sqz_u32 levels,
                               sqz_u32 x, sqz_u32 y, sqz_u32 level0, sqz_u32 *hole) {
  sqz_u32 word = 0u;
  if (level0 >= levels) return 0u;
  if (s == 2u) { /* folds to shifts when s is a compile-time constant */
    x >>= level0;
    y >>= level0;
  } else {
    x /= pow_s[level0];
    y /= pow_s[level0];
  }
  for (sqz_u32 e = 0; e < 4u && level0 + e < levels; e++, x /= s, y /= s) {
    sqz_i32 b = hnu[(y % s) * s + x % s];
    if (b < 0) *hole = 1u;
    else word |= (sqz_u32)b << (8u * e);
  }
  return word;
}

/* Tile direction d (0..8, 4 = the tile itself, cl/sqz_fractal.h) of ν column p (0..7). */
SQZ_FN sqz_u32 sqz_mma_direction(sqz_u32 p) { return p < 4u ? p : p + 1u; }

#endif /* SQZ_MMA_H */
