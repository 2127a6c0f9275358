/* bits.h — layout bits (1 bit per cell) inside the library: its storage and host I/O for its row of the registry (bits_layout.c, bits_field.c), the plans of its fractal steps (bits_box.c, bits_list.c, bits_lanes.c, bits_plan.c). */
#ifndef SQZ_LAYOUTS_BITS_H
#define SQZ_LAYOUTS_BITS_H
#include "core/registry.h"
#include "core/update.h"

/* The storage of layout bits on both families (bits_layout.c) and its host I/O (bits_field.c), for
 * its row (src/layouts/layouts.c). */
SQZ_INTERNAL extern const sqz_layout_storage sqz__bits_storage;
SQZ_INTERNAL extern const sqz_layout_io sqz__bits_io;

/* Largest dense tile side s^t of a fractal's bits tiles (cl/sqz_bits.h). */
#define SQZ_BITS_TILE_SIDE 256u

/* The tiles of a fractal in layout bits: level t, dense side s^t, k^t cells, words per tile
 * ceil(k^t / 32), and the count k^(R - t). */
typedef struct {
  uint32_t t, side, kt, wt;
  uint64_t tiles;
} sqz_bits_tiling;
SQZ_INTERNAL void sqz__bits_tiling(const sqz_domain *dom, sqz_bits_tiling *bt);
/* The tile tables of a fractal, one malloc'ed array `all` of `words` words: lam[l] = x | y << 16
 * of tile cell l (digit order at level t), nu[y * side + x] = l or -1 on a hole, and wl, the nw
 * words q = (y - 1) * rw + j of the dense bitmap (rows of rw = (side + 33) / 32 words, cell
 * (x, y) at bit x + 1 of row y + 1) that hold a cell: the step computes only those. */
typedef struct {
  uint32_t *all, *lam, *wl;
  int32_t *nu;
  uint32_t nw;
  size_t words;
} sqz_bits_tables;
SQZ_INTERNAL int sqz__bits_tables(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt,
                                  sqz_bits_tables *tab);

/* The plan of the fractal step by sub-tile boxes (cl/sqz_bits_box.h, bits_box.c): box level q
 * and side bs = s^q, halo depth (1 .. 4: steps per launch), window rows x words, fill and step
 * task counts, and the table the kernels read (`words` words, malloc'ed). */
typedef struct {
  uint32_t q, bs, depth, rows, rw, n_fill, n_step, seg; /* rw: the row stride in words */
  uint32_t kq, list, ne; /* kq: k^q; list: the plan of sqz_bits_list.h (bits_list.c), ne entries; rows, rw .. seg unused */
  uint32_t *tab;
  size_t words;
} sqz_bits_box;
/* The unpack and pack tables of a box (cl/sqz_bits_box.h, sqz_bits_list.h), cell (x, y) at box
 * bit y * stride + x: U into u (ceil(kq / 8) x 256 64-bit words), P into pt (bs x 2^bs), both
 * zeroed before; returns the box shape. */
SQZ_INTERNAL uint64_t sqz__bits_box_cells(const sqz_fractal *fr, uint32_t q, uint32_t bs, uint32_t kq, uint32_t stride,
                                          uint32_t *u, uint32_t *pt);
/* The side bs = s^q and the cells kq = k^q of a level-q box. */
SQZ_INTERNAL void sqz__bits_box_dims(const sqz_domain *dom, uint32_t q, uint32_t *bs, uint32_t *kq);
/* The box level: the largest q <= t with s^q <= 8 and k^q <= 32 (SQZ_BITS_Q: a smaller one). */
SQZ_INTERNAL uint32_t sqz__bits_box_level(const sqz_domain *dom, const sqz_bits_tiling *bt);
/* The plan at box level q and halo depth (at most the tile side: p->depth), step tasks sized
 * for `lanes` work-items at once; with lanes >= 32 (a GPU-like group) the window's row stride is
 * padded by up to 7 words, within local_words, for the fewest local-memory bank conflicts of
 * warps of 32 tasks. */
SQZ_INTERNAL int sqz__bits_box_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q,
                                    uint32_t depth, uint32_t lanes, uint64_t local_words, sqz_bits_box *p);
/* Whether the boxes of level q are stepped as a list (cl/sqz_bits_list.h) rather than in a window:
 * side 8 (s = 2, the Sierpiński triangle), or the option bits_step=list (any box; `window`: none; the domain's context). */
SQZ_INTERNAL int sqz__bits_list_wanted(const sqz_domain *dom, uint32_t q);
/* The plan of the list step at box level q (p->list); p->depth <= the box side. SQZ_ERR_UNSUPPORTED
 * where the entries do not fit 16-bit indices. */
SQZ_INTERNAL int sqz__bits_list_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q,
                                     uint32_t depth, sqz_bits_box *p);
/* The plan the steps run (bits_plan.c): the list's where sqz__bits_list_wanted, else the window's
 * (arguments as sqz__bits_box_plan). */
SQZ_INTERNAL int sqz__bits_step_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q,
                                     uint32_t depth, uint32_t lanes, uint64_t local_words, sqz_bits_box *p);
/* Words of one tile window (cell, mask and second cell areas: 3 with depth > 1, else 2), or of
 * the list's three areas of ne + 1 boxes. */
static inline size_t sqz__bits_box_local(const sqz_bits_box *p) {
  if (p->list) return (size_t)6 * (p->ne + 1u);
  return (size_t)(p->depth > 1 ? 3 : 2) * p->rows * p->rw;
}
/* The plan of the fractal step by lanes (cl/sqz_bits_lanes.h, bits_lanes.c): sub-tile level u
 * of a lane, its k_cells = k^u cells, per_tile = k^(t - u) lanes a tile, `tiles` whole tiles a
 * group (per_tile tiles <= 32 lanes), steps a launch, positions and own positions, and the table the kernel reads
 * (`words` words, malloc'ed). */
typedef struct {
  uint32_t u, k_cells, per_tile, tiles, depth, npos, nown;
  uint32_t *tab;
  size_t words;
} sqz_bits_lanes;
/* The plan at the largest depth <= `depth` and then the largest lanes whose local area
 * (sqz__bits_lanes_local, and SQZ_BITS_LANES_SLACK bytes for the compiler's alignment of its arrays)
 * fits in local_bytes; SQZ_ERR_UNSUPPORTED where none does. */
#define SQZ_BITS_LANES_SLACK 64u
SQZ_INTERNAL int sqz__bits_lanes_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t depth,
                                      uint64_t local_bytes, sqz_bits_lanes *p);
/* Bytes of local memory of the lanes step (cl/engine_bits_lanes.cl) for tiles of wt words, and in
 * *area (if not NULL) those of its `area` argument (the rest: the kernel's own arrays). */
SQZ_INTERNAL size_t sqz__bits_lanes_local(const sqz_bits_lanes *p, uint32_t wt, size_t *area);
/* Whether the fractal steps of layout bits go by lanes: the option bits_step=lanes, unless engine=generic
 * (not yet the default: it waits for a GPU timing, docs/BENCHMARKS.md). */
SQZ_INTERNAL int sqz__bits_lanes_wanted(const sqz_field *f);
/* Steps per launch of the fractal box steps (bits, and compact on OpenCL): the option temporal of f
 * or SQZ_BITS_DEPTH, at most `steps` (the plans cap it: the list at the box side, the window at
 * the tile side and at what local memory holds). 8 on every device: a tile window of side s^t +
 * 16 costs little more to step than the tile, a list's ring steps with it, and fill and pack are
 * paid once per 8 steps (T = 8 against 4 on the 2-core CPU, PoCL and the cpu backend: 1.12-1.26x;
 * docs/BENCHMARKS.md, "The list of boxes"). */
#define SQZ_BITS_DEPTH 8u
SQZ_INTERNAL uint32_t sqz__bits_depth(const sqz_field *f, uint64_t steps);

/* The index map of layout bits (the contracts of sqz_internal.h's sqz__layout_coords): the host fill's. */
SQZ_INTERNAL int sqz__bits_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z);

/* Only Life-like mask rules run on bits: SQZ_ERR_INVALID_ARGUMENT naming the update otherwise. */
SQZ_INTERNAL int sqz__bits_check_update(sqz_field *f, const sqz_update *u);
/* The random fill on the host into a word array (sqz_random_cell of the embedded index): f's own
 * words (a part's view: its own units, words[0] its first). */
SQZ_INTERNAL void sqz__bits_host_fill(const sqz_field *f, uint32_t *words, uint64_t threshold, uint64_t seed);
/* The threshold of a fill of a bits field (u8 cells 0/1): a random fill's own, a constant 1 as
 * density 1 and 0 as density 0 (sqz_field_fill_const checks the value). */
static inline uint64_t sqz__bits_fill_threshold(const sqz_fill *fill) {
  if (fill->mode == SQZ_FILL_CONST) return fill->value ? (uint64_t)1 << 32 : 0;
  return fill->threshold;
}
#endif
