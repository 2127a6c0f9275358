/* engine_bits_simplex.cl — layout bits on triangles and tetrahedra: one work-item per row word (32 cells), Life-like steps and random fills. */
/* Needs sqz_common.h, sqz_parts.h and sqz_bits.h. The NDRange is (words of the longest row, rows
 * y0 + .., planes z0 + ..) (one plane in 2D); items past a row's words or with y + z >= n return.
 * A part's buffer (bands of rows, src/core/parts_bands.c): own words [pu0, pu1) at 0, then pbefore
 * words of the row above and the row below; a launch writes the rows whose first word lies in
 * [wlo, whi). One buffer: pu0 = wlo = 0, pu1 = whi = ~0, pbefore = 0. */

/* Row (y, z) of the item, its first word and its length; 0 when the row or the word does not exist. */
static int bits_row(ulong n, uint dims, ulong y0, ulong z0, ulong j, ulong *y, ulong *z, ulong *first, ulong *len) {
  *y = y0 + get_global_id(1);
  *z = z0 + get_global_id(2);
  if (*y + *z >= n) return 0;
  *len = dims == 2u ? *y + 1u : n - *y - *z;
  *first = dims == 2u ? sqz_bits_tri_row(*y) : sqz_bits_tet_row(n, *y, *z);
  return j < sqz_bits_words(*len);
}

__kernel void sqz_bits_simplex_step(__global const uint *src, __global uint *dst, ulong n, uint dims, uint birth,
                                    uint survive, ulong pu0, ulong pu1, ulong pbefore, ulong wlo, ulong whi, ulong y0,
                                    ulong z0) {
  ulong j = get_global_id(0), y, z, first, len;
  if (!bits_row(n, dims, y0, z0, j, &y, &z, &first, &len) || first < wlo || first >= whi) return;
  sqz_bits_band b = {pu0, pu1, pbefore};
#ifdef SQZ_BITS_B /* the rule as constants: the compiler unrolls the rule's count tests */
  birth = SQZ_BITS_B;
  survive = SQZ_BITS_S;
#endif
  dst[first - pu0 + j] = dims == 2u ? sqz_bits_tri_step(src, n, y, j, birth, survive, b)
                                    : sqz_bits_tet_step(src, n, y, z, j, birth, survive, b);
}

/* Cell (x, y, z) is alive iff sqz_random_cell(seed, (z n + y) n + x) says so (every layout's fill). */
__kernel void sqz_bits_simplex_fill(__global uint *dst, ulong n, uint dims, ulong seed, ulong threshold, ulong pu0,
                                    ulong pu1, ulong y0, ulong z0) {
  ulong j = get_global_id(0), y, z, first, len;
  if (!bits_row(n, dims, y0, z0, j, &y, &z, &first, &len) || first < pu0 || first >= pu1) return; /* a part's own rows */
  uint v = 0u;
  for (uint b = 0u; b < 32u && 32u * j + b < len; b++)
    v |= sqz_random_cell(seed, (z * n + y) * n + 32u * j + b, threshold) << b;
  dst[first - pu0 + j] = v;
}
