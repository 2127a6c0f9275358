/* field_rows.c — bands of rows of a field's embedded image, read and written through the backend without the whole array. */
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "core/bits.h"

/* Row r of the embedded image: (y, z) = (r, 0) in 2D, (r % side, r / side) in 3D — the row order of
 * sqz_field_read's array, of PBM images (3D: slice z in rows z*N .. z*N+N-1) and of .npy files. */
uint64_t sqz__field_image_rows(const sqz_field *f) {
  return f->dom->dims == 3 ? f->dom->side * f->dom->side : f->dom->side;
}

uint64_t sqz__field_band_rows(const sqz_field *f) {
  uint64_t per = ((uint64_t)1 << 20) / (f->dom->side ? f->dom->side : 1); /* about 2^20 cells a band */
  return per ? per : 1;
}

/* Storage indices of rows r0 .. r0 + rows - 1 (-1 outside the domain), into idx. */
static void sqz__band_index(const sqz_field *f, uint64_t r0, uint64_t rows, int64_t *idx) {
  uint64_t n = f->dom->side;
  for (uint64_t r = 0; r < rows; r++) {
    uint64_t row = r0 + r, y = f->dom->dims == 3 ? row % n : row, z = f->dom->dims == 3 ? row / n : 0;
    for (uint64_t x = 0; x < n; x++) idx[r * n + x] = sqz__layout_index(f, x, y, z);
  }
}

static int sqz__band(sqz_field *f, uint64_t r0, uint64_t rows, void *out, const void *in) {
  uint64_t cells = rows * f->dom->side;
  if (r0 + rows > sqz__field_image_rows(f) || cells / (rows ? rows : 1) != f->dom->side)
    return sqz__fail(f->ctx, SQZ_ERR_INTERNAL, "rows %llu .. %llu are outside the image of %s",
                     (unsigned long long)r0, (unsigned long long)(r0 + rows), f->dom->spec);
  int64_t *idx = cells <= SIZE_MAX / sizeof *idx ? malloc((size_t)cells * sizeof *idx) : NULL;
  if (!idx)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: %llu bytes of host memory for a band of rows", f->dom->spec,
                     (unsigned long long)(cells * sizeof *idx));
  sqz__band_index(f, r0, rows, idx);
  size_t ts = sqz_type_size(f->type);
  int st = f->layout == SQZ_LAYOUT_BITS ? sqz__bits_band(f, idx, cells, out, in)
           : out                          ? f->ctx->ops->gather(f->ctx, f->mem[f->cur], ts, idx, cells, out)
                                          : f->ctx->ops->scatter(f->ctx, f->mem[f->cur], ts, idx, cells, in);
  free(idx);
  return st;
}

int sqz__field_read_rows(sqz_field *f, uint64_t r0, uint64_t rows, void *out) { return sqz__band(f, r0, rows, out, NULL); }

int sqz__field_write_rows(sqz_field *f, uint64_t r0, uint64_t rows, const void *in) {
  return sqz__band(f, r0, rows, NULL, in);
}
