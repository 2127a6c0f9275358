/* sqz_internal.h — private structures and helpers shared by the library's source files. */
#ifndef SQZ_INTERNAL_H
#define SQZ_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdatomic.h>
typedef atomic_uint sqz_refs; /* reference count of a context, domain or field */
#else
typedef unsigned sqz_refs; /* C++ units (tests/cuda_emu) read these structures but never count references */
#endif

#include "sqz.h"
#include "sqz_common.h"
#include "core/embedded.h"

#define SQZ_INTERNAL __attribute__((visibility("hidden")))
/* The internals that libsqz's components (libsqz-mpi: src/mpi; libsqz-hdf5: src/io/hdf5.c) call: exported by
 * libsqz.so under the sqz__ prefix for them alone, in no installed header; they match only the libsqz of the same build. */
#define SQZ_COMPONENT __attribute__((visibility("default")))

struct sqz_backend_ops; /* core/backend.h */
#include "core/options.h"

/* Device memory of a backend: a cl_mem (opencl), a host pointer (cpu), a CUdeviceptr (cuda). */
typedef void *sqz_mem;

/* ---- context -----------------------------------------------------------------------------
 * Threads: ctx->lock (recursive) is held for the whole of every operation that uses the
 * device, the queue, the program caches or the in-flight timing (sqz__op_begin takes it,
 * sqz__op_end gives it back; see sqz__lock). The detail and the timing that the API reports
 * are kept per thread in `slots`, under the short detail_lock, so that a failure in one
 * thread never overwrites what another thread reads. */
typedef struct sqz_thread_slot {
  pthread_t thread;
  char *detail; /* "" when the thread's last call on ctx succeeded or nothing failed */
  size_t cap;
  double kernel_s, wall_s; /* the thread's last timed operation on ctx */
  struct sqz_thread_slot *next;
} sqz_thread_slot;

struct sqz_context {
  const struct sqz_backend_ops *ops; /* the backend: every device operation goes through it */
  void *backend;                     /* the backend's own state (opencl: sqz_cl_state, cuda: sqz_cuda) */
  char device_name[256];
  char platform_name[256];
  char driver_version[128];
  char c_version[128];
  uint64_t global_mem, max_alloc;
  size_t max_work_group;
  unsigned compute_units;
  int is_gpu;
  uint64_t local_mem; /* bytes of local memory per work-group (tests may lower it) */
  sqz_opt_values opts; /* the options set (src/core/options.c): from the environment at creation, then the API */
  /* progress of long operations (sqz_context_set_progress) */
  sqz_progress_fn progress;
  void *progress_user;
  double progress_interval;
  /* the observer of blocking step calls (sqz_context_set_observer): every `observer_every` steps */
  sqz_observer_fn observer;
  void *observer_user;
  uint64_t observer_every;
  /* the operation in flight (under lock): kernel time so far and its start */
  double kernel_s, wall_s, op_start;
  pthread_mutex_t lock;        /* recursive: serialises every device operation on ctx */
  pthread_mutex_t detail_lock; /* guards slots */
  sqz_thread_slot *slots;      /* per-thread detail and timing */
  sqz_refs refs;               /* the user's reference, plus one per domain and field on ctx */
};

/* A new context of backend ops (one reference, locks ready, device fields empty); NULL when
 * out of memory. sqz__context_free frees what sqz__context_new made (after ops->close). */
SQZ_INTERNAL sqz_context *sqz__context_new(const struct sqz_backend_ops *ops);
SQZ_INTERNAL void sqz__context_free(sqz_context *ctx);
/* Takes and gives back ctx's operation lock (recursive; NULL is a no-op). */
SQZ_COMPONENT void sqz__lock(sqz_context *ctx);
SQZ_COMPONENT void sqz__unlock(sqz_context *ctx);

/* Records a failure: stores the formatted detail in ctx (or the thread's slot when ctx is
 * NULL) and returns status, so call sites read `return sqz__fail(ctx, SQZ_ERR_PARSE, ...)`.
 * With the option debug=1 of ctx (without ctx: SQZ_DEBUG=1 in the environment) the detail also goes to stderr. */
SQZ_COMPONENT int sqz__fail(sqz_context *ctx, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
SQZ_INTERNAL void sqz__clear_error(sqz_context *ctx);
/* A public call given a NULL handle or pointer (or an empty text where one is needed): SQZ_ERR_INVALID_ARGUMENT with
 * the detail "fn: NULL or empty argument" in ctx (NULL: the thread's slot), so no older detail stays readable. */
SQZ_INTERNAL int sqz__null_arg(sqz_context *ctx, const char *fn);
/* Appends text to the current detail (for build logs). */
SQZ_INTERNAL void sqz__append_detail(sqz_context *ctx, const char *text);

/* Wall clock in seconds (monotonic). */
SQZ_COMPONENT double sqz__now(void);
/* Starts an operation: takes ctx's lock and clears the timing; sqz__op_end records kernel and
 * wall time for the calling thread (sqz_context_timing) and gives the lock back. Every
 * sqz__op_begin is paired with one sqz__op_end on every path. */
SQZ_COMPONENT void sqz__op_begin(sqz_context *ctx);
SQZ_COMPONENT void sqz__op_end(sqz_context *ctx);

/* ---- domains ------------------------------------------------------------------------------ */
#define SQZ_MAX_SCALE 16 /* largest pattern side s */

typedef struct {
  int s, k, r;                               /* scale, replicas, level */
  char pattern[SQZ_MAX_SCALE * SQZ_MAX_SCALE]; /* row-major, 1 = replica */
  int hl[2 * SQZ_MAX_SCALE * SQZ_MAX_SCALE];   /* H_lambda: beta -> (tau_x, tau_y) */
  int hnu[SQZ_MAX_SCALE * SQZ_MAX_SCALE];      /* H_nu: tau_y*s + tau_x -> beta, -1 on holes */
  char name[SQZ_MAX_SCALE * (SQZ_MAX_SCALE + 1)]; /* well-known name or the pattern text */
} sqz_fractal;

struct sqz_domain {
  sqz_context *ctx; /* may be NULL; retained */
  sqz_domain_kind kind;
  int dims;
  uint64_t side;  /* N, or s^R */
  uint64_t cells; /* |D| */
  char spec[320];
  sqz_fractal fr; /* fractals only */
  sqz_refs refs;
};

/* ---- fields ------------------------------------------------------------------------------- */
/* The largest tile side RHO of layout block:RHO (any fractal; on one, RHO is also a power of its
 * scale no larger than its side). */
#define SQZ_BLOCK_RHO_MAX 4096u
/* The layouts, each a row of the registry (core/registry.h) in this order: the order the API and the CLI list them. */
typedef enum {
  SQZ_LAYOUT_BB = 0, SQZ_LAYOUT_LAMBDA, SQZ_LAYOUT_BLOCK, SQZ_LAYOUT_COMPACT, SQZ_LAYOUT_BITS, SQZ_LAYOUT_COUNT
} sqz_layout_id;

struct sqz_field {
  sqz_domain *dom;  /* retained */
  sqz_context *ctx; /* retained */
  sqz_type type;
  sqz_layout_id layout;
  uint32_t layout_rho; /* block:RHO */
  char layout_str[32];
  char map[16];        /* simplex thread map name ("" = default) */
  uint32_t block;      /* launch block side, 0 = automatic */
  uint64_t elems;      /* storage elements of one buffer */
  uint64_t width, height; /* storage as a 2D array (width * height == elems) */
  sqz_mem mem[2];      /* ping-pong buffers of the backend (mem[1] created on first step) */
  int cur;             /* index of the current state */
  /* The caller's buffer (sqz_field_create_opencl), retained: mem[0] is it or a sub-buffer of it, mem[1]
   * sqz's own, and every call leaves the state in mem[0] (sqz__field_settle); NULL for sqz's own storage. */
  sqz_mem user_mem;
  struct sqz_field_split *parts; /* NULL: one buffer (mem[]); else the parts (src/core/field_parts.h), mem[] empty */
  /* A view of one part (sqz__part_view), what a backend's engine and fill get for a part: ctx and
   * mem[] are the part's, every other member the whole field's; NULL in a field itself. */
  const struct sqz_field_part *part;
  const struct sqz_unit_set *units; /* a part's view: the own units its step covers (NULL: all) */
  sqz_refs refs;
  sqz_opt_values *opts; /* the field's overrides (sqz_field_set_option), NULL when none; shared by its part views */
  /* The engine report (core/engine_report.h): rep points at report, in the field and in its views. */
  struct sqz_engine_report *rep;
  struct sqz_engine_report {
    char engine[64], skipped[1024], printed[64 + 1024];
  } report;
  /* The engine paths chosen for its updates (core/engine_paths.h): the field's, shared by its views; NULL in a
   * field struct made without one (every step then chooses again). */
  struct sqz_engine_cache *sel;
};

/* Storage geometry of a layout for a domain (elems, width, height): the layout's row (core/registry.h) on
 * the domain's family. */
SQZ_INTERNAL int sqz__layout_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho,
                                      uint64_t *elems, uint64_t *width, uint64_t *height);
/* Storage index -> embedded coordinates; returns 1 if the stored cell is a domain cell, 0 for
 * holes, padding and cells outside the domain. */
SQZ_INTERNAL int sqz__layout_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y,
                                    uint64_t *z);
/* Embedded coordinates -> storage index, or -1 when the cell is not a domain cell. */
SQZ_INTERNAL int64_t sqz__layout_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);
/* The index map over one embedded row: the domain cells of row y of slice z (z = 0 in 2D) in
 * increasing x, their columns into xs and their storage indices (sqz__layout_index) into index,
 * both with room for side entries; returns how many. Costs O(cells of the row), not O(side), on
 * fractals (holes are skipped a whole sub-square at a time). */
SQZ_INTERNAL uint64_t sqz__layout_row(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index);
/* The storage order of f's layout in one static sentence (sqz_field_layout_rule). */
SQZ_INTERNAL const char *sqz__layout_rule(const sqz_field *f);

/* Field storage helpers (src/core/field.c): the current buffer to/from a host array of f->elems
 * elements, and creation of the second (ping-pong) buffer on first use. */
SQZ_INTERNAL int sqz__field_download(sqz_field *f, void *host);
SQZ_INTERNAL int sqz__field_upload(sqz_field *f, const void *host);
SQZ_INTERNAL int sqz__field_ensure_pair(sqz_field *f);
/* A new field of (dom, type, layout) on dom's context with its shape and no storage (mem[] NULL): one
 * reference, and references to dom and its context; sqz_field_release frees it. */
SQZ_INTERNAL int sqz__field_shell(sqz_domain *dom, sqz_type type, const char *layout, sqz_field **out);
/* A field over the caller's buffer whose state a step or load left in mem[1]: copies it back into
 * mem[0] (enqueued; wait 1 also waits for it) and makes mem[0] current. SQZ_OK at once for other fields. */
SQZ_INTERNAL int sqz__field_settle(sqz_field *f, int wait);
/* Bytes of one state buffer of f (layout bits: a bit per storage cell). */
SQZ_INTERNAL uint64_t sqz__field_storage_bytes(const sqz_field *f);
/* The backend's gather/scatter of n cells of f's type through storage indices (-1: none) of
 * buffer `which` (f->cur or f->cur ^ 1; of every part of a parted field), or their bit form in
 * layout bits. */
SQZ_INTERNAL int sqz__field_gather(sqz_field *f, int which, const int64_t *idx, uint64_t n, void *out);
SQZ_INTERNAL int sqz__field_scatter(sqz_field *f, int which, const int64_t *idx, uint64_t n, const void *in);
/* What a fill writes in every domain cell (cl/sqz_common.h, sqz_fill_bits): mode SQZ_FILL_RANDOM
 * (`value` with probability threshold / 2^32, else 0), SQZ_FILL_UNIFORM (a float in [0, 1)) or
 * SQZ_FILL_CONST (`value`); `value` holds the bits of the cell type's value (sqz__fill_spec). */
typedef struct sqz_fill {
  uint32_t mode;
  uint64_t seed, threshold, value;
} sqz_fill;
/* The bits of v in cell type t (u8 and i32 take integers, f32 rounds to float). */
SQZ_INTERNAL uint64_t sqz__type_bits(sqz_type t, double v);
/* NULL when v is a value of cell type t, else why not (src/core/field_fill.c). */
SQZ_INTERNAL const char *sqz__type_value_check(sqz_type t, double v);
/* Host fill of storage elements [e0, e0 + n) of f into store[0 .. n): the fill's value for every
 * domain cell, 0 elsewhere (a part's own units, or the whole storage with e0 = 0, n = f->elems). */
SQZ_INTERNAL void sqz__host_fill_range(const sqz_field *f, void *store, uint64_t e0, uint64_t n, const sqz_fill *fill);
/* Waits for the context's enqueued work (ctx->ops->finish). */
SQZ_COMPONENT int sqz__finish(sqz_context *ctx);
/* Compact order in bands (src/core/field_compact.c): READ gathers from the current buffer, WRITE
 * scatters into it, LOAD scatters into the second buffer, which sqz__compact_commit makes current
 * (a failed load leaves the field as it was). Layouts other than compact zero the target first
 * and move SQZ_COMPACT_BAND cells per backend call through their storage indices; the context
 * stays locked from open to close. */
#define SQZ_COMPACT_BAND ((uint64_t)1 << 17)
enum { SQZ_COMPACT_READ = 0, SQZ_COMPACT_WRITE = 1, SQZ_COMPACT_LOAD = 2 };
typedef struct {
  sqz_field *f;
  sqz_field view; /* f seen in layout compact */
  int which;      /* the buffer read or written (f->mem[which], or every part's) */
  int mode, locked;
  int64_t *idx;   /* SQZ_COMPACT_BAND storage indices; NULL in layout compact */
  const char *what; /* the file or function, for messages */
  int two_state;    /* into layout bits: a cell other than 0 or 1 was given (not stored); the first in the */
  uint64_t bad_e, bad_x, bad_y, bad_z; /* embedded array's order: its index and coordinates */
  unsigned bad_value;
} sqz_compact_io;
SQZ_COMPONENT int sqz__compact_open(sqz_field *f, int mode, const char *what, sqz_compact_io *io);
/* Compact cells c0 .. c0 + n - 1 between the buffer and values (n values of the field's type). Into
 * layout bits, a value other than 0 or 1 is left out and remembered for sqz__compact_commit, which
 * then fails with SQZ_ERR_INVALID_ARGUMENT naming the first such cell of the embedded array. */
SQZ_COMPONENT int sqz__compact_band(sqz_compact_io *io, uint64_t c0, uint64_t n, void *values);
SQZ_COMPONENT int sqz__compact_commit(sqz_compact_io *io);
SQZ_COMPONENT void sqz__compact_close(sqz_compact_io *io);
/* 1 when any of the size bytes at p is non-zero: a set cell of any type. */
SQZ_INTERNAL int sqz__is_nonzero(const unsigned char *p, size_t size);
/* Fails with SQZ_ERR_OUTSIDE_DOMAIN: embedded cell (x, y, z) is set but is no domain cell (a hole or
 * outside); the detail names the cell, after "path: " when path is not NULL. */
SQZ_INTERNAL int sqz__outside_fail(sqz_field *f, const char *path, uint64_t x, uint64_t y, uint64_t z);
/* Fails with SQZ_ERR_INVALID_ARGUMENT: embedded cell (x, y, z) of a two-state (Life) state holds
 * value, neither 0 nor 1; the detail names its index in the embedded array ((z * side + y) * side +
 * x, the .npy order), its coordinates and the value, after "path: " when path is not NULL. */
SQZ_INTERNAL int sqz__two_state_fail(sqz_field *f, const char *path, uint64_t x, uint64_t y, uint64_t z,
                                     unsigned value);
/* The same for a Generations rule (rule: as written) of states > 2: value is states or more. */
SQZ_INTERNAL int sqz__states_fail(sqz_field *f, const char *path, uint64_t x, uint64_t y, uint64_t z, unsigned value,
                                  const char *rule, unsigned states);

/* ---- host memory (src/core/host_memory.c) --------------------------------------------------- */
/* malloc, calloc and realloc for every host allocation of the library (free() releases them): the
 * test hook SQZ_FAULT_ALLOC=N makes the Nth of these calls in the process return NULL. */
SQZ_COMPONENT void *sqz__malloc(size_t bytes);
SQZ_COMPONENT void *sqz__calloc(size_t count, size_t size);
SQZ_COMPONENT void *sqz__realloc(void *p, size_t bytes);
/* Requests below this many bytes go to malloc unchecked. */
#define SQZ_HOST_CHECK_MIN ((uint64_t)1 << 20)
/* Bytes of host memory this process may still take: MemAvailable of /proc/meminfo, bounded by its
 * cgroups (v2 memory.max - memory.current, v1 memory.limit_in_bytes - memory.usage_in_bytes, every
 * level up to the root) and by RLIMIT_AS and RLIMIT_DATA less the address space and data already in
 * use; sysconf(_SC_AVPHYS_PAGES) where /proc says nothing. Returns 1 when a bound was found, else 0
 * with *bytes = UINT64_MAX. */
SQZ_INTERNAL int sqz__host_available(uint64_t *bytes);
/* The /proc and cgroup part of it, with every file read under root ("" for the real ones; tests
 * give a folder that mimics them). */
SQZ_INTERNAL int sqz__host_probe(const char *root, uint64_t *bytes);
/* sqz__host_available with the /proc and cgroup files read under root (sqz__host_available is
 * sqz__host_room("")): a test compares it with sqz__host_probe(root) on files that do not change
 * between the two reads, as the real machine's free memory does. */
SQZ_INTERNAL int sqz__host_room(const char *root, uint64_t *bytes);
/* SQZ_OK when `bytes` (from SQZ_HOST_CHECK_MIN up) fit in sqz__host_available, else
 * SQZ_ERR_OUT_OF_MEMORY with the detail "<what> needs N bytes of host memory, A available", what
 * formatted from fmt. */
SQZ_INTERNAL int sqz__host_check(sqz_context *ctx, uint64_t bytes, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* sqz__host_check, then malloc (zero: calloc) into *out; a refused allocation gives the same
 * status and detail. *out is NULL on failure. */
SQZ_COMPONENT int sqz__host_alloc(sqz_context *ctx, uint64_t bytes, int zero, void **out, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

SQZ_INTERNAL int sqz__parse_layout(sqz_context *ctx, const sqz_domain *dom, const char *layout,
                                   sqz_layout_id *id, uint32_t *rho);
SQZ_INTERNAL int sqz__checked_mul(uint64_t a, uint64_t b, uint64_t *out); /* 0 on overflow */
/* fmt's text at buf + at, within len bytes: the rest of a message whose prefix snprintf wrote there (at, its
 * result); nothing when at is negative or the prefix filled buf (the parsers' messages). */
SQZ_INTERNAL void sqz__vappend(char *buf, size_t len, int at, const char *fmt, va_list ap);
/* b^e (e >= 0), without an overflow check. */
SQZ_INTERNAL uint64_t sqz__ipow(uint64_t b, int e);

#endif /* SQZ_INTERNAL_H */
