/* simplex_fill.cl — random initial states of triangle:N / tetrahedron:N fields, one work-item per storage cell. */
/* Prelude: SQZ_DIMS (2 or 3) and SQZ_SLAYOUT (SQZ_SL_BB or SQZ_SL_COMPACT). */

/* Storage cells first .. first + global size - 1 (below elems), cell i at dst[i - base] (base: 0,
 * or a part's first own cell): 1 with the hash's probability for domain cells, 0 for holes. The
 * embedded index is y*n + x or (z*n + y)*n + x. */
__kernel void sqz_simplex_fill(__global uchar *dst, uint n, ulong first, ulong elems, ulong seed, ulong threshold,
                               ulong base) {
  ulong i = first + get_global_id(0);
  if (i >= elems) return;
  uint x, y, z = 0;
#if SQZ_DIMS == 2
  int in = sqz_tri_cell(SQZ_SLAYOUT, n, i, &x, &y);
#else
  int in = sqz_tet_cell(SQZ_SLAYOUT, n, i, &x, &y, &z);
#endif
  dst[i - base] = in ? (uchar)sqz_random_cell(seed, ((ulong)z * n + y) * n + x, threshold) : (uchar)0;
}
