/* observe.c — sqz_field_observe: the moments of every part through the backend's observe, probes by their cell, the items' values; and the observer of the step calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apps/observe.h"
#include "core/backend.h"
#include "core/field_parts.h"

int sqz__obs_request(sqz_field *f, const sqz_observable *items, size_t n, sqz_obs_req *req) {
  memset(req, 0, sizeof *req);
  const double side = (double)f->dom->side;
  for (size_t i = 0; i < n; i++) {
    const sqz_observable *o = &items[i];
    if ((unsigned)o->kind > SQZ_OBS_PROBE)
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "observable %zu: unknown kind %d", i, (int)o->kind);
    if (sqz__layout_of(f)->io && (o->kind == SQZ_OBS_M2 || o->kind == SQZ_OBS_COM))
      return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "observable %zu (%s): layout %s gives no cell positions on the "
                       "device (store the field in another layout)", i, o->kind == SQZ_OBS_M2 ? "m2" : "com",
                       sqz__layout_of(f)->name);
    if (o->kind == SQZ_OBS_PROBE &&
        !(o->x >= 0 && o->x < side && o->y >= 0 && o->y < side && o->z >= 0 && o->z < side && o->x == floor(o->x) &&
          o->y == floor(o->y) && o->z == floor(o->z)))
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "observable %zu: probe (x %g, y %g, z %g) is not a cell of %s",
                       i, o->x, o->y, o->z, f->dom->spec);
    if (o->kind != SQZ_OBS_M2) continue;
    if (!(isfinite(o->x) && isfinite(o->y) && isfinite(o->z)))
      return sqz__fail(f->ctx, SQZ_ERR_NON_FINITE, "observable %zu: m2 about (x %g, y %g, z %g)", i, o->x, o->y, o->z);
    if (req->n_points == SQZ_OBSERVE_MAX_POINTS)
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "more than %d m2 observables in one call",
                       SQZ_OBSERVE_MAX_POINTS);
    double *p = req->point[req->n_points++];
    p[0] = o->x;
    p[1] = o->y;
    p[2] = f->dom->dims == 3 ? o->z : 0.0;
  }
  return SQZ_OK;
}

/* A layout that reduces its own cells (bits: by popcounts, of two-state cells): the count gives the sum of its
 * 0/1 cells, and so min and max. */
static int obs_layout(sqz_field *f, const sqz_layout_io *io, sqz_obs_acc *acc) {
  sqz_red_acc red = {0};
  int st = io->reduce(f, SQZ_RED_COUNT, &red);
  if (st != SQZ_OK) return st;
  acc->count = red.count;
  sqz__red_add(&acc->sum[SQZ_OBS_SU], (long double)red.count);
  acc->max = red.count ? 1.0 : 0.0;
  acc->min = red.count == f->dom->cells ? 1.0 : 0.0;
  return SQZ_OK;
}

int sqz__field_obs_acc(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc) {
  sqz__obs_acc_init(acc);
  if (sqz__layout_of(f)->io) return obs_layout(f, sqz__layout_of(f)->io, acc);
  if (!f->parts) return f->ctx->ops->observe(f, req, acc);
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < f->parts->parts; p++) {
    sqz_field view;
    sqz__part_view(f, p, &view);
    if (!view.ctx) continue; /* held by another rank */
    sqz__lock(view.ctx);
    st = view.ctx->ops->observe(&view, req, acc);
    if (st != SQZ_OK && view.ctx != f->ctx) st = sqz__fail(f->ctx, st, "%s", sqz_last_error(view.ctx));
    sqz__unlock(view.ctx);
  }
  return st;
}

static double obs_sum(const sqz_obs_acc *acc, int s) { return (double)(acc->sum[s].s + acc->sum[s].c); }

void sqz__obs_values(const sqz_field *f, const sqz_observable *items, size_t n, const sqz_obs_acc *acc,
                     const double *probe, double *out) {
  const double total = obs_sum(acc, SQZ_OBS_SU);
  uint32_t m2 = 0;
  for (size_t i = 0; i < n; i++) {
    switch (items[i].kind) {
    case SQZ_OBS_SUM: *out++ = total; break;
    case SQZ_OBS_NONZERO: *out++ = (double)acc->count; break;
    case SQZ_OBS_MIN: *out++ = acc->min; break;
    case SQZ_OBS_MAX: *out++ = acc->max; break;
    case SQZ_OBS_M2: *out++ = obs_sum(acc, SQZ_OBS_SM2 + (int)m2++); break;
    case SQZ_OBS_COM: /* y, x[, z] */
      *out++ = total != 0.0 ? obs_sum(acc, SQZ_OBS_SY) / total : NAN;
      *out++ = total != 0.0 ? obs_sum(acc, SQZ_OBS_SX) / total : NAN;
      if (f->dom->dims == 3) *out++ = total != 0.0 ? obs_sum(acc, SQZ_OBS_SZ) / total : NAN;
      break;
    case SQZ_OBS_PROBE: *out++ = *probe++; break;
    }
  }
}

int sqz_field_observe(sqz_field *f, const sqz_observable *items, size_t n, double *out) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_observe: the field is NULL");
  if (n && (!items || !out))
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_observe: %s is NULL", !items ? "items" : "out");
  sqz_obs_req req;
  int st = sqz__obs_request(f, items, n, &req);
  double *probe = st == SQZ_OK ? sqz__calloc(n + 1, sizeof *probe) : NULL;
  if (st == SQZ_OK && !probe) st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "sqz_field_observe: %zu probes", n);
  size_t np = 0;
  for (size_t i = 0; st == SQZ_OK && i < n; i++) {
    int here = 0;
    if (items[i].kind != SQZ_OBS_PROBE) continue;
    st = sqz__field_probe(f, &items[i], &probe[np++], &here);
    if (st == SQZ_OK && !here)
      st = sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "observable %zu: its cell is held by another process "
                     "(sqz_mpi_field_observe)", i);
  }
  if (st == SQZ_OK) {
    sqz_obs_acc acc;
    sqz__op_begin(f->ctx);
    st = sqz__field_obs_acc(f, &req, &acc);
    sqz__op_end(f->ctx);
    if (st == SQZ_OK) sqz__obs_values(f, items, n, &acc, probe, out);
  }
  free(probe);
  return st;
}

int sqz_context_set_observer(sqz_context *ctx, uint64_t every, sqz_observer_fn fn, void *user_data) {
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_set_observer: the context is NULL");
  sqz__lock(ctx);
  ctx->observer = every && fn ? fn : NULL;
  ctx->observer_every = every && fn ? every : 0;
  ctx->observer_user = user_data;
  sqz__unlock(ctx);
  return SQZ_OK;
}
