/* cpu_ops.c — the cpu backend's operations table: host memory, the built-in updates as C functions, and the reference engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cpu/cpu_engine.h"
#include "simplex/simplex_plan.h"
#include "sqz_common.h"
#include "sqz_heat.h"
#include "sqz_rule.h"

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
  ctx->compute_units = 1;
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

static int cpu_alloc(sqz_context *ctx, uint64_t bytes, sqz_mem *out) {
  *out = NULL;
  if (bytes > ctx->max_alloc || bytes > SIZE_MAX)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "a buffer of %llu bytes is needed but the host has %llu bytes",
                     (unsigned long long)bytes, (unsigned long long)ctx->max_alloc);
  *out = calloc(1, bytes ? (size_t)bytes : 1);
  if (!*out)
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "allocating %llu bytes of host memory failed", (unsigned long long)bytes);
  return SQZ_OK;
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

static int cpu_touch(sqz_field *f, int accumulate, uint64_t steps) {
  return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "the map and accumulate workloads run on the opencl backend");
}

static int cpu_tile_maps(sqz_context *ctx, const sqz_fractal *fr, uint32_t level, const char *map, uint64_t tile0,
                         uint64_t count, uint64_t *checksum, double *kernel_s) {
  return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the tile maps alone are benchmarked on the cuda backend");
}

static int cpu_finish(sqz_context *ctx) { return SQZ_OK; }

/* ---- the built-in updates as C functions (the rule arithmetic of cl/sqz_rule.h, cl/sqz_heat.h) ---- */
typedef struct {
  uint32_t birth, survive;
  int nb;
} cpu_life_rule;

static void cpu_life(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  const cpu_life_rule *r = user;
  const unsigned char *v = nb;
  uint32_t live = 0;
  for (int i = 0; i < r->nb; i++) live += v[i]; /* Life states are 0 and 1: the sum counts (cl/rule_life.cl) */
  *(unsigned char *)out = (unsigned char)SQZ_APPLY_RULE(*(const unsigned char *)self, live, r->birth, r->survive);
}

SQZ_HEAT_DEFINE(cpu_heat_f32_fn, float)
SQZ_HEAT_DEFINE(cpu_heat_f64_fn, double)

static void cpu_heat_f32(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  float s, a, v[26], r;
  memcpy(&s, self, sizeof s);
  memcpy(&a, param, sizeof a);
  memcpy(v, nb, (size_t)*(const int *)user * sizeof *v);
  r = cpu_heat_f32_fn(s, v, present, a, *(const int *)user == 8 ? 2 : 3);
  memcpy(out, &r, sizeof r);
}

static void cpu_heat_f64(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  double s, a, v[26], r;
  memcpy(&s, self, sizeof s);
  memcpy(&a, param, sizeof a);
  memcpy(v, nb, (size_t)*(const int *)user * sizeof *v);
  r = cpu_heat_f64_fn(s, v, present, a, *(const int *)user == 8 ? 2 : 3);
  memcpy(out, &r, sizeof r);
}

static int cpu_stencil(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq) {
  sqz_context *ctx = f->ctx;
  int est = sqz__enqueue_sync_only(ctx, enq);
  if (est != SQZ_OK) return est;
  if (u->kind == SQZ_UPDATE_CL || u->kind == SQZ_UPDATE_LIFE_BODY)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                     "an OpenCL C update needs an OpenCL device; the cpu backend takes a C function (sqz_stencil_step_fn)");
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) { /* the map does not change the result here, but it must be valid */
    sqz_simplex_plan plan;
    int st = sqz__simplex_plan(ctx, f->dom->dims, f->dom->side, f->map, f->block, 0, &plan);
    if (st != SQZ_OK) return st;
    sqz__simplex_plan_free(&plan);
  }
  int nbn = f->dom->dims == 2 ? 8 : 26;
  cpu_life_rule life = {u->birth, u->survive, nbn};
  sqz_cpu_update cu = {sqz_type_size(f->type), u->fn, u->user, NULL, sqz__update_wants_present(u)};
  if (u->kind == SQZ_UPDATE_LIFE) {
    cu.fn = cpu_life;
    cu.user = &life;
  } else if (u->kind == SQZ_UPDATE_HEAT) {
    cu.fn = f->type == SQZ_F64 ? cpu_heat_f64 : cpu_heat_f32;
    cu.user = &nbn;
  }
  size_t ps = f->type == SQZ_F64 ? sizeof(double) : sizeof(float);
  unsigned char *param = calloc(u->n_param ? u->n_param : 1, ps);
  if (!param) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  for (size_t i = 0; i < u->n_param; i++) {
    float v = (float)u->param[i];
    if (ps == sizeof(double)) memcpy(param + i * ps, &u->param[i], ps);
    else memcpy(param + i * ps, &v, ps);
  }
  cu.param = param;
  int st = sqz__field_ensure_pair(f);
  double t0 = sqz__now();
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    const unsigned char *src = f->mem[f->cur];
    unsigned char *dst = f->mem[1 - f->cur];
    st = f->dom->kind == SQZ_DOMAIN_FRACTAL ? sqz__cpu_step_fractal(f, &cu, src, dst)
                                             : sqz__cpu_step_simplex(f, &cu, src, dst);
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  ctx->kernel_s += sqz__now() - t0;
  free(param);
  return st;
}

static int cpu_fill_random(sqz_field *f, uint64_t threshold, uint64_t seed) {
  sqz__host_fill(f, f->mem[f->cur], 0, threshold, seed);
  return SQZ_OK;
}

SQZ_BACKEND_TABLE(sqz__cpu_ops, "cpu", 1, 1, cpu_open, cpu_close, cpu_list, cpu_accepts, cpu_alloc, cpu_free,
                  cpu_upload, cpu_download, cpu_zero, cpu_finish, cpu_stencil, cpu_fill_random, sqz__cpu_reduce,
                  sqz__cpu_edm, sqz__cpu_copy_rate, cpu_touch,
                  cpu_tile_maps);
