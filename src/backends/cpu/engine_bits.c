/* engine_bits.c (cpu) — Life-like steps and random fills of layout bits: 32 cells per word by bit-sliced adders, OpenMP over rows and tiles. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_bits.h"
#include "backends/cpu/cpu_engine.h"
#include "core/bits.h"
#include "sqz_common.h"
#include "sqz_bits.h"
#include "sqz_fractal.h"

/* Threads the fractal step may run (one scratch tile each). */
static int sqz__cpu_max_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* One step of a triangle or tetrahedron: every word of every row (y, z). */
static void sqz__cpu_bits_simplex(const sqz_field *f, const uint32_t *src, uint32_t *dst, uint32_t birth,
                                  uint32_t survive) {
  uint64_t n = f->dom->side;
  int64_t rows = f->dom->dims == 2 ? (int64_t)n : (int64_t)(n * n);
#pragma omp parallel for schedule(dynamic, 16) if (f->dom->cells >= SQZ_CPU_PARALLEL_CELLS)
  for (int64_t r = 0; r < rows; r++) {
    uint64_t y = (uint64_t)r % n, z = (uint64_t)r / n;
    if (y + z >= n) continue;
    if (f->dom->dims == 2) {
      uint64_t first = sqz_bits_tri_row(y), words = sqz_bits_words(y + 1);
      for (uint64_t j = 0; j < words; j++) dst[first + j] = sqz_bits_tri_step(src, n, y, j, birth, survive);
    } else {
      uint64_t first = sqz_bits_tet_row(n, y, z), words = sqz_bits_words(n - y - z);
      for (uint64_t j = 0; j < words; j++) dst[first + j] = sqz_bits_tet_step(src, n, y, z, j, birth, survive);
    }
  }
}

/* Words of one thread's dense tile and result (sqz__cpu_bits_fractal). */
static size_t sqz__cpu_bits_scratch(const sqz_bits_tiling *bt) {
  size_t rw = (bt->side + 33u) / 32u;
  return (2u * bt->side + 2u) * rw;
}

/* One step of a fractal, a tile at a time: its bits and a one-cell halo from its 8 neighbours
 * expanded into a dense bitmap (cell (x, y) at bit x + 1 of row y + 1, rows of rw words),
 * the dense step, and the result packed back in digit order. */
static void sqz__cpu_bits_fractal(const sqz_field *f, const sqz_bits_tiling *bt, const sqz_bits_tables *tab,
                                  uint32_t *scratch, const uint32_t *src, uint32_t *dst,
                                  uint32_t birth, uint32_t survive) {
  const sqz_fractal *fr = &f->dom->fr;
  const uint32_t *lam = tab->lam;
  const int32_t *nu = tab->nu;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, rb = (sqz_u32)fr->r - bt->t, side = bt->side, rw = (side + 33u) / 32u;
#pragma omp parallel if (f->dom->cells >= SQZ_CPU_PARALLEL_CELLS)
  {
    uint32_t *dense = scratch + (size_t)sqz__cpu_thread() * sqz__cpu_bits_scratch(bt), *res = dense + (side + 2u) * rw;
#pragma omp for schedule(dynamic, 4)
    for (int64_t tb = 0; tb < (int64_t)bt->tiles; tb++) {
      uint64_t b = (uint64_t)tb;
      sqz_u32 bx, by;
      sqz_fr_lambda(s, k, fr->hl, rb, b, &bx, &by);
      memset(dense, 0, (size_t)(side + 2u) * rw * sizeof *dense);
      const uint32_t *own = src + b * bt->wt;
      for (uint32_t l = 0; l < bt->kt; l++)
        if ((own[l >> 5] >> (l & 31u)) & 1u) {
          uint32_t x = (lam[l] & 0xFFFFu) + 1u, y = (lam[l] >> 16) + 1u;
          dense[y * rw + (x >> 5)] |= 1u << (x & 31u);
        }
      sqz_i64 nb[9];
      for (sqz_u32 d = 0; d < 9; d++) nb[d] = d == 4 ? -1 : sqz_fr_tile_neighbour(s, k, fr->hnu, rb, bx, by, d);
      for (uint32_t p = 0; p < 4u * side + 4u; p++) {
        sqz_u32 cx, cy, lx, ly, d = sqz_bits_halo(side, p, &cx, &cy, &lx, &ly);
        int32_t l = nb[d] < 0 ? -1 : nu[ly * side + lx];
        if (l >= 0 && ((src[(uint64_t)nb[d] * bt->wt + ((uint32_t)l >> 5)] >> (l & 31)) & 1u))
          dense[cy * rw + (cx >> 5)] |= 1u << (cx & 31u);
      }
      for (uint32_t i = 0; i < tab->nw; i++) { /* the dense words that hold cells */
        uint32_t q = tab->wl[i];
        SQZ_BITS_DENSE_STEP(dense, rw, q / rw + 1u, q % rw, birth, survive, res[q]);
      }
      for (uint32_t w = 0; w < bt->wt; w++) {
        uint32_t v = 0;
        for (uint32_t i = 0, l = w * 32u; i < 32u && l < bt->kt; i++, l++) {
          uint32_t x = (lam[l] & 0xFFFFu) + 1u, y = lam[l] >> 16;
          v |= ((res[y * rw + (x >> 5)] >> (x & 31u)) & 1u) << i;
        }
        dst[b * bt->wt + w] = v;
      }
    }
  }
}

int sqz__cpu_bits_stencil(sqz_field *f, const sqz_update *u, uint64_t steps) {
  int st = sqz__bits_check_update(f, u);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  if (st != SQZ_OK) return st;
  sqz_bits_tiling bt = {0};
  sqz_bits_tables tab = {0};
  uint32_t *scratch = NULL;
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) {
    sqz__bits_tiling(f->dom, &bt);
    st = sqz__bits_tables(f->ctx, f->dom, &bt, &tab);
    size_t threads = (size_t)sqz__cpu_max_threads();
    if (st == SQZ_OK && !(scratch = malloc(threads * sqz__cpu_bits_scratch(&bt) * sizeof *scratch)))
      st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %zu dense tiles of side %u", threads,
                     bt.side);
  }
  double t0 = sqz__now();
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    const uint32_t *src = f->mem[f->cur];
    uint32_t *dst = f->mem[1 - f->cur];
    if (f->dom->kind == SQZ_DOMAIN_FRACTAL) sqz__cpu_bits_fractal(f, &bt, &tab, scratch, src, dst, u->birth, u->survive);
    else sqz__cpu_bits_simplex(f, src, dst, u->birth, u->survive);
    f->cur = 1 - f->cur;
  }
  f->ctx->kernel_s += sqz__now() - t0;
  free(tab.all);
  free(scratch);
  return st;
}

int sqz__cpu_bits_fill(sqz_field *f, uint64_t threshold, uint64_t seed) {
  sqz__bits_host_fill(f, f->mem[f->cur], threshold, seed);
  return SQZ_OK;
}
