/* observe.h — the observables over a field's parts (observe.c), for libsqz-mpi's share per rank (src/mpi/mpi_observe.c). */
#ifndef SQZ_APPS_OBSERVE_H
#define SQZ_APPS_OBSERVE_H
#include "core/observe_host.h"

/* The moments of every part of f held here (or of f), probes aside: a field's, or this rank's share of
 * a field on MPI ranks. */
SQZ_COMPONENT int sqz__field_obs_acc(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc);
/* The request of items (their m2 centres) and, once acc holds the moments and probe[] the probes'
 * values (in item order, one per SQZ_OBS_PROBE item), the values of the items into out. */
SQZ_COMPONENT int sqz__obs_request(sqz_field *f, const sqz_observable *items, size_t n, sqz_obs_req *req);
SQZ_COMPONENT void sqz__obs_values(const sqz_field *f, const sqz_observable *items, size_t n, const sqz_obs_acc *acc,
                                  const double *probe, double *out);
#endif
