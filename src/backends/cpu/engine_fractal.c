/* engine_fractal.c (cpu) — the reference stencil engine on NBB fractals: traversal and 8-neighbour gather in every fractal layout, OpenMP over rows and tiles. */
#include <stdlib.h>

#include "backends/cpu/cpu_engine.h"
#include "backends/cpu/cpu_rules.h"
#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"

#define SQZ_INLINE static inline __attribute__((always_inline))

/* Neighbour d (raster order, centre skipped) as a position 0..8 of the 3x3 window. */
SQZ_INLINE sqz_u32 cpu_win(sqz_u32 d) { return d < 4u ? d : d + 1u; }

/* Row y of embedded storage (bb, lambda): every fractal cell gathers its 8 neighbours in place
 * (holes hold 0); present = the neighbour is a fractal cell. fn and ts are constants where the
 * caller is specialised, so the copies and the update inline. */
SQZ_INLINE void cpu_embedded_row(const sqz_fractal *fr, uint32_t n, uint32_t y, const unsigned char *src,
                                 unsigned char *dst, size_t ts, sqz_update_fn fn, const sqz_cpu_update *u) {
  unsigned char nb[8 * 8];
  for (uint32_t x = 0; x < n; x++) {
    if (!sqz_fr_contains((sqz_u32)fr->s, fr->hnu, (sqz_u32)fr->r, x, y)) continue;
    uint32_t present = 0;
    for (sqz_u32 d = 0; d < 8; d++) {
      sqz_u32 w = cpu_win(d), xx = x + w % 3u - 1u, yy = y + w / 3u - 1u; /* wraps below 0 */
      int in = xx < n && yy < n;
      if (in) sqz__cpu_cell_copy(nb + d * ts, src + ((uint64_t)yy * n + xx) * ts, ts);
      else memset(nb + d * ts, 0, ts);
      if (u->want_present && in && sqz_fr_contains((sqz_u32)fr->s, fr->hnu, (sqz_u32)fr->r, xx, yy))
        present |= 1u << d;
    }
    uint64_t i = ((uint64_t)y * n + x) * ts;
    fn(src + i, nb, present, u->param, dst + i, u->user);
  }
}

/* Tile b of tiled storage (block, compact): λ_b once, ν_b of the 8 neighbour tiles, the tile and
 * its halo gathered into a (rho + 2)^2 cache through the tile table that every tile shares (as
 * the OpenCL kernels do: fractal/fractal_internal.h), then each cell gathers from the cache. */
SQZ_INLINE void cpu_tile(const sqz_fractal *fr, const sqz_fractal_tiling *t, sqz_u32 compact, const uint32_t *table,
                         uint32_t n_cells, uint32_t n_halo, uint64_t b, const unsigned char *src, unsigned char *dst,
                         unsigned char *cache, size_t ts, sqz_update_fn fn, const sqz_cpu_update *u) {
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, rb = (sqz_u32)fr->r - t->j, rho = t->rho, w = rho + 2;
  uint64_t te = t->tile_elems;
  unsigned char nb[8 * 8];
  sqz_u32 bx, by;
  sqz_i64 nbr[9];
  sqz_fr_lambda(s, k, fr->hl, rb, b, &bx, &by);
  for (sqz_u32 d = 0; d < 9; d++) nbr[d] = d == 4 ? (sqz_i64)b : sqz_fr_tile_neighbour(s, k, fr->hnu, rb, bx, by, d);
  memset(cache, 0, (size_t)w * w * ts); /* holes and missing neighbour tiles read 0 */
  const unsigned char *own = src + b * te * ts;
  if (compact) {
    for (uint32_t l = 0; l < n_cells; l++) {
      uint32_t e = table[l];
      sqz__cpu_cell_copy(cache + (size_t)(((e >> 16) + 1) * w + (e & 0xffffu) + 1) * ts, own + (size_t)l * ts, ts);
    }
  } else {
    for (sqz_u32 ty = 0; ty < rho; ty++) memcpy(cache + (size_t)((ty + 1) * w + 1) * ts, own + (size_t)ty * rho * ts, rho * ts);
  }
  for (uint32_t h = 0; h < n_halo; h++) {
    uint32_t e = table[n_cells + 2 * h];
    sqz_i64 tb = nbr[e >> 24];
    if (tb >= 0)
      sqz__cpu_cell_copy(cache + (size_t)(e & 0xffffffu) * ts, src + ((uint64_t)tb * te + table[n_cells + 2 * h + 1]) * ts, ts);
  }
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
    uint64_t out = b * te + (compact ? l : ty * rho + tx);
    fn(cache + (size_t)i * ts, nb, present, u->param, dst + out * ts, u->user);
  }
}

/* One step over every row (embedded) or tile (tiled), in parallel unless the update is the
 * user's; Life on u8 cells gets its own copy of the loops with the rule inlined. */
static int cpu_step(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  const sqz_fractal *fr = &f->dom->fr;
  int embedded = f->layout == SQZ_LAYOUT_BB || f->layout == SQZ_LAYOUT_LAMBDA;
  sqz_fractal_tiling t = {0, 1, 1, 1};
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
    if (embedded && u->rule == SQZ_CPU_LIFE) {
#pragma omp for schedule(dynamic, 16)
      for (int64_t y = 0; y < (int64_t)n; y++) cpu_embedded_row(fr, n, (uint32_t)y, src, dst, 1, sqz__cpu_life, u);
    } else if (embedded) {
#pragma omp for schedule(dynamic, 16)
      for (int64_t y = 0; y < (int64_t)n; y++) cpu_embedded_row(fr, n, (uint32_t)y, src, dst, u->ts, u->fn, u);
    } else if (u->rule == SQZ_CPU_LIFE) {
#pragma omp for schedule(static)
      for (int64_t b = 0; b < (int64_t)t.tiles; b++)
        cpu_tile(fr, &t, compact, table, n_cells, n_halo, (uint64_t)b, src, dst, cache, 1, sqz__cpu_life, u);
    } else {
#pragma omp for schedule(static)
      for (int64_t b = 0; b < (int64_t)t.tiles; b++)
        cpu_tile(fr, &t, compact, table, n_cells, n_halo, (uint64_t)b, src, dst, cache, u->ts, u->fn, u);
    }
  }
  free(caches);
  free(table);
  return SQZ_OK;
}

int sqz__cpu_step_fractal(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  return cpu_step(f, u, src, dst);
}
