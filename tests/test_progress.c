/* labels: host */
/* test_progress.c — progress callbacks of long runs: calls, monotonic counts, cancellation at a consistent state. */
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

typedef struct {
  int calls;
  uint64_t last, total, cancel_at;
  double rate;
} progress_log;

static int record(uint64_t done, uint64_t total, double cells_per_s, void *user) {
  progress_log *p = user;
  ck_assert_uint_gt(done, p->last); /* strictly growing */
  ck_assert_uint_le(done, total);
  p->calls++;
  p->last = done;
  p->total = total;
  p->rate = cells_per_s;
  return p->cancel_at && done >= p->cancel_at;
}

/* the embedded state of fractal:sierpinski-carpet:3 after `steps` B3/S23 steps from seed 5 */
static unsigned char *carpet_after(sqz_context *ctx, uint64_t steps) {
  sqz_field *f = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.4, 5));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B3/S23", steps));
  unsigned char *img = malloc(27 * 27);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, img, 27 * 27));
  sqz_test_drop(f);
  return img;
}

START_TEST(test_progress_calls) {
  sqz_context *ctx = sqz_test_context("cpu");
  progress_log p = {0};
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_progress(ctx, record, &p, 0.001));
  unsigned char *a = carpet_after(ctx, 200);
  ck_assert_int_ge(p.calls, 2);
  ck_assert_uint_eq(p.last, 200);
  ck_assert_uint_eq(p.total, 200);
  ck_assert(p.rate > 0.0);
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_progress(ctx, NULL, NULL, 0));
  unsigned char *b = carpet_after(ctx, 200); /* chunks do not change the result */
  ck_assert(memcmp(a, b, 27 * 27) == 0);
  free(a);
  free(b);
  ck_assert_int_eq(sqz_context_set_progress(ctx, record, &p, -1.0), SQZ_ERR_INVALID_ARGUMENT);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_progress_cancel) {
  sqz_context *ctx = sqz_test_context("cpu");
  progress_log p = {0};
  p.cancel_at = 7;
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_progress(ctx, record, &p, 0.001));
  sqz_field *f = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.4, 5));
  ck_assert_int_eq(sqz_life_step(f, "B3/S23", 1000000), SQZ_ERR_CANCELLED);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "of 1000000 steps"));
  uint64_t done = p.last;
  ck_assert_uint_ge(done, 7);
  ck_assert_uint_lt(done, 1000000);
  unsigned char *got = malloc(27 * 27);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, got, 27 * 27));
  sqz_test_drop(f);
  SQZ_OK_OR_FAIL(ctx, sqz_context_set_progress(ctx, NULL, NULL, 0));
  unsigned char *want = carpet_after(ctx, done); /* the field holds the state after `done` steps */
  ck_assert(memcmp(got, want, 27 * 27) == 0);
  free(got);
  free(want);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("progress");
  TCase *tc = tcase_create("progress");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_progress_calls);
  tcase_add_test(tc, test_progress_cancel);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
