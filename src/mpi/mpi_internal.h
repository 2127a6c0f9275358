/* mpi_internal.h — private interface of the MPI parts: the field on ranks and its halo exchange (runs of units per neighbouring rank). */
#ifndef SQZ_MPI_INTERNAL_H
#define SQZ_MPI_INTERNAL_H
#include "core/parts.h"
#include "sqz_mpi.h"

/* The messages of one rank's part with one neighbouring rank. Receives: the halo units the peer
 * owns, consecutive halo slots (a sorted halo's owners do not decrease), so they land in place.
 * Sends: the own units the peer's halo holds, as runs of consecutive local slots packed into one
 * message in the order of the peer's (sorted) halo. */
typedef struct {
  int peer;
  uint64_t recv_slot, recv_units; /* first halo slot (local index) and count */
  uint64_t send_units, n_runs;
  uint64_t (*run)[2];             /* (first local slot, units) */
  unsigned char *send;            /* send_units * unit_bytes */
} sqz_mpi_link;

typedef struct {
  MPI_Comm comm;                  /* the field's own duplicate of the user's communicator */
  size_t unit_bytes;
  int n_links;
  sqz_mpi_link *link;
  MPI_Request *req;               /* 2 * n_links */
  double wait_s;                  /* seconds in MPI_Waitall */
} sqz_mpi_xchg;

/* The links of part `part` of plan (units = cells of unit_bytes) from its halo and its neighbours'. */
SQZ_INTERNAL int sqz__mpi_xchg_init(sqz_mpi_xchg *x, const sqz_parts_plan *plan, uint64_t part, size_t unit_bytes);
/* Posts the receives into buf's halo slots and sends the packed runs of buf (own slots, then the halo). */
SQZ_INTERNAL int sqz__mpi_xchg_start(sqz_mpi_xchg *x, unsigned char *buf);
SQZ_INTERNAL int sqz__mpi_xchg_finish(sqz_mpi_xchg *x);
SQZ_INTERNAL void sqz__mpi_xchg_free(sqz_mpi_xchg *x);
/* A message of any size as MPI_BYTE pieces below 2^30 bytes (blocking). */
SQZ_INTERNAL int sqz__mpi_send(MPI_Comm comm, const void *buf, uint64_t bytes, int peer);
SQZ_INTERNAL int sqz__mpi_recv(MPI_Comm comm, void *buf, uint64_t bytes, int peer);
#endif
