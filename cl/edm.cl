/* edm.cl — Euclidean distance matrix of 2D points into packed lower-triangle storage, through a map. */
/* Prelude: SQZ_KIND_MASK (and SQZ_SLAYOUT, unused); where the device has fp64 the cl_khr_fp64
 * pragma and SQZ_EDM_FP64. Files before this one: sqz_common.h, sqz_simplex.h, sqz_edm.h.
 * Bit-identical to the cpu backend on fp64 devices (cl/sqz_edm.h says how; it turns contraction off). */

__kernel void sqz_edm(__global const float *xy, __global float *out, uint n, uint rho, uint8 lp) {
  uint x, y;
  if (!sqz_smap2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, (uint)get_group_id(0), (uint)get_group_id(1),
                 (uint)get_local_id(0), (uint)get_local_id(1), rho, n, &x, &y))
    return;
#ifdef SQZ_EDM_FP64
  out[sqz_tri(y) + x] = sqz_edm_dist64(xy[2u * x], xy[2u * x + 1u], xy[2u * y], xy[2u * y + 1u]);
#else
  out[sqz_tri(y) + x] = sqz_edm_dist32(xy[2u * x], xy[2u * x + 1u], xy[2u * y], xy[2u * y + 1u]);
#endif
}
