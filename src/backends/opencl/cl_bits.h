/* cl_bits.h — the opencl backend's engine of layout bits (engine_bits.c, engine_bits_lanes.c, bits_launch.c), called from its engine paths and fill entry. */
#ifndef SQZ_CL_BITS_H
#define SQZ_CL_BITS_H
#include "backends/opencl/cl_engine.h"

/* Whether f, a u8 fractal state in layout compact, steps Life by the list of boxes: boxes stepped
 * as a list (sqz__bits_list_wanted), one buffer, no launch block set (sqz_field_set_block picks
 * the word step's tile). */
SQZ_INTERNAL int sqz__cl_fractal_boxes_applies(const sqz_field *f);
SQZ_INTERNAL const char *sqz__cl_fractal_boxes_why_not(const sqz_field *f);
/* The step by sub-tile boxes (sqz_bits_fractal_box) of layout bits, or with bytes of a u8 compact
 * state (the k^q bytes of a box turned into its bits, stepped, stored back as bytes): its plan in
 * plan->data, the list (cl/sqz_bits_list.h) where the boxes make one, else the deepest window
 * (cl/sqz_bits_box.h) up to `steps` steps a launch that fits in local memory (SQZ_ERR_UNSUPPORTED,
 * nothing recorded, when none does; sqz__cl_bits_box_drop frees it); and `steps` steps by it. */
SQZ_INTERNAL int sqz__cl_bits_box_plan(sqz_field *f, uint64_t steps, int bytes, sqz_path_plan *plan);
SQZ_INTERNAL void sqz__cl_bits_box_drop(sqz_path_plan *plan);
SQZ_INTERNAL int sqz__cl_bits_box(sqz_field *f, const sqz_update *u, uint64_t steps, int bytes,
                                  const sqz_path_plan *plan);
/* The bits fractal step by lanes (engine_bits_lanes.c, cl/sqz_bits_lanes.h): its plan
 * (SQZ_ERR_UNSUPPORTED where none fits in local memory; sqz__cl_bits_lanes_drop frees it) and `steps`
 * steps by it. */
SQZ_INTERNAL int sqz__cl_bits_lanes_plan(sqz_field *f, uint64_t steps, sqz_path_plan *plan);
SQZ_INTERNAL void sqz__cl_bits_lanes_drop(sqz_path_plan *plan);
SQZ_INTERNAL int sqz__cl_bits_lanes(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan);
/* `steps` Life-like steps of a bits field by the one-step kernel of its family (a rule checked by the caller). */
SQZ_INTERNAL int sqz__cl_bits_step(sqz_field *f, const sqz_update *u, uint64_t steps);
/* H_λ (2k entries) then H_ν (s^2) of f's fractal in a constant buffer, as the bits kernels read them. */
SQZ_INTERNAL int sqz__bits_fr_buffer(sqz_field *f, cl_mem *fr);
/* The launches of a fractal step of layout bits (sqz_bits_fractal_box, sqz_bits_fractal_lanes: the
 * same arguments, rb the levels above a kernel's unit, the local area `area` bytes) on f: `steps`
 * steps, at most `depth` a launch, each swapping f's buffers; starts only with st == SQZ_OK, then
 * releases tab, fr and k whatever st, and returns the first failure. */
SQZ_INTERNAL int sqz__bits_launches(sqz_field *f, cl_kernel k, cl_mem tab, cl_mem fr, cl_uint rb, cl_uint wt,
                                    cl_ulong tiles, size_t area, uint32_t depth, const sqz_update *u, uint64_t steps,
                                    size_t global, size_t local, int st);
/* Groups a fractal step launches at least on each compute unit (sqz__bits_global). */
#define SQZ__BITS_GROUPS_PER_CU 8u
/* Work-items of a fractal step's launch over `units` (tiles, or the lanes' rounds), looped over by its
 * groups: a few units a group (per_group; the per-group set-up paid once for them), yet at least
 * SQZ__BITS_GROUPS_PER_CU groups a compute unit, never more groups than units. Not a fixed count per
 * compute unit: a persistent group that does not fit beside the others (local memory) would wait for
 * them to finish, a second wave at a fraction of the occupancy. */
SQZ_INTERNAL size_t sqz__bits_global(const sqz_context *ctx, uint64_t units, uint64_t per_group, size_t local);
/* SQZ_BITS_PLAN_OUT=FILE: a fractal step's launch as made here, for scripts/ncu_bits_kernel.c (its
 * PTX replayed through CUDA, for Nsight Compute): 16 words (magic "SQBB", s, k, rb, wt (a u8
 * state: the tile's bytes), steps, birth, survive, local bytes of the area argument, groups,
 * work-items per group, plan words, tiles low and high, box side, flags: 1 a list plan, 2 a u8
 * state, 4 the lanes' plan), the plan (`words` words), then H_λ (2k) and H_ν (s^2) as int32. */
SQZ_INTERNAL void sqz__bits_plan_dump(const sqz_field *f, uint32_t rb, uint32_t wt, uint32_t steps, const sqz_update *u,
                                      size_t area, size_t groups, size_t local, const uint32_t *tab, size_t words,
                                      uint64_t tiles, uint32_t side, uint32_t flags);
/* The random fill of a bits field by kernel (the same cells as every layout's fill). */
SQZ_INTERNAL int sqz__cl_fill_bits(sqz_field *f, uint64_t threshold, uint64_t seed);
#endif
