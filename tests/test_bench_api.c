/* test_bench_api.c — the public analysis (sqz.h) and benchmark entry points (sqz_bench.h) the CLI is built on, on the host. */
/* labels: host */
#include <string.h>

#include "sqz_bench.h"
#include "sqz_test.h"

START_TEST(map_stats) {
  sqz_domain *tri = NULL, *tet = NULL, *fr = NULL;
  uint32_t rho = 0;
  uint64_t launches = 0, launched = 0, useful = 0;
  SQZ_OK_OR_FAIL(NULL, sqz_domain_parse(NULL, "triangle:10", &tri));
  SQZ_OK_OR_FAIL(NULL, sqz_domain_parse(NULL, "tetrahedron:9", &tet));
  SQZ_OK_OR_FAIL(NULL, sqz_domain_parse(NULL, "fractal:sierpinski-carpet:2", &fr));
  SQZ_OK_OR_FAIL(NULL, sqz_domain_map_stats(tri, "bb", 0, &rho, &launches, &launched, &useful));
  ck_assert_uint_eq(rho, 16);
  ck_assert_uint_eq(launches, 1);
  ck_assert_uint_eq(launched, 256);
  ck_assert_uint_eq(useful, 55);
  SQZ_OK_OR_FAIL(NULL, sqz_domain_map_stats(tri, "rec", 4, &rho, NULL, &launched, NULL));
  ck_assert_uint_eq(rho, 4);
  ck_assert_uint_ge(launched, 55);
  SQZ_OK_OR_FAIL(NULL, sqz_domain_map_stats(tet, NULL, 0, NULL, NULL, NULL, &useful)); /* the default map */
  ck_assert_uint_eq(useful, 165);
  ck_assert_int_eq(sqz_domain_map_stats(tet, "had", 0, NULL, NULL, NULL, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "'had' is a 2D map"));
  ck_assert_int_eq(sqz_domain_map_stats(fr, "bb", 0, NULL, NULL, NULL, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_domain_map_stats(NULL, "bb", 0, NULL, NULL, NULL, NULL), SQZ_ERR_INVALID_ARGUMENT);
  sqz_domain_release(tri);
  sqz_domain_release(tet);
  sqz_domain_release(fr);
}
END_TEST

START_TEST(max_side) {
  uint64_t side = 0, max_alloc = 2147483648ull, gmem = 5597515776ull;
  SQZ_OK_OR_FAIL(NULL, sqz_simplex_max_side(2, "bb", 1, 2, max_alloc, gmem, &side));
  ck_assert_uint_eq(side, 46340); /* 46340^2 <= 2^31 < 46341^2 */
  SQZ_OK_OR_FAIL(NULL, sqz_simplex_max_side(2, "compact", 1, 2, max_alloc, gmem, &side));
  ck_assert_uint_eq(side, 65535); /* Tr(65535) <= 2^31 < Tr(65536) */
  SQZ_OK_OR_FAIL(NULL, sqz_simplex_max_side(3, "bb", 1, 1, 1000, 1000, &side));
  ck_assert_uint_eq(side, 10);
  ck_assert_int_eq(sqz_simplex_max_side(2, "lambda", 1, 2, max_alloc, gmem, &side), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_simplex_max_side(4, "bb", 1, 2, max_alloc, gmem, &side), SQZ_ERR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(msimplex) {
  sqz_msimplex_volume v;
  SQZ_OK_OR_FAIL(NULL, sqz_bench_msimplex(2, 0.5, 2.0, 0, &v));
  ck_assert_int_eq(v.m, 2);
  ck_assert_double_eq_tol(v.denom, 2.0, 1e-12);      /* 2^2 - 2 */
  ck_assert_double_eq_tol(v.gamma, 1.0, 1e-12);      /* log2 2 */
  ck_assert_double_eq_tol(v.limit_extra, 0.0, 1e-12); /* 2!/2 - 1 */
  ck_assert_uint_eq(v.n, 16);
  ck_assert_double_eq_tol(v.volume_set, 120.0, 1e-9);     /* (256 - 16) / 2 */
  ck_assert_double_eq_tol(v.volume_simplex, 136.0, 1e-9); /* C(17, 2) */
  ck_assert_double_eq_tol(v.extra, 120.0 / 136.0 - 1.0, 1e-12);
  ck_assert_int_eq(sqz_bench_msimplex(1, 0.5, 2.0, 0, &v), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "m = 1"));
  ck_assert_int_eq(sqz_bench_msimplex(2, 0.5, 2.0, 0, NULL), SQZ_ERR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(random_points) {
  float a[64], b[64];
  SQZ_OK_OR_FAIL(NULL, sqz_bench_random_points(32, 7, a));
  SQZ_OK_OR_FAIL(NULL, sqz_bench_random_points(32, 7, b));
  ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
  int distinct = 0;
  for (int i = 0; i < 64; i++) {
    ck_assert(a[i] >= 0.0f && a[i] < 1000.0f);
    distinct += i > 0 && a[i] != a[i - 1];
  }
  ck_assert_int_gt(distinct, 60);
  SQZ_OK_OR_FAIL(NULL, sqz_bench_random_points(32, 8, b));
  ck_assert_int_ne(memcmp(a, b, sizeof a), 0);
  ck_assert_int_eq(sqz_bench_random_points(1, 7, NULL), SQZ_ERR_INVALID_ARGUMENT);
}
END_TEST

/* The cpu backend: host memcpy bandwidth; the device-only workloads say why they do not run. */
START_TEST(cpu_backend) {
  sqz_context *ctx = sqz_test_context("cpu");
  double bw = -1;
  uint64_t used = 0, sum = 1;
  SQZ_OK_OR_FAIL(ctx, sqz_bench_copy_bandwidth(ctx, (uint64_t)1 << 20, &bw, &used));
  ck_assert_uint_eq(used, (uint64_t)1 << 20);
  ck_assert(bw > 0);
  ck_assert_int_eq(sqz_bench_copy_bandwidth(NULL, 0, &bw, &used), SQZ_ERR_INVALID_ARGUMENT);
  sqz_domain *tri = NULL, *fr = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "triangle:20", &tri));
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-triangle:5", &fr));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(tri, SQZ_U8, "compact", &f));
  ck_assert_int_eq(sqz_bench_simplex_touch(f, 0, 1), SQZ_ERR_UNSUPPORTED);
  ck_assert_int_eq(sqz_bench_fractal_maps(ctx, fr, 3, "mma", 0, 8, &sum, NULL), SQZ_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "cuda"));
  ck_assert_int_eq(sqz_bench_fractal_maps(ctx, fr, 3, "seq", 0, 8, &sum, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "mma or alu"));
  ck_assert_int_eq(sqz_bench_fractal_maps(ctx, fr, 6, "alu", 0, 8, &sum, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_bench_fractal_maps(ctx, tri, 0, "alu", 0, 8, &sum, NULL), SQZ_ERR_INVALID_ARGUMENT);
  sqz_field_release(f);
  sqz_domain_release(tri);
  sqz_domain_release(fr);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bench_api");
  TCase *host = tcase_create("host");
  tcase_add_test(host, map_stats);
  tcase_add_test(host, max_side);
  tcase_add_test(host, msimplex);
  tcase_add_test(host, random_points);
  tcase_add_test(host, cpu_backend);
  suite_add_tcase(s, host);
  return sqz_test_run(s);
}
