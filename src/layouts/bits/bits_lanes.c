/* bits_lanes.c — the plan of the bits fractal step by lanes (cl/sqz_bits_lanes.h): the lanes' sub-tile level, the blocks of own and ring cells, their neighbour positions. */
#include <stdlib.h>
#include <string.h>

#include "layouts/bits/bits.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_lanes.h"
#include "sqz_fractal.h"

size_t sqz__bits_lanes_local(const sqz_bits_lanes *p, uint32_t wt, size_t *area) {
  size_t dynamic = (size_t)8 * 32 * 9 + (size_t)4 * ((size_t)p->tiles * wt + 9 + p->npos / 32);
  if (area) *area = dynamic;
  return dynamic + (size_t)8 * ((size_t)p->npos + 1);
}

/* The plan at sub-tile level u and depth D (<= s^u), in p->tab; SQZ_ERR_UNSUPPORTED where the
 * positions' byte offsets pass 16 bits. g (3 s^u squared entries) is scratch: the 3 x 3 sub-tiles around
 * a lane's, cell (x, y) of the lane's own at g[(y + S) 3 S + x + S]. The ring holds the words of
 * the cells within depth of an own cell: T <= depth steps read no other. */
static int sqz__lanes_at(sqz_context *ctx, const sqz_fractal *fr, const sqz_bits_tiling *bt, uint32_t u, uint32_t depth,
                         uint32_t *g, sqz_bits_lanes *p) {
  uint32_t s = (uint32_t)fr->s, k = (uint32_t)fr->k, S = 1, K = 1, L = 1;
  for (uint32_t i = 0; i < u; i++, S *= s, K *= k) {}
  for (uint32_t i = u; i < bt->t; i++) L *= k;
  uint32_t E = 3 * S, nw = (K + 31) / 32, *blk = malloc((size_t)9 * nw * sizeof *blk);
  if (!blk) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits lanes plan");
  /* near: the cells of the 3 x 3 sub-tiles within `depth` (Chebyshev) of an own cell, by a running
   * count of the own cells over 2 depth + 1 columns, then of those rows over 2 depth + 1 rows */
  for (size_t i = 0; i < (size_t)E * E; i++) g[i] = 0;
  for (uint32_t l = 0; l < K; l++) {
    uint32_t x, y;
    sqz_fr_lambda(s, k, fr->hl, u, l, &x, &y);
    g[(size_t)(S + y) * E + S + x] = 1;
  }
  uint32_t *row = malloc((size_t)E * sizeof *row);
  if (!row) {
    free(blk);
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits lanes plan");
  }
  uint32_t r = depth; /* the window's half-width */
  for (uint32_t pass = 0; pass < 2; pass++) /* rows (pass 0), then columns */
    for (uint32_t a = 0; a < E; a++) {
      uint32_t *at = pass ? g + a : g + (size_t)a * E, stride = pass ? E : 1, run = 0;
      for (uint32_t i = 0; i < E + r; i++) {
        if (i < E) run += at[(size_t)i * stride];
        if (i >= 2 * r + 1 && i - 2 * r - 1 < E) run -= at[(size_t)(i - 2 * r - 1) * stride];
        if (i >= r) row[i - r] = run; /* cells i - 2 r .. i around i - r */
      }
      for (uint32_t i = 0; i < E; i++) at[(size_t)i * stride] = row[i] > 0;
    }
  free(row);
  /* the blocks: every own word, then the words of each neighbour that hold a near cell */
  for (size_t i = 0; i < (size_t)9 * nw; i++) blk[i] = UINT32_MAX;
  uint32_t nblk = 0;
  for (uint32_t w = 0; w < nw; w++) blk[4 * nw + w] = nblk++;
  for (uint32_t d = 0; d < 9; d++) {
    if (d == 4) continue;
    for (uint32_t l = 0; l < K; l++) {
      uint32_t x, y;
      sqz_fr_lambda(s, k, fr->hl, u, l, &x, &y);
      if (g[(size_t)((d / 3) * S + y) * E + (d % 3) * S + x] && blk[d * nw + l / 32] == UINT32_MAX)
        blk[d * nw + l / 32] = 0; /* wanted: numbered below, in word order */
    }
    for (uint32_t w = 0; w < nw; w++)
      if (blk[d * nw + w] == 0) blk[d * nw + w] = nblk++;
  }
  uint32_t npos = 32 * nblk;
  if (4 * (uint64_t)npos > 0xffffu) { /* byte offsets in 16 bits */
    free(blk);
    return SQZ_ERR_UNSUPPORTED;
  }
  /* the 3 x 3 sub-tiles' cells -> their positions (npos: none) */
  for (size_t i = 0; i < (size_t)E * E; i++) g[i] = npos;
  for (uint32_t d = 0; d < 9; d++)
    for (uint32_t l = 0; l < K; l++) {
      uint32_t b = blk[d * nw + l / 32], x, y;
      if (b == UINT32_MAX) continue;
      sqz_fr_lambda(s, k, fr->hl, u, l, &x, &y);
      g[(size_t)((d / 3) * S + y) * E + (d % 3) * S + x] = 32 * b + l % 32;
    }
  uint32_t hdr[SQZ_BLN_HEADER] = {0};
  hdr[SQZ_BLN_DEPTH] = depth;
  hdr[SQZ_BLN_NPOS] = npos;
  hdr[SQZ_BLN_NOWN] = 32 * nw;
  hdr[SQZ_BLN_K] = K;
  hdr[SQZ_BLN_L] = L;
  hdr[SQZ_BLN_LANES] = L * (32 / L);
  hdr[SQZ_BLN_LEVEL] = u;
  hdr[SQZ_BLN_BLK] = SQZ_BLN_HEADER;
  hdr[SQZ_BLN_NB] = (SQZ_BLN_HEADER + nblk + 3u) & ~3u; /* 16-byte aligned: kernels read a position's 4 as a uint4 */
  size_t words = (size_t)hdr[SQZ_BLN_NB] + 4 * (size_t)npos;
  uint32_t *tab = sqz__calloc(words, sizeof *tab);
  if (!tab) {
    free(blk);
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits lanes plan");
  }
  memcpy(tab, hdr, sizeof hdr);
  static const int dxy[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  for (uint32_t d = 0; d < 9; d++)
    for (uint32_t w = 0; w < nw; w++) {
      uint32_t b = blk[d * nw + w];
      if (b == UINT32_MAX) continue;
      tab[SQZ_BLN_HEADER + b] = d | w << 4;
      for (uint32_t j = 0; j < 32; j++) {
        uint32_t l = 32 * w + j, x = 0, y = 0, *nb = tab + hdr[SQZ_BLN_NB] + 4 * (size_t)(32 * b + j);
        if (l < K) sqz_fr_lambda(s, k, fr->hl, u, l, &x, &y);
        for (uint32_t n = 0; n < 8; n++) {
          int64_t gx = (int64_t)((d % 3) * S + x) + dxy[n][0], gy = (int64_t)((d / 3) * S + y) + dxy[n][1];
          uint32_t o = l >= K || gx < 0 || gy < 0 || gx >= E || gy >= E ? npos : g[(size_t)gy * E + (size_t)gx];
          nb[n / 2] |= 4 * o << (16 * (n % 2));
        }
      }
    }
  free(blk);
  p->u = u;
  p->k_cells = K;
  p->per_tile = L;
  p->tiles = 32 / L;
  p->depth = depth;
  p->npos = npos;
  p->nown = 32 * nw;
  p->tab = tab;
  p->words = words;
  return SQZ_OK;
}

int sqz__bits_lanes_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t depth,
                         uint64_t local_bytes, sqz_bits_lanes *p) {
  const sqz_fractal *fr = &dom->fr;
  uint32_t side = bt->side;
  memset(p, 0, sizeof *p);
  uint32_t *g = malloc((size_t)9 * side * side * sizeof *g);
  if (!g) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits lanes plan of %s", dom->spec);
  int st = SQZ_ERR_UNSUPPORTED;
  for (uint32_t d = depth; d >= 1 && st == SQZ_ERR_UNSUPPORTED; d--) /* the deepest, then the largest lanes that fit */
    for (uint32_t u = bt->t, S = side, L = 1; u >= 1 && L <= 32 && st == SQZ_ERR_UNSUPPORTED;
         u--, S /= (uint32_t)fr->s, L *= (uint32_t)fr->k) {
      if (d > S) break; /* the ring lies in the 8 neighbour sub-tiles */
      st = sqz__lanes_at(ctx, fr, bt, u, d, g, p);
      if (st == SQZ_OK && sqz__bits_lanes_local(p, bt->wt, NULL) + SQZ_BITS_LANES_SLACK > local_bytes) {
        free(p->tab);
        memset(p, 0, sizeof *p);
        st = SQZ_ERR_UNSUPPORTED;
      }
    }
  free(g);
  return st;
}
