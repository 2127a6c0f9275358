/* png.c — writing a field as a PNG picture: u8 fields as live/dead, other types as a colour ramp; outside cells apart. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"

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

/* Non-u8 fields: the embedded values as doubles (side^dims), and their range over the domain. */
static int sqz__field_values(sqz_field *f, double **out, double *lo, double *hi) {
  uint64_t n = f->dom->side, cells = n * n * (f->dom->dims == 3 ? n : 1), bytes;
  size_t ts = sqz_type_size(f->type);
  *out = NULL;
  if (!sqz__checked_mul(cells, ts + sizeof(double), &bytes) || bytes > SIZE_MAX / 2)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: the embedded image is too large to draw", f->dom->spec);
  unsigned char *raw = malloc((size_t)(cells * ts));
  double *v = malloc((size_t)cells * sizeof *v);
  int st = raw && v ? sqz_field_read(f, raw, (size_t)(cells * ts))
                    : sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: %llu bytes of host memory for the picture",
                                f->dom->spec, (unsigned long long)bytes);
  *lo = 0;
  *hi = 0;
  int first = 1;
  for (uint64_t i = 0; st == SQZ_OK && i < cells; i++) {
    if (f->type == SQZ_I32) { int32_t x; memcpy(&x, raw + i * 4, 4); v[i] = x; }
    else if (f->type == SQZ_F32) { float x; memcpy(&x, raw + i * 4, 4); v[i] = x; }
    else { memcpy(&v[i], raw + i * 8, 8); }
    uint64_t x = i % n, y = (i / n) % n, z = i / (n * n);
    if (!sqz_domain_contains(f->dom, x, y, z) || !isfinite(v[i])) continue;
    if (first || v[i] < *lo) *lo = v[i];
    if (first || v[i] > *hi) *hi = v[i];
    first = 0;
  }
  free(raw);
  if (st != SQZ_OK) {
    free(v);
    return st;
  }
  *out = v;
  return SQZ_OK;
}

/* Writes the picture of img (0/1 cells) or val (values in [lo, hi]), w x h, to path. */
static int sqz__png_write(sqz_field *f, const char *path, const unsigned char *img, const double *val, double lo,
                          double hi, uint64_t w, uint64_t h) {
  volatile int st = SQZ_OK; /* set after the setjmp below */
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *fp = fopen(tmp, "wb");
  unsigned char *row = malloc((size_t)w * 3);
  png_structp png = fp ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!fp || !row || !png || !info) {
    st = sqz__fail(f->ctx, fp ? SQZ_ERR_OUT_OF_MEMORY : SQZ_ERR_IO, "%s: cannot start the PNG", path);
    goto done;
  }
  if (setjmp(png_jmpbuf(png))) {
    st = sqz__fail(f->ctx, SQZ_ERR_IO, "%s: libpng failed while writing", path);
    goto done;
  }
  png_init_io(png, fp);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  uint64_t n = f->dom->side;
  for (uint64_t y = 0; y < h; y++) {
    for (uint64_t x = 0; x < w; x++) {
      const unsigned char *c;
      unsigned char ramp[3];
      int inside = f->dom->dims == 3 ? sqz_domain_contains(f->dom, x, y % n, y / n) : sqz_domain_contains(f->dom, x, y, 0);
      if (!inside) c = sqz_hole;
      else if (val) {
        double v = val[y * w + x];
        sqz__ramp(!isfinite(v) || hi <= lo ? 0.0 : (v - lo) / (hi - lo), ramp);
        c = ramp;
      } else c = img[y * w + x] ? sqz_live : sqz_dead;
      row[x * 3] = c[0];
      row[x * 3 + 1] = c[1];
      row[x * 3 + 2] = c[2];
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
done:
  if (png) png_destroy_write_struct(&png, info ? &info : NULL);
  int closed = fp ? fclose(fp) == 0 : 0;
  free(row);
  if (st == SQZ_OK && closed && rename(tmp, path) == 0) return SQZ_OK;
  remove(tmp);
  return st == SQZ_OK ? sqz__fail(f->ctx, SQZ_ERR_IO, "%s: write failed", path) : st;
}

int sqz_field_save_png(sqz_field *f, const char *path) {
  if (!f || !path) return SQZ_ERR_INVALID_ARGUMENT;
  unsigned char *img = NULL;
  double *val = NULL, lo = 0, hi = 0;
  uint64_t w = 0, h = 0;
  int st = f->type == SQZ_U8 ? sqz__field_image(f, &img, &w, &h) : sqz__field_values(f, &val, &lo, &hi);
  if (st != SQZ_OK) return st;
  if (val) { /* the embedded picture's geometry: N x N, or N x N*N in 3D (slice z below slice z - 1) */
    w = f->dom->side;
    h = f->dom->dims == 3 ? w * w : w;
  }
  if (w > 0x7fffffff || h > 0x7fffffff)
    st = sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: %llu x %llu is too large for PNG", path, (unsigned long long)w,
                   (unsigned long long)h);
  else
    st = sqz__png_write(f, path, img, val, lo, hi, w, h);
  free(img);
  free(val);
  return st;
}
#else
int sqz_field_save_png(sqz_field *f, const char *path) {
  (void)path;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no libpng: PNG output is unavailable");
}
#endif
