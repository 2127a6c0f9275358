/* sqz_common.h — integer types and primitives shared by host C11 and OpenCL C 1.2 kernels. */
#ifndef SQZ_COMMON_H
#define SQZ_COMMON_H

#ifdef __OPENCL_VERSION__
typedef uint sqz_u32;
typedef int sqz_i32;
typedef ulong sqz_u64;
typedef long sqz_i64;
#define SQZ_FN static inline
#define SQZ_CONST __constant
#define SQZ_CLZ32(v) ((sqz_u32)clz((sqz_u32)(v)))
#define SQZ_CLZ64(v) ((sqz_u32)clz((sqz_u64)(v)))
#elif defined(__CUDACC__) /* nvcc: the same functions on host and device */
#include <stdint.h>
typedef uint32_t sqz_u32;
typedef int32_t sqz_i32;
typedef uint64_t sqz_u64;
typedef int64_t sqz_i64;
#define SQZ_FN __host__ __device__ static inline
#define SQZ_CONST const
#ifdef __CUDA_ARCH__
#define SQZ_CLZ32(v) ((sqz_u32)__clz((int)(v)))
#define SQZ_CLZ64(v) ((sqz_u32)__clzll((long long)(v)))
#else
#define SQZ_CLZ32(v) ((sqz_u32)((v) ? __builtin_clz((unsigned)(v)) : 32))
#define SQZ_CLZ64(v) ((sqz_u32)((v) ? __builtin_clzll((unsigned long long)(v)) : 64))
#endif
#else
#include <stdint.h>
typedef uint32_t sqz_u32;
typedef int32_t sqz_i32;
typedef uint64_t sqz_u64;
typedef int64_t sqz_i64;
#define SQZ_FN static inline
#define SQZ_CONST const
#define SQZ_CLZ32(v) ((sqz_u32)((v) ? __builtin_clz((unsigned)(v)) : 32))
#define SQZ_CLZ64(v) ((sqz_u32)((v) ? __builtin_clzll((unsigned long long)(v)) : 64))
#endif

/* floor(log2 v) for v >= 1 */
SQZ_FN sqz_u32 sqz_ilog2(sqz_u32 v) { return 31u - SQZ_CLZ32(v); }
SQZ_FN sqz_u32 sqz_ilog2_64(sqz_u64 v) { return 63u - SQZ_CLZ64(v); }
SQZ_FN sqz_u32 sqz_pow2floor(sqz_u32 v) { return 1u << sqz_ilog2(v); }
SQZ_FN sqz_u32 sqz_pow2ceil(sqz_u32 v) { return v <= 1u ? 1u : 1u << (32u - SQZ_CLZ32(v - 1u)); }
/* T(k) = k(k+1)/2 and Te(k) = k(k+1)(k+2)/6 in 64 bits */
SQZ_FN sqz_u64 sqz_tri(sqz_u64 k) { return (k & 1u) ? k * ((k + 1u) >> 1) : (k >> 1) * (k + 1u); }
SQZ_FN sqz_u64 sqz_tet(sqz_u64 k) {
  sqz_u64 a = k, b = k + 1u, c = k + 2u;
  if ((a & 1u) == 0u) a >>= 1; else b >>= 1; /* one of k, k+1 is even */
  if (a % 3u == 0u) a /= 3u; else if (b % 3u == 0u) b /= 3u; else c /= 3u;
  return a * b * c;
}

/* Counter-based hash: the random initial state is a pure function of (seed, embedded index),
 * so every layout, map and backend starts from the same cells. */
SQZ_FN sqz_u64 sqz_mix64(sqz_u64 z) {
  z = (z ^ (z >> 30)) * (sqz_u64)0xbf58476d1ce4e5b9UL;
  z = (z ^ (z >> 27)) * (sqz_u64)0x94d049bb133111ebUL;
  return z ^ (z >> 31);
}
/* alive iff the top 32 hash bits are below threshold (threshold = density * 2^32) */
SQZ_FN sqz_u32 sqz_random_cell(sqz_u64 seed, sqz_u64 embedded_index, sqz_u64 threshold) {
  sqz_u64 h = sqz_mix64(sqz_mix64(seed + (sqz_u64)0x9e3779b97f4a7c15UL) ^ embedded_index);
  return (h >> 32) < threshold ? 1u : 0u;
}

/* Fills (sqz_field_fill_random, _uniform, _const): the raw bits of a domain cell's value, in the
 * low `bytes` bytes (1: u8, 4: i32 or f32, 8: f64) of a 64-bit word, so one integer kernel writes
 * every cell type and needs no fp64. RANDOM: `value` (the bits of 1 in the cell type) where
 * sqz_random_cell says alive, else 0. UNIFORM (bytes 4: f32, 8: f64): the top 24 or 53 bits m of
 * the hash as m * 2^-24 or m * 2^-53 in [0, 1), an exact IEEE bit pattern built from the integer
 * (the same numbers as ldexp of the host). CONST: `value` itself. */
#define SQZ_FILL_RANDOM 0u
#define SQZ_FILL_UNIFORM 1u
#define SQZ_FILL_CONST 2u
#if defined(__OPENCL_VERSION__) && defined(SQZ_FILL_BYTES) /* the fill kernels' cell word (their prelude) */
#if SQZ_FILL_BYTES == 1
typedef uchar sqz_fill_t;
#elif SQZ_FILL_BYTES == 4
typedef uint sqz_fill_t;
#else
typedef ulong sqz_fill_t;
#endif
#endif
SQZ_FN sqz_u64 sqz_fill_bits(sqz_u32 mode, sqz_u32 bytes, sqz_u64 seed, sqz_u64 threshold, sqz_u64 value,
                             sqz_u64 embedded_index) {
  if (mode == SQZ_FILL_CONST) return value;
  if (mode == SQZ_FILL_RANDOM) return sqz_random_cell(seed, embedded_index, threshold) ? value : (sqz_u64)0;
  sqz_u64 h = sqz_mix64(sqz_mix64(seed + (sqz_u64)0x9e3779b97f4a7c15UL) ^ embedded_index);
  sqz_u32 wide = bytes == 8u, frac = wide ? 52u : 23u, keep = frac + 1u; /* 53 or 24 significant bits */
  sqz_u64 m = h >> (64u - keep);
  if (m == 0u) return 0u;
  sqz_u32 p = sqz_ilog2_64(m); /* m = 2^p (1 + f): the value is 2^(p - keep) (1 + f) */
  sqz_u64 bias = wide ? 1023u : 127u, e = bias + p - keep;
  return (e << frac) | ((m << (frac - p)) & ((((sqz_u64)1) << frac) - 1u));
}

#endif /* SQZ_COMMON_H */
