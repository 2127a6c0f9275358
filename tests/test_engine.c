/* test_engine.c — the engine report: the path a step ran and why the faster ones were skipped (sqz_field_engine), per backend, family, type and part count. */
/* labels: host opencl */
#include <check.h>
#include <string.h>

#include "core/sqz_internal.h"
#include "sqz_test.h"

/* Steps f once (Life on u8, heat on floats) and asserts the engine it reports and a piece of the skipped list
 * (NULL: the list is empty). */
static void expect_engine(sqz_context *ctx, sqz_field *f, const char *engine, const char *skipped_part) {
  const char *skipped = NULL;
  ck_assert_str_eq(sqz_field_engine(f, &skipped), "");
  ck_assert_str_eq(skipped, "");
  int st = sqz_field_type(f) == SQZ_U8 ? sqz_life_step(f, NULL, 3) : sqz_heat_step(f, 0.1, 3);
  SQZ_OK_OR_FAIL(ctx, st);
  ck_assert_str_eq(sqz_field_engine(f, &skipped), engine);
  if (!skipped_part) ck_assert_str_eq(skipped, "");
  else ck_assert_msg(strstr(skipped, skipped_part) != NULL, "skipped '%s' lacks '%s'", skipped, skipped_part);
}

static sqz_field *field(sqz_context *ctx, const char *spec, sqz_type t, const char *layout, uint64_t parts) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, parts ? sqz_field_create_parts(dom, t, layout, parts, &f) : sqz_field_create(dom, t, layout, &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 1));
  return f;
}

START_TEST(test_opencl) {
  sqz_context *ctx = sqz_test_context("opencl");
  struct {
    const char *spec, *layout;
    sqz_type type;
    uint64_t parts;
    const char *engine, *skipped;
  } cases[] = {
      {"fractal:sierpinski-triangle:7", "compact", SQZ_F32, 0, "fractal-tiles-generic",
       "fractal-boxes-life-u8: the update is heat, the word steps run built-in Life rules"},
      {"fractal:sierpinski-triangle:7", "bb", SQZ_U8, 0, "fractal-bb-generic", "the word steps take layouts compact and block"},
      {"fractal:sierpinski-triangle:7", "block:8", SQZ_U8, 0, "fractal-tiles-life-u8", "fractal-boxes-life-u8: the boxes step layout compact"},
      {"triangle:50", "compact", SQZ_U8, 0, "triangle-words-life-u8", NULL},
      {"triangle:50", "compact", SQZ_U8, 2, "triangle-rows-generic", "triangle-words-life-u8: a field in parts"},
      {"triangle:51", "bb", SQZ_F32, 0, "triangle-rows-generic", "triangle-words-life-u8: the update is heat"},
      {"tetrahedron:12", "bb", SQZ_F64, 0, ctx->is_gpu ? "simplex-map-generic" : "tetrahedron-rows-generic",
       ctx->is_gpu ? "tetrahedron-rows-generic: on GPUs" : "tetrahedron-rows-life-u8: the update is heat"},
      {"triangle:50", "bits", SQZ_U8, 0, "bits-simplex-rows", NULL},
  };
  sqz_test_option(ctx, "temporal", "1"); /* one step a launch everywhere (GPUs default to the temporal tiles) */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqz_field *f = field(ctx, cases[i].spec, cases[i].type, cases[i].layout, cases[i].parts);
    expect_engine(ctx, f, cases[i].engine, cases[i].skipped);
    sqz_test_drop(f);
  }
  ck_assert_str_eq(sqz_field_engine(NULL, NULL), "");
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_cpu) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *f = field(ctx, "fractal:sierpinski-carpet:3", SQZ_U8, "compact", 0);
  expect_engine(ctx, f, "cpu-life-rows", NULL);
  sqz_test_drop(f);
  f = field(ctx, "triangle:40", SQZ_F64, "bb", 3);
  expect_engine(ctx, f, "cpu-cells-builtin", "cpu-life-rows: the update is heat");
  sqz_test_drop(f);
  f = field(ctx, "triangle:40", SQZ_U8, "bits", 0);
  expect_engine(ctx, f, "cpu-bits", NULL);
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("engine");
  TCase *tc = sqz_test_tcase(s, "engine", 600);
  tcase_add_test(tc, test_opencl);
  tcase_add_test(tc, test_cpu);
  return sqz_test_run(s);
}
