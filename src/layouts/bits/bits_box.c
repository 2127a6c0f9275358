/* bits_box.c — the plan of the bits fractal step by sub-tile boxes (cl/sqz_bits_box.h): box level, unpack/pack tables, fill and step tasks. */
#include <stdlib.h>
#include <string.h>

#include "layouts/bits/bits.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_fractal.h"

/* floor(a / b) for b > 0. */
static int64_t sqz__fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

void sqz__bits_box_dims(const sqz_domain *dom, uint32_t q, uint32_t *bs, uint32_t *kq) {
  *bs = *kq = 1;
  for (uint32_t i = 0; i < q; i++) {
    *bs *= (uint32_t)dom->fr.s;
    *kq *= (uint32_t)dom->fr.k;
  }
}

uint32_t sqz__bits_box_level(const sqz_domain *dom, const sqz_bits_tiling *bt) {
  uint32_t q = 0, s = (uint32_t)dom->fr.s, k = (uint32_t)dom->fr.k, side = 1, kq = 1;
  while (q < bt->t && side * s <= SQZ_BB_MAX_SIDE && kq * k <= 32u) {
    q++;
    side *= s;
    kq *= k;
  }
  uint64_t want = sqz__opt_num(dom->ctx, NULL, SQZ_OPT_BITS_Q, q); /* a smaller box for measurements */
  return want < q ? (uint32_t)want : q;
}

/* Bits r * bs .. r * bs + bs - 1 of box (row r) placed at word bit sh (sh > -bs). */
static uint32_t sqz__box_row(uint64_t box, uint32_t bs, uint32_t r, int32_t sh) {
  uint32_t v = (uint32_t)(box >> (r * bs)) & ((1u << bs) - 1u);
  return sh >= 0 ? v << sh : v >> -sh;
}

uint64_t sqz__bits_box_cells(const sqz_fractal *fr, uint32_t q, uint32_t bs, uint32_t kq, uint32_t stride, uint32_t *u,
                             uint32_t *pt) {
  uint64_t full = 0;
  for (uint32_t c = 0; c < kq; c++) {
    sqz_u32 x, y;
    sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, q, c, &x, &y);
    uint64_t bit = (uint64_t)1 << (y * stride + x);
    full |= bit;
    for (uint32_t v = 0; v < 256; v++)
      if ((v >> (c % 8u)) & 1u) {
        uint64_t w;
        uint32_t *at = u + 2u * (256u * (c / 8u) + v);
        memcpy(&w, at, sizeof w);
        w |= bit;
        memcpy(at, &w, sizeof w); /* the device reads it as a ulong: little-endian on both */
      }
    for (uint32_t v = 0; v < (1u << bs); v++)
      if ((v >> x) & 1u) pt[(y << bs) + v] |= 1u << c;
  }
  return full;
}

/* U, P, the full box and lam (cl/sqz_bits_box.h). */
static void sqz__box_tables(const sqz_fractal *fr, const sqz_bits_tiling *bt, uint32_t q, uint32_t bs, uint32_t kq,
                            uint32_t *tab) {
  uint32_t *lam = tab + tab[SQZ_BB_LAM];
  uint64_t full = sqz__bits_box_cells(fr, q, bs, kq, bs, tab + tab[SQZ_BB_U], tab + tab[SQZ_BB_P]);
  tab[SQZ_BB_FULL] = (uint32_t)full;
  tab[SQZ_BB_FULL + 1] = (uint32_t)(full >> 32);
  for (uint32_t u = 0; u < tab[SQZ_BB_NSUB]; u++) {
    sqz_u32 x, y;
    sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, bt->t - q, u, &x, &y);
    lam[u] = x * bs | (y * bs) << 16;
  }
}

/* The fill tasks (every band of bs rows x every word column 1 .. rw - 2) and their entries; the
 * mask of every window word that can hold a cell into mask. Returns the number of entries. */
static uint32_t sqz__box_fill(const sqz_fractal *fr, const sqz_bits_tiling *bt, uint32_t q, uint32_t bs,
                              uint32_t *tab, uint32_t *mask) {
  int64_t h = tab[SQZ_BB_DEPTH], side = bt->side, rows = tab[SQZ_BB_ROWS], rw = tab[SQZ_BB_RW];
  uint32_t n = tab[SQZ_BB_NFILL], *head = tab + tab[SQZ_BB_FILL], *off = head + n, *ent = tab + tab[SQZ_BB_ENT];
  uint64_t full = tab[SQZ_BB_FULL] | (uint64_t)tab[SQZ_BB_FULL + 1] << 32;
  uint32_t i = 0, ne = 0;
  for (int64_t b = sqz__fdiv(-h, bs); b <= sqz__fdiv(side + h - 1, bs); b++)
    for (int64_t j = 1; j + 1 < rw; j++, i++) {
      int64_t wx = 32 * (j - 2), lo = wx > -h ? wx : -h, hi = wx + 31 < side + h - 1 ? wx + 31 : side + h - 1;
      head[i] = (uint32_t)j | (uint32_t)(b * bs + h + SQZ_BB_YBIAS) << 8;
      off[i] = ne;
      for (int64_t c = sqz__fdiv(lo, bs); lo <= hi && c <= sqz__fdiv(hi, bs); c++) {
        int64_t dx = sqz__fdiv(c * bs, side), dy = sqz__fdiv(b * bs, side), sh = c * bs - wx;
        sqz_i64 sub = sqz_fr_nu((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hnu, bt->t - q,
                                (sqz_u32)((c * bs - dx * side) / bs), (sqz_u32)((b * bs - dy * side) / bs));
        if (sub < 0) continue;
        ent[ne++] = (uint32_t)sub | (uint32_t)((dy + 1) * 3 + dx + 1) << 20 | (uint32_t)(sh + 32) << 24;
        for (uint32_t r = 0; r < bs; r++) {
          int64_t y = b * bs + h + r;
          if (y >= 0 && y < rows) mask[y * rw + j] |= sqz__box_row(full, bs, r, (int32_t)sh);
        }
      }
    }
  off[n] = ne;
  return ne;
}

/* The step tasks of segments of seg rows (column c | ya << 8 | yb << 20: the rows of a segment
 * within 1 .. R - 2 from the first to the last whose word can hold a cell; rows of no task are
 * never written and stay 0) into out (NULL: only counted). */
static uint32_t sqz__box_steps(const uint32_t *mask, uint32_t rows, uint32_t rw, uint32_t seg, uint32_t *out) {
  uint32_t n = 0;
  for (uint32_t g = 0; g * seg < rows; g++)
    for (uint32_t c = 1; c + 1 < rw; c++) {
      uint32_t ya = 0, yb = 0;
      for (uint32_t y = g * seg; y < (g + 1) * seg && y + 1 < rows; y++)
        if (y >= 1 && mask[y * rw + c]) {
          ya = yb ? ya : y;
          yb = y + 1;
        }
      if (yb && out) out[n] = c | ya << 8 | yb << 20;
      n += yb ? 1u : 0u;
    }
  return n;
}

/* Local-memory bank conflicts of n tasks (first row, word column) at row stride rw: over warps of
 * 32 consecutive tasks, the most of them on one of 32 banks (their later rows move every bank by
 * the same amount). */
static uint32_t sqz__box_banks(const int64_t *row, const uint32_t *col, uint32_t n, uint32_t rw) {
  uint32_t cost = 0;
  for (uint32_t w0 = 0; w0 < n; w0 += 32) {
    uint32_t count[32] = {0}, most = 0;
    for (uint32_t i = w0; i < n && i < w0 + 32; i++) {
      uint32_t b = (uint32_t)((((row[i] * (int64_t)rw + col[i]) % 32) + 32) % 32);
      if (++count[b] > most) most = count[b];
    }
    cost += most;
  }
  return cost;
}

/* The row stride (rw .. rw + 7 words, within local_words for the window's areas) with the fewest
 * bank conflicts of the fill tasks (bs rows, cells and mask) and of `depth` rounds of step tasks
 * (seg rows, 5 accesses a row); the Sierpiński triangle's 12 words a row put every band and
 * segment on the same banks (3-way conflicts), 13 halves the conflicts. */
static uint32_t sqz__box_stride(const sqz_bits_box *p, const uint32_t *tab, uint64_t local_words) {
  uint32_t nf = p->n_fill, ns = p->n_step, best = p->rw, best_cost = UINT32_MAX;
  const uint32_t *head = tab + tab[SQZ_BB_FILL], *steps = tab + tab[SQZ_BB_STEP];
  int64_t *row = malloc((size_t)(nf + ns) * sizeof *row);
  uint32_t *col = malloc((size_t)(nf + ns) * sizeof *col);
  for (uint32_t i = 0; row && col && i < nf + ns; i++) {
    uint32_t t = i < nf ? head[i] : steps[i - nf];
    row[i] = i < nf ? (int64_t)(t >> 8) - SQZ_BB_YBIAS : (int64_t)((t >> 8) & 0xfffu);
    col[i] = t & 0xffu;
  }
  for (uint32_t rw = p->rw; row && col && rw < p->rw + 8; rw++) {
    if ((uint64_t)(p->depth > 1 ? 3 : 2) * p->rows * rw > local_words) break;
    uint32_t cost = sqz__box_banks(row, col, nf, rw) * 2 * p->bs + sqz__box_banks(row + nf, col + nf, ns, rw) * 5 * p->seg * p->depth;
    if (best_cost == UINT32_MAX || cost < best_cost - best_cost / 10) { /* a wider one only for 10 % fewer */
      best = rw;
      best_cost = cost;
    }
  }
  free(row);
  free(col);
  return best;
}

int sqz__bits_box_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q,
                       uint32_t depth, uint32_t lanes, uint64_t local_words, sqz_bits_box *p) {
  const sqz_fractal *fr = &dom->fr;
  uint32_t bs, kq, side = bt->side;
  sqz__bits_box_dims(dom, q, &bs, &kq);
  memset(p, 0, sizeof *p);
  if (depth > side) depth = side; /* the window reaches the 8 neighbour tiles only */
  p->q = q;
  p->bs = bs;
  p->kq = kq;
  p->depth = depth;
  p->rows = side + 2 * depth;
  p->rw = 4 + (side + (bs > depth ? bs : depth) - 1) / 32; /* words 2 .. rw - 2: x = 0 .. side + max(bs, H) - 1 */
  int64_t bands = sqz__fdiv((int64_t)side + depth - 1, bs) - sqz__fdiv(-(int64_t)depth, bs) + 1;
  uint32_t n_fill = (uint32_t)bands * (p->rw - 2), max_ent = n_fill * (32 / bs + 2);
  uint32_t hdr[SQZ_BB_HEADER] = {0};
  hdr[SQZ_BB_DEPTH] = depth;
  hdr[SQZ_BB_ROWS] = p->rows;
  hdr[SQZ_BB_RW] = p->rw;
  hdr[SQZ_BB_NFILL] = n_fill;
  hdr[SQZ_BB_KQ] = kq;
  hdr[SQZ_BB_NSUB] = bt->kt / kq;
  hdr[SQZ_BB_U] = SQZ_BB_HEADER;
  hdr[SQZ_BB_P] = hdr[SQZ_BB_U] + 2 * 256 * ((kq + 7) / 8);
  hdr[SQZ_BB_LAM] = hdr[SQZ_BB_P] + (bs << bs);
  hdr[SQZ_BB_FILL] = hdr[SQZ_BB_LAM] + hdr[SQZ_BB_NSUB];
  hdr[SQZ_BB_ENT] = hdr[SQZ_BB_FILL] + 2 * n_fill + 1;
  size_t area = (size_t)p->rows * p->rw, cap = (size_t)hdr[SQZ_BB_ENT] + max_ent + area;
  uint32_t *tab = sqz__calloc(cap, sizeof *tab), *mask = sqz__calloc(area, sizeof *mask);
  if (!tab || !mask) {
    free(tab);
    free(mask);
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits box plan of %s", dom->spec);
  }
  memcpy(tab, hdr, sizeof hdr);
  sqz__box_tables(fr, bt, q, bs, kq, tab);
  tab[SQZ_BB_STEP] = tab[SQZ_BB_ENT] + sqz__box_fill(fr, bt, q, bs, tab, mask);
  /* task height: the fewest rounds of `lanes` work-items times the rows a task reads */
  uint32_t best = 0, best_cost = 0;
  for (uint32_t seg = 4; seg <= 32; seg *= 2) {
    uint32_t n = sqz__box_steps(mask, p->rows, p->rw, seg, NULL), cost = (n + lanes - 1) / lanes * (seg + 2);
    if (!best || cost < best_cost) {
      best = seg;
      best_cost = cost;
    }
  }
  tab[SQZ_BB_SEG] = p->seg = best;
  tab[SQZ_BB_NSTEP] = p->n_step = sqz__box_steps(mask, p->rows, p->rw, best, tab + tab[SQZ_BB_STEP]);
  p->n_fill = n_fill;
  p->words = tab[SQZ_BB_STEP] + p->n_step;
  p->tab = tab;
  free(mask);
  if (lanes >= 32) tab[SQZ_BB_RW] = p->rw = sqz__box_stride(p, tab, local_words); /* tasks keep their columns */
  return SQZ_OK;
}
