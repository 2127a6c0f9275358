/* rle_parse.c — the pure Golly pattern parsers over a memory buffer: RLE (header, #CXRLE offset, runs) and plaintext .cells; errors by line, column. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/rle.h"

/* The text being parsed and where the parser stands in it. */
typedef struct {
  const char *buf;
  size_t len, i;
  uint64_t line;     /* 1-based line of buf[i] */
  size_t line_start; /* offset of that line's first byte */
  char *err;
  size_t errlen;
} sqz_rle_in;

typedef struct {
  uint64_t line, col;
} sqz_rle_pos;

static int sqz__rle_peek(const sqz_rle_in *in) { return in->i < in->len ? (unsigned char)in->buf[in->i] : -1; }

static void sqz__rle_next(sqz_rle_in *in) {
  if (in->i >= in->len) return;
  if (in->buf[in->i++] == '\n') {
    in->line++;
    in->line_start = in->i;
  }
}

static sqz_rle_pos sqz__rle_here(const sqz_rle_in *in) {
  sqz_rle_pos p = {in->line, (uint64_t)(in->i - in->line_start) + 1};
  return p;
}

/* Writes "line L, column C: <message>" to the error buffer; returns SQZ_ERR_PARSE. */
static int sqz__rle_fail(const sqz_rle_in *in, sqz_rle_pos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int sqz__rle_fail(const sqz_rle_in *in, sqz_rle_pos at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (in->err && in->errlen)
    sqz__vappend(in->err, in->errlen,
                 snprintf(in->err, in->errlen, "line %llu, column %llu: ", (unsigned long long)at.line,
                          (unsigned long long)at.col),
                 fmt, ap);
  va_end(ap);
  return SQZ_ERR_PARSE;
}

/* The byte c as messages name it: 'x', byte 0x89, or the end of the file. */
static const char *sqz__rle_what(int c, char *buf, size_t cap) {
  if (c < 0) snprintf(buf, cap, "the end of the file");
  else if (c > 32 && c < 127) snprintf(buf, cap, "'%c'", c);
  else if (c == '\n') snprintf(buf, cap, "the end of the line");
  else snprintf(buf, cap, "byte 0x%02x", (unsigned)c);
  return buf;
}

/* Skips spaces, tabs and carriage returns (not newlines). */
static void sqz__rle_blanks(sqz_rle_in *in) {
  int c;
  while ((c = sqz__rle_peek(in)) == ' ' || c == '\t' || c == '\r') sqz__rle_next(in);
}

/* Skips the rest of the line, its newline included. */
static void sqz__rle_skip_line(sqz_rle_in *in) {
  int c;
  while ((c = sqz__rle_peek(in)) >= 0 && c != '\n') sqz__rle_next(in);
  sqz__rle_next(in);
}

/* Skips blanks, then expects the byte want (what: its role, for the message). */
static int sqz__rle_expect(sqz_rle_in *in, int want, const char *what) {
  sqz__rle_blanks(in);
  int c = sqz__rle_peek(in);
  if (c == want) {
    sqz__rle_next(in);
    return SQZ_OK;
  }
  char b[32];
  return sqz__rle_fail(in, sqz__rle_here(in), "expected '%c' %s, found %s", want, what, sqz__rle_what(c, b, sizeof b));
}

/* A decimal integer of at most max (what: its name in messages); blanks before it are skipped. */
static int sqz__rle_uint(sqz_rle_in *in, uint64_t max, uint64_t *v, const char *what) {
  sqz__rle_blanks(in);
  sqz_rle_pos at = sqz__rle_here(in);
  int c = sqz__rle_peek(in);
  char b[32];
  if (c < '0' || c > '9') return sqz__rle_fail(in, at, "expected %s, found %s", what, sqz__rle_what(c, b, sizeof b));
  uint64_t x = 0;
  for (; (c = sqz__rle_peek(in)) >= '0' && c <= '9'; sqz__rle_next(in)) {
    if (x > (max - (uint64_t)(c - '0')) / 10) return sqz__rle_fail(in, at, "%s overflows (largest %llu)", what,
                                                                     (unsigned long long)max);
    x = x * 10 + (uint64_t)(c - '0');
  }
  *v = x;
  return SQZ_OK;
}

/* A signed decimal integer of magnitude at most INT64_MAX. */
static int sqz__rle_int(sqz_rle_in *in, int64_t *v, const char *what) {
  int neg = sqz__rle_peek(in) == '-';
  if (neg || sqz__rle_peek(in) == '+') sqz__rle_next(in);
  uint64_t m;
  int st = sqz__rle_uint(in, (uint64_t)INT64_MAX, &m, what);
  *v = neg ? -(int64_t)m : (int64_t)m;
  return st;
}

/* A comment line starting at the cursor ('#'); "#CXRLE ... Pos=X,Y ..." sets the offset. */
static int sqz__rle_comment(sqz_rle_in *in, sqz_rle_header *h) {
  size_t end = in->i;
  while (end < in->len && in->buf[end] != '\n') end++;
  size_t n = end - in->i;
  if (n >= 6 && memcmp(in->buf + in->i, "#CXRLE", 6) == 0) {
    for (size_t k = in->i + 6; k + 4 <= end; k++) {
      if (memcmp(in->buf + k, "Pos=", 4) != 0 || (in->buf[k - 1] != ' ' && in->buf[k - 1] != '\t')) continue;
      while (in->i < k + 4) sqz__rle_next(in);
      int st = sqz__rle_int(in, &h->pos_x, "the x of #CXRLE Pos=X,Y");
      if (st == SQZ_OK && sqz__rle_peek(in) != ',') {
        char b[32];
        st = sqz__rle_fail(in, sqz__rle_here(in), "expected ',' in #CXRLE Pos=X,Y, found %s",
                           sqz__rle_what(sqz__rle_peek(in), b, sizeof b));
      }
      if (st == SQZ_OK) sqz__rle_next(in);
      if (st == SQZ_OK) st = sqz__rle_int(in, &h->pos_y, "the y of #CXRLE Pos=X,Y");
      int c = sqz__rle_peek(in);
      if (st == SQZ_OK && c >= 0 && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        char b[32];
        st = sqz__rle_fail(in, sqz__rle_here(in), "unexpected %s after #CXRLE Pos=X,Y", sqz__rle_what(c, b, sizeof b));
      }
      if (st != SQZ_OK) return st;
      break;
    }
  }
  sqz__rle_skip_line(in);
  return SQZ_OK;
}

/* The header line "x = W, y = H[, rule = R]", the cursor on its 'x'. */
static int sqz__rle_header_line(sqz_rle_in *in, sqz_rle_header *h) {
  int st = sqz__rle_expect(in, 'x', "(the header starts 'x = W, y = H')");
  if (st == SQZ_OK) st = sqz__rle_expect(in, '=', "after 'x' in the header");
  if (st == SQZ_OK) st = sqz__rle_uint(in, (uint64_t)INT64_MAX, &h->width, "the width W of 'x = W'");
  if (st == SQZ_OK) st = sqz__rle_expect(in, ',', "after the width in the header");
  if (st == SQZ_OK) st = sqz__rle_expect(in, 'y', "(the header continues 'y = H')");
  if (st == SQZ_OK) st = sqz__rle_expect(in, '=', "after 'y' in the header");
  if (st == SQZ_OK) st = sqz__rle_uint(in, (uint64_t)INT64_MAX, &h->height, "the height H of 'y = H'");
  if (st != SQZ_OK) return st;
  sqz__rle_blanks(in);
  if (sqz__rle_peek(in) == ',') {
    sqz__rle_next(in);
    sqz__rle_blanks(in);
    sqz_rle_pos at = sqz__rle_here(in);
    if (in->len - in->i < 4 || memcmp(in->buf + in->i, "rule", 4) != 0)
      return sqz__rle_fail(in, at, "expected 'rule = R' after the height in the header");
    for (int k = 0; k < 4; k++) sqz__rle_next(in);
    if ((st = sqz__rle_expect(in, '=', "after 'rule' in the header")) != SQZ_OK) return st;
    sqz__rle_blanks(in);
    at = sqz__rle_here(in);
    size_t n = 0;
    int c;
    while ((c = sqz__rle_peek(in)) > 32 && c < 127) {
      if (n + 1 >= sizeof h->rule)
        return sqz__rle_fail(in, at, "the rule is longer than %zu characters", sizeof h->rule - 1);
      h->rule[n++] = (char)c;
      sqz__rle_next(in);
    }
    h->rule[n] = 0;
    if (n == 0) return sqz__rle_fail(in, at, "empty rule after 'rule ='");
    sqz__rle_blanks(in);
  }
  int c = sqz__rle_peek(in);
  if (c >= 0 && c != '\n') {
    char b[32];
    return sqz__rle_fail(in, sqz__rle_here(in), "unexpected %s at the end of the header",
                         sqz__rle_what(c, b, sizeof b));
  }
  sqz__rle_next(in);
  return SQZ_OK;
}

/* Skips whitespace, newlines and comment lines ('#' in the first column) between tokens. */
static void sqz__rle_space(sqz_rle_in *in) {
  for (;;) {
    int c = sqz__rle_peek(in);
    if (c == '#' && in->i == in->line_start) sqz__rle_skip_line(in);
    else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') sqz__rle_next(in);
    else return;
  }
}

/* The state a cell tag stands for, the cursor on it (c): 0 for b and '.', 1 for o, Golly's multi-state
 * letters A..X for 1..24 and two-letter pA..yO for 25..255 (the cursor then on the second letter);
 * -1 when c is no cell tag, -2 after a refused two-letter state (the status in *st). */
static int sqz__rle_state(sqz_rle_in *in, int c, int *st) {
  if (c == 'b' || c == '.') return 0;
  if (c == 'o') return 1;
  if (c >= 'A' && c <= 'X') return c - 'A' + 1;
  if (c < 'p' || c > 'y') return -1;
  sqz_rle_pos at = sqz__rle_here(in);
  int d = in->i + 1 < in->len ? (unsigned char)in->buf[in->i + 1] : -1, v = (c - 'p' + 1) * 24 + (d - 'A' + 1);
  char b[32];
  if (d < 'A' || d > 'X')
    *st = sqz__rle_fail(in, at, "expected a letter A..X after the state prefix '%c', found %s", c,
                        sqz__rle_what(d, b, sizeof b));
  else if (v > 255) *st = sqz__rle_fail(in, at, "state %c%c is %d, above 255 (u8 cells)", c, d, v);
  else sqz__rle_next(in);
  return *st == SQZ_OK ? v : -2;
}

/* The runs after the header, up to '!'. */
static int sqz__rle_runs(sqz_rle_in *in, const sqz_rle_header *h, sqz_rle_run_fn run, void *user) {
  uint64_t x = 0, y = 0;
  char b[32];
  for (;;) {
    sqz__rle_space(in);
    sqz_rle_pos at = sqz__rle_here(in);
    int c = sqz__rle_peek(in), counted = c >= '0' && c <= '9', st = SQZ_OK;
    uint64_t n = 1;
    if (counted) {
      st = sqz__rle_uint(in, UINT64_MAX, &n, "a run count");
      if (st != SQZ_OK) return st;
      if (n == 0) return sqz__rle_fail(in, at, "a run count of 0");
      sqz__rle_space(in);
      c = sqz__rle_peek(in);
    }
    sqz_rle_pos tag = sqz__rle_here(in);
    int state = sqz__rle_state(in, c, &st);
    if (state == -2) return st;
    if (state == 0) {
      x = n > UINT64_MAX - x ? UINT64_MAX : x + n; /* dead: may pass the width */
    } else if (state > 0) {
      if (y >= h->height || x >= h->width || n > h->width - x)
        return sqz__rle_fail(in, at,
                             "live cells beyond the declared x = %llu, y = %llu (row %llu, columns from %llu, run of "
                             "%llu)",
                             (unsigned long long)h->width, (unsigned long long)h->height, (unsigned long long)y,
                             (unsigned long long)x, (unsigned long long)n);
      if (run && (st = run(user, h, x, y, n, (unsigned)state)) != SQZ_OK) return st;
      x += n;
    } else if (c == '$') {
      y = n > UINT64_MAX - y ? UINT64_MAX : y + n;
      x = 0;
    } else if (c == '!') {
      return counted ? sqz__rle_fail(in, at, "a count before '!'") : SQZ_OK;
    } else {
      if (c < 0) return sqz__rle_fail(in, tag, "missing '!' at the end of the pattern");
      return sqz__rle_fail(in, tag, counted ? "expected a cell (b, o, '.', A..X, pA..yO) or $ after the count, found %s"
                                            : "unexpected %s (expected b, o, '.', A..X, pA..yO, $, ! or a count)",
                           sqz__rle_what(c, b, sizeof b));
    }
    sqz__rle_next(in);
  }
}

/* Comment and blank lines, then the header line. */
static int sqz__rle_head(sqz_rle_in *in, sqz_rle_header *h) {
  for (;;) { /* comment lines and blank lines before the header */
    sqz__rle_blanks(in);
    int c = sqz__rle_peek(in);
    if (c == '\n') {
      sqz__rle_next(in);
    } else if (c == '#') {
      int st = sqz__rle_comment(in, h);
      if (st != SQZ_OK) return st;
    } else if (c == 'x') {
      break;
    } else {
      char b[32];
      return sqz__rle_fail(in, sqz__rle_here(in), "expected the header 'x = W, y = H[, rule = R]', found %s",
                           sqz__rle_what(c, b, sizeof b));
    }
  }
  return sqz__rle_header_line(in, h);
}

int sqz__rle_parse_head(const char *buf, size_t len, sqz_rle_header *h, char *err, size_t errlen) {
  sqz_rle_in in = {buf, len, 0, 1, 0, err, errlen};
  memset(h, 0, sizeof *h);
  if (err && errlen) err[0] = 0;
  return sqz__rle_head(&in, h);
}

int sqz__rle_parse(const char *buf, size_t len, sqz_rle_header *h, sqz_rle_run_fn run, void *user, char *err,
                   size_t errlen) {
  sqz_rle_in in = {buf, len, 0, 1, 0, err, errlen};
  memset(h, 0, sizeof *h);
  if (err && errlen) err[0] = 0;
  int st = sqz__rle_head(&in, h);
  return st != SQZ_OK ? st : sqz__rle_runs(&in, h, run, user);
}

/* ---- plaintext (.cells) ---------------------------------------------------------------------- */

/* The comment line at the cursor ('!'); "!Pos: X,Y" sets the offset. */
static int sqz__cells_comment(sqz_rle_in *in, sqz_rle_header *h) {
  static const char key[] = "!Pos:";
  size_t k = sizeof key - 1;
  if (in->len - in->i < k || memcmp(in->buf + in->i, key, k) != 0) {
    sqz__rle_skip_line(in);
    return SQZ_OK;
  }
  while (k--) sqz__rle_next(in);
  sqz__rle_blanks(in);
  int st = sqz__rle_int(in, &h->pos_x, "the x of !Pos: X,Y");
  if (st == SQZ_OK) st = sqz__rle_expect(in, ',', "in !Pos: X,Y");
  if (st == SQZ_OK) sqz__rle_blanks(in);
  if (st == SQZ_OK) st = sqz__rle_int(in, &h->pos_y, "the y of !Pos: X,Y");
  if (st == SQZ_OK) sqz__rle_blanks(in);
  int c = sqz__rle_peek(in);
  if (st == SQZ_OK && c >= 0 && c != '\n') {
    char b[32];
    st = sqz__rle_fail(in, sqz__rle_here(in), "unexpected %s after !Pos: X,Y", sqz__rle_what(c, b, sizeof b));
  }
  if (st == SQZ_OK) sqz__rle_skip_line(in);
  return st;
}

/* One row at the cursor, row y: its live runs to run (may be NULL); *width gets its length in cells. */
static int sqz__cells_row(sqz_rle_in *in, const sqz_rle_header *h, uint64_t y, sqz_rle_run_fn run, void *user,
                          uint64_t *width) {
  uint64_t x = 0, live = 0; /* live: the length of the live run ending at x */
  int c;
  for (; (c = sqz__rle_peek(in)) == '.' || c == 'O' || c == '*'; sqz__rle_next(in), x++) {
    if (c == '.') continue;
    int next = in->i + 1 < in->len ? in->buf[in->i + 1] : 0;
    if (++live && next != 'O' && next != '*') { /* the run ends at x */
      int st = run ? run(user, h, x + 1 - live, y, live, 1u) : SQZ_OK;
      if (st != SQZ_OK) return st;
      live = 0;
    }
  }
  *width = x;
  sqz__rle_blanks(in);
  c = sqz__rle_peek(in);
  if (c >= 0 && c != '\n') {
    char b[32];
    return sqz__rle_fail(in, sqz__rle_here(in), "unexpected %s in a .cells row (expected '.', 'O' or '*')",
                         sqz__rle_what(c, b, sizeof b));
  }
  sqz__rle_next(in);
  return SQZ_OK;
}

/* One pass over the text: comments, then rows; fills h when run is NULL (the first pass). */
static int sqz__cells_pass(sqz_rle_in *in, sqz_rle_header *h, sqz_rle_run_fn run, void *user) {
  uint64_t y = 0;
  while (in->i < in->len) {
    if (sqz__rle_peek(in) == '!') {
      int st = sqz__cells_comment(in, h);
      if (st != SQZ_OK) return st;
      continue;
    }
    uint64_t w = 0;
    int st = sqz__cells_row(in, h, y, run, user, &w);
    if (st != SQZ_OK) return st;
    if (!run && w > h->width) h->width = w;
    if (!run && w) h->height = y + 1;
    y++;
  }
  return SQZ_OK;
}

int sqz__cells_parse(const char *buf, size_t len, sqz_rle_header *h, sqz_rle_run_fn run, void *user, char *err,
                     size_t errlen) {
  sqz_rle_in in = {buf, len, 0, 1, 0, err, errlen};
  memset(h, 0, sizeof *h);
  if (err && errlen) err[0] = 0;
  int st = sqz__cells_pass(&in, h, NULL, NULL); /* the header first: run sees it complete */
  if (st != SQZ_OK || !run) return st;
  sqz_rle_in again = {buf, len, 0, 1, 0, err, errlen};
  sqz_rle_header seen = *h;
  return sqz__cells_pass(&again, &seen, run, user);
}
