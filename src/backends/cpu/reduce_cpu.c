/* reduce_cpu.c — the cpu backend's reductions in plain C: counts, exact integer sums, pairwise recursion, Neumaier. */
#include <math.h>
#include <string.h>

#include "backends/cpu/cpu_engine.h"

/* Elements whose bits under mask equal eq (element width 1, 4 or 8 bytes). */
static uint64_t cpu_count_eq(const void *data, uint64_t n, size_t width, uint64_t mask, uint64_t eq) {
  const unsigned char *p = data;
  uint64_t c = 0;
  if (width == 1) {
    for (uint64_t i = 0; i < n; i++) c += (p[i] & mask) == eq;
  } else if (width == 4) {
    for (uint64_t i = 0; i < n; i++) {
      uint32_t v;
      memcpy(&v, p + 4 * i, 4);
      c += (v & mask) == eq;
    }
  } else {
    for (uint64_t i = 0; i < n; i++) {
      uint64_t v;
      memcpy(&v, p + 8 * i, 8);
      c += (v & mask) == eq;
    }
  }
  return c;
}

/* 1 if a float32/float64 array holds a NaN or an infinity (all exponent bits set). */
static int cpu_any_nonfinite(sqz_type type, const void *data, uint64_t n) {
  const uint64_t e = type == SQZ_F32 ? 0x7f800000u : 0x7ff0000000000000u;
  return cpu_count_eq(data, n, sqz_type_size(type), e, e) > 0;
}

static void cpu_isum(sqz_type type, const void *data, uint64_t n, sqz_red_acc *acc) {
  const uint64_t block = (uint64_t)1 << 31; /* |block sum| < 2^62: exact in int64 */
  for (uint64_t at = 0; at < n; at += block) {
    const uint64_t end = n - at < block ? n : at + block;
    int64_t s = 0;
    if (type == SQZ_U8)
      for (uint64_t i = at; i < end; i++) s += ((const uint8_t *)data)[i];
    else
      for (uint64_t i = at; i < end; i++) s += ((const int32_t *)data)[i];
    sqz__red_add_int(acc, s);
  }
}

/* Pairwise recursion in the element type: halves at a multiple of 8, and a leaf of up to 8
 * elements is a balanced tree padded with zeros, so the tree height is
 * ceil(log2(ceil(n / 8))) + 3. */
#define SQZ_CPU_PAIRWISE(NAME, T)                                                   \
  static T NAME(const T *x, uint64_t n) {                                           \
    if (n > 8) {                                                                    \
      const uint64_t h = (n + 15) / 16 * 8;                                         \
      return NAME(x, h) + NAME(x + h, n - h);                                       \
    }                                                                               \
    T v[8] = {0};                                                                   \
    for (uint64_t i = 0; i < n; i++) v[i] = x[i];                                   \
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));      \
  }
SQZ_CPU_PAIRWISE(cpu_pairwise_f32, float)
SQZ_CPU_PAIRWISE(cpu_pairwise_f64, double)

/* Neumaier's compensated sum in double (float32 data is widened exactly); the (sum,
 * correction) pair goes to the host combine like a device work-item's. */
#define SQZ_CPU_NEUMAIER(NAME, T)                                                   \
  static void NAME(const T *x, uint64_t n, sqz_red_acc *acc) {                      \
    double s = 0.0, c = 0.0;                                                        \
    for (uint64_t i = 0; i < n; i++) {                                              \
      const double v = x[i], t = s + v;                                             \
      c += fabs(s) >= fabs(v) ? (s - t) + v : (v - t) + s;                          \
      s = t;                                                                        \
    }                                                                               \
    sqz__red_add(acc, s);                                                           \
    sqz__red_add(acc, c);                                                           \
  }
SQZ_CPU_NEUMAIER(cpu_neumaier_f32, float)
SQZ_CPU_NEUMAIER(cpu_neumaier_f64, double)

int sqz__cpu_reduce(sqz_context *ctx, sqz_red_op op, sqz_type type, sqz_mem mem, uint64_t n, int acc_mode,
                    sqz_red_acc *acc) {
  const void *data = mem;
  if (n == 0) return SQZ_OK;
  const double t0 = sqz__now();
  const int f32 = type == SQZ_F32;
  switch (op) {
  case SQZ_RED_COUNT:
  case SQZ_RED_ABOVE1:
    acc->count += n - cpu_count_eq(data, n, sqz_type_size(type), sqz__red_mask(op, type), 0);
    break;
  case SQZ_RED_ISUM: cpu_isum(type, data, n, acc); break;
  case SQZ_RED_PAIRWISE:
    sqz__red_add(acc, f32 ? cpu_pairwise_f32(data, n) : cpu_pairwise_f64(data, n));
    break;
  case SQZ_RED_NEUMAIER:
    if (f32) cpu_neumaier_f32(data, n, acc);
    else cpu_neumaier_f64(data, n, acc);
    break;
  }
  /* a non-finite float result comes from a NaN/infinity in the input or from overflow */
  if ((op == SQZ_RED_PAIRWISE || op == SQZ_RED_NEUMAIER) && !isfinite((double)(acc->s + acc->c)) &&
      cpu_any_nonfinite(type, data, n))
    acc->nonfinite = 1;
  ctx->kernel_s += sqz__now() - t0;
  return SQZ_OK;
}
