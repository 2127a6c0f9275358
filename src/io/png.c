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

/* The value of the current row's cell j as a double (non-u8 fields). */
static double sqz__png_value(const sqz_image *im, uint64_t j) {
  const unsigned char *p = im->row_vals + j * im->ts;
  if (im->f->type == SQZ_I32) { int32_t x; memcpy(&x, p, 4); return x; }
  if (im->f->type == SQZ_F32) { float x; memcpy(&x, p, 4); return x; }
  double x;
  memcpy(&x, p, 8);
  return x;
}

/* The range of the finite values of the domain cells (non-u8 fields), one pass over the rows. */
static int sqz__png_range(sqz_image *im, double *lo, double *hi) {
  int first = 1, st = SQZ_OK;
  *lo = *hi = 0;
  for (uint64_t y = 0; y < im->height; y++) {
    if ((st = sqz__image_row(im, y)) != SQZ_OK) return st;
    for (uint64_t j = 0; j < im->count; j++) {
      double v = sqz__png_value(im, j);
      if (!isfinite(v)) continue;
      if (first || v < *lo) *lo = v;
      if (first || v > *hi) *hi = v;
      first = 0;
    }
  }
  return st;
}

/* One picture row from image rows y0 .. y0 + block - 1: each pixel covers block x block cells; the
 * hole colour where none is a domain cell, else the mix of live and dead by the live share (u8) or
 * the ramp at the mean value (other types). block = 1 draws every cell as it is. */
static int sqz__png_row(sqz_image *im, uint64_t y0, uint64_t block, uint64_t w_out, double lo, double hi,
                        double *sum, uint64_t *cnt, unsigned char *row) {
  memset(sum, 0, w_out * sizeof *sum);
  memset(cnt, 0, w_out * sizeof *cnt);
  for (uint64_t y = y0; y < y0 + block && y < im->height; y++) {
    int st = sqz__image_row(im, y);
    if (st != SQZ_OK) return st;
    for (uint64_t j = 0; j < im->count; j++) {
      uint64_t x = im->row_xs[j] / block;
      double v = im->f->type == SQZ_U8 ? (im->row_vals[j] != 0) : sqz__png_value(im, j);
      cnt[x]++;
      if (isfinite(v)) sum[x] += v;
    }
  }
  for (uint64_t x = 0; x < w_out; x++) {
    unsigned char *c = row + x * 3;
    if (!cnt[x]) {
      memcpy(c, sqz_hole, 3);
    } else if (im->f->type == SQZ_U8) {
      double live = sum[x] / (double)cnt[x];
      for (int k = 0; k < 3; k++) c[k] = (unsigned char)(sqz_dead[k] + live * (sqz_live[k] - sqz_dead[k]) + 0.5);
    } else {
      double v = sum[x] / (double)cnt[x];
      sqz__ramp(hi <= lo ? 0.0 : (v - lo) / (hi - lo), c);
    }
  }
  return SQZ_OK;
}

/* Writes the picture of the image row by row into the open temporary af (libpng's errors longjmp here). */
static int sqz__png_write(sqz_image *im, sqz_atomic_file *af, uint64_t block, unsigned char *row, double *sum,
                          uint64_t *cnt, double lo, double hi) {
  uint64_t w_out = (im->width + block - 1) / block, h_out = (im->height + block - 1) / block;
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
  png_set_IHDR(png, info, (png_uint_32)w_out, (png_uint_32)h_out, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint64_t y = 0; y < h_out; y++) {
    int rst = sqz__png_row(im, y * block, block, w_out, lo, hi, sum, cnt, row);
    if (rst != SQZ_OK) {
      st = rst;
      goto done;
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
done:
  if (png) png_destroy_write_struct(&png, info ? &info : NULL);
  return st;
}

int sqz_field_save_png_sized(sqz_field *f, const char *path, uint64_t size) {
  if (!f || !path) return SQZ_ERR_INVALID_ARGUMENT;
  uint64_t w = f->dom->side, h = f->dom->dims == 3 ? w * w : w, big = w > h ? w : h;
  uint64_t block = size && size < big ? (big + size - 1) / size : 1; /* cells per pixel side */
  uint64_t w_out = (w + block - 1) / block, h_out = (h + block - 1) / block;
  if (w_out > 0x7fffffff || h_out > 0x7fffffff)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: %llu x %llu is too large for PNG (--png-size downscales)", path,
                     (unsigned long long)w_out, (unsigned long long)h_out);
  sqz_image im;
  int st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im);
  if (st != SQZ_OK) return st;
  double lo = 0, hi = 0, *sum = NULL;
  uint64_t *cnt = NULL;
  unsigned char *row = NULL;
  sqz_atomic_file af = {0};
  st = sqz__host_alloc(f->ctx, (w_out * 3 + 7) / 8 * 8 + w_out * (sizeof *sum + sizeof *cnt), 0, (void **)&row,
                       "%s: one row of the picture", path);
  if (st == SQZ_OK) {
    sum = (double *)(void *)(row + (w_out * 3 + 7) / 8 * 8); /* 8-byte aligned after the pixels */
    cnt = (uint64_t *)(void *)(sum + w_out);
  }
  if (st == SQZ_OK && f->type != SQZ_U8) st = sqz__png_range(&im, &lo, &hi);
  if (st == SQZ_OK) st = sqz__atomic_open(f->ctx, path, &af);
  if (st == SQZ_OK) st = sqz__png_write(&im, &af, block, row, sum, cnt, lo, hi);
  if (st == SQZ_OK) st = sqz__atomic_commit(f->ctx, &af);
  else sqz__atomic_abort(&af);
  free(row);
  sqz__image_close(&im);
  return st;
}

int sqz_field_save_png(sqz_field *f, const char *path) { return sqz_field_save_png_sized(f, path, 0); }
#else
int sqz_field_save_png_sized(sqz_field *f, const char *path, uint64_t size) {
  (void)path, (void)size;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no libpng: PNG output is unavailable");
}
int sqz_field_save_png(sqz_field *f, const char *path) { return sqz_field_save_png_sized(f, path, 0); }
#endif
