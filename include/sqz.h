/* sqz.h — the whole public C API of sqz: contexts, domains, fields, maps and workloads. */
#ifndef SQZ_H
#define SQZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version (compile time and run time) ---------------------------------------------- */
#define SQZ_VERSION_MAJOR 0
#define SQZ_VERSION_MINOR 1
#define SQZ_VERSION_PATCH 0
#define SQZ_VERSION_NUMBER (SQZ_VERSION_MAJOR * 10000 + SQZ_VERSION_MINOR * 100 + SQZ_VERSION_PATCH)
#define SQZ_VERSION_STRING "0.1.0"

/* ---- export macro: only what is marked SQZ_API leaves the shared library ---------------- */
#if defined(SQZ_STATIC_DEFINE)
#define SQZ_API
#elif defined(_WIN32)
#ifdef SQZ_BUILDING
#define SQZ_API __declspec(dllexport)
#else
#define SQZ_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define SQZ_API __attribute__((visibility("default")))
#else
#define SQZ_API
#endif

SQZ_API unsigned sqz_version_number(void);
SQZ_API const char *sqz_version_string(void);

/* ---- status codes ----------------------------------------------------------------------
 * 0 is success. Negative OpenCL codes (-1 .. -999) pass through unchanged. sqz's own codes
 * live in the -2000 block. One table makes the enum, the names and the messages. */
#define SQZ_STATUS_MAP(X)                                                                  \
  X(SQZ_OK, 0, "success")                                                                  \
  X(SQZ_ERR_INVALID_ARGUMENT, -2001, "invalid argument")                                   \
  X(SQZ_ERR_PARSE, -2002, "malformed input")                                               \
  X(SQZ_ERR_OUT_OF_MEMORY, -2003, "not enough memory")                                     \
  X(SQZ_ERR_TOO_LARGE, -2004, "size beyond what can be represented or allocated")         \
  X(SQZ_ERR_UNSUPPORTED, -2005, "not supported by this device, backend or layout")        \
  X(SQZ_ERR_BACKEND_UNAVAILABLE, -2006, "backend unavailable")                             \
  X(SQZ_ERR_BUILD_FAILED, -2007, "kernel build failed")                                    \
  X(SQZ_ERR_DEVICE_NOT_FOUND, -2008, "no device matches the selection")                    \
  X(SQZ_ERR_IO, -2009, "input/output error")                                               \
  X(SQZ_ERR_NON_FINITE, -2010, "non-finite value in the input")                            \
  X(SQZ_ERR_OUTSIDE_DOMAIN, -2011, "non-zero value outside the domain")                    \
  X(SQZ_ERR_INTERNAL, -2012, "internal error")                                             \
  X(SQZ_ERR_CANCELLED, -2013, "cancelled by the progress callback")

typedef enum {
#define SQZ_STATUS_ENUM_(name, code, msg) name = code,
  SQZ_STATUS_MAP(SQZ_STATUS_ENUM_)
#undef SQZ_STATUS_ENUM_
} sqz_status;

/* Name of any status, sqz's or OpenCL's ("SQZ_ERR_PARSE", "CL_OUT_OF_RESOURCES"). Never NULL. */
SQZ_API const char *sqz_status_name(int status);
/* One-line message for any status. Never NULL. */
SQZ_API const char *sqz_status_message(int status);

/* ---- lifetimes and threads ---------------------------------------------------------------
 * Handles are reference counted. A domain parsed with a context holds a reference to it; a field
 * holds references to its domain and its context. *_create / sqz_domain_parse give the caller one
 * reference, *_retain adds one, *_release drops one (NULL is a no-op) and frees the object at zero.
 * So any release order is safe: releasing a context or domain while fields use it only drops
 * the caller's reference, and the last field's release frees them.
 *
 * Threads. Every call may come from any thread. Calls on one context, its domains and fields are
 * serialised by a lock of the context (one operation at a time per context: a step, transfer,
 * fill, reduction, release, setter); fields of one context may therefore be used from different
 * threads, also at once, but their device work does not overlap. For work in parallel give each
 * thread its own context (contexts may share a device), or enqueue steps without waiting
 * (include/sqz_opencl.h). Context creation, including device enumeration, is safe from several
 * threads at once. Domains are immutable after sqz_domain_parse. sqz_last_error(ctx) and
 * sqz_context_timing(ctx) report the calling thread's last call on ctx, so one thread's failure
 * never overwrites another's detail. What the caller must not do: release a handle (drop a
 * reference) while another thread still uses that reference, or call a getter that returns a
 * string (sqz_field_map) while another thread changes it.
 *
 * NULL handles. A getter given a NULL context, domain, field or device list returns a neutral
 * value and never crashes: 0 for numbers, kinds and types (not a valid sqz_domain_kind or
 * sqz_type), "" for strings, NULL for handles. A call that returns a status gives
 * SQZ_ERR_INVALID_ARGUMENT for a NULL handle or a NULL required pointer; *_release(NULL) is a
 * no-op; only sqz_last_error(NULL) has a meaning of its own (see there). */

/* ---- opaque handles ---------------------------------------------------------------------- */
typedef struct sqz_context sqz_context;         /* backend, device, queue, program cache   */
typedef struct sqz_domain sqz_domain;           /* shape: triangle, tetrahedron, fractal   */
typedef struct sqz_field sqz_field;             /* typed state on a domain, in a layout    */
typedef struct sqz_device_list sqz_device_list; /* every device of every backend           */

/* ---- context ------------------------------------------------------------------------------
 * backend: "opencl", "cpu", "cuda", or NULL for $SQZ_BACKEND, else "opencl" (falling back to
 * "cpu" when no OpenCL platform exists and no backend was asked for).
 * device: "P:D" (platform and device index), N (digits only: the backend's Nth device in
 * sqz_device_list order; one past them is SQZ_ERR_DEVICE_NOT_FOUND), a case-insensitive substring
 * of the device name (only when the value is not a number), or NULL for $SQZ_DEVICE, else the
 * first GPU, else the first device.
 * On failure *out is NULL and sqz_last_error(NULL) holds the detail for this thread. */
SQZ_API int sqz_context_create(const char *backend, const char *device, sqz_context **out);
SQZ_API void sqz_context_retain(sqz_context *ctx);
/* Drops the caller's reference; the context is closed when its domains and fields are gone too. */
SQZ_API void sqz_context_release(sqz_context *ctx); /* NULL is a no-op */

/* Detail of the calling thread's last failure on ctx (build log, byte counts, the bad value); ""
 * if none. With ctx == NULL: the detail of the last failure without a context in this thread.
 * The string is owned by sqz and valid until this thread's next call on ctx. */
SQZ_API const char *sqz_last_error(const sqz_context *ctx);

SQZ_API const char *sqz_context_backend(const sqz_context *ctx);     /* "opencl", "cpu", "cuda" */
SQZ_API const char *sqz_context_device_name(const sqz_context *ctx);
SQZ_API uint64_t sqz_context_global_mem(const sqz_context *ctx);     /* bytes */
SQZ_API uint64_t sqz_context_max_alloc(const sqz_context *ctx);      /* bytes, one buffer */

/* Times of the calling thread's last operation on ctx: kernel time (summed from device events;
 * the cpu backend reports the time of its compute loops; a user's queue without profiling, the
 * host's time, include/sqz_opencl.h) and end-to-end wall time, which includes transfers and
 * program builds. Either pointer may be NULL. */
SQZ_API int sqz_context_timing(const sqz_context *ctx, double *kernel_s, double *wall_s);

/* Progress of long operations (steps of life, heat and user stencils): fn is called about
 * every interval_s seconds of work (0: 0.25 s) with the steps done so far, the steps asked for
 * and the rate in cells per second; a non-zero return cancels the run, which then returns
 * SQZ_ERR_CANCELLED with the field holding the state after `done` steps. The steps are run in
 * chunks between calls, so kernel time and results are those of an uninterrupted run. fn NULL
 * removes the callback. */
typedef int (*sqz_progress_fn)(uint64_t done, uint64_t total, double cells_per_s, void *user_data);
SQZ_API int sqz_context_set_progress(sqz_context *ctx, sqz_progress_fn fn, void *user_data, double interval_s);

/* ---- options (docs/OPTIONS.md) ------------------------------------------------------------
 * The tuning of the library is one table of options: each is read from the environment variable
 * SQZ_<NAME> (the name in capitals) when a context is created, and may be set per context (and,
 * for those of scope "field", per field) by these calls. A bad value or an unknown name from any
 * source is SQZ_ERR_INVALID_ARGUMENT, the detail naming the option and its range. */
typedef struct {
  const char *name;  /* "temporal" (environment: SQZ_TEMPORAL) */
  const char *type;  /* "count", "choice", "flag", "bytes" or "text" */
  const char *range; /* "1..8", "fast|generic", "0|1", ... */
  const char *def;   /* the default, in words where it depends on the device or the field */
  const char *help;  /* one line */
  const char *layer; /* which part of sqz reads it: "core", "opencl", "cli" */
  const char *scope; /* "field": also sqz_field_set_option; "context": any time; "creation": read when the
                        context is created (the environment or sqz_context_create_opts); "process": read from
                        the environment once per process (test hooks) */
} sqz_option_info;
SQZ_API size_t sqz_option_count(void);
SQZ_API const sqz_option_info *sqz_option_at(size_t i); /* NULL past the last */
/* SQZ_OK when value is one of option name's values (sqz_last_error(NULL) says why not). */
SQZ_API int sqz_option_check(const char *name, const char *value);
/* The environment's text of option name (SQZ_<NAME>), NULL when unset or empty: where a program
 * (the CLI) needs an option before it has a context. */
SQZ_API const char *sqz_option_env(const char *name);
/* sqz_context_create with options: NULL or a NULL-terminated list of "name=value", applied over the
 * environment's before the backend and device are chosen (backend and device given here win). */
SQZ_API int sqz_context_create_opts(const char *backend, const char *device, const char *const *options,
                                    sqz_context **out);
/* Sets option name of ctx to value (NULL or "": the default); options of scope "creation" or
 * "process" are refused here. Fields take the new value at their next call. */
SQZ_API int sqz_context_set_option(sqz_context *ctx, const char *name, const char *value);
/* The value of option name set on ctx (environment, creation or sqz_context_set_option) into buf,
 * "" where the default applies; SQZ_ERR_INVALID_ARGUMENT for an unknown name or a buf too small. */
SQZ_API int sqz_context_get_option(const sqz_context *ctx, const char *name, char *buf, size_t len);
/* Overrides an option of scope "field" for field's calls alone (NULL or "": its context's again). */
SQZ_API int sqz_field_set_option(sqz_field *field, const char *name, const char *value);

/* ---- device list --------------------------------------------------------------------------- */
typedef enum {
  SQZ_DEVICE_BACKEND = 0, /* "opencl" / "cpu" / "cuda"              */
  SQZ_DEVICE_ID,          /* "P:D" for opencl, "0" for cpu/cuda      */
  SQZ_DEVICE_PLATFORM,    /* platform name                           */
  SQZ_DEVICE_NAME,
  SQZ_DEVICE_TYPE,        /* "GPU", "CPU", "ACCELERATOR", "OTHER"    */
  SQZ_DEVICE_C_VERSION,   /* "OpenCL C 1.2", "compute 9.0"           */
  SQZ_DEVICE_DRIVER       /* driver version                          */
} sqz_device_str;
typedef enum {
  SQZ_DEVICE_COMPUTE_UNITS = 0,
  SQZ_DEVICE_GLOBAL_MEM,   /* bytes */
  SQZ_DEVICE_MAX_ALLOC,    /* bytes */
  SQZ_DEVICE_MAX_WORK_GROUP
} sqz_device_u64;
SQZ_API int sqz_device_list_create(sqz_device_list **out);
SQZ_API void sqz_device_list_release(sqz_device_list *list);
SQZ_API size_t sqz_device_list_count(const sqz_device_list *list);
SQZ_API const char *sqz_device_list_str(const sqz_device_list *list, size_t i, sqz_device_str key);
SQZ_API uint64_t sqz_device_list_u64(const sqz_device_list *list, size_t i, sqz_device_u64 key);

/* ---- domains ------------------------------------------------------------------------------
 * "triangle:N"        0 <= x <= y < N                      |D| = N(N+1)/2
 * "tetrahedron:N"     x, y, z >= 0, x + y + z <= N - 1     |D| = N(N+1)(N+2)/6
 * "fractal:NAME:R"    NBB fractal at level R in an s^R x s^R embedding; NAME is
 *                     sierpinski-triangle, sierpinski-carpet, vicsek-cross, vicsek-saltire
 *                     or a pattern such as "#./##" (rows of '#'/'.', separated by '/').
 * ctx may be NULL (pure host analysis). */
typedef enum { SQZ_DOMAIN_TRIANGLE = 1, SQZ_DOMAIN_TETRAHEDRON = 2, SQZ_DOMAIN_FRACTAL = 3 } sqz_domain_kind;
SQZ_API int sqz_domain_parse(sqz_context *ctx, const char *spec, sqz_domain **out);
SQZ_API void sqz_domain_retain(sqz_domain *dom);
SQZ_API void sqz_domain_release(sqz_domain *dom); /* NULL is a no-op; fields keep their domain */
SQZ_API sqz_domain_kind sqz_domain_get_kind(const sqz_domain *dom);
SQZ_API int sqz_domain_dims(const sqz_domain *dom);       /* 2 or 3 */
SQZ_API uint64_t sqz_domain_cells(const sqz_domain *dom); /* |D| */
/* Side of the embedding: N for simplices, s^R for fractals. */
SQZ_API uint64_t sqz_domain_side(const sqz_domain *dom);
/* Canonical spec string, e.g. "fractal:sierpinski-triangle:5". */
SQZ_API const char *sqz_domain_spec(const sqz_domain *dom);
/* 1 if the embedded cell (x, y, z) belongs to the domain (z ignored in 2D). */
SQZ_API int sqz_domain_contains(const sqz_domain *dom, uint64_t x, uint64_t y, uint64_t z);
/* Fractal parameters: scale s, replicas k, level R (SQZ_ERR_INVALID_ARGUMENT for simplices). */
SQZ_API int sqz_domain_fractal_params(const sqz_domain *dom, int *s, int *k, int *r);
/* Storage elements of a layout ("bb", "lambda", "block:RHO", "compact"); TOO_LARGE on overflow. */
SQZ_API int sqz_domain_layout_cells(const sqz_domain *dom, const char *layout, uint64_t *cells);
/* Bytes of one state buffer of SQZ_U8 cells in a layout: the cells above, one byte each, except
 * layout "bits" (one bit each, padding included: cells / 8); TOO_LARGE on overflow. */
SQZ_API int sqz_domain_layout_bytes(const sqz_domain *dom, const char *layout, uint64_t *bytes);

/* ---- registries: the layouts and maps sqz knows -----------------------------------------
 * One table each, read by the library's checks and messages and by the CLI's help. Entries
 * are numbered 0 .. count - 1; an index out of range gives NULL, 0 or -1. Every string is
 * static, owned by sqz and valid for the life of the process. */
typedef enum { SQZ_FAMILY_SIMPLEX = 1, SQZ_FAMILY_FRACTAL = 2 } sqz_family; /* bit mask */

SQZ_API size_t sqz_layout_count(void);
/* "bb", "lambda", "block:RHO" (a pattern: RHO stands for a tile side), "compact". */
SQZ_API const char *sqz_layout_name(size_t i);
SQZ_API unsigned sqz_layout_families(size_t i); /* SQZ_FAMILY_* bits of the domains it stores */
SQZ_API const char *sqz_layout_help(size_t i);  /* one line */
/* Writes the names of the layouts of any family in `families` (0: all) as "bb, compact" into
 * buf. Returns how many names it lists, or SQZ_ERR_TOO_LARGE when buf (len bytes) is too small
 * (buf then holds the names that fit). buf == NULL with len == 0 only counts them. */
SQZ_API int sqz_layout_list(unsigned families, char *buf, size_t len);

SQZ_API size_t sqz_map_count(void);
SQZ_API const char *sqz_map_name(size_t i);
SQZ_API unsigned sqz_map_family(size_t i);     /* SQZ_FAMILY_* bits ("bb" serves both) */
SQZ_API int sqz_map_dims(size_t i);            /* 2, 3, or 0 = any; -1 out of range */
SQZ_API const char *sqz_map_backend(size_t i); /* "opencl", "cuda", or NULL = any backend */
/* 1 when the library picks this map where none is given (3D simplices: ltm3 or had3 by the
 * side, see sqz_simplex_default_map; fractals: per backend). */
SQZ_API int sqz_map_is_default(size_t i);
SQZ_API const char *sqz_map_help(size_t i);
/* 1 when map i applies to a domain of family `family` (0: any) and dimension `dims` (0: any)
 * on backend `backend` (NULL: any), else 0. */
SQZ_API int sqz_map_matches(size_t i, unsigned family, int dims, const char *backend);
/* Writes the names of the maps that sqz_map_matches keeps as "bb, ltm, rb, ..." into buf;
 * returns their count or SQZ_ERR_TOO_LARGE, like sqz_layout_list. */
SQZ_API int sqz_map_list(unsigned family, int dims, const char *backend, char *buf, size_t len);

/* ---- simplex maps: defaults and analysis (host only) -------------------------------------- */
/* The map used when none is given on triangle:n (dims 2) or tetrahedron:n (dims 3); NULL for
 * other dims. Static string. */
SQZ_API const char *sqz_simplex_default_map(int dims, uint64_t n);
/* Launch statistics of simplex thread map `map` (NULL: the default) on dom with block side rho
 * (0: the default): the block side used, kernel launches per pass, threads launched and
 * useful threads (= |D|). Any out-pointer may be NULL. SQZ_ERR_INVALID_ARGUMENT for fractal
 * domains and for maps of the other dimension. */
SQZ_API int sqz_domain_map_stats(const sqz_domain *dom, const char *map, uint32_t rho, uint32_t *rho_used,
                                 uint64_t *launches, uint64_t *launched, uint64_t *useful);
/* Largest side n of a simplex of dimension dims whose field in layout "bb" or "compact" fits:
 * one buffer of cell_bytes per stored cell within max_alloc, `buffers` of them within
 * global_mem (see sqz_context_max_alloc, sqz_context_global_mem). */
SQZ_API int sqz_simplex_max_side(int dims, const char *layout, uint64_t cell_bytes, uint64_t buffers,
                                 uint64_t max_alloc, uint64_t global_mem, uint64_t *side);

/* ---- parts: a field split into P parts with exact halos (host analysis) -------------------
 * The compact order (layout compact) is cut into P contiguous ranges. Fractals: by replicas at
 * the smallest level j with k^j >= P (k^j copies of the level R - j fractal, grouped into P
 * balanced runs). Triangles and tetrahedra: bands of |D| / P storage indices. A part's halo is
 * the set of cells of other parts that its cells read as Moore neighbours (8 in 2D, 26 in 3D),
 * exchanged before every step. sqz_parts_info fills values[0 .. n_values - 1] (indices below);
 * counts are exact and computed from the structure, not by enumerating cells. A count of 0 or
 * above SQZ_PARTS_MAX_COUNT is SQZ_ERR_INVALID_ARGUMENT naming the largest valid count. */
typedef enum {
  SQZ_PARTS_KIND = 0,          /* 1: fractal replicas, 2: bands of the compact storage */
  SQZ_PARTS_LEVEL,             /* fractals: the replica level j; simplices: 0 */
  SQZ_PARTS_REPLICA_COUNT,     /* fractals: k^j replicas; simplices: 0 */
  SQZ_PARTS_CELLS_MIN,         /* cells per part */
  SQZ_PARTS_CELLS_MAX,
  SQZ_PARTS_HALO_MIN,          /* halo cells per part (received per step) */
  SQZ_PARTS_HALO_MAX,
  SQZ_PARTS_HALO_TOTAL,
  SQZ_PARTS_BIT_BYTES_MAX,     /* bytes per step at 1 bit per cell, one message per source part */
  SQZ_PARTS_BIT_BYTES_TOTAL,
  SQZ_PARTS_SOURCES_MAX,       /* the most parts one part receives from */
  SQZ_PARTS_MESSAGES,          /* (part, source part) pairs: messages per step */
  SQZ_PARTS_MAX_COUNT,         /* the largest valid P: min(|D|, 2^20) */
  SQZ_PARTS_VALUES
} sqz_parts_value;
SQZ_API int sqz_parts_info(const sqz_domain *dom, uint64_t parts, uint64_t *values, size_t n_values);

/* ---- fields ---------------------------------------------------------------------------------
 * A field holds one value per domain cell, stored in a layout: "bb", "compact" (all domains),
 * "lambda" and "block:RHO" (fractals). NULL means "compact". Cells outside the domain always
 * read as 0 and are never written. */
typedef enum { SQZ_U8 = 1, SQZ_I32 = 2, SQZ_F32 = 3, SQZ_F64 = 4 } sqz_type;
SQZ_API size_t sqz_type_size(sqz_type type);
SQZ_API int sqz_field_create(sqz_domain *dom, sqz_type type, const char *layout, sqz_field **out);
/* A field in `parts` parts (docs/SCALING.md): separate buffers with halos, stepped with results
 * identical to one buffer; parts = 0 takes as few as keep every buffer within the device's
 * single-allocation limit (UINT64_MAX is no count: SQZ_ERR_INVALID_ARGUMENT naming it). sqz_field_create takes that automatic count itself when one buffer
 * would not fit. Every layout parts on the opencl and cpu backends (bb, lambda and simplex bits by
 * bands of rows); the cuda backend holds none (SQZ_ERR_UNSUPPORTED). Too many parts:
 * SQZ_ERR_INVALID_ARGUMENT naming the largest count. */
SQZ_API int sqz_field_create_parts(sqz_domain *dom, sqz_type type, const char *layout, uint64_t parts,
                                   sqz_field **out);
/* The parts spread over n_ctx contexts of one backend (contiguous blocks of parts per context;
 * parts = 0: one per context), halos exchanged through the host. dom's context need not be one
 * of them. */
SQZ_API int sqz_field_create_devices(sqz_domain *dom, sqz_context *const *ctxs, size_t n_ctx, sqz_type type,
                                     const char *layout, uint64_t parts, sqz_field **out);
SQZ_API uint64_t sqz_field_parts(const sqz_field *field); /* 1 for a field in one buffer, 0 for NULL */
/* The part count sqz_field_create would take for (dom, type, layout) on ctx's device (1 when one
 * buffer fits; 0 when it does not and the layout does not part, or two buffers exceed the device's
 * memory) and that count's halo bytes per step; nothing is allocated (dom's own context is unused). */
SQZ_API int sqz_field_parts_auto(sqz_domain *dom, sqz_context *ctx, sqz_type type, const char *layout,
                                 uint64_t *parts, uint64_t *halo_bytes);
/* A field of (dom, type, layout) in `parts` parts, without a device or storage: its largest part
 * buffer (own units and halo) and the halo bytes per step (one step per exchange; layout bits: whole
 * bits tiles, or rows of words on simplices; bb, lambda: bounding-box rows). SQZ_ERR_UNSUPPORTED for a layout that does not part, SQZ_ERR_INVALID_ARGUMENT for a
 * count it cannot take (the message names the largest). */
SQZ_API int sqz_field_parts_bytes(sqz_domain *dom, sqz_type type, const char *layout, uint64_t parts,
                                  uint64_t *part_bytes, uint64_t *halo_bytes);
/* Bytes the halo exchange copies into the parts before each step (0 for a field in one buffer). */
SQZ_API uint64_t sqz_field_halo_bytes(const sqz_field *field);
/* Where a field in parts spent its steps' host time since creation: in its halo exchanges
 * (exchange_s; of that, wait_s blocked on the halo arriving: messages, transfers), and in the
 * calls that step the inner units (whose cells read no halo, stepped while the halo moves) and
 * the border units (inner_s, border_s: the run time on the cpu backend, the enqueue time on a
 * device queue, whose kernels run meanwhile); steps counts them, exchanges the halo exchanges
 * (steps / T with T steps per exchange: SQZ_EXCHANGE_STEPS). All 0 for a field in one buffer. */
typedef struct {
  double exchange_s, wait_s, inner_s, border_s;
  uint64_t steps, exchanges;
} sqz_parts_times;
SQZ_API int sqz_field_parts_times(const sqz_field *field, sqz_parts_times *times);
SQZ_API void sqz_field_retain(sqz_field *field);
SQZ_API void sqz_field_release(sqz_field *field); /* NULL is a no-op */
SQZ_API sqz_type sqz_field_type(const sqz_field *field);
SQZ_API sqz_domain *sqz_field_domain(const sqz_field *field); /* the domain the field was created on */
SQZ_API const char *sqz_field_layout(const sqz_field *field); /* canonical layout string */
SQZ_API uint64_t sqz_field_bytes(const sqz_field *field);      /* device bytes of all buffers */
/* Thread map, one of the registry's (sqz_map_list): simplices 2D "bb", "ltm", "rb", "had",
 * "had-above", "had-below", "rec"; 3D "bb", "ltm3", "had3", "rec3". NULL restores the default.
 * A map of the wrong dimension gives SQZ_ERR_INVALID_ARGUMENT. Fractals accept "bb" only for
 * layout bb (the method is the layout there); in the other layouts the tile's λ of a Life
 * step is a map of the context's backend: on opencl "seq" (sequential digit loop, the
 * default) or "group" (group-parallel: one work-item per level and a tree sum, through
 * sub-groups where the device has them), on cuda "mma" (default) or "alu"; all give
 * identical states; the backend's default tile map reads back as "" from sqz_field_map. */
SQZ_API int sqz_field_set_map(sqz_field *field, const char *map);
SQZ_API const char *sqz_field_map(const sqz_field *field);
/* The map a step of the field runs: the one set, else the default for its domain and backend
 * ("had3", "seq", "mma", "bb" for fractals in layout bb, "none" where the backend has no tile
 * map). Static string. */
SQZ_API const char *sqz_field_map_resolved(const sqz_field *field);
/* The engine path the field's last step call ran (e.g. "fractal-tiles-life-u8", "fractal-tiles-generic";
 * "" before the first step, or for a NULL field), and in *skipped (when not NULL) the faster paths the
 * backend tried first with the reason each did not apply, as "path: reason; path: reason" ("" when
 * the first applied). A field in parts reports its part 0's path. The strings belong to the field
 * and change at its next step call. With SQZ_DEBUG=1 each step call whose choice differs from the
 * last printed one writes it to stderr. */
SQZ_API const char *sqz_field_engine(const sqz_field *field, const char **skipped);
/* The engine paths of a backend ("opencl", "cpu", "cuda"), in the order each field's step tries those that step
 * it: the name of the i-th (what sqz_field_engine reports and the option engine takes to force it) and in *when
 * (when not NULL) the fields it steps and when it applies, one line; NULL past the last or for an unknown
 * backend. Static strings. docs/ARCHITECTURE.md, "Engine paths", tabulates them. */
SQZ_API const char *sqz_engine_path(const char *backend, size_t i, const char **when);
/* Block side rho of the launch (work-group edge); 0 = automatic. */
SQZ_API int sqz_field_set_block(sqz_field *field, uint32_t rho);
/* Storage order: *index = the storage index of the embedded cell (x, y, z) (z ignored in 2D), the
 * element that holds it in the field's buffer, or -1 when the cell is not a domain cell. An element
 * of the field's type (byte index * sqz_type_size) in every layout but bits, where it is a bit index
 * (bit index mod 32 of 32-bit word index / 32); per layout: sqz_field_cl_mem, include/sqz_opencl.h.
 * SQZ_ERR_INVALID_ARGUMENT for NULL pointers. */
SQZ_API int sqz_field_index(const sqz_field *field, uint64_t x, uint64_t y, uint64_t z, int64_t *index);
/* The same rule in words, e.g. "compact triangle: rectangle fold, ... index v*W + u": a static
 * string, valid for the life of the process. */
SQZ_API const char *sqz_field_layout_rule(const sqz_field *field);

/* Embedded host arrays: 2D row-major side x side (y*side + x); 3D side x side x side
 * (z*side*side + y*side + x). bytes must equal side^dims * type size. Writing a non-zero value
 * to a cell outside the domain fails with SQZ_ERR_OUTSIDE_DOMAIN and changes nothing. */
SQZ_API int sqz_field_write(sqz_field *field, const void *embedded, size_t bytes);
SQZ_API int sqz_field_read(sqz_field *field, void *embedded, size_t bytes);
/* The state in compact order, count = sqz_domain_cells values of the field's type, whatever the
 * layout and without a bounding-box array: fractals in the digit order of λ (value c belongs to
 * embedded cell λ(c), docs/MAPS.md 4.2), triangles and tetrahedra in the storage order of layout
 * compact (the rectangle fold; layers, rows). A field in layout compact transfers directly; other
 * layouts move bands of 2^17 cells through their storage indices (host memory: the caller's array
 * and 1 MiB of indices, never a copy of the storage). */
SQZ_API int sqz_field_read_compact(sqz_field *field, void *values, uint64_t count);
SQZ_API int sqz_field_write_compact(sqz_field *field, const void *values, uint64_t count);
/* Each domain cell is 1 with probability density, from a counter-based hash of (seed,
 * embedded coordinates): identical across layouts, maps and backends. */
SQZ_API int sqz_field_fill_random(sqz_field *field, double density, uint64_t seed);
/* Copies src's domain cells into dst (same domain; any layouts, same type). */
SQZ_API int sqz_field_copy(sqz_field *dst, const sqz_field *src);

/* ---- reductions (device-side tree reduction) ------------------------------------------
 * Each work-group reduces a strided share of the buffer as a tree, the host combines the
 * per-group results. Counting is exact in 64 bits for every type; for floats "non-zero"
 * is decided on the bits with the sign masked (-0.0 counts as zero, NaN as non-zero).
 * Sums of SQZ_U8 / SQZ_I32 are exact 64-bit integer sums (the method is ignored).
 * SQZ_SUM_PAIRWISE: a balanced tree in the element's own precision, error O(log n) ulp of
 *   sum |x|. SQZ_SUM_NEUMAIER: compensated (sum, correction) pairs, in double for float32
 *   data when the device has fp64 (else compensated float); within a few ulp of the exactly
 *   rounded sum. SQZ_F64 sums need a device with cl_khr_fp64 (else SQZ_ERR_UNSUPPORTED).
 * A NaN or infinity in the data gives SQZ_ERR_NON_FINITE; a finite sum that overflows gives
 * SQZ_ERR_TOO_LARGE. Host arrays larger than the device's largest buffer are reduced in
 * pieces. */
typedef enum { SQZ_SUM_PAIRWISE = 0, SQZ_SUM_NEUMAIER = 1 } sqz_sum_method;
/* Exact 64-bit count of non-zero domain cells. */
SQZ_API int sqz_field_count(sqz_field *field, uint64_t *nonzero);
/* Sum of the domain cells (see above for the methods and the statuses). */
SQZ_API int sqz_field_sum(sqz_field *field, sqz_sum_method method, double *sum);
/* The same reductions over a plain host array (copied to the device). */
SQZ_API int sqz_count(sqz_context *ctx, sqz_type type, const void *data, uint64_t n, uint64_t *nonzero);
SQZ_API int sqz_sum(sqz_context *ctx, sqz_type type, const void *data, uint64_t n,
                    sqz_sum_method method, double *sum);

/* ---- observables: measures of the state along a run (docs/OBSERVABLES.md) -------------------
 * Reductions on the device over the domain cells only, each cell's position from the layout's map:
 * no copy of the field to the host. Each item gives one value, SQZ_OBS_COM one per dimension:
 *   SQZ_OBS_SUM      sum of the cells            SQZ_OBS_NONZERO  cells != 0 (Life: the population)
 *   SQZ_OBS_MIN/MAX  smallest and largest cell
 *   SQZ_OBS_M2       sum of u * |p - c|^2 over the cells at p = (x, y[, z]), about the point c = (x, y, z)
 *                    of the item (real numbers: (-0.5, -0.5) is the corner of cell (0, 0))
 *   SQZ_OBS_COM      centre of mass sum(u p) / sum(u), in the order y, x[, z] (NaN when the sum is 0)
 *   SQZ_OBS_PROBE    the value of the cell (x, y, z) of the item (integers; a domain cell)
 * Sums are accumulated in double (compensated, like SQZ_SUM_NEUMAIER) where the device has fp64,
 * else in compensated float; partials are combined on the host in long double. At most
 * SQZ_OBSERVE_MAX_POINTS items of kind SQZ_OBS_M2 per call. Layout bits holds 0/1 cells and gives no
 * positions on the device: SQZ_OBS_M2 and SQZ_OBS_COM there are SQZ_ERR_UNSUPPORTED naming it. */
typedef enum {
  SQZ_OBS_SUM = 0, SQZ_OBS_NONZERO, SQZ_OBS_MIN, SQZ_OBS_MAX, SQZ_OBS_M2, SQZ_OBS_COM, SQZ_OBS_PROBE
} sqz_observable_kind;
typedef struct {
  sqz_observable_kind kind;
  double x, y, z; /* SQZ_OBS_M2: the centre; SQZ_OBS_PROBE: the cell (2D: z = 0) */
} sqz_observable;
#define SQZ_OBSERVE_MAX_POINTS 8
/* Parses an item as the CLI's --observe writes it: "sum", "nonzero", "min", "max", "com",
 * "m2@Y,X" / "m2@Z,Y,X" (finite real numbers), "probe@Y,X" / "probe@Z,Y,X" (a domain cell of dom).
 * SQZ_ERR_PARSE naming the text (unknown item, malformed or missing coordinates, a count other
 * than dom's dimensions), SQZ_ERR_INVALID_ARGUMENT for a probe outside dom; the detail in
 * sqz_last_error of dom's context. */
SQZ_API int sqz_observable_parse(const sqz_domain *dom, const char *text, sqz_observable *out);
/* Values the item gives on a domain of dims dimensions: dims for SQZ_OBS_COM, else 1. */
SQZ_API size_t sqz_observable_width(const sqz_observable *item, int dims);
/* The n items of field's current state into out (the widths of the items in order). */
SQZ_API int sqz_field_observe(sqz_field *field, const sqz_observable *items, size_t n, double *out);
/* An observer of the blocking step calls on ctx (life, heat, stencils): fn is called after every
 * `every` steps of a call (done = the call's steps so far) and after its last step, with the field
 * holding the state after `done` steps; it returns SQZ_OK to go on, any other status ends the call,
 * which returns that status. every = 0 or fn NULL removes it. Steps run in chunks between calls,
 * with the same results as an uninterrupted run. */
typedef int (*sqz_observer_fn)(sqz_field *field, uint64_t done, void *user_data);
SQZ_API int sqz_context_set_observer(sqz_context *ctx, uint64_t every, sqz_observer_fn fn, void *user_data);

/* ---- cellular automata ------------------------------------------------------------------ */
/* B<counts>/S<counts> in any case and either order, the '/' optional: "B3/S23", "b3s23", "B3S23",
 * "S23/B3"; in 2D also Golly's digits-only S/B form "23/3" (survival/birth). Counts are single
 * digits ("S23": 2 and 3) or comma-separated integers ("B6/S5,6,7"). In 3D, where counts reach 26,
 * several digits without a comma ("B27") are ambiguous and a parse error; a single count of 10 or
 * more is written with a trailing comma ("B14,/S5,6"). Counts above the neighbourhood (8 in 2D,
 * 26 in 3D) are a parse error. err gets a message naming the bad part (may be NULL). */
SQZ_API int sqz_rule_parse(const char *rule, int dims, uint32_t *birth_mask, uint32_t *survive_mask,
                           char *err, size_t err_len);
/* Also Golly's Generations rules (docs/GENERATIONS.md): B<counts>/S<counts>/C<n> (or G<n>; "B2/S/C3",
 * "B2SC3") and in 2D the digits-only S/B/C ("/2/3" Brian's Brain, "345/2/4" Star Wars), n from 2 to
 * 256; *states gets n (2 for the two-state forms above, which this function reads too). sqz_rule_parse
 * refuses a rule of more than 2 states. */
SQZ_API int sqz_rule_parse_states(const char *rule, int dims, uint32_t *birth_mask, uint32_t *survive_mask,
                                  uint32_t *states, char *err, size_t err_len);
/* steps generations of a Life-like rule on a SQZ_U8 field (Moore neighbourhood: 8 cells in
 * 2D, 26 in 3D; cells outside the domain or on fractal holes are dead and never written).
 * Cells hold 0 (dead) or 1 (alive), as the fills, PBM and RLE files give them; the number of
 * live neighbours is the sum of the neighbours' values. The step does not check: an .npy or
 * HDF5 state (or sqz_field_write) may hold other bytes, on which backends differ; check such a
 * state once with sqz_life_check (layout bits refuses them when they are written).
 * rule NULL is the default of the dimension: B3/S23 in 2D, B6/S5,6,7 in 3D.
 * A Generations rule of C > 2 states (sqz_rule_parse_states) keeps states 0..C-1: state 1 is alive
 * and the only one counted as a neighbour, a live cell that does not survive becomes 2, a dying
 * cell 2..C-1 advances by one each step and becomes 0 after C-1; layout bits refuses it
 * (SQZ_ERR_INVALID_ARGUMENT naming the rule), the cuda backend too (SQZ_ERR_UNSUPPORTED).
 * On the cuda backend (fractals, layout block:RHO) sqz_field_set_map(f, "mma" | "alu")
 * picks tensor-core or ALU λ/ν. */
SQZ_API int sqz_life_step(sqz_field *field, const char *rule, uint64_t steps);
/* SQZ_OK when every domain cell of a SQZ_U8 field holds 0 or 1, else SQZ_ERR_INVALID_ARGUMENT
 * naming the first other cell in the embedded array's order (the .npy order): "triangle:8: cell 17
 * (x 1, y 2) holds 2; Life cells are 0 or 1" (3D adds z). Cost: one count on the device (of the cells
 * above 1); the state is read back, in bands, only when there are some. */
SQZ_API int sqz_life_check(sqz_field *field);
/* The same for the states of a rule (NULL: the dimension's default): every domain cell below its
 * number of states C ("... holds 5; the cells of rule '/2/3' are 0 to 2"), and the field's layout able
 * to hold them (a Generations rule on layout bits: SQZ_ERR_INVALID_ARGUMENT naming the rule). A bad
 * rule is SQZ_ERR_PARSE. */
SQZ_API int sqz_life_check_rule(sqz_field *field, const char *rule);
/* User rule: an OpenCL C function body with parameters (uchar self, uint live) returning
 * uchar, e.g. "return (live == 3 || (self && live == 2)) ? 1 : 0;", where live is the number of
 * non-zero neighbours (so a body may keep other values in a cell, such as ages). The engine wraps it as an update (sqz_stencil_step is the general form).
 * OpenCL backend only. */
SQZ_API int sqz_life_step_custom(sqz_field *field, const char *cell_body, uint64_t steps);

/* ---- the stencil engine: user stencils and heat diffusion --------------------------------
 * Every workload is one engine: a traversal of the domain in the field's layout and map, a
 * gather of each cell's Moore neighbourhood, and a cell update. A user update is OpenCL C
 * (any OpenCL device) or a C function (the cpu backend), with the same contract:
 *
 *   sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,
 *                         __constant const sqz_param_t *param);
 *
 * sqz_cell_t is the field's type (uchar, int, float, double); sqz_param_t is double for SQZ_F64
 * fields and float otherwise; SQZ_NB is 8 in 2D and 26 in 3D; SQZ_DIMS is 2 or 3. Neighbours
 * come in raster order of their offsets with the centre skipped: 2D (dy, dx) = (-1,-1),
 * (-1,0), (-1,1), (0,-1), (0,1), (1,-1), (1,0), (1,1) (y down, x right); 3D (dz, dy, dx) over
 * {-1,0,1}^3 likewise. Bit i of present is 1 when neighbour i is a domain cell; absent ones
 * (holes, outside) read as 0. Every cell of the domain is updated once per step from the
 * previous state (two buffers). Float updates are compiled without contraction
 * (FP_CONTRACT OFF), so a C function with the same arithmetic gives the same bits. */

/* OpenCL C source defining sqz_update; source_name labels its lines in the build log (a build
 * failure is SQZ_ERR_BUILD_FAILED with the log in sqz_last_error). param: n_param values,
 * converted to sqz_param_t (each must be finite and, for float parameters, fit a float). */
SQZ_API int sqz_stencil_step(sqz_field *field, const char *source, const char *source_name, const double *param,
                             size_t n_param, uint64_t steps);
/* The C form of an update, for the cpu backend: self, nb (SQZ_NB cells) and out point to cells of
 * the field's type, param to n_param values of sqz_param_t (float, or double for SQZ_F64). */
typedef void (*sqz_update_fn)(const void *self, const void *nb, uint32_t present, const void *param, void *out,
                              void *user_data);
SQZ_API int sqz_stencil_step_fn(sqz_field *field, sqz_update_fn fn, void *user_data, const double *param,
                                size_t n_param, uint64_t steps);
/* Explicit heat diffusion on an SQZ_F32 or SQZ_F64 field, insulated holes and borders:
 * u' = u + alpha * sum over the face neighbours that are domain cells (2D: N, W, E, S; 3D: the
 * 6 faces) of (u_n - u). 0 < alpha <= sqz_heat_alpha_max(dims) (1/4 in 2D, 1/6 in 3D). The total
 * is conserved to round-off. */
SQZ_API int sqz_heat_step(sqz_field *field, double alpha, uint64_t steps);
SQZ_API double sqz_heat_alpha_max(int dims);
/* Each domain cell of an SQZ_F32 / SQZ_F64 field gets a uniform value in [0, 1) from a
 * counter-based hash of (seed, embedded coordinates), identical on every backend and layout. */
SQZ_API int sqz_field_fill_uniform(sqz_field *field, uint64_t seed);
/* Every domain cell gets `value` (u8 and i32 fields: an integer of the type's range; layout bits:
 * 0 or 1; floats: finite). Like the other fills it runs on the device, part by part. */
SQZ_API int sqz_field_fill_const(sqz_field *field, double value);
/* One domain cell by its coordinates (2D: z = 0): set from or read into a double (converted to
 * the cell type as sqz_field_fill_const does). A coordinate outside the domain or on a hole is
 * SQZ_ERR_INVALID_ARGUMENT naming the cell. On a field whose parts live on MPI ranks every rank
 * calls sqz_field_set_cell and the rank holding the cell writes it; sqz_field_get_cell needs the
 * part here (SQZ_ERR_UNSUPPORTED otherwise). A point source is sqz_field_fill_const(f, 0) and one
 * sqz_field_set_cell. */
SQZ_API int sqz_field_set_cell(sqz_field *field, uint64_t x, uint64_t y, uint64_t z, double value);
SQZ_API int sqz_field_get_cell(sqz_field *field, uint64_t x, uint64_t y, uint64_t z, double *value);

/* ---- state files ------------------------------------------------------------------------- */
/* PBM (P1/P4 read, P4 write), 1 = alive, embedded image (3D: width N, height N*N). */
SQZ_API int sqz_field_load_pbm(sqz_field *field, const char *path);
SQZ_API int sqz_field_save_pbm(sqz_field *field, const char *path);
/* NumPy .npy (format 1.0) of the embedded array: shape (side, side) indexed [y][x] in 2D,
 * (N, N, N) indexed [z][y][x] for tetrahedra; dtype |u1 (or <u1 on input), <i4, <f4, <f8 for
 * SQZ_U8, SQZ_I32, SQZ_F32, SQZ_F64; C order, little-endian. Cells outside the domain are
 * written as 0; a non-zero one on input gives SQZ_ERR_OUTSIDE_DOMAIN naming the cell. A file
 * sqz cannot take (not .npy, version other than 1.0, malformed or truncated header or data,
 * trailing bytes, fortran_order True, big-endian or other dtypes, a dtype other than the
 * field's, a wrong shape) gives SQZ_ERR_PARSE with the detail naming what was found and what
 * was expected; system errors give SQZ_ERR_IO with strerror. Saving writes a temporary file
 * beside the target, fsyncs it and renames it over the target: never a partial file. */
SQZ_API int sqz_field_load_npy(sqz_field *field, const char *path);
SQZ_API int sqz_field_save_npy(sqz_field *field, const char *path);
/* Golly RLE patterns (2D domains, SQZ_U8 fields; a 3D domain or another cell type is
 * SQZ_ERR_INVALID_ARGUMENT). Format: '#' comment lines ("#CXRLE Pos=X,Y" gives the pattern's
 * offset; #N and the rest are ignored), the header "x = W, y = H[, rule = R]", then runs of b
 * (dead), o (alive) and $ (end of row), each with an optional count, whitespace and newlines
 * anywhere between them, '!' at the end; multi-state cells as Golly writes them for Generations
 * rules: '.' dead, A..X states 1..24, pA..pX 25..48, qA.. up to yO 255.
 * Loading places the pattern's top-left at (at_x + X, at_y + Y) of the embedding (X, Y from
 * #CXRLE Pos, else 0) and sets every other cell to 0. A malformed file (bad header, live cells
 * beyond W x H, a missing '!', a count that overflows, a state above 255, any other byte) is
 * SQZ_ERR_PARSE naming the line and column; a live cell outside the domain or on a hole is
 * SQZ_ERR_OUTSIDE_DOMAIN naming it in pattern and in domain coordinates. The header's rule is not
 * applied (sqz_rle_info reads it). */
SQZ_API int sqz_field_load_rle(sqz_field *field, const char *path, int64_t at_x, int64_t at_y);
/* Writes the bounding box of the live (non-zero) cells: "#CXRLE Pos=X,Y" (where the box starts in
 * the embedding), "x = W, y = H, rule = R" with rule (NULL: B3/S23; any form sqz_rule_parse_states
 * takes for 2D) in Golly's B3/S23 form (B2/S/C3 for Generations, whose cells are then written with
 * the multi-state tags), and runs in lines of at most 70 characters; an empty state is
 * "x = 0, y = 0". load(save(f)) at (0, 0) restores f. Written atomically, like the .npy files. */
SQZ_API int sqz_field_save_rle(sqz_field *field, const char *path, const char *rule);
/* The header of an RLE file: pattern size W x H and its rule as written ("" when the header has
 * none; SQZ_RLE_RULE_MAX bytes hold any). The whole file is checked as sqz_field_load_rle does,
 * placement aside. Any output pointer may be NULL; ctx may be NULL (the thread's detail slot). */
#define SQZ_RLE_RULE_MAX 64
SQZ_API int sqz_rle_info(sqz_context *ctx, const char *path, uint64_t *width, uint64_t *height, char *rule,
                         size_t rule_len);
/* Golly plaintext (.cells) patterns, like RLE (2D domains, SQZ_U8 fields): lines starting with '!'
 * are comments, every other line is a row: '.' dead, 'O' (or '*') alive, trailing dead cells left
 * out, an empty line an empty row. Loading places the top-left at (at_x + X, at_y + Y), X, Y from a
 * "!Pos: X,Y" comment (sqz's own, which Golly ignores), else 0; every other cell becomes 0. A byte
 * other than those is SQZ_ERR_PARSE naming the line and column; placement errors as for RLE. */
SQZ_API int sqz_field_load_cells(sqz_field *field, const char *path, int64_t at_x, int64_t at_y);
/* Writes the bounding box of the live cells: "!Name: NAME" (name NULL: no such line; a control
 * character in it is SQZ_ERR_INVALID_ARGUMENT), "!Pos: X,Y" (where the box starts in the
 * embedding), then a line per row of the box, '.' and 'O' without the trailing dead cells ("." for
 * an empty row); an empty state has no rows. load(save(f)) at (0, 0) restores f. Atomic. */
SQZ_API int sqz_field_save_cells(sqz_field *field, const char *path, const char *name);
/* Loads a pattern or image, dropping its live (non-zero) cells that land outside the domain or on
 * its holes instead of refusing the file: .rle and .cells placed as above, .npy and PBM (any other
 * extension; placed at (0, 0) only). *clipped (may be NULL) gets how many were dropped. Every live
 * cell dropped (and some were) is SQZ_ERR_OUTSIDE_DOMAIN naming the file: nothing would be left.
 * Other errors as the format's own load; an .h5 checkpoint is SQZ_ERR_INVALID_ARGUMENT. */
SQZ_API int sqz_field_load_clipped(sqz_field *field, const char *path, int64_t at_x, int64_t at_y,
                                   uint64_t *clipped);
/* HDF5 checkpoints: include/sqz_hdf5.h (the library libsqz-hdf5, CMake component hdf5). */
/* PNG picture (needs libpng), a pixel a cell; cells outside the domain and holes in their own colour.
 * SQZ_U8 fields: a colour per state, 0 dead (light), 1 live (dark), 2 and up eight distinct colours,
 * cycled. SQZ_I32, SQZ_F32, SQZ_F64: the viridis colour map from the smallest to the largest finite
 * value of the domain cells, that range written as the tEXt chunk "sqz:range" = "MIN MAX". */
SQZ_API int sqz_field_save_png(sqz_field *field, const char *path);
/* The same picture, size pixels on its longer side (0: a pixel a cell). Smaller than the embedding: a
 * pixel covers a square of ceil(side / size) cells, drawn in the mean colour of their states (u8) or
 * at their mean value, the hole colour where none is a domain cell. Larger: each cell is k x k pixels,
 * k = floor(size / side) (exactly size when size is a multiple of the side). Memory: one band of rows
 * and one picture row, whatever the level. */
SQZ_API int sqz_field_save_png_sized(sqz_field *field, const char *path, uint64_t size);
/* The same, with the range the colour map spans in *min and *max (either may be NULL; 0 and 0 for
 * SQZ_U8 fields, whose states have fixed colours, and on failure). */
SQZ_API int sqz_field_save_png_range(sqz_field *field, const char *path, uint64_t size, double *min, double *max);

/* Every file sqz writes (PBM, .npy, RLE, PNG; a device, FIFO or socket is written in place:
 * sqz_path_in_place below) goes to a unique temporary "<path>.XXXXXX" beside the
 * target, made with mkstemp (never through an existing name or a link), fsynced and renamed over
 * the target only when complete: a failed save leaves the target as it was and no temporary. PBM,
 * .npy, PNG and RLE are produced and read row by row, in bands of at most 2^17 domain cells (or one
 * row when a row has more) gathered from or scattered to the device: host memory is a few MiB,
 * whatever the level, never the storage or the bounding-box image. A load builds the state in the
 * field's second buffer and makes it current only when the whole file was read and found good (a
 * bad file leaves the field as it was; sqz_field_cl_mem changes). Large host buffers are checked against the
 * memory the host can give (MemAvailable, the cgroup's limit, RLIMIT_AS / RLIMIT_DATA) before they
 * are allocated: SQZ_ERR_OUT_OF_MEMORY with "needs N bytes of host memory, A available".
 *
 * Unlinks the temporaries of the saves in progress in this process. Async-signal-safe (it only reads
 * a fixed table and calls unlink), for a SIGINT / SIGTERM handler that then ends the process; a
 * save it interrupts fails at its rename and leaves the target untouched. */
SQZ_API void sqz_remove_temporaries(void);
/* 1 when a save to path writes the target in place instead of through a temporary: path is (or
 * links to) a character or block device, a FIFO or a socket, or is a descriptor's link of /proc
 * (/dev/fd/N, /dev/stdout). Such a target is opened for writing as a shell's > opens it (a FIFO
 * waits for its reader) and written directly: never replaced, and not atomic (a failed save may
 * leave part of the file written). 0 for a regular file, a link to one (the link is replaced, as
 * rename does), a folder or a name that does not exist yet. */
SQZ_API int sqz_path_in_place(const char *path);

/* ---- Euclidean distance matrix on the triangle ------------------------------------------ */
/* xy: n points as x0 y0 x1 y1 ...; out: the n(n+1)/2 lower-triangle entries in row-major
 * order (y = 0..n-1, x = 0..y). map: a 2D simplex map, NULL for the default.
 * Every distance a float can hold comes out finite and, when the points differ, non-zero: the
 * arithmetic is in double on the cpu backend and on devices with cl_khr_fp64 (within 1 ulp of the
 * exact distance, the same bits on both), else in float scaled by the larger difference (within
 * 2 ulp). A distance beyond FLT_MAX gives SQZ_ERR_NON_FINITE naming the pair (out then holds
 * infinity there); a non-finite coordinate gives SQZ_ERR_NON_FINITE naming the point. */
SQZ_API int sqz_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out);

#ifdef __cplusplus
}
#endif
#endif /* SQZ_H */
