/* mpi_xchg.c — the halo exchange of a field on MPI ranks: per neighbouring rank one packed message of runs out (MPI_Isend), one range of halo slots in (MPI_Irecv). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
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
  }
  free(x->link);
  free(x->req);
  free(x->recv);
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

int sqz__mpi_state_new(sqz_field *f, MPI_Comm comm, sqz_mpi_state **out) {
  *out = NULL;
  const sqz_field_split *fp = f->parts;
  sqz_mpi_state *x = sqz__calloc(1, sizeof *x);
  if (!x) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the MPI state of %s", f->dom->spec);
  x->comm = MPI_COMM_NULL;
  MPI_Comm_size(comm, &x->size);
  MPI_Comm_rank(comm, &x->rank);
  x->ub = fp->unit * sqz_type_size(f->type);
  const sqz_field_part *pt = &fp->part[x->rank];
  uint64_t links = 0;
  for (uint64_t r = 0; r < pt->n_runs; r++) links += r == 0 || pt->runs[r].owner != pt->runs[r - 1].owner;
  x->link = sqz__calloc(links ? (size_t)links : 1, sizeof *x->link);
  x->req = sqz__calloc(links ? (size_t)(2 * links) : 1, sizeof *x->req);
  int host = pt->ctx->ops->host_memory;
  if (!host && pt->n_halo) x->recv = sqz__malloc((size_t)(pt->n_halo * x->ub));
  int st = !x->link || !x->req || (!host && pt->n_halo && !x->recv)
               ? sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the message lists of part %d", x->rank)
               : SQZ_OK;
  /* a Moore neighbourhood is symmetric: the parts this one reads are the parts that read it */
  for (uint64_t r = 0; st == SQZ_OK && r < pt->n_runs; r++) {
    const sqz_halo_run *run = &pt->runs[r];
    if (r > 0 && run->owner == pt->runs[r - 1].owner) {
      x->link[x->n_links - 1].recv_units += run->n;
      continue;
    }
    sqz_mpi_link *l = &x->link[x->n_links++];
    l->peer = (int)run->owner;
    l->recv_slot = run->slot0;
    l->recv_units = run->n;
    const sqz_field_part *q = &fp->part[run->owner];
    uint64_t cap = 0;
    for (uint64_t i = 0; st == SQZ_OK && i < q->n_halo; i++)
      if (q->owner[i] == (uint64_t)x->rank && sqz__mpi_send_unit(l, q->halo[i] - pt->u0, &cap) != SQZ_OK)
        st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the send runs of part %d", x->rank);
    if (st == SQZ_OK && !(l->send = sqz__malloc(l->send_units ? (size_t)(l->send_units * x->ub) : 1)))
      st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "a send buffer of %llu units", (unsigned long long)l->send_units);
  }
  for (int i = 0; st == SQZ_OK && i < x->n_links; i++)
    if (x->link[i].recv_units * x->ub > INT_MAX || x->link[i].send_units * x->ub > INT_MAX)
      st = sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "part %d: a halo message to or from rank %d exceeds 2^31 bytes", x->rank,
                     x->link[i].peer);
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

/* start: receives posted into the halo slots (or their staging), every link's sends packed and
 * posted. complete: the messages waited for (the inner step runs meanwhile), the staged halo
 * uploaded. Device work of the part's context under its lock. */
static int sqz__mpi_start(sqz_field *f, int cur) {
  sqz_mpi_state *x = f->parts->state;
  sqz_field_part *pt = &f->parts->part[x->rank];
  sqz_context *ctx = pt->ctx;
  int host = ctx->ops->host_memory, rc = MPI_SUCCESS, st = SQZ_OK;
  uint64_t own = pt->u1 - pt->u0, ub = x->ub;
  unsigned char *mem = host ? (unsigned char *)pt->mem[cur] : NULL, *halo = host ? mem + own * ub : x->recv;
  double t0 = sqz__now();
  for (int i = 0; rc == MPI_SUCCESS && i < x->n_links; i++) { /* receives first: no unexpected messages */
    sqz_mpi_link *l = &x->link[i];
    rc = MPI_Irecv(halo + (l->recv_slot - own) * ub, (int)(l->recv_units * ub), MPI_BYTE, l->peer, SQZ_MPI_TAG, x->comm,
                   &x->req[i]);
  }
  sqz__lock(ctx);
  for (int i = 0; st == SQZ_OK && i < x->n_links; i++) {
    sqz_mpi_link *l = &x->link[i];
    uint64_t at = 0;
    for (uint64_t r = 0; st == SQZ_OK && r < l->n_runs; at += l->run[r][1] * ub, r++) {
      if (host) memcpy(l->send + at, mem + l->run[r][0] * ub, (size_t)(l->run[r][1] * ub));
      else st = ctx->ops->download(ctx, l->send + at, pt->mem[cur], l->run[r][0] * ub, l->run[r][1] * ub);
    }
  }
  if (st == SQZ_OK && !host) st = sqz__finish(ctx);
  sqz__unlock(ctx);
  for (int i = 0; rc == MPI_SUCCESS && i < x->n_links; i++) {
    sqz_mpi_link *l = &x->link[i];
    rc = MPI_Isend(l->send, (int)(l->send_units * ub), MPI_BYTE, l->peer, SQZ_MPI_TAG, x->comm, &x->req[x->n_links + i]);
  }
  x->posted = rc == MPI_SUCCESS ? 2 * x->n_links : 0; /* MPI errors are fatal unless the user changed the handler */
  if (st == SQZ_OK) st = sqz__mpi_fail(f->ctx, rc, "the halo exchange");
  x->exchange_s += sqz__now() - t0;
  return st;
}

static int sqz__mpi_complete(sqz_field *f, int cur, double *wait_s) {
  sqz_mpi_state *x = f->parts->state;
  sqz_field_part *pt = &f->parts->part[x->rank];
  sqz_context *ctx = pt->ctx;
  uint64_t own = pt->u1 - pt->u0, ub = x->ub;
  double t0 = sqz__now();
  int rc = x->posted ? MPI_Waitall(x->posted, x->req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
  x->posted = 0;
  double t1 = sqz__now();
  *wait_s += t1 - t0;
  x->wait_s += t1 - t0;
  int st = sqz__mpi_fail(f->ctx, rc, "the halo exchange");
  if (st == SQZ_OK && !ctx->ops->host_memory && pt->n_halo) {
    sqz__lock(ctx);
    st = ctx->ops->upload(ctx, pt->mem[cur], own * ub, x->recv, pt->n_halo * ub);
    if (st != SQZ_OK && ctx != f->ctx) st = sqz__fail(f->ctx, st, "%s", sqz_last_error(ctx));
    sqz__unlock(ctx);
  }
  x->exchange_s += sqz__now() - t0;
  return st;
}

const sqz_exchange_ops sqz__exchange_mpi = {"mpi", sqz__mpi_start, sqz__mpi_complete, sqz__mpi_release};
