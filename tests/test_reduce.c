/* test_reduce.c — counts and sums on the cpu and opencl backends against an exactly rounded reference. */
/* labels: host opencl */
/* Error bounds used (u = unit roundoff of the accumulation type, S = exact sum, A = sum |x|):
 *   pairwise:  |err| <= (2 log2 n + 16) u A — the device tree is at most 2 log2 n + 12 levels
 *              high (3 per 8-block, <= 2 log2(blocks) + 1 per work-item, log2(256) per group),
 *              the host combine is in long double, and the last rounding adds <= u |S|.
 *   Neumaier (double accumulator): within 2 ulp of the exactly rounded sum for the data here
 *              (condition numbers A/|S| far below 1/(n u)).
 *   Neumaier with a float accumulator: |err| <= 2 u |S| + 8 n u^2 A (Neumaier's bound).
 * The reference is Shewchuk's exact summation (as in CPython's math.fsum): the partials stay
 * a non-overlapping exact expansion of the sum, and the last step rounds half-to-even across
 * partials; it is checked against fsum's published vectors and an integer exact sum. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reduce_acc.h"
#include "sqz_test.h"

/* ---- exactly rounded reference ------------------------------------------------------------ */
static double ref_fsum(const double *x, size_t n) {
  double p[128];
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    size_t j = 0;
    for (size_t k = 0; k < m; k++) {
      double y = p[k];
      if (fabs(v) < fabs(y)) { double t = v; v = y; y = t; }
      const double hi = v + y, lo = y - (hi - v);
      if (lo != 0.0) p[j++] = lo;
      v = hi;
    }
    m = j;
    if (v != 0.0) {
      /* (a passing ck_assert writes to Check's pipe: too slow for every element) */
      if (!isfinite(v) || m == 128) ck_abort_msg("reference: non-finite or too many partials");
      p[m++] = v;
    }
  }
  double hi = 0.0, lo = 0.0;
  if (m > 0) {
    hi = p[--m];
    while (m > 0) {
      const double v = hi, y = p[--m];
      hi = v + y;
      lo = y - (hi - v);
      if (lo != 0.0) break;
    }
    if (m > 0 && ((lo < 0.0 && p[m - 1] < 0.0) || (lo > 0.0 && p[m - 1] > 0.0))) {
      const double y = lo * 2.0, v = hi + y;
      if (y == v - hi) hi = v;
    }
  }
  return hi;
}

/* Exact sum of x and of |x| (float32 data widen exactly). */
static double ref_fsum_f64(const double *x, size_t n, double *abs_sum) {
  double *d = malloc((n ? n : 1) * sizeof *d);
  ck_assert_ptr_nonnull(d);
  for (size_t i = 0; i < n; i++) d[i] = fabs(x[i]);
  *abs_sum = ref_fsum(d, n);
  free(d);
  return ref_fsum(x, n);
}

static double ref_fsum_f32(const float *x, size_t n, double *abs_sum) {
  double *d = malloc((n ? n : 1) * sizeof *d);
  ck_assert_ptr_nonnull(d);
  for (size_t i = 0; i < n; i++) d[i] = x[i];
  const double s = ref_fsum_f64(d, n, abs_sum);
  free(d);
  return s;
}

/* Distance in units in the last place (adjacent doubles are 1 apart, +0 == -0). */
static int64_t ord(double d) {
  int64_t i;
  memcpy(&i, &d, sizeof i);
  return i < 0 ? -(i & INT64_MAX) : i;
}
static int64_t ulps(double a, double b) {
  const int64_t d = ord(a) - ord(b);
  return d < 0 ? -d : d;
}

static uint64_t rng_state;
static uint64_t rng(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double rng_unit(void) { return (double)(rng() >> 11) * 0x1p-53; }

/* ---- checks --------------------------------------------------------------------------------- */
static sqz_context *open_ctx(int backend) { return sqz_test_context(backend ? "opencl" : "cpu"); }

static double sum_ok(sqz_context *ctx, sqz_type type, const void *data, uint64_t n, sqz_sum_method method) {
  double s = NAN;
  const int st = sqz_sum(ctx, type, data, n, method, &s);
  ck_assert_msg(st == SQZ_OK, "sqz_sum(type %d, n %llu, method %d): %s: %s", (int)type, (unsigned long long)n,
                (int)method, sqz_status_name(st), sqz_last_error(ctx));
  return s;
}

static uint64_t count_ok(sqz_context *ctx, sqz_type type, const void *data, uint64_t n) {
  uint64_t c = UINT64_MAX;
  const int st = sqz_count(ctx, type, data, n, &c);
  ck_assert_msg(st == SQZ_OK, "sqz_count(type %d, n %llu): %s: %s", (int)type, (unsigned long long)n,
                sqz_status_name(st), sqz_last_error(ctx));
  return c;
}

static void check_pairwise(double got, double exact, double abs_sum, uint64_t n, double u, const char *what) {
  const double bound = (2.0 * log2((double)(n > 1 ? n : 2)) + 16.0) * u * abs_sum;
  ck_assert_msg(fabs(got - exact) <= bound, "%s pairwise: got %.17g, exact %.17g, |err| %.3g > bound %.3g", what, got,
                exact, fabs(got - exact), bound);
}

static void check_neumaier(double got, double exact, const char *what) {
  ck_assert_msg(ulps(got, exact) <= 2, "%s Neumaier: got %.17g, exact %.17g (%lld ulp)", what, got, exact,
                (long long)ulps(got, exact));
}

/* Both methods on float64 data against the reference. */
static void check_f64(sqz_context *ctx, const double *x, uint64_t n, const char *what) {
  double a;
  const double exact = ref_fsum_f64(x, n, &a);
  check_pairwise(sum_ok(ctx, SQZ_F64, x, n, SQZ_SUM_PAIRWISE), exact, a, n, DBL_EPSILON / 2, what);
  check_neumaier(sum_ok(ctx, SQZ_F64, x, n, SQZ_SUM_NEUMAIER), exact, what);
}

/* Float32 data: pairwise accumulates in float, Neumaier in double (both backends on a device
 * with doubles, as PoCL and NVIDIA have). */
static void check_f32(sqz_context *ctx, const float *x, uint64_t n, const char *what) {
  double a;
  const double exact = ref_fsum_f32(x, n, &a);
  check_pairwise(sum_ok(ctx, SQZ_F32, x, n, SQZ_SUM_PAIRWISE), exact, a, n, FLT_EPSILON / 2, what);
  check_neumaier(sum_ok(ctx, SQZ_F32, x, n, SQZ_SUM_NEUMAIER), exact, what);
}

/* ---- the reference itself ------------------------------------------------------------------- */
START_TEST(test_reference) {
  static const struct { double x[8]; size_t n; double want; } v[] = {
      {{1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50}, 7, 1e-100},
      {{0x1p53, -0.5, -0x1p-54}, 3, 0x1p53 - 1.0},
      {{0x1p53, 1.0, 0x1p-100}, 3, 0x1p53 + 2.0},
      {{0x1p53 + 10.0, 1.0, 0x1p-100}, 3, 0x1p53 + 12.0},
      {{0x1p53 - 4.0, 0.5, 0x1p-54}, 3, 0x1p53 - 3.0},
      {{1e16, 1.0, -1e16}, 3, 1.0},
      {{0}, 0, 0.0},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    ck_assert_msg(ref_fsum(v[i].x, v[i].n) == v[i].want, "fsum vector %zu: %a", i, ref_fsum(v[i].x, v[i].n));
  double h[1000], tenth[10];
  for (int i = 0; i < 1000; i++) h[i] = 1.0 / (i + 1);
  for (int i = 0; i < 10; i++) tenth[i] = 0.1;
  ck_assert(ref_fsum(h, 1000) == 0x1.df11f45f4e61ap+2);
  ck_assert(ref_fsum(tenth, 10) == 1.0);
  /* fixed-point data k * 2^-40 has the exact sum (sum of k) * 2^-40, which int64 holds and
   * the int64 -> double conversion rounds correctly */
  enum { N = 100000 };
  double *x = malloc(N * sizeof *x);
  ck_assert_ptr_nonnull(x);
  rng_state = 7;
  for (int round = 0; round < 4; round++) {
    int64_t k = 0;
    for (int i = 0; i < N; i++) {
      const int64_t ki = (int64_t)(rng() >> (14 + 8 * round)) * ((rng() & 1) ? 1 : -1);
      k += ki;
      x[i] = ldexp((double)ki, -40);
    }
    ck_assert_msg(ref_fsum(x, N) == ldexp((double)k, -40), "round %d", round);
  }
  free(x);
}
END_TEST

/* ---- cases, each on the cpu (_i = 0) and the opencl (_i = 1) backend ------------------------ */
START_TEST(test_empty_and_one) {
  sqz_context *ctx = open_ctx(_i);
  for (sqz_type t = SQZ_U8; t <= SQZ_F64; t++) {
    ck_assert_uint_eq(count_ok(ctx, t, NULL, 0), 0);
    ck_assert(sum_ok(ctx, t, NULL, 0, SQZ_SUM_PAIRWISE) == 0.0);
    ck_assert(sum_ok(ctx, t, NULL, 0, SQZ_SUM_NEUMAIER) == 0.0);
  }
  const uint8_t u8 = 200;
  const int32_t i32 = -7;
  const float f32 = 1.1f;
  const double f64 = 0.1;
  const void *one[] = {NULL, &u8, &i32, &f32, &f64};
  const double want[] = {0, 200.0, -7.0, (double)1.1f, 0.1};
  for (sqz_type t = SQZ_U8; t <= SQZ_F64; t++) {
    ck_assert_uint_eq(count_ok(ctx, t, one[t], 1), 1);
    ck_assert(sum_ok(ctx, t, one[t], 1, SQZ_SUM_PAIRWISE) == want[t]);
    ck_assert(sum_ok(ctx, t, one[t], 1, SQZ_SUM_NEUMAIER) == want[t]);
  }
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_all_zero) {
  sqz_context *ctx = open_ctx(_i);
  enum { N = 100003 };
  double *d = calloc(N, sizeof *d);
  float *f = calloc(N, sizeof *f);
  ck_assert(d && f);
  for (sqz_type t = SQZ_U8; t <= SQZ_F64; t++) { /* zero bytes read as every type */
    const uint64_t n = (uint64_t)N * sizeof(double) / sqz_type_size(t);
    ck_assert_uint_eq(count_ok(ctx, t, d, n), 0);
    ck_assert(sum_ok(ctx, t, d, n, SQZ_SUM_PAIRWISE) == 0.0);
    ck_assert(sum_ok(ctx, t, d, n, SQZ_SUM_NEUMAIER) == 0.0);
  }
  for (int i = 0; i < N; i += 3) d[i] = -0.0, f[i] = -0.0f; /* negative zeros are zeros too */
  for (sqz_sum_method m = SQZ_SUM_PAIRWISE; m <= SQZ_SUM_NEUMAIER; m++) {
    ck_assert(sum_ok(ctx, SQZ_F64, d, N, m) == 0.0);
    ck_assert(sum_ok(ctx, SQZ_F32, f, N, m) == 0.0);
  }
  ck_assert_uint_eq(count_ok(ctx, SQZ_F64, d, N), 0);
  ck_assert_uint_eq(count_ok(ctx, SQZ_F32, f, N), 0);
  free(d);
  free(f);
  sqz_context_release(ctx);
}
END_TEST

/* Lengths around work-group and grid boundaries: small integers in every type make every sum
 * exact, so a lost or doubly counted element shows. */
START_TEST(test_lengths) {
  sqz_context *ctx = open_ctx(_i);
  static const uint64_t lens[] = {2, 3, 7, 8, 9, 31, 255, 256, 257, 2047, 2048, 2049, 4095, 65535, 65537,
                                  1000003};
  enum { MAX = 1000003 };
  uint8_t *u8 = malloc(MAX);
  int32_t *i32 = malloc(MAX * sizeof *i32);
  float *f32 = malloc(MAX * sizeof *f32);
  double *f64 = malloc(MAX * sizeof *f64);
  ck_assert(u8 && i32 && f32 && f64);
  rng_state = 11;
  for (int i = 0; i < MAX; i++) {
    i32[i] = (int32_t)(rng() % 7) - 3;
    u8[i] = (uint8_t)(i32[i] + 3);
    f32[i] = (float)i32[i];
    f64[i] = (double)i32[i];
  }
  for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
    const uint64_t n = lens[l];
    int64_t s = 0, su = 0;
    uint64_t nz = 0, nzu = 0;
    for (uint64_t i = 0; i < n; i++) {
      s += i32[i];
      su += u8[i];
      nz += i32[i] != 0;
      nzu += u8[i] != 0;
    }
    ck_assert_uint_eq(count_ok(ctx, SQZ_U8, u8, n), nzu);
    ck_assert_uint_eq(count_ok(ctx, SQZ_I32, i32, n), nz);
    ck_assert_uint_eq(count_ok(ctx, SQZ_F32, f32, n), nz);
    ck_assert_uint_eq(count_ok(ctx, SQZ_F64, f64, n), nz);
    for (sqz_sum_method m = SQZ_SUM_PAIRWISE; m <= SQZ_SUM_NEUMAIER; m++) {
      ck_assert_msg(sum_ok(ctx, SQZ_U8, u8, n, m) == (double)su, "u8 n=%llu", (unsigned long long)n);
      ck_assert_msg(sum_ok(ctx, SQZ_I32, i32, n, m) == (double)s, "i32 n=%llu", (unsigned long long)n);
      ck_assert_msg(sum_ok(ctx, SQZ_F32, f32, n, m) == (double)s, "f32 n=%llu m=%d", (unsigned long long)n, m);
      ck_assert_msg(sum_ok(ctx, SQZ_F64, f64, n, m) == (double)s, "f64 n=%llu m=%d", (unsigned long long)n, m);
    }
  }
  free(u8);
  free(i32);
  free(f32);
  free(f64);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_cancellation) {
  sqz_context *ctx = open_ctx(_i);
  enum { K = 100000 };
  double *d = malloc(3 * K * sizeof *d);
  float *f = malloc(3 * K * sizeof *f);
  ck_assert(d && f);
  for (int i = 0; i < K; i++) {
    d[3 * i] = 1e16, d[3 * i + 1] = 1.0, d[3 * i + 2] = -1e16;
    f[3 * i] = 1e8f, f[3 * i + 1] = 1.0f, f[3 * i + 2] = -1e8f;
  }
  check_f64(ctx, d, 3 * K, "f64 (1e16, 1, -1e16)");
  ck_assert(sum_ok(ctx, SQZ_F64, d, 3 * K, SQZ_SUM_NEUMAIER) == (double)K);
  check_f32(ctx, f, 3 * K, "f32 (1e8, 1, -1e8)");
  ck_assert(sum_ok(ctx, SQZ_F32, f, 3 * K, SQZ_SUM_NEUMAIER) == (double)K);
  /* Kahan's algorithm loses these; Neumaier's does not */
  const double big[] = {1.0, 1e100, 1.0, -1e100};
  ck_assert(sum_ok(ctx, SQZ_F64, big, 4, SQZ_SUM_NEUMAIER) == 2.0);
  /* shuffled: the big terms meet in arbitrary places of the trees */
  rng_state = 3;
  for (int i = 3 * K - 1; i > 0; i--) {
    const int j = (int)(rng() % (uint64_t)(i + 1));
    double t = d[i]; d[i] = d[j]; d[j] = t;
    float g = f[i]; f[i] = f[j]; f[j] = g;
  }
  check_f64(ctx, d, 3 * K, "f64 shuffled");
  check_f32(ctx, f, 3 * K, "f32 shuffled");
  free(d);
  free(f);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_dynamic_range) {
  sqz_context *ctx = open_ctx(_i);
  enum { N = 200001 };
  double *d = malloc(N * sizeof *d);
  float *f = malloc(N * sizeof *f);
  ck_assert(d && f);
  rng_state = 5;
  for (int i = 0; i < N; i++) {
    const double sign = (rng() & 1) ? 1.0 : -1.0;
    d[i] = sign * ldexp(1.0 + rng_unit(), (int)(rng() % 601) - 300);
    f[i] = (float)(sign * ldexp(1.0 + rng_unit(), (int)(rng() % 121) - 60));
  }
  check_f64(ctx, d, N, "f64 2^-300..2^300");
  check_f32(ctx, f, N, "f32 2^-60..2^60");
  free(d);
  free(f);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_many) {
  sqz_context *ctx = open_ctx(_i);
  enum { N = 10000019 };
  double *d = malloc((size_t)N * sizeof *d);
  float *f = malloc((size_t)N * sizeof *f);
  ck_assert(d && f);
  rng_state = 9;
  for (int i = 0; i < N; i++) {
    d[i] = rng_unit();
    f[i] = (float)rng_unit();
  }
  check_f64(ctx, d, N, "f64 1e7 uniform");
  check_f32(ctx, f, N, "f32 1e7 uniform");
  for (int i = 0; i < N; i += 2) d[i] = -d[i] * 0.999; /* partial cancellation */
  check_f64(ctx, d, N, "f64 1e7 alternating");
  free(d);
  free(f);
  sqz_context_release(ctx);
}
END_TEST

/* More than 2^24 elements (beyond a float counter), and what "non-zero" means for floats. */
START_TEST(test_count) {
  sqz_context *ctx = open_ctx(_i);
  const uint64_t n = ((uint64_t)1 << 25) + 3;
  uint8_t *u = malloc(n);
  ck_assert_ptr_nonnull(u);
  rng_state = 13;
  uint64_t want = 0;
  for (uint64_t i = 0; i < n; i++) {
    u[i] = (rng() % 3 == 0) ? (uint8_t)(1 + i % 255) : 0;
    want += u[i] != 0;
  }
  ck_assert_uint_eq(count_ok(ctx, SQZ_U8, u, n), want);
  free(u);
  const float f[] = {0.0f, -0.0f, 1.0f, NAN, INFINITY, -2.0f, 1e-45f, 0.0f};
  const double d[] = {0.0, -0.0, 1.0, NAN, -INFINITY, 5e-324, 0.0};
  const int32_t i32[] = {0, -1, INT32_MIN, 5, 0};
  ck_assert_uint_eq(count_ok(ctx, SQZ_F32, f, 8), 5);
  ck_assert_uint_eq(count_ok(ctx, SQZ_F64, d, 7), 4);
  ck_assert_uint_eq(count_ok(ctx, SQZ_I32, i32, 5), 3);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_integer_sums) {
  sqz_context *ctx = open_ctx(_i);
  enum { N = 1000001 };
  uint8_t *u = malloc(N);
  int32_t *v = malloc(N * sizeof *v);
  ck_assert(u && v);
  rng_state = 17;
  int64_t su = 0, sv = 0;
  for (int i = 0; i < N; i++) {
    u[i] = (uint8_t)rng();
    v[i] = i == 0 ? INT32_MIN : (int32_t)(uint32_t)rng();
    su += u[i];
    sv += v[i];
  }
  ck_assert(sum_ok(ctx, SQZ_U8, u, N, SQZ_SUM_PAIRWISE) == (double)su);
  ck_assert(sum_ok(ctx, SQZ_I32, v, N, SQZ_SUM_NEUMAIER) == (double)sv);
  free(u);
  free(v);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_non_finite) {
  sqz_context *ctx = open_ctx(_i);
  enum { N = 5000 };
  double *d = malloc(N * sizeof *d);
  float *f = malloc(N * sizeof *f);
  ck_assert(d && f);
  const double bad[] = {NAN, INFINITY, -INFINITY};
  const uint64_t at[] = {0, N / 2 + 1, N - 1};
  for (size_t b = 0; b < 3; b++)
    for (size_t a = 0; a < 3; a++)
      for (sqz_sum_method m = SQZ_SUM_PAIRWISE; m <= SQZ_SUM_NEUMAIER; m++) {
        for (int i = 0; i < N; i++) d[i] = f[i] = (float)(i % 10);
        d[at[a]] = bad[b];
        f[at[a]] = (float)bad[b];
        double s = 0.0;
        ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, d, N, m, &s), SQZ_ERR_NON_FINITE);
        ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "NaN"));
        ck_assert_int_eq(sqz_sum(ctx, SQZ_F32, f, N, m, &s), SQZ_ERR_NON_FINITE);
      }
  for (int i = 0; i < N; i++) d[i] = 1.0;
  d[3] = INFINITY, d[N - 3] = -INFINITY; /* inf - inf: still a non-finite input, not overflow */
  double s = 0.0;
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, d, N, SQZ_SUM_NEUMAIER, &s), SQZ_ERR_NON_FINITE);
  free(d);
  free(f);
  sqz_context_release(ctx);
}
END_TEST

/* Finite input whose sum overflows: float32 pairwise overflows its float accumulator, while
 * Neumaier accumulates float32 in double; float64 overflows either way. */
START_TEST(test_overflow) {
  sqz_context *ctx = open_ctx(_i);
  const float f[] = {3e38f, 3e38f, 1.0f};
  const double d[] = {1.7e308, 1.7e308};
  double s = 0.0;
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F32, f, 3, SQZ_SUM_PAIRWISE, &s), SQZ_ERR_TOO_LARGE);
  ck_assert(sum_ok(ctx, SQZ_F32, f, 3, SQZ_SUM_NEUMAIER) == 2.0 * (double)3e38f + 1.0);
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, d, 2, SQZ_SUM_PAIRWISE, &s), SQZ_ERR_TOO_LARGE);
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, d, 2, SQZ_SUM_NEUMAIER, &s), SQZ_ERR_TOO_LARGE);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_invalid) {
  sqz_context *ctx = open_ctx(_i);
  const double d[2] = {1, 2};
  double s;
  uint64_t c;
  ck_assert_int_eq(sqz_sum(NULL, SQZ_F64, d, 2, SQZ_SUM_PAIRWISE, &s), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_count(NULL, SQZ_F64, d, 2, &c), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, d, 2, SQZ_SUM_PAIRWISE, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_count(ctx, SQZ_F64, d, 2, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_sum(ctx, (sqz_type)0, d, 2, SQZ_SUM_PAIRWISE, &s), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_count(ctx, (sqz_type)9, d, 2, &c), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, d, 2, (sqz_sum_method)7, &s), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "method 7"));
  ck_assert_int_eq(sqz_sum(ctx, SQZ_F64, NULL, 2, SQZ_SUM_PAIRWISE, &s), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_count(NULL, &c), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_sum(NULL, SQZ_SUM_NEUMAIER, &s), SQZ_ERR_INVALID_ARGUMENT);
  sqz_context_release(ctx);
}
END_TEST

/* Kernel time and wall time of the last operation. */
START_TEST(test_timing) {
  sqz_context *ctx = open_ctx(_i);
  enum { N = 1 << 20 };
  double *d = malloc(N * sizeof *d);
  ck_assert_ptr_nonnull(d);
  for (int i = 0; i < N; i++) d[i] = i;
  sum_ok(ctx, SQZ_F64, d, N, SQZ_SUM_NEUMAIER);
  double k = -1, w = -1;
  ck_assert_int_eq(sqz_context_timing(ctx, &k, &w), SQZ_OK);
  ck_assert_msg(k > 0.0 && w >= k, "kernel %g s, wall %g s", k, w);
  free(d);
  sqz_context_release(ctx);
}
END_TEST

/* Fields: the reductions run over the storage buffer, whose non-domain cells are 0, so every
 * layout gives the count and the sum of the domain cells. */
static void check_field(sqz_context *ctx, const char *spec, const char *layout, sqz_type type) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, type, layout, &f));
  const uint64_t side = sqz_domain_side(dom), dims = (uint64_t)sqz_domain_dims(dom);
  const uint64_t n = dims == 3 ? side * side * side : side * side;
  double *x = calloc(n, sizeof *x);
  void *emb = calloc(n, sizeof(double));
  ck_assert(x && emb);
  rng_state = 23;
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t px = i % side, py = i / side % side, pz = dims == 3 ? i / side / side : 0;
    if (!sqz_domain_contains(dom, px, py, pz)) continue;
    const double v = (i % 3 == 0) ? 1e12 * (rng_unit() - 0.5) : rng_unit(); /* cancellation */
    if (type == SQZ_U8) ((uint8_t *)emb)[i] = (uint8_t)(rng() % 3 == 0 ? 0 : 1 + rng() % 200);
    else if (type == SQZ_F32) ((float *)emb)[i] = (float)v;
    else ((double *)emb)[i] = v;
    x[i] = type == SQZ_U8 ? ((uint8_t *)emb)[i] : type == SQZ_F32 ? (double)(float)v : v;
  }
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, emb, n * sqz_type_size(type)));
  uint64_t want = 0;
  for (uint64_t i = 0; i < n; i++) want += x[i] != 0.0;
  ck_assert_uint_gt(want, 0);
  uint64_t got = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &got));
  ck_assert_msg(got == want, "%s %s: count %llu, want %llu", spec, layout, (unsigned long long)got,
                (unsigned long long)want);
  double a, pw = NAN, nm = NAN;
  const double exact = ref_fsum_f64(x, n, &a);
  SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_PAIRWISE, &pw));
  SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_NEUMAIER, &nm));
  if (type == SQZ_U8) {
    ck_assert(pw == exact && nm == exact);
  } else {
    check_pairwise(pw, exact, a, n, type == SQZ_F32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2, spec);
    check_neumaier(nm, exact, spec);
  }
  free(x);
  free(emb);
  sqz_field_release(f);
  sqz_domain_release(dom);
}

START_TEST(test_fields) {
  sqz_context *ctx = open_ctx(_i);
  static const char *const layouts2[] = {"bb", "compact"};
  static const char *const layoutsf[] = {"bb", "lambda", "block:3", "compact"};
  for (int l = 0; l < 2; l++) {
    check_field(ctx, "triangle:301", layouts2[l], SQZ_F64);
    check_field(ctx, "triangle:301", layouts2[l], SQZ_U8);
    check_field(ctx, "tetrahedron:37", layouts2[l], SQZ_F32);
  }
  for (int l = 0; l < 4; l++) {
    check_field(ctx, "fractal:sierpinski-carpet:4", layoutsf[l], SQZ_F64);
    check_field(ctx, "fractal:sierpinski-carpet:4", layoutsf[l], SQZ_U8);
  }
  sqz_context_release(ctx);
}
END_TEST

/* sqz_life_check counts the cells above 1 on the device (SQZ_RED_ABOVE1): a random 0/1 state passes;
 * with a 2 at the middle domain cell and a 200 at the last one it names the 2 (.npy order). */
static void check_life(sqz_context *ctx, const char *spec, const char *layout, uint64_t parts) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create_parts(dom, SQZ_U8, layout, parts, &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 11));
  SQZ_OK_OR_FAIL(ctx, sqz_life_check(f));
  uint64_t n = sqz_domain_side(dom), e = sqz_domain_dims(dom) == 3 ? n * n * n : n * n, cells = 0, mid = 0, last = 0;
  unsigned char *a = malloc(e);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, a, e));
  for (uint64_t i = 0; i < e; i++)
    if (sqz_domain_contains(dom, i % n, i / n % n, i / (n * n))) last = i, cells++;
  for (uint64_t i = 0, k = 0; i < e; i++)
    if (sqz_domain_contains(dom, i % n, i / n % n, i / (n * n)) && k++ == cells / 2) mid = i;
  a[mid] = 2;
  a[last] = 200;
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, a, e));
  ck_assert_int_eq(sqz_life_check(f), SQZ_ERR_INVALID_ARGUMENT);
  char want[160];
  if (sqz_domain_dims(dom) == 3)
    snprintf(want, sizeof want, "%s: cell %llu (x %llu, y %llu, z %llu) holds 2;", spec, (unsigned long long)mid,
             (unsigned long long)(mid % n), (unsigned long long)(mid / n % n), (unsigned long long)(mid / (n * n)));
  else
    snprintf(want, sizeof want, "%s: cell %llu (x %llu, y %llu) holds 2;", spec, (unsigned long long)mid,
             (unsigned long long)(mid % n), (unsigned long long)(mid / n));
  ck_assert_msg(strstr(sqz_last_error(ctx), want), "%s %s %llu parts: %s (want %s)", spec, layout,
                (unsigned long long)parts, sqz_last_error(ctx), want);
  free(a);
  sqz_field_release(f);
  sqz_domain_release(dom);
}

START_TEST(test_life_check) {
  sqz_context *ctx = open_ctx(_i);
  static const char *const layoutsf[] = {"bb", "lambda", "block:3", "compact"};
  for (uint64_t parts = 1; parts <= 3; parts += 2) {
    check_life(ctx, "triangle:301", "compact", parts);
    check_life(ctx, "triangle:301", "bb", parts);
    check_life(ctx, "tetrahedron:37", "compact", parts);
    for (int l = 0; l < 4; l++) check_life(ctx, "fractal:sierpinski-carpet:4", layoutsf[l], parts);
  }
  sqz_context_release(ctx);
}
END_TEST

/* ---- opencl only ------------------------------------------------------------------------------ */
/* The compensated-float path (what a device without cl_khr_fp64 runs for float32). */
START_TEST(test_float_accumulator) {
  sqz_context *ctx = open_ctx(1);
  enum { N = 1000003 };
  float *f = malloc(N * sizeof *f);
  ck_assert_ptr_nonnull(f);
  rng_state = 19;
  for (int i = 0; i < N; i++) f[i] = (float)(rng_unit() * ((i % 4 == 0) ? -0.5 : 1.0));
  double a, s = NAN;
  const double exact = ref_fsum_f32(f, N, &a);
  ck_assert_int_eq(sqz__sum_mode(ctx, SQZ_F32, f, N, SQZ_SUM_NEUMAIER, SQZ_RED_ACC_FLOAT, &s), SQZ_OK);
  const double u = FLT_EPSILON / 2, bound = 2 * u * fabs(exact) + 8.0 * N * u * u * a;
  ck_assert_msg(fabs(s - exact) <= bound, "float Neumaier: got %.17g exact %.17g |err| %.3g > %.3g", s, exact,
                fabs(s - exact), bound);
  free(f);
  sqz_context_release(ctx);
}
END_TEST

/* Host arrays larger than one device allocation are reduced chunk by chunk. */
START_TEST(test_chunks) {
  sqz_context *ctx = open_ctx(1);
  enum { N = 100000 };
  double *d = malloc(N * sizeof *d);
  ck_assert_ptr_nonnull(d);
  int64_t s = 0;
  uint64_t nz = 0;
  for (int i = 0; i < N; i++) {
    d[i] = (double)(i % 13) - 6.0;
    s += i % 13 - 6;
    nz += i % 13 != 6;
  }
  ctx->max_alloc = 4096; /* 512 doubles per buffer */
  ck_assert_uint_eq(count_ok(ctx, SQZ_F64, d, N), nz);
  ck_assert(sum_ok(ctx, SQZ_F64, d, N, SQZ_SUM_PAIRWISE) == (double)s);
  ck_assert(sum_ok(ctx, SQZ_F64, d, N, SQZ_SUM_NEUMAIER) == (double)s);
  free(d);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("reduce");
  TCase *host = tcase_create("host");
  tcase_add_test(host, test_reference);
  suite_add_tcase(s, host);
  TCase *both = tcase_create("backends");
  tcase_set_timeout(both, 600);
  tcase_add_loop_test(both, test_empty_and_one, 0, 2);
  tcase_add_loop_test(both, test_all_zero, 0, 2);
  tcase_add_loop_test(both, test_lengths, 0, 2);
  tcase_add_loop_test(both, test_cancellation, 0, 2);
  tcase_add_loop_test(both, test_dynamic_range, 0, 2);
  tcase_add_loop_test(both, test_many, 0, 2);
  tcase_add_loop_test(both, test_count, 0, 2);
  tcase_add_loop_test(both, test_integer_sums, 0, 2);
  tcase_add_loop_test(both, test_non_finite, 0, 2);
  tcase_add_loop_test(both, test_overflow, 0, 2);
  tcase_add_loop_test(both, test_invalid, 0, 2);
  tcase_add_loop_test(both, test_timing, 0, 2);
  tcase_add_loop_test(both, test_fields, 0, 2);
  tcase_add_loop_test(both, test_life_check, 0, 2);
  tcase_add_test(both, test_float_accumulator);
  tcase_add_test(both, test_chunks);
  suite_add_tcase(s, both);
  return sqz_test_run(s);
}
