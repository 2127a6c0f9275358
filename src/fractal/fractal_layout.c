/* fractal_layout.c — storage geometry, index maps and parts by tiles of the fractal layouts bb, lambda, block:RHO and compact: the storage of the fractal family's rows, and the parse of block:RHO. */
#include <stdlib.h>

#include "core/part_view.h"
#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"

/* Storage order of each layout (the contract behind sqz__fractal_coords / _index):
 *   bb, lambda  embedded row-major, index y * side + x (holes stored as 0).
 *   compact     exactly k^R cells in digit order (cl/sqz_fractal.h): index c, cell λ(c).
 *               Every aligned run of k^j indices is a level-j sub-fractal, so kernels pick
 *               any tile level at run time without changing the storage.
 *   block:RHO   RHO = s^j: k^(R-j) tiles of RHO x RHO embedded cells (docs/MAPS.md 4.6), tile b
 *               (digit order at level R - j) stored contiguously at b * RHO^2, its cells
 *               row-major inside; holes of the micro-fractal are stored as 0.
 * width x height is the docs/MAPS.md 4.2/4.6 compact array shape (k^ceil x k^floor, times RHO). */

int sqz__fractal_rho_level(int s, uint32_t rho) {
  int j = 0;
  uint64_t p = 1;
  for (; p < rho; j++) p *= (uint64_t)s;
  return p == rho ? j : -1;
}

/* The largest RHO of layout block:RHO on fractal dom: the largest power of its scale within its
 * side and SQZ_BLOCK_RHO_MAX. */
static uint64_t sqz__fractal_block_max(const sqz_domain *dom) {
  uint64_t lim = dom->side < SQZ_BLOCK_RHO_MAX ? dom->side : SQZ_BLOCK_RHO_MAX, largest = 1;
  while (dom->fr.s > 1 && largest * (uint64_t)dom->fr.s <= lim) largest *= (uint64_t)dom->fr.s;
  return largest;
}

static int sqz__fractal_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems,
                                 uint64_t *width, uint64_t *height) {
  const sqz_fractal *fr = &dom->fr;
  uint64_t k = (uint64_t)fr->k;
  switch (layout) {
  case SQZ_LAYOUT_BB:
  case SQZ_LAYOUT_LAMBDA: /* side < 2^31, so side^2 fits */
    *width = *height = dom->side;
    *elems = dom->side * dom->side;
    return SQZ_OK;
  case SQZ_LAYOUT_COMPACT:
    *width = sqz__ipow(k, (fr->r + 1) / 2);
    *height = sqz__ipow(k, fr->r / 2);
    *elems = dom->cells;
    return SQZ_OK;
  case SQZ_LAYOUT_BLOCK: {
    int j = sqz__fractal_rho_level(fr->s, rho);
    if (j < 0 || j > fr->r)
      return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT,
                       "layout block:%u on %s: RHO must be a power of the scale %d (1, %d, %d, ...) not larger "
                       "than the side %llu; the largest block side here is %llu",
                       rho, dom->spec, fr->s, fr->s, fr->s * fr->s, (unsigned long long)dom->side,
                       (unsigned long long)sqz__fractal_block_max(dom));
    int rb = fr->r - j; /* k^rb * rho^2 <= s^(2R) < 2^62: no overflow */
    *width = sqz__ipow(k, (rb + 1) / 2) * rho;
    *height = sqz__ipow(k, rb / 2) * rho;
    *elems = sqz__ipow(k, rb) * rho * rho;
    return SQZ_OK;
  }
  default: break;
  }
  return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "unknown layout id %d", (int)layout);
}

int sqz__fractal_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 r = (sqz_u32)fr->r, ex = 0, ey = 0, in = 0;
  *x = *y = *z = 0;
  if (index >= f->elems) return 0;
  int block = f->layout == SQZ_LAYOUT_BLOCK; /* bb, lambda: one tile of the whole side */
  sqz_u32 j = block ? (sqz_u32)sqz__fractal_rho_level(fr->s, f->layout_rho) : r;
  in = sqz_fr_cell(f->layout == SQZ_LAYOUT_COMPACT, (sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, fr->hnu, r, j,
                   block ? f->layout_rho : f->dom->side, index, &ex, &ey);
  *x = ex;
  *y = ey;
  return in != 0;
}

int64_t sqz__fractal_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k;
  if (z != 0 || x >= f->dom->side || y >= f->dom->side) return -1;
  switch (f->layout) {
  case SQZ_LAYOUT_BB:
  case SQZ_LAYOUT_LAMBDA:
    return sqz_fr_contains(s, fr->hnu, (sqz_u32)fr->r, (sqz_u32)x, (sqz_u32)y) ? (int64_t)(y * f->dom->side + x)
                                                                               : -1;
  case SQZ_LAYOUT_COMPACT:
    return sqz_fr_nu(s, k, fr->hnu, (sqz_u32)fr->r, (sqz_u32)x, (sqz_u32)y);
  case SQZ_LAYOUT_BLOCK: {
    uint32_t rho = f->layout_rho;
    sqz_u32 j = (sqz_u32)sqz__fractal_rho_level(fr->s, rho), tx = (sqz_u32)(x % rho), ty = (sqz_u32)(y % rho);
    if (!sqz_fr_contains(s, fr->hnu, j, tx, ty)) return -1;
    int64_t b = sqz_fr_nu(s, k, fr->hnu, (sqz_u32)fr->r - j, (sqz_u32)(x / rho), (sqz_u32)(y / rho));
    return b < 0 ? -1 : b * (int64_t)rho * rho + (int64_t)(ty * rho + tx);
  }
  default: break;
  }
  return -1;
}

/* One embedded row of a fractal field: per level i (0 = the finest), the pattern row of y's digit
 * and the index weights of the digit tx chosen there: index = base + sum_i (tx * wx[i] +
 * H_nu[digit] * wb[i] + add[i]). */
typedef struct {
  const sqz_fractal *fr;
  const sqz_i32 *hrow[32]; /* H_nu's row of y's digit at level i */
  uint64_t sp[32], wx[32], wb[32], add[32];
  uint64_t *xs, *index, n;
} sqz_fractal_row_walk;

/* The cells under the level-`level` sub-square at column x0 with index c so far, holes skipped whole. */
static void sqz__fractal_row_walk(sqz_fractal_row_walk *w, int level, uint64_t x0, uint64_t c) {
  if (level < 0) {
    w->xs[w->n] = x0;
    w->index[w->n++] = c;
    return;
  }
  for (int tx = 0; tx < w->fr->s; tx++) {
    sqz_i32 b = w->hrow[level][tx];
    if (b >= 0)
      sqz__fractal_row_walk(w, level - 1, x0 + (uint64_t)tx * w->sp[level],
                            c + (uint64_t)tx * w->wx[level] + (uint64_t)b * w->wb[level] + w->add[level]);
  }
}

static uint64_t sqz__fractal_row(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index) {
  const sqz_fractal *fr = &f->dom->fr;
  if (z != 0 || y >= f->dom->side) return 0;
  sqz_fractal_row_walk w = {.fr = fr, .xs = xs, .index = index, .n = 0};
  int j = f->layout == SQZ_LAYOUT_BLOCK ? sqz__fractal_rho_level(fr->s, f->layout_rho) : 0;
  uint64_t rho = f->layout_rho, base = 0, sp = 1, kp = 1, yd = y;
  for (int i = 0; i < fr->r; i++, sp *= (uint64_t)fr->s, yd /= (uint64_t)fr->s) {
    uint64_t dy = yd % (uint64_t)fr->s;
    w.hrow[i] = fr->hnu + dy * (uint64_t)fr->s;
    w.sp[i] = sp;
    w.wx[i] = w.wb[i] = w.add[i] = 0;
    switch (f->layout) {
    case SQZ_LAYOUT_BB:
    case SQZ_LAYOUT_LAMBDA: w.wx[i] = sp; break; /* y * side + x */
    case SQZ_LAYOUT_COMPACT: w.wb[i] = kp; break; /* digit order */
    case SQZ_LAYOUT_BLOCK:                        /* tile (digit order above j) * rho^2 + ty * rho + tx */
      if (i < j) {
        w.wx[i] = sp;
        w.add[i] = dy * sp * rho;
      } else {
        w.wb[i] = rho * rho * (kp / sqz__ipow((uint64_t)fr->k, j));
      }
      break;
    default: break;
    }
    kp *= (uint64_t)fr->k;
  }
  if (f->layout == SQZ_LAYOUT_BB || f->layout == SQZ_LAYOUT_LAMBDA) base = y * f->dom->side;
  sqz__fractal_row_walk(&w, fr->r - 1, 0, base);
  return w.n;
}

/* Default tile level of compact and lambda: the largest j <= R whose tile has at most 4096 cells and
 * whose (s^j + 2)^2 cache of the field's cells fits in 40 KiB (j = 0 when k = 1): per-tile work (λ,
 * neighbour tiles, barriers, halo) is amortised over more cells. On an H100, heat f32 on
 * sierpinski-carpet:9 ran 8.9e10 cells/s with tiles of 27 cells a side and 1.6e11 with 81. */
#define SQZ__TILE_MAX_CELLS 4096u
#define SQZ__TILE_MAX_CACHE 40960u

int sqz__fractal_tiling(const sqz_field *f, sqz_fractal_tiling *t) {
  const sqz_fractal *fr = &f->dom->fr;
  int j = 0;
  if (f->layout == SQZ_LAYOUT_BLOCK) {
    j = sqz__fractal_rho_level(fr->s, f->layout_rho);
  } else if (f->block) {
    j = sqz__fractal_rho_level(fr->s, f->block);
    if (j < 0 || j > fr->r)
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                       "block side %u on %s: a fractal tile side must be a power of the scale %d not larger than "
                       "the side %llu",
                       f->block, f->dom->spec, fr->s, (unsigned long long)f->dom->side);
  } else {
    while (j < fr->r && fr->k > 1) { /* k = 1: one cell per tile whatever j, so j = 0 */
      uint64_t rho = sqz__ipow((uint64_t)fr->s, j + 1), cells = sqz__ipow((uint64_t)fr->k, j + 1);
      if (cells > SQZ__TILE_MAX_CELLS || (rho + 2) * (rho + 2) * sqz_type_size(f->type) > SQZ__TILE_MAX_CACHE) break;
      j++;
    }
  }
  t->j = (uint32_t)j;
  t->rho = (uint32_t)sqz__ipow((uint64_t)fr->s, j);
  t->tile_elems = f->layout == SQZ_LAYOUT_BLOCK ? t->rho * t->rho : (uint32_t)sqz__ipow((uint64_t)fr->k, j);
  t->tiles = sqz__ipow((uint64_t)fr->k, fr->r - j);
  t->part = f->part;
  sqz__step_units(f, t->tiles, &t->first, &t->end, &t->n_runs, &t->runs, &t->runs_dev);
  if (f->layout == SQZ_LAYOUT_LAMBDA) { /* a part's band (parts_bands.c): every tile, its rows filtered per cell */
    *t = (sqz_fractal_tiling){.j = t->j, .rho = t->rho, .tile_elems = t->tile_elems, .tiles = t->tiles, .end = t->tiles};
  }
  return SQZ_OK;
}

uint32_t *sqz__fractal_tile_table(const sqz_field *f, const sqz_fractal_tiling *t, uint32_t *n_cells,
                                  uint32_t *n_halo) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, rho = t->rho, w = rho + 2;
  uint32_t cells = (uint32_t)sqz__ipow((uint64_t)fr->k, (int)t->j), compact = f->layout == SQZ_LAYOUT_COMPACT;
  uint32_t *table = sqz__malloc((3u * (size_t)cells + 2u * (4u * rho + 4u)) * sizeof *table);
  if (!table) return NULL;
  for (uint32_t l = 0; l < cells; l++) {
    sqz_u32 tx, ty;
    sqz_fr_lambda(s, k, fr->hl, t->j, l, &tx, &ty);
    table[l] = tx | ty << 16;
  }
  uint32_t h = 0;
  if (f->layout != SQZ_LAYOUT_LAMBDA) {
    for (sqz_u32 p = 0; p < w * w; p++) {
      sqz_u32 lx, ly, d = sqz_fr_cache_source(rho, p, &lx, &ly);
      sqz_i64 off = sqz_fr_tile_offset(compact, s, k, fr->hnu, t->j, rho, lx, ly);
      if (d == 4 || off < 0) continue; /* the tile itself, or a hole the cache keeps at 0 */
      table[cells + 2 * h] = p | d << 24;
      table[cells + 2 * h + 1] = (uint32_t)off;
      h++;
    }
  }
  for (uint32_t l = 0; l < cells && f->layout != SQZ_LAYOUT_LAMBDA; l++) { /* the present masks, after the halo */
    sqz_u32 tx = table[l] & 0xffffu, ty = table[l] >> 16, pres = 0, dirs = 0;
    for (sqz_u32 d = 0; d < 8; d++) {
      sqz_u32 win = d < 4 ? d : d + 1, lx, ly, p = (ty + win / 3) * w + tx + win % 3;
      sqz_u32 dir = sqz_fr_cache_source(rho, p, &lx, &ly);
      if (sqz_fr_contains(s, fr->hnu, t->j, lx, ly)) pres |= 1u << d;
      dirs |= dir << (4 * d);
      if (dir != 4) pres |= 1u << 8; /* a border cell: some neighbour lies in another tile */
    }
    table[cells + 2 * h + 2 * l] = pres;
    table[cells + 2 * h + 2 * l + 1] = dirs;
  }
  *n_cells = cells;
  *n_halo = h;
  return table;
}

static const char *sqz__fractal_rule(const sqz_field *f) {
  switch (f->layout) {
  case SQZ_LAYOUT_BB: return "bb fractal: side x side row-major, index y*side + x (holes stored as 0)";
  case SQZ_LAYOUT_LAMBDA: return "lambda fractal: side x side row-major, index y*side + x (holes stored as 0)";
  case SQZ_LAYOUT_BLOCK:
    return "block:RHO fractal: tiles of RHO x RHO embedded cells; tile (x / RHO, y / RHO) has compact index b at "
           "level R - j (RHO = s^j) and is stored at b*RHO^2, its cells row-major: index b*RHO^2 + (y mod RHO)*RHO + "
           "(x mod RHO) (holes stored as 0)";
  case SQZ_LAYOUT_COMPACT:
  default: break;
  }
  return "compact fractal: digit order, index sum over levels i of k^i * H_nu[y_i*s + x_i], where x_i, y_i are the "
         "base-s digits of x, y (i = 0 least significant) and H_nu numbers the pattern's replicas row-major from 0";
}

/* Parts by tiles: block:RHO by its tiles, compact by the tiles of the field's tiling (any level:
 * field_parts.c refines it to the count). */
static int sqz__fractal_tiles(const sqz_field *f, uint64_t *unit, uint64_t *unit_cells, uint32_t *jt) {
  sqz_fractal_tiling t;
  int st = sqz__fractal_tiling(f, &t);
  if (st != SQZ_OK) return st;
  *jt = t.j;
  *unit = t.tile_elems;
  *unit_cells = sqz__ipow((uint64_t)f->dom->fr.k, (int)t.j);
  return SQZ_OK;
}

/* The tiles of block:RHO: a tile per part at most. */
static uint64_t sqz__fractal_tile_count(const sqz_field *f) {
  const sqz_fractal *fr = &f->dom->fr;
  return sqz__ipow((uint64_t)fr->k, fr->r - sqz__fractal_rho_level(fr->s, f->layout_rho));
}

int sqz__fractal_block_parse(sqz_context *ctx, const sqz_domain *dom, const char *layout, const char *p,
                             uint32_t *rho) {
  uint64_t largest = sqz__fractal_block_max(dom), v = 0;
  const char *q = p;
  for (; *q >= '0' && *q <= '9' && v <= SQZ_BLOCK_RHO_MAX; q++) v = v * 10 + (uint64_t)(*q - '0');
  while (*q >= '0' && *q <= '9') q++; /* digits past the limit */
  if (q == p || *q || v == 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE,
                     "layout '%s': RHO '%s' is not a positive integer (block:RHO takes a power of the scale %d, "
                     "at most %llu on %s)", layout, p, dom->fr.s, (unsigned long long)largest, dom->spec);
  if (v > SQZ_BLOCK_RHO_MAX)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "layout '%s': RHO = %s is larger than %u, the largest block side of layout block:RHO; the "
                     "largest on %s is %llu (a power of the scale %d, at most the side %llu)", layout, p,
                     SQZ_BLOCK_RHO_MAX, dom->spec, (unsigned long long)largest, dom->fr.s,
                     (unsigned long long)dom->side);
  *rho = (uint32_t)v;
  return SQZ_OK;
}

/* bb and lambda part by the equal rows of their box: no band operations. */
const sqz_layout_storage sqz__fractal_storage = {
    .geometry = sqz__fractal_geometry, .coords = sqz__fractal_coords, .index = sqz__fractal_index,
    .row = sqz__fractal_row, .rule = sqz__fractal_rule,
    .tiles = sqz__fractal_tiles, .tile_count = sqz__fractal_tile_count};
