/* enqueue.c — the non-blocking forms of the Life and stencil steps (include/sqz_opencl.h): the blocking forms' checks, then the engine without the wait; and their builds ahead of time. */
#include "apps/stencil.h"
#include "sqz_opencl.h"

/* The steps of u on f, enqueued behind the n_wait events of wait, *done (optional) after the last. */
static int sqz__enqueue(sqz_field *f, const sqz_update *u, uint64_t steps, cl_uint n_wait, const cl_event *wait,
                        cl_event *done) {
  if (done) *done = NULL;
  if (n_wait && !wait)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%u events to wait for but the wait list is NULL", n_wait);
  sqz_enqueue enq = {n_wait, wait, (void **)done};
  return sqz__stencil_run(f, u, steps, &enq);
}

int sqz_life_enqueue(sqz_field *f, const char *rule, uint64_t steps, cl_uint n_wait, const cl_event *wait,
                     cl_event *done) {
  sqz_update u;
  if (done) *done = NULL;
  int st = sqz__life_update(f, rule, &u);
  return st == SQZ_OK ? sqz__enqueue(f, &u, steps, n_wait, wait, done) : st;
}

int sqz_stencil_enqueue(sqz_field *f, const char *source, const char *source_name, const double *param,
                        size_t n_param, uint64_t steps, cl_uint n_wait, const cl_event *wait, cl_event *done) {
  sqz_update u;
  if (done) *done = NULL;
  int st = sqz__stencil_update(f, source, source_name, param, n_param, &u);
  return st == SQZ_OK ? sqz__enqueue(f, &u, steps, n_wait, wait, done) : st;
}

int sqz_life_prepare(sqz_field *f, const char *rule) {
  sqz_update u;
  int st = sqz__life_update(f, rule, &u);
  return st == SQZ_OK ? sqz__stencil_prepare(f, &u) : st;
}

int sqz_stencil_prepare(sqz_field *f, const char *source, const char *source_name, const double *param,
                        size_t n_param) {
  sqz_update u;
  int st = sqz__stencil_update(f, source, source_name, param, n_param, &u);
  return st == SQZ_OK ? sqz__stencil_prepare(f, &u) : st;
}

int sqz_heat_prepare(sqz_field *f, double alpha) {
  sqz_update u;
  int st = sqz__heat_update(f, &alpha, &u);
  return st == SQZ_OK ? sqz__stencil_prepare(f, &u) : st;
}
