/* coverage_simplex.cl — test kernels: how often each storage cell is reached through a map's launches. */
/* Prelude: SQZ_DIMS, SQZ_KIND_MASK, SQZ_SLAYOUT and SQZ_IDX32 as for life_simplex.cl. mode 0: acc[i] counts the
 * visits of storage cell i; mode 1: acc is a bitmap and flags[1] counts second visits.
 * flags[0] counts storage indices at or beyond elems (never expected). g0: the first work-group of a launch that
 * runs a part of its grid (0 for the whole grid). */

static inline void sqz_cover_hit(__global uint *acc, __global uint *flags, ulong i, ulong elems, uint mode) {
  if (i >= elems) {
    atomic_inc(&flags[0]);
    return;
  }
  if (mode == 0u) {
    atomic_inc(&acc[i]);
    return;
  }
  uint bit = 1u << (uint)(i & 31u);
  if (atomic_or(&acc[i >> 5], bit) & bit) atomic_inc(&flags[1]);
}

#if SQZ_DIMS == 2
__kernel void sqz_cover2(__global uint *acc, __global uint *flags, uint n, uint rho, ulong elems, uint mode,
                         uint8 lp, uint4 g0) {
  uint x, y;
  if (!sqz_smap2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, g0.s0 + (uint)get_group_id(0),
                 g0.s1 + (uint)get_group_id(1), (uint)get_local_id(0), (uint)get_local_id(1), rho, n, &x, &y))
    return;
  sqz_cover_hit(acc, flags, sqz_tri_index(SQZ_SLAYOUT, n, x, y), elems, mode);
}

#else
__kernel void sqz_cover3(__global uint *acc, __global uint *flags, uint n, uint rho, ulong elems, uint mode,
                         uint8 lp, uint4 g0) {
  uint x, y, z;
  if (!sqz_smap3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, g0.s0 + (uint)get_group_id(0),
                 g0.s1 + (uint)get_group_id(1), g0.s2 + (uint)get_group_id(2), (uint)get_local_id(0),
                 (uint)get_local_id(1), (uint)get_local_id(2), rho, n, &x, &y, &z))
    return;
  sqz_cover_hit(acc, flags, sqz_tet_index(SQZ_SLAYOUT, n, x, y, z), elems, mode);
}
#endif
