/* mpi_internal.h — private interface of fields in parts on MPI ranks: the exchange hook and its per-neighbour message lists. */
#ifndef SQZ_MPI_INTERNAL_H
#define SQZ_MPI_INTERNAL_H
#include "core/field_parts.h"
#include "sqz_mpi.h"

/* The rank that holds part p of `parts` on `size` ranks: contiguous blocks of parts, p * size / parts. */
static inline int sqz__mpi_rank_of(uint64_t p, uint64_t parts, int size) {
  return (int)(p * (uint64_t)size / parts);
}

/* The messages between a part held here (part) and a part on another rank (peer_part, on rank
 * peer), in storage units of ub bytes. Receives: the halo units of part that peer_part owns,
 * consecutive halo slots (a sorted halo's owners never decrease), so they land in place. Sends: the
 * own units of part that peer_part's halo holds (the Moore neighbourhood is symmetric: a part reads
 * exactly the parts that read it), runs of consecutive local slots packed into one message in the
 * order of the peer part's (sorted) halo. */
typedef struct {
  int peer;
  uint64_t part, peer_part;
  uint64_t recv_slot, recv_units; /* first local halo slot of part and count */
  uint64_t send_units, n_runs;
  uint64_t (*run)[2];             /* (first local slot, units) */
  unsigned char *send;            /* send_units * ub bytes */
  sqz_mem units_dev, pack_dev;    /* from 4 runs on a device: the units' local slots and a packed copy (NULL else) */
} sqz_mpi_link;

/* sqz_field_split.state of a field on MPI ranks. Messages between two ranks are matched by order
 * (one tag, MPI's non-overtaking rule): receives are posted in (part, peer_part) order, sends in
 * (peer_part, part) order, which is the receiver's order on the other side. */
typedef struct {
  MPI_Comm comm;                  /* the field's duplicate of the user's communicator */
  sqz_context *ctx;               /* the context of every part held here (the rank's device) */
  int rank, size;
  uint64_t ub;                    /* bytes per storage unit */
  int n_links;
  sqz_mpi_link *link;             /* in (part, peer_part) order */
  int *send_order;                /* link indices in (peer_part, part) order */
  MPI_Request *req;               /* 2 * n_links */
  unsigned char *recv;            /* the halos' staging area where device memory is not host memory */
  uint64_t *recv_at;              /* per part: its halo's byte offset in recv (parts held here) */
  int posted;                     /* requests of a started exchange not yet completed */
  double exchange_s, wait_s;      /* seconds in the exchange's calls; of those, waiting for messages */
} sqz_mpi_state;

SQZ_INTERNAL extern const sqz_exchange_ops sqz__exchange_mpi;
/* The lists of the parts of f held on this rank (f->parts built) into a new state that takes comm
 * (the field's own duplicate, freed with the state). */
SQZ_INTERNAL int sqz__mpi_state_new(sqz_field *f, MPI_Comm comm, sqz_mpi_state **out);
/* The state of f when f lives on MPI ranks, else NULL. */
SQZ_INTERNAL sqz_mpi_state *sqz__mpi_state(const sqz_field *f);
#endif
