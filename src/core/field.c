/* field.c — field creation and reference counting, storage buffers, and layout-independent host transfers and copies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/engine_paths.h"
#include "core/field_parts.h"

static int sqz__alloc_storage(sqz_field *f, int which) {
  sqz_context *ctx = f->ctx;
  uint64_t bytes = sqz__layout_of(f)->bit_cells ? sqz__elems_bytes(f, f->elems) : 0;
  if (!sqz__layout_of(f)->bit_cells && !sqz__checked_mul(f->elems, sqz_type_size(f->type), &bytes))
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s in layout %s: storage size overflows 64 bits", f->dom->spec,
                     f->layout_str);
  uint64_t total = bytes * (uint64_t)(which + 1); /* the ping-pong buffer doubles the state */
  if (ctx->ops->host_memory && which == 0) { /* host buffers: a step needs the pair, so both must fit now */
    if (bytes > UINT64_MAX / 2)
      return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s in layout %s: two state buffers overflow 64 bits", f->dom->spec,
                       f->layout_str);
    int st = sqz__host_check(ctx, 2 * bytes, "%s in layout %s (two state buffers of %llu bytes)", f->dom->spec,
                             f->layout_str, (unsigned long long)bytes);
    if (st != SQZ_OK) return st;
  }
  if (bytes <= ctx->max_alloc && total > ctx->global_mem)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s in layout %s needs %llu bytes in %d buffers but %s has %llu bytes",
                     f->dom->spec, f->layout_str, (unsigned long long)total, which + 1, ctx->device_name,
                     (unsigned long long)ctx->global_mem);
  return ctx->ops->alloc(ctx, bytes, &f->mem[which]);
}

/* f's layout, storage geometry and layout name on f->dom and f->ctx (f->type set; a NULL ctx: no
 * backend to accept it, the shape alone). */
static int sqz__field_shape(sqz_field *f, const char *layout) {
  sqz_context *ctx = f->ctx;
  int st = sqz__parse_layout(ctx, f->dom, layout, &f->layout, &f->layout_rho);
  const sqz_layout_row *row = st == SQZ_OK ? sqz__layout_of(f) : NULL;
  if (st == SQZ_OK && row->bit_cells && f->type != SQZ_U8)
    st = sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "layout %s holds two-state cells (u8 values 0 and 1), not %s cells",
                   row->name, f->type == SQZ_I32   ? "i32"
                              : f->type == SQZ_F32 ? "f32"
                              : f->type == SQZ_F64 ? "f64"
                                                   : "unknown");
  if (st == SQZ_OK && ctx) st = ctx->ops->accepts(ctx, f->dom, f->type, f->layout);
  if (st == SQZ_OK) st = sqz__layout_geometry(f->dom, f->layout, f->layout_rho, &f->elems, &f->width, &f->height);
  if (st != SQZ_OK) return st;
  const char *colon = strchr(row->name, ':'); /* a pattern (block:RHO): its prefix and the argument */
  if (colon)
    snprintf(f->layout_str, sizeof f->layout_str, "%.*s%u", (int)(colon - row->name + 1), row->name, f->layout_rho);
  else snprintf(f->layout_str, sizeof f->layout_str, "%s", row->name);
  return SQZ_OK;
}

/* 1 when f's layout parts on f's family (sqz__parts_unit), without a failure detail. */
static int sqz__layout_parts(const sqz_field *f) { return sqz__layout_on(f)->parts != SQZ_PARTS_NONE; }

/* The storage of a new field: one buffer, or `parts` parts (SQZ_PARTS_AUTO: one buffer when it
 * fits the allocation limit of the device, else the automatic count) on n_ctx contexts. */
#define SQZ_PARTS_AUTO UINT64_MAX
static int sqz__field_storage(sqz_field *f, uint64_t parts, sqz_context *const *ctxs, size_t n_ctx,
                              const sqz_exchange_ops *xchg) {
  sqz_context *ctx = f->ctx;
  if (parts == SQZ_PARTS_AUTO) {
    uint64_t bytes = 0; /* an overflow: one buffer, whose allocation says why not */
    parts = sqz__layout_parts(f) && sqz__checked_mul(f->elems, sqz_type_size(f->type), &bytes) &&
                    sqz__field_storage_bytes(f) > sqz__parts_alloc_limit(ctx) ? 0 : 1;
    if (parts == 1 && n_ctx == 0) return sqz__alloc_storage(f, 0);
  }
  int st = SQZ_OK;
  if (parts == 0) {
    uint64_t limit = UINT64_MAX, mem = 0, bytes = 0;
    for (size_t i = 0; i < (n_ctx ? n_ctx : 1); i++) {
      sqz_context *c = n_ctx ? ctxs[i] : ctx;
      uint64_t l = sqz__parts_alloc_limit(c);
      limit = l < limit ? l : limit;
      mem = mem + c->global_mem < mem ? UINT64_MAX : mem + c->global_mem;
    }
    if (!sqz__checked_mul(f->elems, sqz_type_size(f->type), &bytes) || (bytes = sqz__field_storage_bytes(f)) > mem / 2)
      /* no split helps */
      return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s in layout %s needs %s%llu bytes in two state buffers but %s %llu bytes",
                       f->dom->spec, f->layout_str, bytes > UINT64_MAX / 2 ? "more than " : "",
                       (unsigned long long)(bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * bytes),
                       n_ctx > 1 ? "the devices have" : "the device has", (unsigned long long)mem);
    st = sqz__parts_auto(f, limit, &parts, NULL);
    if (st == SQZ_OK && n_ctx > parts) parts = n_ctx; /* a part per device at least */
  }
  if (st == SQZ_OK) st = ctx->ops->copy(ctx, NULL, 0, NULL, 0, 0); /* the backend holds parts */
  if (st == SQZ_OK) st = sqz__field_parts_build(f, parts, ctxs, n_ctx, xchg);
  return st;
}

int sqz__field_shell(sqz_domain *dom, sqz_type type, const char *layout, sqz_field **out) {
  if (!out) return SQZ_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (!dom) return SQZ_ERR_INVALID_ARGUMENT;
  sqz_context *ctx = dom->ctx;
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "fields need a domain parsed with a context");
  if (sqz_type_size(type) == 0) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "unknown field type %d", (int)type);
  sqz_field *f = sqz__calloc(1, sizeof *f);
  if (!f) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  f->dom = dom;
  f->ctx = ctx;
  f->type = type;
  f->rep = &f->report;
  atomic_init(&f->refs, 1u);
  sqz_domain_retain(dom); /* the field keeps its domain and its context alive */
  sqz_context_retain(ctx);
  f->sel = sqz__engine_cache_new();
  int st = f->sel ? sqz__field_shape(f, layout) : sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  if (st != SQZ_OK) {
    sqz_field_release(f);
    return st;
  }
  *out = f;
  return SQZ_OK;
}

/* xchg NULL: every part here (ctxs all set); else parts whose ctxs entry is NULL are held elsewhere. */
static int sqz__field_new(sqz_domain *dom, sqz_context *const *ctxs, size_t n_ctx, sqz_type type, const char *layout,
                          uint64_t parts, const sqz_exchange_ops *xchg, sqz_field **out) {
  if (!out) return SQZ_ERR_INVALID_ARGUMENT;
  *out = NULL;
  sqz_field *f = NULL;
  int st = sqz__field_shell(dom, type, layout, &f);
  if (st == SQZ_OK) {
    sqz_context *ctx = f->ctx;
    for (size_t i = 0; st == SQZ_OK && i < n_ctx; i++)
      if ((!ctxs[i] && !xchg) || (ctxs[i] && ctxs[i]->ops != ctx->ops))
        st = sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "device %zu of a field in parts is %s (the domain's backend is %s)",
                       i, ctxs[i] ? ctxs[i]->ops->name : "NULL", ctx->ops->name);
    sqz__lock(ctx);
    if (st == SQZ_OK) st = sqz__field_storage(f, parts, ctxs, n_ctx, xchg);
    if (st == SQZ_OK) st = sqz__finish(ctx);
    sqz__unlock(ctx);
  }
  if (st != SQZ_OK) {
    sqz_field_release(f);
    return st;
  }
  *out = f;
  return SQZ_OK;
}

int sqz_field_create(sqz_domain *dom, sqz_type type, const char *layout, sqz_field **out) {
  return sqz__field_new(dom, NULL, 0, type, layout, SQZ_PARTS_AUTO, NULL, out);
}

/* sqz_field_parts_auto; one_device 0: without the check that the pairs fit one device's memory. */
static int sqz__parts_count(sqz_domain *dom, sqz_context *ctx, sqz_type type, const char *layout, int one_device,
                            uint64_t *parts, uint64_t *halo_bytes) {
  sqz_field f; /* the shape of the field, no storage */
  memset(&f, 0, sizeof f);
  f.dom = dom;
  f.ctx = ctx;
  f.type = type;
  *parts = 1;
  *halo_bytes = 0;
  uint64_t bytes = 0;
  int st = sqz__field_shape(&f, layout);
  uint64_t limit = sqz__parts_alloc_limit(ctx);
  if (st != SQZ_OK || (sqz__checked_mul(f.elems, sqz_type_size(type), &bytes) && (bytes = sqz__field_storage_bytes(&f)) <= limit))
    return st;
  if (!sqz__layout_parts(&f) || bytes == 0 || (one_device && bytes > ctx->global_mem / 2))
    *parts = 0; /* the layout does not part, or the pair would not fit the device at all */
  else st = sqz__parts_auto(&f, limit, parts, halo_bytes);
  return st;
}

int sqz_field_parts_auto(sqz_domain *dom, sqz_context *ctx, sqz_type type, const char *layout, uint64_t *parts,
                         uint64_t *halo_bytes) {
  if (!dom || !ctx || !parts || !halo_bytes || sqz_type_size(type) == 0)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_parts_auto: a NULL argument or an unknown type");
  return sqz__parts_count(dom, ctx, type, layout, 1, parts, halo_bytes);
}

int sqz_field_parts_bytes(sqz_domain *dom, sqz_type type, const char *layout, uint64_t parts, uint64_t *part_bytes,
                          uint64_t *halo_bytes) {
  if (!dom || !part_bytes || !halo_bytes || sqz_type_size(type) == 0)
    return sqz__fail(dom ? dom->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_parts_bytes: a NULL argument or an unknown type");
  sqz_field f; /* the shape of the field, no storage */
  memset(&f, 0, sizeof f);
  f.dom = dom;
  f.ctx = dom->ctx;
  f.type = type;
  *part_bytes = *halo_bytes = 0;
  int st = sqz__field_shape(&f, layout);
  return st == SQZ_OK ? sqz__parts_sizes(&f, parts, 1, part_bytes, halo_bytes) : st;
}

int sqz__parts_fit(sqz_domain *dom, sqz_context *ctx, sqz_type type, const char *layout, uint64_t *parts) {
  uint64_t halo = 0;
  int st = sqz__parts_count(dom, ctx, type, layout, 0, parts, &halo);
  if (st == SQZ_OK && *parts == 0) *parts = 1; /* the layout does not part: creation says so */
  return st;
}

/* A part count a caller gave: UINT64_MAX is sqz_field_create's own "one buffer where it fits"
 * (SQZ_PARTS_AUTO), which it once silently became; it is no count (0 asks for the automatic one). */
static int sqz__parts_given(sqz_domain *dom, const char *fn, uint64_t parts, sqz_field **out) {
  if (out) *out = NULL;
  if (parts != SQZ_PARTS_AUTO) return SQZ_OK;
  return sqz__fail(dom ? dom->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT,
                   "%s: %llu parts: more than any field holds (0 asks for the automatic count)", fn,
                   (unsigned long long)parts);
}

int sqz_field_create_parts(sqz_domain *dom, sqz_type type, const char *layout, uint64_t parts, sqz_field **out) {
  int st = sqz__parts_given(dom, "sqz_field_create_parts", parts, out);
  return st != SQZ_OK ? st : sqz__field_new(dom, NULL, 0, type, layout, parts, NULL, out);
}

int sqz_field_create_devices(sqz_domain *dom, sqz_context *const *ctxs, size_t n_ctx, sqz_type type,
                             const char *layout, uint64_t parts, sqz_field **out) {
  if (out) *out = NULL;
  if (!ctxs || n_ctx == 0)
    return sqz__fail(dom ? dom->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_create_devices: no devices given");
  int st = sqz__parts_given(dom, "sqz_field_create_devices", parts, out);
  if (st != SQZ_OK) return st;
  return sqz__field_new(dom, ctxs, n_ctx, type, layout, parts ? parts : n_ctx, NULL, out);
}

int sqz__field_create_held(sqz_domain *dom, sqz_context *const *ctxs, uint64_t parts, sqz_type type, const char *layout,
                           const sqz_exchange_ops *xchg, sqz_field **out) {
  return sqz__field_new(dom, ctxs, (size_t)parts, type, layout, parts, xchg, out);
}

uint64_t sqz_field_parts(const sqz_field *f) { return !f ? 0 : f->parts ? f->parts->parts : 1; }
uint64_t sqz_field_halo_bytes(const sqz_field *f) { return f ? sqz__parts_halo_bytes(f) : 0; }

int sqz_field_parts_times(const sqz_field *f, sqz_parts_times *t) {
  if (!f || !t) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_parts_times: %s is NULL", f ? "times" : "field");
  memset(t, 0, sizeof *t);
  const sqz_parts_clock *c = f->parts ? &f->parts->clock : NULL;
  if (c) *t = (sqz_parts_times){c->exchange_s, c->wait_s, c->inner_s, c->border_s, c->steps, c->exchanges};
  return SQZ_OK;
}

void sqz_field_retain(sqz_field *f) {
  if (f) atomic_fetch_add_explicit(&f->refs, 1u, memory_order_relaxed);
}

void sqz_field_release(sqz_field *f) {
  if (!f || atomic_fetch_sub_explicit(&f->refs, 1u, memory_order_acq_rel) != 1u) return;
  sqz_context *ctx = f->ctx;
  sqz_domain *dom = f->dom;
  sqz__lock(ctx);
  for (int i = 0; i < 2; i++)
    if (f->mem[i]) ctx->ops->free(ctx, f->mem[i]);
  if (f->user_mem) ctx->ops->free(ctx, f->user_mem); /* the reference taken on the caller's buffer */
  sqz__field_parts_free(f);
  sqz__unlock(ctx);
  sqz__opt_free(f->opts);
  free(f->opts);
  sqz__engine_cache_free(f->sel);
  free(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}

sqz_type sqz_field_type(const sqz_field *f) { return f ? f->type : (sqz_type)0; }
sqz_domain *sqz_field_domain(const sqz_field *f) { return f ? f->dom : NULL; }
const char *sqz_field_layout(const sqz_field *f) { return f ? f->layout_str : ""; }
uint64_t sqz_field_bytes(const sqz_field *f) {
  if (!f) return 0;
  sqz__lock(f->ctx); /* a step on another thread may be adding the second buffer */
  int n = f->mem[1] ? 2 : 1;
  uint64_t bytes = 0;
  for (uint64_t p = 0; f->parts && p < f->parts->parts; p++) { /* own units and halos */
    const sqz_field_part *pt = &f->parts->part[p];
    bytes += (uint64_t)(pt->mem[1] ? 2 : 1) * sqz__elems_bytes(f, (pt->u1 - pt->u0 + pt->n_halo) * f->parts->unit);
  }
  sqz__unlock(f->ctx);
  return f->parts ? bytes : (uint64_t)n * sqz__field_storage_bytes(f);
}

int sqz_field_set_block(sqz_field *f, uint32_t rho) {
  if (!f) return sqz__null_arg(NULL, "sqz_field_set_block");
  if (rho > 1024) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "block side %u is larger than 1024", rho);
  if (f->parts && f->dom->kind == SQZ_DOMAIN_FRACTAL && rho != f->block)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s in %llu parts: the tile side is %u, fixed by the parts", f->dom->spec,
                     (unsigned long long)f->parts->parts, f->block);
  sqz__lock(f->ctx);
  f->block = rho;
  sqz__unlock(f->ctx);
  return SQZ_OK;
}

int sqz__field_ensure_pair(sqz_field *f) {
  if (f->parts) return sqz__field_parts_pairs(f);
  if (f->mem[1] || f->part) return SQZ_OK; /* a part's view: its pair is made before its steps */
  return sqz__alloc_storage(f, 1);
}

int sqz__field_settle(sqz_field *f, int wait) {
  if (!f->user_mem || f->cur == 0) return SQZ_OK;
  int st = f->ctx->ops->copy(f->ctx, f->mem[0], 0, f->mem[1], 0, sqz__field_storage_bytes(f));
  if (st == SQZ_OK) f->cur = 0;
  return st == SQZ_OK && wait ? sqz__finish(f->ctx) : st;
}

int sqz__field_gather(sqz_field *f, int which, const int64_t *idx, uint64_t n, void *out) {
  const sqz_layout_io *io = sqz__layout_of(f)->io;
  if (io) return io->band(f, which, idx, n, out, NULL);
  if (f->parts) return sqz__store_gather(f, which, idx, n, out);
  return f->ctx->ops->gather(f->ctx, f->mem[which], sqz_type_size(f->type), idx, n, out);
}

int sqz__field_scatter(sqz_field *f, int which, const int64_t *idx, uint64_t n, const void *in) {
  const sqz_layout_io *io = sqz__layout_of(f)->io;
  if (io) return io->band(f, which, idx, n, NULL, in);
  if (f->parts) return sqz__store_scatter(f, which, idx, n, in);
  return f->ctx->ops->scatter(f->ctx, f->mem[which], sqz_type_size(f->type), idx, n, in);
}

int sqz__field_download(sqz_field *f, void *host) {
  sqz__lock(f->ctx);
  const sqz_layout_io *io = sqz__layout_of(f)->io; /* bits: the byte view of the bits */
  int st = io ? io->download(f, host) : sqz__store_read(f, f->cur, 0, f->elems, host);
  if (st == SQZ_OK) st = sqz__store_finish(f);
  sqz__unlock(f->ctx);
  return st;
}

int sqz__field_upload(sqz_field *f, const void *host) {
  sqz__lock(f->ctx);
  const sqz_layout_io *io = sqz__layout_of(f)->io; /* bits: the byte view of the bits */
  int st = io ? io->upload(f, host) : sqz__store_write(f, f->cur, 0, f->elems, host);
  if (st == SQZ_OK) st = sqz__store_finish(f);
  sqz__unlock(f->ctx);
  return st;
}

/* Number of embedded cells (side^dims) and the matching byte count, overflow-checked. */
static int sqz__embedded_size(sqz_field *f, uint64_t *cells, uint64_t *bytes) {
  uint64_t n = f->dom->side, c = n;
  int ok = 1;
  for (int d = 1; d < f->dom->dims; d++) ok = ok && sqz__checked_mul(c, n, &c);
  ok = ok && sqz__checked_mul(c, sqz_type_size(f->type), bytes);
  if (!ok || *bytes > SIZE_MAX)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: the embedded array does not fit in memory", f->dom->spec);
  *cells = c;
  return SQZ_OK;
}

/* Checks that an embedded host array of `bytes` matches the field; *cells = side^dims. */
static int sqz__embedded_check(sqz_field *f, size_t bytes, uint64_t *cells) {
  uint64_t want;
  int st = sqz__embedded_size(f, cells, &want);
  if (st == SQZ_OK && bytes != want)
    st = sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: embedded array has %zu bytes, expected %llu",
                   f->dom->spec, bytes, (unsigned long long)want);
  return st;
}

/* Copies between storage order and the embedded array, cell by cell through the layout's
 * index map: to_store = 1 gathers embedded -> store, 0 scatters store -> embedded. */
static void sqz__transfer(const sqz_field *f, unsigned char *store, unsigned char *embedded, int to_store) {
  size_t ts = sqz_type_size(f->type);
  for (uint64_t i = 0; i < f->elems; i++) {
    uint64_t x, y, z;
    if (!sqz__layout_coords(f, i, &x, &y, &z)) continue;
    uint64_t e = (z * f->dom->side + y) * f->dom->side + x;
    if (to_store) memcpy(store + i * ts, embedded + e * ts, ts);
    else memcpy(embedded + e * ts, store + i * ts, ts);
  }
}

int sqz__is_nonzero(const unsigned char *p, size_t size) {
  for (size_t i = 0; i < size; i++)
    if (p[i]) return 1;
  return 0;
}

static void sqz__split(const sqz_field *f, uint64_t e, uint64_t *x, uint64_t *y, uint64_t *z) {
  uint64_t n = f->dom->side;
  *x = e % n;
  *y = (e / n) % n;
  *z = f->dom->dims == 3 ? e / (n * n) : 0;
}

int sqz__outside_fail(sqz_field *f, const char *path, uint64_t x, uint64_t y, uint64_t z) {
  char cell[96];
  if (f->dom->dims == 3)
    snprintf(cell, sizeof cell, "(%llu, %llu, %llu)", (unsigned long long)x, (unsigned long long)y, (unsigned long long)z);
  else snprintf(cell, sizeof cell, "(%llu, %llu)", (unsigned long long)x, (unsigned long long)y);
  return sqz__fail(f->ctx, SQZ_ERR_OUTSIDE_DOMAIN, "%s%s%s: cell %s is set but %s", path ? path : "", path ? ": " : "",
                   f->dom->spec, cell,
                   f->dom->kind == SQZ_DOMAIN_FRACTAL ? "is a hole of the fractal" : "lies outside the domain");
}

int sqz__two_state_fail(sqz_field *f, const char *path, uint64_t x, uint64_t y, uint64_t z, unsigned value) {
  return sqz__states_fail(f, path, x, y, z, value, NULL, 2);
}

int sqz__states_fail(sqz_field *f, const char *path, uint64_t x, uint64_t y, uint64_t z, unsigned value,
                     const char *rule, unsigned states) {
  uint64_t side = f->dom->side;
  char range[96] = "Life cells are 0 or 1";
  if (states > 2) snprintf(range, sizeof range, "the cells of rule '%.40s' are 0 to %u", rule, states - 1);
  char cell[128];
  if (f->dom->dims == 3)
    snprintf(cell, sizeof cell, "%llu (x %llu, y %llu, z %llu)", (unsigned long long)((z * side + y) * side + x),
             (unsigned long long)x, (unsigned long long)y, (unsigned long long)z);
  else snprintf(cell, sizeof cell, "%llu (x %llu, y %llu)", (unsigned long long)(y * side + x), (unsigned long long)x,
                (unsigned long long)y);
  return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s%s%s: cell %s holds %u; %s", path ? path : "",
                   path ? ": " : "", f->dom->spec, cell, value, range);
}

int sqz_field_write(sqz_field *f, const void *embedded, size_t bytes) {
  if (!f || !embedded) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_write");
  uint64_t cells;
  int st = sqz__embedded_check(f, bytes, &cells);
  if (st != SQZ_OK) return st;
  size_t ts = sqz_type_size(f->type);
  const unsigned char *src = embedded;
  for (uint64_t e = 0; e < cells; e++) {
    uint64_t x, y, z;
    sqz__split(f, e, &x, &y, &z);
    if (sqz__is_nonzero(src + e * ts, ts) && !sqz_domain_contains(f->dom, x, y, z)) return sqz__outside_fail(f, NULL, x, y, z);
    if (sqz__layout_of(f)->bit_cells && src[e] > 1u) return sqz__two_state_fail(f, NULL, x, y, z, src[e]);
  }
  unsigned char *store = NULL;
  st = sqz__host_alloc(f->ctx, f->elems * ts, 1, (void **)&store, "%s: the host copy of the state", f->dom->spec);
  if (st != SQZ_OK) return st;
  sqz__op_begin(f->ctx);
  sqz__transfer(f, store, (unsigned char *)src, 1);
  st = sqz__field_upload(f, store);
  free(store);
  sqz__op_end(f->ctx);
  return st;
}

int sqz_field_read(sqz_field *f, void *embedded, size_t bytes) {
  if (!f || !embedded) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_read");
  uint64_t cells;
  int st = sqz__embedded_check(f, bytes, &cells);
  if (st != SQZ_OK) return st;
  size_t ts = sqz_type_size(f->type);
  unsigned char *store = NULL;
  st = sqz__host_alloc(f->ctx, f->elems * ts, 0, (void **)&store, "%s: the host copy of the state", f->dom->spec);
  if (st != SQZ_OK) return st;
  sqz__op_begin(f->ctx);
  st = sqz__field_download(f, store);
  if (st == SQZ_OK) {
    memset(embedded, 0, bytes);
    sqz__transfer(f, store, embedded, 0);
  }
  free(store);
  sqz__op_end(f->ctx);
  return st;
}

int sqz_field_copy(sqz_field *dst, const sqz_field *src) {
  if (!dst || !src) return sqz__null_arg(dst ? dst->ctx : NULL, "sqz_field_copy");
  if (strcmp(dst->dom->spec, src->dom->spec) != 0 || dst->type != src->type)
    return sqz__fail(dst->ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_copy: %s and %s differ in domain or type",
                     dst->dom->spec, src->dom->spec);
  size_t ts = sqz_type_size(src->type);
  unsigned char *a = NULL, *b = NULL;
  int st = sqz__host_check(dst->ctx, (src->elems + dst->elems) * ts, "copying %s: the host copies of both states",
                           src->dom->spec);
  if (st == SQZ_OK) st = sqz__host_alloc(dst->ctx, src->elems * ts, 0, (void **)&a, "%s: the host copy of the source", src->dom->spec);
  if (st == SQZ_OK) st = sqz__host_alloc(dst->ctx, dst->elems * ts, 1, (void **)&b, "%s: the host copy of the target", dst->dom->spec);
  if (st == SQZ_OK) st = sqz__field_download((sqz_field *)src, a);
  for (uint64_t i = 0; st == SQZ_OK && i < dst->elems; i++) {
    uint64_t x, y, z;
    if (!sqz__layout_coords(dst, i, &x, &y, &z)) continue;
    int64_t j = sqz__layout_index(src, x, y, z);
    if (j >= 0) memcpy(b + i * ts, a + (uint64_t)j * ts, ts);
  }
  if (st == SQZ_OK) st = sqz__field_upload(dst, b);
  free(a);
  free(b);
  return st;
}
