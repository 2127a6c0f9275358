/* bits_list.c — the plan of the bits fractal step by a list of boxes (cl/sqz_bits_list.h): own and ring entries, their neighbours, unpack/pack tables. */
#include <stdlib.h>
#include <string.h>

#include "layouts/bits/bits.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_list.h"
#include "sqz_fractal.h"

/* The box grid of a tile and its ring: boxes (X, Y), X, Y in -1 .. n (n boxes a tile side), at
 * g[(Y + 1) * (n + 2) + X + 1]: the tile direction d (4: the tile) << 20 | the sub-tile in that
 * tile, or UINT32_MAX where the pattern has no box. */
static void sqz__list_grid(const sqz_fractal *fr, uint32_t levels, uint32_t n, uint32_t *g) {
  for (int64_t y = -1; y <= (int64_t)n; y++)
    for (int64_t x = -1; x <= (int64_t)n; x++) {
      int64_t dx = x < 0 ? -1 : x >= (int64_t)n ? 1 : 0, dy = y < 0 ? -1 : y >= (int64_t)n ? 1 : 0;
      sqz_i64 sub = sqz_fr_nu((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hnu, levels, (sqz_u32)(x - dx * n),
                              (sqz_u32)(y - dy * n));
      g[(y + 1) * (n + 2) + x + 1] = sub < 0 ? UINT32_MAX : (uint32_t)sub | (uint32_t)((dy + 1) * 3 + dx + 1) << 20;
    }
}

/* Whether the grid box at (X, Y) (grid coordinates 0 .. n + 1) has an own box among its 9. */
static int sqz__list_near_own(const uint32_t *g, uint32_t n, int64_t x, int64_t y) {
  for (int64_t j = y - 1; j <= y + 1; j++)
    for (int64_t i = x - 1; i <= x + 1; i++)
      if (i >= 1 && j >= 1 && i <= n && j <= n && g[j * (n + 2) + i] != UINT32_MAX) return 1;
  return 0;
}

int sqz__bits_list_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q,
                        uint32_t depth, sqz_bits_box *p) {
  const sqz_fractal *fr = &dom->fr;
  uint32_t bs, kq;
  sqz__bits_box_dims(dom, q, &bs, &kq);
  uint32_t n = bt->side / bs, gn = n + 2, nsub = bt->kt / kq, ne = 0;
  memset(p, 0, sizeof *p);
  uint32_t *g = malloc((size_t)gn * gn * sizeof *g), *id = malloc((size_t)gn * gn * sizeof *id);
  if (!g || !id) {
    free(g);
    free(id);
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits list plan of %s", dom->spec);
  }
  sqz__list_grid(fr, bt->t - q, n, g);
  for (int pass = 0; pass < 2; pass++) /* own entries in raster order, then the ring's */
    for (uint32_t y = 0; y < gn; y++)
      for (uint32_t x = 0; x < gn; x++) {
        uint32_t own = x >= 1 && y >= 1 && x <= n && y <= n, i = y * gn + x;
        if (pass == 0) id[i] = UINT32_MAX;
        if (g[i] != UINT32_MAX && (pass == 0 ? own : !own && sqz__list_near_own(g, n, x, y))) id[i] = ne++;
      }
  uint32_t hdr[SQZ_BL_HEADER] = {0};
  hdr[SQZ_BL_DEPTH] = depth < bs ? depth : bs;
  hdr[SQZ_BL_NE] = ne;
  hdr[SQZ_BL_NSUB] = nsub;
  hdr[SQZ_BL_KQ] = kq;
  hdr[SQZ_BL_BOX] = bs;
  hdr[SQZ_BL_U] = SQZ_BL_HEADER;
  hdr[SQZ_BL_P] = hdr[SQZ_BL_U] + 2 * 256 * ((kq + 7) / 8);
  hdr[SQZ_BL_ENT] = hdr[SQZ_BL_P] + (bs << bs);
  hdr[SQZ_BL_NB] = (hdr[SQZ_BL_ENT] + ne + 3u) & ~3u; /* 16-byte aligned: kernels read an entry's 4 as a uint4 */
  hdr[SQZ_BL_OWN] = hdr[SQZ_BL_NB] + 4 * ne;
  size_t words = (size_t)hdr[SQZ_BL_OWN] + nsub;
  uint32_t *tab = ne < 0xffffu ? sqz__calloc(words, sizeof *tab) : NULL; /* 16-bit neighbours, ne: none */
  if (!tab) {
    free(g);
    free(id);
    return ne < 0xffffu ? sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits list plan of %s", dom->spec)
                        : SQZ_ERR_UNSUPPORTED;
  }
  memcpy(tab, hdr, sizeof hdr);
  uint64_t full = sqz__bits_box_cells(fr, q, bs, kq, 8, tab + hdr[SQZ_BL_U], tab + hdr[SQZ_BL_P]);
  tab[SQZ_BL_FULL] = (uint32_t)full;
  tab[SQZ_BL_FULL + 1] = (uint32_t)(full >> 32);
  static const int dxy[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  for (uint32_t y = 0; y < gn; y++)
    for (uint32_t x = 0; x < gn; x++) {
      uint32_t e = id[y * gn + x];
      if (e == UINT32_MAX) continue;
      tab[hdr[SQZ_BL_ENT] + e] = g[y * gn + x];
      if (g[y * gn + x] >> 20 == 4) tab[hdr[SQZ_BL_OWN] + (g[y * gn + x] & 0xfffffu)] = e;
      for (uint32_t d = 0; d < 8; d++) {
        int64_t xx = (int64_t)x + dxy[d][0], yy = (int64_t)y + dxy[d][1];
        uint32_t o = xx < 0 || yy < 0 || xx >= gn || yy >= gn ? UINT32_MAX : id[yy * gn + xx];
        tab[hdr[SQZ_BL_NB] + 4 * e + d / 2] |= (o == UINT32_MAX ? ne : o) << (16 * (d % 2));
      }
    }
  free(g);
  free(id);
  p->list = 1;
  p->q = q;
  p->bs = bs;
  p->kq = kq;
  p->depth = hdr[SQZ_BL_DEPTH];
  p->ne = ne;
  p->tab = tab;
  p->words = words;
  return SQZ_OK;
}
