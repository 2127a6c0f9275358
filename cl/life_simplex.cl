/* life_simplex.cl — Life-like steps and the map/accumulate micro-workloads on triangle:N / tetrahedron:N fields. */
/* Prelude: SQZ_DIMS (2 or 3), SQZ_KIND_MASK (the launch kinds of the map's plan), SQZ_SLAYOUT
 * (SQZ_SL_BB or SQZ_SL_COMPACT), SQZ_IDX32 when the storage has at most 2^32 cells, and the
 * user's rule when there is one. One work-item per domain cell, launched through one launch
 * of a plan: lp = (kind, p0, p1, p2, o0, o1, o2, unused). */

#if SQZ_DIMS == 2
/* The cell of this work-item. LTM's block map (a square root and its integer correction) runs
 * once per work-group, through blk in local memory; the other kinds cost less than the
 * barrier and run per work-item. */
static inline int sqz_cell2(__local uint *blk, uint8 lp, uint rho, uint n, uint *x, uint *y) {
  uint wx = (uint)get_group_id(0), wy = (uint)get_group_id(1), tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
#if SQZ_HAS_KIND(SQZ_SK_LTM)
  if (lp.s0 == SQZ_SK_LTM) { /* uniform: a kernel argument */
    if (tx == 0u && ty == 0u) {
      ulong bc = (ulong)wx + (ulong)wy * lp.s2;
      uint bx = 0u, by = 0u;
      blk[0] = bc < sqz_tri(lp.s1) ? 1u : 0u;
      if (blk[0]) sqz_ltm2(bc, &bx, &by);
      blk[1] = bx;
      blk[2] = by;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *x = lp.s4 + blk[1] * rho + tx;
    *y = lp.s5 + blk[2] * rho + ty;
    return blk[0] && *x <= *y && *y < n;
  }
#endif
  return sqz_smap2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, wx, wy, tx, ty, rho, n, x, y);
}


__kernel void sqz_life2(__global const uchar *restrict src, __global uchar *restrict dst, uint n, uint rho,
                        uint birth, uint survive, uint8 lp) {
  __local uint blk[3];
  uint x, y;
  if (!sqz_cell2(blk, lp, rho, n, &x, &y)) return;
  sqz_sidx self = 0;
  uint live = sqz_tri_live(src, SQZ_SLAYOUT, n, x, y, &self);
  dst[self] = (uchar)SQZ_APPLY_RULE(src[self], live, birth, survive);
}

/* Micro-workloads of the map papers: every domain cell written once (acc = 0: store 1) or
 * read and incremented (acc = 1). */
__kernel void sqz_touch2(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  __local uint blk[3];
  uint x, y;
  if (!sqz_cell2(blk, lp, rho, n, &x, &y)) return;
  sqz_sidx i = sqz_tri_index(SQZ_SLAYOUT, n, x, y);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}

#else
/* As sqz_cell2, for LTM3 (a cube root, a square root and their corrections). */
static inline int sqz_cell3(__local uint *blk, uint8 lp, uint rho, uint n, uint *x, uint *y, uint *z) {
  uint wx = (uint)get_group_id(0), wy = (uint)get_group_id(1), wz = (uint)get_group_id(2);
  uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1), tz = (uint)get_local_id(2);
#if SQZ_HAS_KIND(SQZ_SK_LTM3)
  if (lp.s0 == SQZ_SK_LTM3) {
    if (tx == 0u && ty == 0u && tz == 0u) {
      ulong w = (ulong)wx + (ulong)lp.s2 * ((ulong)wy + (ulong)lp.s2 * wz);
      uint bx = 0u, by = 0u, bz = 0u;
      blk[0] = w < sqz_te(lp.s1) ? 1u : 0u;
      if (blk[0]) sqz_ltm3(lp.s1, w, &bx, &by, &bz);
      blk[1] = bx;
      blk[2] = by;
      blk[3] = bz;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *x = lp.s4 + blk[1] * rho + tx;
    *y = lp.s5 + blk[2] * rho + ty;
    *z = lp.s6 + blk[3] * rho + tz;
    return blk[0] && *x + *y + *z < n;
  }
#endif
  return sqz_smap3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, wx, wy, wz, tx, ty, tz, rho, n, x, y, z);
}

__kernel void sqz_life3(__global const uchar *restrict src, __global uchar *restrict dst, uint n, uint rho,
                        uint birth, uint survive, uint8 lp) {
  __local uint blk[4];
  uint x, y, z;
  if (!sqz_cell3(blk, lp, rho, n, &x, &y, &z)) return;
  sqz_sidx self = 0;
  uint live = sqz_tet_live(src, SQZ_SLAYOUT, n, x, y, z, &self);
  dst[self] = (uchar)SQZ_APPLY_RULE(src[self], live, birth, survive);
}

__kernel void sqz_touch3(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  __local uint blk[4];
  uint x, y, z;
  if (!sqz_cell3(blk, lp, rho, n, &x, &y, &z)) return;
  sqz_sidx i = sqz_tet_index(SQZ_SLAYOUT, n, x, y, z);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}
#endif
