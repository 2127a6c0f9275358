/* edm.cl — Euclidean distance matrix of 2D points into packed lower-triangle storage, through a map. */
/* Prelude: SQZ_KIND_MASK (and SQZ_SLAYOUT, unused). Bit-identical to the cpu backend: no
 * contraction into fma, and the square root rounded correctly whatever the device's sqrt. */
#pragma OPENCL FP_CONTRACT OFF

/* sqrt(v) rounded to nearest: start from the device's estimate (a few ulp) and move to the
 * float s with s*(s-ulp) < v <= s*(s+ulp) (Tuckerman's test, products exact through fma). */
static inline float sqz_sqrt_rn(float v) {
  float s = sqrt(v);
  for (int i = 0; i < 4 && s > 0.0f; i++) {
    float lo = nextafter(s, 0.0f), hi = nextafter(s, INFINITY);
    if (fma(s, lo, -v) >= 0.0f) s = lo;
    else if (fma(s, hi, -v) < 0.0f) s = hi;
    else break;
  }
  return s;
}

__kernel void sqz_edm(__global const float *xy, __global float *out, uint n, uint rho, uint8 lp) {
  uint x, y;
  if (!sqz_smap2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, (uint)get_group_id(0), (uint)get_group_id(1),
                 (uint)get_local_id(0), (uint)get_local_id(1), rho, n, &x, &y))
    return;
  float dx = xy[2u * x] - xy[2u * y];
  float dy = xy[2u * x + 1u] - xy[2u * y + 1u];
  float d2 = dx * dx;
  d2 = d2 + dy * dy;
  out[sqz_tri(y) + x] = sqz_sqrt_rn(d2);
}
