/* life_simplex.cl — Life-like steps and random fills on triangle:N / tetrahedron:N fields. */
/* Prelude: SQZ_KIND_MASK (the launch kinds of the map's plan), SQZ_SLAYOUT (SQZ_SL_BB or
 * SQZ_SL_COMPACT), and the user's rule when there is one. One work-item per domain cell,
 * launched through one launch of a plan: lp = (kind, p0, p1, p2, o0, o1, o2, unused). */

__kernel void sqz_life2(__global const uchar *restrict src, __global uchar *restrict dst, uint n, uint rho,
                        uint birth, uint survive, uint8 lp) {
  uint x, y;
  if (!sqz_smap2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, (uint)get_group_id(0), (uint)get_group_id(1),
                 (uint)get_local_id(0), (uint)get_local_id(1), rho, n, &x, &y))
    return;
  ulong self = 0;
  uint live = sqz_tri_live(src, SQZ_SLAYOUT, n, x, y, &self);
  dst[self] = (uchar)SQZ_APPLY_RULE(src[self], live, birth, survive);
}

__kernel void sqz_life3(__global const uchar *restrict src, __global uchar *restrict dst, uint n, uint rho,
                        uint birth, uint survive, uint8 lp) {
  uint x, y, z;
  if (!sqz_smap3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, (uint)get_group_id(0), (uint)get_group_id(1),
                 (uint)get_group_id(2), (uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2), rho,
                 n, &x, &y, &z))
    return;
  ulong self = 0;
  uint live = sqz_tet_live(src, SQZ_SLAYOUT, n, x, y, z, &self);
  dst[self] = (uchar)SQZ_APPLY_RULE(src[self], live, birth, survive);
}

/* Storage cells first .. first + global size - 1 (below elems): 1 with the hash's probability
 * for domain cells, 0 for holes. The embedded index is y*n + x or (z*n + y)*n + x. */
__kernel void sqz_simplex_fill(__global uchar *dst, uint n, uint dims, ulong first, ulong elems, ulong seed,
                               ulong threshold) {
  ulong i = first + get_global_id(0);
  if (i >= elems) return;
  uint x, y, z = 0;
  int in = dims == 2 ? sqz_tri_cell(SQZ_SLAYOUT, n, i, &x, &y) : sqz_tet_cell(SQZ_SLAYOUT, n, i, &x, &y, &z);
  dst[i] = in ? (uchar)sqz_random_cell(seed, ((ulong)z * n + y) * n + x, threshold) : (uchar)0;
}

/* Micro-workloads of the map papers: every domain cell written once (acc = 0: store 1) or
 * read and incremented (acc = 1). */
__kernel void sqz_touch2(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  uint x, y;
  if (!sqz_smap2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, (uint)get_group_id(0), (uint)get_group_id(1),
                 (uint)get_local_id(0), (uint)get_local_id(1), rho, n, &x, &y))
    return;
  ulong i = sqz_tri_index(SQZ_SLAYOUT, n, x, y);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}

__kernel void sqz_touch3(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  uint x, y, z;
  if (!sqz_smap3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, (uint)get_group_id(0), (uint)get_group_id(1),
                 (uint)get_group_id(2), (uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2), rho,
                 n, &x, &y, &z))
    return;
  ulong i = sqz_tet_index(SQZ_SLAYOUT, n, x, y, z);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}
