/* test_fill.c — fills (random, uniform, const) and single cells on every family, layout, cell type and part count: the opencl backend's kernels against the cpu backend's host fill. */
/* labels: host opencl */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

/* The domains, each with a cell (x, y, z) of it for the point fills. */
static const struct {
  const char *spec;
  uint64_t x, y, z;
} specs[] = {{"triangle:37", 5, 20, 0},
             {"tetrahedron:11", 1, 2, 3},
             {"fractal:sierpinski-triangle:6", 1, 3, 0},
             {"fractal:sierpinski-carpet:3", 26, 26, 0},
             {"fractal:.#./###/.#.:3", 13, 13, 0}};
static const char *const layouts2[] = {"compact", "bb", NULL};
static const char *const layouts_fr[] = {"compact", "bb", "lambda", "block:4", "block:9", "bits", NULL};

enum { FILL_RANDOM, FILL_UNIFORM, FILL_CONST, FILL_POINT };

/* A field of spec, layout and type in `parts` parts (0: one buffer) on ctx, or NULL where the layout does not
 * apply (a block side that is not a power of the scale, bits on types other than u8). */
static sqz_field *make_field(sqz_context *ctx, const char *spec, sqz_type t, const char *layout, uint64_t parts) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  int st = parts ? sqz_field_create_parts(dom, t, layout, parts, &f) : sqz_field_create(dom, t, layout, &f);
  if (st != SQZ_OK) {
    ck_assert_msg(st == SQZ_ERR_INVALID_ARGUMENT || st == SQZ_ERR_UNSUPPORTED, "%s %s: %s", spec, layout,
                  sqz_last_error(ctx));
    sqz_domain_release(dom);
    return NULL;
  }
  return f;
}

/* Fills f (on specs[d]'s domain) by kind. */
static int fill(sqz_field *f, int kind, sqz_type t, int d) {
  double one = t == SQZ_U8 ? 1.0 : t == SQZ_I32 ? -123456.0 : 0.1;
  switch (kind) {
  case FILL_RANDOM: return sqz_field_fill_random(f, 0.37, 99);
  case FILL_UNIFORM: return sqz_field_fill_uniform(f, 5);
  case FILL_CONST: return sqz_field_fill_const(f, one);
  default: break;
  }
  int st = sqz_field_fill_const(f, 0.0);
  return st == SQZ_OK ? sqz_field_set_cell(f, specs[d].x, specs[d].y, specs[d].z, one) : st;
}

/* One step of Life (u8) or heat (f32, f64) on f, so that a hole or padding cell a fill left non-zero shows in
 * the domain cells; i32 fields are left as they are. */
static int step(sqz_field *f, sqz_type t) {
  int dims = sqz_domain_dims(sqz_test_domain(f));
  if (t == SQZ_U8) return sqz_life_step(f, dims == 3 ? "B6/S5,6,7" : "B3/S23", 1);
  if (t == SQZ_I32) return SQZ_OK;
  return sqz_heat_step(f, dims == 3 ? 0.1 : 0.2, 1);
}

/* The compact-order values of f (count cells of ts bytes), a new array. */
static unsigned char *values(sqz_context *ctx, sqz_field *f, uint64_t count, size_t ts) {
  unsigned char *v = calloc(count ? count : 1, ts);
  ck_assert_ptr_nonnull(v);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(f, v, count));
  return v;
}

/* Every fill of spec, on both backends and in one buffer and in 3 parts, then a step, gives the cpu backend's
 * one-buffer values. */
static void check_spec(sqz_context *cl, sqz_context *cpu, int d, const char *const *layouts) {
  const char *spec = specs[d].spec;
  static const sqz_type types[] = {SQZ_U8, SQZ_I32, SQZ_F32, SQZ_F64};
  for (int ti = 0; ti < 4; ti++)
    for (int kind = FILL_RANDOM; kind <= FILL_POINT; kind++) {
      sqz_type t = types[ti];
      if (kind == FILL_UNIFORM && (t == SQZ_U8 || t == SQZ_I32)) continue;
      sqz_field *ref = make_field(cpu, spec, t, "compact", 0);
      ck_assert_ptr_nonnull(ref);
      size_t ts = sqz_type_size(t);
      uint64_t cells = sqz_domain_cells(sqz_test_domain(ref));
      SQZ_OK_OR_FAIL(cpu, fill(ref, kind, t, d));
      uint64_t nonzero = 0;
      SQZ_OK_OR_FAIL(cpu, sqz_field_count(ref, &nonzero));
      ck_assert_msg(nonzero > 0, "%s: the reference fill %d is all 0", spec, kind);
      SQZ_OK_OR_FAIL(cpu, step(ref, t));
      unsigned char *want = values(cpu, ref, cells, ts);
      for (int li = 0; layouts[li]; li++)
        for (int b = 0; b < 2; b++)
          for (uint64_t parts = 0; parts <= 3; parts += 3) {
            sqz_context *ctx = b ? cpu : cl;
            sqz_field *f = make_field(ctx, spec, t, layouts[li], parts);
            if (!f) continue;
            SQZ_OK_OR_FAIL(ctx, fill(f, kind, t, d));
            SQZ_OK_OR_FAIL(ctx, step(f, t));
            unsigned char *got = values(ctx, f, cells, ts);
            ck_assert_msg(memcmp(got, want, (size_t)(cells * ts)) == 0, "%s %s type %d fill %d %s parts %llu differs", spec,
                          layouts[li], (int)t, kind, b ? "cpu" : "opencl", (unsigned long long)parts);
            free(got);
            sqz_test_drop(f);
          }
      free(want);
      sqz_test_drop(ref);
    }
}

START_TEST(test_backends) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  check_spec(cl, cpu, _i, strncmp(specs[_i].spec, "fractal:", 8) == 0 ? layouts_fr : layouts2);
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* A uniform fill's cells are m 2^-53 (f64) and m 2^-24 (f32) of the hash's top bits: the f32 field holds the f64
 * field's values rounded down to 24 bits, all in [0, 1) and not all equal. */
START_TEST(test_uniform_values) {
  sqz_context *ctx = sqz_test_context(_i ? "cpu" : "opencl");
  sqz_field *a = make_field(ctx, "fractal:sierpinski-carpet:4", SQZ_F64, "compact", 0);
  sqz_field *b = make_field(ctx, "fractal:sierpinski-carpet:4", SQZ_F32, "block:9", 0);
  uint64_t cells = 4096;
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(a, 11));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(b, 11));
  double *x = (double *)values(ctx, a, cells, 8);
  float *y = (float *)values(ctx, b, cells, 4);
  double lo = 1, hi = 0;
  for (uint64_t i = 0; i < cells; i++) {
    ck_assert_msg(x[i] >= 0.0 && x[i] < 1.0, "cell %llu: %g", (unsigned long long)i, x[i]);
    ck_assert_msg((double)y[i] == ldexp(floor(ldexp(x[i], 24)), -24), "cell %llu: %.9g vs %.17g", (unsigned long long)i,
                  (double)y[i], x[i]);
    lo = fmin(lo, x[i]);
    hi = fmax(hi, x[i]);
  }
  ck_assert_msg(lo < 0.01 && hi > 0.99, "4096 uniform values span only [%g, %g]", lo, hi);
  free(x);
  free(y);
  sqz_test_drop(a);
  sqz_test_drop(b);
  sqz_context_release(ctx);
}
END_TEST

/* Cells by coordinates: set then get on every family; holes, coordinates past the side and values the type does not
 * hold are SQZ_ERR_INVALID_ARGUMENT, and leave the state as it was. */
START_TEST(test_cells) {
  sqz_context *ctx = sqz_test_context(_i ? "cpu" : "opencl");
  sqz_field *f = make_field(ctx, "fractal:sierpinski-carpet:3", SQZ_I32, "compact", 2);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_const(f, 7));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_cell(f, 26, 26, 0, -5));
  double v = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_field_get_cell(f, 26, 26, 0, &v));
  ck_assert(v == -5);
  SQZ_OK_OR_FAIL(ctx, sqz_field_get_cell(f, 0, 0, 0, &v));
  ck_assert(v == 7);
  ck_assert_int_eq(sqz_field_set_cell(f, 13, 13, 0, 1), SQZ_ERR_INVALID_ARGUMENT); /* the carpet's centre hole */
  ck_assert_msg(strstr(sqz_last_error(ctx), "y 13, x 13") != NULL, "%s", sqz_last_error(ctx));
  ck_assert_int_eq(sqz_field_set_cell(f, 27, 0, 0, 1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_set_cell(f, 0, 0, 1, 1), SQZ_ERR_INVALID_ARGUMENT); /* z on a 2D domain */
  ck_assert_int_eq(sqz_field_set_cell(f, 0, 0, 0, 0.5), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_set_cell(f, 0, 0, 0, 3e9), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_fill_const(f, NAN), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_get_cell(f, 13, 13, 0, &v), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_get_cell(NULL, 0, 0, 0, &v), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_set_cell(NULL, 0, 0, 0, 1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_fill_const(NULL, 1), SQZ_ERR_INVALID_ARGUMENT);
  double sum = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_NEUMAIER, &sum));
  ck_assert_msg(sum == 7 * 512 - 12, "sum %g", sum);
  sqz_test_drop(f);
  sqz_field *t = make_field(ctx, "tetrahedron:9", SQZ_F64, "bb", 0);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_const(t, 0));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_cell(t, 1, 2, 5, 0.25));
  SQZ_OK_OR_FAIL(ctx, sqz_field_get_cell(t, 1, 2, 5, &v));
  ck_assert(v == 0.25);
  ck_assert_int_eq(sqz_field_set_cell(t, 2, 2, 5, 1), SQZ_ERR_INVALID_ARGUMENT); /* x + y + z = 9 > N - 1 */
  sqz_test_drop(t);
  sqz_field *bits = make_field(ctx, "triangle:70", SQZ_U8, "bits", 0);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_const(bits, 1));
  uint64_t live = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(bits, &live));
  ck_assert_uint_eq(live, 70 * 71 / 2);
  ck_assert_int_eq(sqz_field_fill_const(bits, 2), SQZ_ERR_INVALID_ARGUMENT);
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_cell(bits, 3, 69, 0, 0));
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(bits, &live));
  ck_assert_uint_eq(live, 70 * 71 / 2 - 1);
  sqz_test_drop(bits);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("fill");
  TCase *tc = sqz_test_tcase(s, "fill", 900);
  tcase_add_loop_test(tc, test_backends, 0, 5);
  tcase_add_loop_test(tc, test_uniform_values, 0, 2);
  tcase_add_loop_test(tc, test_cells, 0, 2);
  return sqz_test_run(s);
}
