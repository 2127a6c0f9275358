/* stencil.h — the front end of the stencil engine: every workload (life, heat, user stencils) runs through sqz__stencil_run. */
#ifndef SQZ_STENCIL_H
#define SQZ_STENCIL_H
#include "core/update.h"

#include "core/backend.h"

/* Applies u to f `steps` times on f's backend, timed as one operation (sqz_context_timing), under
 * the context's lock: enq NULL waits for the steps; otherwise they are only enqueued (sqz_enqueue). */
SQZ_INTERNAL int sqz__stencil_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq);
/* The checked updates of sqz_life_step and sqz_stencil_step, shared with their enqueue forms:
 * SQZ_OK with *u filled, or the status (detail recorded) of a bad field, rule, source or parameter.
 * u->source and u->param point into the caller's arguments. */
SQZ_INTERNAL int sqz__life_update(sqz_field *f, const char *rule, sqz_update *u);
SQZ_INTERNAL int sqz__stencil_update(sqz_field *f, const char *source, const char *source_name, const double *param,
                                     size_t n_param, sqz_update *u);
/* The same for sqz_heat_step (u->param points at *alpha). */
SQZ_INTERNAL int sqz__heat_update(sqz_field *f, const double *alpha, sqz_update *u);
/* What a step of u on f needs before its first launch (the backend's prepare), under the context's
 * lock and timed; f's state, current buffer and engine report unchanged. A field in parts is
 * SQZ_ERR_UNSUPPORTED. */
SQZ_INTERNAL int sqz__stencil_prepare(sqz_field *f, const sqz_update *u);
#endif
