/* rle.c — 2D field states as Golly RLE patterns (multi-state for Generations rules): placed at (at + #CXRLE Pos) on load, bounding box saved atomically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"
#include "io/image_rows.h"
#include "io/rle.h"

#define SQZ_RLE_LINE 70 /* longest pattern line written, as Golly */

/* How much of a file is read at most. Before its header: SQZ_RLE_HEAD_MAX bytes for comment lines and the header.
 * After it: 2 bytes a cell of the declared W x H box, cut to the domain's side where a field is known (a run of
 * one cell is one byte, a row end one, a count is shorter than the cells it covers), plus SQZ_RLE_HEAD_MAX. */
#define SQZ_RLE_HEAD_MAX ((uint64_t)1 << 20)
static uint64_t sqz__rle_limit(const sqz_rle_header *h, uint64_t side) {
  uint64_t w = (h->width < side ? h->width : side) + 1, rows = h->height < side ? h->height : side;
  if (rows && w > (UINT64_MAX - SQZ_RLE_HEAD_MAX) / 2 / rows) return UINT64_MAX;
  return SQZ_RLE_HEAD_MAX + 2 * w * rows;
}

/* A file being read: its bytes so far, and the limit its header (once read) sets. */
typedef struct {
  sqz_context *ctx;
  const char *path, *spec; /* spec: the field's domain, NULL when none (sqz_rle_info) */
  uint64_t side, limit;
  char *buf;
  size_t n, cap;
  int headed;
  sqz_rle_header h;
} sqz_rle_reader;

/* Doubles the buffer, never past limit + 1 bytes (one more shows the file is larger), within host memory. */
static int sqz__rle_grow(sqz_rle_reader *r) {
  size_t want = !r->cap ? 4096 : r->cap <= SIZE_MAX / 2 ? r->cap * 2 : SIZE_MAX;
  if (r->limit < SIZE_MAX && want > r->limit + 1) want = (size_t)(r->limit + 1);
  int st = sqz__host_check(r->ctx, want, "%s: reading the RLE pattern", r->path);
  char *bigger = st == SQZ_OK ? sqz__realloc(r->buf, want) : NULL;
  if (st != SQZ_OK) return st;
  if (!bigger)
    return sqz__fail(r->ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: out of host memory after reading %zu bytes", r->path, r->n);
  r->buf = bigger;
  r->cap = want;
  return SQZ_OK;
}

/* Once the bytes read hold whole lines up to the header, the header sets the limit. from: where the new bytes start. */
static void sqz__rle_head_seen(sqz_rle_reader *r, size_t from) {
  size_t end = r->n;
  while (!r->headed && end > from && r->buf[end - 1] != '\n') end--;
  if (r->headed || end == from || sqz__rle_parse_head(r->buf, end, &r->h, NULL, 0) != SQZ_OK) return;
  r->headed = 1;
  r->limit = sqz__rle_limit(&r->h, r->side);
}

static int sqz__rle_too_big(const sqz_rle_reader *r) {
  if (!r->headed)
    return sqz__fail(r->ctx, SQZ_ERR_PARSE, "%s: no RLE header 'x = W, y = H' in the first %llu bytes (the limit "
                                            "for comment lines and the header)", r->path, (unsigned long long)r->limit);
  return sqz__fail(r->ctx, SQZ_ERR_PARSE, "%s: larger than %llu bytes, the limit for a pattern of x = %llu, y = %llu%s%s "
                                          "(2 bytes a cell plus 1 MiB)", r->path, (unsigned long long)r->limit,
                   (unsigned long long)r->h.width, (unsigned long long)r->h.height, r->spec ? " in " : "",
                   r->spec ? r->spec : "");
}

/* Reads the whole file into *out (malloc'ed, *len bytes), at most the limit its header sets (side: the domain's,
 * UINT64_MAX when none; headed 0: a format without a header, .cells, bounded by a side x side box):
 * SQZ_ERR_IO with strerror on failure, SQZ_ERR_PARSE past the limit (a link to /dev/zero stops after 1 MiB),
 * SQZ_ERR_OUT_OF_MEMORY past the host's memory. */
static int sqz__rle_read(sqz_context *ctx, const char *path, uint64_t side, const char *spec, int headed, char **out,
                         size_t *len) {
  *out = NULL;
  *len = 0;
  FILE *fp = fopen(path, "rb");
  if (!fp) return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot open for reading: %s", path, strerror(errno));
  sqz_rle_reader r = {ctx, path, spec, side, SQZ_RLE_HEAD_MAX, NULL, 0, 0, 0, {0}};
  if (!headed) { /* the domain's whole box */
    r.h.width = r.h.height = side;
    r.headed = 1;
    r.limit = sqz__rle_limit(&r.h, side);
  }
  int st = SQZ_OK;
  for (size_t got = 1; st == SQZ_OK && got > 0;) {
    if (r.n == r.cap && (st = sqz__rle_grow(&r)) != SQZ_OK) break;
    got = fread(r.buf + r.n, 1, r.cap - r.n, fp);
    r.n += got;
    sqz__rle_head_seen(&r, r.n - got);
    if (r.n > r.limit) st = sqz__rle_too_big(&r);
  }
  int e = st == SQZ_OK && ferror(fp) ? errno : 0;
  fclose(fp);
  if (st == SQZ_OK && e) st = sqz__fail(ctx, SQZ_ERR_IO, "%s: read failed: %s", path, strerror(e));
  if (st != SQZ_OK) {
    free(r.buf);
    return st;
  }
  *out = r.buf;
  *len = r.n;
  return SQZ_OK;
}

/* Reads and parses the file; run (may be NULL) gets the live runs once the whole file is known to
 * be well formed (a malformed file is reported as such, not by where its first cell would land).
 * SQZ_ERR_PARSE names the file, the line and the column; a status of run passes through with its
 * own detail. */
static int sqz__rle_load(sqz_context *ctx, const char *path, const sqz_field *f, sqz_pattern_parse_fn parse,
                         sqz_rle_header *h, sqz_rle_run_fn run, void *user) {
  char *buf, err[256];
  size_t len;
  int st = sqz__rle_read(ctx, path, f ? f->dom->side : UINT64_MAX, f ? f->dom->spec : NULL, parse == sqz__rle_parse,
                         &buf, &len);
  if (st != SQZ_OK) return st;
  st = parse(buf, len, h, NULL, NULL, err, sizeof err);
  if (st == SQZ_OK && run) st = parse(buf, len, h, run, user, err, sizeof err);
  if (st != SQZ_OK && err[0]) sqz__fail(ctx, st, "%s: %s", path, err);
  free(buf);
  return st;
}

int sqz_rle_info(sqz_context *ctx, const char *path, uint64_t *width, uint64_t *height, char *rule, size_t rule_len) {
  if (!path || (rule && !rule_len)) return sqz__null_arg(ctx, "sqz_rle_info");
  sqz_rle_header h;
  int st = sqz__rle_load(ctx, path, NULL, sqz__rle_parse, &h, NULL, NULL);
  if (st != SQZ_OK) return st;
  if (rule && strlen(h.rule) >= rule_len)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the rule '%s' does not fit a buffer of %zu bytes", path,
                     h.rule, rule_len);
  if (width) *width = h.width;
  if (height) *height = h.height;
  if (rule) memcpy(rule, h.rule, strlen(h.rule) + 1);
  return SQZ_OK;
}

int sqz__pattern_field(sqz_field *f, const char *path, const char *what) {
  if (f->type != SQZ_U8)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: %s states need a SQZ_U8 field (this one has %zu-byte cells)",
                     path, what, sqz_type_size(f->type));
  if (f->dom->dims != 2)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: %s patterns are 2D and %s is 3D (use PBM or .npy)", path,
                     what, f->dom->spec);
  return SQZ_OK;
}

/* Where the pattern goes: its top-left at (at_x, at_y) + the file's Pos in the embedding. */
typedef struct {
  sqz_field *f;
  const char *path;
  sqz_image *im; /* the state the live cells go to; im->clip: drop the cells off the domain */
  int64_t at_x, at_y;
} sqz_rle_place;

/* a + b in int64_t; 0 on overflow. */
static int sqz__add_i64(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 0;
  *out = a + b;
  return 1;
}

/* Clipping: the cells lo .. hi - 1 of a run of n from pattern column x that land inside the
 * embedding (bx, by: where the pattern's column 0, row y lands; ok: both exist); the others are
 * dropped in bulk, so a run of 2^62 cells costs what its part in the embedding costs. */
static void sqz__clip_span(uint64_t side, int ok, int64_t bx, int64_t dy, uint64_t x, uint64_t n, uint64_t *lo,
                           uint64_t *hi) {
  int64_t s0 = 0; /* where cell 0 of the run lands */
  *lo = *hi = 0;
  if (!ok || dy < 0 || (uint64_t)dy >= side || !sqz__add_i64(bx, (int64_t)x, &s0)) return;
  if (s0 >= 0 && (uint64_t)s0 >= side) return;
  uint64_t before = s0 < 0 ? (uint64_t)(-(s0 + 1)) + 1 : 0; /* cells left of column 0 */
  uint64_t reach = s0 < 0 ? side + before : side - (uint64_t)s0; /* cells up to the right edge */
  *lo = before < n ? before : n;
  *hi = reach < n ? reach : n;
}

/* Places a run of live cells; a cell outside the domain or on a hole is refused, or dropped and
 * counted when clipping. */
static int sqz__rle_place_run(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n,
                              unsigned state) {
  sqz_rle_place *p = user;
  uint64_t side = p->f->dom->side, lo = 0, hi = n;
  int64_t bx = 0, by = 0, row = 0;
  int base_ok = sqz__add_i64(p->at_x, h->pos_x, &bx) && sqz__add_i64(p->at_y, h->pos_y, &by);
  if (p->im->clip) {
    sqz__clip_span(side, base_ok && sqz__add_i64(by, (int64_t)y, &row), bx, row, x, n, &lo, &hi);
    p->im->clipped += n - (hi - lo);
  }
  for (uint64_t i = lo; i < hi; i++) {
    int64_t dx = 0, dy = 0; /* x + i < W <= INT64_MAX: the casts are exact */
    int ok = base_ok && sqz__add_i64(bx, (int64_t)(x + i), &dx) && sqz__add_i64(by, (int64_t)y, &dy);
    int inside = ok && dx >= 0 && dy >= 0 && (uint64_t)dx < side && (uint64_t)dy < side;
    int64_t at = inside ? sqz__layout_index(p->f, (uint64_t)dx, (uint64_t)dy, 0) : -1;
    if (at >= 0) {
      const unsigned char live = (unsigned char)state;
      int st = sqz__image_put(p->im, (uint64_t)at, &live);
      if (st != SQZ_OK) return st;
      continue;
    }
    if (p->im->clip) { /* a hole (the span keeps the embedding) */
      p->im->clipped++;
      continue;
    }
    if (!ok)
      return sqz__fail(p->f->ctx, SQZ_ERR_OUTSIDE_DOMAIN,
                       "%s: live cell (%llu, %llu) of the pattern lands beyond 64-bit coordinates, outside %s", p->path,
                       (unsigned long long)(x + i), (unsigned long long)y, p->f->dom->spec);
    return sqz__fail(p->f->ctx, SQZ_ERR_OUTSIDE_DOMAIN,
                     "%s: live cell (%llu, %llu) of the pattern lands on cell (%lld, %lld), %s %s", p->path,
                     (unsigned long long)(x + i), (unsigned long long)y, (long long)dx, (long long)dy,
                     !inside                               ? "outside the embedding of"
                     : p->f->dom->kind == SQZ_DOMAIN_FRACTAL ? "a hole of"
                                                             : "outside",
                     p->f->dom->spec);
  }
  return SQZ_OK;
}

int sqz__pattern_load(sqz_field *f, const char *path, const char *what, sqz_pattern_parse_fn parse, int64_t at_x,
                      int64_t at_y, int clip, uint64_t *clipped) {
  if (clipped) *clipped = 0;
  int st = sqz__pattern_field(f, path, what);
  if (st != SQZ_OK) return st;
  sqz_image im;
  if ((st = sqz__image_open(f, path, SQZ_IMAGE_LOAD, &im)) != SQZ_OK) return st;
  im.clip = clip;
  sqz_rle_place p = {f, path, &im, at_x, at_y};
  sqz_rle_header h;
  st = sqz__rle_load(f->ctx, path, f, parse, &h, sqz__rle_place_run, &p);
  if (st == SQZ_OK) st = sqz__image_commit(&im);
  if (st == SQZ_OK && clipped) *clipped = im.clipped;
  sqz__image_close(&im);
  return st;
}

int sqz_field_load_rle(sqz_field *f, const char *path, int64_t at_x, int64_t at_y) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_load_rle");
  return sqz__pattern_load(f, path, "RLE", sqz__rle_parse, at_x, at_y, 0, NULL);
}

/* Output: the current line of the pattern, flushed through the atomic file. */
typedef struct {
  sqz_context *ctx;
  sqz_atomic_file *af;
  char line[SQZ_RLE_LINE + 2];
  size_t n;
} sqz_rle_out;

static int sqz__rle_flush(sqz_rle_out *o) {
  o->line[o->n++] = '\n';
  int st = sqz__atomic_write(o->ctx, o->af, o->line, o->n);
  o->n = 0;
  return st;
}

/* Appends "<count><tag>" (the count left out when 1), starting a new line past SQZ_RLE_LINE. */
static int sqz__rle_token(sqz_rle_out *o, uint64_t count, char tag) {
  char tok[24];
  int k = count > 1 ? snprintf(tok, sizeof tok, "%llu%c", (unsigned long long)count, tag)
                    : snprintf(tok, sizeof tok, "%c", tag);
  if (o->n + (size_t)k > SQZ_RLE_LINE) {
    int st = sqz__rle_flush(o);
    if (st != SQZ_OK) return st;
  }
  memcpy(o->line + o->n, tok, (size_t)k);
  o->n += (size_t)k;
  return SQZ_OK;
}

int sqz__pattern_bbox(sqz_image *im, uint64_t box[4], int *any) {
  uint64_t side = im->width, x0 = side, y0 = side, x1 = 0, y1 = 0;
  for (uint64_t y = 0; y < im->height; y++) {
    int st = sqz__image_row(im, y);
    if (st != SQZ_OK) return st;
    for (uint64_t j = 0; j < im->count; j++)
      if (sqz__image_set(im, j)) {
        uint64_t x = im->row_xs[j];
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
  }
  box[0] = x0, box[1] = y0, box[2] = x1, box[3] = y1;
  *any = x0 < side;
  return SQZ_OK;
}

int sqz__pattern_row(sqz_image *im, uint64_t y, unsigned char *row) {
  memset(row, 0, (size_t)im->width);
  int st = sqz__image_row(im, y);
  for (uint64_t j = 0; st == SQZ_OK && j < im->count; j++) row[im->row_xs[j]] = im->row_vals[j];
  return st;
}

/* Appends a run of count cells of state v: b and o in a two-state pattern (multi 0, any v other than 0
 * an o), else Golly's multi-state tags '.', A..X, pA..yO. */
static int sqz__rle_cells(sqz_rle_out *o, uint64_t count, unsigned v, int multi) {
  if (!multi || v == 0) return sqz__rle_token(o, count, !v ? (multi ? '.' : 'b') : 'o');
  if (v <= 24) return sqz__rle_token(o, count, (char)('A' + v - 1));
  if (o->n + 22 > SQZ_RLE_LINE) { /* the count and both letters on one line */
    int st = sqz__rle_flush(o);
    if (st != SQZ_OK) return st;
  }
  if (count > 1) o->n += (size_t)snprintf(o->line + o->n, sizeof o->line - o->n, "%llu", (unsigned long long)count);
  o->line[o->n++] = (char)('p' + (v - 1) / 24 - 1);
  return sqz__rle_token(o, 1, (char)('A' + (v - 1) % 24));
}

/* The runs of the box (x0, y0)-(x1, y1): each row's runs without its trailing dead run, rows ended
 * by '$' (consecutive ends counted), '!' at the end. row: room for one image row of cells; multi:
 * Golly's multi-state tags (sqz__rle_cells). */
static int sqz__rle_runs_out(sqz_rle_out *o, sqz_image *im, unsigned char *row, const uint64_t box[4], int multi) {
  uint64_t rows = 0; /* row ends not written yet */
  int st = SQZ_OK;
  for (uint64_t y = box[1]; st == SQZ_OK && y <= box[3]; y++) {
    if ((st = sqz__pattern_row(im, y, row)) != SQZ_OK) break;
    uint64_t end = box[2] + 1;
    while (end > box[0] && !row[end - 1]) end--;
    if (end == box[0]) { rows++; continue; }
    if (rows) st = sqz__rle_token(o, rows, '$');
    for (uint64_t x = box[0]; st == SQZ_OK && x < end;) {
      uint64_t r = x;
      while (r < end && (multi ? row[r] == row[x] : (row[r] != 0) == (row[x] != 0))) r++;
      st = sqz__rle_cells(o, r - x, row[x], multi);
      x = r;
    }
    rows = 1;
  }
  if (st == SQZ_OK) st = sqz__rle_token(o, 1, '!');
  return st == SQZ_OK ? sqz__rle_flush(o) : st;
}

/* Golly's form of a rule into golly (32 bytes): B<digits>/S<digits>, and /C<states> for Generations. */
static void sqz__rle_golly_rule(uint32_t birth, uint32_t survive, uint32_t states, char *golly) {
  size_t k = 0;
  golly[k++] = 'B';
  for (int c = 0; c <= 8; c++)
    if (birth >> c & 1) golly[k++] = (char)('0' + c);
  golly[k++] = '/';
  golly[k++] = 'S';
  for (int c = 0; c <= 8; c++)
    if (survive >> c & 1) golly[k++] = (char)('0' + c);
  if (states > 2) k += (size_t)snprintf(golly + k, 8, "/C%u", states);
  golly[k] = 0;
}

int sqz_field_save_rle(sqz_field *f, const char *path, const char *rule) {
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_save_rle");
  uint64_t box[4] = {0, 0, 0, 0};
  uint32_t birth, survive, states;
  char err[256], golly[32];
  int st = sqz__pattern_field(f, path, "RLE");
  if (st != SQZ_OK) return st;
  if ((st = sqz_rule_parse_states(rule ? rule : "B3/S23", 2, &birth, &survive, &states, err, sizeof err)) != SQZ_OK)
    return sqz__fail(f->ctx, st, "%s: %s", path, err);
  sqz__rle_golly_rule(birth, survive, states, golly);
  sqz_image im;
  unsigned char *row = NULL;
  if ((st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im)) != SQZ_OK) return st;
  if ((st = sqz__host_alloc(f->ctx, im.width, 0, (void **)&row, "%s: one row of the image", path)) != SQZ_OK) {
    sqz__image_close(&im);
    return st;
  }
  int any = 0;
  if ((st = sqz__pattern_bbox(&im, box, &any)) != SQZ_OK) {
    free(row);
    sqz__image_close(&im);
    return st;
  }
  if (!any) memset(box, 0, sizeof box); /* an empty pattern: x = 0, y = 0 at Pos=0,0 */
  char head[256];
  int hn = snprintf(head, sizeof head, "#CXRLE Pos=%llu,%llu\nx = %llu, y = %llu, rule = %s\n",
                    (unsigned long long)box[0], (unsigned long long)box[1],
                    (unsigned long long)(any ? box[2] - box[0] + 1 : 0),
                    (unsigned long long)(any ? box[3] - box[1] + 1 : 0), golly);
  sqz_atomic_file af = {0};
  sqz_rle_out o = {f->ctx, &af, {0}, 0};
  st = sqz__atomic_open(f->ctx, path, &af);
  if (st == SQZ_OK) st = sqz__atomic_write(f->ctx, &af, head, (size_t)hn);
  if (st == SQZ_OK && any) st = sqz__rle_runs_out(&o, &im, row, box, states > 2);
  if (st == SQZ_OK && !any) st = sqz__atomic_write(f->ctx, &af, "!\n", 2);
  if (st == SQZ_OK) st = sqz__atomic_commit(f->ctx, &af);
  else sqz__atomic_abort(&af);
  free(row);
  sqz__image_close(&im);
  return st;
}
