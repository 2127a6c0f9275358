/* field_compact.c — a field's state in compact order (k^R or |D| values), whatever its layout, without a bounding-box array. */
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"

/* Compact order: for fractals the digit order of λ (cell c at λ(c)); for triangles and
 * tetrahedra the storage order of layout compact. view is f seen in layout compact. */
static void sqz__compact_view(const sqz_field *f, sqz_field *view) {
  *view = *f;
  view->layout = SQZ_LAYOUT_COMPACT;
  view->layout_rho = 0;
  view->elems = f->dom->cells;
}

/* Compact cells a band of storage indices covers: 1 MiB of indices. */
#define SQZ_COMPACT_BAND ((uint64_t)1 << 17)

/* Moves the state between f and `values` in compact order: the storage itself where the layout is
 * compact, else bands of compact cells through their storage indices and the backend's gather
 * (read) or scatter (write, into the current buffer zeroed first: holes and padding stay 0), so host
 * memory is the caller's array and one band of indices, never a copy of the storage. */
static int sqz__compact_move(sqz_field *f, void *values, uint64_t count, int write, const char *what) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "%s: the field is NULL", what);
  if (!values) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the array is NULL", what);
  if (count != f->dom->cells)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s has %llu cells in compact order, not %llu", f->dom->spec,
                     (unsigned long long)f->dom->cells, (unsigned long long)count);
  sqz_context *ctx = f->ctx;
  if (f->layout == SQZ_LAYOUT_COMPACT) { /* the storage is the compact order */
    sqz__op_begin(ctx);
    int st = write ? sqz__field_upload(f, values) : sqz__field_download(f, values);
    sqz__op_end(ctx);
    return st;
  }
  uint64_t band = count < SQZ_COMPACT_BAND ? count : SQZ_COMPACT_BAND;
  int64_t *idx = NULL;
  int st = sqz__host_alloc(ctx, (band ? band : 1) * sizeof *idx, 0, (void **)&idx, "%s: %s: a band of %llu storage indices",
                           what, f->dom->spec, (unsigned long long)band);
  if (st != SQZ_OK) return st;
  sqz_field view;
  sqz__compact_view(f, &view);
  size_t ts = sqz_type_size(f->type);
  sqz__op_begin(ctx);
  sqz_mem mem = f->mem[f->cur];
  if (write) st = ctx->ops->zero(ctx, mem, f->elems * ts);
  for (uint64_t c0 = 0; st == SQZ_OK && c0 < count; c0 += band) {
    uint64_t n = count - c0 < band ? count - c0 : band;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t x, y, z;
      sqz__layout_coords(&view, c0 + i, &x, &y, &z);
      idx[i] = sqz__layout_index(f, x, y, z); /* every domain cell is stored */
    }
    unsigned char *v = (unsigned char *)values + c0 * ts;
    st = write ? ctx->ops->scatter(ctx, mem, ts, idx, n, v) : ctx->ops->gather(ctx, mem, ts, idx, n, v);
  }
  if (st == SQZ_OK) st = sqz__finish(ctx);
  sqz__op_end(ctx);
  free(idx);
  return st;
}

int sqz_field_read_compact(sqz_field *f, void *values, uint64_t count) {
  return sqz__compact_move(f, values, count, 0, "sqz_field_read_compact");
}

int sqz_field_write_compact(sqz_field *f, const void *values, uint64_t count) {
  return sqz__compact_move(f, (void *)values, count, 1, "sqz_field_write_compact");
}
