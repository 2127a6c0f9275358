/* parts_bands.c — fields in parts by bands of rows (the rows' SQZ_PARTS_BANDS): layouts bb (every family) and lambda (fractals) by bounding-box rows (planes of a tetrahedron), bits on triangles and tetrahedra by rows (planes) of words: each part's rows, its halo rows and their exchange runs. */
#include "core/field_parts.h"

/* A band layout stores rows one after another: bb and lambda the bounding box row-major (y * side
 * + x; a tetrahedron's bb (z * N + y) * N + x, rows of N^2 elements: planes), simplex bits the rows
 * of words (cl/sqz_bits.h: triangle row y from word S(y); tetrahedron plane z from word T(N) -
 * T(N - z)). Part p owns the whole rows [r_p, r_{p+1}) and its halo is the row just above its band
 * and the one just below (those that exist): a Moore neighbour is at most one row (plane) away.
 * A halo row travels whole whatever it holds (holes, cells outside the domain, padding bits), so
 * that it moves in one copy and the slots follow from the band alone (cl/sqz_parts.h,
 * sqz_band_slot). The unit is one storage element (bb, lambda) or one 32-bit word (bits), so part
 * buffers, stores, fills and exchanges are those of any layout (field_parts.h). bb and lambda cut
 * at r_p = floor(p H / P) (equal rows); bits rows grow (triangle) or shrink (tetrahedron), so its
 * cuts balance the words: r_p is the first row whose words start at or past p / P of them, kept
 * one row at least from its neighbours. */

int sqz__bands_layout(const sqz_field *f) { return sqz__layout_on(f)->parts == SQZ_PARTS_BANDS; }

uint64_t sqz__bands_rows(const sqz_field *f) {
  const sqz_layout_storage *st = sqz__layout_on(f)->storage;
  if (st->band_rows) return st->band_rows(f); /* bits: triangle rows, tetrahedron planes */
  uint64_t row = f->dom->kind == SQZ_DOMAIN_FRACTAL || f->dom->dims == 2 ? f->dom->side : f->dom->side * f->dom->side;
  return f->elems / row;
}

/* The first unit of row r (r = rows: the units of all rows). */
static uint64_t sqz__band_start(const sqz_field *f, uint64_t r) {
  const sqz_layout_storage *st = sqz__layout_on(f)->storage;
  return st->band_start ? st->band_start(f, r) : r * (f->elems / sqz__bands_rows(f));
}

/* floor(p * n / parts) without overflow (parts <= 2^20). */
static uint64_t sqz__band_share(uint64_t n, uint64_t parts, uint64_t p) {
  return p * (n / parts) + p * (n % parts) / parts;
}

/* The first row of part p (p = parts: rows), after the cut of part p - 1 at `prev`. */
static uint64_t sqz__band_cut(const sqz_field *f, uint64_t rows, uint64_t parts, uint64_t p, uint64_t prev) {
  if (p == 0 || p == parts) return p ? rows : 0;
  if (!sqz__layout_on(f)->storage->band_start) return sqz__band_share(rows, parts, p); /* equal rows */
  uint64_t want = sqz__band_share(sqz__band_start(f, rows), parts, p), lo = 0, hi = rows;
  while (lo < hi) { /* the first row starting at or past want */
    uint64_t mid = lo + (hi - lo) / 2;
    if (sqz__band_start(f, mid) < want) lo = mid + 1;
    else hi = mid;
  }
  lo = lo > prev + 1 ? lo : prev + 1;
  return lo < rows - (parts - p) ? lo : rows - (parts - p);
}

int sqz__bands_split(sqz_field *f, sqz_field_split *fp, int lists) {
  uint64_t rows = sqz__bands_rows(f), parts = fp->parts, r0 = 0;
  for (uint64_t p = 0; p < parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    uint64_t r1 = sqz__band_cut(f, rows, parts, p + 1, r0);
    uint64_t a = r0 > 0 ? sqz__band_start(f, r0 - 1) : 0, b = r1 < rows ? sqz__band_start(f, r1 + 1) : 0;
    pt->u0 = sqz__band_start(f, r0);
    pt->u1 = sqz__band_start(f, r1);
    pt->unit = fp->unit;
    uint64_t before = r0 > 0 ? pt->u0 - a : 0, after = r1 < rows ? b - pt->u1 : 0, n = before + after;
    pt->halo = sqz__malloc((size_t)(n && lists ? n : 1) * sizeof *pt->halo);
    pt->owner = sqz__malloc((size_t)(n && lists ? n : 1) * sizeof *pt->owner);
    pt->runs = sqz__malloc(2 * sizeof *pt->runs);
    if (!pt->halo || !pt->owner || !pt->runs)
      return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the halo rows of part %llu (%llu units)", (unsigned long long)p,
                       (unsigned long long)n);
    for (int h = 0; h < 2; h++) { /* the row above (part p - 1's last), then the row below (part p + 1's first) */
      uint64_t len = h ? after : before, g0 = h ? pt->u1 : pt->u0 - before, owner = h ? p + 1 : p - 1;
      if (!len) continue;
      pt->runs[pt->n_runs++] = (sqz_halo_run){g0, len, pt->u1 - pt->u0 + pt->n_halo, owner};
      for (uint64_t i = 0; lists && i < len; i++) {
        pt->halo[pt->n_halo + i] = g0 + i;
        pt->owner[pt->n_halo + i] = owner;
      }
      pt->n_halo += len;
    }
    r0 = r1;
  }
  return SQZ_OK;
}
