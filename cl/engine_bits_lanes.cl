/* engine_bits_lanes.cl — layout bits on fractals by lanes (cl/sqz_bits_lanes.h): a group transposes 32 sub-tiles and their rings into local memory, steps them a word (32 cells) at a time, and packs them back. */
/* Needs sqz_common.h, sqz_fractal.h, sqz_parts.h, sqz_bits.h, sqz_bits_box.h and sqz_bits_lanes.h, and the
 * plan's constants: SQZ_LANES_K (cells of a lane), SQZ_LANES_L (lanes a tile), SQZ_LANES_N (lanes
 * a group, whole tiles), SQZ_LANES_NPOS and SQZ_LANES_NOWN (positions, own positions); the rule
 * as SQZ_BITS_B / SQZ_BITS_S, s and k as SQZ_BITS_FR_S / SQZ_BITS_FR_K. One buffer, no parts.
 *
 * Tile b holds k^t cells in wt words from word b wt (digit order), lane sub-tile j of it the
 * cells from bit j K; g = b L + j is the sub-tile's index at level rbu = R - u, so its neighbours
 * come from sqz_fr_neighbour_of at that level. The areas a and b are the kernel's own local arrays
 * (npos + 1 words each: position npos, the empty word, is 0; at fixed addresses, so that a
 * neighbour's load is its byte offset from the plan plus a constant). `area` (local) holds the
 * lanes' neighbour bit offsets (32 x 9 longs, -1: none), the group's tile words (stage: the pack's
 * target, whole words for dst), the 9 direction masks and bmask, each block's direction mask for
 * the group (in `area`: as a third array of the kernel's, PoCL 3.1 read it back as 0). */
#define LANES_TILES (SQZ_LANES_N / SQZ_LANES_L) /* tiles a group */

/* The bits of a lane's piece w that are cells: those of cells 32 w .. K - 1. */
static inline uint lanes_keep(uint w) {
  uint left = SQZ_LANES_K - 32u * w;
  return left >= 32u ? 0xffffffffu : (1u << left) - 1u;
}

/* One step from in to out: the own positions, and with `ring` (the intermediate steps) the ring's,
 * each ANDed with its block's mask (lanes without that neighbour stay 0; the own positions need
 * none: lanes never meet, and a lane past the tiles is never stored). Called with the areas
 * themselves, so their addresses are constants. */
static inline void lanes_step(__local const uint *in, __local uint *out, __global const uint4 *nb4,
                              __local const uint *bmask, uint ring, uint birth, uint survive, uint lid, uint ls) {
  for (uint p = lid; p < SQZ_LANES_NOWN; p += ls) {
    uint4 w = nb4[p];
    out[p] = sqz_bits_lanes_next(in, p, w.s0, w.s1, w.s2, w.s3, birth, survive);
  }
  for (uint p = SQZ_LANES_NOWN + lid; ring && p < SQZ_LANES_NPOS; p += ls) {
    uint4 w = nb4[p];
    out[p] = sqz_bits_lanes_next(in, p, w.s0, w.s1, w.s2, w.s3, birth, survive) & bmask[p >> 5];
  }
}

/* Each group steps the groups of LANES_TILES tiles G = group, + groups, ...: the lanes' neighbours
 * and masks, the fill (one transpose a block), `steps` steps between a and b (the last one only
 * the own positions), the pack (one transpose an own block, its lanes' pieces ORed into the
 * stage) and the stage stored. */
__kernel void sqz_bits_fractal_lanes(__global const uint *restrict src, __global uint *restrict dst,
                                     __global const uint *restrict tab, __constant int *fr, uint s, uint k, uint rbu,
                                     uint wt, ulong tiles, uint steps, uint birth, uint survive, __local long *area) {
#ifdef SQZ_BITS_B
  birth = SQZ_BITS_B;
  survive = SQZ_BITS_S;
#endif
#ifdef SQZ_BITS_FR_S
  s = SQZ_BITS_FR_S;
  k = SQZ_BITS_FR_K;
#endif
  const uint npos = SQZ_LANES_NPOS, n_lanes = SQZ_LANES_N;
  uint lid = (uint)get_local_id(0), ls = (uint)get_local_size(0);
  __local uint a[SQZ_LANES_NPOS + 1u], b[SQZ_LANES_NPOS + 1u];
  __local long *offs = area;
  __local uint *stage = (__local uint *)(area + 32u * 9u), *dmask = stage + LANES_TILES * wt, *bmask = dmask + 9u;
  __global const uint *blk = tab + tab[SQZ_BLN_BLK];
  __global const uint4 *nb4 = (__global const uint4 *)(tab + tab[SQZ_BLN_NB]); /* 16-byte aligned */
  ulong nwords = tiles * wt, subs = tiles * SQZ_LANES_L, groups = (tiles + LANES_TILES - 1u) / LANES_TILES;
  if (lid == 0u) a[npos] = b[npos] = 0u;
  for (ulong G = get_group_id(0); G < groups; G += get_num_groups(0)) { /* uniform over the group */
    for (uint j = lid; j < 32u * 9u; j += ls) {
      uint i = j / 9u, d = j % 9u;
      ulong gi = G * n_lanes + i;
      long nb = i < n_lanes && gi < subs ? sqz_fr_neighbour_of(s, k, fr, rbu, gi, d) : -1;
      offs[j] = nb < 0 ? -1 : (long)((ulong)nb / SQZ_LANES_L * wt * 32u + (ulong)nb % SQZ_LANES_L * SQZ_LANES_K);
    }
    for (uint j = lid; j < LANES_TILES * wt; j += ls) stage[j] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < 9u; d += ls) {
      uint m = 0u;
      for (uint i = 0u; i < 32u; i++) m |= (uint)(offs[i * 9u + d] >= 0) << i;
      dmask[d] = m;
    }
    for (uint bi = lid; bi < npos / 32u; bi += ls) { /* fill: block bi, its lanes' pieces transposed */
      uint e = blk[bi], d = e & 15u, w = e >> 4, keep = lanes_keep(w), v[32];
      SQZ_BB_UNROLL
      for (uint i = 0u; i < 32u; i++) {
        long o = offs[i * 9u + d];
        v[i] = o < 0 ? 0u : sqz_bits_lanes_piece(src, (ulong)o + 32u * w, nwords) & keep;
      }
      sqz_bits_transpose32(v);
      SQZ_BB_UNROLL
      for (uint j = 0u; j < 32u; j++) a[32u * bi + j] = v[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint bi = lid; bi < npos / 32u; bi += ls) bmask[bi] = dmask[blk[bi] & 15u];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 1u; st <= steps; st++) { /* odd steps a to b, even ones b to a */
      if (st & 1u)
        lanes_step(a, b, nb4, bmask, st < steps, birth, survive, lid, ls);
      else
        lanes_step(b, a, nb4, bmask, st < steps, birth, survive, lid, ls);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    __local const uint *res = (steps & 1u) ? b : a;
    ulong base = G * LANES_TILES * wt * 32u; /* the group's first bit */
    for (uint w = lid; w < SQZ_LANES_NOWN / 32u; w += ls) { /* pack: own block w back to the lanes */
      uint keep = lanes_keep(w), v[32];
      SQZ_BB_UNROLL
      for (uint j = 0u; j < 32u; j++) v[j] = res[32u * w + j];
      sqz_bits_transpose32(v);
      SQZ_BB_UNROLL
      for (uint i = 0u; i < 32u; i++) {
        long o = offs[i * 9u + 4u];
        uint x = v[i] & keep;
        if (o < 0 || x == 0u) continue;
        ulong r = (ulong)o - base + 32u * w;
        uint sh = (uint)r & 31u;
        atomic_or(&stage[r >> 5], x << sh);
        if (sh && (x >> (32u - sh))) atomic_or(&stage[(r >> 5) + 1u], x >> (32u - sh));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong t0 = G * LANES_TILES;
    uint nt = tiles - t0 < LANES_TILES ? (uint)(tiles - t0) : LANES_TILES;
    for (uint j = lid; j < nt * wt; j += ls) dst[t0 * wt + j] = stage[j];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
