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

/* Checks count and allocates the download of f's storage (f->elems cells). */
static int sqz__compact_begin(sqz_field *f, uint64_t count, const void *values, unsigned char **store) {
  *store = NULL;
  if (!values) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "compact values: the array is NULL");
  if (count != f->dom->cells)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s has %llu cells in compact order, not %llu", f->dom->spec,
                     (unsigned long long)f->dom->cells, (unsigned long long)count);
  if (f->layout == SQZ_LAYOUT_COMPACT) return SQZ_OK; /* the storage is the compact order */
  uint64_t bytes = f->elems * sqz_type_size(f->type);
  if (bytes > SIZE_MAX || !(*store = sqz__malloc((size_t)bytes)))
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "%s in layout %s: %llu bytes of host memory for its storage",
                     f->dom->spec, f->layout_str, (unsigned long long)bytes);
  return SQZ_OK;
}

int sqz_field_read_compact(sqz_field *f, void *values, uint64_t count) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_read_compact: the field is NULL");
  unsigned char *store = NULL;
  int st = sqz__compact_begin(f, count, values, &store);
  if (st != SQZ_OK) return st;
  sqz__op_begin(f->ctx);
  if (!store) {
    st = sqz__field_download(f, values);
  } else if ((st = sqz__field_download(f, store)) == SQZ_OK) {
    sqz_field view;
    sqz__compact_view(f, &view);
    size_t ts = sqz_type_size(f->type);
    for (uint64_t c = 0; c < count; c++) {
      uint64_t x, y, z;
      sqz__layout_coords(&view, c, &x, &y, &z);
      int64_t i = sqz__layout_index(f, x, y, z);
      memcpy((unsigned char *)values + c * ts, store + (uint64_t)i * ts, ts); /* every domain cell is stored */
    }
  }
  free(store);
  sqz__op_end(f->ctx);
  return st;
}

int sqz_field_write_compact(sqz_field *f, const void *values, uint64_t count) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_write_compact: the field is NULL");
  unsigned char *store = NULL;
  int st = sqz__compact_begin(f, count, values, &store);
  if (st != SQZ_OK) return st;
  sqz__op_begin(f->ctx);
  if (!store) {
    st = sqz__field_upload(f, values);
  } else {
    sqz_field view;
    sqz__compact_view(f, &view);
    size_t ts = sqz_type_size(f->type);
    memset(store, 0, (size_t)(f->elems * ts)); /* holes and padding of the layout stay 0 */
    for (uint64_t c = 0; c < count; c++) {
      uint64_t x, y, z;
      sqz__layout_coords(&view, c, &x, &y, &z);
      int64_t i = sqz__layout_index(f, x, y, z);
      memcpy(store + (uint64_t)i * ts, (const unsigned char *)values + c * ts, ts);
    }
    st = sqz__field_upload(f, store);
  }
  free(store);
  sqz__op_end(f->ctx);
  return st;
}
