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

/* Life on u8 cells, whole rows at a time: a task is rows y0 .. y1-1 of layer z (2D: z = 0). Each
 * row is read once into a padded line of a ring of three per layer z-1, z, z+1 (rows outside the
 * domain are the zero line), counted and ruled in vector loops, and written back. */
#define SQZ_CPU_ROWS_PER_TASK 64u

typedef struct {
  int dims, sl;
  sqz_u32 n;
  uint32_t birth, survive;
  const unsigned char *src;
  unsigned char *dst;
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

/* The padded line of row (y, z): line itself, filled, or the zero line. */
SQZ_INLINE const uint8_t *cpu_line(const cpu_life_sweep *s, int64_t y, int64_t z, uint8_t *line, const uint8_t *zero) {
  sqz_srow r = {0, 0, 0};
  uint32_t len = cpu_row_at(s, y, z, &r), left = len < r.w ? len : r.w;
  if (!len) return zero;
  memcpy(line + 1, s->src + r.al, left);
  if (len > left) sqz__cpu_copy_reversed(line + 1 + left, s->src + (r.ar - left), len - left);
  line[len + 1] = line[len + 2] = line[len + 3] = 0; /* rows above and below read up to 2 beyond */
  return line;
}

static void cpu_life_task(const cpu_life_sweep *s, int64_t z, int64_t y0, int64_t y1, uint8_t *buf,
                                         size_t stride) {
  int layers = s->dims == 2 ? 1 : 3;
  const uint8_t *ring[3][3], *rows[9];
  uint8_t *zero = buf, *out = buf + stride;
  for (int l = 0; l < layers; l++)
    for (int64_t y = y0 - 1; y <= y0; y++)
      ring[l][(y + 3) % 3] = cpu_line(s, y, z + l - (layers > 1), buf + (size_t)(2 + 3 * l + (y + 3) % 3) * stride, zero);
  for (int64_t y = y0; y < y1; y++) {
    for (int l = 0; l < layers; l++) {
      int64_t yn = y + 1;
      ring[l][yn % 3] = cpu_line(s, yn, z + l - (layers > 1), buf + (size_t)(2 + 3 * l + yn % 3) * stride, zero);
      for (int d = 0; d < 3; d++) rows[(layers > 1 ? l : 1) * 3 + d] = ring[l][(y + 2 + d) % 3];
    }
    sqz_srow r = {0, 0, 0};
    uint32_t len = cpu_row_at(s, y, z, &r), left = len < r.w ? len : r.w;
    if (s->dims == 2) sqz__cpu_life_row8(rows[3], rows[4], rows[5], out, len, s->birth, s->survive, NULL);
    else sqz__cpu_life_row26(rows, out, len, s->birth, s->survive);
    memcpy(s->dst + r.al, out, left);
    if (len > left) sqz__cpu_copy_reversed(s->dst + (r.ar - len + 1), out + len - 1, len - left);
  }
}

static int cpu_life_step(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  const sqz_cpu_life_rule *lr = u->user;
  cpu_life_sweep s = {f->dom->dims, f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, (sqz_u32)f->dom->side,
                      lr->birth, lr->survive, src, dst};
  int64_t layers = s.dims == 2 ? 1 : (int64_t)s.n, blocks = ((int64_t)s.n + SQZ_CPU_ROWS_PER_TASK - 1) / SQZ_CPU_ROWS_PER_TASK;
  size_t stride = ((size_t)s.n + 4u + 63u) & ~(size_t)63u, lines = 11; /* zero line, out, 3 x 3 ring */
  int threads = sqz__cpu_threads(u, f->dom->cells);
  uint8_t *bufs = sqz__calloc((size_t)threads * lines, stride);
  if (!bufs)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for %d x %zu row buffers of %zu bytes",
                     threads, lines, stride);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t t = 0; t < layers * blocks; t++) {
    int64_t z = t / blocks, y0 = t % blocks * SQZ_CPU_ROWS_PER_TASK, rows = (int64_t)s.n - z;
    if (y0 < rows)
      cpu_life_task(&s, z, y0, y0 + SQZ_CPU_ROWS_PER_TASK < rows ? y0 + SQZ_CPU_ROWS_PER_TASK : rows,
                    bufs + (size_t)sqz__cpu_thread() * lines * stride, stride);
  }
  free(bufs);
  return SQZ_OK;
}

int sqz__cpu_step_simplex(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, dims = f->dom->dims;
  sqz_u32 n = (sqz_u32)f->dom->side;
  int64_t rows = dims == 2 ? (int64_t)n : (int64_t)n * n; /* (y, z) pairs; those with y + z >= n are empty */
  if (u->rule == SQZ_CPU_LIFE && !f->part) return cpu_life_step(f, u, src, dst); /* parts: cell by cell */
#pragma omp parallel for schedule(dynamic, 8) num_threads(sqz__cpu_threads(u, f->dom->cells))
  for (int64_t r = 0; r < rows; r++) {
    sqz_u32 y = (sqz_u32)(r % n), z = (sqz_u32)(r / n);
    if (y + z < n) cpu_row(dims, sl, n, y, z, src, dst, u->ts, u->fn, u, f->part, f->part ? f->units : NULL);
  }
  return SQZ_OK;
}
