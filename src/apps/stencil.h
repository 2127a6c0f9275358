/* stencil.h — the front end of the stencil engine: every workload (life, heat, user stencils) runs through sqz__stencil_run. */
#ifndef SQZ_STENCIL_H
#define SQZ_STENCIL_H
#include "core/update.h"

/* Applies u to f `steps` times on f's backend, timed as one operation (sqz_context_timing). */
SQZ_INTERNAL int sqz__stencil_run(sqz_field *f, const sqz_update *u, uint64_t steps);
#endif
