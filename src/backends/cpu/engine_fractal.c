/* engine_fractal.c (cpu) — the reference stencil engine on NBB fractals: traversal and 8-neighbour gather in every fractal layout. */
#include <stdlib.h>

#include "backends/cpu/cpu_engine.h"
#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"

/* Neighbour d (raster order, centre skipped) as a position 0..8 of the 3x3 window. */
static sqz_u32 cpu_win(sqz_u32 d) { return d < 4u ? d : d + 1u; }

/* Embedded storage (bb, lambda): every fractal cell gathers its 8 neighbours in place (holes
 * hold 0); present = the neighbour is a fractal cell. */
static void cpu_step_embedded(const sqz_fractal *fr, uint32_t n, const sqz_cpu_update *u, const unsigned char *src,
                              unsigned char *dst) {
  size_t ts = u->ts;
  unsigned char nb[8 * 8];
  for (uint32_t y = 0; y < n; y++) {
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
      u->fn(src + i, nb, present, u->param, dst + i, u->user);
    }
  }
}

/* Tiled storage (block, compact): per tile, λ_b once, ν_b of the 8 neighbour tiles, the tile and
 * its halo gathered into a (rho + 2)^2 cache, then each cell gathers from the cache (MAPS.md 4.8). */
static void cpu_step_tiles(const sqz_fractal *fr, const sqz_fractal_tiling *t, sqz_u32 compact,
                           const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst,
                           unsigned char *cache) {
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, rb = (sqz_u32)fr->r - t->j, rho = t->rho, w = rho + 2;
  uint64_t te = t->tile_elems;
  size_t ts = u->ts;
  unsigned char nb[8 * 8];
  for (uint64_t b = 0; b < t->tiles; b++) {
    sqz_u32 bx, by;
    sqz_i64 nbr[9];
    sqz_fr_lambda(s, k, fr->hl, rb, b, &bx, &by);
    for (sqz_u32 d = 0; d < 9; d++)
      nbr[d] = d == 4 ? (sqz_i64)b : sqz_fr_tile_neighbour(s, k, fr->hnu, rb, bx, by, d);
    for (sqz_u32 p = 0; p < w * w; p++) {
      sqz_u32 lx, ly;
      sqz_i64 tb = nbr[sqz_fr_cache_source(rho, p, &lx, &ly)];
      sqz_i64 off = tb < 0 ? -1 : sqz_fr_tile_offset(compact, s, k, fr->hnu, t->j, rho, lx, ly);
      if (off < 0) memset(cache + (size_t)p * ts, 0, ts);
      else sqz__cpu_cell_copy(cache + (size_t)p * ts, src + ((uint64_t)tb * te + (uint64_t)off) * ts, ts);
    }
    for (sqz_u32 q = 0; q < te; q++) {
      sqz_u32 tx = q % rho, ty = q / rho;
      if (compact)
        sqz_fr_lambda(s, k, fr->hl, t->j, q, &tx, &ty);
      else if (!sqz_fr_contains(s, fr->hnu, t->j, tx, ty))
        continue;
      sqz_u32 i = (ty + 1) * w + tx + 1, present = 0;
      for (sqz_u32 d = 0; d < 8; d++) {
        sqz_u32 wd = cpu_win(d), c = i + (wd / 3u) * w + wd % 3u - w - 1u;
        sqz__cpu_cell_copy(nb + d * ts, cache + (size_t)c * ts, ts);
        if (u->want_present) { /* the neighbour's tile exists and the cell is no hole of it */
          sqz_u32 x = tx + rho + wd % 3u - 1u, y = ty + rho + wd / 3u - 1u, dx = x / rho, dy = y / rho;
          if (nbr[dy * 3u + dx] >= 0 && sqz_fr_contains(s, fr->hnu, t->j, x - dx * rho, y - dy * rho))
            present |= 1u << d;
        }
      }
      u->fn(cache + (size_t)i * ts, nb, present, u->param, dst + (b * te + q) * ts, u->user);
    }
  }
}

int sqz__cpu_step_fractal(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  const sqz_fractal *fr = &f->dom->fr;
  if (f->layout == SQZ_LAYOUT_BB || f->layout == SQZ_LAYOUT_LAMBDA) {
    cpu_step_embedded(fr, (uint32_t)f->dom->side, u, src, dst);
    return SQZ_OK;
  }
  sqz_fractal_tiling t;
  int st = sqz__fractal_tiling(f, &t);
  if (st != SQZ_OK) return st;
  unsigned char *cache = malloc((size_t)(t.rho + 2) * (t.rho + 2) * u->ts);
  if (!cache)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for a %u x %u tile cache", t.rho + 2,
                     t.rho + 2);
  cpu_step_tiles(fr, &t, f->layout == SQZ_LAYOUT_COMPACT, u, src, dst, cache);
  free(cache);
  return SQZ_OK;
}
