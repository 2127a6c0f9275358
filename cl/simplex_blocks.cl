/* simplex_blocks.cl — the block of a work-group under a simplex thread-map plan (2D and 3D), and a cheap division for tile positions. */
/* After sqz_common.h and sqz_simplex.h; prelude SQZ_DIMS, SQZ_KIND_MASK (engine_simplex.cl). */
/* i / w and (*r) i % w for tile positions (i < 2^20, 3 <= w): a float estimate from rw = 1 / w
 * (a few ulp) and an integer correction, cheaper than an integer division on GPUs and CPUs. */
static inline uint sqz_tdiv(uint i, uint w, float rw, uint *r) {
  uint q = (uint)((float)i * rw);
  int d = (int)(i - q * w);
  if (d < 0) {
    q--;
    d += (int)w;
  } else if (d >= (int)w) {
    q++;
    d -= (int)w;
  }
  *r = (uint)d;
  return q;
}

#if SQZ_DIMS == 2
/* The block of this work-group (sqz_sblock2), uniform over the group; 0 when it holds no cell
 * of the domain. LTM's block map (a square root and its integer correction) runs once per
 * work-group, through blk in local memory; the other kinds cost less than the barrier and run
 * per work-item. */
static inline int sqz_block2(__local uint *blk, uint8 lp, uint rho, uint n, uint *bx, uint *by) {
  uint wx = (uint)get_group_id(0), wy = (uint)get_group_id(1);
  int ok;
#if SQZ_HAS_KIND(SQZ_SK_LTM)
  if (lp.s0 == SQZ_SK_LTM) { /* uniform: a kernel argument */
    if (get_local_id(0) == 0u && get_local_id(1) == 0u) {
      uint x = 0u, y = 0u;
      blk[0] = (uint)sqz_sblock2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, wx, wy, rho, &x, &y);
      blk[1] = x;
      blk[2] = y;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *bx = blk[1];
    *by = blk[2];
    ok = blk[0] != 0u;
  } else
#endif
    ok = sqz_sblock2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, wx, wy, rho, bx, by);
  /* an RB block lies in the folded rectangle, every other one in the triangle's square */
  return ok && (lp.s0 == SQZ_SK_RB || (*bx <= *by + rho - 1u && *by < n));
}

#else
/* As sqz_block2, for LTM3 (a cube root, a square root and their corrections). */
static inline int sqz_block3(__local uint *blk, uint8 lp, uint rho, uint n, uint *bx, uint *by, uint *bz) {
  uint wx = (uint)get_group_id(0), wy = (uint)get_group_id(1), wz = (uint)get_group_id(2);
  int ok;
#if SQZ_HAS_KIND(SQZ_SK_LTM3)
  if (lp.s0 == SQZ_SK_LTM3) {
    if (get_local_id(0) == 0u && get_local_id(1) == 0u && get_local_id(2) == 0u) {
      uint x = 0u, y = 0u, z = 0u;
      blk[0] = (uint)sqz_sblock3(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, lp.s6, wx, wy, wz, rho, &x, &y, &z);
      blk[1] = x;
      blk[2] = y;
      blk[3] = z;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *bx = blk[1];
    *by = blk[2];
    *bz = blk[3];
    ok = blk[0] != 0u;
  } else
#endif
    ok = sqz_sblock3(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, lp.s6, wx, wy, wz, rho, bx, by, bz);
  return ok && *bx + *by + *bz < n;
}

#endif
