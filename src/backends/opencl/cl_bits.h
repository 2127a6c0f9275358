/* cl_bits.h — the opencl backend's engine of layout bits (engine_bits.c), called from its stencil and fill entries. */
#ifndef SQZ_CL_BITS_H
#define SQZ_CL_BITS_H
#include "backends/opencl/cl_engine.h"

/* `steps` Life-like steps of a bits field (other updates: SQZ_ERR_INVALID_ARGUMENT). */
SQZ_INTERNAL int sqz__cl_stencil_bits(sqz_field *f, const sqz_update *u, uint64_t steps);
/* The random fill of a bits field by kernel (the same cells as every layout's fill). */
SQZ_INTERNAL int sqz__cl_fill_bits(sqz_field *f, uint64_t threshold, uint64_t seed);
#endif
