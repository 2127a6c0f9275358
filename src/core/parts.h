/* parts.h — private interface of a field in parts: the plan (ranges of the compact order, exact halos) and its host reference run. */
#ifndef SQZ_PARTS_H
#define SQZ_PARTS_H
#include "core/sqz_internal.h"

/* A plan splits the compact order of a domain (fractals: the digit order of λ; triangles: the
 * rectangle fold; tetrahedra: the packed layers) into P contiguous ranges: part p owns indices
 * [start[p], start[p + 1]).
 *   Fractals (SQZ_PARTS_BY_REPLICAS): every aligned run of k^(R-j) indices is one level-j replica
 *     (a translated copy of the level R - j fractal, at the coarse position λ_j of its top j
 *     digits), and part p owns the replicas [p K / P, (p+1) K / P) with K = k^j (any P). Level j is
 *     the smallest with k^j >= P, refined while the largest part holds more than 33/32 of the mean
 *     (P = 2 of k = 3 replicas would be 2 : 1; level 3 gives 14 : 13) and k^j <= 2^22.
 *   Simplices (SQZ_PARTS_BY_BANDS): part p owns indices [p |D| / P, (p+1) |D| / P): bands of
 *     storage rows, cut inside a row where |D| / P says so.
 * The halo of part p is the set of cells of other parts that some cell of p reads as a Moore
 * neighbour (8 in 2D, 26 in 3D); the width-T halo, the cells within Chebyshev distance T of p
 * (T steps between exchanges). */
#define SQZ_PARTS_MAX ((uint64_t)1 << 20)          /* the most parts a plan takes */
#define SQZ_PARTS_REPLICAS_MAX ((uint64_t)1 << 22) /* the finest level balancing refines to */

typedef enum { SQZ_PARTS_BY_REPLICAS = 1, SQZ_PARTS_BY_BANDS = 2 } sqz_parts_kind;

typedef struct {
  const sqz_domain *dom; /* borrowed: the plan must not outlive it */
  uint64_t parts;
  sqz_parts_kind kind;
  int level;              /* replicas: j; bands: 0 */
  uint64_t replicas;      /* replicas: k^j; bands: 0 */
  uint64_t replica_cells; /* replicas: k^(R-j); bands: 1 */
  uint64_t *start;        /* parts + 1 entries, start[0] = 0, start[parts] = |D| */
  /* replicas: the cells of replica b + d that a cell of replica b reads, for the 9 coarse
   * directions d = (dy + 1) * 3 + (dx + 1): edge[d] of them inside an edge (orthogonal d), plus
   * the corners in corner[d] (bit (x != 0) | (y != 0) << 1 of the corner's local position) */
  uint64_t edge[9];
  unsigned corner[9];
} sqz_parts_plan;

/* What part p receives per step (the exchange before a step): halo cells, the parts it reads
 * from, and the bytes at 1 bit per cell (one message per source part, ceil(cells / 8) each). */
typedef struct {
  uint64_t cells, halo, bit_bytes, sources;
} sqz_part_stats;

/* A part's halo as sorted global compact indices with their owners and their Chebyshev
 * distance to the part (1 .. T). */
typedef struct {
  uint64_t n;
  uint64_t *index;
  uint64_t *owner;
  unsigned char *depth;
} sqz_halo;

/* The plan of dom in `parts` parts; SQZ_ERR_INVALID_ARGUMENT naming the count when it is 0 or
 * above the largest valid one (min(|D|, SQZ_PARTS_MAX)). sqz__parts_plan_free(NULL) is fine. */
SQZ_INTERNAL int sqz__parts_plan(const sqz_domain *dom, uint64_t parts, sqz_parts_plan **out);
/* The same with the fractal level j at most max_level (k^max_level >= parts; ignored on simplices):
 * parts whose boundaries fall on whole level-(R - max_level) sub-fractals (a field's tiles). */
SQZ_INTERNAL int sqz__parts_plan_level(const sqz_domain *dom, uint64_t parts, int max_level, sqz_parts_plan **out);
SQZ_INTERNAL void sqz__parts_plan_free(sqz_parts_plan *plan);
/* The part that owns compact index i < |D|. */
SQZ_INTERNAL uint64_t sqz__parts_owner(const sqz_parts_plan *plan, uint64_t i);
/* The exact width-1 halo of part p counted from the structure, without listing it: fractals from
 * the coarse level-j neighbours and the per-direction tables, simplices from the rows' intervals. */
SQZ_INTERNAL int sqz__parts_stats(const sqz_parts_plan *plan, uint64_t p, sqz_part_stats *st);
/* The width-1 halo of part p listed from the same structure (O(halo) work, plus O(replica side)
 * per neighbouring replica on fractals). sqz__halo_free releases the arrays. */
SQZ_INTERNAL int sqz__parts_halo(const sqz_parts_plan *plan, uint64_t p, sqz_halo *h);
/* The halo of part p in level-jt tiles (fractals; jt <= R - level): the tiles that hold a cell of
 * sqz__parts_halo, sorted and unique (h->index: tile indices), without listing the cells. */
SQZ_INTERNAL int sqz__parts_halo_tiles(const sqz_parts_plan *plan, uint64_t p, int jt, sqz_halo *h);
/* The width-T halo (T >= 1) of part p by enumeration of every cell of p and its (2T+1)^d - 1
 * offsets: for fields small enough to run; equal to sqz__parts_halo for T = 1. */
SQZ_INTERNAL int sqz__parts_halo_wide(const sqz_parts_plan *plan, uint64_t p, unsigned width, sqz_halo *h);
SQZ_INTERNAL void sqz__halo_free(sqz_halo *h);

/* Moore neighbours of compact cell i of dom in the engine's raster order: returns the present mask,
 * idx[d] for the present ones. */
SQZ_INTERNAL uint32_t sqz__parts_neighbours(const sqz_domain *dom, uint64_t i, uint64_t idx[26]);
/* Embedded coordinates of compact cell i, and the compact index of (x, y, z) or -1 off the domain. */
SQZ_INTERNAL void sqz__parts_coords(const sqz_domain *dom, uint64_t i, int64_t c[3]);
SQZ_INTERNAL int64_t sqz__parts_index(const sqz_domain *dom, const int64_t c[3]);

/* qsort/bsearch order of uint64_t keys (the first word of a record). */
SQZ_INTERNAL int sqz__u64_cmp(const void *a, const void *b);

/* ---- family halves (a family's row, core/registry.h: fractal_parts.c, simplex_parts.c) ------- */
/* Halo ranges of a part go to a sink: `range` gets every halo cell once, as runs of consecutive
 * compact indices [lo, hi] (simplices), or `replica` gets a neighbouring replica b with the mask of
 * directions (bit d) from which the part reads it (fractals). */
typedef struct sqz_halo_sink sqz_halo_sink;
struct sqz_halo_sink {
  int (*range)(sqz_halo_sink *sink, uint64_t lo, uint64_t hi);
  int (*replica)(sqz_halo_sink *sink, uint64_t b, unsigned mask);
};

/* ---- the host reference run of a parted field ---------------------------------------------- */
/* P part buffers of ts-byte cells (own cells, then the halo), stepped with the engine's update
 * contract (sqz_update_fn): exchange (every halo cell copied from its owner), then `width` steps
 * per exchange, each part updating its own cells and the halo cells still exact (depth <= width -
 * step). The cpu backend's path for parts and the oracle of the device paths. */
typedef struct sqz_parted sqz_parted;
/* values: |D| cells in compact order (copied into the parts). */
SQZ_INTERNAL int sqz__parted_create(const sqz_domain *dom, uint64_t parts, unsigned width, size_t ts,
                                    const void *values, sqz_parted **out);
SQZ_INTERNAL int sqz__parted_step(sqz_parted *pf, sqz_update_fn fn, void *user, const void *param, uint64_t steps);
/* The parts' own cells back into |D| values in compact order. */
SQZ_INTERNAL void sqz__parted_gather(const sqz_parted *pf, void *values);
SQZ_INTERNAL const sqz_parts_plan *sqz__parted_plan(const sqz_parted *pf);
SQZ_INTERNAL void sqz__parted_free(sqz_parted *pf);
#endif
