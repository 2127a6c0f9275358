/* labels: host */
/* test_lifetimes.c — reference counts and release orders, per-thread details and timing, one context from many threads (cpu backend: runs under ASan). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

START_TEST(release_orders_cpu) {
  sqz_test_release_orders("cpu", "fractal:sierpinski-carpet:3", "compact");
  sqz_test_release_orders("cpu", "triangle:30", "compact");
}
END_TEST

/* retain adds a reference: the handle survives one release more than it was retained. */
START_TEST(retain_release) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *f = sqz_test_field(ctx, "triangle:12", SQZ_U8, NULL);
  sqz_domain *dom = sqz_test_domain(f);
  sqz_field_retain(f);
  sqz_domain_retain(dom);
  sqz_context_retain(ctx);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  ck_assert_str_eq(sqz_context_backend(ctx), "cpu");
  ck_assert_uint_eq(sqz_domain_cells(dom), 78);
  sqz_context_release(ctx); /* the field still holds the domain and the context */
  sqz_domain_release(dom);
  uint64_t live = 0;
  ck_assert_int_eq(sqz_field_count(f, &live), SQZ_OK);
  ck_assert_uint_gt(live, 0);
  sqz_field_release(f);
  sqz_field_release(NULL);
  sqz_domain_release(NULL);
  sqz_context_release(NULL);
  sqz_domain *bare = NULL; /* a domain without a context */
  ck_assert_int_eq(sqz_domain_parse(NULL, "tetrahedron:5", &bare), SQZ_OK);
  sqz_domain_retain(bare);
  sqz_domain_release(bare);
  sqz_domain_release(bare);
}
END_TEST

/* Two threads fail on one context in different ways, many times: each reads its own detail. */
typedef struct {
  sqz_context *ctx;
  sqz_field *f;
  int which, bad;
} detail_job;

static void *detail_worker(void *arg) {
  detail_job *j = arg;
  for (int i = 0; i < 2000 && !j->bad; i++) {
    sqz_domain *d = NULL;
    int st = j->which ? sqz_domain_parse(j->ctx, "triangle:0", &d) : sqz_field_set_block(j->f, 5000);
    const char *want = j->which ? "at least 1" : "5000";
    if (st == SQZ_OK || !strstr(sqz_last_error(j->ctx), want)) j->bad = 1 + i;
  }
  return NULL;
}

START_TEST(detail_per_thread) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *f = sqz_test_field(ctx, "triangle:8", SQZ_U8, NULL);
  detail_job jobs[2] = {{ctx, f, 0, 0}, {ctx, f, 1, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, detail_worker, &jobs[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  ck_assert_msg(jobs[0].bad == 0, "set_block detail lost at try %d", jobs[0].bad);
  ck_assert_msg(jobs[1].bad == 0, "domain detail lost at try %d", jobs[1].bad);
  ck_assert_str_eq(sqz_last_error(ctx), ""); /* this thread failed on nothing */
  double k = 1.0, w = 1.0;
  ck_assert_int_eq(sqz_context_timing(ctx, &k, &w), SQZ_OK); /* nor timed anything on ctx after creation */
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, 2));
  ck_assert_int_eq(sqz_context_timing(ctx, &k, &w), SQZ_OK);
  ck_assert(w > 0.0 && k >= 0.0);
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

/* Eight threads step their own fields of one cpu context at once; the states equal a serial run. */
#define N_THREADS 8
typedef struct {
  sqz_field *f;
  int st;
} step_job;

static void *step_worker(void *arg) {
  step_job *j = arg;
  for (int i = 0; i < 5 && j->st == SQZ_OK; i++) j->st = sqz_life_step(j->f, "B3/S23", 4);
  return NULL;
}

START_TEST(shared_cpu_context) {
  sqz_context *ctx = sqz_test_context("cpu");
  const char *specs[2] = {"fractal:sierpinski-carpet:3", "triangle:40"};
  step_job jobs[N_THREADS];
  sqz_field *ref[N_THREADS];
  for (int i = 0; i < N_THREADS; i++) {
    jobs[i].f = sqz_test_field(ctx, specs[i % 2], SQZ_U8, NULL);
    jobs[i].st = SQZ_OK;
    ref[i] = sqz_test_field(ctx, specs[i % 2], SQZ_U8, NULL);
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(jobs[i].f, 0.35, (uint64_t)i));
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(ref[i], 0.35, (uint64_t)i));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(ref[i], "B3/S23", 20));
  }
  pthread_t t[N_THREADS];
  for (int i = 0; i < N_THREADS; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, step_worker, &jobs[i]), 0);
  for (int i = 0; i < N_THREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < N_THREADS; i++) {
    ck_assert_msg(jobs[i].st == SQZ_OK, "thread %d: %s", i, sqz_status_name(jobs[i].st));
    uint64_t side = i % 2 ? 40 : 27, cells = side * side;
    unsigned char *a = malloc(cells), *b = malloc(cells);
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(jobs[i].f, a, cells));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(ref[i], b, cells));
    ck_assert_msg(memcmp(a, b, cells) == 0, "thread %d's state differs from the serial run", i);
    free(a);
    free(b);
    sqz_test_drop(jobs[i].f);
    sqz_test_drop(ref[i]);
  }
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("lifetimes");
  TCase *tc = tcase_create("lifetimes");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, release_orders_cpu);
  tcase_add_test(tc, retain_release);
  tcase_add_test(tc, detail_per_thread);
  tcase_add_test(tc, shared_cpu_context);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
