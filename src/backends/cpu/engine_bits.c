/* engine_bits.c (cpu) — Life-like steps and random fills of layout bits: 32 cells per word by bit-sliced adders, OpenMP over rows and tiles. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_bits.h"
#include "backends/cpu/cpu_engine.h"
#include "layouts/bits/bits.h"
#include "core/field_parts.h"
#include "sqz_common.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_list.h"
#include "sqz_fractal.h"
#include "sqz_parts.h"

/* Threads the fractal step may run (one scratch tile each). */
static int sqz__cpu_max_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* One step of a triangle or tetrahedron: every word of every row (y, z); a part's view (bands of
 * rows, src/core/parts_bands.c): the rows of its launch's runs, words read through the band. */
static void sqz__cpu_bits_simplex(const sqz_field *f, const uint32_t *src, uint32_t *dst, uint32_t birth,
                                  uint32_t survive) {
  uint64_t n = f->dom->side, lo = 0, hi = UINT64_MAX, base = f->part ? f->part->u0 : 0;
  int64_t rows = f->dom->dims == 2 ? (int64_t)n : (int64_t)(n * n);
  sqz_bits_band b;
  SQZ_BITS_WHOLE(b);
  if (f->part) b = (sqz_bits_band){f->part->u0, f->part->u1, sqz__band_before(f->part)};
  for (uint64_t run = 0, n_runs = 1; run < n_runs; run++) {
    if (f->part) n_runs = sqz__band_run(f, 1, run, &lo, &hi); /* its words */
#pragma omp parallel for schedule(dynamic, 16) if (f->dom->cells >= SQZ_CPU_PARALLEL_CELLS)
    for (int64_t r = 0; r < rows; r++) {
      uint64_t y = (uint64_t)r % n, z = (uint64_t)r / n;
      if (y + z >= n) continue;
      uint64_t first = f->dom->dims == 2 ? sqz_bits_tri_row(y) : sqz_bits_tet_row(n, y, z);
      if (first < lo || first >= hi) continue; /* another part's or launch's row */
      if (f->dom->dims == 2) {
        uint64_t words = sqz_bits_words(y + 1);
        for (uint64_t j = 0; j < words; j++) dst[first - base + j] = sqz_bits_tri_step(src, n, y, j, birth, survive, b);
      } else {
        uint64_t words = sqz_bits_words(n - y - z);
        for (uint64_t j = 0; j < words; j++) dst[first - base + j] = sqz_bits_tet_step(src, n, y, z, j, birth, survive, b);
      }
    }
  }
}

/* The 9 tiles around tile tb (4: itself; -1: absent), at their slots in a part's view. */
static void sqz__cpu_tile_nb(const sqz_field *f, const sqz_bits_tiling *bt, int64_t tb, sqz_i64 *nb) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, rb = (sqz_u32)fr->r - bt->t, bx, by;
  const sqz_field_part *pt = f->part; /* a part's view: tiles at their slots (cl/sqz_parts.h) */
  sqz_fr_lambda(s, k, fr->hl, rb, (uint64_t)tb, &bx, &by);
  for (sqz_u32 d = 0; d < 9; d++) {
    nb[d] = d == 4 ? tb : sqz_fr_tile_neighbour(s, k, fr->hnu, rb, bx, by, d);
    if (pt && nb[d] >= 0) nb[d] = sqz_part_slot((sqz_u64)nb[d], pt->u0, pt->u1, pt->n_halo, pt->halo);
  }
}

/* One tile (neighbours nb) of the box step in a thread's window a, b2, m (cl/sqz_bits_box.h): the
 * fill tasks, `steps` steps between the two cell areas, the pack. Always inlined, so that the
 * calls with constant boxes and rules below get the kernels' unrolled rows and folded rule. */
static inline __attribute__((always_inline)) void
sqz__cpu_box_tile(const sqz_bits_tiling *bt, const sqz_bits_box *p, const sqz_i64 *nb, uint32_t *a, uint32_t *b2,
                  uint32_t *m, const uint32_t *src, uint32_t *dst, uint32_t steps, const uint32_t bs, const uint32_t kq,
                  const uint32_t birth, const uint32_t survive) {
  const uint32_t *tab = p->tab, *tasks = tab + tab[SQZ_BB_STEP];
  uint32_t rows = p->rows;
  for (uint32_t i = 0; i < p->n_fill; i++) sqz_bits_box_fill(src, tab, nb, bt->wt, bs, kq, 0, 0, i, a, m, steps > 1);
  for (uint32_t st = 1; st <= steps; st++)
    for (uint32_t i = 0; i < p->n_step; i++) {
      uint32_t yb, ya = sqz_bits_box_rows(tasks[i], st, rows, &yb);
      if (ya < yb)
        sqz_bits_box_column((st & 1) ? a : b2, (st & 1) ? b2 : a, m, st < steps, p->rw, tasks[i] & 0xffu, ya, yb, birth,
                            survive);
    }
  for (uint32_t w = 0; w < bt->wt; w++)
    dst[(uint64_t)nb[4] * bt->wt + w] = sqz_bits_box_pack((steps & 1) ? b2 : a, tab, bs, kq, w);
}

/* One tile (neighbours nb) of the list step in a thread's areas a, b2, m of ne + 1 boxes
 * (cl/sqz_bits_list.h; entry ne stays 0): every entry's box and mask, `steps` steps (the last one
 * only the own boxes), the pack. Inlined as sqz__cpu_box_tile. */
static inline __attribute__((always_inline)) void
sqz__cpu_list_tile(const sqz_bits_tiling *bt, const sqz_bits_box *p, const sqz_i64 *nb, uint64_t *a, uint64_t *b2,
                   uint64_t *m, const uint32_t *src, uint32_t *dst, uint32_t steps, const uint32_t bs, const uint32_t kq,
                   const uint32_t birth, const uint32_t survive) {
  const uint32_t *tab = p->tab, *nbt = tab + tab[SQZ_BL_NB];
  uint32_t ne = p->ne, nsub = tab[SQZ_BL_NSUB];
  for (uint32_t e = 0; e < ne; e++) sqz_bits_list_fill(src, tab, nb, bt->wt, kq, 0, 0, e, a, m);
  for (uint32_t st = 1; st <= steps; st++) {
    uint64_t *in = (st & 1) ? a : b2, *out = (st & 1) ? b2 : a;
    for (uint32_t e = 0, n = st < steps ? ne : nsub; e < n; e++) {
      const uint32_t *w = nbt + 4u * e;
      uint64_t v = sqz_bits_list_step(in, w[0], w[1], w[2], w[3], e, bs, birth, survive);
      out[e] = st < steps ? v & m[e] : v;
    }
  }
  for (uint32_t w = 0; w < bt->wt; w++)
    dst[(uint64_t)nb[4] * bt->wt + w] = sqz_bits_list_pack((steps & 1) ? b2 : a, tab, bs, kq, w);
}

/* 64-bit words of a thread's scratch for plan p: three areas of the window (32-bit words) or of
 * the list (64-bit boxes). */
static size_t sqz__cpu_box_scratch(const sqz_bits_box *p) {
  return p->list ? 3u * ((size_t)p->ne + 1u) : (3u * (size_t)p->rows * p->rw + 1u) / 2u;
}

/* `steps` <= p->depth steps of a fractal by the box plan (window or list), a tile per thread at a
 * time (a part's view: the tiles of its launch, sqz__step_units); scratch holds each thread's
 * window (3 areas, whose words no task writes stay 0 as in the kernel) or list areas. Conway's
 * Life on the Sierpiński triangle and carpet boxes runs with them as constants. */
static void sqz__cpu_bits_box(const sqz_field *f, const sqz_bits_tiling *bt, const sqz_bits_box *p, uint64_t *scratch,
                              const uint32_t *src, uint32_t *dst, uint32_t steps, uint32_t birth, uint32_t survive) {
  size_t an = p->list ? (size_t)p->ne + 1u : (size_t)p->rows * p->rw, per = sqz__cpu_box_scratch(p);
  uint32_t bs = p->bs, kq = p->kq, life = birth == 1u << 3 && survive == (1u << 2 | 1u << 3);
  uint64_t first, end, n_runs;
  const uint64_t *runs;
  sqz_mem runs_dev;
  sqz__step_units(f, bt->tiles, &first, &end, &n_runs, &runs, &runs_dev);
#pragma omp parallel if ((end - first) * bt->kt >= SQZ_CPU_PARALLEL_CELLS) /* the cells of this launch */
  {
    uint64_t *mine = scratch + (size_t)sqz__cpu_thread() * per; /* 64-bit boxes, or 32-bit window words */
    uint32_t *a = (uint32_t *)mine, *b2 = a + an, *m = b2 + an;
    uint64_t *la = mine, *lb = la + an, *lm = lb + an;
    memset(mine, 0, p->list ? 2u * an * sizeof *la : 2u * an * sizeof *a);
#pragma omp for schedule(dynamic, 4)
    for (int64_t i = (int64_t)first; i < (int64_t)end; i++) {
      sqz_i64 nb[9];
      sqz__cpu_tile_nb(f, bt, (int64_t)sqz_units_at((uint64_t)i, n_runs, runs), nb);
      if (p->list && life && bs == 8 && kq == 27) sqz__cpu_list_tile(bt, p, nb, la, lb, lm, src, dst, steps, 8, 27, 1u << 3, 3u << 2);
      else if (p->list) sqz__cpu_list_tile(bt, p, nb, la, lb, lm, src, dst, steps, bs, kq, birth, survive);
      else if (life && bs == 8 && kq == 27) sqz__cpu_box_tile(bt, p, nb, a, b2, m, src, dst, steps, 8, 27, 1u << 3, 3u << 2);
      else if (life && bs == 3 && kq == 8) sqz__cpu_box_tile(bt, p, nb, a, b2, m, src, dst, steps, 3, 8, 1u << 3, 3u << 2);
      else sqz__cpu_box_tile(bt, p, nb, a, b2, m, src, dst, steps, bs, kq, birth, survive);
    }
  }
}

int sqz__cpu_bits_stencil(sqz_field *f, const sqz_update *u, uint64_t steps) {
  int st = sqz__bits_check_update(f, u);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  if (st != SQZ_OK) return st;
  sqz_bits_tiling bt = {0};
  sqz_bits_box plan = {0};
  uint64_t *scratch = NULL;
  if (f->part && f->dom->kind != SQZ_DOMAIN_FRACTAL && steps > 1) /* bands of rows: a step per exchange */
    st = sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s: a part in layout bits steps one step per exchange", f->dom->spec);
  if (st == SQZ_OK && f->dom->kind == SQZ_DOMAIN_FRACTAL) {
    sqz__bits_tiling(f->dom, &bt);
    st = sqz__bits_step_plan(f->ctx, f->dom, &bt, sqz__bits_box_level(f->dom, &bt), sqz__bits_depth(f, steps), 1, 0, &plan);
    if (st == SQZ_OK && f->part && plan.depth < steps) /* a part's steps between exchanges: one pass, or none */
      st = sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s: a part steps %u steps a pass here (SQZ_TEMPORAL)", f->dom->spec,
                     plan.depth);
    size_t threads = (size_t)sqz__cpu_max_threads(), words = sqz__cpu_box_scratch(&plan);
    if (st == SQZ_OK && !(scratch = malloc(threads * words * sizeof *scratch)))
      st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %zu bits tile windows of %zu bytes", threads,
                     words * sizeof *scratch);
  }
  double t0 = sqz__now();
  for (uint64_t i = 0; st == SQZ_OK && i < steps;) {
    const uint32_t *src = f->mem[f->cur];
    uint32_t *dst = f->mem[1 - f->cur];
    uint32_t now = 1;
    if (f->dom->kind == SQZ_DOMAIN_FRACTAL) {
      now = steps - i < plan.depth ? (uint32_t)(steps - i) : plan.depth;
      sqz__cpu_bits_box(f, &bt, &plan, scratch, src, dst, now, u->birth, u->survive);
    } else {
      sqz__cpu_bits_simplex(f, src, dst, u->birth, u->survive);
    }
    f->cur = 1 - f->cur;
    i += now;
  }
  f->ctx->kernel_s += sqz__now() - t0;
  free(plan.tab);
  free(scratch);
  return st;
}

int sqz__cpu_bits_fill(sqz_field *f, uint64_t threshold, uint64_t seed) {
  sqz__bits_host_fill(f, f->mem[f->cur], threshold, seed);
  return SQZ_OK;
}
