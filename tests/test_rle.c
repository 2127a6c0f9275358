/* test_rle.c — Golly compatibility: the RLE and .cells parsers and files (cpu backend), clipping, Golly patterns evolving, rule forms. */
/* labels: host */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/rle.h"
#include "sqz_test.h"

/* ---- the parser over memory buffers ------------------------------------------------------ */

/* The live runs a parse reported, as "x,y,n;" text ("x,y,n@s;" for a state s other than 1), and the header. */
typedef struct {
  char runs[512];
  size_t n;
} runs_seen;

static int collect(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n, unsigned state) {
  (void)h;
  runs_seen *r = user;
  char at[16] = "";
  if (state != 1) snprintf(at, sizeof at, "@%u", state);
  r->n += (size_t)snprintf(r->runs + r->n, sizeof r->runs - r->n, "%llu,%llu,%llu%s;", (unsigned long long)x,
                           (unsigned long long)y, (unsigned long long)n, at);
  return SQZ_OK;
}

/* Parses text with fn from an exactly sized heap copy (no terminator to lean on). */
static int parse_with(sqz_pattern_parse_fn fn, const char *text, sqz_rle_header *h, runs_seen *r, char *err,
                      size_t errlen) {
  size_t len = strlen(text);
  char *copy = malloc(len ? len : 1);
  memcpy(copy, text, len);
  if (r) memset(r, 0, sizeof *r);
  int st = fn(copy, len, h, r ? collect : NULL, r, err, errlen);
  free(copy);
  return st;
}

static int parse(const char *text, sqz_rle_header *h, runs_seen *r, char *err, size_t errlen) {
  return parse_with(sqz__rle_parse, text, h, r, err, errlen);
}

static void expect_pattern(const char *text, uint64_t w, uint64_t hgt, const char *rule, int64_t px, int64_t py,
                           const char *runs) {
  sqz_rle_header h;
  runs_seen r;
  char err[256];
  int st = parse(text, &h, &r, err, sizeof err);
  ck_assert_msg(st == SQZ_OK, "%s -> %s: %s", text, sqz_status_name(st), err);
  ck_assert_uint_eq(h.width, w);
  ck_assert_uint_eq(h.height, hgt);
  ck_assert_str_eq(h.rule, rule);
  ck_assert_int_eq(h.pos_x, px);
  ck_assert_int_eq(h.pos_y, py);
  ck_assert_msg(strcmp(r.runs, runs) == 0, "%s: runs %s, expected %s", text, r.runs, runs);
}

START_TEST(parser_samples) {
  /* Golly's glider, with its name line */
  expect_pattern("#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n", 3, 3, "B3/S23", 0, 0,
                 "1,0,1;2,1,1;0,2,3;");
  /* runs over several lines, a count split from its tag by a newline, CRLF line ends */
  expect_pattern("x = 5, y = 2\r\n2o\r\n3\nb$\n5o\n!", 5, 2, "", 0, 0, "0,0,2;0,1,5;");
  /* counts on '$' skip rows; dead runs past the width are harmless */
  expect_pattern("x = 2, y = 6\no3$bo2$9b!", 2, 6, "", 0, 0, "0,0,1;1,3,1;");
  /* spaces optional or anywhere between tokens; the rule as written; text after '!' ignored */
  expect_pattern("x=4,y=1,rule=b36s23\n o 2 b o ! any comment here $$ oooo", 4, 1, "b36s23", 0, 0, "0,0,1;3,0,1;");
  expect_pattern("  x  =  1 ,  y  =  1 ,  rule  =  23/3  \n\n o!", 1, 1, "23/3", 0, 0, "0,0,1;");
  /* #CXRLE gives the offset (other keys ignored); # lines in the first column are comments anywhere */
  expect_pattern("#C a comment\n#CXRLE Gen=12 Pos=-3,7\n#O someone\nx = 2, y = 2\no$\n#C between\nbo!", 2, 2, "", -3,
                 7, "0,0,1;1,1,1;");
  expect_pattern("#CXRLE Pos=9223372036854775807,-9223372036854775807\nx = 1, y = 1\no!", 1, 1, "",
                 INT64_MAX, -INT64_MAX, "0,0,1;");
  /* multi-state (Generations) tags as Golly writes them: '.' dead, A..X 1..24, pA.. 25.., yO 255; b and o too */
  expect_pattern("x = 5, y = 2, rule = B2/S/C3\n.2AB$o.pAyO!", 5, 2, "B2/S/C3", 0, 0,
                 "1,0,2;3,0,1@2;0,1,1;2,1,1@25;3,1,1@255;");
  expect_pattern("x = 30, y = 1, rule = /2/3\n3.2\nB 24X!", 30, 1, "/2/3", 0, 0, "3,0,2@2;5,0,24@24;");
  /* an empty pattern, as Golly writes one */
  expect_pattern("x = 0, y = 0, rule = B3/S23\n!\n", 0, 0, "B3/S23", 0, 0, "");
}
END_TEST

/* Each malformed input: SQZ_ERR_PARSE, with err containing the expected text (line and column). */
START_TEST(parser_refusals) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "line 1, column 1: expected the header 'x = W, y = H[, rule = R]', found the end of the file"},
      {"#N only comments\n", "line 2, column 1: expected the header"},
      {"bob$2bo$3o!", "line 1, column 1: expected the header 'x = W, y = H[, rule = R]', found 'b'"},
      {"\x89PNG\r\n", "line 1, column 1: expected the header 'x = W, y = H[, rule = R]', found byte 0x89"},
      {"x = 3 y = 3\no!", "line 1, column 7: expected ',' after the width"},
      {"x = , y = 3\no!", "line 1, column 5: expected the width W"},
      {"x = 3, z = 3\no!", "line 1, column 8: expected 'y'"},
      {"x = 99999999999999999999, y = 1\no!", "line 1, column 5: the width W of 'x = W' overflows"},
      {"x = 1, y = 9223372036854775808\no!", "line 1, column 12: the height H of 'y = H' overflows"},
      {"x = 3, y = 3, rules = B3/S23\no!", "line 1, column 19: expected '=' after 'rule' in the header, found 's'"},
      {"x = 3, y = 3, color = 1\no!", "line 1, column 15: expected 'rule = R'"},
      {"x = 3, y = 3, rule = \no!", "line 1, column 22: empty rule"},
      {"x = 3, y = 3, rule = B3/S23 extra\no!", "line 1, column 29: unexpected 'e' at the end of the header"},
      {"x = 3, y = 3, rule = B3/S23/123456789012345678901234567890123456789012345678901234567890\no!",
       "line 1, column 22: the rule is longer than 63 characters"},
      {"x = 3, y = 3\nbob$2bo$3o", "line 2, column 11: missing '!'"},
      {"x = 3, y = 3\nbob$2bo$3o\n3", "line 3, column 2: missing '!'"},
      {"x = 2, y = 1\n3o!",
       "line 2, column 1: live cells beyond the declared x = 2, y = 1 (row 0, columns from 0, run of 3)"},
      {"x = 2, y = 2\nbo$bbo!", "line 2, column 6: live cells beyond the declared x = 2, y = 2 (row 1, columns from 2"},
      {"x = 1, y = 1\n$o!", "line 2, column 2: live cells beyond the declared x = 1, y = 1 (row 1"},
      {"x = 3, y = 3\n18446744073709551616o!", "line 2, column 1: a run count overflows"},
      {"x = 3, y = 3\n18446744073709551615b18446744073709551615bo!", "live cells beyond the declared"},
      {"x = 3, y = 3\n0o!", "line 2, column 1: a run count of 0"},
      {"x = 3, y = 3\no3!", "line 2, column 2: a count before '!'"},
      {"x = 3, y = 3\n4A!", "line 2, column 1: live cells beyond the declared x = 3, y = 3"},
      {"x = 3, y = 3\np!", "line 2, column 1: expected a letter A..X after the state prefix 'p', found '!'"},
      {"x = 3, y = 3\n2pa!", "line 2, column 2: expected a letter A..X after the state prefix 'p', found 'a'"},
      {"x = 3, y = 3\nyP!", "line 2, column 1: state yP is 256, above 255 (u8 cells)"},
      {"x = 3, y = 3\n2Y!", "line 2, column 2: expected a cell (b, o, '.', A..X, pA..yO) or $ after the count, found 'Y'"},
      {"x = 3, y = 3\n\no\x01!", "line 3, column 2: unexpected byte 0x01"},
      {"x = 3, y = 3\nbo z!", "line 2, column 4: unexpected 'z' (expected b, o, '.', A..X, pA..yO, $, ! or a count)"},
      {"x = 3, y = 3\n2#!", "line 2, column 2: expected a cell (b, o, '.', A..X, pA..yO) or $ after the count, found '#'"},
      {"#CXRLE Pos=1;2\nx = 1, y = 1\no!", "line 1, column 13: expected ',' in #CXRLE Pos=X,Y, found ';'"},
      {"#CXRLE Pos=a,2\nx = 1, y = 1\no!", "line 1, column 12: expected the x of #CXRLE Pos=X,Y, found 'a'"},
      {"#CXRLE Pos=1,2x\nx = 1, y = 1\no!", "line 1, column 15: unexpected 'x' after #CXRLE Pos=X,Y"},
      {"#CXRLE Pos=1,-9223372036854775808\nx = 1, y = 1\no!", "line 1, column 15: the y of #CXRLE Pos=X,Y overflows"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqz_rle_header h;
    runs_seen r;
    char err[256];
    int st = parse(cases[i].text, &h, &r, err, sizeof err);
    ck_assert_msg(st == SQZ_ERR_PARSE, "case %zu (%s) -> %s", i, cases[i].text, sqz_status_name(st));
    ck_assert_msg(strstr(err, cases[i].want) != NULL, "case %zu: '%s' does not contain '%s'", i, err, cases[i].want);
  }
  /* err may be NULL; every proper prefix of a valid file is refused, the file itself accepted */
  const char *glider = "#CXRLE Pos=1,2\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!";
  size_t len = strlen(glider);
  for (size_t k = 0; k <= len; k++) {
    char *copy = malloc(k ? k : 1);
    memcpy(copy, glider, k);
    sqz_rle_header h;
    int st = sqz__rle_parse(copy, k, &h, NULL, NULL, NULL, 0);
    free(copy);
    ck_assert_msg(st == (k == len ? SQZ_OK : SQZ_ERR_PARSE), "prefix of %zu bytes -> %s", k, sqz_status_name(st));
  }
}
END_TEST

/* A status of the run callback stops the parse and comes back unchanged. */
static int stop_at_second(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n, unsigned state) {
  (void)h, (void)x, (void)y, (void)n, (void)state;
  return ++*(int *)user == 2 ? SQZ_ERR_OUTSIDE_DOMAIN : SQZ_OK;
}

START_TEST(parser_callback_status) {
  int calls = 0;
  char err[64] = "untouched";
  const char *text = "x = 3, y = 3\nbob$2bo$3o!";
  ck_assert_int_eq(sqz__rle_parse(text, strlen(text), &(sqz_rle_header){0}, stop_at_second, &calls, err, sizeof err),
                   SQZ_ERR_OUTSIDE_DOMAIN);
  ck_assert_int_eq(calls, 2);
  ck_assert_str_eq(err, "");
}
END_TEST

/* Golly's plaintext: the header computed (W the longest row, H to the last row that is not empty). */
static void expect_cells_text(const char *text, uint64_t w, uint64_t hgt, int64_t px, int64_t py, const char *runs) {
  sqz_rle_header h;
  runs_seen r;
  char err[256];
  int st = parse_with(sqz__cells_parse, text, &h, &r, err, sizeof err);
  ck_assert_msg(st == SQZ_OK, "%s -> %s: %s", text, sqz_status_name(st), err);
  ck_assert_uint_eq(h.width, w);
  ck_assert_uint_eq(h.height, hgt);
  ck_assert_str_eq(h.rule, "");
  ck_assert_int_eq(h.pos_x, px);
  ck_assert_int_eq(h.pos_y, py);
  ck_assert_msg(strcmp(r.runs, runs) == 0, "%s: runs %s, expected %s", text, r.runs, runs);
}

START_TEST(cells_parser) {
  expect_cells_text("!Name: Glider\n!\n.O\n..O\nOOO\n", 3, 3, 0, 0, "1,0,1;2,1,1;0,2,3;");
  /* '*' as alive, CRLF, trailing blanks, an empty row, no final newline, comments between rows */
  expect_cells_text("**.*\r\n\n! between\n.*  \t\n...", 4, 4, 0, 0, "0,0,2;3,0,1;1,2,1;");
  expect_cells_text("!Pos: -3, 7\nO", 1, 1, -3, 7, "0,0,1;");
  expect_cells_text("!Position of the glider: free text\nO\n\n\n", 1, 1, 0, 0, "0,0,1;");
  expect_cells_text("", 0, 0, 0, 0, "");
  static const struct {
    const char *text, *want;
  } bad[] = {
      {".O\n.o\n", "line 2, column 2: unexpected 'o' in a .cells row (expected '.', 'O' or '*')"},
      {"O O\n", "line 1, column 3: unexpected 'O' in a .cells row"},
      {"!Pos: 1\nO", "line 1, column 8: expected ',' in !Pos: X,Y, found the end of the line"},
      {"!Pos: 1,2x\n", "line 1, column 10: unexpected 'x' after !Pos: X,Y"},
      {"#N a\n", "line 1, column 1: unexpected '#' in a .cells row"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sqz_rle_header h;
    char err[256];
    ck_assert_int_eq(parse_with(sqz__cells_parse, bad[i].text, &h, NULL, err, sizeof err), SQZ_ERR_PARSE);
    ck_assert_msg(strstr(err, bad[i].want) != NULL, "%s: '%s' lacks '%s'", bad[i].text, err, bad[i].want);
  }
}
END_TEST

/* ---- files on the cpu backend (a checked fixture: the context lives in the forked child) ---- */

static sqz_context *ctx;
static char dir[64];

static void setup(void) {
  ctx = sqz_test_context("cpu");
  strcpy(dir, "/tmp/sqz_rle_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (e->d_name[0] != '.') unlink(p);
  }
  if (d) closedir(d);
  rmdir(dir);
  sqz_context_release(ctx);
}

static const char *in_dir(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "%s/%s", dir, name);
  return buf;
}

static void write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  ck_assert_ptr_nonnull(fp);
  fputs(text, fp);
  fclose(fp);
}

static char *read_text(const char *path) {
  FILE *fp = fopen(path, "rb");
  ck_assert_msg(fp != NULL, "cannot open %s", path);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, fp);
  fclose(fp);
  buf[n] = 0;
  return buf;
}

static int dir_entries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static sqz_field *make_field(const char *spec, sqz_type t, const char *layout) {
  return sqz_test_field(ctx, spec, t, layout);
}

static void drop(sqz_field *f) { sqz_test_drop(f); }

/* The embedded side x side image of a 2D u8 field (caller frees). */
static unsigned char *image(sqz_field *f) {
  size_t n = (size_t)(f->dom->side * f->dom->side);
  unsigned char *img = malloc(n);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, img, n));
  return img;
}

static uint64_t live(sqz_field *f) {
  uint64_t n = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &n));
  return n;
}

/* Asserts that the live cells of f are exactly the n cells xy[] (x, y pairs). */
static void expect_cells(sqz_field *f, const int64_t *xy, int n, const char *what) {
  unsigned char *img = image(f);
  uint64_t side = f->dom->side;
  for (int k = 0; k < n; k++) {
    ck_assert_msg(img[xy[2 * k + 1] * (int64_t)side + xy[2 * k]] == 1, "%s: cell (%lld, %lld) is not alive", what,
                  (long long)xy[2 * k], (long long)xy[2 * k + 1]);
    img[xy[2 * k + 1] * (int64_t)side + xy[2 * k]] = 0;
  }
  for (uint64_t e = 0; e < side * side; e++)
    ck_assert_msg(img[e] == 0, "%s: cell (%llu, %llu) is alive and should not be", what, (unsigned long long)(e % side),
                  (unsigned long long)(e / side));
  free(img);
}

static const char *GLIDER = "#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n";

/* The glider's cells with its top-left at (x, y). */
static void glider_at(int64_t x, int64_t y, int64_t out[10]) {
  static const int64_t g[10] = {1, 0, 2, 1, 0, 2, 1, 2, 2, 2};
  for (int k = 0; k < 5; k++) out[2 * k] = x + g[2 * k], out[2 * k + 1] = y + g[2 * k + 1];
}

START_TEST(save_text) {
  char path[128];
  sqz_field *f = make_field("triangle:64", SQZ_U8, "compact");
  int64_t g[10];
  glider_at(10, 40, g);
  in_dir(path, sizeof path, "glider.rle");
  write_text(path, GLIDER);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, 10, 40));
  expect_cells(f, g, 5, "glider at (10, 40)");
  in_dir(path, sizeof path, "out.rle");
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(f, path, "23/3"));
  ck_assert_str_eq(read_text(path), "#CXRLE Pos=10,40\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(f, path, "b36s23"));
  ck_assert_str_eq(read_text(path), "#CXRLE Pos=10,40\nx = 3, y = 3, rule = B36/S23\nbo$2bo$3o!\n");
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(f, path, NULL));
  ck_assert_str_eq(read_text(path), "#CXRLE Pos=10,40\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  ck_assert_int_eq(sqz_field_save_rle(f, path, "B9/S3"), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "count 9"));
  ck_assert_int_eq(dir_entries(), 2); /* glider.rle, out.rle: no temporary left */
  /* empty rows between live ones are one counted '$' */
  const int64_t gap[4] = {0, 10, 0, 13};
  in_dir(path, sizeof path, "gap.rle");
  write_text(path, "x = 1, y = 4\no3$o!");
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, 0, 10));
  expect_cells(f, gap, 2, "two cells three rows apart");
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(f, path, NULL));
  ck_assert_str_eq(read_text(path), "#CXRLE Pos=0,10\nx = 1, y = 4, rule = B3/S23\no3$o!\n");
  /* an empty state */
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.0, 1));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(f, path, NULL));
  ck_assert_str_eq(read_text(path), "#CXRLE Pos=0,0\nx = 0, y = 0, rule = B3/S23\n!\n");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, 0, 0));
  ck_assert_uint_eq(live(f), 0);
  drop(f);
}
END_TEST

/* save -> load at (0, 0) restores the state, across layouts; lines stay within 70 characters. */
START_TEST(round_trips) {
  static const char *const specs[] = {"fractal:sierpinski-carpet:3", "triangle:23", "fractal:vicsek-cross:3",
                                      "triangle:1"};
  static const double density[] = {0.5, 0.97, 0.3, 1.0};
  char path[128];
  in_dir(path, sizeof path, "state.rle");
  for (int i = 0; i < 4; i++)
    for (int lay = 0; lay < 2; lay++) {
      sqz_field *a = make_field(specs[i], SQZ_U8, lay ? "bb" : "compact");
      sqz_field *b = make_field(specs[i], SQZ_U8, lay ? "compact" : "bb");
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, density[i], 11 + (uint64_t)i));
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.5, 99));
      SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(a, path, "B3/S23"));
      SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(b, path, 0, 0));
      unsigned char *ia = image(a), *ib = image(b);
      size_t n = (size_t)(a->dom->side * a->dom->side);
      ck_assert_msg(memcmp(ia, ib, n) == 0, "%s layout %d: the state differs after save and load", specs[i], lay);
      ck_assert_uint_gt(live(a), 0);
      free(ia);
      free(ib);
      char *text = read_text(path);
      for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        ck_assert_msg(strlen(line) <= 70, "%s: a line of %zu characters: %s", specs[i], strlen(line), line);
      drop(a);
      drop(b);
    }
}
END_TEST

/* --at and the file's #CXRLE Pos add up; negative placements are fine while the cells land inside. */
START_TEST(placement) {
  char path[128];
  sqz_field *f = make_field("triangle:64", SQZ_U8, "compact");
  in_dir(path, sizeof path, "p.rle");
  write_text(path, "#CXRLE Pos=2,3\nx = 2, y = 2\no$2o!\n");
  const int64_t at57[6] = {7, 10, 7, 11, 8, 11}, at0[6] = {0, 0, 0, 1, 1, 1};
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 5)); /* the rest of the field becomes 0 */
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, 5, 7));
  expect_cells(f, at57, 3, "Pos=2,3 at (5, 7)");
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, -2, -3));
  expect_cells(f, at0, 3, "Pos=2,3 at (-2, -3)");
  uint64_t w = 0, h = 0;
  char rule[SQZ_RLE_RULE_MAX] = "x";
  SQZ_OK_OR_FAIL(NULL, sqz_rle_info(NULL, path, &w, &h, rule, sizeof rule));
  ck_assert_uint_eq(w, 2);
  ck_assert_uint_eq(h, 2);
  ck_assert_str_eq(rule, "");
  in_dir(path, sizeof path, "glider.rle");
  write_text(path, GLIDER);
  SQZ_OK_OR_FAIL(ctx, sqz_rle_info(ctx, path, NULL, NULL, rule, sizeof rule));
  ck_assert_str_eq(rule, "B3/S23");
  ck_assert_int_eq(sqz_rle_info(ctx, path, NULL, NULL, rule, 6), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "'B3/S23' does not fit a buffer of 6 bytes"));
  drop(f);
}
END_TEST

/* Loads text at (x, y) into f and expects SQZ_ERR_OUTSIDE_DOMAIN with want in the detail, f unchanged. */
static void expect_outside(sqz_field *f, const char *text, int64_t x, int64_t y, const char *want) {
  char path[128];
  in_dir(path, sizeof path, "out.rle");
  write_text(path, text);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 17));
  uint64_t before = live(f);
  ck_assert_int_eq(sqz_field_load_rle(f, path, x, y), SQZ_ERR_OUTSIDE_DOMAIN);
  ck_assert_msg(strstr(sqz_last_error(ctx), want) != NULL, "detail '%s' lacks '%s'", sqz_last_error(ctx), want);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), path));
  ck_assert_uint_eq(live(f), before);
}

START_TEST(outside_and_holes) {
  sqz_field *carpet = make_field("fractal:sierpinski-carpet:2", SQZ_U8, "compact");
  expect_outside(carpet, "x = 1, y = 1\no!", 4, 4,
                 "live cell (0, 0) of the pattern lands on cell (4, 4), a hole of fractal:sierpinski-carpet:2");
  expect_outside(carpet, "x = 3, y = 1\n2o!", 0, 1, "live cell (1, 0) of the pattern lands on cell (1, 1), a hole");
  drop(carpet);
  sqz_field *tri = make_field("triangle:8", SQZ_U8, "bb");
  expect_outside(tri, "x = 3, y = 1\n3o!", 2, 3,
                 "live cell (2, 0) of the pattern lands on cell (4, 3), outside triangle:8");
  expect_outside(tri, "x = 1, y = 1\no!", 0, 8, "lands on cell (0, 8), outside the embedding of triangle:8");
  expect_outside(tri, "x = 1, y = 1\no!", -5, 6, "lands on cell (-5, 6), outside the embedding");
  expect_outside(tri, "#CXRLE Pos=9223372036854775807,0\nx = 2, y = 1\nbo!", 0, 7,
                 "live cell (1, 0) of the pattern lands beyond 64-bit coordinates, outside triangle:8");
  expect_outside(tri, "#CXRLE Pos=-9223372036854775807,0\nx = 1, y = 1\no!", -2, 7, "beyond 64-bit coordinates");
  drop(tri);
}
END_TEST

START_TEST(refused_files) {
  char path[128], missing[128];
  in_dir(path, sizeof path, "g.rle");
  write_text(path, GLIDER);
  sqz_field *t3 = make_field("tetrahedron:4", SQZ_U8, "compact");
  ck_assert_int_eq(sqz_field_load_rle(t3, path, 0, 0), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "RLE patterns are 2D and tetrahedron:4 is 3D"));
  in_dir(missing, sizeof missing, "t3.rle");
  ck_assert_int_eq(sqz_field_save_rle(t3, missing, NULL), SQZ_ERR_INVALID_ARGUMENT);
  drop(t3);
  sqz_field *i32 = make_field("triangle:8", SQZ_I32, "compact");
  ck_assert_int_eq(sqz_field_load_rle(i32, path, 0, 0), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_save_rle(i32, missing, NULL), SQZ_ERR_INVALID_ARGUMENT);
  drop(i32);
  ck_assert_int_eq(dir_entries(), 1);
  sqz_field *f = make_field("triangle:8", SQZ_U8, "compact");
  ck_assert_int_eq(sqz_field_load_rle(NULL, path, 0, 0), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_load_rle(f, NULL, 0, 0), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_load_rle(f, missing, 0, 0), SQZ_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "cannot open for reading: No such file"));
  write_text(path, "x = 3, y = 3\nbob$2bo$3o\n");
  ck_assert_int_eq(sqz_field_load_rle(f, path, 0, 0), SQZ_ERR_PARSE);
  char want[256];
  snprintf(want, sizeof want, "%s: line 3, column 1: missing '!' at the end of the pattern", path);
  ck_assert_str_eq(sqz_last_error(ctx), want);
  ck_assert_int_eq(sqz_rle_info(ctx, path, NULL, NULL, NULL, 0), SQZ_ERR_PARSE);
  ck_assert_str_eq(sqz_last_error(ctx), want);
  write_text(path, "x = 2, y = 2\n3o!");
  ck_assert_int_eq(sqz_field_load_rle(f, path, 0, 0), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "line 2, column 1: live cells beyond the declared x = 2, y = 2"));
  /* a failed save leaves no temporary: the target is a non-empty folder, or its folder is missing */
  char sub[160], inner[200];
  in_dir(sub, sizeof sub, "sub.rle");
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  snprintf(inner, sizeof inner, "%s/keep", sub);
  write_text(inner, "x");
  ck_assert_int_eq(sqz_field_save_rle(f, sub, NULL), SQZ_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "rename over the target failed"));
  ck_assert_int_eq(dir_entries(), 2); /* g.rle and sub.rle */
  snprintf(inner, sizeof inner, "%s/no/such/dir.rle", dir);
  ck_assert_int_eq(sqz_field_save_rle(f, inner, NULL), SQZ_ERR_IO);
  snprintf(inner, sizeof inner, "%s/keep", sub);
  unlink(inner);
  rmdir(sub);
  drop(f);
}
END_TEST

/* ---- Golly patterns evolving ---------------------------------------------------------------- */

/* Golly's glider on triangle:64, near the wide bottom and away from the edges: after 4 generations
 * the same glider one cell right and one down (cell by cell), after 40 ten cells each way. */
START_TEST(glider_moves) {
  char path[128];
  in_dir(path, sizeof path, "glider.rle");
  write_text(path, GLIDER);
  for (int lay = 0; lay < 2; lay++) {
    sqz_field *f = make_field("triangle:64", SQZ_U8, lay ? "bb" : "compact");
    int64_t g[10];
    SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, 10, 40));
    for (int gen = 4; gen <= 40; gen += 4) {
      SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B3/S23", 4));
      glider_at(10 + gen / 4, 40 + gen / 4, g);
      char what[64];
      snprintf(what, sizeof what, "glider after %d generations", gen);
      expect_cells(f, g, 5, what);
    }
    drop(f);
  }
}
END_TEST

/* A blinker has period 2: one step turns it upright, two bring it back. */
START_TEST(blinker_period) {
  char path[128];
  in_dir(path, sizeof path, "blinker.rle");
  write_text(path, "#N Blinker\nx = 3, y = 1, rule = 23/3\n3o!\n");
  sqz_field *f = make_field("triangle:64", SQZ_U8, "compact");
  const int64_t flat[6] = {20, 40, 21, 40, 22, 40}, upright[6] = {21, 39, 21, 40, 21, 41};
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(f, path, 20, 40));
  expect_cells(f, flat, 3, "blinker, generation 0");
  for (int gen = 1; gen <= 6; gen++) {
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "23/3", 1));
    expect_cells(f, gen % 2 ? upright : flat, 3, gen % 2 ? "blinker, odd generation" : "blinker, even generation");
  }
  drop(f);
}
END_TEST

/* ---- rule strings: Golly's forms, and 3D lists ---------------------------------------------- */

/* sqz_rule_parse_states gives the masks and states; sqz_rule_parse the same masks for 2 states, else refuses. */
static void expect_rule_states(const char *rule, int dims, uint32_t birth, uint32_t survive, uint32_t states) {
  uint32_t b = 0xdead, s = 0xbeef, c = 0;
  char err[256];
  int st = sqz_rule_parse_states(rule, dims, &b, &s, &c, err, sizeof err);
  ck_assert_msg(st == SQZ_OK, "%s (%dD) -> %s: %s", rule, dims, sqz_status_name(st), err);
  ck_assert_msg(b == birth && s == survive && c == states, "%s (%dD): birth %#x survive %#x states %u, expected %#x %#x %u",
                rule, dims, b, s, c, birth, survive, states);
  st = sqz_rule_parse(rule, dims, &b, &s, err, sizeof err);
  ck_assert_int_eq(st, states == 2 ? SQZ_OK : SQZ_ERR_PARSE);
  if (states > 2) ck_assert_msg(strstr(err, "a Generations rule of") != NULL, "%s: %s", rule, err);
}

static void expect_rule(const char *rule, int dims, uint32_t birth, uint32_t survive) {
  expect_rule_states(rule, dims, birth, survive, 2);
}

static void expect_bad_rule(const char *rule, int dims, const char *want) {
  uint32_t b = 0, s = 0, c = 0;
  char err[256];
  ck_assert_int_eq(sqz_rule_parse_states(rule, dims, &b, &s, &c, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_msg(strstr(err, want) != NULL, "%s (%dD): '%s' lacks '%s'", rule, dims, err, want);
  ck_assert_int_eq(sqz_rule_parse(rule, dims, &b, &s, NULL, 0), SQZ_ERR_PARSE);
}

#define M(c) (1u << (c))
START_TEST(rule_forms) {
  const uint32_t B3 = M(3), S23 = M(2) | M(3);
  static const char *const life[] = {"B3/S23", "b3/s23", "b3s23", "B3S23", "S23/B3", "s23b3", "23/3", "B3/S2,3"};
  for (size_t i = 0; i < sizeof life / sizeof life[0]; i++) expect_rule(life[i], 2, B3, S23);
  expect_rule("B36/S23", 2, M(3) | M(6), S23);
  expect_rule("23/36", 2, M(3) | M(6), S23);
  expect_rule("/2", 2, M(2), 0);       /* Seeds */
  expect_rule("B2/S", 2, M(2), 0);
  expect_rule("012345678/3", 2, M(3), 0x1ff);
  static const struct {
    const char *rule;
    int dims;
    const char *want;
  } bad[] = {
      {"B9/S23", 2, "count 9 in 'B9' exceeds the 8 neighbours"},
      {"239/3", 2, "count 9 in '239' exceeds"},
      {"23/3", 3, "the digits-only S/B form (Golly's 23/3) is for 2D rules"},
      {"23", 2, "expected '/' at position 3"},
      {"23/3/", 2, "expected the number of states at position 6"}, /* S/B/C: rule_generations */
      {"2x/3", 2, "unexpected character 'x' at position 2"},
      {"B3", 2, "missing the S part"},
      {"S23", 2, "missing the B part"},
      {"B3/B3", 2, "'B' given twice (position 4)"},
      {"B3//S23", 2, "expected 'S' at position 4"},
      {"X3/S23", 2, "expected 'B' or 'S' at position 1"},
      {"B3/S2x", 2, "unexpected character 'x' at position 6"},
      {"B3S23/", 2, "unexpected text '/' at position 6"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) expect_bad_rule(bad[i].rule, bad[i].dims, bad[i].want);
  uint32_t b, s;
  ck_assert_int_eq(sqz_rule_parse("B3/S23", 4, &b, &s, NULL, 0), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_rule_parse("", 2, &b, &s, NULL, 0), SQZ_ERR_PARSE);
}
END_TEST

/* Golly's Generations rules: B/S/C (C or G) and the S/B/C digits; 2 to 256 states. */
START_TEST(rule_generations) {
  static const char *const brain[] = {"B2/S/C3", "b2/s/c3", "B2SC3", "B2/S/G3", "S/B2/C3", "/2/3", "B2/SC3"};
  for (size_t i = 0; i < sizeof brain / sizeof brain[0]; i++) expect_rule_states(brain[i], 2, M(2), 0, 3);
  expect_rule_states("345/2/4", 2, M(2), M(3) | M(4) | M(5), 4); /* Star Wars */
  expect_rule_states("B2/S345/C4", 2, M(2), M(3) | M(4) | M(5), 4);
  expect_rule_states("23/3/2", 2, M(3), M(2) | M(3), 2); /* two states: plain Life */
  expect_rule_states("B3/S23/C2", 2, M(3), M(2) | M(3), 2);
  expect_rule_states("/2/256", 2, M(2), 0, 256);
  expect_rule_states("B6/S5,6,7/C4", 3, M(6), M(5) | M(6) | M(7), 4); /* 3D keeps its comma lists */
  expect_rule_states("B14,/S/C10", 3, M(14), 0, 10);
  expect_bad_rule("/2/1", 2, "'1': a Generations rule has 2 to 256 states");
  expect_bad_rule("/2/257", 2, "'257': a Generations rule has 2 to 256 states");
  expect_bad_rule("B2/S/C", 2, "expected the number of states at position 7");
  expect_bad_rule("B2/S/C3x", 2, "unexpected character 'x' at position 8");
  expect_bad_rule("/2/3/4", 2, "unexpected character '/' at position 5");
  expect_bad_rule("B2/C3", 2, "expected 'S' at position 4");
  expect_bad_rule("/2/3", 3, "the digits-only S/B form (Golly's 23/3) is for 2D rules");
}
END_TEST

/* The defect: 3D lists of several digits without commas were read digit by digit (B27 on a
 * tetrahedron gave birth on 2 or 7); now they are refused by name, single digits still pass. */
START_TEST(rule_3d_lists) {
  expect_bad_rule("B27/S5", 3, "'B27' is ambiguous in 3D");
  expect_bad_rule("B27/S5", 3, "(B2,7)");
  expect_bad_rule("B6/S567", 3,
                  "'S567' is ambiguous in 3D, where counts reach 26: separate the counts with commas (S5,6,7)");
  expect_bad_rule("B3/S23", 3, "'S23' is ambiguous");
  expect_rule("B6/S5", 3, M(6), M(5));
  expect_rule("B6/S5,6,7", 3, M(6), M(5) | M(6) | M(7));
  expect_rule("b6s5,6,7", 3, M(6), M(5) | M(6) | M(7));
  expect_rule("B14,26/S", 3, M(14) | M(26), 0);
  expect_rule("B14,/S5,6", 3, M(14), M(5) | M(6)); /* a lone count of 10 or more: trailing comma */
  expect_rule("B3/S2,3", 3, M(3), M(2) | M(3));
  expect_bad_rule("B6/S5,27", 3, "count 27 in 'S5,27' exceeds the 26 neighbours");
  expect_bad_rule("B27,/S5", 3, "count 27 in 'B27,' exceeds the 26 neighbours");
  expect_bad_rule("B2,3,/S", 3, "trailing ',' at position 5");
  expect_bad_rule("B,3/S", 3, "expected a count at position 2");
}
END_TEST

/* The default rule (NULL) of 3D is B6/S5,6,7 (B3/S23 in 2D). */
START_TEST(default_rule_3d) {
  sqz_field *a = make_field("tetrahedron:9", SQZ_U8, "compact"), *b = make_field("tetrahedron:9", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.3, 4));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.3, 4));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(a, NULL, 2));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(b, "B6/S5,6,7", 2));
  size_t n = 9 * 9 * 9;
  unsigned char *ia = malloc(n), *ib = malloc(n);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, ia, n));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, ib, n));
  ck_assert_int_eq(memcmp(ia, ib, n), 0);
  ck_assert_int_eq(sqz_life_step(a, "B3/S23", 1), SQZ_ERR_PARSE);
  free(ia);
  free(ib);
  drop(a);
  drop(b);
}
END_TEST

/* ---- .cells files and clipping ---------------------------------------------------------------- */

static const char *GLIDER_CELLS = "!Name: Glider\n.O\n..O\nOOO\n";

/* The .cells glider runs as the RLE one (4 steps on triangle:64); save -> load restores states. */
START_TEST(cells_files) {
  char path[128], rle[128];
  sqz_field *a = make_field("triangle:64", SQZ_U8, "compact"), *b = make_field("triangle:64", SQZ_U8, "bb");
  write_text(in_dir(path, sizeof path, "glider.cells"), GLIDER_CELLS);
  write_text(in_dir(rle, sizeof rle, "glider.rle"), GLIDER);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_cells(a, path, 10, 40));
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_rle(b, rle, 10, 40));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(a, "B3/S23", 4));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(b, "B3/S23", 4));
  int64_t g[10];
  glider_at(11, 41, g);
  expect_cells(a, g, 5, ".cells glider after 4 steps");
  expect_cells(b, g, 5, "RLE glider after 4 steps");
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_cells(a, in_dir(path, sizeof path, "out.cells"), "glider"));
  ck_assert_str_eq(read_text(path), "!Name: glider\n!Pos: 11,41\n.O\n..O\nOOO\n");
  ck_assert_int_eq(sqz_field_save_cells(a, path, "two\nlines"), SQZ_ERR_INVALID_ARGUMENT);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.0, 1)); /* empty: no rows, reads back empty */
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_cells(a, path, NULL));
  ck_assert_str_eq(read_text(path), "!Pos: 0,0\n");
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_cells(b, path, 0, 0));
  ck_assert_uint_eq(live(b), 0);
  drop(a);
  drop(b);
  static const char *const specs[] = {"fractal:sierpinski-carpet:3", "triangle:23"};
  for (int i = 0; i < 2; i++) { /* random states, empty rows inside the box included */
    sqz_field *x = make_field(specs[i], SQZ_U8, "compact"), *y = make_field(specs[i], SQZ_U8, "bb");
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(x, 0.2, 7));
    SQZ_OK_OR_FAIL(ctx, sqz_field_save_cells(x, path, specs[i]));
    SQZ_OK_OR_FAIL(ctx, sqz_field_load_cells(y, path, 0, 0));
    unsigned char *ix = image(x), *iy = image(y);
    ck_assert_msg(memcmp(ix, iy, (size_t)(x->dom->side * x->dom->side)) == 0, "%s: differs after save, load", specs[i]);
    ck_assert_uint_gt(live(x), 0);
    free(ix);
    free(iy);
    drop(x);
    drop(y);
  }
  ck_assert_int_eq(dir_entries(), 3); /* glider.cells, glider.rle, out.cells: no temporary left */
}
END_TEST

/* Golly's Gosper glider gun (public-domain pattern data). */
static const char *GOSPER = "#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$"
                            "2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!\n";

/* Its live cells in the same rows, written out by hand from the RLE above. */
static const char *const GOSPER_ROWS[9] = {
    "........................O",           "......................O.O",
    "............OO......OO............OO", "...........O...O....OO............OO",
    "OO........O.....O...OO",               "OO........O...O.OO....O.O",
    "..........O.....O.......O",            "...........O...O",
    "............OO"};

/* Sierpinski triangle ("#./##", origin top-left, y down): (x, y) is in iff x & ~y == 0. */
static int sierpinski_in(uint64_t x, uint64_t y) { return (x & ~y) == 0; }

/* The gun clipped onto fractal:sierpinski-triangle:7 at (ax, ay): the dropped count equals the count
 * of its cells on holes by the membership rule, which is first checked against the domain. */
static void clip_gun_at(sqz_field *f, const char *path, uint64_t ax, uint64_t ay) {
  uint64_t side = f->dom->side, want = 0, kept = 0, clipped = 0;
  for (uint64_t y = 0; y < side; y++)
    for (uint64_t x = 0; x < side; x++)
      ck_assert_int_eq(sqz_domain_contains(f->dom, x, y, 0), sierpinski_in(x, y));
  unsigned char *img = calloc((size_t)(side * side), 1);
  for (uint64_t y = 0; y < 9; y++)
    for (uint64_t x = 0; GOSPER_ROWS[y][x]; x++)
      if (GOSPER_ROWS[y][x] == 'O' && sierpinski_in(ax + x, ay + y)) img[(ay + y) * side + ax + x] = 1, kept++;
      else want += GOSPER_ROWS[y][x] == 'O';
  ck_assert_uint_eq(kept + want, 36);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_clipped(f, path, (int64_t)ax, (int64_t)ay, &clipped));
  ck_assert_uint_eq(clipped, want);
  unsigned char *got = image(f);
  ck_assert_int_eq(memcmp(img, got, (size_t)(side * side)), 0);
  free(img);
  free(got);
}

START_TEST(clip_gosper_gun) {
  char path[128];
  write_text(in_dir(path, sizeof path, "gun.rle"), GOSPER);
  sqz_field *f = make_field("fractal:sierpinski-triangle:7", SQZ_U8, "compact");
  ck_assert_int_eq(sqz_field_load_rle(f, path, 0, 0), SQZ_ERR_OUTSIDE_DOMAIN); /* without clipping: refused */
  clip_gun_at(f, path, 0, 0);
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, 30)); /* and it runs */
  clip_gun_at(f, path, 64, 100);
  /* the same gun as .cells */
  char cells[2048] = "!Name: Gosper glider gun\n";
  for (int y = 0; y < 9; y++) strcat(strcat(cells, GOSPER_ROWS[y]), "\n");
  write_text(in_dir(path, sizeof path, "gun.cells"), cells);
  clip_gun_at(f, path, 0, 64);
  /* far outside, beyond 64-bit coordinates, or every cell on a hole: nothing left, the file named */
  uint64_t clipped = 7;
  ck_assert_int_eq(sqz_field_load_clipped(f, path, 5000, 0, &clipped), SQZ_ERR_OUTSIDE_DOMAIN);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "gun.cells: nothing is left after clipping: all 36 live cells"));
  ck_assert_uint_eq(clipped, 0);
  ck_assert_int_eq(sqz_field_load_clipped(f, path, INT64_MAX, -INT64_MAX, NULL), SQZ_ERR_OUTSIDE_DOMAIN);
  write_text(path, "!Pos: 9223372036854775807,0\n" "O\n");
  ck_assert_int_eq(sqz_field_load_clipped(f, path, 1, 1, &clipped), SQZ_ERR_OUTSIDE_DOMAIN);
  /* a run of 2^62 live cells mostly outside: dropped in bulk, the part inside placed */
  write_text(in_dir(path, sizeof path, "long.rle"), "x = 4611686018427387904, y = 1\n4611686018427387904o!");
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_clipped(f, path, -4611686018427387900, 127, &clipped));
  ck_assert_uint_eq(live(f), 4); /* row 127 of the triangle is full: columns 0 .. 3 */
  ck_assert_uint_eq(clipped, 4611686018427387904ull - 4);
  drop(f);
}
END_TEST

/* PBM and .npy images clipped: the set cells on holes dropped and counted. */
START_TEST(clip_images) {
  char path[128];
  sqz_field *tri = make_field("triangle:9", SQZ_U8, "compact"), *f = make_field("fractal:sierpinski-carpet:2", SQZ_U8,
                                                                                   "compact");
  char pbm[512] = "P1\n9 9\n";
  for (int i = 0; i < 81; i++) strcat(pbm, "1 ");
  write_text(in_dir(path, sizeof path, "full.pbm"), pbm);
  uint64_t clipped = 0;
  ck_assert_int_eq(sqz_field_load_pbm(f, path), SQZ_ERR_OUTSIDE_DOMAIN);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_clipped(f, path, 0, 0, &clipped));
  ck_assert_uint_eq(clipped, 81 - 64); /* the carpet keeps 8 * 8 of 81 cells */
  ck_assert_uint_eq(live(f), 64);
  ck_assert_int_eq(sqz_field_load_clipped(f, path, 1, 0, &clipped), SQZ_ERR_INVALID_ARGUMENT);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_clipped(tri, path, 0, 0, &clipped));
  ck_assert_uint_eq(clipped, 81 - 45);
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(tri, in_dir(path, sizeof path, "tri.npy")));
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_clipped(f, path, 0, 0, &clipped));
  uint64_t on_holes = 0; /* triangle cells (x <= y) on carpet holes (a 1, 1 digit pair at either level) */
  for (int y = 0; y < 9; y++)
    for (int x = 0; x <= y; x++) on_holes += (x % 3 == 1 && y % 3 == 1) || (x / 3 == 1 && y / 3 == 1);
  ck_assert_uint_eq(clipped, on_holes);
  ck_assert_uint_eq(live(f) + clipped, 45);
  drop(tri);
  drop(f);
}
END_TEST

int main(void) {
  Suite *s = suite_create("rle");
  TCase *parser = tcase_create("parser");
  tcase_add_test(parser, parser_samples);
  tcase_add_test(parser, parser_refusals);
  tcase_add_test(parser, parser_callback_status);
  tcase_add_test(parser, rule_forms);
  tcase_add_test(parser, rule_generations);
  tcase_add_test(parser, rule_3d_lists);
  tcase_add_test(parser, cells_parser);
  suite_add_tcase(s, parser);
  TCase *files = tcase_create("files");
  tcase_add_checked_fixture(files, setup, teardown);
  tcase_add_test(files, save_text);
  tcase_add_test(files, round_trips);
  tcase_add_test(files, placement);
  tcase_add_test(files, outside_and_holes);
  tcase_add_test(files, refused_files);
  tcase_add_test(files, glider_moves);
  tcase_add_test(files, blinker_period);
  tcase_add_test(files, default_rule_3d);
  tcase_add_test(files, cells_files);
  tcase_add_test(files, clip_gosper_gun);
  tcase_add_test(files, clip_images);
  suite_add_tcase(s, files);
  return sqz_test_run(s);
}
