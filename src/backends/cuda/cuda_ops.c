/* cuda_ops.c — the cuda backend's operations table: Life on block:RHO fractal fields with tensor-core or ALU tile maps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_engine.h"
#include "backends/cuda/cuda_fractal.h"
#include "core/engine_paths.h"
#include "core/gather_staged.h"

static void cuda_list(sqz_device_sink sink, void *list) {
  sqz_context *ctx = sqz__context_new(&sqz__cuda_ops);
  if (!ctx) return;
  if (sqz__cuda_open(ctx, NULL) == SQZ_OK) {
    sqz_device_info d = {"0", ctx->platform_name, ctx->device_name, "GPU", ctx->c_version, ctx->driver_version,
                         ctx->compute_units, ctx->global_mem, ctx->max_alloc, ctx->max_work_group};
    sink(list, &d);
  }
  sqz__cuda_close(ctx);
  sqz__context_free(ctx);
}

static int cuda_accepts(sqz_context *ctx, const sqz_domain *dom, sqz_type type, sqz_layout_id layout) {
  if (layout == SQZ_LAYOUT_BITS)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "layout bits runs on the opencl and cpu backends, not on cuda");
  if (dom->kind != SQZ_DOMAIN_FRACTAL)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the cuda backend computes on fractal domains only (%s)", dom->spec);
  return SQZ_OK;
}

/* Makes the context's CUDA context current on the calling thread: a sqz context may be used from
 * any thread (include/sqz.h), a CUDA context is current per thread. Every entry below calls it. */
static sqz_context *cuda_bind(sqz_context *ctx) {
  sqz_cuda *cu = SQZ_CU(ctx);
  if (cu && cu->has_ctx) cu->api.cuCtxSetCurrent(cu->ctx);
  return ctx;
}

static int cuda_alloc(sqz_context *ctx, uint64_t bytes, sqz_mem *out) {
  CUdeviceptr p = 0;
  cuda_bind(ctx);
  int st = sqz__cu_alloc(ctx, bytes, &p);
  *out = (sqz_mem)(uintptr_t)p;
  return st;
}
static void cuda_free(sqz_context *ctx, sqz_mem mem) { sqz__cu_free(cuda_bind(ctx), SQZ_CU_PTR(mem)); }
static int cuda_upload(sqz_context *ctx, sqz_mem dst, uint64_t offset, const void *src, uint64_t bytes) {
  return sqz__cu_upload(cuda_bind(ctx), SQZ_CU_PTR(dst) + offset, src, bytes);
}
static int cuda_download(sqz_context *ctx, void *dst, sqz_mem src, uint64_t offset, uint64_t bytes) {
  return sqz__cu_download(cuda_bind(ctx), dst, SQZ_CU_PTR(src) + offset, bytes);
}
static int cuda_zero(sqz_context *ctx, sqz_mem mem, uint64_t bytes) { return sqz__cu_zero(cuda_bind(ctx), SQZ_CU_PTR(mem), bytes); }

/* Gather and scatter without a kernel: the band's span in one transfer when dense, else run by run
 * (src/core/gather_staged.c). */
static int cuda_span(sqz_context *ctx, sqz_mem mem, uint64_t offset, void *host, uint64_t bytes, int to_host) {
  return to_host ? cuda_download(ctx, host, mem, offset, bytes) : cuda_upload(ctx, mem, offset, host, bytes);
}

static int cuda_gather(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *out) {
  return sqz__gather_staged(ctx, mem, ts, idx, n, out, 0, cuda_span);
}

static int cuda_scatter(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, const void *in) {
  return sqz__gather_staged(ctx, mem, ts, idx, n, (void *)in, 1, cuda_span);
}

static int cuda_finish(sqz_context *ctx) { return SQZ_OK; } /* every cuda operation waits for itself */

static int cuda_stencil(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq) {
  int st = sqz__enqueue_sync_only(f->ctx, enq);
  if (st != SQZ_OK) return st;
  if (u->kind != SQZ_UPDATE_LIFE)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED,
                     "the cuda backend runs Life-like B/S and Generations rules only; other updates run on the opencl and cpu backends");
  cuda_bind(f->ctx);
  return sqz__engine_step(f, u, steps);
}

static int cuda_life_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cuda_life_fractal(f, u->birth, u->survive, u->states, steps);
}

/* The cuda backend's one path: Life-like and Generations rules (the stencil entry refuses other updates). */
static const sqz_path_row sqz__cuda_rows[] = {
    {"cuda-life-block", SQZ_PATH_FRACTAL | SQZ_PATH_BYTES, "Life-like and Generations rules, layout block:RHO", NULL,
     cuda_life_run, NULL},
};
static const sqz_path_table sqz__cuda_paths = {1, sqz__cuda_rows};

static int cuda_fill(sqz_field *f, const sqz_fill *fill) {
  cuda_bind(f->ctx);
  int st = fill->mode == SQZ_FILL_RANDOM ? sqz__cuda_fill_random_fractal(f, fill->threshold, fill->seed) : SQZ_ERR_UNSUPPORTED;
  if (st != SQZ_ERR_UNSUPPORTED) return st;
  size_t ts = sqz_type_size(f->type); /* other layouts, types and fills: the host fill, uploaded */
  void *store = sqz__calloc((size_t)f->elems, ts);
  if (!store)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %llu bytes", (unsigned long long)(f->elems * ts));
  sqz__host_fill_range(f, store, 0, f->elems, fill);
  st = cuda_upload(f->ctx, f->mem[f->cur], 0, store, f->elems * ts);
  free(store);
  return st;
}

/* Reductions reduce a host copy with the cpu backend's loops. */
static int cuda_reduce(sqz_context *ctx, sqz_red_op op, sqz_type type, sqz_mem mem, uint64_t n, int acc_mode,
                       sqz_red_acc *acc) {
  size_t bytes = (size_t)(n * sqz_type_size(type));
  void *copy = sqz__malloc(bytes ? bytes : 1);
  if (!copy) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for a %zu-byte copy of the field", bytes);
  int st = cuda_download(ctx, copy, mem, 0, bytes);
  if (st == SQZ_OK) st = sqz__cpu_reduce(ctx, op, type, copy, n, acc_mode, acc);
  free(copy);
  return st;
}

/* The observables on a host copy too (the cuda backend holds one buffer, no parts). */
static int cuda_observe(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc) {
  size_t bytes = (size_t)(f->elems * sqz_type_size(f->type));
  void *copy = sqz__malloc(bytes ? bytes : 1);
  if (!copy) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for a %zu-byte copy of the field", bytes);
  int st = cuda_download(f->ctx, copy, f->mem[f->cur], 0, bytes);
  if (st == SQZ_OK) sqz__obs_host_range(f, copy, 0, f->elems, req, acc);
  free(copy);
  return st;
}

static int cuda_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out) {
  return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "sqz_edm runs on the opencl and cpu backends, not on cuda");
}

static int cuda_touch(sqz_field *f, int accumulate, uint64_t steps) {
  return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "the map and accumulate workloads run on the opencl backend");
}

static int cuda_tile_maps(sqz_context *ctx, const sqz_fractal *fr, uint32_t level, const char *map, uint64_t tile0,
                          uint64_t count, uint64_t *checksum, double *kernel_s) {
  return sqz__cuda_maps(cuda_bind(ctx), fr, level, strcmp(map, "mma") == 0, tile0, count, NULL, checksum, kernel_s);
}

/* Fields in parts: the cuda engine has no unit remap (kernels address the whole field). */
static int cuda_copy(sqz_context *ctx, sqz_mem dst, uint64_t dst_off, sqz_mem src, uint64_t src_off, uint64_t bytes) {
  return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                   "the cuda backend holds no fields in parts (its kernels address one buffer); use the opencl or cpu "
                   "backend for --parts, --devices or fields above the allocation limit");
}

/* The kernels are loaded at open: the stencil's checks (zero steps) and the second buffer. */
static int cuda_prepare(sqz_field *f, const sqz_update *u) {
  int st = cuda_stencil(f, u, 0, NULL);
  return st == SQZ_OK ? sqz__field_ensure_pair(f) : st;
}

static int cuda_copy_units(sqz_context *ctx, sqz_mem dst, uint64_t slot0, sqz_mem src, uint64_t g0, sqz_mem g,
                           uint64_t i0, uint64_t n, uint64_t ub) {
  (void)dst, (void)slot0, (void)src, (void)g0, (void)g, (void)i0, (void)n, (void)ub;
  return cuda_copy(ctx, NULL, 0, NULL, 0, 0);
}

static int cuda_stencil_part(sqz_field *view, const sqz_update *u) { return cuda_copy(view->ctx, NULL, 0, NULL, 0, 0); }

/* The copy floor of the cuda rows is the host's memcpy, as it was before the table. */
SQZ_BACKEND_TABLE(sqz__cuda_ops, "cuda", 0, 0, sqz__cuda_open, sqz__cuda_close, cuda_list, cuda_accepts, cuda_alloc,
                  cuda_free, cuda_upload, cuda_download, cuda_zero, cuda_finish, cuda_gather, cuda_scatter, cuda_stencil, cuda_fill,
                  cuda_reduce, cuda_edm, sqz__cpu_copy_rate, cuda_touch, cuda_tile_maps, cuda_copy, cuda_copy_units, cuda_stencil_part,
                  cuda_observe, cuda_prepare, &sqz__cuda_paths);
