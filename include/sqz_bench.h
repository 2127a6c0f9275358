/* sqz_bench.h — benchmark-only entry points of sqz: copy bandwidth, simplex micro-workloads, CUDA tile maps alone, m-simplex volumes. */
#ifndef SQZ_BENCH_H
#define SQZ_BENCH_H

#include "sqz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device-to-device copy bandwidth of ctx in bytes/s (read + write), the best of 5 copies after
 * a warm-up copy: clEnqueueCopyBuffer timed by events on opencl, memcpy between host buffers
 * on the other backends. One copy moves max_bytes (0: 1 GiB on opencl, 256 MiB on the host),
 * halved until it fits the device's largest buffer and a quarter of its global memory;
 * *bytes_used (may be NULL) gets that size even when the measurement fails. *bytes_per_s is 0
 * when nothing could be measured (the status then says why). */
SQZ_API int sqz_bench_copy_bandwidth(sqz_context *ctx, uint64_t max_bytes, double *bytes_per_s, uint64_t *bytes_used);

/* The micro-workloads of `sqz bench simplex` on a SQZ_U8 simplex field (opencl backend):
 * `steps` passes through the field's map, each storing 1 in every domain cell (accumulate = 0)
 * or incrementing it (accumulate = 1). Timed as one operation (sqz_context_timing). */
SQZ_API int sqz_bench_simplex_touch(sqz_field *field, int accumulate, uint64_t steps);

/* The tile maps alone on the cuda backend: map "mma" or "alu" (sqz_map_list(SQZ_FAMILY_FRACTAL,
 * 2, "cuda", ...)) for tiles tile0 .. tile0 + count - 1 of grid level `level` (0 .. R) of the
 * fractal dom: λ_b and the 8 ν_b of each tile, XOR-summed into *checksum (equal for both
 * maps); *kernel_s gets the kernel time. Either out-pointer may be NULL. */
SQZ_API int sqz_bench_fractal_maps(sqz_context *ctx, const sqz_domain *dom, uint32_t level, const char *map,
                                   uint64_t tile0, uint64_t count, uint64_t *checksum, double *kernel_s);

/* n points (x0 y0 x1 y1 ... into xy, 2n floats) in [0, 1000)^2 from the counter-based hash of
 * (seed + index): the same points on every machine. */
SQZ_API int sqz_bench_random_points(uint64_t n, uint64_t seed, float *xy);

/* The m-simplex volume analysis (docs/MAPS.md 3) of the recursive orthotope set S_n^m of scale r
 * (side ratio, 0 < r < 1) and arity beta against the simplex Delta_n^m = C(n + m - 1, m). */
typedef struct {
  int32_t m;
  double r, beta;
  double denom;          /* r^-m - beta; the closed form needs it > 0 */
  double gamma;          /* log_{1/r} beta: V(S) = (n^m - n^gamma) / denom */
  double limit_extra;    /* lim V(S)/V(Delta) - 1 = m!/denom - 1 */
  double mfact_r;        /* the r with r^-m - beta = m! (the "m! target") */
  uint64_t n;            /* the sample side used below (a power of 1/r when 1/r is an integer) */
  double volume_set;     /* V(S_n^m) */
  double volume_simplex; /* V(Delta_n^m) */
  double extra;          /* volume_set / volume_simplex - 1 */
} sqz_msimplex_volume;
/* m in 2..16, 0 < r < 1, 1 <= beta <= 1e6, beta * r^m < 1; n = 0 picks (1/r)^4 or 16.
 * Failures leave their detail in sqz_last_error(NULL). */
SQZ_API int sqz_bench_msimplex(int32_t m, double r, double beta, uint64_t n, sqz_msimplex_volume *out);

#ifdef __cplusplus
}
#endif
#endif /* SQZ_BENCH_H */
