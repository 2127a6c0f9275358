/* labels: host */
/* test_fractal_maps.c — fractal parsing, membership, λ/ν, block maps and layout index maps against the oracle's vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"
#include "sqz_test.h"

/* ---- oracle vectors (tests/data/fractal_maps.txt, from gen_fractal.py) -------------------- */
#define MAX_FRACTALS 16
static char patterns[MAX_FRACTALS][300];

/* The fractal of vector id at level r (parsed by the library from the oracle's pattern). */
static sqz_fractal fractal_of(unsigned id, unsigned r) {
  char level[16];
  sqz_fractal fr;
  uint64_t side, cells;
  ck_assert_uint_lt(id, MAX_FRACTALS);
  ck_assert_msg(patterns[id][0] != 0, "fractal %u used before its 'fractal' record", id);
  snprintf(level, sizeof level, "%u", r);
  int st = sqz__fractal_parse(NULL, patterns[id], level, &fr, &side, &cells);
  ck_assert_msg(st == SQZ_OK, "parse %s:%u: %s", patterns[id], r, sqz_last_error(NULL));
  return fr;
}

static void rec_fractal(const char *s) {
  unsigned id;
  char pat[300];
  ck_assert_int_eq(sscanf(s, "%u %299s", &id, pat), 2);
  ck_assert_uint_lt(id, MAX_FRACTALS);
  snprintf(patterns[id], sizeof patterns[id], "%s", pat);
}

static void rec_member(const char *s) {
  unsigned id, r;
  int used = 0;
  ck_assert_int_eq(sscanf(s, "%u %u %n", &id, &r, &used), 2);
  sqz_fractal fr = fractal_of(id, r);
  const char *hex = s + used;
  sqz_u32 n = 1;
  for (unsigned i = 0; i < r; i++) n *= (sqz_u32)fr.s;
  for (sqz_u32 y = 0; y < n; y++)
    for (sqz_u32 x = 0; x < n; x++) {
      uint64_t bit = (uint64_t)y * n + x;
      char c = hex[bit / 4];
      unsigned v = (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
      unsigned want = (v >> (3 - bit % 4)) & 1u;
      ck_assert_msg(sqz_fr_contains((sqz_u32)fr.s, fr.hnu, r, x, y) == want, "%s:%u contains(%u, %u) != %u",
                    patterns[id], r, x, y, want);
      ck_assert_int_eq(sqz__fractal_member(&fr, x, y), (int)want);
    }
  ck_assert(!sqz_fr_contains((sqz_u32)fr.s, fr.hnu, r, n, 0) && !sqz_fr_contains((sqz_u32)fr.s, fr.hnu, r, 0, n));
  ck_assert(!sqz_fr_contains((sqz_u32)fr.s, fr.hnu, r, 0xffffffffu, 0));
}

static void rec_lambda(const char *s) {
  unsigned id, r, x, y, gx, gy;
  unsigned long long cx, cy, bx, by;
  ck_assert_int_eq(sscanf(s, "%u %u %llu %llu %u %u", &id, &r, &cx, &cy, &x, &y), 6);
  sqz_fractal fr = fractal_of(id, r);
  sqz_u64 c = sqz_fr_interleave((sqz_u32)fr.k, r, cx, cy);
  sqz_fr_lambda((sqz_u32)fr.s, (sqz_u32)fr.k, fr.hl, r, c, &gx, &gy);
  ck_assert_msg(gx == x && gy == y, "%s:%u λ(%llu, %llu) = (%u, %u), oracle (%u, %u)", patterns[id], r, cx, cy, gx,
                gy, x, y);
  sqz_u64 ux, uy;
  sqz_fr_deinterleave((sqz_u32)fr.k, r, c, &ux, &uy);
  bx = ux;
  by = uy;
  ck_assert(bx == cx && by == cy);
}

static void rec_nu(const char *s) {
  unsigned id, r, x, y;
  unsigned long long cx = 0, cy = 0;
  char a[32] = "", b[32] = "";
  int n = sscanf(s, "%u %u %u %u %31s %31s", &id, &r, &x, &y, a, b);
  ck_assert_int_ge(n, 5);
  sqz_fractal fr = fractal_of(id, r);
  sqz_i64 c = sqz_fr_nu((sqz_u32)fr.s, (sqz_u32)fr.k, fr.hnu, r, x, y);
  if (strcmp(a, "none") == 0) {
    ck_assert_msg(c == -1, "%s:%u ν(%u, %u) = %lld, oracle none", patterns[id], r, x, y, (long long)c);
    return;
  }
  ck_assert_int_eq(n, 6);
  cx = strtoull(a, NULL, 10);
  cy = strtoull(b, NULL, 10);
  ck_assert_msg(c >= 0, "%s:%u ν(%u, %u) = none, oracle (%llu, %llu)", patterns[id], r, x, y, cx, cy);
  sqz_u64 gx, gy;
  sqz_fr_deinterleave((sqz_u32)fr.k, r, (sqz_u64)c, &gx, &gy);
  ck_assert_msg(gx == cx && gy == cy, "%s:%u ν(%u, %u) = (%llu, %llu), oracle (%llu, %llu)", patterns[id], r, x, y,
                (unsigned long long)gx, (unsigned long long)gy, cx, cy);
}

/* A field of layout `layout` on dom, without a context or storage (index maps only). */
static sqz_field host_field(sqz_domain *dom, const char *layout) {
  sqz_field f;
  memset(&f, 0, sizeof f);
  f.dom = dom;
  ck_assert_int_eq(sqz__parse_layout(NULL, dom, layout, &f.layout, &f.layout_rho), SQZ_OK);
  int st = sqz__layout_geometry(dom, f.layout, f.layout_rho, &f.elems, &f.width, &f.height);
  ck_assert_msg(st == SQZ_OK, "%s %s: %s", dom->spec, layout, sqz_last_error(NULL));
  return f;
}

static sqz_domain *parse_domain(const char *pattern, unsigned r) {
  char spec[400];
  sqz_domain *dom = NULL;
  snprintf(spec, sizeof spec, "fractal:%s:%u", pattern, r);
  int st = sqz_domain_parse(NULL, spec, &dom);
  ck_assert_msg(st == SQZ_OK, "%s: %s", spec, sqz_last_error(NULL));
  return dom;
}

/* block record: docs/MAPS.md 4.6 storage cell (cx, cy) = (bx rho + tx, by rho + ty) holds embedded
 * (x, y); the library stores it at tile index b = interleave(bx, by), offset ty rho + tx. */
/* The block:s^j field of vector fractal id at level r; *rho gets s^j. */
static sqz_field block_field(unsigned id, unsigned r, unsigned j, uint64_t *rho, char *layout, size_t len) {
  sqz_domain *dom = parse_domain(patterns[id], r);
  *rho = 1;
  for (unsigned i = 0; i < j; i++) *rho *= (uint64_t)dom->fr.s;
  snprintf(layout, len, "block:%llu", (unsigned long long)*rho);
  return host_field(dom, layout);
}

static void rec_block(const char *s) {
  unsigned id, r, j, x, y, ok;
  unsigned long long cx, cy;
  ck_assert_int_eq(sscanf(s, "%u %u %u %llu %llu %u %u %u", &id, &r, &j, &cx, &cy, &x, &y, &ok), 8);
  char layout[32];
  uint64_t rho;
  sqz_field f = block_field(id, r, j, &rho, layout, sizeof layout);
  sqz_domain *dom = f.dom;
  uint64_t b = sqz_fr_interleave((sqz_u32)dom->fr.k, r - j, cx / rho, cy / rho);
  uint64_t index = b * rho * rho + (cy % rho) * rho + cx % rho, gx, gy, gz;
  ck_assert_uint_lt(index, f.elems);
  int member = sqz__fractal_coords(&f, index, &gx, &gy, &gz);
  ck_assert_msg(gx == x && gy == y && member == (int)ok, "%s:%u %s cell (%llu, %llu) -> (%llu, %llu) %d, oracle (%u, %u) %u",
                patterns[id], r, layout, cx, cy, (unsigned long long)gx, (unsigned long long)gy, member, x, y, ok);
  ck_assert_int_eq(sqz__fractal_index(&f, x, y, 0), ok ? (int64_t)index : -1);
  sqz_domain_release(dom);
}

static void rec_blocknu(const char *s) {
  unsigned id, r, j, x, y;
  unsigned long long cx, cy;
  ck_assert_int_eq(sscanf(s, "%u %u %u %u %u %llu %llu", &id, &r, &j, &x, &y, &cx, &cy), 7);
  char layout[32];
  uint64_t rho;
  sqz_field f = block_field(id, r, j, &rho, layout, sizeof layout);
  sqz_domain *dom = f.dom;
  int64_t index = sqz__fractal_index(&f, x, y, 0);
  ck_assert_int_ge(index, 0);
  uint64_t b = (uint64_t)index / (rho * rho), q = (uint64_t)index % (rho * rho);
  sqz_u64 bx, by;
  sqz_fr_deinterleave((sqz_u32)dom->fr.k, r - j, b, &bx, &by);
  ck_assert_msg(bx * rho + q % rho == cx && by * rho + q / rho == cy, "%s:%u %s ν(%u, %u)", patterns[id], r, layout,
                x, y);
  sqz_domain_release(dom);
}

START_TEST(test_oracle_vectors) {
  static const struct {
    const char *kind;
    void (*fn)(const char *);
  } kinds[] = {{"fractal", rec_fractal}, {"member", rec_member},   {"lambda", rec_lambda},
               {"nu", rec_nu},           {"block", rec_block},     {"blocknu", rec_blocknu}};
  long counts[6] = {0};
  FILE *f = fopen(sqz_test_data("fractal_maps.txt"), "r");
  ck_assert_msg(f != NULL, "cannot open %s", sqz_test_data("fractal_maps.txt"));
  static char line[65536];
  while (fgets(line, sizeof line, f)) {
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
      size_t n = strlen(kinds[i].kind);
      if (strncmp(line, kinds[i].kind, n) == 0 && line[n] == ' ') {
        kinds[i].fn(line + n + 1);
        counts[i]++;
      }
    }
  }
  fclose(f);
  for (size_t i = 0; i < 6; i++) ck_assert_msg(counts[i] > 0, "no '%s' records", kinds[i].kind);
  ck_assert_int_ge(counts[0], 9); /* the four named fractals and five random patterns, s = 2, 3, 4 */
}
END_TEST

/* ---- layouts: every storage index <-> embedded cell, for every layout ---------------------- */
static void check_layout(sqz_domain *dom, const char *layout) {
  sqz_field f = host_field(dom, layout);
  uint64_t n = dom->side, members = 0;
  ck_assert_uint_eq(f.width * f.height, f.elems);
  for (uint64_t i = 0; i < f.elems; i++) {
    uint64_t x, y, z;
    if (!sqz__fractal_coords(&f, i, &x, &y, &z)) continue;
    members++;
    ck_assert_msg(x < n && y < n && z == 0 && sqz_domain_contains(dom, x, y, 0), "%s %s: index %llu", dom->spec,
                  layout, (unsigned long long)i);
    ck_assert_int_eq(sqz__fractal_index(&f, x, y, 0), (int64_t)i);
  }
  ck_assert_uint_eq(members, dom->cells);
  for (uint64_t y = 0; y < n; y++)
    for (uint64_t x = 0; x < n; x++)
      if (!sqz_domain_contains(dom, x, y, 0)) ck_assert_int_eq(sqz__fractal_index(&f, x, y, 0), -1);
  ck_assert_int_eq(sqz__fractal_index(&f, n, 0, 0), -1);
  ck_assert_int_eq(sqz__fractal_index(&f, 0, 0, 1), -1);
  if (f.layout == SQZ_LAYOUT_COMPACT) ck_assert_uint_eq(f.elems, dom->cells);
}

START_TEST(test_layout_bijections) {
  const char *specs[] = {"#./##:5", "###/#.#/###:3", ".#./###/.#.:3", "#.#/.#./#.#:3", "##/..:4", "...#/.#../###./#.#.:2"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    char pat[64];
    unsigned r;
    const char *colon = strrchr(specs[i], ':');
    snprintf(pat, sizeof pat, "%.*s", (int)(colon - specs[i]), specs[i]);
    r = (unsigned)atoi(colon + 1);
    sqz_domain *dom = parse_domain(pat, r);
    check_layout(dom, "bb");
    check_layout(dom, "lambda");
    check_layout(dom, "compact");
    for (uint64_t rho = 1; rho <= dom->side; rho *= (uint64_t)dom->fr.s) {
      char layout[32];
      snprintf(layout, sizeof layout, "block:%llu", (unsigned long long)rho);
      check_layout(dom, layout);
    }
    sqz_domain_release(dom);
  }
}
END_TEST

/* Digit order: index b k^j + l of the compact layout is cell λ_j(l) of tile λ_b(b), for every j. */
START_TEST(test_tiles_in_digit_order) {
  sqz_domain *dom = parse_domain("###/..#/.##", 4);
  const sqz_fractal *fr = &dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k;
  for (sqz_u32 j = 0; j <= 4; j++) {
    sqz_u32 rho = 1, kj = 1;
    for (sqz_u32 i = 0; i < j; i++) rho *= s, kj *= k;
    for (sqz_u64 c = 0; c < dom->cells; c++) {
      sqz_u32 x, y, bx, by, tx, ty;
      sqz_fr_lambda(s, k, fr->hl, 4, c, &x, &y);
      sqz_fr_lambda(s, k, fr->hl, 4 - j, c / kj, &bx, &by);
      sqz_fr_lambda(s, k, fr->hl, j, c % kj, &tx, &ty);
      ck_assert(x == bx * rho + tx && y == by * rho + ty);
      ck_assert_int_eq(sqz_fr_nu(s, k, fr->hnu, 4, x, y), (sqz_i64)c);
      ck_assert_int_eq(sqz_fr_tile_offset(1, s, k, fr->hnu, j, rho, tx, ty), (sqz_i64)(c % kj));
    }
  }
  /* the halo source of every cache position of a rho = 3 tile */
  for (sqz_u32 p = 0; p < 25; p++) {
    sqz_u32 lx, ly, d = sqz_fr_cache_source(3, p, &lx, &ly), cx = p % 5, cy = p / 5;
    ck_assert_uint_lt(d, 9);
    ck_assert_uint_eq((d % 3) * 3 + lx, cx + 2);
    ck_assert_uint_eq((d / 3) * 3 + ly, cy + 2);
  }
  sqz_domain_release(dom);
}
END_TEST

/* Sizes of docs/MAPS.md 4.7: Sierpinski r = 16 bb / compact / block:16 and the MRF values. */
START_TEST(test_sizes_and_mrf) {
  sqz_domain *dom = parse_domain("sierpinski-triangle", 16);
  uint64_t bb, compact, block16, block1;
  ck_assert_int_eq(sqz_domain_layout_cells(dom, "bb", &bb), SQZ_OK);
  ck_assert_int_eq(sqz_domain_layout_cells(dom, "compact", &compact), SQZ_OK);
  ck_assert_int_eq(sqz_domain_layout_cells(dom, "block:16", &block16), SQZ_OK);
  ck_assert_int_eq(sqz_domain_layout_cells(dom, "block:1", &block1), SQZ_OK);
  ck_assert_uint_eq(bb, (uint64_t)1 << 32);
  ck_assert_uint_eq(compact, 43046721u);
  ck_assert_uint_eq(block1, compact);
  ck_assert_uint_eq(block16, 531441u * 256u);
  ck_assert_int_eq((int)(10.0 * (double)bb / (double)compact + 0.5), 998);
  ck_assert_int_eq((int)(10.0 * (double)bb / (double)block16 + 0.5), 316);
  ck_assert_str_eq(sqz_domain_spec(dom), "fractal:sierpinski-triangle:16");
  int s, k, r;
  ck_assert_int_eq(sqz_domain_fractal_params(dom, &s, &k, &r), SQZ_OK);
  ck_assert(s == 2 && k == 3 && r == 16);
  ck_assert_int_eq(sqz_domain_layout_cells(dom, "block:6", &block1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "power of the scale 2"));
  sqz_domain_release(dom);
  dom = parse_domain("sierpinski-triangle", 3);
  ck_assert_int_eq(sqz_domain_layout_cells(dom, "block:16", &block1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "not larger than the side 8"));
  sqz_domain_release(dom);
  /* the largest levels: side just below 2^31, 64-bit cell counts */
  dom = parse_domain("#./##", 30);
  ck_assert_uint_eq(sqz_domain_side(dom), (uint64_t)1 << 30);
  ck_assert_uint_eq(sqz_domain_cells(dom), 205891132094649ull);
  sqz_domain_release(dom);
  dom = parse_domain("sierpinski-carpet", 19);
  ck_assert_uint_eq(sqz_domain_cells(dom), (uint64_t)1 << 57);
  sqz_domain_release(dom);
}
END_TEST

/* Every parse error names the bad part. */
START_TEST(test_parse_errors) {
  static const struct {
    const char *spec;
    int status;
    const char *says;
  } cases[] = {
      {"fractal:sierpinski-trinagle:3", SQZ_ERR_PARSE, "unknown fractal 'sierpinski-trinagle'"},
      {"fractal:##./#.:2", SQZ_ERR_PARSE, "not square"},
      {"fractal:##./#./###:2", SQZ_ERR_PARSE, "row 2 has 2 characters, expected 3"},
      {"fractal:#.#/##/###:2", SQZ_ERR_PARSE, "row 2 has 2"},
      {"fractal:#./##/#.:2", SQZ_ERR_PARSE, "more than 2 rows"},
      {"fractal:.../.../...:2", SQZ_ERR_PARSE, "no replica"},
      {"fractal:#../###:2", SQZ_ERR_PARSE, "2 rows of 3"},
      {"fractal:../..:2", SQZ_ERR_PARSE, "no replica"},
      {"fractal:##/##:2", SQZ_ERR_PARSE, "all replicas"},
      {"fractal:#x/##:2", SQZ_ERR_PARSE, "character 'x' in row 1, column 2"},
      {"fractal:#:2", SQZ_ERR_PARSE, "s >= 2"},
      {"fractal:#./##:0", SQZ_ERR_PARSE, "level '0' must be >= 1"},
      {"fractal:#./##:abc", SQZ_ERR_PARSE, "level 'abc'"},
      {"fractal:#./##:-3", SQZ_ERR_PARSE, "level '-3'"},
      {"fractal:#./##:", SQZ_ERR_PARSE, "missing level"},
      {"fractal:#./##:31", SQZ_ERR_TOO_LARGE, "level 31 is too large"},
      {"fractal:sierpinski-carpet:20", SQZ_ERR_TOO_LARGE, "level 20 is too large"},
      {"fractal:vicsek-cross:99999999999999999999", SQZ_ERR_TOO_LARGE, "too large"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqz_domain *dom = (sqz_domain *)1;
    int st = sqz_domain_parse(NULL, cases[i].spec, &dom);
    ck_assert_msg(st == cases[i].status, "%s -> %s (%s), expected %s", cases[i].spec, sqz_status_name(st),
                  sqz_last_error(NULL), sqz_status_name(cases[i].status));
    ck_assert_ptr_null(dom);
    ck_assert_msg(strstr(sqz_last_error(NULL), cases[i].says) != NULL, "%s: message '%s' lacks '%s'", cases[i].spec,
                  sqz_last_error(NULL), cases[i].says);
  }
  /* a side above SQZ_MAX_SCALE (the pattern alone is longer than a domain string may be) */
  char big[400] = "";
  for (int y = 0; y < 17; y++) strcat(big, y ? "/................." : "#................");
  sqz_fractal fr;
  uint64_t side, cells;
  ck_assert_int_eq(sqz__fractal_parse(NULL, big, "1", &fr, &side, &cells), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "side 17 exceeds"));
  /* the largest scale: a 16 x 16 pattern */
  big[0] = 0;
  for (int y = 0; y < 16; y++) strcat(big, y ? "/................" : "#...............");
  ck_assert_int_eq(sqz__fractal_parse(NULL, big, "7", &fr, &side, &cells), SQZ_OK);
  ck_assert(fr.s == 16 && fr.k == 1 && side == (1u << 28) && cells == 1 && strcmp(fr.name, big) == 0);
  /* the well-known names and their tables */
  sqz_domain *dom = parse_domain("vicsek-saltire", 2);
  ck_assert(dom->fr.s == 3 && dom->fr.k == 5 && dom->fr.hl[2] == 2 && dom->fr.hl[3] == 0 && dom->fr.hnu[4] == 2);
  ck_assert_uint_eq(sqz_domain_cells(dom), 25);
  sqz_domain_release(dom);
  dom = parse_domain("#./##", 3);
  ck_assert_str_eq(sqz_domain_spec(dom), "fractal:#./##:3");
  ck_assert_uint_eq(sqz_domain_side(dom), 8);
  sqz_domain_release(dom);
}
END_TEST

int main(void) {
  Suite *s = suite_create("fractal_maps");
  TCase *tc = tcase_create("maps");
  tcase_add_test(tc, test_oracle_vectors);
  tcase_add_test(tc, test_layout_bijections);
  tcase_add_test(tc, test_tiles_in_digit_order);
  tcase_add_test(tc, test_sizes_and_mrf);
  tcase_add_test(tc, test_parse_errors);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
