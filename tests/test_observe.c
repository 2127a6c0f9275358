/* labels: host opencl */
/* test_observe.c — the observables API: item parsing, the observer of the step calls (rows every K steps and at the last, a failing observer ending the run at a consistent state), layout bits, and the opencl pass against the cpu backend's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

START_TEST(test_observe_parse) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_domain *carpet = NULL, *tet = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-carpet:3", &carpet));
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "tetrahedron:5", &tet));
  sqz_observable o;
  SQZ_OK_OR_FAIL(ctx, sqz_observable_parse(carpet, "m2@-0.5,2.25", &o));
  ck_assert(o.kind == SQZ_OBS_M2 && o.y == -0.5 && o.x == 2.25 && o.z == 0.0);
  SQZ_OK_OR_FAIL(ctx, sqz_observable_parse(tet, "probe@1,2,0", &o));
  ck_assert(o.kind == SQZ_OBS_PROBE && o.z == 1 && o.y == 2 && o.x == 0);
  SQZ_OK_OR_FAIL(ctx, sqz_observable_parse(tet, "com", &o));
  ck_assert_uint_eq(sqz_observable_width(&o, 3), 3);
  static const char *const bad[] = {"mass", "sum@1,2", "m2", "m2@", "m2@1", "m2@1,", "m2@1,2,3", "m2@a,1",
                                    "m2@1,inf", "probe@-1,0", "probe@1.5,0", "com@1,1", "m2@ 1,2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_int_eq(sqz_observable_parse(carpet, bad[i], &o), SQZ_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), bad[i]));
  }
  ck_assert_int_eq(sqz_observable_parse(carpet, "probe@13,13", &o), SQZ_ERR_INVALID_ARGUMENT); /* a hole */
  ck_assert_int_eq(sqz_observable_parse(carpet, "probe@0,27", &o), SQZ_ERR_INVALID_ARGUMENT);  /* outside */
  sqz_domain_release(carpet);
  sqz_domain_release(tet);
  sqz_context_release(ctx);
}
END_TEST

typedef struct {
  uint64_t at[16];
  double sum[16];
  int n, fail_at;
} rows;

static const sqz_observable items2[] = {{SQZ_OBS_SUM, 0, 0, 0}, {SQZ_OBS_COM, 0, 0, 0}, {SQZ_OBS_M2, 3, 8, 0}};

static int on_row(sqz_field *f, uint64_t done, void *user) {
  rows *r = user;
  double v[4];
  int st = sqz_field_observe(f, items2, 3, v);
  if (st != SQZ_OK) return st;
  r->at[r->n] = done;
  r->sum[r->n++] = v[3];
  return r->n == r->fail_at ? SQZ_ERR_INTERNAL : SQZ_OK;
}

START_TEST(test_observe_observer) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *f = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_F64, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_const(f, 0.0));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_cell(f, 3, 8, 0, 1.0));
  rows r = {.fail_at = 0};
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_observer(ctx, 4, on_row, &r));
  SQZ_OK_OR_FAIL(ctx, sqz_heat_step(f, 0.2, 10)); /* rows after 4, 8 and the last step, 10 */
  ck_assert_int_eq(r.n, 3);
  ck_assert(r.at[0] == 4 && r.at[1] == 8 && r.at[2] == 10);
  ck_assert(r.sum[0] > 0 && r.sum[1] > r.sum[0] && r.sum[2] > r.sum[1]); /* m2 about the source grows */
  double last[4];
  SQZ_OK_OR_FAIL(ctx, sqz_field_observe(f, items2, 3, last));
  ck_assert(last[3] == r.sum[2]);
  ck_assert(fabs(last[0] - 1.0) < 1e-14);
  /* a failing observer ends the call with its status, the field after the steps done */
  rows s = {.fail_at = 2};
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_observer(ctx, 3, on_row, &s));
  ck_assert_int_eq(sqz_heat_step(f, 0.2, 100), SQZ_ERR_INTERNAL);
  ck_assert(s.n == 2 && s.at[1] == 6);
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_observer(ctx, 0, NULL, NULL));
  sqz_field *g = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_F64, "bb");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_const(g, 0.0));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_cell(g, 3, 8, 0, 1.0));
  SQZ_OK_OR_FAIL(ctx, sqz_heat_step(g, 0.2, 16)); /* 10 + 6 steps in one call, no observer */
  double v[4];
  SQZ_OK_OR_FAIL(ctx, sqz_field_observe(g, items2, 3, v));
  ck_assert_int_eq(s.n, 2); /* removed: not called */
  ck_assert(fabs(v[3] - s.sum[1]) <= 1e-13 * v[3]);
  sqz_test_drop(g);
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_observe_bits) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *f = sqz_test_field(ctx, "triangle:40", SQZ_U8, "bits");
  sqz_field *g = sqz_test_field(ctx, "triangle:40", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.3, 4));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(g, 0.3, 4));
  const sqz_observable it[] = {{SQZ_OBS_SUM, 0, 0, 0}, {SQZ_OBS_NONZERO, 0, 0, 0}, {SQZ_OBS_MIN, 0, 0, 0},
                               {SQZ_OBS_MAX, 0, 0, 0}, {SQZ_OBS_PROBE, 7, 30, 0}};
  double a[5], b[5];
  SQZ_OK_OR_FAIL(ctx, sqz_field_observe(f, it, 5, a));
  SQZ_OK_OR_FAIL(ctx, sqz_field_observe(g, it, 5, b));
  ck_assert(memcmp(a, b, sizeof a) == 0 && a[0] > 0 && a[0] == a[1] && a[2] == 0 && a[3] == 1);
  const sqz_observable com = {SQZ_OBS_COM, 0, 0, 0};
  ck_assert_int_eq(sqz_field_observe(f, &com, 1, a), SQZ_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "layout bits"));
  sqz_test_drop(g);
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

/* Every layout of a fractal and a tetrahedron, one buffer and 3 parts: opencl against the cpu backend. */
static void observe_both(const char *spec, const char *layout, uint64_t parts, const sqz_observable *it, size_t n) {
  double v[2][16];
  const char *const backends[] = {"cpu", "opencl"};
  for (int b = 0; b < 2; b++) {
    sqz_context *ctx = sqz_test_context(backends[b]);
    sqz_domain *dom = NULL;
    sqz_field *f = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
    SQZ_OK_OR_FAIL(ctx, sqz_field_create_parts(dom, SQZ_F32, layout, parts, &f));
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(f, 9));
    SQZ_OK_OR_FAIL(ctx, sqz_field_observe(f, it, n, v[b]));
    sqz_field_release(f);
    sqz_domain_release(dom);
    sqz_context_release(ctx);
  }
  size_t width = 0;
  for (size_t i = 0; i < n; i++) width += sqz_observable_width(&it[i], strncmp(spec, "tetra", 5) == 0 ? 3 : 2);
  for (size_t i = 0; i < width; i++)
    ck_assert_msg(fabs(v[0][i] - v[1][i]) <= 1e-12 * fabs(v[0][i]), "%s %s parts %llu value %zu: cpu %.17g opencl %.17g",
                  spec, layout, (unsigned long long)parts, i, v[0][i], v[1][i]);
}

START_TEST(test_observe_backends) {
  const sqz_observable it2[] = {{SQZ_OBS_SUM, 0, 0, 0}, {SQZ_OBS_NONZERO, 0, 0, 0}, {SQZ_OBS_MIN, 0, 0, 0},
                                {SQZ_OBS_MAX, 0, 0, 0}, {SQZ_OBS_COM, 0, 0, 0},     {SQZ_OBS_M2, 2.5, -0.5, 0},
                                {SQZ_OBS_PROBE, 13, 13, 0}};
  static const char *const layouts[] = {"bb", "lambda", "block:9", "compact"};
  for (int l = 0; l < 4; l++)
    for (uint64_t parts = 1; parts <= 3; parts += 2) observe_both("fractal:vicsek-cross:3", layouts[l], parts, it2, 7);
  const sqz_observable it3[] = {{SQZ_OBS_SUM, 0, 0, 0}, {SQZ_OBS_COM, 0, 0, 0}, {SQZ_OBS_M2, 1, 2, 3},
                                {SQZ_OBS_PROBE, 1, 2, 3}};
  observe_both("tetrahedron:9", "bb", 1, it3, 4);
  observe_both("tetrahedron:9", "compact", 3, it3, 4);
}
END_TEST

int main(void) {
  Suite *s = suite_create("observe");
  TCase *tc = tcase_create("observe");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_observe_parse);
  tcase_add_test(tc, test_observe_observer);
  tcase_add_test(tc, test_observe_bits);
  tcase_add_test(tc, test_observe_backends);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
