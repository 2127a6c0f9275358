/* bits_layout.c — storage geometry, index maps and parts of layout bits (1 bit per cell, cl/sqz_bits.h) on every domain family: the storage of its row. */
#include <stdlib.h>

#include "layouts/bits/bits.h"
#include "sqz_bits.h"
#include "sqz_fractal.h"

/* Tile level t of a fractal: the largest t <= R with s^t <= SQZ_BITS_TILE_SIDE. */
void sqz__bits_tiling(const sqz_domain *dom, sqz_bits_tiling *bt) {
  const sqz_fractal *fr = &dom->fr;
  uint32_t t = 0, side = 1;
  uint64_t kt = 1;
  while ((int)t < fr->r && side * (uint32_t)fr->s <= SQZ_BITS_TILE_SIDE) {
    t++;
    side *= (uint32_t)fr->s;
    kt *= (uint64_t)fr->k;
  }
  bt->t = t;
  bt->side = side;
  bt->kt = (uint32_t)kt;
  bt->wt = (uint32_t)sqz_bits_words(kt);
  bt->tiles = dom->cells / kt;
}

/* Storage words of the whole state. */
static uint64_t sqz__bits_total_words(const sqz_domain *dom) {
  if (dom->kind == SQZ_DOMAIN_FRACTAL) {
    sqz_bits_tiling bt;
    sqz__bits_tiling(dom, &bt);
    return bt.tiles * bt.wt;
  }
  return dom->dims == 2 ? sqz_bits_S(dom->side) : sqz_bits_T(dom->side);
}

static int sqz__bits_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems,
                              uint64_t *width, uint64_t *height) {
  (void)layout;
  (void)rho;
  uint64_t words = sqz__bits_total_words(dom);
  if (words > UINT64_MAX / SQZ_BITS_W)
    return sqz__fail(dom->ctx, SQZ_ERR_TOO_LARGE, "%s: the bits storage overflows 64 bits", dom->spec);
  *elems = words * SQZ_BITS_W; /* storage cells are bits, padding included */
  *width = *elems;
  *height = 1;
  return SQZ_OK;
}

/* out = the largest v_ in [0, hi) with expr <= w, for an expression expr of v_ that does not
 * decrease with v_ and is <= w at v_ = 0. */
#define SQZ__BITS_SEARCH(out, hi, expr, w)        \
  do {                                            \
    uint64_t lo_ = 0, up_ = (hi);                 \
    while (up_ - lo_ > 1) {                       \
      uint64_t v_ = lo_ + (up_ - lo_) / 2;        \
      if ((expr) <= (w)) lo_ = v_;                \
      else up_ = v_;                              \
    }                                             \
    (out) = lo_;                                  \
  } while (0)

int sqz__bits_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z) {
  const sqz_domain *dom = f->dom;
  *x = *y = *z = 0;
  if (index >= f->elems) return 0;
  if (dom->kind == SQZ_DOMAIN_FRACTAL) {
    sqz_bits_tiling bt;
    sqz__bits_tiling(dom, &bt);
    uint64_t per = (uint64_t)bt.wt * SQZ_BITS_W, l = index % per;
    if (l >= bt.kt) return 0;
    sqz_u32 ex, ey;
    sqz_fr_lambda((sqz_u32)dom->fr.s, (sqz_u32)dom->fr.k, dom->fr.hl, (sqz_u32)dom->fr.r, index / per * bt.kt + l,
                  &ex, &ey);
    *x = ex;
    *y = ey;
    return 1;
  }
  uint64_t n = dom->side, w = index / SQZ_BITS_W, bit = index % SQZ_BITS_W, len, first;
  if (dom->dims == 2) {
    uint64_t r;
    SQZ__BITS_SEARCH(r, n, sqz_bits_S(v_), w);
    *y = r;
    len = r + 1;
    first = sqz_bits_S(r);
  } else {
    uint64_t pz, py, tn = sqz_bits_T(n);
    SQZ__BITS_SEARCH(pz, n, tn - sqz_bits_T(n - v_), w);
    uint64_t plane = tn - sqz_bits_T(n - pz), sn = sqz_bits_S(n - pz);
    SQZ__BITS_SEARCH(py, n - pz, sn - sqz_bits_S(n - pz - v_), w - plane);
    *y = py;
    *z = pz;
    len = n - py - pz;
    first = sqz_bits_tet_row(n, py, pz);
  }
  *x = (w - first) * SQZ_BITS_W + bit;
  return *x < len;
}

static int64_t sqz__bits_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z) {
  const sqz_domain *dom = f->dom;
  if (dom->kind == SQZ_DOMAIN_FRACTAL) {
    if (z != 0 || x >= dom->side || y >= dom->side) return -1;
    sqz_i64 c = sqz_fr_nu((sqz_u32)dom->fr.s, (sqz_u32)dom->fr.k, dom->fr.hnu, (sqz_u32)dom->fr.r, (sqz_u32)x,
                          (sqz_u32)y);
    if (c < 0) return -1;
    sqz_bits_tiling bt;
    sqz__bits_tiling(dom, &bt);
    return (int64_t)((uint64_t)c / bt.kt * bt.wt * SQZ_BITS_W + (uint64_t)c % bt.kt);
  }
  uint64_t n = dom->side;
  if (dom->dims == 2) return x <= y && y < n ? (int64_t)(sqz_bits_tri_row(y) * SQZ_BITS_W + x) : -1;
  if (x >= n || y >= n || z >= n || x + y + z > n - 1) return -1;
  return (int64_t)(sqz_bits_tet_row(n, y, z) * SQZ_BITS_W + x);
}

static uint64_t sqz__bits_row(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index) {
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) { /* a simplex row's cells are x = 0 .. its end */
    uint64_t m = 0;
    for (int64_t i; m < f->dom->side && (i = sqz__bits_index(f, m, y, z)) >= 0; m++) {
      xs[m] = m;
      index[m] = (uint64_t)i;
    }
    return m;
  }
  sqz_field view = *f; /* the compact row walk, then compact index -> bit index */
  view.layout = SQZ_LAYOUT_COMPACT;
  view.elems = f->dom->cells;
  uint64_t m = sqz__layout_row(&view, y, z, xs, index);
  sqz_bits_tiling bt;
  sqz__bits_tiling(f->dom, &bt);
  for (uint64_t i = 0; i < m; i++) index[i] = index[i] / bt.kt * bt.wt * SQZ_BITS_W + index[i] % bt.kt;
  return m;
}

static const char *sqz__bits_rule(const sqz_field *f) {
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL)
    return "bits fractal: 1 bit per cell, bit l of word w is cell 32w + l; tiles of level t (s^t <= 256) in digit "
           "order, each padded to whole words: compact index c at bit (c / k^t) * 32 ceil(k^t / 32) + c mod k^t";
  if (f->dom->dims == 2)
    return "bits triangle: 1 bit per cell, rows y padded to whole 32-bit words: cell (x, y) at bit 32 S(y) + x, "
           "S(m) = sum_{j=1..m} ceil(j/32)";
  return "bits tetrahedron: 1 bit per cell, rows (y, z) padded to whole 32-bit words: cell (x, y, z) at bit "
         "32 (T(N) - T(N-z) + S(N-z) - S(N-z-y)) + x, S(m) = sum_{j=1..m} ceil(j/32), T(m) = sum_{j=1..m} S(j)";
}

/* Fractals part by tiles (a tile's words), a tile per part at most. */
static int sqz__bits_tiles(const sqz_field *f, uint64_t *unit, uint64_t *unit_cells, uint32_t *jt) {
  sqz_bits_tiling bt;
  sqz__bits_tiling(f->dom, &bt);
  *jt = bt.t;
  *unit = (uint64_t)bt.wt * SQZ_BITS_W;
  *unit_cells = bt.kt;
  return SQZ_OK;
}

static uint64_t sqz__bits_tile_count(const sqz_field *f) {
  sqz_bits_tiling bt;
  sqz__bits_tiling(f->dom, &bt);
  return bt.tiles;
}

/* Simplices part by bands of rows of words (triangle rows, tetrahedron planes), which grow or shrink. */
static uint64_t sqz__bits_band_rows(const sqz_field *f) { return f->dom->side; }

static uint64_t sqz__bits_band_start(const sqz_field *f, uint64_t r) {
  uint64_t n = f->dom->side;
  return f->dom->dims == 2 ? sqz_bits_tri_row(r) : sqz_bits_T(n) - sqz_bits_T(n - r);
}

const sqz_layout_storage sqz__bits_storage = {
    .geometry = sqz__bits_geometry, .coords = sqz__bits_coords, .index = sqz__bits_index, .row = sqz__bits_row,
    .rule = sqz__bits_rule, .tiles = sqz__bits_tiles, .tile_count = sqz__bits_tile_count,
    .band_rows = sqz__bits_band_rows, .band_start = sqz__bits_band_start};
