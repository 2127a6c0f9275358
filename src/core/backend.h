/* backend.h — the one operations table that every backend (opencl, cpu, cuda) fills and the front end calls: in src/core, where both sides include it without climbing (the tables and their list: src/backends). */
#ifndef SQZ_BACKEND_H
#define SQZ_BACKEND_H
#include "core/sqz_internal.h"
#include "core/observe_host.h"
#include "core/reduce_acc.h"
#include "core/update.h"

/* A backend is one table of operations. The front end (src/core, src/apps, src/io) calls only
 * through ctx->ops and never names a backend; a backend never calls the front end. Every entry
 * must be filled (SQZ_BACKEND_TABLE below writes the tables with designated initialisers, and
 * test_core's backend_tables_complete checks that no entry is NULL): an operation a backend cannot do returns a named status from its own entry,
 * e.g. SQZ_ERR_UNSUPPORTED with the reason in the detail.
 *
 * A backend defines its table with SQZ_BACKEND_TABLE (below), which takes every entry as a
 * macro argument: a new backend that lacks one does not compile.
 *
 * Device memory is an opaque sqz_mem: a cl_mem (opencl), a host pointer (cpu), a CUdeviceptr
 * (cuda). Transfers and kernels may be enqueued without waiting; `finish` waits for them and
 * adds their device time to ctx->kernel_s. */
/* One device as `sqz devices` lists it (strings owned by the caller of `list`'s callback). */
typedef struct {
  const char *id, *platform, *name, *type, *c_version, *driver;
  uint64_t compute_units, global_mem, max_alloc, max_work_group;
} sqz_device_info;
typedef void (*sqz_device_sink)(void *list, const sqz_device_info *device);

/* A non-blocking stencil (sqz_life_enqueue, sqz_stencil_enqueue): the backend enqueues the steps
 * without waiting, the first launch after the n_wait events of `wait` (cl_event on opencl), and
 * stores in *done (when not NULL) an event that completes with the last step. Backends without
 * device queues (cpu, cuda) run an enqueue with neither a wait list nor `done` synchronously and
 * refuse one with either (SQZ_ERR_UNSUPPORTED, with the reason). */
typedef struct {
  uint32_t n_wait;
  const void *wait; /* n_wait events of the backend's API */
  void **done;      /* receives an event the caller releases; may be NULL */
} sqz_enqueue;

/* The check of a backend without device queues: SQZ_OK when enq is NULL or asks for neither a
 * wait list nor an event (the steps then run synchronously), else SQZ_ERR_UNSUPPORTED. */
static inline int sqz__enqueue_sync_only(sqz_context *ctx, const sqz_enqueue *enq) {
  if (!enq || (enq->n_wait == 0 && !enq->done)) return SQZ_OK;
  return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                   "the %s backend has no device queue: an enqueued step takes no wait list and gives no event "
                   "(the steps did not run; call it with n_wait = 0 and done = NULL to run them synchronously)",
                   sqz_context_backend(ctx));
}

typedef struct sqz_backend_ops {
  const char *name; /* "opencl", "cpu", "cuda": what sqz_context_backend returns */
  int fallback;     /* 1: opened when the default backend has no device (the cpu backend) */
  int host_memory;  /* 1: a sqz_mem is a host pointer (reductions of host arrays need no copy) */
  /* Opens the device named by `device` (NULL: the default) and fills ctx's device fields;
   * SQZ_ERR_BACKEND_UNAVAILABLE with the reason when the backend cannot run here. */
  int (*open)(sqz_context *ctx, const char *device);
  void (*close)(sqz_context *ctx); /* releases what open made; safe after a failed open */
  /* Reports every device of the backend to sink (none when it cannot run here). */
  void (*list)(sqz_device_sink sink, void *list);
  /* May this backend hold a field of this domain, type and layout? (checked at creation) */
  int (*accepts)(sqz_context *ctx, const sqz_domain *dom, sqz_type type, sqz_layout_id layout);
  int (*alloc)(sqz_context *ctx, uint64_t bytes, sqz_mem *out); /* zeroed memory */
  void (*free)(sqz_context *ctx, sqz_mem mem);                  /* NULL is a no-op */
  int (*upload)(sqz_context *ctx, sqz_mem dst, uint64_t offset, const void *src, uint64_t bytes);
  int (*download)(sqz_context *ctx, void *dst, sqz_mem src, uint64_t offset, uint64_t bytes);
  int (*zero)(sqz_context *ctx, sqz_mem mem, uint64_t bytes);
  int (*finish)(sqz_context *ctx);
  /* n cells of ts bytes between mem and a host array through storage indices (-1: a cell outside
   * the domain, read as 0 and never written): bands of the embedding without the whole array. */
  int (*gather)(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *out);
  int (*scatter)(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, const void *in);
  /* The stencil engine: `steps` applications of update u to f (ping-pong, f->cur flips).
   * enq NULL: the caller waits with `finish`; otherwise a non-blocking call (sqz_enqueue). */
  int (*stencil)(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq);
  /* A fill (sqz_fill: random 0/1 cells, uniform floats or a constant, by sqz_fill_bits of the
   * embedded index) of every domain cell of f's current buffer, holes 0. */
  int (*fill)(sqz_field *f, const sqz_fill *fill);
  /* Stage one of a reduction over n elements of `type` in mem (stage two is acc's). */
  int (*reduce)(sqz_context *ctx, sqz_red_op op, sqz_type type, sqz_mem mem, uint64_t n, int acc_mode,
                sqz_red_acc *acc);
  /* Euclidean distance matrix of n points into packed lower-triangle storage (host arrays). */
  int (*edm)(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out);
  /* Benchmark entries (include/sqz_bench.h): the best rate of copying n bytes between two
   * buffers, in bytes moved (read + written) per second; the simplex micro-workloads (every
   * domain cell stored or incremented through the field's map); the fractal tile maps alone. */
  int (*copy_rate)(sqz_context *ctx, uint64_t n, double *bytes_per_s);
  int (*touch)(sqz_field *f, int accumulate, uint64_t steps);
  int (*tile_maps)(sqz_context *ctx, const sqz_fractal *fr, uint32_t level, const char *map, uint64_t tile0,
                   uint64_t count, uint64_t *checksum, double *kernel_s);
  /* Fields in parts (src/core/field_parts.h). `copy`: bytes from src + src_off to dst + dst_off
   * inside one context, enqueued (0 bytes with NULL buffers: SQZ_OK where the backend holds fields
   * in parts, else SQZ_ERR_UNSUPPORTED with the reason). `stencil_part`: one step of u on the part
   * that `view` views (sqz__part_view, view->part set): from its mem[cur] into mem[cur ^ 1], own
   * units only. `fill` and the engines take such views too. */
  int (*copy)(sqz_context *ctx, sqz_mem dst, uint64_t dst_off, sqz_mem src, uint64_t src_off, uint64_t bytes);
  /* `copy_units`: n units of ub bytes gathered inside one context, enqueued: unit i to dst at (slot0 + i) ub from
   * src at (g[i0 + i] - g0) ub, g the part's halo list on the device (`halo_dev`, sorted global units). One
   * command for a halo of many short runs (a compact triangle's fold: one unit a row). */
  int (*copy_units)(sqz_context *ctx, sqz_mem dst, uint64_t slot0, sqz_mem src, uint64_t g0, sqz_mem g, uint64_t i0,
                    uint64_t n, uint64_t ub);
  int (*stencil_part)(sqz_field *view, const sqz_update *u);
  /* The observables' moments (core/observe_host.h) of the domain cells of f's own storage elements (a
   * field, or a part's view: sqz__own_elems, held from the buffer's start), folded into acc. */
  int (*observe)(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc);
  /* What a step of u on f (a field in one buffer) needs before its first launch, without launching:
   * the stencil's checks, its programs (built, or fetched from the caches) and f's second buffer;
   * f's state and current buffer stay as they were (sqz_life_prepare, include/sqz_opencl.h). */
  int (*prepare)(sqz_field *f, const sqz_update *u);
  /* The engine paths that `stencil` chooses from (core/engine_paths.h, sqz__engine_step). */
  const struct sqz_path_table *paths;
} sqz_backend_ops;

/* Defines `const sqz_backend_ops var` with every entry, each by its designated initialiser (a
 * missing argument does not compile; test_core's backend_tables_complete checks that no entry of
 * any compiled table is NULL). */
#define SQZ_BACKEND_TABLE(var, name_, fallback_, host_memory_, open_, close_, list_, accepts_, alloc_, free_, upload_, \
                          download_, zero_, finish_, gather_, scatter_, stencil_, fill_, reduce_, edm_,       \
                          copy_rate_, touch_, tile_maps_, copy_, copy_units_, stencil_part_, observe_, prepare_,   \
                          paths_)                                                                              \
  const sqz_backend_ops var = {.name = name_,           .fallback = fallback_, .host_memory = host_memory_,    \
                               .open = open_,           .close = close_,       .list = list_,                \
                               .accepts = accepts_,     .alloc = alloc_,       .free = free_,                \
                               .upload = upload_,       .download = download_, .zero = zero_,                \
                               .finish = finish_,       .gather = gather_,     .scatter = scatter_,          \
                               .stencil = stencil_,     .fill = fill_,         .reduce = reduce_,            \
                               .edm = edm_,             .copy_rate = copy_rate_, .touch = touch_,            \
                               .tile_maps = tile_maps_, .copy = copy_,         .copy_units = copy_units_,     \
                               .stencil_part = stencil_part_,                                                 \
                               .observe = observe_,       .prepare = prepare_,   .paths = paths_}

/* The backends compiled into the library, the default first; NULL-terminated (src/backends/backends.c). */
SQZ_INTERNAL extern const sqz_backend_ops *const sqz__backends[];

/* The tables, one per backend directory. */
SQZ_INTERNAL extern const sqz_backend_ops sqz__opencl_ops;
SQZ_INTERNAL extern const sqz_backend_ops sqz__cpu_ops;
SQZ_INTERNAL extern const sqz_backend_ops sqz__cuda_ops;
#endif
