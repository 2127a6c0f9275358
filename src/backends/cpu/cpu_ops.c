/* cpu_ops.c — the cpu backend's operations table: host memory, fills, copies and the entries around the reference engine (cpu_paths.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cpu/cpu_bits.h"
#include "core/engine_report.h"
#include "layouts/bits/bits.h"
#include "backends/cpu/cpu_engine.h"
#include "core/field_parts.h"

static uint64_t cpu_host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return (pages > 0 && size > 0) ? (uint64_t)pages * (uint64_t)size : 0;
}

static int cpu_open(sqz_context *ctx, const char *device) {
  snprintf(ctx->device_name, sizeof ctx->device_name, "sqz CPU reference");
  snprintf(ctx->platform_name, sizeof ctx->platform_name, "sqz");
  snprintf(ctx->driver_version, sizeof ctx->driver_version, "%s", SQZ_VERSION_STRING);
  snprintf(ctx->c_version, sizeof ctx->c_version, "C11");
  ctx->global_mem = ctx->max_alloc = cpu_host_memory();
  ctx->max_work_group = 1;
#ifdef _OPENMP
  ctx->compute_units = (uint64_t)omp_get_max_threads(); /* the engine's threads (OMP_NUM_THREADS) */
#else
  ctx->compute_units = 1;
#endif
  return SQZ_OK;
}

static void cpu_close(sqz_context *ctx) {}

static void cpu_list(sqz_device_sink sink, void *list) {
  sqz_context ctx;
  memset(&ctx, 0, sizeof ctx);
  cpu_open(&ctx, NULL);
  sqz_device_info d = {"0", ctx.platform_name, ctx.device_name, "CPU", ctx.c_version, ctx.driver_version,
                       ctx.compute_units, ctx.global_mem, ctx.max_alloc, ctx.max_work_group};
  sink(list, &d);
}

static int cpu_accepts(sqz_context *ctx, const sqz_domain *dom, sqz_type type, sqz_layout_id layout) { return SQZ_OK; }

/* A state buffer in host memory, checked against what the host can still give (sqz__host_available:
 * calloc alone would succeed on an overcommitting system and the process be killed when the pages
 * are touched). The front end checks the pair before the first buffer (src/core/field.c). */
static int cpu_alloc(sqz_context *ctx, uint64_t bytes, sqz_mem *out) {
  *out = NULL;
  int st = sqz__host_check(ctx, bytes, "a state buffer of the cpu backend");
  if (st == SQZ_OK && (bytes > ctx->max_alloc || bytes > SIZE_MAX))
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "a buffer of %llu bytes is needed but the host has %llu bytes",
                     (unsigned long long)bytes, (unsigned long long)ctx->max_alloc);
  return st == SQZ_OK ? sqz__host_alloc(ctx, bytes, 1, out, "a state buffer of the cpu backend") : st;
}

static void cpu_free(sqz_context *ctx, sqz_mem mem) { free(mem); }

static int cpu_upload(sqz_context *ctx, sqz_mem dst, uint64_t offset, const void *src, uint64_t bytes) {
  memcpy((unsigned char *)dst + offset, src, (size_t)bytes);
  return SQZ_OK;
}

static int cpu_download(sqz_context *ctx, void *dst, sqz_mem src, uint64_t offset, uint64_t bytes) {
  memcpy(dst, (const unsigned char *)src + offset, (size_t)bytes);
  return SQZ_OK;
}

static int cpu_zero(sqz_context *ctx, sqz_mem mem, uint64_t bytes) {
  memset(mem, 0, (size_t)bytes);
  return SQZ_OK;
}

#define SQZ_COPY_REPS 6 /* the first copy is a warm-up */

/* Best bandwidth of memcpy between two host buffers of n bytes. */
int sqz__cpu_copy_rate(sqz_context *ctx, uint64_t n, double *best) {
  unsigned char *a = NULL, *b = NULL;
  int st = sqz__host_check(ctx, 2 * n, "the copy bandwidth (two host buffers of %llu bytes)", (unsigned long long)n);
  if (st == SQZ_OK) st = sqz__host_alloc(ctx, n, 0, (void **)&a, "the first buffer of the copy bandwidth");
  if (st == SQZ_OK) st = sqz__host_alloc(ctx, n, 0, (void **)&b, "the second buffer of the copy bandwidth");
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

static int cpu_touch(sqz_field *f, int accumulate, uint64_t steps) {
  return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "the map and accumulate workloads run on the opencl backend");
}

static int cpu_tile_maps(sqz_context *ctx, const sqz_fractal *fr, uint32_t level, const char *map, uint64_t tile0,
                         uint64_t count, uint64_t *checksum, double *kernel_s) {
  return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the tile maps alone are benchmarked on the cuda backend");
}

static int cpu_finish(sqz_context *ctx) { return SQZ_OK; }

static int cpu_gather(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *out) {
  const unsigned char *m = mem;
  unsigned char *o = out;
  for (uint64_t i = 0; i < n; i++) {
    if (idx[i] < 0) memset(o + i * ts, 0, ts);
    else memcpy(o + i * ts, m + (uint64_t)idx[i] * ts, ts);
  }
  return SQZ_OK;
}

static int cpu_scatter(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, const void *in) {
  unsigned char *m = mem;
  const unsigned char *v = in;
  for (uint64_t i = 0; i < n; i++)
    if (idx[i] >= 0) memcpy(m + (uint64_t)idx[i] * ts, v + i * ts, ts);
  return SQZ_OK;
}

static int cpu_fill(sqz_field *f, const sqz_fill *fill) {
  if (f->layout == SQZ_LAYOUT_BITS) return sqz__cpu_bits_fill(f, sqz__bits_fill_threshold(fill), fill->seed);
  uint64_t e0, n; /* a part's own units, or the whole storage */
  sqz__own_elems(f, &e0, &n);
  sqz__host_fill_range(f, f->mem[f->cur], e0, n, fill);
  return SQZ_OK;
}

static int cpu_copy(sqz_context *ctx, sqz_mem dst, uint64_t dst_off, sqz_mem src, uint64_t src_off, uint64_t bytes) {
  if (bytes) memcpy((unsigned char *)dst + dst_off, (const unsigned char *)src + src_off, (size_t)bytes);
  return SQZ_OK;
}

static int cpu_copy_units(sqz_context *ctx, sqz_mem dst, uint64_t slot0, sqz_mem src, uint64_t g0, sqz_mem g,
                          uint64_t i0, uint64_t n, uint64_t ub) {
  (void)ctx;
  const uint64_t *gl = (const uint64_t *)g + i0;
  for (uint64_t i = 0; i < n; i++)
    memcpy((unsigned char *)dst + (slot0 + i) * ub, (const unsigned char *)src + (gl[i] - g0) * ub, (size_t)ub);
  return SQZ_OK;
}

static int cpu_stencil_part(sqz_field *view, const sqz_update *u) { return sqz__cpu_stencil(view, u, 1, NULL); }

/* Nothing to build: the stencil's checks and the second buffer (zero steps). */
static int cpu_prepare(sqz_field *f, const sqz_update *u) { return sqz__cpu_stencil(f, u, 0, NULL); }

static int cpu_observe(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc) {
  uint64_t e0, n; /* a part's own units, or the whole storage */
  sqz__own_elems(f, &e0, &n);
  sqz__obs_host_range(f, f->mem[f->cur], e0, n, req, acc);
  return SQZ_OK;
}

SQZ_BACKEND_TABLE(sqz__cpu_ops, "cpu", 1, 1, cpu_open, cpu_close, cpu_list, cpu_accepts, cpu_alloc, cpu_free,
                  cpu_upload, cpu_download, cpu_zero, cpu_finish, cpu_gather, cpu_scatter, sqz__cpu_stencil, cpu_fill, sqz__cpu_reduce,
                  sqz__cpu_edm, sqz__cpu_copy_rate, cpu_touch,
                  cpu_tile_maps, cpu_copy, cpu_copy_units, cpu_stencil_part, cpu_observe, cpu_prepare, &sqz__cpu_paths);
