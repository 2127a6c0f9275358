/* simplex_layout.c — storage geometry and index maps of triangle/tetrahedron fields (layouts bb and compact): the storage of the simplex family's rows. */
#include "simplex/simplex.h"
#include "sqz_simplex.h"

int sqz__simplex_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems,
                          uint64_t *width, uint64_t *height) {
  uint64_t n = dom->side;
  (void)rho;
  if (layout != SQZ_LAYOUT_BB && layout != SQZ_LAYOUT_COMPACT)
    return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s has layouts bb and compact only", dom->spec);
  if (dom->dims == 2) {
    if (layout == SQZ_LAYOUT_BB) {
      *width = n;
      *height = n;
    } else { /* rectangle fold: W x H = T(n) */
      *width = sqz_fold_w(n);
      *height = sqz_fold_h(n);
    }
  } else if (layout == SQZ_LAYOUT_BB) {
    *width = n;
    if (!sqz__checked_mul(n, n, height))
      return sqz__fail(dom->ctx, SQZ_ERR_TOO_LARGE, "%s: the bounding box overflows 64 bits", dom->spec);
  } else { /* packed layers: one row of Te(n) cells */
    *width = sqz_tet(n);
    *height = 1;
  }
  if (!sqz__checked_mul(*width, *height, elems))
    return sqz__fail(dom->ctx, SQZ_ERR_TOO_LARGE, "%s: the %s storage overflows 64 bits", dom->spec,
                     layout == SQZ_LAYOUT_BB ? "bb" : "compact");
  return SQZ_OK;
}

int sqz__simplex_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z) {
  sqz_u32 n = (sqz_u32)f->dom->side, a = 0, b = 0, c = 0;
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, in = 0;
  if (index < f->elems)
    in = f->dom->dims == 2 ? sqz_tri_cell(sl, n, index, &a, &b) : sqz_tet_cell(sl, n, index, &a, &b, &c);
  *x = a;
  *y = b;
  *z = c;
  return in;
}

int64_t sqz__simplex_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z) {
  const sqz_domain *dom = f->dom;
  if (dom->dims == 2) z = 0;
  if (!sqz__simplex_contains(dom, x, y, z)) return -1;
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT;
  sqz_u32 n = (sqz_u32)dom->side;
  if (dom->dims == 2) return (int64_t)sqz_tri_index(sl, n, (sqz_u32)x, (sqz_u32)y);
  return (int64_t)sqz_tet_index(sl, n, (sqz_u32)x, (sqz_u32)y, (sqz_u32)z);
}

static uint64_t sqz__simplex_row(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index) {
  uint64_t n = 0;
  for (uint64_t x = 0; x < f->dom->side; x++) { /* a simplex row's cells are x = 0 .. its end */
    int64_t i = sqz__simplex_index(f, x, y, z);
    if (i < 0) break;
    xs[n] = x;
    index[n++] = (uint64_t)i;
  }
  return n;
}

static const char *sqz__simplex_rule(const sqz_field *f) {
  int bb = f->layout == SQZ_LAYOUT_BB;
  if (f->dom->dims == 2)
    return bb ? "bb triangle: N x N row-major, index y*N + x for 0 <= x <= y < N (cells x > y stored as 0)"
              : "compact triangle: rectangle fold, W = ceil(N/2) columns by N + 1 - (N mod 2) rows, e = 1 - (N mod 2); "
                "cell (x, y) is (u, v) = (x, y + e) when x < W, else (N - e - x, N - 1 - y); index v*W + u";
  return bb ? "bb tetrahedron: N x N x N, index (z*N + y)*N + x for x + y + z <= N - 1 (other cells stored as 0)"
            : "compact tetrahedron: packed layers z, rows y, then x: index Te(N) - Te(N - z - 1) - T(N - z - y) + x, "
              "T(k) = k(k+1)/2, Te(k) = k(k+1)(k+2)/6";
}

/* Parts: compact by cells, bb by the equal rows of its box: no tile or band operations. */
const sqz_layout_storage sqz__simplex_storage = {
    .geometry = sqz__simplex_geometry, .coords = sqz__simplex_coords, .index = sqz__simplex_index,
    .row = sqz__simplex_row, .rule = sqz__simplex_rule};
