/* bits_field.c — layout bits on the host side: the update check, its row's I/O (the byte view of the state, bands, counts), the host fill and the tile tables. */
#include <stdlib.h>
#include <string.h>

#include "core/field_parts.h"
#include "layouts/bits/bits.h"
#include "sqz_bits.h"
#include "sqz_fractal.h"

#define SQZ__BITS_CHUNK_WORDS ((uint64_t)1 << 24) /* words per transfer of the counts (64 MiB) */
#define SQZ__BITS_FILL_PARALLEL ((uint64_t)1 << 15) /* cells from which the host fill runs on threads */

int sqz__bits_check_update(sqz_field *f, const sqz_update *u) {
  const char *what = NULL;
  switch (u->kind) {
  case SQZ_UPDATE_LIFE: return SQZ_OK;
  case SQZ_UPDATE_LIFE_BODY: what = "a user Life body (it may return any byte)"; break;
  case SQZ_UPDATE_HEAT: what = "heat (real-valued cells)"; break;
  case SQZ_UPDATE_CL: what = "a user OpenCL update"; break;
  case SQZ_UPDATE_FN: what = "a user C update"; break;
  }
  return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                   "layout bits runs Life-like B/S rules only (two-state cells); the update is %s: use layout compact",
                   what ? what : "unknown");
}

static int sqz__bits_download(sqz_field *f, unsigned char *host) {
  uint64_t words = f->elems / SQZ_BITS_W;
  uint32_t *w = NULL;
  int st = sqz__host_alloc(f->ctx, words * 4u, 0, (void **)&w, "%s: the words of the bits state", f->dom->spec);
  if (st != SQZ_OK) return st;
  st = sqz__store_read(f, f->cur, 0, f->elems, w); /* one buffer or parts */
  if (st == SQZ_OK) st = sqz__store_finish(f);
  for (uint64_t i = 0; st == SQZ_OK && i < f->elems; i++) host[i] = (unsigned char)((w[i >> 5] >> (i & 31u)) & 1u);
  free(w);
  return st;
}

/* Packs n bytes (0/1) into words (n / 32 of them); SQZ_ERR_INVALID_ARGUMENT on another value. */
static int sqz__bits_pack(sqz_field *f, const unsigned char *host, uint64_t n, uint32_t *w) {
  memset(w, 0, (size_t)(n / 8u));
  for (uint64_t i = 0; i < n; i++) {
    if (host[i] > 1u)
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                       "layout bits holds cells 0 and 1; storage cell %llu of %s has the value %u",
                       (unsigned long long)i, f->dom->spec, host[i]);
    w[i >> 5] |= (uint32_t)host[i] << (i & 31u);
  }
  return SQZ_OK;
}

static int sqz__bits_upload(sqz_field *f, const unsigned char *host) {
  uint64_t words = f->elems / SQZ_BITS_W;
  uint32_t *w = NULL;
  int st = sqz__host_alloc(f->ctx, words * 4u, 0, (void **)&w, "%s: the words of the bits state", f->dom->spec);
  if (st == SQZ_OK) st = sqz__bits_pack(f, host, f->elems, w);
  if (st == SQZ_OK) st = sqz__store_write(f, f->cur, 0, f->elems, w);
  if (st == SQZ_OK) st = sqz__store_finish(f);
  free(w);
  return st;
}

/* The words a band of cells touches, as runs of consecutive words (gaps of up to SQZ__BITS_GAP
 * words joined): start word, length, and offset in the host copy. */
#define SQZ__BITS_GAP 256u
typedef struct {
  uint64_t start, len, at;
} sqz_bits_run;

/* Index of the run holding word w (runs sorted by start, w inside one of them). */
static size_t sqz__bits_run_of(const sqz_bits_run *r, size_t nr, uint64_t w) {
  size_t lo = 0, hi = nr;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (r[mid].start <= w) lo = mid;
    else hi = mid;
  }
  return lo;
}

static int sqz__bits_band(sqz_field *f, int which, const int64_t *idx, uint64_t n, unsigned char *out,
                          const unsigned char *in) {
  sqz_context *ctx = f->ctx;
  if (out) memset(out, 0, (size_t)n);
  uint64_t *ws = NULL, m = 0;
  int st = sqz__host_alloc(ctx, (n ? n : 1) * sizeof *ws, 0, (void **)&ws, "%s: the words of a band", f->dom->spec);
  if (st != SQZ_OK) return st;
  for (uint64_t i = 0; i < n; i++)
    if (idx[i] >= 0) ws[m++] = (uint64_t)idx[i] >> 5;
  qsort(ws, (size_t)m, sizeof *ws, sqz__u64_cmp);
  size_t nr = 0;
  uint64_t total = 0;
  sqz_bits_run *runs = m ? sqz__malloc((size_t)m * sizeof *runs) : NULL; /* at most one run a word */
  if (m && !runs) st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: out of host memory for a band", f->dom->spec);
  for (uint64_t i = 0; st == SQZ_OK && i < m; i++) {
    if (nr && ws[i] <= runs[nr - 1].start + runs[nr - 1].len - 1 + SQZ__BITS_GAP) {
      runs[nr - 1].len = ws[i] - runs[nr - 1].start + 1;
    } else {
      runs[nr++] = (sqz_bits_run){ws[i], 1, 0};
    }
  }
  for (size_t r = 0; r < nr; r++) {
    runs[r].at = total;
    total += runs[r].len;
  }
  free(ws);
  uint32_t *w = NULL;
  if (st == SQZ_OK && total)
    st = sqz__host_alloc(ctx, total * 4u, 0, (void **)&w, "%s: the words of a band", f->dom->spec);
  for (size_t r = 0; st == SQZ_OK && r < nr; r++)
    st = sqz__store_read(f, which, runs[r].start * SQZ_BITS_W, runs[r].len * SQZ_BITS_W, w + runs[r].at);
  if (st == SQZ_OK && nr) st = sqz__store_finish(f);
  for (uint64_t i = 0; st == SQZ_OK && i < n; i++) {
    if (idx[i] < 0) continue;
    uint64_t word = (uint64_t)idx[i] >> 5, bit = (uint64_t)idx[i] & 31u;
    const sqz_bits_run *run = &runs[sqz__bits_run_of(runs, nr, word)];
    uint32_t *p = w + run->at + (word - run->start);
    if (out) out[i] = (unsigned char)((*p >> bit) & 1u);
    else if (in[i] > 1u)
      st = sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "layout bits holds cells 0 and 1; %s gets the value %u",
                     f->dom->spec, in[i]);
    else *p = (*p & ~(1u << bit)) | (uint32_t)in[i] << bit;
  }
  for (size_t r = 0; st == SQZ_OK && in && r < nr; r++)
    st = sqz__store_write(f, which, runs[r].start * SQZ_BITS_W, runs[r].len * SQZ_BITS_W, w + runs[r].at);
  if (st == SQZ_OK && in && nr) st = sqz__store_finish(f);
  free(w);
  free(runs);
  return st;
}

static int sqz__bits_reduce(sqz_field *f, sqz_red_op op, sqz_red_acc *acc) {
  if (op == SQZ_RED_ABOVE1) return SQZ_OK; /* a bit is 0 or 1 */
  uint64_t parts = f->parts ? f->parts->parts : 1, most = 0;
  for (uint64_t p = 0; p < parts; p++) { /* the largest own range: the chunk */
    const sqz_field_part *pt = f->parts ? &f->parts->part[p] : NULL;
    uint64_t words = (pt ? (pt->u1 - pt->u0) * pt->unit : f->elems) / SQZ_BITS_W;
    most = words > most ? words : most;
  }
  uint64_t chunk = most < SQZ__BITS_CHUNK_WORDS ? most : SQZ__BITS_CHUNK_WORDS, live = 0;
  uint32_t *w = NULL;
  int st = sqz__host_alloc(f->ctx, (chunk ? chunk : 1) * 4u, 0, (void **)&w, "%s: a chunk of the bits state",
                           f->dom->spec);
  for (uint64_t p = 0; st == SQZ_OK && p < parts; p++) { /* own words of each part held here (halos excluded) */
    const sqz_field_part *pt = f->parts ? &f->parts->part[p] : NULL;
    if (pt && !pt->ctx) continue;
    uint64_t w0 = pt ? pt->u0 * pt->unit / SQZ_BITS_W : 0;
    uint64_t words = (pt ? (pt->u1 - pt->u0) * pt->unit : f->elems) / SQZ_BITS_W;
    for (uint64_t at = 0; st == SQZ_OK && at < words; at += chunk) {
      uint64_t m = words - at < chunk ? words - at : chunk;
      st = sqz__store_read(f, f->cur, (w0 + at) * SQZ_BITS_W, m * SQZ_BITS_W, w);
      if (st == SQZ_OK) st = sqz__store_finish(f);
      for (uint64_t i = 0; st == SQZ_OK && i < m; i++) live += (uint64_t)__builtin_popcount(w[i]);
    }
  }
  free(w);
  if (st != SQZ_OK) return st;
  if (op == SQZ_RED_COUNT) acc->count += live;
  else sqz__red_add_int(acc, (int64_t)live);
  return SQZ_OK;
}

/* Layout bits' I/O: storage elements are bits of 0/1 cells, moved as whole words. */
const sqz_layout_io sqz__bits_io = {
    .band = sqz__bits_band, .download = sqz__bits_download, .upload = sqz__bits_upload, .reduce = sqz__bits_reduce};

void sqz__bits_host_fill(const sqz_field *f, uint32_t *words, uint64_t threshold, uint64_t seed) {
  uint64_t e0, n, side = f->dom->side;
  sqz__own_elems(f, &e0, &n); /* a part's own words (from slot 0 of its buffer), or all */
  uint64_t w0 = e0 / SQZ_BITS_W;
#pragma omp parallel for schedule(dynamic, 1024) if (n >= SQZ__BITS_FILL_PARALLEL) /* a part's few tiles: one thread */
  for (int64_t w = 0; w < (int64_t)(n / SQZ_BITS_W); w++) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < SQZ_BITS_W; b++) {
      uint64_t x, y, z;
      if (sqz__bits_coords(f, (w0 + (uint64_t)w) * SQZ_BITS_W + b, &x, &y, &z))
        v |= sqz_random_cell(seed, (z * side + y) * side + x, threshold) << b;
    }
    words[w] = v;
  }
}

int sqz__bits_tables(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, sqz_bits_tables *tab) {
  const sqz_fractal *fr = &dom->fr;
  size_t area = (size_t)bt->side * bt->side, rw = (bt->side + 33u) / 32u, dense = (size_t)bt->side * rw;
  memset(tab, 0, sizeof *tab);
  tab->words = bt->kt + area + dense;
  uint32_t *all = sqz__calloc(tab->words + dense, sizeof *all); /* + the occupancy of the dense words */
  if (!all) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for the bits tile tables of %s", dom->spec);
  uint32_t *occupied = all + tab->words;
  tab->all = tab->lam = all;
  tab->nu = (int32_t *)(all + bt->kt);
  tab->wl = all + bt->kt + area;
  for (size_t p = 0; p < area; p++) tab->nu[p] = -1;
  for (uint32_t l = 0; l < bt->kt; l++) {
    sqz_u32 x, y;
    sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, bt->t, l, &x, &y);
    tab->lam[l] = x | y << 16;
    tab->nu[(size_t)y * bt->side + x] = (int32_t)l;
    occupied[(size_t)y * rw + (x + 1u) / 32u] = 1u;
  }
  for (size_t q = 0; q < dense; q++)
    if (occupied[q]) tab->wl[tab->nw++] = (uint32_t)q;
  tab->words = bt->kt + area + tab->nw;
  return SQZ_OK;
}
