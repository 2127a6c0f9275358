/* cl_bits.h — the opencl backend's engine of layout bits (engine_bits.c), called from its stencil and fill entries. */
#ifndef SQZ_CL_BITS_H
#define SQZ_CL_BITS_H
#include "backends/opencl/cl_engine.h"

/* `steps` Life-like steps of a bits field (other updates: SQZ_ERR_INVALID_ARGUMENT). */
SQZ_INTERNAL int sqz__cl_stencil_bits(sqz_field *f, const sqz_update *u, uint64_t steps);
/* Whether f, a u8 fractal state in layout compact, steps Life by the list of boxes: boxes stepped
 * as a list (sqz__bits_list_wanted), one buffer, no launch block set (sqz_field_set_block picks
 * the word step's tile). */
SQZ_INTERNAL int sqz__cl_fractal_boxes_applies(const sqz_field *f);
/* `steps` Life-like steps of such a state by the list of boxes (cl/sqz_bits_list.h: the k^q
 * bytes of a box turned into its bits, stepped, stored back as bytes); SQZ_ERR_UNSUPPORTED where
 * it does not apply, on SQZ_ENGINE=generic and on a big-endian device. */
SQZ_INTERNAL int sqz__cl_fractal_boxes(sqz_field *f, const sqz_update *u, uint64_t steps);
/* The random fill of a bits field by kernel (the same cells as every layout's fill). */
SQZ_INTERNAL int sqz__cl_fill_bits(sqz_field *f, uint64_t threshold, uint64_t seed);
#endif
