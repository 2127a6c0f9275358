/* mpi_field.c — a field in parts on MPI ranks: creation agreed by every rank, the state to and from a root's field, Life and heat steps with the halo exchange, counts and per-rank figures. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/cpu/cpu_rules.h" /* the per-cell arithmetic of the parted host run */
#include "mpi/mpi_internal.h"

struct sqz_mpi_field {
  sqz_context *ctx; /* retained */
  sqz_domain *dom;  /* retained */
  sqz_type type;
  size_t ts;
  int rank, size;
  sqz_parted *pf;   /* part `rank` of `size` */
  sqz_mpi_xchg x;   /* x.comm: the field's communicator */
  uint64_t cells, halo;
  double step_s;
};

int sqz_mpi_agree(sqz_context *ctx, MPI_Comm comm, int st) {
  int me = 0, first = INT_MAX;
  MPI_Comm_rank(comm, &me);
  int bad = st != SQZ_OK ? me : INT_MAX;
  MPI_Allreduce(&bad, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT_MAX) return SQZ_OK;
  struct {
    int code;
    char detail[1020];
  } m = {st, ""};
  if (me == first) snprintf(m.detail, sizeof m.detail, "%s", sqz_last_error(ctx));
  MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, comm);
  if (strncmp(m.detail, "rank ", 5) == 0) return sqz__fail(ctx, m.code, "%s", m.detail); /* agreed before */
  return sqz__fail(ctx, m.code, "rank %d: %s", first, m.detail);
}

static int sqz__mpi_start(sqz_parted *pf, void *user) {
  sqz_mpi_field *f = user;
  return sqz__mpi_xchg_start(&f->x, sqz__parted_buffer(pf, (uint64_t)f->rank, NULL));
}

static int sqz__mpi_finish(sqz_parted *pf, void *user) { return sqz__mpi_xchg_finish(&((sqz_mpi_field *)user)->x); }

static const sqz_parted_xchg sqz__mpi_exchange = {sqz__mpi_start, sqz__mpi_finish};

/* What this rank can check alone before its part is made. */
static int sqz__mpi_check(sqz_context *ctx, const sqz_domain *dom, sqz_type type, const char *layout, int size) {
  uint64_t most = dom->cells < SQZ_PARTS_MAX ? dom->cells : SQZ_PARTS_MAX;
  if (!ctx->ops->host_memory)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                     "parts on MPI ranks are stepped on the host for now (the cpu backend): the %s backend's device "
                     "parts are not done yet",
                     ctx->ops->name);
  if (layout && strcmp(layout, "compact") != 0)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "layout %s: parts on MPI ranks are stored in layout compact", layout);
  if (type != SQZ_U8 && type != SQZ_I32 && type != SQZ_F32 && type != SQZ_F64)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "cell type %d", (int)type);
  if ((uint64_t)size > most)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%d MPI ranks for %s: the largest valid count is %llu (%s)", size,
                     dom->spec, (unsigned long long)most,
                     most == dom->cells ? "one cell per rank" : "the most parts sqz plans");
  return SQZ_OK;
}

int sqz_field_create_mpi(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type, const char *layout,
                         sqz_mpi_field **out) {
  if (!out || !ctx || !dom)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_create_mpi: %s is NULL",
                     !out ? "out" : !ctx ? "the context" : "the domain");
  *out = NULL;
  MPI_Comm dup = MPI_COMM_NULL;
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_dup(comm, &dup); /* first: collective, before anything that may fail on one rank only */
  int st = sqz__mpi_check(ctx, dom, type, layout, size);
  sqz_mpi_field *f = st == SQZ_OK ? sqz__calloc(1, sizeof *f) : NULL;
  if (st == SQZ_OK && !f) st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "an MPI field");
  if (f) {
    f->x.comm = dup;
    f->ctx = ctx;
    f->dom = dom;
    f->type = type;
    f->ts = sqz_type_size(type);
    f->rank = rank;
    f->size = size;
    st = sqz__parted_create_held(dom, (uint64_t)size, (uint64_t)rank, (uint64_t)rank + 1, 1, f->ts, NULL,
                                 &sqz__mpi_exchange, f, &f->pf);
    if (st != SQZ_OK && dom->ctx != ctx) sqz__fail(ctx, st, "%s", sqz_last_error(dom->ctx));
  }
  if (st == SQZ_OK) st = sqz__mpi_xchg_init(&f->x, sqz__parted_plan(f->pf), (uint64_t)rank, f->ts);
  if (st == SQZ_OK) {
    const sqz_parts_plan *plan = sqz__parted_plan(f->pf);
    const sqz_halo *h = NULL;
    sqz__parted_buffer(f->pf, (uint64_t)rank, &h);
    f->cells = plan->start[rank + 1] - plan->start[rank];
    f->halo = h->n;
  }
  st = sqz_mpi_agree(ctx, dup, st);
  if (st != SQZ_OK) {
    if (f) {
      sqz__mpi_xchg_free(&f->x);
      sqz__parted_free(f->pf);
      free(f);
    }
    MPI_Comm_free(&dup);
    return st;
  }
  sqz_context_retain(ctx);
  sqz_domain_retain(dom);
  *out = f;
  return SQZ_OK;
}

void sqz_mpi_field_release(sqz_mpi_field *f) {
  if (!f) return;
  MPI_Comm comm = f->x.comm;
  sqz__mpi_xchg_free(&f->x);
  sqz__parted_free(f->pf);
  sqz_domain_release(f->dom);
  sqz_context_release(f->ctx);
  free(f);
  MPI_Comm_free(&comm);
}

/* ---- the state between the parts and a root's field, one part at a time --------------------- */
static int sqz__mpi_move(sqz_mpi_field *f, sqz_field *whole, int root, int gather) {
  const char *what = gather ? "sqz_mpi_field_gather" : "sqz_mpi_field_scatter";
  if (root < 0 || root >= f->size)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: root %d of %d ranks", what, root, f->size);
  MPI_Comm comm = f->x.comm;
  const sqz_parts_plan *plan = sqz__parted_plan(f->pf);
  unsigned char *own = sqz__parted_buffer(f->pf, (uint64_t)f->rank, NULL), *tmp = NULL;
  int st = SQZ_OK, go = 1;
  sqz_compact_io io = {0};
  if (f->rank == root) { /* everything that may fail before the traffic, then go or no-go for all */
    uint64_t most = 0;
    for (int p = 0; p < f->size; p++)
      if (plan->start[p + 1] - plan->start[p] > most) most = plan->start[p + 1] - plan->start[p];
    if (!whole) st = sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the root's field is NULL", what);
    else if (strcmp(whole->dom->spec, f->dom->spec) != 0 || whole->type != f->type)
      st = sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the root's field (%s) differs from the parts' (%s) in domain or type",
                     what, whole->dom->spec, f->dom->spec);
    if (st == SQZ_OK && f->size > 1)
      st = sqz__host_alloc(f->ctx, most * f->ts, 0, (void **)&tmp, "%s: one part of %s on the root (%llu cells)", what,
                           f->dom->spec, (unsigned long long)most);
    if (st == SQZ_OK) st = sqz__compact_open(whole, gather ? SQZ_COMPACT_LOAD : SQZ_COMPACT_READ, what, &io);
    if (st != SQZ_OK && whole && whole->ctx != f->ctx) sqz__fail(f->ctx, st, "%s", sqz_last_error(whole->ctx));
    go = st == SQZ_OK;
  }
  MPI_Bcast(&go, 1, MPI_INT, root, comm);
  if (go && f->rank != root)
    st = gather ? sqz__mpi_send(comm, own, f->cells * f->ts, root) : sqz__mpi_recv(comm, own, f->cells * f->ts, root);
  for (int p = 0; go && f->rank == root && p < f->size; p++) { /* the traffic goes on after a failure: no rank waits */
    uint64_t c0 = plan->start[p], n = plan->start[p + 1] - c0;
    unsigned char *v = p == root ? own : tmp;
    int mst = SQZ_OK;
    if (gather && p != root) mst = sqz__mpi_recv(comm, v, n * f->ts, p);
    if (st == SQZ_OK) st = mst;
    if (st == SQZ_OK) st = sqz__compact_band(&io, c0, n, v);
    if (!gather && p != root) mst = sqz__mpi_send(comm, v, n * f->ts, p);
    if (st == SQZ_OK) st = mst;
  }
  if (go && f->rank == root) {
    if (st == SQZ_OK) st = sqz__compact_commit(&io);
    if (st != SQZ_OK && whole->ctx != f->ctx) sqz__fail(f->ctx, st, "%s", sqz_last_error(whole->ctx));
    sqz__compact_close(&io);
  }
  free(tmp);
  return sqz_mpi_agree(f->ctx, comm, st);
}

int sqz_mpi_field_scatter(sqz_mpi_field *f, sqz_field *whole, int root) {
  return f ? sqz__mpi_move(f, whole, root, 0) : sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "the MPI field is NULL");
}

int sqz_mpi_field_gather(sqz_mpi_field *f, sqz_field *whole, int root) {
  return f ? sqz__mpi_move(f, whole, root, 1) : sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "the MPI field is NULL");
}

/* ---- steps ------------------------------------------------------------------------------------ */
/* `steps` of fn on the parts; the context's timing: kernel = stepping, wall = with the exchange. */
static int sqz__mpi_steps(sqz_mpi_field *f, sqz_update_fn fn, void *user, const void *param, uint64_t steps) {
  sqz__op_begin(f->ctx);
  double t0 = sqz__now(), w0 = f->x.wait_s;
  int st = sqz__parted_step(f->pf, fn, user, param, steps);
  double t = sqz__now() - t0;
  f->step_s += t;
  f->ctx->kernel_s += t - (f->x.wait_s - w0);
  sqz__op_end(f->ctx);
  return sqz_mpi_agree(f->ctx, f->x.comm, st);
}

int sqz_mpi_life_step(sqz_mpi_field *f, const char *rule, uint64_t steps) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "the MPI field is NULL");
  if (f->type != SQZ_U8)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "Life needs a u8 field (this one has %zu-byte cells)", f->ts);
  sqz_cpu_life_rule r = {0, 0, f->dom->dims == 2 ? 8 : 26};
  char err[256];
  if (!rule) rule = f->dom->dims == 2 ? "B3/S23" : "B6/S5,6,7";
  if (sqz_rule_parse(rule, f->dom->dims, &r.birth, &r.survive, err, sizeof err) != SQZ_OK)
    return sqz__fail(f->ctx, SQZ_ERR_PARSE, "%s", err);
  return sqz__mpi_steps(f, sqz__cpu_life, &r, NULL, steps);
}

int sqz_mpi_heat_step(sqz_mpi_field *f, double alpha, uint64_t steps) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "the MPI field is NULL");
  if (f->type != SQZ_F32 && f->type != SQZ_F64)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "heat needs an f32 or f64 field (this one has %zu-byte cells)", f->ts);
  double amax = sqz_heat_alpha_max(f->dom->dims);
  if (!(alpha > 0.0 && alpha <= amax))
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "alpha %g is outside (0, %g], the stability limit in %dD", alpha,
                     amax, f->dom->dims);
  int nb = f->dom->dims == 2 ? 8 : 26;
  float a32 = (float)alpha; /* sqz_param_t: float but for f64 fields, as the backends convert it */
  return f->type == SQZ_F32 ? sqz__mpi_steps(f, sqz__cpu_heat_f32, &nb, &a32, steps)
                            : sqz__mpi_steps(f, sqz__cpu_heat_f64, &nb, &alpha, steps);
}

int sqz_mpi_field_count(sqz_mpi_field *f, uint64_t *nonzero) {
  if (!f || !nonzero) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_mpi_field_count: a NULL argument");
  const unsigned char *own = sqz__parted_buffer(f->pf, (uint64_t)f->rank, NULL);
  uint64_t mine = 0;
  for (uint64_t i = 0; i < f->cells; i++) mine += (uint64_t)sqz__is_nonzero(own + i * f->ts, f->ts);
  int rc = MPI_Allreduce(&mine, nonzero, 1, MPI_UINT64_T, MPI_SUM, f->x.comm);
  return rc == MPI_SUCCESS ? SQZ_OK : sqz__fail(f->ctx, SQZ_ERR_IO, "MPI_Allreduce of the counts failed (%d)", rc);
}

int sqz_mpi_field_stats(const sqz_mpi_field *f, sqz_mpi_rank_stats *s) {
  if (!f || !s) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_mpi_field_stats: a NULL argument");
  memset(s, 0, sizeof *s);
  s->part = (uint64_t)f->rank;
  s->cells = f->cells;
  s->halo_cells = f->halo;
  s->bytes = (f->cells + f->halo) * sqz__parted_slot_bytes(f->dom, f->ts);
  s->neighbours = (uint64_t)f->x.n_links;
  for (int i = 0; i < f->x.n_links; i++) s->send_bytes += f->x.link[i].send_units * f->ts;
  s->step_s = f->step_s;
  s->wait_s = f->x.wait_s;
  return SQZ_OK;
}
