/* bench.c — the benchmark-only entry points of sqz_bench.h: copy bandwidth, simplex touch passes, CUDA tile maps, points. */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_fractal.h"
#include "core/registry.h"
#include "simplex/simplex_plan.h"
#include "sqz_bench.h"

#define SQZ_COPY_REPS 6 /* the first copy is a warm-up */

/* Best bandwidth of clEnqueueCopyBuffer over n bytes, timed by events. */
static int sqz__copy_cl(sqz_context *ctx, uint64_t n, double *best) {
  cl_mem a = NULL, b = NULL;
  cl_event ev = NULL;
  unsigned char one = 1;
  int st = sqz__buffer(ctx, n, CL_MEM_READ_WRITE, &a);
  if (st == SQZ_OK) st = sqz__buffer(ctx, n, CL_MEM_READ_WRITE, &b);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueFillBuffer(ctx->queue, a, &one, 1, 0, (size_t)n, 0, NULL, NULL));
  for (int rep = 0; rep < SQZ_COPY_REPS; rep++) {
    cl_ulong t0 = 0, t1 = 0;
    SQZ_CL_GOTO(ctx, st, done, clEnqueueCopyBuffer(ctx->queue, a, b, 0, 0, (size_t)n, 0, NULL, &ev));
    SQZ_CL_GOTO(ctx, st, done, clWaitForEvents(1, &ev));
    SQZ_CL_GOTO(ctx, st, done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    SQZ_CL_GOTO(ctx, st, done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    clReleaseEvent(ev);
    ev = NULL;
    double bw = t1 > t0 ? 2.0 * (double)n / (1e-9 * (double)(t1 - t0)) : 0.0;
    if (rep > 0 && bw > *best) *best = bw;
  }
done:
  if (ev) clReleaseEvent(ev);
  if (a) clReleaseMemObject(a);
  if (b) clReleaseMemObject(b);
  return st;
}

/* Best bandwidth of memcpy between two host buffers of n bytes. */
static int sqz__copy_host(sqz_context *ctx, uint64_t n, double *best) {
  unsigned char *a = malloc((size_t)n), *b = malloc((size_t)n);
  int st = a && b ? SQZ_OK
                  : sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "two host buffers of %llu bytes for the copy bandwidth",
                              (unsigned long long)n);
  if (st == SQZ_OK) {
    memset(a, 1, (size_t)n);
    memset(b, 0, (size_t)n);
  }
  for (int rep = 0; st == SQZ_OK && rep < SQZ_COPY_REPS; rep++) {
    double t0 = sqz__now();
    memcpy(b, a, (size_t)n);
    double t = sqz__now() - t0, bw = t > 0 ? 2.0 * (double)n / t : 0.0;
    if (rep > 0 && bw > *best && b[n / 2] == 1) *best = bw;
  }
  free(a);
  free(b);
  return st;
}

int sqz_bench_copy_bandwidth(sqz_context *ctx, uint64_t max_bytes, double *bytes_per_s, uint64_t *bytes_used) {
  if (!ctx || !bytes_per_s) return SQZ_ERR_INVALID_ARGUMENT;
  int cl = ctx->backend == SQZ_BACKEND_OPENCL;
  uint64_t n = max_bytes ? max_bytes : (uint64_t)1 << (cl ? 30 : 28);
  while (n > 1 && (n > ctx->max_alloc || n > ctx->global_mem / 4)) n >>= 1;
  *bytes_per_s = 0.0;
  if (bytes_used) *bytes_used = n;
  return cl ? sqz__copy_cl(ctx, n, bytes_per_s) : sqz__copy_host(ctx, n, bytes_per_s);
}

int sqz_bench_simplex_touch(sqz_field *field, int accumulate, uint64_t steps) {
  if (!field) return SQZ_ERR_INVALID_ARGUMENT;
  return sqz__simplex_touch(field, accumulate, steps);
}

int sqz_bench_fractal_maps(sqz_context *ctx, const sqz_domain *dom, uint32_t level, const char *map, uint64_t tile0,
                           uint64_t count, uint64_t *checksum, double *kernel_s) {
  if (!ctx || !dom || !map) return SQZ_ERR_INVALID_ARGUMENT;
  const sqz_map_info *m = sqz__map_find(map);
  if (!m || !(m->families & SQZ_FAMILY_FRACTAL) || !m->backend || strcmp(m->backend, "cuda") != 0) {
    char maps[64];
    sqz__map_names(SQZ_FAMILY_FRACTAL, 2, "cuda", 1, ", ", " or ", maps, sizeof maps);
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "map '%s' is not a cuda tile map (%s)", map, maps);
  }
  if (dom->kind != SQZ_DOMAIN_FRACTAL || level > (uint32_t)dom->fr.r)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "tile maps run on the grid levels 0..R of a fractal, not level %u "
                     "of %s", level, dom->spec);
  uint64_t sum = 0;
  double s = 0.0;
  int st = sqz__cuda_maps(ctx, &dom->fr, level, strcmp(map, "mma") == 0, tile0, count, NULL, &sum, &s);
  if (checksum) *checksum = sum;
  if (kernel_s) *kernel_s = s;
  return st;
}

int sqz_bench_random_points(uint64_t n, uint64_t seed, float *xy) {
  if (!xy && n) return SQZ_ERR_INVALID_ARGUMENT;
  for (uint64_t i = 0; i < 2 * n; i++) xy[i] = (float)(sqz_mix64(seed + i) >> 40) / 16777216.0f * 1000.0f;
  return SQZ_OK;
}
