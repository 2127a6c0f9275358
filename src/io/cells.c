/* cells.c — 2D field states as Golly plaintext (.cells) patterns, and sqz_field_load_clipped: any pattern or image placed with the cells off the domain dropped. */
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"
#include "io/rle.h"

int sqz_field_load_cells(sqz_field *f, const char *path, int64_t at_x, int64_t at_y) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_load_cells");
  return sqz__pattern_load(f, path, ".cells", sqz__cells_parse, at_x, at_y, 0, NULL);
}

/* 1 if path ends in ext (lower case; the path in any case). */
static int sqz__ends_with(const char *path, const char *ext) {
  size_t n = strlen(path), k = strlen(ext);
  if (n < k) return 0;
  for (size_t i = 0; i < k; i++)
    if ((path[n - k + i] | 32) != ext[i]) return 0;
  return 1;
}

int sqz_field_load_clipped(sqz_field *f, const char *path, int64_t at_x, int64_t at_y, uint64_t *clipped) {
  if (clipped) *clipped = 0;
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_load_clipped");
  int pattern = sqz__ends_with(path, ".rle") || sqz__ends_with(path, ".cells");
  if (sqz__ends_with(path, ".h5"))
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: a checkpoint is a whole state of its domain: no clipping",
                     path);
  if (!pattern && (at_x || at_y))
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "%s: an image of the embedding is placed at (0, 0); (%lld, %lld) places .rle and .cells patterns",
                     path, (long long)at_x, (long long)at_y);
  if (sqz__ends_with(path, ".rle")) return sqz__pattern_load(f, path, "RLE", sqz__rle_parse, at_x, at_y, 1, clipped);
  if (pattern) return sqz__pattern_load(f, path, ".cells", sqz__cells_parse, at_x, at_y, 1, clipped);
  if (sqz__ends_with(path, ".npy")) return sqz__field_load_npy(f, path, 1, clipped);
  if (f->type != SQZ_U8) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "PBM states load into SQZ_U8 fields");
  return sqz__field_load_pbm(f, path, 1, clipped);
}

/* The rows of the box (x0, y0)-(x1, y1), each as '.' and 'O' without its trailing dead cells ("." for
 * an empty row, which readers that skip blank lines would lose). row: one image row, then the line. */
static int sqz__cells_rows(sqz_context *ctx, sqz_atomic_file *af, sqz_image *im, unsigned char *row,
                           const uint64_t box[4]) {
  char *line = (char *)row + im->width;
  int st = SQZ_OK;
  for (uint64_t y = box[1]; st == SQZ_OK && y <= box[3]; y++) {
    if ((st = sqz__pattern_row(im, y, row)) != SQZ_OK) break;
    uint64_t end = box[2] + 1, n = 0;
    while (end > box[0] && !row[end - 1]) end--;
    for (uint64_t x = box[0]; x < end; x++) line[n++] = row[x] ? 'O' : '.';
    if (!n) line[n++] = '.';
    line[n++] = '\n';
    st = sqz__atomic_write(ctx, af, line, (size_t)n);
  }
  return st;
}

/* "!Name: NAME" (when name is given) and "!Pos: X,Y" into af. */
static int sqz__cells_head(sqz_context *ctx, sqz_atomic_file *af, const char *name, const uint64_t box[4]) {
  char pos[64];
  int st = SQZ_OK;
  if (name) st = sqz__atomic_write(ctx, af, "!Name: ", 7);
  if (name && st == SQZ_OK) st = sqz__atomic_write(ctx, af, name, strlen(name));
  if (name && st == SQZ_OK) st = sqz__atomic_write(ctx, af, "\n", 1);
  int n = snprintf(pos, sizeof pos, "!Pos: %llu,%llu\n", (unsigned long long)box[0], (unsigned long long)box[1]);
  return st == SQZ_OK ? sqz__atomic_write(ctx, af, pos, (size_t)n) : st;
}

int sqz_field_save_cells(sqz_field *f, const char *path, const char *name) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_save_cells");
  int st = sqz__pattern_field(f, path, ".cells");
  if (st != SQZ_OK) return st;
  for (const char *c = name; c && *c; c++)
    if ((unsigned char)*c < 32 || *c == 127)
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the pattern name holds a control character", path);
  sqz_image im;
  unsigned char *row = NULL;
  uint64_t box[4] = {0, 0, 0, 0};
  int any = 0;
  sqz_atomic_file af = {0};
  if ((st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im)) != SQZ_OK) return st;
  st = sqz__host_alloc(f->ctx, 2 * im.width + 2, 0, (void **)&row, "%s: one row of the pattern", path);
  if (st == SQZ_OK) st = sqz__pattern_bbox(&im, box, &any);
  if (st == SQZ_OK && !any) memset(box, 0, sizeof box); /* an empty pattern: no rows, at Pos 0,0 */
  if (st == SQZ_OK) st = sqz__atomic_open(f->ctx, path, &af);
  if (st == SQZ_OK) st = sqz__cells_head(f->ctx, &af, name, box);
  if (st == SQZ_OK && any) st = sqz__cells_rows(f->ctx, &af, &im, row, box);
  if (st == SQZ_OK) st = sqz__atomic_commit(f->ctx, &af);
  else sqz__atomic_abort(&af);
  free(row);
  sqz__image_close(&im);
  return st;
}
