/* engine_bits_fractal.cl — layout bits on fractals: one work-group per tile, its bits and halo expanded into a dense bitmap in local memory, bit-sliced Life, packed back. */
/* Needs sqz_common.h, sqz_fractal.h and sqz_bits.h. Tile b (digit order at level rb = R - t)
 * holds k^t cells in wt words from word b * wt; lam[l] = x | y << 16 is tile cell l's place
 * and nu[y * side + x] (stored after lam) its index (-1: a hole), then the nw dense words
 * q = (y - 1) * rw + j that hold a cell; fr = H_λ (2k entries) then H_ν (s^2). The dense
 * bitmap has side + 2 rows of rw words, tile cell (x, y) at bit x + 1 of row y + 1. */
__kernel void sqz_bits_fractal_step(__global const uint *src, __global uint *dst, __global const uint *lam,
                                    __constant int *fr, uint s, uint k, uint rb, uint side,
                                    uint kt, uint wt, uint nw, uint birth, uint survive, ulong tile0,
                                    __local uint *dense, __local uint *res) {
  __local long nb[9];
  __global const int *nu = (__global const int *)(lam + kt);
  __global const uint *wl = lam + kt + side * side;
#ifdef SQZ_BITS_B /* the rule as constants: the compiler unrolls the rule's count tests */
  birth = SQZ_BITS_B;
  survive = SQZ_BITS_S;
#endif
  ulong b = tile0 + get_group_id(0);
  uint lid = (uint)get_local_id(0), ls = (uint)get_local_size(0), rw = (side + 33u) / 32u;
  if (lid < 9u) {
    uint bx, by;
    sqz_fr_lambda(s, k, fr, rb, b, &bx, &by);
    nb[lid] = lid == 4u ? (long)b : sqz_fr_tile_neighbour(s, k, fr + 2u * k, rb, bx, by, lid);
  }
  for (uint q = lid; q < (side + 2u) * rw; q += ls) dense[q] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global const uint *own = src + b * wt;
  for (uint l = lid; l < kt; l += ls)
    if ((own[l >> 5] >> (l & 31u)) & 1u) {
      uint x = (lam[l] & 0xFFFFu) + 1u, y = (lam[l] >> 16) + 1u;
      atomic_or(&dense[y * rw + (x >> 5)], 1u << (x & 31u));
    }
  for (uint p = lid; p < 4u * side + 4u; p += ls) {
    uint cx, cy, lx, ly, d = sqz_bits_halo(side, p, &cx, &cy, &lx, &ly);
    int l = nb[d] < 0 ? -1 : nu[ly * side + lx];
    if (l >= 0 && ((src[(ulong)nb[d] * wt + ((uint)l >> 5)] >> ((uint)l & 31u)) & 1u))
      atomic_or(&dense[cy * rw + (cx >> 5)], 1u << (cx & 31u));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < nw; i += ls) { /* the dense words that hold cells */
    uint q = wl[i];
    SQZ_BITS_DENSE_STEP(dense, rw, q / rw + 1u, q % rw, birth, survive, res[q]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = lid; w < wt; w += ls) {
    uint v = 0u;
    for (uint i = 0u, l = w * 32u; i < 32u && l < kt; i++, l++) {
      uint x = (lam[l] & 0xFFFFu) + 1u, y = lam[l] >> 16;
      v |= ((res[y * rw + (x >> 5)] >> (x & 31u)) & 1u) << i;
    }
    dst[b * wt + w] = v;
  }
}

/* Word w of tile b from item b * wt + w: cell (x, y) alive iff sqz_random_cell(seed, y N + x). */
__kernel void sqz_bits_fractal_fill(__global uint *dst, __global const uint *lam, __constant int *fr, uint s, uint k,
                                    uint rb, uint side, uint kt, uint wt, ulong n, ulong seed, ulong threshold,
                                    ulong item0, ulong items) {
  ulong item = item0 + get_global_id(0), b = item / wt;
  if (item >= items) return;
  uint w = (uint)(item % wt), bx, by, v = 0u;
  sqz_fr_lambda(s, k, fr, rb, b, &bx, &by);
  for (uint i = 0u, l = w * 32u; i < 32u && l < kt; i++, l++) {
    ulong x = (ulong)bx * side + (lam[l] & 0xFFFFu), y = (ulong)by * side + (lam[l] >> 16);
    v |= sqz_random_cell(seed, y * n + x, threshold) << i;
  }
  dst[item] = v;
}
