/* engine_simplex.c (cpu) — the reference stencil engine on triangles and tetrahedra: Life on whole rows in vector loops, other updates per cell through the storage index; OpenMP over rows. */
#include <stdlib.h>

#include "backends/cpu/cpu_engine.h"
#include "backends/cpu/cpu_life_rows.h"
#include "backends/cpu/cpu_rules.h"
#include "core/field_parts.h"
#include "sqz_common.h"
#include "sqz_parts.h"
#include "sqz_simplex.h"

#define SQZ_INLINE static inline __attribute__((always_inline))

/* Storage index i's place in the buffer: itself, or in a part's buffer (pt) its slot there (-1:
 * neither own nor halo, read as 0). */
SQZ_INLINE sqz_i64 cpu_slot(const sqz_field_part *pt, sqz_sidx i) {
  return pt ? sqz_part_slot((sqz_u64)i, pt->u0, pt->u1, pt->n_halo, pt->halo) : (sqz_i64)i;
}

/* Row (y, z) of the domain: cells x = 0 .. y (triangle) or 0 .. n-1-y-z (tetrahedron); in a part's
 * buffer (pt) its own cells of the step's unit set only (set: NULL, every own cell). */
SQZ_INLINE void cpu_row(int dims, int sl, sqz_u32 n, sqz_u32 y, sqz_u32 z, const unsigned char *src,
                        unsigned char *dst, size_t ts, sqz_update_fn fn, const sqz_cpu_update *u,
                        const sqz_field_part *pt, const sqz_unit_set *set) {
  int nn = dims == 2 ? 8 : 26;
  unsigned char nb[26 * 8];
  sqz_sidx idx[26];
  sqz_u32 end = dims == 2 ? y + 1 : n - y - z;
  for (sqz_u32 x = 0; x < end; x++) {
    sqz_sidx self = pt ? (dims == 2 ? sqz_tri_index(sl, n, x, y) : sqz_tet_index(sl, n, x, y, z)) : 0;
    if (pt && (self < pt->u0 || self >= pt->u1)) continue; /* another part's cell */
    if (set && !sqz_units_has((sqz_u64)self, set->n_runs, set->runs)) continue; /* the other launch's */
    sqz_u32 present = dims == 2 ? sqz_tri_nbrs(sl, n, x, y, idx, &self) : sqz_tet_nbrs(sl, n, x, y, z, idx, &self);
    for (int d = 0; d < nn; d++) {
      sqz_i64 at = (present >> d) & 1u ? cpu_slot(pt, idx[d]) : -1;
      if (at >= 0) sqz__cpu_cell_copy(nb + (size_t)d * ts, src + (uint64_t)at * ts, ts);
      else memset(nb + (size_t)d * ts, 0, ts);
    }
    uint64_t at = (uint64_t)cpu_slot(pt, self);
    fn(src + at * ts, nb, u->want_present ? present : 0u, u->param, dst + at * ts, u->user);
  }
}

/* Life on u8 cells, whole rows at a time. 2D: a task is rows y0 .. y1-1, each read once into a
 * padded line of a ring of three. 3D: a task is a block of rows y0 .. y1-1 of every layer, walked
 * z = 0, 1, .. with the lines of rows y0-1 .. y1 of layers z-1, z, z+1 in a ring of three layers,
 * so a row is read once a step (a block's two halo rows twice); and thread k of T always runs the
 * blocks of the k-th of T equal shares of rows (by cells and a cost per row), so it reads back the
 * rows it wrote the step before. (Tasks of a layer each, scheduled dynamically, read every row
 * three times, mostly rows the other core wrote: 2 threads ran 1.5x faster than 1 at
 * tetrahedron:400, now 1.9-2.0x.) Rows outside the domain are the zero line; rows are counted and
 * ruled in vector loops and written back. In a part's buffer (pt) a row within its own cells moves
 * as in one buffer, shifted by u0; a row that crosses them is read cell by cell through the slots
 * (cells in no slot as 0) and only its own cells of the launch's set are written; tasks (3D: a
 * task's layers) without such a cell are skipped. */
#define SQZ_CPU_ROWS_PER_TASK 64u /* 2D */
/* 3D: 16 to 128 rows ran within 5 % at sides 200 to 1400, but with 32 one thread fell 3-5 % behind
 * the layer tasks at side 800 (a block re-reads 2 halo rows) */
#define SQZ_CPU_TET_ROWS 64u

typedef struct {
  int dims, sl;
  sqz_u32 n;
  uint32_t birth, survive;
  const unsigned char *src;
  unsigned char *dst;
  const sqz_field_part *pt; /* a part's view, or NULL */
  const sqz_unit_set *set;  /* its launch's cells, or NULL: every own cell */
  sqz_u64 lo, hi;           /* the storage span a task must touch to run: [lo, hi) */
} cpu_life_sweep;

/* Row (y, z) as a storage row (cells x < w at al + x, the others at ar - x) and its length; 0
 * when the row lies outside the domain. */
SQZ_INLINE uint32_t cpu_row_at(const cpu_life_sweep *s, int64_t y, int64_t z, sqz_srow *r) {
  if (y < 0 || z < 0 || y + z >= (int64_t)s->n) return 0;
  if (s->dims == 2) {
    *r = sqz_tri_srow(s->sl, s->n, (sqz_u32)y);
    return (uint32_t)y + 1u;
  }
  r->al = sqz_tet_layer(s->sl, s->n, (sqz_u32)z) + sqz_tet_rowoff(s->sl, s->n, (sqz_u32)y, (sqz_u32)z);
  r->ar = 0;
  r->w = 0xFFFFFFFFu;
  return s->n - (uint32_t)(y + z);
}

/* Whether row r has a cell in storage [a, b). */
SQZ_INLINE int cpu_row_meets(sqz_srow r, uint32_t len, uint32_t left, sqz_u64 a, sqz_u64 b) {
  return (r.al < b && r.al + left > a) || (len > left && r.ar - len + 1u < b && r.ar - left >= a);
}

/* Cells [x0, x1) of row r lie at storage first .. first + x1 - x0 - 1 (forward, x0 = 0) or from
 * first down (reversed, x0 = left): their storage span [*a, *b). */
SQZ_INLINE void cpu_half_span(sqz_srow r, uint32_t x0, uint32_t x1, sqz_u64 *a, sqz_u64 *b) {
  *a = x0 == 0u ? r.al : r.ar - x1 + 1u;
  *b = x0 == 0u ? r.al + x1 : r.ar - x0 + 1u;
}

/* Whether storage [a, b) lies within the part's own cells and in one run of the launch's set
 * (so moves as one block); one buffer: always. */
SQZ_INLINE int cpu_span_whole(const cpu_life_sweep *s, sqz_u64 a, sqz_u64 b) {
  const sqz_field_part *pt = s->pt;
  if (!pt) return 1;
  if (a < pt->u0 || b > pt->u1) return 0;
  if (!s->set) return 1;
  sqz_i64 r = sqz_units_run_of(a, s->set->n_runs, s->set->runs);
  return r >= 0 && r == sqz_units_run_of(b - 1u, s->set->n_runs, s->set->runs);
}

/* Cells [x0, x1) of row r into line[1 + x0 ..] (read) or from out[x0 ..] into storage (write):
 * as a block where they lie within the part's own cells (and, writing, one run of the set), else
 * cell by cell through the slots (reads of cells in no slot give 0; writes only own cells of the
 * set). x0 = 0: the forward half, else the reversed one. */
SQZ_INLINE void cpu_half(const cpu_life_sweep *s, sqz_srow r, uint32_t x0, uint32_t x1, uint8_t *line, int write) {
  const sqz_field_part *pt = s->pt;
  sqz_u64 a, b, base = pt ? pt->u0 : 0;
  if (x1 <= x0) return;
  cpu_half_span(r, x0, x1, &a, &b);
  if (write ? cpu_span_whole(s, a, b) : !pt || (a >= pt->u0 && b <= pt->u1)) {
    if (!write && x0 == 0u) memcpy(line + 1, s->src + (a - base), x1);
    else if (!write) sqz__cpu_copy_reversed(line + 1 + x0, s->src + (b - 1u - base), x1 - x0);
    else if (x0 == 0u) memcpy(s->dst + (a - base), line, x1);
    else sqz__cpu_copy_reversed(s->dst + (a - base), line + x1 - 1u, x1 - x0);
    return;
  }
  if (write && (b <= pt->u0 || a >= pt->u1)) return; /* another part's cells */
  if (b <= pt->u0 || a >= pt->u1) { /* read another part's cells: 0 but those the halo holds */
    memset(line + 1 + x0, 0, x1 - x0);
    sqz_u64 lo = 0, hi = pt->n_halo, own = pt->u1 - pt->u0;
    while (lo < hi) { /* the first halo cell >= a */
      sqz_u64 mid = lo + (hi - lo) / 2;
      if (pt->halo[mid] < a) lo = mid + 1;
      else hi = mid;
    }
    for (; lo < pt->n_halo && pt->halo[lo] < b; lo++)
      line[1 + (x0 == 0u ? pt->halo[lo] - r.al : r.ar - pt->halo[lo])] = s->src[own + lo];
    return;
  }
  for (uint32_t x = x0; x < x1; x++) {
    sqz_u64 i = sqz_srow_index(r, x);
    if (!write) {
      sqz_i64 at = cpu_slot(pt, i);
      line[1 + x] = at >= 0 ? s->src[at] : 0;
    } else if (i >= pt->u0 && i < pt->u1 && (!s->set || sqz_units_has(i, s->set->n_runs, s->set->runs))) {
      s->dst[i - base] = line[x];
    }
  }
}

/* The padded line of row (y, z): line itself, filled, or the zero line. */
SQZ_INLINE const uint8_t *cpu_line(const cpu_life_sweep *s, int64_t y, int64_t z, uint8_t *line, const uint8_t *zero) {
  sqz_srow r = {0, 0, 0};
  uint32_t len = cpu_row_at(s, y, z, &r), left = len < r.w ? len : r.w;
  if (!len) return zero;
  cpu_half(s, r, 0, left, line, 0);
  cpu_half(s, r, left, len, line, 0);
  line[len + 1] = line[len + 2] = line[len + 3] = 0; /* rows above and below read up to 2 beyond */
  return line;
}

/* Whether a task's rows (y0 .. y1-1 of layer z) hold a cell in [s->lo, s->hi): one buffer always. */
static int cpu_task_runs(const cpu_life_sweep *s, int64_t z, int64_t y0, int64_t y1) {
  for (int64_t y = y0; s->pt && y < y1; y++) {
    sqz_srow r = {0, 0, 0};
    uint32_t len = cpu_row_at(s, y, z, &r), left = len < r.w ? len : r.w;
    if (len && cpu_row_meets(r, len, left, s->lo, s->hi)) return 1;
  }
  return !s->pt;
}

/* The row at y of the count from the lines rows[9] (rows[dz * 3 + dy]): computed and written. */
SQZ_INLINE void cpu_life_out(const cpu_life_sweep *s, int64_t y, int64_t z, const uint8_t *const rows[9], uint8_t *out) {
  sqz_srow r = {0, 0, 0};
  uint32_t len = cpu_row_at(s, y, z, &r), left = len < r.w ? len : r.w;
  if (s->dims == 2) sqz__cpu_life_row8(rows[3], rows[4], rows[5], out, len, s->birth, s->survive, NULL);
  else sqz__cpu_life_row26(rows, out, len, s->birth, s->survive);
  cpu_half(s, r, 0, left, out, 1);
  cpu_half(s, r, left, len, out, 1);
}

/* 2D: rows y0 .. y1-1 through a ring of three lines. buf: the zero line, out, 3 lines. */
static void cpu_life_task2(const cpu_life_sweep *s, int64_t y0, int64_t y1, uint8_t *buf, size_t stride) {
  const uint8_t *ring[3], *rows[9] = {0};
  uint8_t *zero = buf, *out = buf + stride;
  for (int64_t y = y0 - 1; y <= y0; y++) ring[(y + 3) % 3] = cpu_line(s, y, 0, buf + (size_t)(2 + (y + 3) % 3) * stride, zero);
  for (int64_t y = y0; y < y1; y++) {
    ring[(y + 1) % 3] = cpu_line(s, y + 1, 0, buf + (size_t)(2 + (y + 1) % 3) * stride, zero);
    for (int d = 0; d < 3; d++) rows[3 + d] = ring[(y + 2 + d) % 3];
    cpu_life_out(s, y, 0, rows, out);
  }
}

/* 3D: rows y0 .. y1-1 (y1 - y0 <= SQZ_CPU_TET_ROWS) of every layer that holds them, the lines of
 * layer l (rows y0-1 .. y1) in slot l % 3 of the ring, read when first needed. buf: the zero
 * line, out, 3 x (SQZ_CPU_TET_ROWS + 2) lines. */
static void cpu_life_task3(const cpu_life_sweep *s, int64_t y0, int64_t y1, uint8_t *buf, size_t stride) {
  enum { L = SQZ_CPU_TET_ROWS + 2 };
  const uint8_t *ring[3][L], *rows[9];
  int64_t held[3] = {-2, -2, -2}; /* the layer whose lines each slot holds */
  uint8_t *zero = buf, *out = buf + stride;
  for (int64_t z = 0; z < (int64_t)s->n - y0; z++) {
    int64_t y_end = y1 < (int64_t)s->n - z ? y1 : (int64_t)s->n - z;
    if (!cpu_task_runs(s, z, y0, y_end)) continue;
    for (int64_t l = z - 1; l <= z + 1; l++) {
      int slot = (int)((l + 3) % 3);
      if (held[slot] == l) continue;
      for (int64_t i = 0; i < L && y0 - 1 + i <= y_end; i++) /* rows y0-1 .. y_end: those the layer's rows read */
        ring[slot][i] = cpu_line(s, y0 - 1 + i, l, buf + (size_t)(2 + slot * L + i) * stride, zero);
      held[slot] = l;
    }
    for (int64_t y = y0; y < y_end; y++) {
      for (int l = 0; l < 3; l++)
        for (int d = 0; d < 3; d++) rows[l * 3 + d] = ring[(z + l + 2) % 3][y - y0 + d];
      cpu_life_out(s, y, z, rows, out);
    }
  }
}

/* The first row y of share k of `shares` of a tetrahedron's rows y (each with all its layers: n - y
 * rows of n - y, n - y - 1, .. 1 cells), shares of equal cost to a row: a row costs its cells and
 * SQZ_CPU_ROW_COST more (calls, the lines' padding, the vector loops run to whole vectors: by cells
 * alone, the share of short rows ran 25 % longer); k = shares: n. */
#define SQZ_CPU_ROW_COST 128u /* 0, 32, 64, 128, 192, 256: 128 ran fastest at sides 200 to 800 */
static int64_t cpu_tet_share(sqz_u32 n, int k, int shares) {
  uint64_t total = (uint64_t)n * (n + 1u) * (n + 2u) / 6u + SQZ_CPU_ROW_COST * (uint64_t)n * (n + 1u) / 2u, acc = 0;
  int64_t y = 0;
  for (; y < (int64_t)n && acc * (uint64_t)shares < total * (uint64_t)k; y++) {
    uint64_t m = (uint64_t)n - (uint64_t)y; /* the longest row of y's layers */
    acc += m * (m + 1u) / 2u + SQZ_CPU_ROW_COST * m;
  }
  return y;
}

static int cpu_life_step(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  const sqz_cpu_life_rule *lr = u->user;
  const sqz_unit_set *set = f->part ? f->units : NULL;
  cpu_life_sweep s = {f->dom->dims, f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, (sqz_u32)f->dom->side,
                      lr->birth, lr->survive, src, dst, f->part, set, 0, 0};
  if (f->part) { /* the span of the cells this launch writes: the part's, or its set's */
    s.lo = set ? set->runs[0] : f->part->u0;
    s.hi = set ? set->runs[2 * (set->n_runs - 1)] + (set->n - set->runs[2 * set->n_runs - 1]) : f->part->u1;
  }
  int64_t rows = s.dims == 2 ? SQZ_CPU_ROWS_PER_TASK : SQZ_CPU_TET_ROWS, blocks = ((int64_t)s.n + rows - 1) / rows;
  /* zero line, out, the ring; lines of n + 4 bytes and SQZ_LIFE_SPAN of slack (the row loops run whole vectors) */
  size_t stride = ((size_t)s.n + 4u + SQZ_LIFE_SPAN + 63u) & ~(size_t)63u, lines = s.dims == 2 ? 5 : 2 + 3 * (SQZ_CPU_TET_ROWS + 2);
  int threads = sqz__cpu_threads(u, f->dom->cells);
  uint8_t *bufs = sqz__calloc((size_t)threads * lines, stride);
  if (!bufs)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %d x %zu row buffers of %zu bytes",
                     threads, lines, stride);
  if (s.dims == 3) { /* thread k always the same rows: the k-th share */
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int k = 0; k < threads; k++) {
      uint8_t *buf = bufs + (size_t)sqz__cpu_thread() * lines * stride;
      for (int64_t y0 = cpu_tet_share(s.n, k, threads), y1 = cpu_tet_share(s.n, k + 1, threads); y0 < y1; y0 += rows)
        cpu_life_task3(&s, y0, y0 + rows < y1 ? y0 + rows : y1, buf, stride);
    }
  } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int64_t t = 0; t < blocks; t++) {
      int64_t y0 = t * rows, y1 = y0 + rows < (int64_t)s.n ? y0 + rows : (int64_t)s.n;
      if (cpu_task_runs(&s, 0, y0, y1)) cpu_life_task2(&s, y0, y1, bufs + (size_t)sqz__cpu_thread() * lines * stride, stride);
    }
  }
  free(bufs);
  return SQZ_OK;
}

int sqz__cpu_step_simplex(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, dims = f->dom->dims;
  sqz_u32 n = (sqz_u32)f->dom->side;
  int64_t rows = dims == 2 ? (int64_t)n : (int64_t)n * n; /* (y, z) pairs; those with y + z >= n are empty */
  if (u->rule == SQZ_CPU_LIFE && sqz__layout_fast(f, SQZ_FAST_ROWS)) return cpu_life_step(f, u, src, dst);
#pragma omp parallel for schedule(dynamic, 8) num_threads(sqz__cpu_threads(u, f->dom->cells))
  for (int64_t r = 0; r < rows; r++) {
    sqz_u32 y = (sqz_u32)(r % n), z = (sqz_u32)(r / n);
    if (y + z < n) cpu_row(dims, sl, n, y, z, src, dst, u->ts, u->fn, u, f->part, f->part ? f->units : NULL);
  }
  return SQZ_OK;
}
