/* png.c — writing a field as a PNG picture row by row: u8 fields as live/dead, other types as a colour ramp; outside cells apart. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"
#include "io/image_rows.h"

#ifdef SQZ_HAVE_PNG
#include <png.h>

static const unsigned char sqz_live[3] = {20, 20, 30}, sqz_dead[3] = {250, 250, 245}, sqz_hole[3] = {170, 195, 225};

/* Value v in [0, 1] as a colour of a dark-blue -> red -> yellow ramp. */
static void sqz__ramp(double v, unsigned char *c) {
  static const unsigned char stops[4][3] = {{13, 8, 135}, {180, 40, 120}, {240, 110, 40}, {250, 240, 70}};
  double t = v * 3.0;
  int i = t >= 3.0 ? 2 : (int)t;
  double u = t - i;
  for (int k = 0; k < 3; k++) c[k] = (unsigned char)(stops[i][k] + u * (stops[i + 1][k] - stops[i][k]) + 0.5);
}

/* The value of storage cell i as a double (non-u8 fields). */
static double sqz__png_value(const sqz_image *im, uint64_t i) {
  const unsigned char *p = im->store + i * im->ts;
  if (im->f->type == SQZ_I32) { int32_t x; memcpy(&x, p, 4); return x; }
  if (im->f->type == SQZ_F32) { float x; memcpy(&x, p, 4); return x; }
  double x;
  memcpy(&x, p, 8);
  return x;
}

/* The range of the finite values of the domain cells (non-u8 fields), one pass over the rows. */
static void sqz__png_range(sqz_image *im, double *lo, double *hi) {
  int first = 1;
  *lo = *hi = 0;
  for (uint64_t y = 0; y < im->height; y++) {
    sqz__image_row(im, y);
    for (uint64_t j = 0; j < im->count; j++) {
      double v = sqz__png_value(im, im->index[j]);
      if (!isfinite(v)) continue;
      if (first || v < *lo) *lo = v;
      if (first || v > *hi) *hi = v;
      first = 0;
    }
  }
}

/* One picture row: the hole colour, then each domain cell live/dead (u8) or on the ramp over [lo, hi]. */
static void sqz__png_row(sqz_image *im, uint64_t y, double lo, double hi, unsigned char *row) {
  for (uint64_t x = 0; x < im->width; x++) memcpy(row + x * 3, sqz_hole, 3);
  sqz__image_row(im, y);
  for (uint64_t j = 0; j < im->count; j++) {
    unsigned char ramp[3];
    const unsigned char *c;
    if (im->f->type == SQZ_U8) c = im->store[im->index[j]] ? sqz_live : sqz_dead;
    else {
      double v = sqz__png_value(im, im->index[j]);
      sqz__ramp(!isfinite(v) || hi <= lo ? 0.0 : (v - lo) / (hi - lo), ramp);
      c = ramp;
    }
    memcpy(row + im->xs[j] * 3, c, 3);
  }
}

/* Writes the picture of the image row by row into the open temporary af (libpng's errors longjmp here). */
static int sqz__png_write(sqz_image *im, sqz_atomic_file *af, unsigned char *row, double lo, double hi) {
  volatile int st = SQZ_OK; /* set after the setjmp below */
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    st = sqz__fail(im->f->ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: cannot start the PNG", im->path);
    goto done;
  }
  if (setjmp(png_jmpbuf(png))) {
    st = sqz__fail(im->f->ctx, SQZ_ERR_IO, "%s: libpng failed while writing", im->path);
    goto done;
  }
  png_init_io(png, af->fp);
  png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint64_t y = 0; y < im->height; y++) {
    sqz__png_row(im, y, lo, hi, row);
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
done:
  if (png) png_destroy_write_struct(&png, info ? &info : NULL);
  return st;
}

int sqz_field_save_png(sqz_field *f, const char *path) {
  if (!f || !path) return SQZ_ERR_INVALID_ARGUMENT;
  uint64_t w = f->dom->side, h = f->dom->dims == 3 ? w * w : w;
  if (w > 0x7fffffff || h > 0x7fffffff || (f->dom->dims == 3 && w > 0xffffffffu))
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: %llu x %llu is too large for PNG", path, (unsigned long long)w,
                     (unsigned long long)h);
  sqz_image im;
  int st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im);
  if (st != SQZ_OK) return st;
  double lo = 0, hi = 0;
  unsigned char *row = NULL;
  sqz_atomic_file af = {0};
  st = sqz__host_alloc(f->ctx, im.width * 3, 0, (void **)&row, "%s: one row of the picture", path);
  if (st == SQZ_OK && f->type != SQZ_U8) sqz__png_range(&im, &lo, &hi);
  if (st == SQZ_OK) st = sqz__atomic_open(f->ctx, path, &af);
  if (st == SQZ_OK) st = sqz__png_write(&im, &af, row, lo, hi);
  if (st == SQZ_OK) st = sqz__atomic_commit(f->ctx, &af);
  else sqz__atomic_abort(&af);
  free(row);
  sqz__image_close(&im);
  return st;
}
#else
int sqz_field_save_png(sqz_field *f, const char *path) {
  (void)path;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no libpng: PNG output is unavailable");
}
#endif
