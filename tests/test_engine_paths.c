/* test_engine_paths.c — the engine paths as table rows: every path forced by option engine runs and equals the cpu backend, a forced path that does not apply fails naming why, the choice is made once per field and update, and sqz_engine_path lists what docs/ARCHITECTURE.md tabulates. */
/* labels: host opencl */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_paths.h"
#include "core/sqz_internal.h"
#include "sqz_test.h"

/* `steps` steps of the field's workload: heat on floats, else Life. */
static int step(sqz_field *f, uint64_t steps) {
  sqz_type t = sqz_field_type(f);
  return t == SQZ_F32 || t == SQZ_F64 ? sqz_heat_step(f, 0.1, steps) : sqz_life_step(f, NULL, steps);
}

/* A field of spec on ctx, filled the same on every backend (random 0/1, uniform floats). */
static sqz_field *made(sqz_context *ctx, const char *spec, sqz_type t, const char *layout, uint64_t parts) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, parts ? sqz_field_create_parts(dom, t, layout, parts, &f) : sqz_field_create(dom, t, layout, &f));
  SQZ_OK_OR_FAIL(ctx, t == SQZ_F32 || t == SQZ_F64 ? sqz_field_fill_uniform(f, 5) : sqz_field_fill_random(f, 0.4, 5));
  return f;
}

/* The state in compact order (malloc'ed), *bytes its size. */
static void *state(sqz_field *f, size_t *bytes) {
  uint64_t n = sqz_domain_cells(sqz_test_domain(f));
  *bytes = (size_t)n * sqz_type_size(sqz_field_type(f));
  void *v = malloc(*bytes);
  ck_assert_ptr_nonnull(v);
  SQZ_OK_OR_FAIL(NULL, sqz_field_read_compact(f, v, n));
  return v;
}

/* Each path of `paths` forced on a field of (spec, type, layout) of ctx: it runs, reports itself with nothing
 * skipped, and after 5 steps holds the cpu backend's state. */
static void forced_equal(sqz_context *ctx, sqz_context *cpu, const char *spec, sqz_type t, const char *layout,
                         const char *const *paths) {
  sqz_field *ref = made(cpu, spec, t, layout, 0);
  SQZ_OK_OR_FAIL(cpu, step(ref, 5));
  size_t bytes, got;
  void *want = state(ref, &bytes);
  for (; *paths; paths++) {
    sqz_field *f = made(ctx, spec, t, layout, 0);
    SQZ_OK_OR_FAIL(ctx, sqz_field_set_option(f, "engine", *paths));
    SQZ_OK_OR_FAIL(ctx, step(f, 5));
    const char *skipped = NULL;
    ck_assert_str_eq(sqz_field_engine(f, &skipped), *paths);
    ck_assert_str_eq(skipped, "");
    void *v = state(f, &got);
    ck_assert_msg(got == bytes && memcmp(v, want, bytes) == 0, "%s %s: path %s differs from the cpu backend", spec,
                  layout, *paths);
    free(v);
    sqz_test_drop(f);
  }
  free(want);
  sqz_test_drop(ref);
}

START_TEST(forced_paths) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  forced_equal(cl, cpu, "fractal:sierpinski-triangle:7", SQZ_U8, "compact",
               (const char *const[]){"fractal-boxes-life-u8", "fractal-tiles-life-u8-temporal", "fractal-tiles-life-u8",
                                     "fractal-tiles-generic", "fractal-tiles-generic-direct", NULL});
  forced_equal(cl, cpu, "fractal:sierpinski-carpet:3", SQZ_F64, "block:9",
               (const char *const[]){"fractal-tiles-generic", "fractal-tiles-generic-direct", NULL});
  forced_equal(cl, cpu, "triangle:40", SQZ_U8, "bb",
               (const char *const[]){"triangle-words-life-u8", "triangle-rows-generic", "simplex-map-generic", NULL});
  forced_equal(cl, cpu, "tetrahedron:9", SQZ_U8, "compact", /* GPUs: the tetrahedron row step is CPU devices' */
               (const char *const[]){"tetrahedron-rows-life-u8", cl->is_gpu ? NULL : "tetrahedron-rows-generic", NULL});
  forced_equal(cl, cpu, "fractal:sierpinski-triangle:8", SQZ_U8, "bits",
               (const char *const[]){"bits-fractal-lanes", "bits-fractal-boxes", "bits-fractal-step", NULL});
  forced_equal(cpu, cpu, "triangle:30", SQZ_U8, "compact", (const char *const[]){"cpu-cells-builtin", NULL});
  sqz_context_release(cpu);
  sqz_context_release(cl);
}
END_TEST

/* Forcing `path` on f: the step fails with `st`, the detail names the path and holds `why`, the state is as it was
 * and no path is reported. */
static void refused(sqz_context *ctx, sqz_field *f, const char *path, int st, const char *why) {
  size_t bytes, after;
  void *before = state(f, &bytes);
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_option(f, "engine", path));
  ck_assert_int_eq(step(f, 3), st);
  char want[256];
  snprintf(want, sizeof want, "engine path %s does not apply: %s", path, why);
  ck_assert_msg(strstr(sqz_last_error(ctx), want) != NULL, "'%s' lacks '%s'", sqz_last_error(ctx), want);
  ck_assert_str_eq(sqz_field_engine(f, NULL), "");
  void *now = state(f, &after);
  ck_assert(after == bytes && memcmp(before, now, bytes) == 0);
  free(before);
  free(now);
}

START_TEST(forced_refused) {
  sqz_context *cl = sqz_test_context("opencl");
  sqz_field *f = made(cl, "fractal:sierpinski-carpet:3", SQZ_F32, "compact", 0);
  refused(cl, f, "fractal-boxes-life-u8", SQZ_ERR_INVALID_ARGUMENT, "the update is heat");
  refused(cl, f, "fractal-bb-generic", SQZ_ERR_INVALID_ARGUMENT, "it steps fractals in layout bb; this field is");
  refused(cl, f, "cpu-life-rows", SQZ_ERR_INVALID_ARGUMENT, "it is a path of the cpu backend, and this field is on opencl");
  sqz_test_drop(f);
  f = made(cl, "fractal:sierpinski-triangle:6", SQZ_U8, "block:8", 0);
  sqz_test_option(cl, "temporal", "1");
  refused(cl, f, "fractal-tiles-life-u8-temporal", SQZ_ERR_INVALID_ARGUMENT, "one step a launch");
  sqz_test_option(cl, "temporal", NULL);
  sqz_test_drop(f);
  f = made(cl, "triangle:40", SQZ_U8, "compact", 2);
  refused(cl, f, "triangle-words-life-u8", SQZ_ERR_INVALID_ARGUMENT, "a field in parts");
  /* a name no backend has: refused when set, listing every backend's paths */
  ck_assert_int_eq(sqz_field_set_option(f, "engine", "nope"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(cl), "opencl: fractal-boxes-life-u8, "));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(cl), "cpu: cpu-bits, "));
  sqz_test_drop(f);
  sqz_context_release(cl);
}
END_TEST

/* Life steps of f: the choices made so far, asserting the engine it reports. */
static uint64_t choices(sqz_field *f, uint64_t steps, const char *engine) {
  SQZ_OK_OR_FAIL(NULL, sqz_life_step(f, NULL, steps));
  ck_assert_str_eq(sqz_field_engine(f, NULL), engine);
  return sqz__engine_selections(f);
}

START_TEST(choice_cached) {
  sqz_context *cl = sqz_test_context("opencl");
  sqz_field *f = made(cl, "fractal:sierpinski-triangle:7", SQZ_U8, "compact", 0);
  ck_assert_uint_eq(sqz__engine_selections(f), 0);
  const char *first = NULL, *again = NULL;
  ck_assert_uint_eq(choices(f, 3, "fractal-boxes-life-u8"), 1);
  char skipped[1024];
  sqz_field_engine(f, &first);
  snprintf(skipped, sizeof skipped, "%s", first);
  ck_assert_uint_eq(choices(f, 3, "fractal-boxes-life-u8"), 1); /* the same update and steps: kept */
  sqz_field_engine(f, &again);
  ck_assert_str_eq(again, skipped); /* and reported as when it was made */
  ck_assert_uint_eq(choices(f, 1, "fractal-boxes-life-u8"), 2);  /* another step count */
  ck_assert_uint_eq(choices(f, 40, "fractal-boxes-life-u8"), 3);
  ck_assert_uint_eq(choices(f, 90, "fractal-boxes-life-u8"), 3); /* above 9 steps: one class */
  sqz_test_option(cl, "temporal", "1"); /* one step a launch, as on CPU devices (GPUs take the temporal tiles) */
  sqz_test_option(cl, "fractal_step", "words");                 /* a context's option: chosen again */
  ck_assert_uint_eq(choices(f, 3, "fractal-tiles-life-u8"), 4);
  ck_assert_uint_eq(choices(f, 3, "fractal-tiles-life-u8"), 4);
  sqz_test_option(cl, "fractal_step", NULL);
  SQZ_OK_OR_FAIL(cl, sqz_field_set_option(f, "engine", "fractal-tiles-generic")); /* the field's */
  ck_assert_uint_eq(choices(f, 3, "fractal-tiles-generic"), 5);
  SQZ_OK_OR_FAIL(cl, sqz_field_set_option(f, "engine", NULL));
  SQZ_OK_OR_FAIL(cl, sqz_field_set_block(f, 8));
  ck_assert_uint_eq(choices(f, 3, "fractal-tiles-life-u8"), 6);
  ck_assert_uint_eq(choices(f, 3, "fractal-tiles-life-u8"), 6);
  sqz_test_option(cl, "temporal", NULL);
  sqz_test_drop(f);
  f = made(cl, "triangle:40", SQZ_U8, "compact", 2); /* the parts' views share the field's choice */
  ck_assert_uint_eq(choices(f, 2, "triangle-rows-generic"), 1);
  ck_assert_uint_eq(choices(f, 2, "triangle-rows-generic"), 1);
  sqz_test_drop(f);
  sqz_context_release(cl);
}
END_TEST

START_TEST(paths_listed) {
  FILE *fp = fopen(SQZ_TEST_DATA "/../../docs/ARCHITECTURE.md", "r");
  ck_assert_ptr_nonnull(fp);
  static char doc[1 << 17];
  size_t n = fread(doc, 1, sizeof doc - 1, fp);
  fclose(fp);
  doc[n] = 0;
  size_t rows = 0;
  for (const char *const *b = (const char *const[]){"opencl", "cpu", "cuda", NULL}; *b; b++) {
    const char *name, *when;
    for (size_t i = 0; (name = sqz_engine_path(*b, i, &when)); i++, rows++) {
      char cell[96];
      snprintf(cell, sizeof cell, "| `%s` |", name);
      ck_assert_msg(strstr(doc, cell), "docs/ARCHITECTURE.md has no row for engine path %s", name);
      ck_assert(when && *when);
      ck_assert_int_eq(sqz_option_check("engine", name), SQZ_OK);
    }
  }
  ck_assert_uint_ge(rows, 21);
  ck_assert_ptr_null(sqz_engine_path("nope", 0, NULL));
  ck_assert_ptr_null(sqz_engine_path("cpu", 99, NULL));
  ck_assert_int_eq(sqz_option_check("engine", "fast"), SQZ_OK);
  ck_assert_int_eq(sqz_option_check("engine", "generic"), SQZ_OK);
  ck_assert_int_eq(sqz_option_check("engine", "PATH"), SQZ_ERR_INVALID_ARGUMENT);
}
END_TEST

int main(void) {
  Suite *s = suite_create("engine_paths");
  TCase *tc = sqz_test_tcase(s, "engine_paths", 600);
  tcase_add_test(tc, paths_listed);
  tcase_add_test(tc, choice_cached);
  tcase_add_test(tc, forced_refused);
  tcase_add_test(tc, forced_paths);
  return sqz_test_run(s);
}
