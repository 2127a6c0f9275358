/* png.c — writing a field as a PNG picture: live, dead and outside-domain cells in three colours. */
#include <stdio.h>
#include <stdlib.h>

#include "core/sqz_internal.h"

#ifdef SQZ_HAVE_PNG
#include <png.h>

static const unsigned char sqz_live[3] = {20, 20, 30}, sqz_dead[3] = {250, 250, 245}, sqz_hole[3] = {170, 195, 225};

int sqz_field_save_png(sqz_field *f, const char *path) {
  if (!f || !path) return SQZ_ERR_INVALID_ARGUMENT;
  unsigned char *img = NULL;
  uint64_t w, h;
  int st = sqz__field_image(f, &img, &w, &h);
  if (st != SQZ_OK) return st;
  if (w > 0x7fffffff || h > 0x7fffffff) {
    free(img);
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: %llu x %llu is too large for PNG", path, (unsigned long long)w,
                     (unsigned long long)h);
  }
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
      int inside = f->dom->dims == 3 ? sqz_domain_contains(f->dom, x, y % n, y / n) : sqz_domain_contains(f->dom, x, y, 0);
      c = !inside ? sqz_hole : img[y * w + x] ? sqz_live : sqz_dead;
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
  free(img);
  if (st == SQZ_OK && closed && rename(tmp, path) == 0) return SQZ_OK;
  remove(tmp);
  return st == SQZ_OK ? sqz__fail(f->ctx, SQZ_ERR_IO, "%s: write failed", path) : st;
}
#else
int sqz_field_save_png(sqz_field *f, const char *path) {
  (void)path;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no libpng: PNG output is unavailable");
}
#endif
