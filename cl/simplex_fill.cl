/* simplex_fill.cl — fills of triangle:N / tetrahedron:N fields (random 0/1, uniform floats, a constant), one work-item per storage cell. */
/* Prelude: SQZ_DIMS (2 or 3), SQZ_SLAYOUT (SQZ_SL_BB or SQZ_SL_COMPACT) and SQZ_FILL_BYTES (1, 4
 * or 8: the kernel writes the raw bits of sqz_fill_bits, as cl/fractal_fill.cl). */

/* Storage cells first .. first + global size - 1 (below elems), cell i at dst[i - base] (base: 0,
 * or a part's first own cell): the fill's value for domain cells, 0 for holes. The embedded
 * index is y*n + x or (z*n + y)*n + x. */
__kernel void sqz_simplex_fill(__global sqz_fill_t *dst, uint n, ulong first, ulong elems, uint mode, ulong seed,
                               ulong threshold, ulong value, ulong base) {
  ulong i = first + get_global_id(0);
  if (i >= elems) return;
  uint x, y, z = 0;
#if SQZ_DIMS == 2
  int in = sqz_tri_cell(SQZ_SLAYOUT, n, i, &x, &y);
#else
  int in = sqz_tet_cell(SQZ_SLAYOUT, n, i, &x, &y, &z);
#endif
  dst[i - base] = in ? (sqz_fill_t)sqz_fill_bits(mode, SQZ_FILL_BYTES, seed, threshold, value, ((ulong)z * n + y) * n + x)
                     : (sqz_fill_t)0;
}
