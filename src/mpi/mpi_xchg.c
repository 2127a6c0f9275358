/* mpi_xchg.c — the halo exchange of a field on MPI ranks: per pair of neighbouring parts on two ranks one packed message of runs out (MPI_Isend), one range of halo slots in (MPI_Irecv); parts on one rank by device copy. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "mpi/mpi_internal.h"

#define SQZ_MPI_TAG 5213

static int sqz__mpi_fail(sqz_context *ctx, int rc, const char *what) {
  if (rc == MPI_SUCCESS) return SQZ_OK;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  return sqz__fail(ctx, SQZ_ERR_IO, "%s: %s", what, msg);
}

static void sqz__mpi_state_free(sqz_mpi_state *x) {
  if (!x) return;
  for (int i = 0; x->link && i < x->n_links; i++) {
    free(x->link[i].run);
    free(x->link[i].send);
    if (x->ctx && x->link[i].units_dev) x->ctx->ops->free(x->ctx, x->link[i].units_dev);
    if (x->ctx && x->link[i].pack_dev) x->ctx->ops->free(x->ctx, x->link[i].pack_dev);
  }
  free(x->link);
  free(x->send_order);
  free(x->req);
  free(x->recv);
  free(x->recv_at);
  if (x->comm != MPI_COMM_NULL) MPI_Comm_free(&x->comm);
  free(x);
}

static void sqz__mpi_release(sqz_field_split *fp) {
  sqz__mpi_state_free(fp->state);
  fp->state = NULL;
}

/* Adds own unit `slot` to the send runs of l. */
static int sqz__mpi_send_unit(sqz_mpi_link *l, uint64_t slot, uint64_t *cap) {
  l->send_units++;
  if (l->n_runs && l->run[l->n_runs - 1][0] + l->run[l->n_runs - 1][1] == slot) {
    l->run[l->n_runs - 1][1]++;
    return SQZ_OK;
  }
  if (l->n_runs == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    void *grown = sqz__realloc(l->run, (size_t)*cap * sizeof *l->run);
    if (!grown) return SQZ_ERR_OUT_OF_MEMORY;
    l->run = grown;
  }
  l->run[l->n_runs][0] = slot;
  l->run[l->n_runs++][1] = 1;
  return SQZ_OK;
}

#define SQZ__MPI_PACK_RUNS 4 /* from this many send runs on a device: packed there by one gather, then one download */

/* Many short send runs on a device (a compact triangle's fold: one unit a row) are packed there by the backend's
 * copy_units into pack_dev, downloaded in one transfer, instead of a download per run. */
static int sqz__mpi_link_pack(sqz_mpi_state *x, sqz_mpi_link *l) {
  sqz_context *ctx = x->ctx;
  if (ctx->ops->host_memory || l->n_runs < SQZ__MPI_PACK_RUNS) return SQZ_OK;
  uint64_t *units = sqz__malloc((size_t)l->send_units * sizeof *units), k = 0;
  if (!units) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "the send list of %llu units", (unsigned long long)l->send_units);
  for (uint64_t r = 0; r < l->n_runs; r++)
    for (uint64_t u = 0; u < l->run[r][1]; u++) units[k++] = l->run[r][0] + u;
  sqz__lock(ctx);
  int st = ctx->ops->alloc(ctx, l->send_units * sizeof *units, &l->units_dev);
  if (st == SQZ_OK) st = ctx->ops->upload(ctx, l->units_dev, 0, units, l->send_units * sizeof *units);
  if (st == SQZ_OK) st = ctx->ops->alloc(ctx, l->send_units * x->ub, &l->pack_dev);
  if (st == SQZ_OK) st = sqz__finish(ctx);
  sqz__unlock(ctx);
  free(units);
  return st;
}

/* The link (part, peer_part): its receive range and its send runs. */
static int sqz__mpi_link_fill(sqz_field *f, sqz_mpi_state *x, sqz_mpi_link *l) {
  const sqz_field_split *fp = f->parts;
  const sqz_field_part *pt = &fp->part[l->part], *q = &fp->part[l->peer_part];
  uint64_t cap = 0;
  for (uint64_t i = 0; i < q->n_halo; i++)
    if (q->owner[i] == l->part && sqz__mpi_send_unit(l, q->halo[i] - pt->u0, &cap) != SQZ_OK)
      return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the send runs of part %llu", (unsigned long long)l->part);
  if (!(l->send = sqz__malloc(l->send_units ? (size_t)(l->send_units * x->ub) : 1)))
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "a send buffer of %llu units", (unsigned long long)l->send_units);
  if (l->recv_units * x->ub > INT_MAX || l->send_units * x->ub > INT_MAX)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "part %llu: a halo message to or from rank %d exceeds 2^31 bytes",
                     (unsigned long long)l->part, l->peer);
  return sqz__mpi_link_pack(x, l);
}

static const sqz_mpi_link *sqz__mpi_sort_links; /* the links sqz__mpi_send_cmp orders (creation is single-threaded) */
static int sqz__mpi_send_cmp(const void *a, const void *b) {
  const sqz_mpi_link *x = &sqz__mpi_sort_links[*(const int *)a], *y = &sqz__mpi_sort_links[*(const int *)b];
  if (x->peer_part != y->peer_part) return x->peer_part < y->peer_part ? -1 : 1;
  return (x->part > y->part) - (x->part < y->part);
}

int sqz__mpi_state_new(sqz_field *f, MPI_Comm comm, sqz_mpi_state **out) {
  *out = NULL;
  const sqz_field_split *fp = f->parts;
  sqz_mpi_state *x = sqz__calloc(1, sizeof *x);
  if (!x) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the MPI state of %s", f->dom->spec);
  x->comm = MPI_COMM_NULL;
  MPI_Comm_size(comm, &x->size);
  MPI_Comm_rank(comm, &x->rank);
  x->ub = sqz__elems_bytes(f, fp->unit);
  uint64_t links = 0, staged = 0;
  for (uint64_t p = 0; p < fp->parts; p++) { /* a link per (part here, remote owner) */
    const sqz_field_part *pt = &fp->part[p];
    if (pt->ctx && !x->ctx) x->ctx = pt->ctx;
    for (uint64_t r = 0; pt->ctx && r < pt->n_runs; r++)
      links += !fp->part[pt->runs[r].owner].ctx && (r == 0 || pt->runs[r].owner != pt->runs[r - 1].owner);
    staged += pt->ctx ? pt->n_halo * x->ub : 0;
  }
  x->link = sqz__calloc(links ? (size_t)links : 1, sizeof *x->link);
  x->send_order = sqz__calloc(links ? (size_t)links : 1, sizeof *x->send_order);
  x->req = sqz__calloc(links ? (size_t)(2 * links) : 1, sizeof *x->req);
  x->recv_at = sqz__calloc((size_t)fp->parts, sizeof *x->recv_at);
  int host = x->ctx && x->ctx->ops->host_memory;
  if (!host && staged) x->recv = sqz__malloc((size_t)staged);
  int st = !x->link || !x->send_order || !x->req || !x->recv_at || (!host && staged && !x->recv)
               ? sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the message lists of rank %d", x->rank)
               : SQZ_OK;
  for (uint64_t p = 0, at = 0; st == SQZ_OK && p < fp->parts; p++) {
    const sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx) continue;
    x->recv_at[p] = at;
    at += pt->n_halo * x->ub;
    for (uint64_t r = 0; st == SQZ_OK && r < pt->n_runs; r++) {
      const sqz_halo_run *run = &pt->runs[r];
      if (fp->part[run->owner].ctx) continue; /* held here: a device copy */
      if (r > 0 && run->owner == pt->runs[r - 1].owner) {
        x->link[x->n_links - 1].recv_units += run->n;
        continue;
      }
      sqz_mpi_link *l = &x->link[x->n_links];
      x->send_order[x->n_links] = x->n_links;
      x->n_links++;
      *l = (sqz_mpi_link){sqz__mpi_rank_of(run->owner, fp->parts, x->size), p, run->owner, run->slot0, run->n, 0, 0, NULL, NULL, NULL, NULL};
    }
  }
  for (int i = 0; st == SQZ_OK && i < x->n_links; i++) st = sqz__mpi_link_fill(f, x, &x->link[i]);
  if (st == SQZ_OK && x->n_links > 1) {
    sqz__mpi_sort_links = x->link;
    qsort(x->send_order, (size_t)x->n_links, sizeof *x->send_order, sqz__mpi_send_cmp);
  }
  if (st == SQZ_OK) x->comm = comm;
  if (st != SQZ_OK) {
    sqz__mpi_state_free(x);
    return st;
  }
  *out = x;
  return SQZ_OK;
}

sqz_mpi_state *sqz__mpi_state(const sqz_field *f) {
  return f && f->parts && f->parts->xchg == &sqz__exchange_mpi ? f->parts->state : NULL;
}

/* Where link l's units land: the halo slots of its part in host memory, or their staging. */
static unsigned char *sqz__mpi_landing(const sqz_field *f, const sqz_mpi_state *x, const sqz_mpi_link *l, int cur) {
  const sqz_field_part *pt = &f->parts->part[l->part];
  uint64_t own = pt->u1 - pt->u0;
  if (pt->ctx->ops->host_memory) return (unsigned char *)pt->mem[cur] + l->recv_slot * x->ub;
  return x->recv + x->recv_at[l->part] + (l->recv_slot - own) * x->ub;
}

/* start: receives posted into the halo slots (or their staging), every link's sends packed and
 * posted. complete: the messages waited for (the inner step runs meanwhile), the staged halo
 * uploaded, the halo runs of parts held here copied on the device. Device work under the lock. */
static int sqz__mpi_start(sqz_field *f, int cur) {
  sqz_mpi_state *x = f->parts->state;
  sqz_context *ctx = x->ctx; /* every part held here is on the rank's context */
  int host = ctx->ops->host_memory, rc = MPI_SUCCESS, st = SQZ_OK;
  uint64_t ub = x->ub;
  double t0 = sqz__now();
  for (int i = 0; rc == MPI_SUCCESS && i < x->n_links; i++) { /* receives first: no unexpected messages */
    sqz_mpi_link *l = &x->link[i];
    rc = MPI_Irecv(sqz__mpi_landing(f, x, l, cur), (int)(l->recv_units * ub), MPI_BYTE, l->peer, SQZ_MPI_TAG, x->comm,
                   &x->req[i]);
  }
  sqz__lock(ctx);
  for (int i = 0; st == SQZ_OK && i < x->n_links; i++) {
    sqz_mpi_link *l = &x->link[i];
    const sqz_field_part *pt = &f->parts->part[l->part];
    uint64_t at = 0;
    if (l->units_dev) { /* packed on the device, one download */
      st = ctx->ops->copy_units(ctx, l->pack_dev, 0, pt->mem[cur], 0, l->units_dev, 0, l->send_units, ub);
      if (st == SQZ_OK) st = ctx->ops->download(ctx, l->send, l->pack_dev, 0, l->send_units * ub);
      continue;
    }
    for (uint64_t r = 0; st == SQZ_OK && r < l->n_runs; at += l->run[r][1] * ub, r++) {
      if (host) memcpy(l->send + at, (unsigned char *)pt->mem[cur] + l->run[r][0] * ub, (size_t)(l->run[r][1] * ub));
      else st = ctx->ops->download(ctx, l->send + at, pt->mem[cur], l->run[r][0] * ub, l->run[r][1] * ub);
    }
  }
  if (st == SQZ_OK && !host) st = sqz__finish(ctx);
  sqz__unlock(ctx);
  for (int i = 0; rc == MPI_SUCCESS && i < x->n_links; i++) {
    sqz_mpi_link *l = &x->link[x->send_order[i]];
    rc = MPI_Isend(l->send, (int)(l->send_units * ub), MPI_BYTE, l->peer, SQZ_MPI_TAG, x->comm, &x->req[x->n_links + i]);
  }
  x->posted = rc == MPI_SUCCESS ? 2 * x->n_links : 0; /* MPI errors are fatal unless the user changed the handler */
  if (st == SQZ_OK) st = sqz__mpi_fail(f->ctx, rc, "the halo exchange");
  x->exchange_s += sqz__now() - t0;
  return st;
}

static int sqz__mpi_complete(sqz_field *f, int cur, double *wait_s) {
  sqz_mpi_state *x = f->parts->state;
  const sqz_field_split *fp = f->parts;
  sqz_context *ctx = x->ctx;
  uint64_t ub = x->ub;
  double t0 = sqz__now();
  int rc = x->posted ? MPI_Waitall(x->posted, x->req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
  x->posted = 0;
  double t1 = sqz__now();
  *wait_s += t1 - t0;
  x->wait_s += t1 - t0;
  int st = sqz__mpi_fail(f->ctx, rc, "the halo exchange");
  sqz__lock(ctx);
  for (int i = 0; st == SQZ_OK && !ctx->ops->host_memory && i < x->n_links; i++) {
    const sqz_mpi_link *l = &x->link[i];
    st = ctx->ops->upload(ctx, fp->part[l->part].mem[cur], l->recv_slot * ub, sqz__mpi_landing(f, x, l, cur),
                          l->recv_units * ub);
  }
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) { /* runs between parts of this rank */
    const sqz_field_part *pt = &fp->part[p];
    for (uint64_t r = 0; pt->ctx && st == SQZ_OK && r < pt->n_runs; r++) {
      const sqz_halo_run *run = &pt->runs[r];
      const sqz_field_part *q = &fp->part[run->owner];
      if (q->ctx) st = ctx->ops->copy(ctx, pt->mem[cur], run->slot0 * ub, q->mem[cur], (run->g0 - q->u0) * ub, run->n * ub);
    }
  }
  if (st != SQZ_OK && ctx != f->ctx) st = sqz__fail(f->ctx, st, "%s", sqz_last_error(ctx));
  sqz__unlock(ctx);
  x->exchange_s += sqz__now() - t0;
  return st;
}

const sqz_exchange_ops sqz__exchange_mpi = {"mpi", sqz__mpi_start, sqz__mpi_complete, sqz__mpi_release};
