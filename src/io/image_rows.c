/* image_rows.c — a field's embedded image in bands of rows: domain cells gathered from or scattered to the backend, host memory bounded by the band. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"
#include "io/image_rows.h"

int sqz__image_open_band(sqz_field *f, const char *path, int mode, uint64_t band, sqz_image *im) {
  memset(im, 0, sizeof *im);
  sqz_context *ctx = f->ctx;
  const sqz_domain *d = f->dom;
  size_t ts = sqz_type_size(f->type);
  uint64_t height = d->side, cap = band > d->side ? band : d->side, bytes = 0;
  /* per cell: column, storage index and row start (8 bytes each) and the value */
  int ok = (d->dims == 2 || sqz__checked_mul(d->side, d->side, &height)) && cap < UINT64_MAX &&
           sqz__checked_mul(cap + 1, 3 * sizeof(uint64_t) + ts, &bytes);
  if (!ok) return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s: %s: the image is too large for this host", path, d->spec);
  void *mem = NULL;
  int st = sqz__host_alloc(ctx, bytes, 0, &mem, "%s: %s: a band of %llu cells of the image", path, d->spec,
                           (unsigned long long)cap);
  if (st != SQZ_OK) return st;
  im->f = f;
  im->path = path;
  im->mode = mode;
  im->ts = ts;
  im->width = d->side;
  im->height = height;
  im->cap = cap;
  im->xs = mem;
  im->index = im->xs + cap;
  im->start = im->index + cap;
  im->vals = (unsigned char *)(im->start + cap + 1);
  sqz__op_begin(ctx); /* released by sqz__image_close */
  im->locked = 1;
  if (mode == SQZ_IMAGE_LOAD) { /* the state is built in the second buffer, from zeros */
    st = sqz__field_ensure_pair(f);
    if (st == SQZ_OK) st = sqz__store_zero(f, f->cur ^ 1);
  }
  if (st != SQZ_OK) sqz__image_close(im);
  return st;
}

int sqz__image_open(sqz_field *f, const char *path, int mode, sqz_image *im) {
  return sqz__image_open_band(f, path, mode, SQZ_IMAGE_BAND, im);
}

/* The domain cells of image row `row` into xs and index; their count. */
static uint64_t sqz__image_cells(const sqz_image *im, uint64_t row, uint64_t *xs, uint64_t *index) {
  uint64_t n = im->width;
  int flat = im->f->dom->dims == 2;
  return sqz__layout_row(im->f, flat ? row : row % n, flat ? 0 : row / n, xs, index);
}

/* Writers: the band of rows from y0 on, as many as fit, gathered from the current buffer. */
static int sqz__image_band(sqz_image *im, uint64_t y0) {
  im->r0 = y0;
  im->rows = 0;
  im->used = 0;
  im->start[0] = 0;
  while (y0 + im->rows < im->height && im->rows < im->cap && im->used + im->width <= im->cap) {
    im->used += sqz__image_cells(im, y0 + im->rows, im->xs + im->used, im->index + im->used);
    im->start[++im->rows] = im->used;
  }
  /* domain storage indices are below 2^63: the int64_t view is exact */
  int st = sqz__field_gather(im->f, im->f->cur, (const int64_t *)im->index, im->used, im->vals);
  if (st != SQZ_OK) im->rows = 0;
  return st;
}

int sqz__image_row(sqz_image *im, uint64_t y) {
  if (y < im->r0 || y - im->r0 >= im->rows) {
    int st = sqz__image_band(im, y);
    if (st != SQZ_OK) return st;
  }
  uint64_t r = y - im->r0, a = im->start[r];
  im->row_xs = im->xs + a;
  im->row_vals = im->vals + a * im->ts;
  im->count = im->start[r + 1] - a;
  return SQZ_OK;
}

int sqz__image_set(const sqz_image *im, uint64_t j) { return sqz__is_nonzero(im->row_vals + j * im->ts, im->ts); }

/* Readers: the band's cells into the second buffer. */
static int sqz__image_flush(sqz_image *im) {
  int st = sqz__field_scatter(im->f, im->f->cur ^ 1, (const int64_t *)im->index, im->used, im->vals);
  im->used = 0;
  return st;
}

/* Image row `row` as embedded (y, z): rows z*N .. z*N+N-1 are slice z in 3D. */
static void sqz__image_yz(const sqz_image *im, uint64_t row, uint64_t *y, uint64_t *z) {
  int flat = im->f->dom->dims == 2;
  *y = flat ? row : row % im->width;
  *z = flat ? 0 : row / im->width;
}

int sqz__image_take_row(sqz_image *im, uint64_t y, const unsigned char *data) {
  if (im->used + im->width > im->cap) {
    int st = sqz__image_flush(im);
    if (st != SQZ_OK) return st;
  }
  size_t ts = im->ts;
  int bits = sqz__layout_of(im->f)->bit_cells; /* u8 cells of one bit: 0 and 1 only */
  uint64_t *xs = im->xs + im->used, j = 0;
  uint64_t count = sqz__image_cells(im, y, xs, im->index + im->used);
  for (uint64_t x = 0; x < im->width; x++) {
    const unsigned char *v = data + x * ts;
    if (j < count && xs[j] == x) {
      unsigned char *cell = im->vals + (im->used + j++) * ts;
      memcpy(cell, v, ts);
      im->kept += (uint64_t)sqz__is_nonzero(v, ts);
      if (bits && *v > 1u) { /* reported by sqz__image_commit; the band stays scatterable */
        if (!im->two_state) {
          im->two_state = 1;
          im->bad_x = x;
          im->bad_value = *v;
          sqz__image_yz(im, y, &im->bad_y, &im->bad_z);
        }
        *cell = 0;
      }
    } else if (im->clip && sqz__is_nonzero(v, ts)) {
      im->clipped++;
    } else if (!im->outside && sqz__is_nonzero(v, ts)) {
      im->outside = 1;
      im->out_x = x;
      sqz__image_yz(im, y, &im->out_y, &im->out_z);
    }
  }
  im->used += count;
  return SQZ_OK;
}

int sqz__image_put(sqz_image *im, uint64_t index, const void *value) {
  if (im->used == im->cap) {
    int st = sqz__image_flush(im);
    if (st != SQZ_OK) return st;
  }
  im->index[im->used] = index;
  memcpy(im->vals + im->used++ * im->ts, value, im->ts);
  im->kept += (uint64_t)sqz__is_nonzero(value, im->ts);
  return SQZ_OK;
}

int sqz__image_commit(sqz_image *im) {
  if (im->outside) return sqz__outside_fail(im->f, im->path, im->out_x, im->out_y, im->out_z);
  if (im->two_state) return sqz__two_state_fail(im->f, im->path, im->bad_x, im->bad_y, im->bad_z, im->bad_value);
  if (im->clipped && !im->kept)
    return sqz__fail(im->f->ctx, SQZ_ERR_OUTSIDE_DOMAIN,
                     "%s: nothing is left after clipping: all %llu live cells land outside %s%s", im->path,
                     (unsigned long long)im->clipped, im->f->dom->spec,
                     im->f->dom->kind == SQZ_DOMAIN_FRACTAL ? " or on its holes" : "");
  int st = sqz__image_flush(im);
  if (st == SQZ_OK) st = sqz__store_finish(im->f);
  if (st == SQZ_OK) im->f->cur ^= 1;
  if (st == SQZ_OK) st = sqz__field_settle(im->f, 1); /* over the caller's buffer: the state back in it */
  return st;
}

int sqz__image_find_above(sqz_image *im, unsigned max, uint64_t *x, uint64_t *y, uint64_t *z, unsigned *value,
                          int *st) {
  *st = SQZ_OK;
  for (uint64_t row = 0; row < im->height; row++) {
    if ((*st = sqz__image_row(im, row)) != SQZ_OK) return 0;
    for (uint64_t j = 0; j < im->count; j++)
      if (im->row_vals[j] > max) {
        *x = im->row_xs[j];
        *value = im->row_vals[j];
        sqz__image_yz(im, row, y, z);
        return 1;
      }
  }
  return 0;
}

void sqz__image_close(sqz_image *im) {
  if (im->locked) sqz__op_end(im->f->ctx);
  free(im->xs);
  memset(im, 0, sizeof *im);
}
