/* cl_simplex.h — OpenCL launches of the simplex thread-map plans (private to src/backends/opencl). */
#ifndef SQZ_CL_SIMPLEX_H
#define SQZ_CL_SIMPLEX_H
#include "backends/opencl/cl_internal.h"
#include "simplex/simplex_plan.h"

/* ---- OpenCL launches of a plan (src/backends/opencl/simplex_launch.c) ---------------------------- */
/* A kernel ready to run a plan: builds the plan of `map` for rho = block (0 = automatic,
 * shrunk until the kernel's work-group limit allows rho^dims), and the program of `files`
 * with the prelude SQZ_DIMS, SQZ_KIND_MASK, SQZ_SLAYOUT, SQZ_IDX32 (when the storage of
 * layout slayout has at most 2^32 cells, unless $SQZ_INDEX64 is set to 1) followed by
 * `extra` (may be NULL). On success the caller frees the plan and releases the kernel. */
/* The checks of sqz__simplex_kernel without the kernel: SQZ_OK when `map` has a plan for this
 * block (0 = automatic) on the device, else its error (for steps that walk storage instead). */
SQZ_INTERNAL int sqz__simplex_check(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t block);
SQZ_INTERNAL int sqz__simplex_kernel(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t block,
                                     int slayout, const char *extra, const char *const *files, const char *kname,
                                     sqz_simplex_plan *plan, cl_kernel *kernel);
/* Enqueues every launch of the plan on k (global = grid * rho, local = rho^dims); argument
 * `argi` receives the launch as a uint8 (kind, p0, p1, p2, o0, o1, o2, 0). */
SQZ_INTERNAL int sqz__simplex_enqueue(sqz_context *ctx, cl_kernel k, cl_uint argi, const sqz_simplex_plan *plan);
/* Enqueues launch l of the plan with `grid` work-groups per dimension instead of l->grid (a part of it: the
 * kernel adds the part's first group itself). */
SQZ_INTERNAL int sqz__simplex_enqueue_grid(sqz_context *ctx, cl_kernel k, cl_uint argi, const sqz_simplex_plan *plan,
                                           const sqz_simplex_launch *l, const uint32_t grid[3]);

/* Coverage proof (src/backends/opencl/simplex_cover.c): runs the plan of `map` with a kernel that
 * counts the visits of every storage cell of layout `slayout` (bitmap = 1: one bit per cell
 * and a counter of repeated visits, for sizes where 32-bit counters would not fit).
 * sqz__simplex_cover_band (2D, compact layout, bitmap) runs only the work-groups of the plan whose
 * blocks reach rows y >= y0 (chosen by sqz_sblock2 on the host, launched as parts of the plan's
 * grids): `missing` then counts the cells of those rows never visited, `once` every cell visited. */
typedef struct {
  uint64_t once;     /* domain cells visited exactly once */
  uint64_t missing;  /* domain cells never visited */
  uint64_t extra;    /* visits beyond the first */
  uint64_t outside;  /* visits of holes or of indices beyond the storage */
  uint64_t launched; /* work-items launched */
} sqz_simplex_cover_result;
SQZ_INTERNAL int sqz__simplex_cover(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho,
                                    int slayout, int bitmap, sqz_simplex_cover_result *out);
SQZ_INTERNAL int sqz__simplex_cover_band(sqz_context *ctx, uint64_t n, const char *map, uint32_t rho, uint32_t y0,
                                         sqz_simplex_cover_result *out);

/* The micro-workloads of `sqz bench simplex` (opencl): `steps` passes over the field through its
 * map, each storing 1 in every domain cell (accumulate = 0) or incrementing it (1). Timed as
 * one operation (sqz_context_timing). */
SQZ_INTERNAL int sqz__simplex_touch(sqz_field *f, int accumulate, uint64_t steps);

#endif
