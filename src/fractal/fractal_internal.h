/* fractal_internal.h — private interface between the fractal files: tiling of a field and the backends. */
#ifndef SQZ_FRACTAL_INTERNAL_H
#define SQZ_FRACTAL_INTERNAL_H
#include "core/sqz_internal.h"

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

/* b^e (e >= 0). */
SQZ_INTERNAL uint64_t sqz__ipow(uint64_t b, int e);
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
