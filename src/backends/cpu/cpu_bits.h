/* cpu_bits.h — the cpu backend's engine of layout bits (engine_bits.c), called from its operations table. */
#ifndef SQZ_CPU_BITS_H
#define SQZ_CPU_BITS_H
#include "core/backend.h"

/* `steps` Life-like steps of a bits field (other updates: SQZ_ERR_INVALID_ARGUMENT). */
SQZ_INTERNAL int sqz__cpu_bits_stencil(sqz_field *f, const sqz_update *u, uint64_t steps);
/* The random fill of a bits field (the same cells as every layout's fill). */
SQZ_INTERNAL int sqz__cpu_bits_fill(sqz_field *f, uint64_t threshold, uint64_t seed);
#endif
