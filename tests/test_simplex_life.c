/* labels: host */
/* test_simplex_life.c — the cpu backend's simplex Life against the independent reference vectors, and PBM files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sqz_internal.h"
#include "sqz_test.h"

/* "B3/S23" (2D digits) or "B6/S5,6,7" (3D lists) from bit masks */
static void rule_text(int dims, uint32_t birth, uint32_t survive, char *out, size_t len) {
  size_t at = 0;
  for (int part = 0; part < 2; part++) {
    uint32_t mask = part ? survive : birth;
    at += (size_t)snprintf(out + at, len - at, "%s%c", part ? "/" : "", part ? 'S' : 'B');
    int first = 1;
    for (int c = 0; c <= 26; c++)
      if ((mask >> c) & 1u) {
        at += (size_t)snprintf(out + at, len - at, dims == 3 && !first ? ",%d" : "%d", c);
        first = 0;
      }
  }
}

static int hex_bit(const char *hex, uint64_t e) {
  size_t len = strlen(hex);
  uint64_t d = e / 4;
  if (d >= len) return 0;
  char c = hex[len - 1 - d];
  int v = c <= '9' ? c - '0' : c - 'a' + 10;
  return (v >> (e % 4)) & 1;
}

START_TEST(test_life_vectors) {
  FILE *f = fopen(sqz_test_data("simplex_life.txt"), "r");
  ck_assert_ptr_nonnull(f);
  static char line[1 << 16], hex[1 << 16];
  int records = 0;
  sqz_context *ctx = sqz_test_context("cpu");
  while (fgets(line, sizeof line, f)) {
    int dims;
    unsigned n, birth, survive;
    unsigned long long threshold, seed, steps, live;
    if (sscanf(line, "life %d %u %u %u %llu %llu %llu %llu %65535s", &dims, &n, &birth, &survive, &threshold, &seed,
               &steps, &live, hex) != 9)
      continue;
    char rule[128], spec[64];
    rule_text(dims, birth, survive, rule, sizeof rule);
    snprintf(spec, sizeof spec, "%s:%u", dims == 2 ? "triangle" : "tetrahedron", n);
    uint64_t cells = dims == 2 ? (uint64_t)n * n : (uint64_t)n * n * n;
    unsigned char *img = malloc(cells);
    for (int lay = 0; lay < 2; lay++) {
      sqz_domain *dom = NULL;
      sqz_field *fl = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, lay ? "compact" : "bb", &fl));
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(fl, (double)threshold / 4294967296.0, seed));
      SQZ_OK_OR_FAIL(ctx, sqz_life_step(fl, rule, steps));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(fl, img, cells));
      uint64_t got = 0;
      SQZ_OK_OR_FAIL(ctx, sqz_field_count(fl, &got));
      ck_assert_msg(got == live, "%s %s %llu steps: %llu live, reference %llu", spec, rule, steps,
                    (unsigned long long)got, live);
      for (uint64_t e = 0; e < cells; e++)
        ck_assert_msg(img[e] == hex_bit(hex, e), "%s %s layout %d: cell %llu differs from the reference", spec, rule,
                      lay, (unsigned long long)e);
      sqz_field_release(fl);
      sqz_domain_release(dom);
    }
    free(img);
    records++;
  }
  fclose(f);
  sqz_context_release(ctx);
  ck_assert_int_ge(records, 40);
}
END_TEST

/* A state survives a PBM round trip through either layout; a live cell outside the domain is
 * refused and named. */
START_TEST(test_pbm_round_trip) {
  const char *specs[] = {"triangle:21", "tetrahedron:9"};
  sqz_context *ctx = sqz_test_context("cpu");
  char path[] = "/tmp/sqz_simplex_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  for (int s = 0; s < 2; s++)
    for (int lay = 0; lay < 2; lay++) {
      sqz_domain *dom = NULL;
      sqz_field *a = NULL, *b = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, specs[s], &dom));
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, lay ? "compact" : "bb", &a));
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, lay ? "bb" : "compact", &b));
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.5, 9));
      SQZ_OK_OR_FAIL(ctx, sqz_field_save_pbm(a, path));
      SQZ_OK_OR_FAIL(ctx, sqz_field_load_pbm(b, path));
      uint64_t n = dom->side, cells = dom->dims == 2 ? n * n : n * n * n;
      unsigned char *x = malloc(cells), *y = malloc(cells);
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, x, cells));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, y, cells));
      ck_assert(memcmp(x, y, cells) == 0);
      uint64_t bad = dom->dims == 2 ? n - 1 : n * n - 1; /* (n-1, 0) or (n-1, n-1, 0): outside */
      x[bad] = 1;
      ck_assert_int_eq(sqz_field_write(b, x, cells), SQZ_ERR_OUTSIDE_DOMAIN);
      char cell[64];
      snprintf(cell, sizeof cell, "(%llu, %llu", (unsigned long long)(n - 1),
               (unsigned long long)(dom->dims == 2 ? 0 : n - 1));
      ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), cell));
      free(x);
      free(y);
      sqz_field_release(a);
      sqz_field_release(b);
      sqz_domain_release(dom);
    }
  unlink(path);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("simplex_life");
  TCase *tc = tcase_create("life");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_life_vectors);
  tcase_add_test(tc, test_pbm_round_trip);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
