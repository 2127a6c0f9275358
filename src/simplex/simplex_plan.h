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
