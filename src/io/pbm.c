/* pbm.c — reading (P1, P4) and writing (P4) field states as PBM images of the embedding, row by row. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"
#include "io/image_rows.h"

/* Next character that is not whitespace or part of a '#' comment. */
static int sqz__pbm_skip(FILE *f) {
  int c = fgetc(f);
  while (c != EOF && (isspace(c) || c == '#')) {
    if (c == '#')
      while (c != '\n' && c != EOF) c = fgetc(f);
    c = fgetc(f);
  }
  return c;
}

/* Reads a header integer; the single whitespace after it is consumed (P4 data follows). */
static int sqz__pbm_int(FILE *f, uint64_t *v) {
  int c = sqz__pbm_skip(f);
  if (c == EOF || !isdigit(c)) return 0;
  uint64_t x = 0;
  while (c != EOF && isdigit(c)) {
    if (x > (UINT64_MAX - 9) / 10) return 0;
    x = x * 10 + (uint64_t)(c - '0');
    c = fgetc(f);
  }
  *v = x;
  return c == EOF || isspace(c);
}

/* After a read that came up short: SQZ_ERR_IO with strerror when the stream failed, 0 when it is
 * fine and the data is at fault (the caller reports the parse error). */
static int sqz__pbm_ioerr(sqz_context *ctx, FILE *fp, const char *path) {
  if (!ferror(fp)) return 0;
  int e = errno ? errno : EIO;
  return sqz__fail(ctx, SQZ_ERR_IO, "%s: read failed: %s", path, strerror(e));
}

static int sqz__pbm_read(sqz_field *f, FILE *fp, const char *path, sqz_image *im, unsigned char *cells) {
  sqz_context *ctx = f->ctx;
  uint64_t w = im->width, h = im->height;
  char magic[3] = {0};
  int st;
  errno = 0;
  if (fread(magic, 1, 2, fp) != 2 || magic[0] != 'P' || (magic[1] != '1' && magic[1] != '4'))
    return (st = sqz__pbm_ioerr(ctx, fp, path)) != 0
               ? st : sqz__fail(ctx, SQZ_ERR_PARSE, "%s: not a PBM file (expected magic P1 or P4)", path);
  uint64_t fw = 0, fh = 0;
  if (!sqz__pbm_int(fp, &fw) || !sqz__pbm_int(fp, &fh))
    return (st = sqz__pbm_ioerr(ctx, fp, path)) != 0 ? st
                                                      : sqz__fail(ctx, SQZ_ERR_PARSE, "%s: malformed PBM header", path);
  if (fw != w || fh != h)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: image is %llu x %llu but %s needs %llu x %llu", path,
                     (unsigned long long)fw, (unsigned long long)fh, f->dom->spec, (unsigned long long)w,
                     (unsigned long long)h);
  if (magic[1] == '4') {
    size_t row = (size_t)((w + 7) / 8);
    unsigned char *buf = cells + w; /* the packed row after the unpacked one */
    for (uint64_t y = 0; y < h; y++) {
      if (fread(buf, 1, row, fp) != row)
        return (st = sqz__pbm_ioerr(ctx, fp, path)) != 0
                   ? st : sqz__fail(ctx, SQZ_ERR_PARSE, "%s: truncated P4 data at row %llu of %llu", path,
                                    (unsigned long long)y, (unsigned long long)h);
      for (uint64_t x = 0; x < w; x++) cells[x] = (buf[x >> 3] >> (7 - (x & 7))) & 1;
      if ((st = sqz__image_take_row(im, y, cells)) != SQZ_OK) return st;
    }
    uint64_t extra = 0; /* the image ends the file */
    while (fgetc(fp) != EOF) extra++;
    if ((st = sqz__pbm_ioerr(ctx, fp, path)) != 0) return st;
    if (extra)
      return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: %llu trailing byte%s after the %llu x %llu P4 image", path,
                       (unsigned long long)extra, extra == 1 ? "" : "s", (unsigned long long)w, (unsigned long long)h);
    return SQZ_OK;
  }
  for (uint64_t i = 0; i < w * h; i++) {
    int c = sqz__pbm_skip(fp);
    if (c != '0' && c != '1' && (st = sqz__pbm_ioerr(ctx, fp, path)) != 0) return st;
    if (c != '0' && c != '1')
      return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: %s in P1 data at cell %llu (row %llu, column %llu)", path,
                       c == EOF ? "premature end" : "a character other than 0/1", (unsigned long long)i,
                       (unsigned long long)(i / w), (unsigned long long)(i % w));
    cells[i % w] = (unsigned char)(c - '0');
    if (i % w == w - 1 && (st = sqz__image_take_row(im, i / w, cells)) != SQZ_OK) return st;
  }
  return SQZ_OK;
}

/* Reads the image row by row into bands of the state; cells outside the domain are checked as they
 * come, and the first set one is reported once the whole file was read. */
int sqz_field_load_pbm(sqz_field *f, const char *path) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_load_pbm");
  return sqz__field_load_pbm(f, path, 0, NULL);
}

int sqz__field_load_pbm(sqz_field *f, const char *path, int clip, uint64_t *clipped) {
  if (clipped) *clipped = 0;
  if (f->type != SQZ_U8) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "PBM states load into SQZ_U8 fields");
  FILE *fp = fopen(path, "rb");
  if (!fp) return sqz__fail(f->ctx, SQZ_ERR_IO, "%s: cannot open for reading: %s", path, strerror(errno));
  sqz_image im;
  unsigned char *cells = NULL; /* one row unpacked, then the packed P4 row */
  int st = sqz__image_open(f, path, SQZ_IMAGE_LOAD, &im);
  im.clip = clip;
  if (st == SQZ_OK)
    st = sqz__host_alloc(f->ctx, im.width + (im.width + 7) / 8, 0, (void **)&cells, "%s: one row of the image", path);
  if (st == SQZ_OK) st = sqz__pbm_read(f, fp, path, &im, cells);
  fclose(fp);
  if (st == SQZ_OK) st = sqz__image_commit(&im);
  if (st == SQZ_OK && clipped) *clipped = im.clipped;
  free(cells);
  sqz__image_close(&im);
  return st;
}

/* P4, produced row by row from bands of domain cells gathered through the layout's index map. */
int sqz_field_save_pbm(sqz_field *f, const char *path) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_save_pbm");
  sqz_image im;
  int st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im);
  if (st != SQZ_OK) return st;
  size_t row = (size_t)((im.width + 7) / 8);
  unsigned char *buf = NULL;
  char head[64];
  int hn = snprintf(head, sizeof head, "P4\n%llu %llu\n", (unsigned long long)im.width, (unsigned long long)im.height);
  sqz_atomic_file af = {0};
  st = sqz__host_alloc(f->ctx, row, 0, (void **)&buf, "%s: one row of the image", path);
  if (st == SQZ_OK) st = sqz__atomic_open(f->ctx, path, &af);
  if (st == SQZ_OK) st = sqz__atomic_write(f->ctx, &af, head, (size_t)hn);
  for (uint64_t y = 0; st == SQZ_OK && y < im.height; y++) {
    memset(buf, 0, row);
    if ((st = sqz__image_row(&im, y)) != SQZ_OK) break;
    for (uint64_t j = 0; j < im.count; j++)
      if (sqz__image_set(&im, j)) buf[im.row_xs[j] >> 3] |= (unsigned char)(0x80u >> (im.row_xs[j] & 7));
    st = sqz__atomic_write(f->ctx, &af, buf, row);
  }
  if (st == SQZ_OK) st = sqz__atomic_commit(f->ctx, &af);
  else sqz__atomic_abort(&af);
  free(buf);
  sqz__image_close(&im);
  return st;
}
