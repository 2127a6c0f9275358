/* life_fractal.c (cpu) — the plain-C reference Life step on NBB fractals, for every fractal layout. */
#include <stdlib.h>

#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"
#include "sqz_rule.h"

/* Embedded storage (bb, lambda): every fractal cell counts its 8 neighbours in place. */
static void sqz__cpu_step_embedded(const sqz_fractal *fr, uint32_t n, const uint8_t *src, uint8_t *dst,
                                   uint32_t birth, uint32_t survive) {
  for (uint32_t y = 0; y < n; y++) {
    for (uint32_t x = 0; x < n; x++) {
      if (!sqz_fr_contains((sqz_u32)fr->s, fr->hnu, (sqz_u32)fr->r, x, y)) continue;
      uint32_t live = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int64_t u = (int64_t)x + dx, v = (int64_t)y + dy;
          if ((dx || dy) && u >= 0 && v >= 0 && u < n && v < n) live += src[(uint64_t)v * n + (uint64_t)u];
        }
      uint64_t i = (uint64_t)y * n + x;
      dst[i] = (uint8_t)SQZ_APPLY_RULE(src[i], live, birth, survive);
    }
  }
}

/* Tiled storage (block, compact): per tile, λ_b once, ν_b for the 8 neighbour tiles, gather
 * the tile and its halo into a (rho + 2)^2 cache, step from the cache (MAPS.md 4.8). */
static void sqz__cpu_step_tiles(const sqz_fractal *fr, const sqz_fractal_tiling *t, sqz_u32 compact,
                                const uint8_t *src, uint8_t *dst, uint32_t birth, uint32_t survive,
                                uint8_t *cache) {
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, rb = (sqz_u32)fr->r - t->j, rho = t->rho, w = rho + 2;
  uint64_t te = t->tile_elems;
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
      cache[p] = off < 0 ? 0 : src[(uint64_t)tb * te + (uint64_t)off];
    }
    for (sqz_u32 q = 0; q < te; q++) {
      sqz_u32 tx = q % rho, ty = q / rho;
      if (compact)
        sqz_fr_lambda(s, k, fr->hl, t->j, q, &tx, &ty);
      else if (!sqz_fr_contains(s, fr->hnu, t->j, tx, ty))
        continue;
      sqz_u32 i = (ty + 1) * w + tx + 1;
      dst[b * te + q] = (uint8_t)SQZ_APPLY_RULE(cache[i], SQZ_FR_MOORE_SUM(cache, i, w), birth, survive);
    }
  }
}

int sqz__life_fractal_cpu(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  const sqz_fractal *fr = &f->dom->fr;
  int embedded = f->layout == SQZ_LAYOUT_BB || f->layout == SQZ_LAYOUT_LAMBDA;
  sqz_fractal_tiling t = {0, 1, 1, 1};
  uint8_t *cache = NULL;
  int st = embedded ? SQZ_OK : sqz__fractal_tiling(f, &t);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  if (st != SQZ_OK) return st;
  if (!embedded && !(cache = malloc((size_t)(t.rho + 2) * (t.rho + 2))))
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for a %u x %u tile cache", t.rho + 2,
                     t.rho + 2);
  double t0 = sqz__now();
  for (uint64_t i = 0; i < steps; i++) {
    const uint8_t *src = f->host[f->cur];
    uint8_t *dst = f->host[1 - f->cur];
    if (embedded)
      sqz__cpu_step_embedded(fr, (uint32_t)f->dom->side, src, dst, birth, survive);
    else
      sqz__cpu_step_tiles(fr, &t, f->layout == SQZ_LAYOUT_COMPACT, src, dst, birth, survive, cache);
    f->cur = 1 - f->cur;
  }
  ctx->kernel_s += sqz__now() - t0;
  free(cache);
  return SQZ_OK;
}
