/* mpi_internal.h — private interface of fields in parts on MPI ranks: the exchange hook and its per-neighbour message lists. */
#ifndef SQZ_MPI_INTERNAL_H
#define SQZ_MPI_INTERNAL_H
#include "core/field_parts.h"
#include "sqz_mpi.h"

/* The messages of this rank's part with one neighbouring rank, in storage units of ub bytes.
 * Receives: the halo units the peer owns, consecutive halo slots (a sorted halo's owners never
 * decrease), so they land in place. Sends: the own units the peer's halo holds, runs of consecutive
 * local slots packed into one message in the order of the peer's (sorted) halo. */
typedef struct {
  int peer;
  uint64_t recv_slot, recv_units; /* first local halo slot and count */
  uint64_t send_units, n_runs;
  uint64_t (*run)[2];             /* (first local slot, units) */
  unsigned char *send;            /* send_units * ub bytes */
} sqz_mpi_link;

/* sqz_field_split.state of a field on MPI ranks. */
typedef struct {
  MPI_Comm comm;                  /* the field's duplicate of the user's communicator */
  int rank, size;
  uint64_t ub;                    /* bytes per storage unit */
  int n_links;
  sqz_mpi_link *link;
  MPI_Request *req;               /* 2 * n_links */
  unsigned char *recv;            /* the halo's staging area where device memory is not host memory */
  int posted;                     /* requests of a started exchange not yet completed */
  double exchange_s, wait_s;      /* seconds in the exchange's calls; of those, waiting for messages */
} sqz_mpi_state;

SQZ_INTERNAL extern const sqz_exchange_ops sqz__exchange_mpi;
/* The lists of this rank's part of f (f->parts built, part `rank` held) into a new state that
 * takes comm (the field's own duplicate, freed with the state). */
SQZ_INTERNAL int sqz__mpi_state_new(sqz_field *f, MPI_Comm comm, sqz_mpi_state **out);
/* The state of f when f lives on MPI ranks, else NULL. */
SQZ_INTERNAL sqz_mpi_state *sqz__mpi_state(const sqz_field *f);
#endif
