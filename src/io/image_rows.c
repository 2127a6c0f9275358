/* image_rows.c — a field's embedded image row by row for the PBM, .npy and PNG files: storage copy + one row, never side^2. */
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "io/image_rows.h"

int sqz__image_open(sqz_field *f, const char *path, int mode, sqz_image *im) {
  memset(im, 0, sizeof *im);
  sqz_context *ctx = f->ctx;
  const sqz_domain *d = f->dom;
  uint64_t height = d->side, store_bytes = 0, list_bytes = 0;
  size_t ts = sqz_type_size(f->type);
  int ok = (d->dims == 2 || sqz__checked_mul(d->side, d->side, &height)) &&
           sqz__checked_mul(f->elems, ts, &store_bytes) && sqz__checked_mul(d->side, 2 * sizeof(uint64_t), &list_bytes);
  if (!ok) return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s: %s: the image is too large for this host", path, d->spec);
  int host = mode == SQZ_IMAGE_SAVE && ctx->ops->host_memory && f->layout != SQZ_LAYOUT_BITS; /* bits: a byte view */
  int st = sqz__host_check(ctx, (host ? 0 : store_bytes) + list_bytes,
                           "%s: %s: the state's storage copy (%llu bytes) and one row of the image", path, d->spec,
                           (unsigned long long)store_bytes);
  void *lists = NULL, *store = host ? f->mem[f->cur] : NULL;
  if (st == SQZ_OK) st = sqz__host_alloc(ctx, list_bytes, 0, &lists, "%s: one row of the image", path);
  if (st == SQZ_OK && !host)
    st = sqz__host_alloc(ctx, store_bytes, mode == SQZ_IMAGE_LOAD, &store, "%s: %s: the storage copy of the state", path,
                         d->spec);
  if (st == SQZ_OK && mode == SQZ_IMAGE_SAVE) st = host ? sqz__finish(ctx) : sqz__field_download(f, store);
  if (st != SQZ_OK) {
    free(lists);
    if (!host) free(store);
    return st;
  }
  im->f = f;
  im->path = path;
  im->store = store;
  im->owned = !host;
  im->ts = ts;
  im->width = d->side;
  im->height = height;
  im->xs = lists;
  im->index = im->xs + d->side;
  return SQZ_OK;
}

void sqz__image_row(sqz_image *im, uint64_t row) {
  uint64_t n = im->f->dom->side;
  int flat = im->f->dom->dims == 2;
  im->count = sqz__layout_row(im->f, flat ? row : row % n, flat ? 0 : row / n, im->xs, im->index);
}

int sqz__image_set(const sqz_image *im, uint64_t i) {
  const unsigned char *p = im->store + i * im->ts;
  for (size_t b = 0; b < im->ts; b++)
    if (p[b]) return 1;
  return 0;
}

void sqz__image_take_row(sqz_image *im, uint64_t row, const unsigned char *data) {
  size_t ts = im->ts;
  uint64_t j = 0, n = im->f->dom->side;
  for (uint64_t x = 0; x < im->width; x++) {
    const unsigned char *v = data + x * ts;
    if (j < im->count && im->xs[j] == x) {
      memcpy(im->store + im->index[j++] * ts, v, ts);
      continue;
    }
    if (im->outside) continue;
    for (size_t b = 0; b < ts; b++)
      if (v[b]) {
        im->outside = 1;
        im->out_x = x;
        im->out_y = im->f->dom->dims == 2 ? row : row % n;
        im->out_z = im->f->dom->dims == 2 ? 0 : row / n;
        break;
      }
  }
}

int sqz__image_commit(sqz_image *im) {
  if (im->outside) return sqz__outside_fail(im->f, im->path, im->out_x, im->out_y, im->out_z);
  sqz__op_begin(im->f->ctx);
  int st = sqz__field_upload(im->f, im->store);
  sqz__op_end(im->f->ctx);
  return st;
}

void sqz__image_close(sqz_image *im) {
  if (im->owned) free(im->store);
  free(im->xs);
  memset(im, 0, sizeof *im);
}
