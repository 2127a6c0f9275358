/* stencil.c — user stencils and heat diffusion on the engine: argument checks, then the backend's stencil entry. */
#include <math.h>
#include <string.h>

#include "apps/stencil.h"
#include "core/backend.h"
#include "core/engine_report.h"
#include "core/field_parts.h"

int sqz_context_set_progress(sqz_context *ctx, sqz_progress_fn fn, void *user_data, double interval_s) {
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_set_progress: the context is NULL");
  if (!(interval_s >= 0.0 && interval_s <= 3600.0))
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "progress interval %g s is not in [0, 3600]", interval_s);
  ctx->progress = fn;
  ctx->progress_user = user_data;
  ctx->progress_interval = interval_s > 0.0 ? interval_s : 0.25;
  return SQZ_OK;
}

/* `steps` steps by the backend's engine, or on a field in parts by the parts' step (synchronous:
 * it takes no wait list and gives no event). */
static int sqz__stencil_steps(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq) {
  if (!f->parts) return f->ctx->ops->stencil(f, u, steps, enq);
  if (enq && (enq->n_wait || enq->done))
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED,
                     "%s is stored in %llu parts, which step synchronously: an enqueued step takes no wait list and "
                     "gives no event (the steps did not run)",
                     f->dom->spec, (unsigned long long)f->parts->parts);
  return sqz__field_parts_step(f, u, steps);
}

/* The observer after `done` steps, outside the step call's timing: the kernel time it adds is not
 * the steps' (its wall time is). */
static int sqz__stencil_observe(sqz_field *f, uint64_t done) {
  sqz_context *ctx = f->ctx;
  const double kernel_s = ctx->kernel_s, op_start = ctx->op_start;
  int st = ctx->observer(f, done, ctx->observer_user);
  ctx->kernel_s = kernel_s;
  ctx->op_start = op_start;
  return st;
}

/* With a progress callback: chunks of steps sized from the time of the previous chunk, so that
 * one chunk lasts about the callback's interval, the callback between chunks. With an observer:
 * chunks that end at every multiple of its interval, the observer there and after the last step. */
static int sqz__stencil_chunks(sqz_field *f, const sqz_update *u, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  const uint64_t every = ctx->observer ? ctx->observer_every : 0;
  uint64_t done = 0, chunk = ctx->progress ? 1 : steps;
  double t0 = sqz__now();
  int st = SQZ_OK;
  while (st == SQZ_OK && done < steps) {
    uint64_t n = steps - done < chunk ? steps - done : chunk;
    if (every && n > every - done % every) n = every - done % every;
    double c0 = sqz__now();
    st = sqz__stencil_steps(f, u, n, NULL);
    if (st == SQZ_OK) st = sqz__store_finish(f);
    if (st != SQZ_OK) break;
    done += n;
    if (every && (done % every == 0 || done == steps) && (st = sqz__stencil_observe(f, done)) != SQZ_OK) break;
    if (!ctx->progress) continue;
    double now = sqz__now(), dt = now - c0;
    double rate = now > t0 ? (double)f->dom->cells * (double)done / (now - t0) : 0.0;
    if (ctx->progress(done, steps, rate, ctx->progress_user) != 0 && done < steps)
      return sqz__fail(ctx, SQZ_ERR_CANCELLED, "cancelled after %llu of %llu steps", (unsigned long long)done,
                       (unsigned long long)steps);
    double want = ctx->progress_interval * (double)n / (dt > 1e-6 ? dt : 1e-6); /* steps per interval */
    chunk = want < 1.0 ? 1 : want > 2.0 * (double)n + 1.0 ? 2 * n + 1 : (uint64_t)want;
  }
  return st;
}

int sqz__stencil_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq) {
  sqz__op_begin(f->ctx);
  int st = SQZ_OK;
  if (steps) sqz__engine_reset(f);
  if (steps && (f->ctx->progress || f->ctx->observer) && !enq) st = sqz__stencil_chunks(f, u, steps); /* blocking calls */
  else if (steps || enq) st = sqz__stencil_steps(f, u, steps, enq); /* enq: `done` even for 0 steps */
  if (st == SQZ_OK && (!enq || f->parts)) st = sqz__store_finish(f);
  if (steps) sqz__engine_debug(f);
  sqz__op_end(f->ctx);
  return st;
}

/* Parameters must be finite; f32 fields take them as float, so they must fit one. */
static int sqz__check_params(sqz_field *f, const double *param, size_t n_param) {
  if (n_param && !param) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%zu parameters given but param is NULL", n_param);
  for (size_t i = 0; i < n_param; i++) {
    if (!isfinite(param[i]))
      return sqz__fail(f->ctx, SQZ_ERR_NON_FINITE, "parameter %zu is %g: parameters must be finite", i + 1, param[i]);
    if (f->type != SQZ_F64 && !isfinite((float)param[i]))
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "parameter %zu = %g does not fit a float (sqz_param_t of %s cells)",
                       i + 1, param[i], f->type == SQZ_F32 ? "f32" : f->type == SQZ_I32 ? "i32" : "u8");
  }
  return SQZ_OK;
}

int sqz__stencil_update(sqz_field *f, const char *source, const char *source_name, const double *param,
                        size_t n_param, sqz_update *u) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_stencil_step: the field is NULL");
  if (!source || !*source) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_stencil_step: the update source is empty");
  int st = sqz__check_params(f, param, n_param);
  if (st != SQZ_OK) return st;
  memset(u, 0, sizeof *u);
  u->kind = SQZ_UPDATE_CL;
  u->source = source;
  u->source_name = source_name;
  u->param = param;
  u->n_param = n_param;
  return SQZ_OK;
}

int sqz_stencil_step(sqz_field *f, const char *source, const char *source_name, const double *param, size_t n_param,
                     uint64_t steps) {
  sqz_update u;
  int st = sqz__stencil_update(f, source, source_name, param, n_param, &u);
  return st == SQZ_OK ? sqz__stencil_run(f, &u, steps, NULL) : st;
}

int sqz_stencil_step_fn(sqz_field *f, sqz_update_fn fn, void *user_data, const double *param, size_t n_param,
                        uint64_t steps) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_stencil_step_fn: the field is NULL");
  if (!fn) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_stencil_step_fn: the update function is NULL");
  int st = sqz__check_params(f, param, n_param);
  if (st != SQZ_OK) return st;
  sqz_update u = {.kind = SQZ_UPDATE_FN};
  u.fn = fn;
  u.user = user_data;
  u.param = param;
  u.n_param = n_param;
  return sqz__stencil_run(f, &u, steps, NULL);
}

double sqz_heat_alpha_max(int dims) { return dims == 3 ? 1.0 / 6.0 : 0.25; }

int sqz__heat_update(sqz_field *f, const double *alpha, sqz_update *u) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_heat_step: the field is NULL");
  if (f->type != SQZ_F32 && f->type != SQZ_F64)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "heat needs an f32 or f64 field (this one has %zu-byte %s cells)",
                     sqz_type_size(f->type), f->type == SQZ_U8 ? "u8" : "i32");
  double amax = sqz_heat_alpha_max(f->dom->dims);
  if (!(*alpha > 0.0 && *alpha <= amax))
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "alpha %g is outside (0, %g], the stability limit in %dD", *alpha,
                     amax, f->dom->dims);
  memset(u, 0, sizeof *u);
  u->kind = SQZ_UPDATE_HEAT;
  u->param = alpha;
  u->n_param = 1;
  return SQZ_OK;
}

int sqz_heat_step(sqz_field *f, double alpha, uint64_t steps) {
  sqz_update u;
  int st = sqz__heat_update(f, &alpha, &u);
  return st == SQZ_OK ? sqz__stencil_run(f, &u, steps, NULL) : st;
}

int sqz__stencil_prepare(sqz_field *f, const sqz_update *u) {
  if (f->parts)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED,
                     "%s is stored in %llu parts, whose steps build their programs at the first step: a prepare takes "
                     "a field in one buffer", f->dom->spec, (unsigned long long)f->parts->parts);
  sqz__op_begin(f->ctx);
  struct sqz_engine_report report = f->report; /* the last step call's path stays the one reported */
  sqz__engine_reset(f);
  int st = f->ctx->ops->prepare(f, u);
  if (st == SQZ_OK) st = sqz__finish(f->ctx);
  f->report = report;
  sqz__op_end(f->ctx);
  return st;
}
