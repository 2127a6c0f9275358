/* observe_host.h — the moments of a field's observables (sqz_field_observe): what a backend accumulates over its storage and how partials combine (observe_host.c); a probe's cell (field_cells.c). */
#ifndef SQZ_OBSERVE_HOST_H
#define SQZ_OBSERVE_HOST_H
#include "core/reduce_acc.h"

/* The sums every pass accumulates, per domain cell at (x, y, z) holding u: u, u x, u y, u z, then
 * u |p - c|^2 for each centre c of the request. */
enum { SQZ_OBS_SU = 0, SQZ_OBS_SX = 1, SQZ_OBS_SY = 2, SQZ_OBS_SZ = 3, SQZ_OBS_SM2 = 4 };
#define SQZ_OBS_SUMS (SQZ_OBS_SM2 + SQZ_OBSERVE_MAX_POINTS)

typedef struct {
  uint32_t n_points;                       /* centres of the m2 items */
  double point[SQZ_OBSERVE_MAX_POINTS][3]; /* x, y, z */
} sqz_obs_req;

/* Stage two on the host: compensated sums in long double (sqz_red_acc), the exact count of
 * non-zero cells, the smallest and largest cell (+inf, -inf before any cell). */
typedef struct {
  sqz_red_acc sum[SQZ_OBS_SUMS];
  uint64_t count;
  double min, max;
} sqz_obs_acc;

SQZ_COMPONENT void sqz__obs_acc_init(sqz_obs_acc *acc);
/* Folds one partial (sums[SQZ_OBS_SM2 + n_points], its count, min and max) into acc. */
SQZ_COMPONENT void sqz__obs_acc_add(sqz_obs_acc *acc, uint32_t n_points, const double *sums, uint64_t count,
                                   double min, double max);
/* The host pass over storage elements [e0, e0 + n) of f held at store (store[0] is element e0): the
 * cpu backend's observe, and the cuda backend's on a host copy. */
SQZ_INTERNAL void sqz__obs_host_range(const sqz_field *f, const void *store, uint64_t e0, uint64_t n,
                                      const sqz_obs_req *req, sqz_obs_acc *acc);
/* The value of probe cell (x, y, z) when its part is held here (*here = 1), else *here = 0. */
SQZ_COMPONENT int sqz__field_probe(sqz_field *f, const sqz_observable *item, double *value, int *here);
#endif
