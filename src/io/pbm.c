/* pbm.c — reading (P1, P4) and writing (P4) field states as PBM images of the embedding. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"

/* Image size of a domain: side x side in 2D; N x N*N in 3D (slice z in rows z*N .. z*N+N-1). */
static void sqz__image_size(const sqz_domain *d, uint64_t *w, uint64_t *h) {
  *w = d->side;
  *h = d->dims == 3 ? d->side * d->side : d->side;
}

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

static int sqz__pbm_read(sqz_field *f, FILE *fp, const char *path, unsigned char *img, uint64_t w, uint64_t h) {
  sqz_context *ctx = f->ctx;
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
    unsigned char *buf = malloc(row ? row : 1);
    if (!buf) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
    for (uint64_t y = 0; y < h; y++) {
      if (fread(buf, 1, row, fp) != row) {
        free(buf);
        return (st = sqz__pbm_ioerr(ctx, fp, path)) != 0
                   ? st : sqz__fail(ctx, SQZ_ERR_PARSE, "%s: truncated P4 data at row %llu of %llu", path,
                                    (unsigned long long)y, (unsigned long long)h);
      }
      for (uint64_t x = 0; x < w; x++) img[y * w + x] = (buf[x >> 3] >> (7 - (x & 7))) & 1;
    }
    free(buf);
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
    img[i] = (unsigned char)(c - '0');
  }
  return SQZ_OK;
}

int sqz_field_load_pbm(sqz_field *f, const char *path) {
  if (!f || !path) return SQZ_ERR_INVALID_ARGUMENT;
  if (f->type != SQZ_U8) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "PBM states load into SQZ_U8 fields");
  uint64_t w, h, n;
  sqz__image_size(f->dom, &w, &h);
  if (!sqz__checked_mul(w, h, &n) || n > SIZE_MAX / 2)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: the embedded image is too large for a PBM", f->dom->spec);
  FILE *fp = fopen(path, "rb");
  if (!fp) return sqz__fail(f->ctx, SQZ_ERR_IO, "%s: cannot open for reading: %s", path, strerror(errno));
  unsigned char *img = calloc((size_t)n, 1);
  int st = img ? sqz__pbm_read(f, fp, path, img, w, h) : sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  fclose(fp);
  if (st == SQZ_OK) {
    st = sqz_field_write(f, img, (size_t)n);
    if (st == SQZ_ERR_OUTSIDE_DOMAIN) {
      char msg[1024];
      snprintf(msg, sizeof msg, "%s: %s", path, sqz_last_error(f->ctx));
      sqz__fail(f->ctx, st, "%s", msg);
    }
  }
  free(img);
  return st;
}

int sqz__field_image(sqz_field *f, unsigned char **out, uint64_t *w, uint64_t *h) {
  *out = NULL;
  uint64_t n, bytes;
  sqz__image_size(f->dom, w, h);
  size_t ts = sqz_type_size(f->type);
  if (!sqz__checked_mul(*w, *h, &n) || !sqz__checked_mul(n, ts, &bytes) || bytes > SIZE_MAX / 2)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: the embedded image is too large to write", f->dom->spec);
  unsigned char *raw = malloc((size_t)bytes), *img = malloc((size_t)n);
  int st = (raw && img) ? sqz_field_read(f, raw, (size_t)bytes) : sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  for (uint64_t i = 0; st == SQZ_OK && i < n; i++) {
    int nz = 0;
    for (size_t b = 0; b < ts; b++) nz |= raw[i * ts + b];
    img[i] = nz != 0;
  }
  free(raw);
  if (st != SQZ_OK) { free(img); return st; }
  *out = img;
  return SQZ_OK;
}

int sqz_field_save_pbm(sqz_field *f, const char *path) {
  if (!f || !path) return SQZ_ERR_INVALID_ARGUMENT;
  unsigned char *img = NULL;
  uint64_t w, h;
  int st = sqz__field_image(f, &img, &w, &h);
  if (st != SQZ_OK) return st;
  /* write to a temporary name first so a failure never leaves a partial file */
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *fp = fopen(tmp, "wb");
  if (!fp) { free(img); return sqz__fail(f->ctx, SQZ_ERR_IO, "%s: cannot open for writing", path); }
  int ok = fprintf(fp, "P4\n%llu %llu\n", (unsigned long long)w, (unsigned long long)h) > 0;
  size_t row = (size_t)((w + 7) / 8);
  unsigned char *buf = calloc(row ? row : 1, 1);
  ok = ok && buf;
  for (uint64_t y = 0; ok && y < h; y++) {
    memset(buf, 0, row);
    for (uint64_t x = 0; x < w; x++)
      if (img[y * w + x]) buf[x >> 3] |= (unsigned char)(0x80u >> (x & 7));
    ok = fwrite(buf, 1, row, fp) == row;
  }
  ok = (fclose(fp) == 0) && ok;
  free(buf);
  free(img);
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return sqz__fail(f->ctx, SQZ_ERR_IO, "%s: write failed", path);
  }
  return SQZ_OK;
}
