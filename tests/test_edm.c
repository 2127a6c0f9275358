/* labels: opencl */
/* test_edm.c — sqz_edm on both backends: reference distances, every map bit-identical to the cpu backend, bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simplex/simplex_plan.h"
#include "sqz_common.h"
#include "sqz_edm.h"
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

/* Distance between float bits a and b in units in the last place (both finite and non-negative). */
static uint64_t ulps_apart(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  return ia > ib ? (uint64_t)((int64_t)ia - ib) : (uint64_t)((int64_t)ib - ia);
}

/* |got - exact| within `ulps` units in the last place of the float around exact (exact in double). */
static int within_ulps(float got, double exact, int ulps) {
  if (!isfinite(got)) return 0;
  float near = (float)exact, lo = near, hi = near;
  for (int i = 0; i < ulps; i++) {
    lo = nextafterf(lo, 0.0f);
    hi = nextafterf(hi, INFINITY);
  }
  return got >= lo && got <= hi;
}

/* The exact distance of points i and j, in double (exact differences and squares of floats need
 * no more range than double has; hypot rounds once). */
static double oracle(const float *xy, uint64_t i, uint64_t j) {
  return hypot((double)xy[2 * i] - (double)xy[2 * j], (double)xy[2 * i + 1] - (double)xy[2 * j + 1]);
}

/* Points far beyond sqrt(FLT_MAX) apart, and closer than sqrt(FLT_MIN): the distances float holds
 * come out finite and non-zero, within 1 ulp of the exact ones, the same on both backends. */
START_TEST(test_edm_extreme_scales) {
  static const float sets[][8] = {
      {0.0f, 0.0f, 1e20f, 0.0f, -1e20f, 3e19f, 5e19f, -2e20f},          /* 1e20 apart */
      {0.0f, 0.0f, 1e-30f, 0.0f, 3e-30f, -2e-30f, -1e-30f, 4e-31f},     /* 1e-30 apart */
      {-1.5e38f, 0.0f, 1.5e38f, 0.0f, 0.0f, 1e38f, 1e-38f, -1e-38f},    /* up to 3e38 apart, below FLT_MAX */
      {1.0f, 1.0f, 1.0f + 1.1920929e-7f, 1.0f, 1e-40f, 0.0f, 0.0f, 3e-45f}, /* one ulp apart; subnormals */
  };
  for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
    const float *xy = sets[s];
    float *cpu = edm_run("cpu", xy, 4, NULL), *cl = edm_run("opencl", xy, 4, NULL);
    for (uint64_t y = 0; y < 4; y++)
      for (uint64_t x = 0; x <= y; x++) {
        uint64_t i = sqz_tri(y) + x;
        double want = oracle(xy, x, y);
        ck_assert_msg(within_ulps(cpu[i], want, 1), "set %zu, points %llu and %llu: cpu %.9g, exact %.17g", s,
                      (unsigned long long)x, (unsigned long long)y, cpu[i], want);
        ck_assert_msg(want == 0.0 || cpu[i] > 0.0f, "set %zu: distance %.17g came out 0", s, want);
        ck_assert_msg(memcmp(&cpu[i], &cl[i], 4) == 0, "set %zu, points %llu and %llu: cpu %.9g, opencl %.9g", s,
                      (unsigned long long)x, (unsigned long long)y, cpu[i], cl[i]);
      }
    free(cpu);
    free(cl);
  }
}
END_TEST

/* A distance beyond FLT_MAX (points 3e38 apart in both coordinates: 4.2e38; or 6e38 apart on one
 * axis, where the float difference itself overflows) is SQZ_ERR_NON_FINITE naming the pair. */
START_TEST(test_edm_beyond_float) {
  static const float sets[][6] = {
      {1.0f, 2.0f, 0.0f, 0.0f, 3e38f, 3e38f},
      {0.0f, 0.0f, -3e38f, 0.0f, 3e38f, 0.0f},
  };
  static const char *const pair[] = {"points 0 and 2", "points 1 and 2"};
  for (int b = 0; b < 2; b++) {
    sqz_context *ctx = sqz_test_context(b ? "opencl" : "cpu");
    for (size_t s = 0; s < 2; s++) {
      float out[6];
      ck_assert_int_eq(sqz_edm(ctx, sets[s], 3, NULL, out), SQZ_ERR_NON_FINITE);
      ck_assert_msg(strstr(sqz_last_error(ctx), pair[s]) != NULL, "%s: '%s' does not name %s",
                    sqz_context_backend(ctx), sqz_last_error(ctx), pair[s]);
    }
    sqz_context_release(ctx);
  }
}
END_TEST

/* n points whose coordinate i is pick(i, u, h) for the i-th state h of an LCG and u = h in [0, 1). */
static float *random_points(uint64_t n, uint64_t h, float (*pick)(uint64_t i, double u, uint64_t h)) {
  float *xy = malloc(2 * n * sizeof *xy);
  ck_assert_ptr_nonnull(xy);
  for (uint64_t i = 0; i < 2 * n; i++) {
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    xy[i] = pick(i, (double)(h >> 11) / 9007199254740992.0, h);
  }
  return xy;
}

static float mixed_magnitudes(uint64_t i, double u, uint64_t h) {
  return (float)(i % 3 ? u * 2000.0 - 1000.0 : ldexp(u, (int)(h % 40) - 20));
}

static float extreme_scales(uint64_t i, double u, uint64_t h) {
  u -= 0.5;
  return (float)(i < 40 ? u * 4e20 : i < 80 ? u * 4e-30 : i < 120 ? u * 6e37 : u * 2000.0);
}

/* Ordinary points: every distance within 1 ulp of the exact one, on both backends. */
START_TEST(test_edm_within_one_ulp) {
  const uint64_t n = 400;
  float *xy = random_points(n, 777, mixed_magnitudes);
  for (int b = 0; b < 2; b++) {
    float *got = edm_run(b ? "opencl" : "cpu", xy, n, NULL);
    for (uint64_t y = 0; y < n; y++)
      for (uint64_t x = 0; x <= y; x++) {
        double want = oracle(xy, x, y);
        float g = got[sqz_tri(y) + x];
        ck_assert_msg(within_ulps(g, want, 1), "%s, points %llu and %llu: %.9g, exact %.17g (%llu ulp from the nearest)",
                      b ? "opencl" : "cpu", (unsigned long long)x, (unsigned long long)y, g, want,
                      (unsigned long long)ulps_apart(g, (float)want));
      }
    free(got);
  }
  free(xy);
}
END_TEST

/* The float form (devices without fp64; SQZ_EDM_FP32=1 takes it anyway): the device kernel gives the
 * host's sqz_edm_dist32 bits, within 2 ulp of the exact distance, at ordinary and extreme scales. */
START_TEST(test_edm_float_form) {
  const uint64_t n = 200;
  float *xy = random_points(n, 4242, extreme_scales);
  setenv("SQZ_EDM_FP32", "1", 1);
  float *got = edm_run("opencl", xy, n, NULL);
  unsetenv("SQZ_EDM_FP32");
  for (uint64_t y = 0; y < n; y++)
    for (uint64_t x = 0; x <= y; x++) {
      float host = sqz_edm_dist32(xy[2 * x], xy[2 * x + 1], xy[2 * y], xy[2 * y + 1]), g = got[sqz_tri(y) + x];
      double want = oracle(xy, x, y);
      ck_assert_msg(memcmp(&host, &g, 4) == 0, "points %llu and %llu: device %.9g, host %.9g", (unsigned long long)x,
                    (unsigned long long)y, g, host);
      ck_assert_msg(within_ulps(g, want, 2), "points %llu and %llu: %.9g, exact %.17g", (unsigned long long)x,
                    (unsigned long long)y, g, want);
    }
  ck_assert(isinf(sqz_edm_dist32(-3e38f, 0.0f, 3e38f, 0.0f)) && isinf(sqz_edm_dist32(0.0f, 0.0f, 3e38f, 3e38f)));
  ck_assert(sqz_edm_dist32(0.0f, 0.0f, 0.0f, 0.0f) == 0.0f);
  free(got);
  free(xy);
}
END_TEST

int main(void) {
  Suite *s = suite_create("edm");
  TCase *tc = tcase_create("edm");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_edm_reference);
  tcase_add_test(tc, test_edm_maps_identical);
  tcase_add_test(tc, test_edm_bad_input);
  tcase_add_test(tc, test_edm_extreme_scales);
  tcase_add_test(tc, test_edm_beyond_float);
  tcase_add_test(tc, test_edm_within_one_ulp);
  tcase_add_test(tc, test_edm_float_form);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
