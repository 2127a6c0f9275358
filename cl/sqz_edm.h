/* sqz_edm.h — one entry of the Euclidean distance matrix, free of overflow and underflow, shared by host C and OpenCL C. */
#ifndef SQZ_EDM_H
#define SQZ_EDM_H
/* Needs sqz_common.h first. Both forms take the coordinates of two points (x1, y1), (x2, y2) as
 * floats and return their distance as a float; compiled without contraction (FP_CONTRACT OFF on
 * the device, no fma on the host), so every backend rounds alike.
 *
 * sqz_edm_dist64 (the cpu backend, and devices with cl_khr_fp64, where the prelude defines
 * SQZ_EDM_FP64): differences, squares, sum and square root in double. Float coordinates never
 * overflow or underflow there (|difference| < 2^129, its square < 2^258; the smallest non-zero
 * difference 2^-149 squares to 2^-298, above DBL_MIN), IEEE double arithmetic with a correctly
 * rounded sqrt is the same on host and device, and the one rounding to float at the end leaves the
 * result within 1 ulp of the exact distance (the correctly rounded one but for ties closer than
 * 2^-26 ulp). A distance beyond FLT_MAX rounds to infinity.
 *
 * sqz_edm_dist32 (devices without fp64): the float arithmetic hypot-style, both differences scaled
 * by the power of two of the larger one (exact), so the squares stay near 1; within 2 ulp, and
 * infinity only where the distance (or a float difference) exceeds FLT_MAX. Subnormal results
 * follow the device's denormal support. */
#ifdef __OPENCL_VERSION__
#pragma OPENCL FP_CONTRACT OFF
/* sqrt(v) rounded to nearest: start from the device's estimate (a few ulp) and move to the float s
 * with s*(s-ulp) < v <= s*(s+ulp) (Tuckerman's test, products exact through fma). */
static inline float sqz_edm_sqrtf(float v) {
  float s = sqrt(v);
  for (int i = 0; i < 4 && s > 0.0f; i++) {
    float lo = nextafter(s, 0.0f), hi = nextafter(s, INFINITY);
    if (fma(s, lo, -v) >= 0.0f) s = lo;
    else if (fma(s, hi, -v) < 0.0f) s = hi;
    else break;
  }
  return s;
}
#define SQZ_EDM_FABSF(v) fabs(v)
#define SQZ_EDM_ILOGBF(v) ilogb(v)
#define SQZ_EDM_LDEXPF(v, e) ldexp(v, e)
#define SQZ_EDM_INFF INFINITY
#else
#include <math.h>
#define sqz_edm_sqrtf(v) sqrtf(v) /* IEEE: correctly rounded */
#define SQZ_EDM_FABSF(v) fabsf(v)
#define SQZ_EDM_ILOGBF(v) ilogbf(v)
#define SQZ_EDM_LDEXPF(v, e) ldexpf(v, e)
#define SQZ_EDM_INFF HUGE_VALF
#define SQZ_EDM_FP64 1
#endif

#ifdef SQZ_EDM_FP64
SQZ_FN float sqz_edm_dist64(float x1, float y1, float x2, float y2) {
  double dx = (double)x1 - (double)x2, dy = (double)y1 - (double)y2;
  double d2 = dx * dx;
  d2 = d2 + dy * dy;
  return (float)sqrt(d2);
}
#endif

SQZ_FN float sqz_edm_dist32(float x1, float y1, float x2, float y2) {
  float dx = x1 - x2, dy = y1 - y2;
  float ax = SQZ_EDM_FABSF(dx), ay = SQZ_EDM_FABSF(dy), m = ax > ay ? ax : ay;
  if (m == 0.0f) return 0.0f;
  if (m > 3.40282347e38f) return SQZ_EDM_INFF; /* a difference beyond FLT_MAX */
  int e = SQZ_EDM_ILOGBF(m);
  float a = SQZ_EDM_LDEXPF(dx, -e), b = SQZ_EDM_LDEXPF(dy, -e); /* |a| in [1, 2), |b| <= |a| */
  float d2 = a * a;
  d2 = d2 + b * b;
  return SQZ_EDM_LDEXPF(sqz_edm_sqrtf(d2), e);
}
#endif /* SQZ_EDM_H */
