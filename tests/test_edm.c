/* labels: opencl */
/* test_edm.c — sqz_edm on both backends: reference distances, every map bit-identical to the cpu backend, bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simplex/simplex_plan.h"
#include "sqz_test.h"

static float *edm_run(const char *backend, const float *xy, uint64_t n, const char *map) {
  sqz_context *ctx = sqz_test_context(backend);
  float *out = malloc(sqz_tri(n) * sizeof *out);
  ck_assert_ptr_nonnull(out);
  SQZ_OK_OR_FAIL(ctx, sqz_edm(ctx, xy, n, map, out));
  double kernel_s = -1, wall_s = -1;
  SQZ_OK_OR_FAIL(ctx, sqz_context_timing(ctx, &kernel_s, &wall_s));
  ck_assert(kernel_s >= 0 && wall_s >= kernel_s * 0.5);
  sqz_context_release(ctx);
  return out;
}

/* Against the double-precision distances of tests/data/simplex_edm.txt. */
START_TEST(test_edm_reference) {
  FILE *f = fopen(sqz_test_data("simplex_edm.txt"), "r");
  ck_assert_ptr_nonnull(f);
  static char line[1 << 17];
  int records = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned n;
    int at = 0;
    if (sscanf(line, "edm %u%n", &n, &at) != 1) continue;
    float *xy = malloc(2 * n * sizeof *xy);
    double *want = malloc(sqz_tri(n) * sizeof *want);
    char *p = line + at;
    for (unsigned i = 0; i < 2 * n; i++) xy[i] = strtof(p, &p);
    p = strchr(p, ':');
    ck_assert_ptr_nonnull(p);
    p++;
    for (uint64_t i = 0; i < sqz_tri(n); i++) want[i] = strtod(p, &p);
    for (int b = 0; b < 2; b++) {
      float *got = edm_run(b ? "opencl" : "cpu", xy, n, NULL);
      for (uint64_t i = 0; i < sqz_tri(n); i++)
        ck_assert_msg(fabs(got[i] - want[i]) <= 1e-6 * (1.0 + want[i]), "n=%u entry %llu: %.9g, reference %.9g", n,
                      (unsigned long long)i, got[i], want[i]);
      free(got);
    }
    free(xy);
    free(want);
    records++;
  }
  fclose(f);
  ck_assert_int_ge(records, 5);
}
END_TEST

/* Every 2D map on the device gives exactly the cpu backend's floats. */
START_TEST(test_edm_maps_identical) {
  const uint64_t sizes[] = {1, 2, 17, 300, 1025};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    uint64_t n = sizes[s];
    float *xy = malloc(2 * n * sizeof *xy);
    uint64_t h = 12345;
    for (uint64_t i = 0; i < 2 * n; i++) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      xy[i] = (float)((double)(h >> 11) / 9007199254740992.0 * 2000.0 - 1000.0);
    }
    float *ref = edm_run("cpu", xy, n, NULL);
    const char *const *maps = sqz__simplex_maps(2);
    for (int m = 0; maps[m]; m++) {
      float *got = edm_run("opencl", xy, n, maps[m]);
      ck_assert_msg(memcmp(got, ref, sqz_tri(n) * sizeof *got) == 0, "n=%llu map %s differs from the cpu backend",
                    (unsigned long long)n, maps[m]);
      free(got);
    }
    free(ref);
    free(xy);
  }
}
END_TEST

START_TEST(test_edm_bad_input) {
  sqz_context *ctx = sqz_test_context("opencl");
  float xy[6] = {0, 0, 1, 1, 2, 2}, out[6];
  ck_assert_int_eq(sqz_edm(ctx, xy, 0, NULL, out), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_edm(ctx, xy, 3, "had3", out), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "had3"));
  xy[3] = NAN;
  ck_assert_int_eq(sqz_edm(ctx, xy, 3, NULL, out), SQZ_ERR_NON_FINITE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "point 1"));
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("edm");
  TCase *tc = tcase_create("edm");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_edm_reference);
  tcase_add_test(tc, test_edm_maps_identical);
  tcase_add_test(tc, test_edm_bad_input);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
