/* engine_fractal.c (cpu) — the reference stencil engine on NBB fractals: traversal and 8-neighbour gather in every fractal layout (Life on whole tiles and rows in vector loops), OpenMP over rows and tiles. */
#include <stdlib.h>

#include "backends/cpu/cpu_engine.h"
#include "backends/cpu/cpu_life_rows.h"
#include "backends/cpu/cpu_rules.h"
#include "core/field_parts.h"
#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"
#include "sqz_parts.h"

#define SQZ_INLINE static inline __attribute__((always_inline))

/* Neighbour d (raster order, centre skipped) as a position 0..8 of the 3x3 window. */
SQZ_INLINE sqz_u32 cpu_win(sqz_u32 d) { return d < 4u ? d : d + 1u; }

/* Where embedded row y (< n) starts in the buffer: y n, or in a part's band (pt) its slot there,
 * -1 when the part holds no copy (cl/sqz_parts.h, sqz_band_slot). */
SQZ_INLINE sqz_i64 cpu_band_row(const sqz_field_part *pt, uint32_t n, uint64_t y) {
  return pt ? sqz_band_slot(y * n, pt->u0, pt->u1, sqz__band_before(pt)) : (sqz_i64)(y * n);
}

/* Row y of embedded storage (bb, lambda; in a part's band its slots, pt): every fractal cell gathers
 * its 8 neighbours in place (holes hold 0); present = the neighbour is a fractal cell. fn and ts are constants where the
 * caller is specialised, so the copies and the update inline. */
SQZ_INLINE void cpu_embedded_row(const sqz_fractal *fr, uint32_t n, uint32_t y, const unsigned char *src,
                                 unsigned char *dst, size_t ts, sqz_update_fn fn, const sqz_cpu_update *u,
                                 const sqz_field_part *pt) {
  unsigned char nb[8 * 8];
  sqz_i64 rows[3]; /* rows y - 1, y, y + 1 in the buffer (-1: none) */
  for (int r = 0; r < 3; r++) rows[r] = y + (uint32_t)r - 1u < n ? cpu_band_row(pt, n, y + (uint32_t)r - 1u) : -1;
  for (uint32_t x = 0; x < n; x++) {
    if (!sqz_fr_contains((sqz_u32)fr->s, fr->hnu, (sqz_u32)fr->r, x, y)) continue;
    uint32_t present = 0;
    for (sqz_u32 d = 0; d < 8; d++) {
      sqz_u32 w = cpu_win(d), xx = x + w % 3u - 1u, yy = y + w / 3u - 1u; /* wraps below 0 */
      int in = xx < n && yy < n;
      if (in && rows[w / 3u] >= 0) sqz__cpu_cell_copy(nb + d * ts, src + ((uint64_t)rows[w / 3u] + xx) * ts, ts);
      else memset(nb + d * ts, 0, ts);
      if (u->want_present && in && sqz_fr_contains((sqz_u32)fr->s, fr->hnu, (sqz_u32)fr->r, xx, yy))
        present |= 1u << d;
    }
    uint64_t i = ((uint64_t)rows[1] + x) * ts;
    fn(src + i, nb, present, u->param, dst + i, u->user);
  }
}

/* Tile b's compact index at level R - j of each of its 8 neighbours and itself (d = 4), -1 where
 * the neighbour tile does not exist: λ_b once, then ν of the 9 positions; in a part's buffer
 * (t->part) their slots there instead (cl/sqz_parts.h). */
SQZ_INLINE void cpu_tile_neighbours_s(const sqz_fractal *fr, const sqz_fractal_tiling *t, uint64_t b, sqz_i64 nbr[9],
                                      sqz_u32 s) {
  sqz_u32 k = (sqz_u32)fr->k, rb = (sqz_u32)fr->r - t->j, bx, by;
  sqz_fr_lambda(s, k, fr->hl, rb, b, &bx, &by);
  for (sqz_u32 d = 0; d < 9; d++) nbr[d] = d == 4 ? (sqz_i64)b : sqz_fr_tile_neighbour(s, k, fr->hnu, rb, bx, by, d);
  const sqz_field_part *pt = t->part;
  if (pt)
    for (sqz_u32 d = 0; d < 9; d++)
      if (nbr[d] >= 0) nbr[d] = sqz_part_slot((sqz_u64)nbr[d], pt->u0, pt->u1, pt->n_halo, pt->halo);
}
/* (scale 2, the common case, with s a constant: its digit divisions become shifts) */
SQZ_INLINE void cpu_tile_neighbours(const sqz_fractal *fr, const sqz_fractal_tiling *t, uint64_t b, sqz_i64 nbr[9]) {
  if (fr->s == 2) cpu_tile_neighbours_s(fr, t, b, nbr, 2u);
  else cpu_tile_neighbours_s(fr, t, b, nbr, (sqz_u32)fr->s);
}

/* The halo of a tile cache from the neighbour tiles that exist (halo = the table's halo pairs). */
SQZ_INLINE void cpu_tile_halo(const uint32_t *halo, uint32_t n_halo, const sqz_i64 nbr[9], uint64_t te,
                              const unsigned char *src, unsigned char *cache, size_t ts) {
  for (uint32_t h = 0; h < n_halo; h++) {
    uint32_t e = halo[2 * h];
    sqz_i64 tb = nbr[e >> 24];
    if (tb >= 0) sqz__cpu_cell_copy(cache + (size_t)(e & 0xffffffu) * ts, src + ((uint64_t)tb * te + halo[2 * h + 1]) * ts, ts);
  }
}

/* Tile b of tiled storage (block, compact): λ_b once, ν_b of the 8 neighbour tiles, the tile and
 * its halo gathered into a (rho + 2)^2 cache through the tile table that every tile shares (as
 * the OpenCL kernels do: fractal/fractal_internal.h), then each cell gathers from the cache. */
SQZ_INLINE void cpu_tile(const sqz_fractal *fr, const sqz_fractal_tiling *t, sqz_u32 compact, const uint32_t *table,
                         uint32_t n_cells, uint32_t n_halo, uint64_t b, const unsigned char *src, unsigned char *dst,
                         unsigned char *cache, size_t ts, sqz_update_fn fn, const sqz_cpu_update *u) {
  sqz_u32 s = (sqz_u32)fr->s, rho = t->rho, w = rho + 2;
  uint64_t te = t->tile_elems;
  unsigned char nb[8 * 8];
  sqz_i64 nbr[9];
  cpu_tile_neighbours(fr, t, b, nbr);
  memset(cache, 0, (size_t)w * w * ts); /* holes and missing neighbour tiles read 0 */
  const unsigned char *own = src + (uint64_t)nbr[4] * te * ts;
  if (compact) {
    for (uint32_t l = 0; l < n_cells; l++) {
      uint32_t e = table[l];
      sqz__cpu_cell_copy(cache + (size_t)(((e >> 16) + 1) * w + (e & 0xffffu) + 1) * ts, own + (size_t)l * ts, ts);
    }
  } else {
    for (sqz_u32 ty = 0; ty < rho; ty++) memcpy(cache + (size_t)((ty + 1) * w + 1) * ts, own + (size_t)ty * rho * ts, rho * ts);
  }
  cpu_tile_halo(table + n_cells, n_halo, nbr, te, src, cache, ts);
  for (uint32_t l = 0; l < n_cells; l++) {
    uint32_t e = table[l], tx = e & 0xffffu, ty = e >> 16, i = (ty + 1) * w + tx + 1, present = 0;
    for (sqz_u32 d = 0; d < 8; d++) {
      sqz_u32 wd = cpu_win(d), c = i + (wd / 3u) * w + wd % 3u - w - 1u;
      sqz__cpu_cell_copy(nb + d * ts, cache + (size_t)c * ts, ts);
      if (u->want_present) { /* the neighbour's tile exists and the cell is no hole of it */
        sqz_u32 x = tx + rho + wd % 3u - 1u, y = ty + rho + wd / 3u - 1u, dx = x / rho, dy = y / rho;
        if (nbr[dy * 3u + dx] >= 0 && sqz_fr_contains(s, fr->hnu, t->j, x - dx * rho, y - dy * rho))
          present |= 1u << d;
      }
    }
    uint64_t out = (uint64_t)nbr[4] * te + (compact ? l : ty * rho + tx);
    fn(cache + (size_t)i * ts, nb, present, u->param, dst + out * ts, u->user);
  }
}

/* Life on tile b: the cache of the tile and its halo as cpu_tile builds it, counted and ruled in
 * spans (per tile row, from its first fractal cell to its last, rounded up to whole vectors: the
 * same in every tile; what they compute past a row's cells is never read), and the tile's cells
 * written back. pos[l] is cell l's cache position and pos[n_cells + l] its offset in the stored tile;
 * the halo entries of the tile table are grouped by direction d (halo[group[d] .. group[d+1]-1]
 * cache positions, halo[n_halo + h] the offsets in the neighbour tile). */
typedef struct {
  const sqz_fractal *fr;
  const sqz_fractal_tiling *t;
  const uint32_t *pos, *halo, *spans; /* pos: n_cells cache positions, then n_cells offsets; halo, spans: below */
  uint32_t n_cells, n_halo, group[10], n_spans, birth, survive, compact;
  sqz_cpu_blocks blocks; /* compact on scale 2: 4 x 4 blocks (kk 0: cell by cell) */
  const unsigned char *src;
  unsigned char *dst;
} cpu_life_tiles;

SQZ_INLINE void cpu_life_tile(const cpu_life_tiles *L, uint64_t b, unsigned char *cache, unsigned char *res) {
  uint32_t rho = L->t->rho, w = rho + 2, n = L->n_cells;
  uint64_t te = L->t->tile_elems;
  const uint32_t *pos = L->pos, *off = L->pos + n;
  sqz_i64 nbr[9];
  cpu_tile_neighbours(L->fr, L->t, b, nbr);
  const unsigned char *own = L->src + (uint64_t)nbr[4] * te;
  unsigned char *out = L->dst + (uint64_t)nbr[4] * te;
  memset(cache, 0, (size_t)w * w);
  if (!L->compact)
    for (uint32_t l = 0; l < n; l++) cache[pos[l]] = own[off[l]];
  else if (!sqz__cpu_blocks_in(cache, w, own, n, &L->blocks)) /* cell l stored at l */
    for (uint32_t l = 0; l < n; l++) cache[pos[l]] = own[l];
  for (uint32_t d = 0; d < 9; d++) { /* the halo by neighbour tile: none where the tile is missing */
    if (d == 4 || nbr[d] < 0) continue;
    const unsigned char *nt = L->src + (uint64_t)nbr[d] * te;
    for (uint32_t h = L->group[d]; h < L->group[d + 1]; h++) cache[L->halo[h]] = nt[L->halo[L->n_halo + h]];
  }
  sqz__cpu_life_spans(cache, res, w, L->spans, L->n_spans, L->birth, L->survive);
  if (!L->compact)
    for (uint32_t l = 0; l < n; l++) out[off[l]] = res[pos[l]];
  else if (!sqz__cpu_blocks_out(out, n, res, w, &L->blocks))
    sqz__cpu_gather_bytes(out, res, pos, n);
}

/* The tiling of a Life step: the field's, except compact without a launch block, where any level
 * stores the same (digit order is global) and the cpu takes tiles of side SQZ_CPU_LIFE_TILE:
 * 128 against 64, one thread, best of 5 in the same run: triangle:13 1.65 -> 1.46 ms a step,
 * carpet:7 (tiles of 81 against 27) 2.36 -> 1.75 (fewer tiles: their neighbour tiles' ν, cache
 * clearing and halo per cell; 256 was slower again). */
#define SQZ_CPU_LIFE_TILE 128u
static int cpu_life_tiling(sqz_field *f, sqz_fractal_tiling *t) {
  int st = sqz__fractal_tiling(f, t);
  const sqz_fractal *fr = &f->dom->fr;
  if (st != SQZ_OK || f->layout != SQZ_LAYOUT_COMPACT || f->block || fr->k < 2) return st;
  *t = (sqz_fractal_tiling){.rho = 1, .tile_elems = 1, .tiles = t->tiles * t->tile_elems}; /* k^R cells in tiles of 1 */
  while ((int)t->j < fr->r && t->rho * (uint32_t)fr->s <= SQZ_CPU_LIFE_TILE) {
    t->j++;
    t->rho *= (uint32_t)fr->s;
    t->tile_elems *= (uint32_t)fr->k;
    t->tiles /= (uint64_t)fr->k;
  }
  t->end = t->tiles;
  return SQZ_OK;
}

/* The tables every tile of a Life step shares, from the tile table (n_cells cells, n_halo halo
 * pairs) into pos (2 n_cells + 2 n_halo + 2 rho entries) and L: cache positions and stored
 * offsets, the halo grouped by direction, the spans, and for compact on scale 2 from level 2 the
 * 4 x 4 blocks (returns their base table, malloc'ed; NULL when not used). */
static uint32_t *cpu_life_plan(const sqz_field *f, const sqz_fractal_tiling *t, const uint32_t *table, uint32_t n_cells,
                               uint32_t n_halo, uint32_t *pos, cpu_life_tiles *L) {
  const sqz_fractal *fr = &f->dom->fr;
  uint32_t w = t->rho + 2, *halo = pos + 2 * (size_t)n_cells, *spans = halo + 2 * (size_t)n_halo;
  L->pos = pos;
  L->halo = halo;
  L->spans = spans;
  L->n_cells = n_cells;
  L->n_halo = n_halo;
  L->compact = f->layout == SQZ_LAYOUT_COMPACT;
  for (uint32_t y = 0; y < t->rho; y++) spans[2 * y] = UINT32_MAX, spans[2 * y + 1] = 0; /* lo, hi per row */
  for (uint32_t l = 0; l < n_cells; l++) {
    uint32_t tx = table[l] & 0xffffu, ty = table[l] >> 16, *row = spans + 2 * ty;
    pos[l] = (ty + 1) * w + tx + 1;
    pos[n_cells + l] = L->compact ? l : ty * t->rho + tx;
    row[0] = tx < row[0] ? tx : row[0];
    row[1] = tx > row[1] ? tx : row[1];
  }
  for (uint32_t y = 0; y < t->rho; y++) { /* rows without cells drop out; the others in whole vectors */
    uint32_t lo = spans[2 * y], hi = spans[2 * y + 1];
    if (lo == UINT32_MAX) continue;
    spans[2 * L->n_spans] = (y + 1) * w + lo + 1;
    spans[2 * L->n_spans++ + 1] = (hi - lo + SQZ_LIFE_SPAN) / SQZ_LIFE_SPAN * SQZ_LIFE_SPAN;
  }
  for (uint32_t h = 0; h < n_halo; h++) L->group[(table[n_cells + 2 * h] >> 24) + 1]++; /* counting sort */
  for (int d = 0; d < 9; d++) L->group[d + 1] += L->group[d];
  for (uint32_t h = 0, at[9] = {0}; h < n_halo; h++) {
    uint32_t e = table[n_cells + 2 * h], d = e >> 24, i = L->group[d] + at[d]++;
    halo[i] = e & 0xffffffu;
    halo[n_halo + i] = table[n_cells + 2 * h + 1];
  }
  uint32_t kk = (uint32_t)(fr->k * fr->k), *base = NULL;
  if (!L->compact || fr->s != 2 || t->j < 2 || kk > 16 || !(base = sqz__malloc((n_cells / kk) * sizeof *base)))
    return NULL; /* cell by cell */
  L->blocks.kk = kk;
  L->blocks.base = base;
  memset(L->blocks.in, 0x80, sizeof L->blocks.in);
  memset(L->blocks.out, 0x80, sizeof L->blocks.out);
  for (uint32_t q = 0; q < kk; q++) { /* the lowest two digits: the same in every block */
    uint32_t r = (table[q] >> 16 & 3u) * 4u + (table[q] & 3u);
    L->blocks.in[r] = (uint8_t)q;
    L->blocks.out[q] = (uint8_t)r;
  }
  for (uint32_t g = 0; g < n_cells / kk; g++)
    base[g] = ((table[g * kk] >> 16 & ~3u) + 1) * w + (table[g * kk] & 0xfffcu) + 1;
  return base;
}

/* Row y's cells of the fractal as 0xff, holes as 0 (m has side entries): level by level from
 * the lowest digit, block x_i of width s^i is the row of the levels below where H_nu[y_i][x_i]
 * is a replica, else holes. */
static void cpu_row_mask(const sqz_fractal *fr, uint32_t y, unsigned char *m) {
  uint32_t s = (uint32_t)fr->s, len = 1;
  m[0] = 0xff;
  for (int i = 0; i < fr->r; i++, y /= s, len *= s) {
    const int *h = fr->hnu + (y % s) * s;
    for (uint32_t xt = s - 1; xt > 0; xt--) {
      if (h[xt] >= 0) memcpy(m + (size_t)xt * len, m, len);
      else memset(m + (size_t)xt * len, 0, len);
    }
    if (h[0] < 0) memset(m, 0, len);
  }
}

/* Life on embedded storage (bb, lambda): rows y0 .. y1-1, each row read once into a padded line
 * of a ring of three, counted and ruled in vector loops, masked to the fractal's cells (holes
 * stay 0) and written back. buf: the zero line, the result, the mask and the ring. */
static const unsigned char *cpu_life_line(const unsigned char *src, uint32_t n, int64_t y, unsigned char *line,
                                          const unsigned char *zero, const sqz_field_part *pt) {
  sqz_i64 at = y < 0 || y >= (int64_t)n ? -1 : cpu_band_row(pt, n, (uint64_t)y);
  if (at < 0) return zero;
  memcpy(line + 1, src + at, n); /* line[0] and line[n + 1] stay 0 */
  return line;
}

static void cpu_life_rows(const sqz_fractal *fr, uint32_t n, const sqz_cpu_life_rule *lr, const unsigned char *src,
                          unsigned char *dst, int64_t y0, int64_t y1, unsigned char *buf, size_t stride,
                          const sqz_field_part *pt) {
  const unsigned char *zero = buf, *ring[3];
  unsigned char *res = buf + stride, *mask = buf + 2 * stride;
  for (int64_t y = y0 - 1; y <= y0; y++)
    ring[(y + 3) % 3] = cpu_life_line(src, n, y, buf + (size_t)(3 + (y + 3) % 3) * stride, zero, pt);
  for (int64_t y = y0; y < y1; y++) {
    ring[(y + 1) % 3] = cpu_life_line(src, n, y + 1, buf + (size_t)(3 + (y + 1) % 3) * stride, zero, pt);
    cpu_row_mask(fr, (uint32_t)y, mask);
    sqz__cpu_life_row8(ring[(y + 2) % 3], ring[y % 3], ring[(y + 1) % 3], res, n, lr->birth, lr->survive, mask);
    memcpy(dst + cpu_band_row(pt, n, (uint64_t)y), res, n);
  }
}

#define SQZ_CPU_ROWS_PER_TASK 64

/* Tiles per task of a Life step: runs of consecutive tiles (one at a time, each thread took
 * every other tile: 2187 shared-counter updates per step at R = 13 and every tile boundary's
 * cache line written by both cores), at least 16 tasks per thread (a core slowed by others
 * takes fewer), at most SQZ_CPU_TILES_PER_TASK. */
#define SQZ_CPU_TILES_PER_TASK 32
static int64_t cpu_tiles_per_task(int64_t tiles, int threads) {
  int64_t c = tiles / (16 * (int64_t)threads);
  return c < 1 ? 1 : c > SQZ_CPU_TILES_PER_TASK ? SQZ_CPU_TILES_PER_TASK : c;
}

/* Life steps on every row (embedded) or tile (tiled): the tile tables and row buffers built
 * once for all `steps` (per step, that serial setup was 75 us of a 2 ms step at R = 13), one
 * parallel region for all of them (an implicit barrier ends each step), tiles in tasks of
 * consecutive tiles, rows in tasks of SQZ_CPU_ROWS_PER_TASK rows; each thread's buffers on
 * cache lines of their own. Steps from f->mem[f->cur], f->cur flipped after each. */
static int cpu_life_steps(sqz_field *f, const sqz_cpu_update *u, uint64_t steps) {
  const sqz_fractal *fr = &f->dom->fr;
  const sqz_cpu_life_rule *lr = u->user;
  int embedded = !sqz__layout_fast(f, SQZ_FAST_TILES), threads = sqz__cpu_threads(u, f->dom->cells); /* bb, lambda */
  uint32_t n = (uint32_t)f->dom->side, n_cells = 0, n_halo = 0;
  sqz_fractal_tiling t = {.rho = 1, .tile_elems = 1, .tiles = 1, .end = 1};
  int st = embedded ? SQZ_OK : cpu_life_tiling(f, &t);
  if (st != SQZ_OK) return st;
  size_t stride = embedded ? ((size_t)n + 2u + 63u) & ~(size_t)63u
                           : (((size_t)(t.rho + 2) * (t.rho + 2) + SQZ_LIFE_SPAN + 2u + 63u) & ~(size_t)63u);
  size_t lines = embedded ? 6 : 2; /* rows: zero, result, mask, ring of 3; tiles: cache, result */
  uint32_t *table = embedded ? NULL : sqz__fractal_tile_table(f, &t, &n_cells, &n_halo);
  uint32_t *pos = embedded ? NULL : sqz__malloc(((size_t)n_cells + n_halo + t.rho) * 2 * sizeof *pos);
  unsigned char *raw = sqz__calloc((size_t)threads * lines * stride + 192u, 1); /* 64 bytes apart from the heap */
  unsigned char *bufs = (unsigned char *)(((uintptr_t)raw + 127u) & ~(uintptr_t)63u);
  if (!raw || (!embedded && (!table || !pos))) {
    free(raw);
    free(table);
    free(pos);
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %d x %zu row buffers of %zu bytes",
                     threads, lines, stride);
  }
  cpu_life_tiles L = {.fr = fr, .t = &t, .birth = lr->birth, .survive = lr->survive};
  uint32_t *base = embedded ? NULL : cpu_life_plan(f, &t, table, n_cells, n_halo, pos, &L);
  int64_t tiles = (int64_t)(t.end - t.first), chunk = cpu_tiles_per_task(tiles, threads);
#pragma omp parallel num_threads(threads)
  {
    unsigned char *buf = bufs + (size_t)sqz__cpu_thread() * lines * stride;
    cpu_life_tiles Lt = L; /* this thread's copy: src and dst change per step */
    for (uint64_t k = 0; k < steps; k++) {
      const unsigned char *src = f->mem[(f->cur + k) & 1u];
      unsigned char *dst = f->mem[(f->cur + k + 1u) & 1u];
      if (embedded) {
        uint64_t ya = 0, yb = n; /* the rows of run r (a part's band: its own, or its set's) */
        for (uint64_t r = 0, n_runs = 1; r < n_runs; r++) {
          n_runs = sqz__band_run(f, n, r, &ya, &yb);
          int64_t tasks = ((int64_t)(yb - ya) + SQZ_CPU_ROWS_PER_TASK - 1) / SQZ_CPU_ROWS_PER_TASK;
#pragma omp for schedule(dynamic, 1)
          for (int64_t i = 0; i < tasks; i++) {
            int64_t y0 = (int64_t)ya + i * SQZ_CPU_ROWS_PER_TASK, y1 = y0 + SQZ_CPU_ROWS_PER_TASK;
            cpu_life_rows(fr, n, lr, src, dst, y0, y1 < (int64_t)yb ? y1 : (int64_t)yb, buf, stride, f->part);
          }
        }
      } else {
        Lt.src = src;
        Lt.dst = dst;
#pragma omp for schedule(dynamic, chunk)
        for (int64_t i = 0; i < tiles; i++) /* a launch position's tile */
          cpu_life_tile(&Lt, sqz_units_at(t.first + (uint64_t)i, t.n_runs, t.runs), buf, buf + stride);
      }
    }
  }
  f->cur = (int)((f->cur + steps) & 1u);
  free(raw);
  free(table);
  free(pos);
  free(base);
  return SQZ_OK;
}

/* One step over every row (embedded) or tile (tiled), in parallel unless the update is the
 * user's (Life on u8 cells: cpu_life_steps). */
static int cpu_step(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  const sqz_fractal *fr = &f->dom->fr;
  int embedded = !sqz__layout_fast(f, SQZ_FAST_TILES); /* bb, lambda: rows of the embedding; else tiles held whole */
  sqz_fractal_tiling t = {.rho = 1, .tile_elems = 1, .tiles = 1, .end = 1};
  int st = embedded ? SQZ_OK : sqz__fractal_tiling(f, &t);
  if (st != SQZ_OK) return st;
  uint32_t n = (uint32_t)f->dom->side;
  sqz_u32 compact = f->layout == SQZ_LAYOUT_COMPACT;
  size_t cache_bytes = (size_t)(t.rho + 2) * (t.rho + 2) * u->ts;
  int threads = sqz__cpu_threads(u, f->dom->cells);
  uint32_t n_cells = 0, n_halo = 0;
  uint32_t *table = embedded ? NULL : sqz__fractal_tile_table(f, &t, &n_cells, &n_halo);
  unsigned char *caches = embedded ? NULL : sqz__malloc(cache_bytes * (size_t)threads); /* one tile cache per thread */
  if (!embedded && (!caches || !table)) {
    free(caches);
    free(table);
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %d tile caches of %u x %u cells", threads,
                     t.rho + 2, t.rho + 2);
  }
#pragma omp parallel num_threads(threads)
  {
    unsigned char *cache = embedded ? NULL : caches + cache_bytes * (size_t)sqz__cpu_thread();
    if (embedded) { /* every row, or a part's band: its runs of rows */
      uint64_t ya = 0, yb = 0;
      for (uint64_t r = 0, n_runs = 1; r < n_runs; r++) {
        n_runs = sqz__band_run(f, n, r, &ya, &yb);
#pragma omp for schedule(dynamic, 16)
        for (int64_t y = (int64_t)ya; y < (int64_t)yb; y++)
          cpu_embedded_row(fr, n, (uint32_t)y, src, dst, u->ts, u->fn, u, f->part);
      }
    } else {
#pragma omp for schedule(static)
      for (int64_t i = (int64_t)t.first; i < (int64_t)t.end; i++) /* launch positions: their tiles */
        cpu_tile(fr, &t, compact, table, n_cells, n_halo, sqz_units_at((uint64_t)i, t.n_runs, t.runs), src, dst, cache,
                 u->ts, u->fn, u);
    }
  }
  free(caches);
  free(table);
  return SQZ_OK;
}

int sqz__cpu_steps_fractal(sqz_field *f, const sqz_cpu_update *u, uint64_t steps) {
  if (u->rule == SQZ_CPU_LIFE) return cpu_life_steps(f, u, steps);
  int st = SQZ_OK;
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++)
    if ((st = cpu_step(f, u, f->mem[f->cur], f->mem[1 - f->cur])) == SQZ_OK) f->cur = 1 - f->cur;
  return st;
}
