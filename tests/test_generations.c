/* labels: opencl */
/* test_generations.c — Golly's Generations rules (B2/S/C3, /2/3, 345/2/4): every family and layout but bits on the opencl backend, maps and parts, against the cpu backend; a step by hand, the state check and the refusals (rule strings: test_rle.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

/* ---- opencl against cpu ----------------------------------------------------------------------- */

/* An embedded state of every state of the rule: a random field stepped a few generations on the
 * cpu backend (dying cells of every age), read as an embedded array. */
static unsigned char *start_state(sqz_context *cpu, const char *spec, const char *rule, size_t *bytes) {
  sqz_field *f = sqz_test_field(cpu, spec, SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(cpu, sqz_field_fill_random(f, 0.35, 7));
  SQZ_OK_OR_FAIL(cpu, sqz_life_step(f, rule, 3));
  uint64_t side = sqz_domain_side(sqz_test_domain(f));
  *bytes = (size_t)(sqz_domain_dims(sqz_test_domain(f)) == 3 ? side * side * side : side * side);
  unsigned char *a = malloc(*bytes);
  ck_assert_ptr_nonnull(a);
  SQZ_OK_OR_FAIL(cpu, sqz_field_read(f, a, *bytes));
  sqz_test_drop(f);
  return a;
}

/* steps of rule from `start` on ctx in layout/map/parts; the embedded result (malloc'ed). */
static unsigned char *run_on(sqz_context *ctx, const char *spec, const char *layout, const char *map, uint64_t parts,
                             const char *rule, const unsigned char *start, size_t bytes, unsigned steps) {
  sqz_domain *d = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &d));
  SQZ_OK_OR_FAIL(ctx, parts > 1 ? sqz_field_create_parts(d, SQZ_U8, layout, parts, &f)
                                : sqz_field_create(d, SQZ_U8, layout, &f));
  if (map) SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(f, map));
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, start, bytes));
  SQZ_OK_OR_FAIL(ctx, sqz_life_check_rule(f, rule));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, rule, steps));
  unsigned char *a = malloc(bytes);
  ck_assert_ptr_nonnull(a);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, a, bytes));
  const char *skipped = NULL, *engine = sqz_field_engine(f, &skipped);
  ck_assert_msg(strstr(engine, "life-u8") == NULL && strcmp(engine, "cpu-life-rows") != 0,
                "%s %s: a two-state fast path ran a Generations rule (%s)", spec, layout, engine);
  sqz_field_release(f);
  sqz_domain_release(d);
  return a;
}

static void expect_same(const unsigned char *got, const unsigned char *want, size_t bytes, const char *what) {
  size_t dying = 0;
  for (size_t i = 0; i < bytes; i++) {
    ck_assert_msg(got[i] == want[i], "%s: embedded cell %zu is %u, the cpu backend's %u", what, i, got[i], want[i]);
    dying += want[i] > 1;
  }
  ck_assert_msg(dying > 0, "%s: the state has dying cells", what);
}

typedef struct {
  const char *spec, *rule, *layouts[5], *map;
} gen_case;

static const gen_case cases[] = {
    {"triangle:37", "/2/3", {"compact", "bb", NULL}, "rec"},
    {"triangle:30", "345/2/4", {"compact", "bb", NULL}, NULL},
    {"tetrahedron:11", "B5,6,7/S6,7,8,9/C4", {"compact", "bb", NULL}, "rec3"},
    {"fractal:sierpinski-triangle:6", "B12/S12/C5", {"compact", "bb", "lambda", "block:8", NULL}, "group"},
    {"fractal:sierpinski-carpet:3", "345/2/4", {"compact", "bb", "lambda", "block:9", NULL}, "group"},
    {"fractal:vicsek-cross:3", "B1/S1/C4", {"compact", "bb", "lambda", "block:3", NULL}, NULL},
};

START_TEST(opencl_matches_cpu) {
  sqz_context *cpu = sqz_test_context("cpu"), *cl = sqz_test_context("opencl");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const gen_case *c = &cases[i];
    size_t bytes = 0;
    const unsigned steps = 9;
    unsigned char *start = start_state(cpu, c->spec, c->rule, &bytes);
    unsigned char *want = run_on(cpu, c->spec, "compact", NULL, 1, c->rule, start, bytes, steps);
    char what[160];
    for (const char *const *l = c->layouts; *l; l++) {
      unsigned char *got = run_on(cl, c->spec, *l, NULL, 1, c->rule, start, bytes, steps);
      snprintf(what, sizeof what, "opencl %s %s %s", c->spec, *l, c->rule);
      expect_same(got, want, bytes, what);
      free(got);
      got = run_on(cpu, c->spec, *l, NULL, 1, c->rule, start, bytes, steps);
      snprintf(what, sizeof what, "cpu %s %s %s", c->spec, *l, c->rule);
      expect_same(got, want, bytes, what);
      free(got);
    }
    unsigned char *got = run_on(cl, c->spec, "compact", NULL, 3, c->rule, start, bytes, steps); /* parts */
    snprintf(what, sizeof what, "opencl %s compact in 3 parts %s", c->spec, c->rule);
    expect_same(got, want, bytes, what);
    free(got);
    if (c->map) {
      got = run_on(cl, c->spec, "compact", c->map, 1, c->rule, start, bytes, steps);
      snprintf(what, sizeof what, "opencl %s compact map %s %s", c->spec, c->map, c->rule);
      expect_same(got, want, bytes, what);
      free(got);
    }
    free(want);
    free(start);
  }
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* A triangle:8 field on ctx holding the embedded state a. */
static sqz_field *triangle8(sqz_context *ctx, const char *layout, const unsigned char a[64]) {
  sqz_field *f = sqz_test_field(ctx, "triangle:8", SQZ_U8, layout);
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, a, 64));
  return f;
}

/* Brian's Brain by hand: a live cell with two live neighbours' birth, the dying state, the return to 0. */
START_TEST(brian_by_hand) {
  sqz_context *ctx = sqz_test_context("opencl");
  unsigned char a[64] = {0}, b[64];
  a[5 * 8 + 1] = a[5 * 8 + 2] = 1; /* (1, 5), (2, 5) alive */
  sqz_field *f = triangle8(ctx, "compact", a);
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "/2/3", 1));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, b, sizeof b));
  ck_assert_uint_eq(b[5 * 8 + 1], 2); /* alive -> dying: no rule survives in Brian's Brain */
  ck_assert_uint_eq(b[5 * 8 + 2], 2);
  for (int y = 4; y <= 6; y += 2)
    for (int x = 1; x <= 2; x++) ck_assert_msg(b[y * 8 + x] == 1, "(%d, %d) is born (%u)", x, y, b[y * 8 + x]);
  ck_assert_uint_eq(b[5 * 8 + 0], 0); /* (0, 5) sees one live cell, (3, 5) one */
  ck_assert_uint_eq(b[5 * 8 + 3], 0);
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "/2/3", 1));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, b, sizeof b));
  ck_assert_uint_eq(b[5 * 8 + 1], 0); /* dying (2) -> 0 after C - 1 = 2 */
  ck_assert_uint_eq(b[4 * 8 + 1], 2);
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

/* States at or above C refused naming the cell and value; layout bits and the cuda-less refusals. */
START_TEST(refusals) {
  sqz_context *ctx = sqz_test_context("cpu");
  unsigned char a[64] = {0};
  a[6 * 8 + 3] = 3;
  sqz_field *f = triangle8(ctx, "bb", a);
  ck_assert_int_eq(sqz_life_check_rule(f, "345/2/4"), SQZ_OK);
  ck_assert_int_eq(sqz_life_check_rule(f, "/2/3"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(sqz_last_error(ctx), "triangle:8: cell 51 (x 3, y 6) holds 3; the cells of rule '/2/3' are 0 to 2");
  ck_assert_int_eq(sqz_life_check(f), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(sqz_last_error(ctx), "holds 3; Life cells are 0 or 1") != NULL, "%s", sqz_last_error(ctx));
  ck_assert_int_eq(sqz_life_check_rule(f, "/2/1"), SQZ_ERR_PARSE);
  sqz_test_drop(f);
  a[6 * 8 + 3] = 1;
  f = triangle8(ctx, "bits", a);
  ck_assert_int_eq(sqz_life_step(f, "B2/S/C3", 1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(sqz_last_error(ctx), "rule 'B2/S/C3' has 3 states and layout bits") != NULL, "%s",
                sqz_last_error(ctx));
  ck_assert_int_eq(sqz_life_check_rule(f, "B2/S/C3"), SQZ_ERR_INVALID_ARGUMENT);
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B3/S23/C2", 1)); /* two states: plain Life */
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("generations");
  TCase *t = tcase_create("generations");
  tcase_set_timeout(t, 900);
  tcase_add_test(t, opencl_matches_cpu);
  tcase_add_test(t, brian_by_hand);
  tcase_add_test(t, refusals);
  suite_add_tcase(s, t);
  return sqz_test_run(s);
}
