/* mpi_xchg.c — the halo exchange of a part on an MPI rank: per neighbouring rank one packed message of runs out (MPI_Isend), one contiguous range of halo slots in (MPI_Irecv). */
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"

#define SQZ_MPI_TAG 5213
#define SQZ_MPI_PIECE ((uint64_t)1 << 30)

static int sqz__mpi_status(int rc, const char *what) {
  if (rc == MPI_SUCCESS) return SQZ_OK;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  return sqz__fail(NULL, SQZ_ERR_IO, "%s: %s", what, msg);
}

int sqz__mpi_send(MPI_Comm comm, const void *buf, uint64_t bytes, int peer) {
  int rc = MPI_SUCCESS;
  for (uint64_t off = 0; rc == MPI_SUCCESS && off < bytes; off += SQZ_MPI_PIECE) {
    uint64_t n = bytes - off < SQZ_MPI_PIECE ? bytes - off : SQZ_MPI_PIECE;
    rc = MPI_Send((const unsigned char *)buf + off, (int)n, MPI_BYTE, peer, SQZ_MPI_TAG + 1, comm);
  }
  return sqz__mpi_status(rc, "MPI_Send");
}

int sqz__mpi_recv(MPI_Comm comm, void *buf, uint64_t bytes, int peer) {
  int rc = MPI_SUCCESS;
  for (uint64_t off = 0; rc == MPI_SUCCESS && off < bytes; off += SQZ_MPI_PIECE) {
    uint64_t n = bytes - off < SQZ_MPI_PIECE ? bytes - off : SQZ_MPI_PIECE;
    rc = MPI_Recv((unsigned char *)buf + off, (int)n, MPI_BYTE, peer, SQZ_MPI_TAG + 1, comm, MPI_STATUS_IGNORE);
  }
  return sqz__mpi_status(rc, "MPI_Recv");
}

/* The runs of own units of part `me` that part q's halo holds (global indices - first). */
static int sqz__mpi_send_runs(sqz_mpi_link *l, const sqz_parts_plan *plan, uint64_t me, size_t unit_bytes) {
  sqz_halo h;
  int st = sqz__parts_halo(plan, (uint64_t)l->peer, &h);
  if (st != SQZ_OK) return st;
  uint64_t first = plan->start[me], cap = 0;
  for (uint64_t i = 0; i < h.n; i++) {
    if (h.owner[i] != me) continue;
    uint64_t s = h.index[i] - first;
    l->send_units++;
    if (l->n_runs && l->run[l->n_runs - 1][0] + l->run[l->n_runs - 1][1] == s) {
      l->run[l->n_runs - 1][1]++;
      continue;
    }
    if (l->n_runs == cap) {
      cap = cap ? 2 * cap : 16;
      void *grown = sqz__realloc(l->run, (size_t)cap * sizeof *l->run);
      if (!grown) {
        sqz__halo_free(&h);
        return sqz__fail(plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "the send runs of part %llu", (unsigned long long)me);
      }
      l->run = grown;
    }
    l->run[l->n_runs][0] = s;
    l->run[l->n_runs++][1] = 1;
  }
  sqz__halo_free(&h);
  l->send = sqz__malloc(l->send_units ? (size_t)(l->send_units * unit_bytes) : 1);
  return l->send ? SQZ_OK : sqz__fail(plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "a send buffer of %llu units",
                                      (unsigned long long)l->send_units);
}

int sqz__mpi_xchg_init(sqz_mpi_xchg *x, const sqz_parts_plan *plan, uint64_t part, size_t unit_bytes) {
  x->unit_bytes = unit_bytes;
  sqz_halo h;
  int st = sqz__parts_halo(plan, part, &h);
  if (st != SQZ_OK) return st;
  uint64_t links = 0;
  for (uint64_t i = 0; i < h.n; i++) links += i == 0 || h.owner[i] != h.owner[i - 1];
  x->link = sqz__calloc(links ? (size_t)links : 1, sizeof *x->link);
  x->req = sqz__calloc(links ? (size_t)(2 * links) : 1, sizeof *x->req);
  if (!x->link || !x->req) st = sqz__fail(plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "%llu links", (unsigned long long)links);
  /* a Moore neighbourhood is symmetric: the parts this one reads are the parts that read it */
  for (uint64_t i = 0; st == SQZ_OK && i < h.n; i++) {
    if (i > 0 && h.owner[i] == h.owner[i - 1]) {
      x->link[x->n_links - 1].recv_units++;
      continue;
    }
    sqz_mpi_link *l = &x->link[x->n_links++];
    l->peer = (int)h.owner[i];
    l->recv_slot = plan->start[part + 1] - plan->start[part] + i;
    l->recv_units = 1;
    st = sqz__mpi_send_runs(l, plan, part, unit_bytes);
  }
  sqz__halo_free(&h);
  return st;
}

int sqz__mpi_xchg_start(sqz_mpi_xchg *x, unsigned char *buf) {
  size_t ub = x->unit_bytes;
  int rc = MPI_SUCCESS;
  for (int i = 0; rc == MPI_SUCCESS && i < x->n_links; i++) { /* receives first: no unexpected messages */
    sqz_mpi_link *l = &x->link[i];
    rc = MPI_Irecv(buf + l->recv_slot * ub, (int)(l->recv_units * ub), MPI_BYTE, l->peer, SQZ_MPI_TAG, x->comm,
                   &x->req[i]);
  }
  for (int i = 0; rc == MPI_SUCCESS && i < x->n_links; i++) {
    sqz_mpi_link *l = &x->link[i];
    unsigned char *p = l->send;
    for (uint64_t r = 0; r < l->n_runs; r++) {
      memcpy(p, buf + l->run[r][0] * ub, (size_t)(l->run[r][1] * ub));
      p += l->run[r][1] * ub;
    }
    rc = MPI_Isend(l->send, (int)(l->send_units * ub), MPI_BYTE, l->peer, SQZ_MPI_TAG, x->comm, &x->req[x->n_links + i]);
  }
  return sqz__mpi_status(rc, "the halo exchange");
}

int sqz__mpi_xchg_finish(sqz_mpi_xchg *x) {
  double t0 = sqz__now();
  int rc = MPI_Waitall(2 * x->n_links, x->req, MPI_STATUSES_IGNORE);
  x->wait_s += sqz__now() - t0;
  return sqz__mpi_status(rc, "waiting for the halo");
}

void sqz__mpi_xchg_free(sqz_mpi_xchg *x) {
  for (int i = 0; x->link && i < x->n_links; i++) {
    free(x->link[i].run);
    free(x->link[i].send);
  }
  free(x->link);
  free(x->req);
  memset(x, 0, sizeof *x);
}
