/* npy.c — field states as NumPy .npy files (format 1.0) of the embedding, streamed row by row and written atomically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/atomic_file.h"
#include "io/image_rows.h"
#include "io/npy.h"

/* The embedded array of a field: shape (side, side) or (N, N, N) and its bytes. */
typedef struct {
  uint64_t shape[3];
  int ndim;
  size_t bytes;
} sqz_npy_array;

/* Checks the arguments and sizes the field's embedded array, with overflow checks. */
static int sqz__npy_array(sqz_field *f, const char *path, sqz_npy_array *a) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "the .npy calls");
  uint64_t side = sqz_domain_side(f->dom), cells = 1, b = 0;
  int d = sqz_domain_dims(f->dom), ok = 1;
  size_t ts = sqz_type_size(f->type);
  for (int i = 0; i < d; i++) {
    a->shape[i] = side;
    ok = ok && sqz__checked_mul(cells, side, &cells);
  }
  ok = ok && sqz__checked_mul(cells, ts, &b);
  if (!ok)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE,
                     "%s: the embedded array of %llu^%d cells of %zu bytes exceeds 2^64 bytes", f->dom->spec,
                     (unsigned long long)side, d, ts);
  if (b > SIZE_MAX / 2)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: the embedded array of %llu bytes exceeds the host's address space",
                     f->dom->spec, (unsigned long long)b);
  a->ndim = d;
  a->bytes = (size_t)b;
  return SQZ_OK;
}

/* "(7, 7)" for messages. */
static const char *sqz__npy_shape_text(int ndim, const uint64_t *shape, char *buf, size_t cap) {
  size_t k = (size_t)snprintf(buf, cap, "(");
  for (int i = 0; i < ndim && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
  if (k < cap) snprintf(buf + k, cap - k, ndim == 1 ? ",)" : ")");
  return buf;
}

/* .npy data is little-endian: reverse each element's bytes on a big-endian host. */
static void sqz__npy_to_little(unsigned char *data, size_t bytes, size_t ts) {
  const uint16_t one = 1;
  if (*(const unsigned char *)&one == 1 || ts == 1) return;
  for (size_t i = 0; i + ts <= bytes; i += ts)
    for (size_t a = 0, b = ts - 1; a < b; a++, b--) {
      unsigned char t = data[i + a];
      data[i + a] = data[i + b];
      data[i + b] = t;
    }
}

/* Reads and parses the header, then checks dtype and shape against the field. */
static int sqz__npy_read_header(sqz_field *f, FILE *fp, const char *path, const uint64_t *shape, int ndim) {
  sqz_context *ctx = f->ctx;
  size_t cap = SQZ_NPY_PREAMBLE + 0xffff;
  unsigned char *buf = sqz__malloc(cap);
  if (!buf) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes for the header", path, cap);
  size_t got = fread(buf, 1, SQZ_NPY_PREAMBLE, fp);
  size_t need = sqz__npy_header_size(buf, got);
  if (need > got) got += fread(buf + got, 1, need - got, fp);
  sqz_npy_header h;
  char err[320], a[64], b[64];
  int st = SQZ_OK;
  if (ferror(fp)) st = sqz__fail(ctx, SQZ_ERR_IO, "%s: read failed: %s", path, strerror(errno));
  else if (sqz__npy_parse_header(buf, got, &h, err, sizeof err) != SQZ_OK)
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: %s", path, err);
  else if (h.type != f->type)
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s has dtype '%s' (%s) but the field holds %s cells (dtype '%s')", path,
                   h.descr, sqz__npy_dtype_name(h.descr, a, sizeof a), sqz__npy_cell_name(f->type),
                   sqz__npy_descr(f->type));
  else if (h.ndim != ndim || memcmp(h.shape, shape, (size_t)ndim * sizeof *shape) != 0)
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s has shape %s but %s needs %s", path,
                   sqz__npy_shape_text(h.ndim, h.shape, a, sizeof a), f->dom->spec,
                   sqz__npy_shape_text(ndim, shape, b, sizeof b));
  free(buf);
  return st;
}

/* Reads the data row by row (one row of the image: side cells) into bands of the state, then makes
 * sure nothing follows. Set cells outside the domain are remembered, reported by the caller once
 * the file is known to be well formed. */
static int sqz__npy_read_data(sqz_context *ctx, FILE *fp, const char *path, sqz_image *im, unsigned char *row,
                              size_t bytes) {
  size_t rb = (size_t)im->width * im->ts, done = 0;
  for (uint64_t y = 0; y < im->height; y++) {
    size_t n = fread(row, 1, rb, fp);
    done += n;
    if (ferror(fp)) return sqz__fail(ctx, SQZ_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    if (n < rb)
      return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: truncated data: %zu of %zu bytes present", path, done, bytes);
    sqz__npy_to_little(row, rb, im->ts);
    int st = sqz__image_take_row(im, y, row);
    if (st != SQZ_OK) return st;
  }
  struct stat st;
  long pos = ftell(fp);
  if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && pos >= 0 && st.st_size > (off_t)pos)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: %llu trailing bytes after the %zu data bytes", path,
                     (unsigned long long)(st.st_size - (off_t)pos), bytes);
  if (fgetc(fp) != EOF) /* a pipe or device: no size to compare with */
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: trailing bytes after the %zu data bytes", path, bytes);
  return SQZ_OK;
}

int sqz_field_load_npy(sqz_field *f, const char *path) { return sqz__field_load_npy(f, path, 0, NULL); }

int sqz__field_load_npy(sqz_field *f, const char *path, int clip, uint64_t *clipped) {
  if (clipped) *clipped = 0;
  sqz_npy_array a;
  int st = sqz__npy_array(f, path, &a);
  if (st != SQZ_OK) return st;
  sqz_context *ctx = f->ctx;
  FILE *fp = fopen(path, "rb");
  if (!fp) return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot open for reading: %s", path, strerror(errno));
  unsigned char *row = NULL;
  sqz_image im = {0};
  st = sqz__npy_read_header(f, fp, path, a.shape, a.ndim);
  if (st == SQZ_OK) st = sqz__image_open(f, path, SQZ_IMAGE_LOAD, &im);
  im.clip = clip;
  if (st == SQZ_OK) st = sqz__host_alloc(ctx, im.width * im.ts, 0, (void **)&row, "%s: one row of the data", path);
  if (st == SQZ_OK) st = sqz__npy_read_data(ctx, fp, path, &im, row, a.bytes);
  fclose(fp);
  if (st == SQZ_OK) st = sqz__image_commit(&im);
  if (st == SQZ_OK && clipped) *clipped = im.clipped;
  free(row);
  sqz__image_close(&im);
  return st;
}

/* The header, then the embedded array row by row from bands of domain cells (cells outside the domain 0). */
int sqz_field_save_npy(sqz_field *f, const char *path) {
  sqz_npy_array a;
  int st = sqz__npy_array(f, path, &a);
  if (st != SQZ_OK) return st;
  sqz_context *ctx = f->ctx;
  unsigned char hdr[1024], *row = NULL;
  size_t hn = sqz__npy_format_header(f->type, a.ndim, a.shape, hdr, sizeof hdr);
  if (hn == 0) return sqz__fail(ctx, SQZ_ERR_INTERNAL, "%s: cannot format the .npy header", path);
  sqz_image im;
  if ((st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im)) != SQZ_OK) return st;
  size_t ts = im.ts, rb = (size_t)im.width * ts;
  sqz_atomic_file af = {0};
  st = sqz__host_alloc(ctx, rb, 0, (void **)&row, "%s: one row of the data", path);
  if (st == SQZ_OK) st = sqz__atomic_open(ctx, path, &af);
  if (st == SQZ_OK) st = sqz__atomic_write(ctx, &af, hdr, hn);
  for (uint64_t y = 0; st == SQZ_OK && y < im.height; y++) {
    memset(row, 0, rb);
    if ((st = sqz__image_row(&im, y)) != SQZ_OK) break;
    for (uint64_t j = 0; j < im.count; j++) memcpy(row + im.row_xs[j] * ts, im.row_vals + j * ts, ts);
    sqz__npy_to_little(row, rb, ts);
    st = sqz__atomic_write(ctx, &af, row, rb);
  }
  if (st == SQZ_OK) st = sqz__atomic_commit(ctx, &af);
  else sqz__atomic_abort(&af);
  free(row);
  sqz__image_close(&im);
  return st;
}
