/* simplex_plan.h — launch plans of the triangle/tetrahedron thread maps, and the map analysis for `sqz info`. */
#ifndef SQZ_SIMPLEX_PLAN_H
#define SQZ_SIMPLEX_PLAN_H
#include "core/registry.h"
#include "core/sqz_internal.h"
#include "sqz_simplex.h"

/* One kernel launch: a block grid of rho^dims work-groups through launch kind `kind`
 * (SQZ_SK_*, cl/sqz_simplex.h) with its parameters and element offset. */
typedef struct {
  uint32_t kind;
  uint32_t p[3];    /* kind parameters */
  uint32_t o[3];    /* element offset of the launch */
  uint32_t grid[3]; /* work-groups per dimension (1 where unused) */
} sqz_simplex_launch;

typedef struct {
  int dims;                   /* 2 or 3 */
  uint32_t n, rho;            /* domain side, block side */
  char map[16];               /* map name as requested ("had" stays "had") */
  uint32_t kind_mask;         /* bit k set when some launch has kind k */
  size_t count;               /* launches */
  sqz_simplex_launch *launch; /* count entries, malloc'ed */
} sqz_simplex_plan;

/* Builds the launch plan of `map` (NULL or "" = the default for the domain) on a simplex of
 * side n. rho = 0 picks the default block side. rec_min is the leaf side, in blocks, below
 * which rec/rec3 stop recursing (0 = automatic). Errors: SQZ_ERR_INVALID_ARGUMENT for an
 * unknown map, a map of the other dimension, or a rho the map does not allow; TOO_LARGE. */
SQZ_INTERNAL int sqz__simplex_plan(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho,
                                   uint32_t rec_min, sqz_simplex_plan *out);
SQZ_INTERNAL void sqz__simplex_plan_free(sqz_simplex_plan *plan);
/* Default map for a domain (the fastest valid one) and default block side. */
SQZ_INTERNAL const char *sqz__simplex_default_map(int dims, uint64_t n);
SQZ_INTERNAL uint32_t sqz__simplex_default_rho(int dims);
/* Threads launched by a plan (work-groups x rho^dims). */
SQZ_INTERNAL uint64_t sqz__simplex_plan_threads(const sqz_simplex_plan *plan);

/* ---- OpenCL launches of a plan (src/opencl/simplex_launch.c) ---------------------------- */
/* A kernel ready to run a plan: builds the plan of `map` for rho = block (0 = automatic,
 * shrunk until the kernel's work-group limit allows rho^dims), and the program of `files`
 * with the prelude SQZ_DIMS, SQZ_KIND_MASK, SQZ_SLAYOUT, SQZ_IDX32 (when the storage of
 * layout slayout has at most 2^32 cells, unless $SQZ_INDEX64 is set to 1) followed by
 * `extra` (may be NULL). On success the caller frees the plan and releases the kernel. */
SQZ_INTERNAL int sqz__simplex_kernel(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t block,
                                     int slayout, const char *extra, const char *const *files, const char *kname,
                                     sqz_simplex_plan *plan, cl_kernel *kernel);
/* Enqueues every launch of the plan on k (global = grid * rho, local = rho^dims); argument
 * `argi` receives the launch as a uint8 (kind, p0, p1, p2, o0, o1, o2, 0). */
SQZ_INTERNAL int sqz__simplex_enqueue(sqz_context *ctx, cl_kernel k, cl_uint argi, const sqz_simplex_plan *plan);

/* Coverage proof (src/opencl/simplex_cover.c): runs the plan of `map` with a kernel that
 * counts the visits of every storage cell of layout `slayout` (bitmap = 1: one bit per cell
 * and a counter of repeated visits, for sizes where 32-bit counters would not fit). */
typedef struct {
  uint64_t once;     /* domain cells visited exactly once */
  uint64_t missing;  /* domain cells never visited */
  uint64_t extra;    /* visits beyond the first */
  uint64_t outside;  /* visits of holes or of indices beyond the storage */
  uint64_t launched; /* work-items launched */
} sqz_simplex_cover_result;
SQZ_INTERNAL int sqz__simplex_cover(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho,
                                    int slayout, int bitmap, sqz_simplex_cover_result *out);

/* ---- backends of the simplex workloads -------------------------------------------------- */
SQZ_INTERNAL int sqz__life_simplex_cpu(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps);
SQZ_INTERNAL int sqz__life_simplex_cl(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps);
SQZ_INTERNAL int sqz__fill_random_simplex_cl(sqz_field *f, uint64_t threshold, uint64_t seed);
/* The micro-workloads of `sqz bench simplex` (opencl): `steps` passes over the field through its
 * map, each storing 1 in every domain cell (accumulate = 0) or incrementing it (1). Timed as
 * one operation (sqz_context_timing). */
SQZ_INTERNAL int sqz__simplex_touch(sqz_field *f, int accumulate, uint64_t steps);

/* ---- analysis (src/simplex_info.c) ------------------------------------------------------- */
typedef struct {
  char map[16];      /* map name (the default resolved when NULL was asked) */
  uint32_t rho;      /* block side used */
  uint64_t launches; /* kernel launches per step */
  uint64_t launched; /* threads launched */
  uint64_t useful;   /* domain cells = threads that do work */
  double waste;      /* (launched - useful) / useful */
} sqz_simplex_map_stats;
/* Launched/useful threads and waste of a map on triangle:n (dims 2) or tetrahedron:n (3). */
SQZ_INTERNAL int sqz__simplex_map_stats(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho,
                                        sqz_simplex_map_stats *out);

/* Largest side n whose field fits: one buffer within max_alloc and `buffers` buffers
 * within global_mem (bytes per cell `cell_bytes`), for layout bb or compact. */
SQZ_INTERNAL uint64_t sqz__simplex_max_side(int dims, sqz_layout_id layout, uint64_t cell_bytes, uint64_t buffers,
                                            uint64_t max_alloc, uint64_t global_mem);

#endif
