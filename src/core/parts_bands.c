/* parts_bands.c — fields in parts by bands of bounding-box rows (planes of a tetrahedron): layouts bb (every family) and lambda (fractals): each part's rows, its halo rows and their exchange runs. */
#include "core/field_parts.h"

/* A band layout stores the bounding box row-major (bb, lambda: y * side + x; tetrahedron bb:
 * (z * N + y) * N + x). Its unit is one storage element, so part buffers, stores, fills and
 * exchanges are those of any layout (field_parts.h); part p owns the whole rows (3D: planes)
 * [p H / P, (p + 1) H / P) of the H rows, and its halo is the row just above its band and the
 * one just below (those that exist): a Moore neighbour is at most one row (plane) away. The halo
 * is the whole row whatever it holds (holes and cells outside the domain included), so that it
 * moves in one copy and the slots follow from the band alone (cl/sqz_parts.h, sqz_band_slot). */

int sqz__bands_layout(const sqz_field *f) {
  return f->layout == SQZ_LAYOUT_BB || (f->layout == SQZ_LAYOUT_LAMBDA && f->dom->kind == SQZ_DOMAIN_FRACTAL);
}

uint64_t sqz__bands_row(const sqz_field *f) {
  return f->dom->kind == SQZ_DOMAIN_FRACTAL || f->dom->dims == 2 ? f->dom->side : f->dom->side * f->dom->side;
}

/* floor(p * n / parts) without overflow (parts <= 2^20). */
static uint64_t sqz__band_share(uint64_t n, uint64_t parts, uint64_t p) {
  return p * (n / parts) + p * (n % parts) / parts;
}

int sqz__bands_split(sqz_field *f, sqz_field_split *fp) {
  uint64_t row = sqz__bands_row(f), rows = f->elems / row, parts = fp->parts;
  for (uint64_t p = 0; p < parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    uint64_t r0 = sqz__band_share(rows, parts, p), r1 = sqz__band_share(rows, parts, p + 1);
    uint64_t n = (r0 > 0) + (r1 < rows); /* halo rows: above (part p - 1's last), below (part p + 1's first) */
    pt->u0 = r0 * row;
    pt->u1 = r1 * row;
    pt->unit = 1;
    pt->halo = sqz__malloc((size_t)(n ? n * row : 1) * sizeof *pt->halo);
    pt->owner = sqz__malloc((size_t)(n ? n * row : 1) * sizeof *pt->owner);
    pt->runs = sqz__malloc((n ? n : 1) * sizeof *pt->runs);
    if (!pt->halo || !pt->owner || !pt->runs)
      return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the halo rows of part %llu (%llu elements)", (unsigned long long)p,
                       (unsigned long long)(n * row));
    for (uint64_t h = 0; h < n; h++) {
      uint64_t g0 = h == 0 && r0 > 0 ? pt->u0 - row : pt->u1, owner = g0 < pt->u0 ? p - 1 : p + 1;
      pt->runs[pt->n_runs++] = (sqz_halo_run){g0, row, pt->u1 - pt->u0 + h * row, owner};
      for (uint64_t i = 0; i < row; i++) {
        pt->halo[pt->n_halo] = g0 + i;
        pt->owner[pt->n_halo++] = owner;
      }
    }
  }
  return SQZ_OK;
}
