/* mpi_field.c — fields in parts on MPI ranks: creation agreed by every rank, the state to and from a root's field, counts, sums and per-rank figures. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "mpi/mpi_internal.h"

#define SQZ_MPI_PIECE ((uint64_t)1 << 24) /* storage elements per scatter/gather message */
#define SQZ_MPI_MOVE_TAG 5214

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

int sqz_field_create_mpi(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type, const char *layout,
                         sqz_field **out) {
  return sqz_field_create_mpi_parts(ctx, comm, dom, type, layout, 0, out);
}

/* The part count of a field on `size` ranks: parts, or with 0 the ranks, or more where some rank's
 * device allocates less than a part per rank needs (the fewest parts that each fit, agreed). */
static int sqz__mpi_part_count(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type, const char *layout,
                               uint64_t parts, int size, uint64_t *out) {
  uint64_t fit = 1, most = 1;
  if (parts == 0 && sqz__parts_fit(dom, ctx, type, layout, &fit) != SQZ_OK) fit = 1; /* creation names the fault */
  MPI_Allreduce(&fit, &most, 1, MPI_UINT64_T, MPI_MAX, comm);
  *out = parts ? parts : most > (uint64_t)size ? most : (uint64_t)size;
  if (*out < (uint64_t)size)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%llu parts on %d MPI ranks: every rank holds a part (at least %d)",
                     (unsigned long long)parts, size, size);
  return SQZ_OK;
}

int sqz_field_create_mpi_parts(sqz_context *ctx, MPI_Comm comm, sqz_domain *dom, sqz_type type, const char *layout,
                               uint64_t parts, sqz_field **out) {
  if (!out || !ctx || !dom)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_create_mpi: %s is NULL",
                     !out ? "out" : !ctx ? "the context" : "the domain");
  *out = NULL;
  int size = 1, rank = 0;
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_dup(comm, &dup); /* first: collective, before anything that may fail on one rank only */
  uint64_t n = 0;
  int st = sqz__mpi_part_count(ctx, dup, dom, type, layout, parts, size, &n); /* the same on every rank */
  sqz_context **ctxs = st == SQZ_OK && n <= SQZ_PARTS_MAX ? sqz__calloc((size_t)n, sizeof *ctxs) : NULL;
  sqz_field *f = NULL;
  sqz_mpi_state *x = NULL;
  if (st == SQZ_OK && !ctxs)
    st = n > SQZ_PARTS_MAX ? sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%llu parts: at most %llu", (unsigned long long)n,
                                       (unsigned long long)SQZ_PARTS_MAX)
                           : sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "the context table of %llu parts", (unsigned long long)n);
  if (st == SQZ_OK) {
    for (uint64_t p = 0; p < n; p++) /* contiguous blocks of parts per rank; the others are held elsewhere */
      if (sqz__mpi_rank_of(p, n, size) == rank) ctxs[p] = ctx;
    st = sqz__field_create_held(dom, ctxs, n, type, layout, &sqz__exchange_mpi, &f);
    if (st != SQZ_OK && dom->ctx && dom->ctx != ctx) sqz__fail(ctx, st, "%s", sqz_last_error(dom->ctx));
    if (st == SQZ_ERR_TOO_LARGE) { /* this rank's part does not fit its device: memory, not the domain */
      char detail[1024];
      snprintf(detail, sizeof detail, "%s", sqz_last_error(ctx));
      char *hint = strstr(detail, " (more parts: --parts)"); /* here: more ranks or parts */
      if (hint) snprintf(hint, sizeof detail - (size_t)(hint - detail), " (more ranks or --parts make smaller parts)");
      st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s", detail);
    }
  }
  free(ctxs);
  if (st == SQZ_OK) st = sqz__mpi_state_new(f, dup, &x);
  if (st == SQZ_OK) f->parts->state = x; /* x owns dup now */
  st = sqz_mpi_agree(ctx, comm, st);
  if (st != SQZ_OK) {
    sqz_field_release(f); /* the exchange's release frees x */
    if (!x) MPI_Comm_free(&dup);
    return st;
  }
  *out = f;
  return SQZ_OK;
}

/* ---- the state between the ranks and a root's field, a piece at a time ----------------------- */
static int sqz__mpi_move(sqz_field *f, sqz_field *whole, int root, int gather) {
  const char *what = gather ? "sqz_mpi_field_gather" : "sqz_mpi_field_scatter";
  sqz_mpi_state *x = sqz__mpi_state(f);
  if (!x) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "%s: not a field on MPI ranks", what);
  if (root < 0 || root >= x->size)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: root %d of %d ranks", what, root, x->size);
  const sqz_field_split *fp = f->parts;
  unsigned char *buf = NULL;
  uint64_t most = 0;
  for (uint64_t p = 0; p < fp->parts; p++) {
    uint64_t n = (fp->part[p].u1 - fp->part[p].u0) * fp->unit;
    most = n > most ? n : most;
  }
  most = most < SQZ_MPI_PIECE ? most : SQZ_MPI_PIECE;
  int st = sqz__host_alloc(f->ctx, most ? sqz__elems_bytes(f, most) : 1, 0, (void **)&buf, "%s: a piece of %llu elements", what,
                           (unsigned long long)most);
  if (st == SQZ_OK && x->rank == root) {
    if (!whole) st = sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the root's field is NULL", what);
    else if (strcmp(whole->dom->spec, f->dom->spec) != 0 || whole->type != f->type || whole->elems != f->elems ||
             strcmp(whole->layout_str, f->layout_str) != 0)
      st = sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the root's field (%s, layout %s) is not the parts' (%s, layout %s)",
                     what, whole->dom->spec, whole->layout_str, f->dom->spec, f->layout_str);
  }
  if ((st = sqz_mpi_agree(f->ctx, x->comm, st)) != SQZ_OK) {
    free(buf);
    return st;
  }
  sqz__op_begin(f->ctx);
  for (uint64_t p = 0; p < fp->parts; p++) { /* the messages go on after a failure: no rank waits for one */
    uint64_t e0 = fp->part[p].u0 * fp->unit, n = (fp->part[p].u1 - fp->part[p].u0) * fp->unit;
    int holder = sqz__mpi_rank_of(p, fp->parts, x->size);
    if (x->rank != root && x->rank != holder) continue;
    for (uint64_t off = 0; off < n; off += SQZ_MPI_PIECE) {
      uint64_t m = n - off < SQZ_MPI_PIECE ? n - off : SQZ_MPI_PIECE, at = e0 + off;
      sqz_field *src = gather ? f : whole, *dst = gather ? whole : f;
      int s = SQZ_OK, rc = MPI_SUCCESS, sender = gather ? holder : root, receiver = gather ? root : holder;
      if (x->rank == sender) s = sqz__store_read(src, src->cur, at, m, buf);
      if (sender != receiver && x->rank == sender)
        rc = MPI_Send(buf, (int)sqz__elems_bytes(f, m), MPI_BYTE, receiver, SQZ_MPI_MOVE_TAG, x->comm);
      if (sender != receiver && x->rank == receiver)
        rc = MPI_Recv(buf, (int)sqz__elems_bytes(f, m), MPI_BYTE, sender, SQZ_MPI_MOVE_TAG, x->comm, MPI_STATUS_IGNORE);
      if (s == SQZ_OK && rc != MPI_SUCCESS) s = sqz__fail(f->ctx, SQZ_ERR_IO, "%s: an MPI message failed (%d)", what, rc);
      if (s == SQZ_OK && x->rank == receiver && st == SQZ_OK) s = sqz__store_write(dst, dst->cur, at, m, buf);
      if (st == SQZ_OK) st = s;
    }
  }
  sqz_field *mine = x->rank == root ? (gather ? whole : f) : f;
  if (st == SQZ_OK) st = sqz__store_finish(mine);
  if (st != SQZ_OK && mine->ctx != f->ctx) sqz__fail(f->ctx, st, "%s", sqz_last_error(mine->ctx));
  if (st == SQZ_OK && x->rank == root && !gather) st = sqz__store_finish(whole);
  sqz__op_end(f->ctx);
  free(buf);
  return sqz_mpi_agree(f->ctx, x->comm, st);
}

int sqz_mpi_field_scatter(sqz_field *f, sqz_field *whole, int root) { return sqz__mpi_move(f, whole, root, 0); }
int sqz_mpi_field_gather(sqz_field *f, sqz_field *whole, int root) { return sqz__mpi_move(f, whole, root, 1); }

/* ---- reductions over the ranks ------------------------------------------------------------- */
int sqz_mpi_field_count(sqz_field *f, uint64_t *nonzero) {
  sqz_mpi_state *x = sqz__mpi_state(f);
  if (!x || !nonzero)
    return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_mpi_field_count: %s",
                     !x ? "not a field on MPI ranks" : "nonzero is NULL");
  uint64_t mine = 0;
  int st = sqz_mpi_agree(f->ctx, x->comm, sqz_field_count(f, &mine)); /* the parts held here */
  if (st == SQZ_OK) MPI_Allreduce(&mine, nonzero, 1, MPI_UINT64_T, MPI_SUM, x->comm);
  return st;
}

int sqz_mpi_field_sum(sqz_field *f, sqz_sum_method method, double *sum) {
  sqz_mpi_state *x = sqz__mpi_state(f);
  if (!x || !sum)
    return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_mpi_field_sum: %s",
                     !x ? "not a field on MPI ranks" : "sum is NULL");
  double mine = 0, *all = x->rank == 0 ? sqz__calloc((size_t)x->size, sizeof *all) : NULL;
  int st = sqz_field_sum(f, method, &mine);
  if (st == SQZ_OK && x->rank == 0 && !all) st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the sums of %d ranks", x->size);
  if ((st = sqz_mpi_agree(f->ctx, x->comm, st)) == SQZ_OK) {
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, x->comm);
    *sum = 0;
    for (int r = 0; all && r < x->size; r++) *sum += all[r]; /* rank order: the same on every run */
    MPI_Bcast(sum, 1, MPI_DOUBLE, 0, x->comm);
  }
  free(all);
  return st;
}

int sqz_mpi_field_stats(const sqz_field *f, sqz_mpi_rank_stats *s) {
  const sqz_mpi_state *x = sqz__mpi_state(f);
  if (!x || !s)
    return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_mpi_field_stats: %s",
                     !x ? "not a field on MPI ranks" : "stats is NULL");
  const sqz_field_split *fp = f->parts;
  memset(s, 0, sizeof *s);
  s->part = fp->parts;
  for (uint64_t p = 0; p < fp->parts; p++) { /* the parts held here */
    if (!fp->part[p].ctx) continue;
    s->part = s->part < p ? s->part : p;
    s->parts++;
    s->units += fp->part[p].u1 - fp->part[p].u0;
    s->halo_units += fp->part[p].n_halo;
  }
  s->unit_elems = fp->unit;
  s->bytes = 2 * (s->units + s->halo_units) * x->ub;
  for (int i = 0; i < x->n_links; i++) { /* the distinct ranks this one exchanges with */
    int seen = 0;
    for (int k = 0; k < i; k++) seen |= x->link[k].peer == x->link[i].peer;
    s->neighbours += !seen;
    s->send_bytes += x->link[i].send_units * x->ub;
  }
  s->exchange_s = x->exchange_s;
  s->wait_s = x->wait_s;
  s->inner_s = f->parts->clock.inner_s;
  s->border_s = f->parts->clock.border_s;
  return SQZ_OK;
}
