/* simplex_touch.cl — the map papers' micro-workloads on simplex fields: every domain cell written once or incremented, through a thread map. */
/* After simplex_blocks.cl (same prelude as engine_simplex.cl, without an update). */
#if SQZ_DIMS == 2
/* Micro-workloads of the map papers: every domain cell written once (acc = 0: store 1) or
 * read and incremented (acc = 1). */
__kernel void sqz_touch2(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  __local uint blk[3];
  uint bx = 0u, by = 0u, x, y;
  if (!sqz_block2(blk, lp, rho, n, &bx, &by) ||
      !sqz_scell2(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, bx, by, (uint)get_local_id(0), (uint)get_local_id(1), n, &x, &y))
    return;
  sqz_sidx i = sqz_tri_index(SQZ_SLAYOUT, n, x, y);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}

#else
__kernel void sqz_touch3(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  __local uint blk[4];
  uint bx = 0u, by = 0u, bz = 0u, x, y, z;
  if (!sqz_block3(blk, lp, rho, n, &bx, &by, &bz) ||
      !sqz_scell3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, bx, by, bz, (uint)get_local_id(0),
                  (uint)get_local_id(1), (uint)get_local_id(2), n, &x, &y, &z))
    return;
  sqz_sidx i = sqz_tet_index(SQZ_SLAYOUT, n, x, y, z);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}
#endif
