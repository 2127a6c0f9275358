/* fractal_internal.h — the fractal family: its row and its layouts' storage for the registry (src/layouts/layouts.c), the tiling of a field for the backends. */
#ifndef SQZ_FRACTAL_INTERNAL_H
#define SQZ_FRACTAL_INTERNAL_H
#include "core/registry.h"

/* The family's row (fractal.c) and the storage of its layouts bb, lambda, block:RHO and compact
 * (fractal_layout.c). */
SQZ_INTERNAL extern const sqz_family_ops sqz__fractal_family;
SQZ_INTERNAL extern const sqz_layout_storage sqz__fractal_storage;
/* The RHO of layout block:RHO (the row's parse; contract: core/registry.h): a power of the scale at most
 * the side and SQZ_BLOCK_RHO_MAX. */
SQZ_INTERNAL int sqz__fractal_block_parse(sqz_context *ctx, const sqz_domain *dom, const char *layout, const char *arg,
                                          uint32_t *rho);

/* Parses a fractal name or pattern ("sierpinski-carpet", "#./##") at level r into *out
 * (tables, membership, name); SQZ_ERR_PARSE naming the bad part, SQZ_ERR_TOO_LARGE when
 * s^r or k^r does not fit. */
SQZ_INTERNAL int sqz__fractal_parse(sqz_context *ctx, const char *name, const char *level_text,
                                    sqz_fractal *out, uint64_t *side, uint64_t *cells);
/* 1 if embedded (x, y) < side is a cell of the fractal (per-digit pattern lookup). */
SQZ_INTERNAL int sqz__fractal_member(const sqz_fractal *fr, uint64_t x, uint64_t y);
/* The storage's index maps (contracts: sqz_internal.h, sqz__layout_coords and sqz__layout_index). */
SQZ_INTERNAL int sqz__fractal_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y,
                                     uint64_t *z);
SQZ_INTERNAL int64_t sqz__fractal_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);

/* The halves of the parts plan by replicas (fractal_parts.c): the per-direction tables, the halo of
 * part p, and the cells of replica b in the directions of mask (global indices, corners possibly
 * twice) to add(), or the level-jt tiles (jt <= R - level) holding them, as global tile indices
 * (compact index / k^jt), each direction's once: O(replica side / s^jt). */
SQZ_INTERNAL void sqz__fractal_parts_tables(sqz_parts_plan *plan);
SQZ_INTERNAL int sqz__fractal_parts_halo(const sqz_parts_plan *plan, uint64_t p, sqz_halo_sink *sink);
SQZ_INTERNAL int sqz__fractal_parts_cells(const sqz_parts_plan *plan, uint64_t b, unsigned mask,
                                          int (*add)(void *user, uint64_t i), void *user);
SQZ_INTERNAL int sqz__fractal_parts_tiles(const sqz_parts_plan *plan, uint64_t b, unsigned mask, int jt,
                                          int (*add)(void *user, uint64_t i), void *user);

/* How a step walks a fractal field in tiles (cl/sqz_fractal.h): level-j sub-fractals of
 * rho x rho embedded cells, `tiles` = k^(R-j) of them. tile_elems is what one tile stores
 * (block: rho^2, compact: k^j) or launches (lambda: k^j). */
typedef struct {
  uint32_t j, rho, tile_elems;
  uint64_t tiles;
  /* the tiles a step or fill of f walks, launch positions [first, end), position i being tile
   * sqz_units_at(i, n_runs, runs) (cl/sqz_parts.h): all tiles or the own units of the part that f
   * views (f->part; n_runs = 0), or the unit set of the view's step (f->units; runs_dev: its
   * device copy); a part's buffer holds tile b at slot sqz_part_slot(b, ...) */
  uint64_t first, end;
  const struct sqz_field_part *part;
  uint64_t n_runs;
  const uint64_t *runs;
  sqz_mem runs_dev;
} sqz_fractal_tiling;

/* j with s^j == rho, or -1 if rho is not a power of s. */
SQZ_INTERNAL int sqz__fractal_rho_level(int s, uint32_t rho);
/* The tiling of f: block:RHO uses its RHO; compact and lambda use the field's launch block
 * (sqz_field_set_block, a power of s) or a default sized for a work-group and its local
 * cache. Not meaningful for bb. */
SQZ_INTERNAL int sqz__fractal_tiling(const sqz_field *f, sqz_fractal_tiling *t);

/* The table every tile of a step shares (malloc'ed, caller frees; NULL when out of memory):
 * n_cells = k^j entries tx | ty << 16, the tile's fractal cells in digit order (the compact
 * layout's order inside a tile), then, for block and compact, n_halo pairs (cache position
 * | direction << 24, offset inside that neighbour tile) for the halo cells a neighbour tile
 * stores (cl/sqz_fractal.h numbers directions and cache positions), then per tile cell two
 * entries for the neighbours' `present` bits (cl/engine_fractal.cl, fr_tile_present): the
 * neighbours that are fractal cells when every neighbour tile exists (bits 0..7) and bit 8 when
 * one lies in another tile; the direction of the tile each neighbour lies in (4 bits each). */
SQZ_INTERNAL uint32_t *sqz__fractal_tile_table(const sqz_field *f, const sqz_fractal_tiling *t, uint32_t *n_cells,
                                               uint32_t *n_halo);

#endif
