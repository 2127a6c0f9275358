/* labels: opencl */
/* test_threads.c — OpenCL contexts from many threads: a context per thread, one context shared by threads, release orders. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

#define N_THREADS 8
#define STEPS 12

/* The domains the threads take in turn (small: the test shares a busy machine), embedded cells. */
static const char *const specs[2] = {"fractal:sierpinski-carpet:3", "triangle:40"};
static const char *const layouts[2] = {"block:3", "compact"};
static uint64_t side_of(int i) { return i % 2 ? 40 : 27; }

/* The state after STEPS Life steps from the random state of seed i, on a backend's context. */
static int run_life(sqz_context *ctx, int i, unsigned char *out) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  uint64_t cells = side_of(i) * side_of(i);
  int st = sqz_domain_parse(ctx, specs[i % 2], &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_U8, layouts[i % 2], &f);
  if (st == SQZ_OK) st = sqz_field_fill_random(f, 0.35, (uint64_t)i);
  for (int k = 0; st == SQZ_OK && k < 3; k++) st = sqz_life_step(f, "B3/S23", STEPS / 3);
  if (st == SQZ_OK) st = sqz_field_read(f, out, (size_t)cells);
  sqz_field_release(f);
  sqz_domain_release(dom);
  return st;
}

typedef struct {
  int i;
  sqz_context *ctx; /* shared, or NULL: the thread makes its own */
  sqz_field *f;     /* shared context: the thread's field */
  int st;
  char detail[256];
  unsigned char *state;
} job;

/* Creates its own opencl context (all threads at once), runs Life, releases the context. */
static void *own_context(void *arg) {
  job *j = arg;
  sqz_context *ctx = NULL;
  j->st = sqz_context_create("opencl", NULL, &ctx);
  if (j->st != SQZ_OK) snprintf(j->detail, sizeof j->detail, "%s", sqz_last_error(NULL));
  if (j->st == SQZ_OK) j->st = run_life(ctx, j->i, j->state);
  if (j->st != SQZ_OK && ctx) snprintf(j->detail, sizeof j->detail, "%s", sqz_last_error(ctx));
  sqz_context_release(ctx);
  return NULL;
}

/* Starts a thread per job running fn (jobs[i] of seed i, on the shared context ctx when not
 * NULL, with a field of its own there) and waits for them all. */
static void run_threads(job *jobs, void *(*fn)(void *), sqz_context *ctx) {
  pthread_t t[N_THREADS];
  for (int i = 0; i < N_THREADS; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].i = i;
    jobs[i].ctx = ctx;
    jobs[i].state = calloc(side_of(i) * side_of(i), 1);
    if (ctx) {
      jobs[i].f = sqz_test_field(ctx, specs[i % 2], SQZ_U8, layouts[i % 2]);
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(jobs[i].f, 0.35, (uint64_t)i));
    }
  }
  for (int i = 0; i < N_THREADS; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, fn, &jobs[i]), 0);
  for (int i = 0; i < N_THREADS; i++) pthread_join(t[i], NULL);
}

/* Every job succeeded and its state equals run_life on ref, one job after another; frees them. */
static void check_jobs(job *jobs, sqz_context *ref, const char *what) {
  for (int i = 0; i < N_THREADS; i++) {
    uint64_t cells = side_of(i) * side_of(i);
    unsigned char *want = calloc(cells, 1);
    ck_assert_msg(jobs[i].st == SQZ_OK, "thread %d: %s: %s", i, sqz_status_name(jobs[i].st), jobs[i].detail);
    SQZ_OK_OR_FAIL(ref, run_life(ref, i, want));
    ck_assert_msg(memcmp(want, jobs[i].state, cells) == 0, "thread %d: state differs from %s", i, what);
    free(want);
    free(jobs[i].state);
    if (jobs[i].f) sqz_test_drop(jobs[i].f);
  }
}

START_TEST(context_per_thread) {
  sqz_context *cpu = sqz_test_context("cpu");
  job jobs[N_THREADS];
  run_threads(jobs, own_context, NULL);
  check_jobs(jobs, cpu, "the cpu backend");
  sqz_context_release(cpu);
}
END_TEST

/* Steps its own field of the shared context, in pieces, with reads in between. */
static void *shared_context(void *arg) {
  job *j = arg;
  uint64_t live = 0;
  j->st = SQZ_OK;
  for (int k = 0; j->st == SQZ_OK && k < 3; k++) {
    j->st = sqz_life_step(j->f, "B3/S23", STEPS / 3);
    if (j->st == SQZ_OK) j->st = sqz_field_count(j->f, &live);
  }
  if (j->st == SQZ_OK) j->st = sqz_field_read(j->f, j->state, (size_t)(side_of(j->i) * side_of(j->i)));
  if (j->st != SQZ_OK) snprintf(j->detail, sizeof j->detail, "%s", sqz_last_error(j->ctx));
  return NULL;
}

START_TEST(shared_context_threads) {
  sqz_context *ctx = sqz_test_context("opencl");
  job jobs[N_THREADS];
  run_threads(jobs, shared_context, ctx);
  check_jobs(jobs, ctx, "the serial run"); /* the same steps on the same context, one field after another */
  sqz_context_release(ctx);
}
END_TEST

START_TEST(release_orders_opencl) {
  sqz_test_release_orders("opencl", "fractal:sierpinski-carpet:3", "compact");
  sqz_test_release_orders("opencl", "triangle:30", "compact");
}
END_TEST

int main(void) {
  Suite *s = suite_create("threads");
  TCase *tc = tcase_create("threads");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, context_per_thread);
  tcase_add_test(tc, shared_context_threads);
  suite_add_tcase(s, tc);
  TCase *rel = tcase_create("release"); /* alone, for valgrind: CK_RUN_CASE=release */
  tcase_set_timeout(rel, 600);
  tcase_add_test(rel, release_orders_opencl);
  suite_add_tcase(s, rel);
  return sqz_test_run(s);
}
