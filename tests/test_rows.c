/* labels: opencl */
/* test_rows.c — bands of the embedded image (gather/scatter through the backend) equal the whole-array transfers, every family, layout and backend. */
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"
#include "sqz_test.h"

static void check_rows(const char *backend, const char *spec, const char *layout, sqz_type type) {
  sqz_context *ctx = sqz_test_context(backend);
  sqz_field *f = sqz_test_field(ctx, spec, type, layout), *g = sqz_test_field(ctx, spec, type, layout);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.6, 77));
  size_t ts = sqz_type_size(type);
  uint64_t rows = sqz__field_image_rows(f), side = sqz_domain_side(sqz_field_domain(f)), cells = rows * side;
  unsigned char *whole = malloc(cells * ts), *band = malloc(cells * ts);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, whole, cells * ts));
  uint64_t step = rows / 3 + 1; /* uneven bands, the last one short */
  for (uint64_t r = 0; r < rows; r += step) {
    uint64_t k = rows - r < step ? rows - r : step;
    SQZ_OK_OR_FAIL(ctx, sqz__field_read_rows(f, r, k, band + r * side * ts));
  }
  ck_assert_msg(memcmp(whole, band, cells * ts) == 0, "%s %s %s: bands differ from the whole read", backend, spec, layout);
  for (uint64_t r = 0; r < rows; r += step) { /* write the bands into g: the same state */
    uint64_t k = rows - r < step ? rows - r : step;
    SQZ_OK_OR_FAIL(ctx, sqz__field_write_rows(g, r, k, band + r * side * ts));
  }
  memset(band, 0xff, cells * ts);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(g, band, cells * ts));
  ck_assert_msg(memcmp(whole, band, cells * ts) == 0, "%s %s %s: written bands differ", backend, spec, layout);
  ck_assert_int_eq(sqz__field_read_rows(f, rows - 1, 2, band), SQZ_ERR_INTERNAL);
  free(whole);
  free(band);
  sqz_test_drop(f);
  sqz_test_drop(g);
  sqz_context_release(ctx);
}

START_TEST(test_rows_all) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int b = 0; b < 2; b++) {
    check_rows(backends[b], "fractal:sierpinski-carpet:3", "compact", SQZ_U8);
    check_rows(backends[b], "fractal:sierpinski-carpet:3", "block:3", SQZ_F32);
    check_rows(backends[b], "fractal:sierpinski-triangle:5", "lambda", SQZ_I32);
    check_rows(backends[b], "fractal:sierpinski-triangle:5", "bb", SQZ_F64);
    check_rows(backends[b], "triangle:37", "compact", SQZ_U8);
    check_rows(backends[b], "triangle:40", "bb", SQZ_I32);
    check_rows(backends[b], "tetrahedron:9", "compact", SQZ_F64);
    check_rows(backends[b], "tetrahedron:8", "bb", SQZ_U8);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("rows");
  TCase *tc = tcase_create("rows");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_rows_all);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
