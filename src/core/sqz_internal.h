/* sqz_internal.h — private structures and helpers shared by the library's source files. */
#ifndef SQZ_INTERNAL_H
#define SQZ_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "sqz.h"
#include "sqz_common.h"
#include "core/embedded.h"

#define SQZ_INTERNAL __attribute__((visibility("hidden")))

typedef enum { SQZ_BACKEND_CPU = 0, SQZ_BACKEND_OPENCL = 1, SQZ_BACKEND_CUDA = 2 } sqz_backend_id;

/* ---- context ----------------------------------------------------------------------------- */
typedef struct sqz_program_entry {
  uint64_t key;
  cl_program program;
  struct sqz_program_entry *next;
} sqz_program_entry;

struct sqz_cuda; /* src/cuda/ */

struct sqz_context {
  sqz_backend_id backend;
  char device_name[256];
  char platform_name[256];
  char driver_version[128];
  char c_version[128];
  uint64_t global_mem, max_alloc;
  size_t max_work_group;
  unsigned compute_units;
  int is_gpu;
  uint64_t local_mem; /* bytes of local memory per work-group (tests may lower it) */
  int sync; /* SQZ_SYNC=1: finish after every launch and fill, naming the one that fails */
  /* opencl */
  cl_platform_id platform;
  cl_device_id device;
  cl_context cl;
  cl_command_queue queue;
  sqz_program_entry *programs; /* in-memory program cache */
  /* cuda */
  struct sqz_cuda *cuda;
  /* errors and timing */
  char *detail;
  size_t detail_cap;
  double kernel_s, wall_s, op_start;
  cl_event *pending; /* kernels enqueued since the last sqz__finish */
  size_t n_pending, cap_pending;
};

/* Records a failure: stores the formatted detail in ctx (or the thread's slot when ctx is
 * NULL) and returns status, so call sites read `return sqz__fail(ctx, SQZ_ERR_PARSE, ...)`.
 * With SQZ_DEBUG=1 in the environment the detail is also written to stderr. */
SQZ_INTERNAL int sqz__fail(sqz_context *ctx, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
SQZ_INTERNAL void sqz__clear_error(sqz_context *ctx);
/* Appends text to the current detail (for build logs). */
SQZ_INTERNAL void sqz__append_detail(sqz_context *ctx, const char *text);

/* Wall clock in seconds (monotonic). */
SQZ_INTERNAL double sqz__now(void);
/* Starts an operation: clears timing; sqz__op_end fills wall_s. */
SQZ_INTERNAL void sqz__op_begin(sqz_context *ctx);
SQZ_INTERNAL void sqz__op_end(sqz_context *ctx);

/* ---- OpenCL helpers (src/opencl/) ---------------------------------------------------------- */
/* Looks up an embedded file of cl/ by name ("life_fractal.cl"); NULL if absent. */
SQZ_INTERNAL const sqz_embedded_file *sqz__cl_file(const char *name);

/* Builds (or fetches from the memory and disk caches) a program made of `prelude` followed by
 * the embedded files named in `files` (NULL-terminated), with `options` (+ $SQZ_BUILD_OPTIONS).
 * On a build failure returns SQZ_ERR_BUILD_FAILED with device, options and log in the detail. */
SQZ_INTERNAL int sqz__program(sqz_context *ctx, const char *prelude, const char *const *files,
                              const char *options, cl_program *out);
/* Same, from one complete source text (used for user rule bodies and tests). */
SQZ_INTERNAL int sqz__program_source(sqz_context *ctx, const char *source, const char *options,
                                     cl_program *out);
SQZ_INTERNAL int sqz__kernel(sqz_context *ctx, cl_program program, const char *name, cl_kernel *out);
/* Enqueues an NDRange (global must be a multiple of local; local may be NULL) without
 * waiting; its event time is added to ctx->kernel_s by sqz__finish. */
SQZ_INTERNAL int sqz__run(sqz_context *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                          const size_t *local);
/* Waits for every enqueued command and adds the pending kernels' event times to kernel_s. */
SQZ_INTERNAL int sqz__finish(sqz_context *ctx);
/* Sets kernel arguments in order from a list of (size, pointer) pairs ended by 0. */
SQZ_INTERNAL int sqz__args(sqz_context *ctx, cl_kernel k, ...);
/* Allocates a device buffer, checking the device's max single allocation first
 * (SQZ_ERR_TOO_LARGE with both byte counts). */
SQZ_INTERNAL int sqz__buffer(sqz_context *ctx, uint64_t bytes, cl_mem_flags flags, cl_mem *out);
/* Enqueues zeroing of bytes [0, bytes) of buf (fills and copies that every driver accepts). */
SQZ_INTERNAL int sqz__zero_buffer(sqz_context *ctx, cl_mem buf, uint64_t bytes);
/* Checks an OpenCL status and records which call failed. */
#define SQZ_CL_CHECK(ctx, call)                                                                 \
  do {                                                                                          \
    cl_int sqz_cl_err_ = (call);                                                                \
    if (sqz_cl_err_ != CL_SUCCESS)                                                              \
      return sqz__fail((ctx), sqz_cl_err_, "%s failed: %s (%s:%d)", #call,                      \
                       sqz_status_name(sqz_cl_err_), __FILE__, __LINE__);                       \
  } while (0)
/* Variant that jumps to a cleanup label with status set. */
#define SQZ_CL_GOTO(ctx, st, label, call)                                                       \
  do {                                                                                          \
    cl_int sqz_cl_err_ = (call);                                                                \
    if (sqz_cl_err_ != CL_SUCCESS) {                                                            \
      (st) = sqz__fail((ctx), sqz_cl_err_, "%s failed: %s (%s:%d)", #call,                      \
                       sqz_status_name(sqz_cl_err_), __FILE__, __LINE__);                       \
      goto label;                                                                               \
    }                                                                                           \
  } while (0)

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
  sqz_context *ctx; /* may be NULL */
  sqz_domain_kind kind;
  int dims;
  uint64_t side;  /* N, or s^R */
  uint64_t cells; /* |D| */
  char spec[320];
  sqz_fractal fr; /* fractals only */
};

/* ---- fields ------------------------------------------------------------------------------- */
typedef enum { SQZ_LAYOUT_BB = 0, SQZ_LAYOUT_COMPACT = 1, SQZ_LAYOUT_LAMBDA = 2, SQZ_LAYOUT_BLOCK = 3 } sqz_layout_id;

struct sqz_field {
  sqz_domain *dom;
  sqz_context *ctx;
  sqz_type type;
  sqz_layout_id layout;
  uint32_t layout_rho; /* block:RHO */
  char layout_str[32];
  char map[16];        /* simplex thread map name ("" = default) */
  uint32_t block;      /* launch block side, 0 = automatic */
  uint64_t elems;      /* storage elements of one buffer */
  uint64_t width, height; /* storage as a 2D array (width * height == elems) */
  void *host[2];       /* cpu backend: ping-pong buffers */
  cl_mem buf[2];       /* opencl backend: ping-pong buffers (buf[1] created on first step) */
  unsigned long long dptr[2]; /* cuda backend: device pointers (CUdeviceptr) */
  int cur;             /* index of the current state */
  const char *user_rule; /* set during sqz_life_step_custom: OpenCL C body of the cell rule */
};

/* Prelude text for life kernels: empty for mask rules, or the user's rule as
 * `uchar sqz_user_rule(uchar self, uint live)` plus `#define SQZ_USER_RULE 1` when
 * f->user_rule is set. Kernels include cl/sqz_rule.h, whose SQZ_APPLY_RULE picks one.
 * Returns a malloc'ed string (caller frees) or NULL when out of memory. */
SQZ_INTERNAL char *sqz__rule_prelude(const sqz_field *f);

/* Storage geometry of a layout for a domain (elems, width, height); implemented per family
 * (simplex_layout.c, fractal_layout.c). */
SQZ_INTERNAL int sqz__layout_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho,
                                      uint64_t *elems, uint64_t *width, uint64_t *height);
/* Storage index -> embedded coordinates; returns 1 if the stored cell is a domain cell, 0 for
 * holes, padding and cells outside the domain. */
SQZ_INTERNAL int sqz__layout_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y,
                                    uint64_t *z);
/* Embedded coordinates -> storage index, or -1 when the cell is not a domain cell. */
SQZ_INTERNAL int64_t sqz__layout_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);

/* Family implementations behind the three functions above (same contracts). */
SQZ_INTERNAL int sqz__simplex_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho,
                                       uint64_t *elems, uint64_t *width, uint64_t *height);
SQZ_INTERNAL int sqz__simplex_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y,
                                     uint64_t *z);
SQZ_INTERNAL int64_t sqz__simplex_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);
SQZ_INTERNAL int sqz__fractal_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho,
                                       uint64_t *elems, uint64_t *width, uint64_t *height);
SQZ_INTERNAL int sqz__fractal_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y,
                                     uint64_t *z);
SQZ_INTERNAL int64_t sqz__fractal_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);
/* Parses a fractal name or pattern ("sierpinski-carpet", "#./##") at level r into *out
 * (tables, membership, name); SQZ_ERR_PARSE naming the bad part, SQZ_ERR_TOO_LARGE when
 * s^r or k^r does not fit. src/fractal.c */
SQZ_INTERNAL int sqz__fractal_parse(sqz_context *ctx, const char *name, const char *level_text,
                                    sqz_fractal *out, uint64_t *side, uint64_t *cells);

/* 1 if embedded (x, y) < side is a cell of the fractal (per-digit pattern lookup). */
SQZ_INTERNAL int sqz__fractal_member(const sqz_fractal *fr, uint64_t x, uint64_t y);

/* Workload entry points per family and backend (called by src/life.c, src/field.c), each
 * returns a status. birth/survive are bit masks over the live-neighbour count. */
SQZ_INTERNAL int sqz__life_simplex(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps);
SQZ_INTERNAL int sqz__life_fractal(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps);
/* cuda backend fractal step (src/cuda/cuda_life.c): layout block:RHO, tile maps λ_b/ν_b on
 * int8 tensor cores (f->map "mma", the default) or digit loops ("alu"); other layouts give
 * SQZ_ERR_UNSUPPORTED naming the layout. */
SQZ_INTERNAL int sqz__cuda_life_fractal(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps);
/* cuda backend random fill of block:RHO fractal fields (src/cuda/cuda_life.c); other
 * layouts return SQZ_ERR_UNSUPPORTED and take the host fill. */
SQZ_INTERNAL int sqz__cuda_fill_random_fractal(sqz_field *f, uint64_t threshold, uint64_t seed);
/* Device-side random fill; may return SQZ_ERR_UNSUPPORTED to fall back to the host fill. */
SQZ_INTERNAL int sqz__fill_random_simplex(sqz_field *f, uint64_t threshold, uint64_t seed);
SQZ_INTERNAL int sqz__fill_random_fractal(sqz_field *f, uint64_t threshold, uint64_t seed);

/* cuda backend memory (src/cuda/cuda_memory.c): allocation with the byte count in the
 * detail on failure, zero-fill, host transfers of a whole buffer. */
SQZ_INTERNAL int sqz__cuda_alloc(sqz_context *ctx, uint64_t bytes, unsigned long long *out);
SQZ_INTERNAL void sqz__cuda_free(sqz_context *ctx, unsigned long long ptr);
SQZ_INTERNAL int sqz__cuda_upload(sqz_context *ctx, unsigned long long dst, const void *src, uint64_t bytes);
SQZ_INTERNAL int sqz__cuda_download(sqz_context *ctx, void *dst, unsigned long long src, uint64_t bytes);

/* Field storage helpers (src/field.c): the current buffer to/from a host array of f->elems
 * elements, and creation of the second (ping-pong) buffer on first use. */
SQZ_INTERNAL int sqz__field_download(sqz_field *f, void *host);
SQZ_INTERNAL int sqz__field_upload(sqz_field *f, const void *host);
SQZ_INTERNAL int sqz__field_ensure_pair(sqz_field *f);
/* The field as an embedded 0/1 image (PBM/PNG geometry; 3D: N x N*N); caller frees *out. */
SQZ_INTERNAL int sqz__field_image(sqz_field *f, unsigned char **out, uint64_t *w, uint64_t *h);

SQZ_INTERNAL int sqz__parse_layout(sqz_context *ctx, const sqz_domain *dom, const char *layout,
                                   sqz_layout_id *id, uint32_t *rho);
SQZ_INTERNAL int sqz__checked_mul(uint64_t a, uint64_t b, uint64_t *out); /* 0 on overflow */

#endif /* SQZ_INTERNAL_H */
