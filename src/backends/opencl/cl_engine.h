/* cl_engine.h — the opencl backend's workloads behind its operations table: the stencil engine per family, fills, reductions, EDM. */
#ifndef SQZ_CL_ENGINE_H
#define SQZ_CL_ENGINE_H
#include "backends/opencl/cl_internal.h"
#include "core/engine_paths.h"

/* The prelude that makes an update the engine's cell type and rule (cl/engine_*.cl call
 * SQZ_APPLY(self, nb, present)): sqz_cell_t, sqz_param_t, SQZ_NB, SQZ_DIMS, FP_CONTRACT off,
 * SQZ_WANT_PRESENT for updates that read `present`, then the rule: cl/rule_life.cl (with the
 * user's Life body, if any), cl/rule_heat.cl, or the user's file after `#line 1 "name"`.
 * malloc'ed (caller frees); NULL when out of memory (detail recorded). */
SQZ_INTERNAL char *sqz__cl_update_prelude(sqz_context *ctx, const sqz_field *f, const sqz_update *u);
/* The built-in rule file of u, to list after the shared headers ("rule_life.cl", "rule_heat.cl"),
 * or NULL when the prelude holds the user's update. */
SQZ_INTERNAL const char *sqz__cl_update_file(const sqz_update *u);
/* The update's parameters as a __constant sqz_param_t buffer (at least one element) and the
 * integer rule parameters (Life: birth, survive). Checks the count against the device's
 * constant-buffer limit (SQZ_ERR_INVALID_ARGUMENT naming both). */
SQZ_INTERNAL int sqz__cl_update_params(sqz_context *ctx, const sqz_field *f, const sqz_update *u, cl_mem *param,
                                       cl_uint2 *ip);

/* The map kernels on simplices (engine_simplex.c: path simplex-map-generic). */
SQZ_INTERNAL int sqz__cl_simplex_map(sqz_field *f, const sqz_update *u, uint64_t steps);
/* The fast kernels (four u8 cells per 32-bit word, SWAR) run the built-in Life rule on u8
 * cells on little-endian devices, unless SQZ_ENGINE=generic is in the environment: 1 when f
 * and u qualify. */
SQZ_INTERNAL int sqz__cl_swar_allowed(const sqz_field *f, const sqz_update *u);
/* NULL when the word steps may run f and u, else why not (for the engine report). */
SQZ_INTERNAL const char *sqz__cl_swar_why_not(const sqz_field *f, const sqz_update *u);
/* The word of the fast kernels' SWAR arithmetic (cl/sqz_swar.h), 8, 32 or 64 bits: 32 on GPUs, 8 on
 * CPU devices; SQZ_SWAR_WORD=8|32|64 in the environment overrides (other values are ignored). */
SQZ_INTERNAL unsigned sqz__cl_swar_word(const sqz_context *ctx);
/* The word of engine_fractal_swar's step: 8 where sqz__cl_swar_word is 8, else 32 (its tile cache
 * rows are 32-bit words; the temporal kernel always steps 32-bit words). */
SQZ_INTERNAL unsigned sqz__cl_fractal_swar_word(const sqz_context *ctx);
/* The prelude lines of engine_fractal_swar's program for fractal fr, at *at of pre (cap bytes): its
 * word (SQZ_SWAR_WORD) and, with 1-byte words at scale 2 and k^2 <= 16, the byte shuffles of the
 * 4 x 4 blocks of compact tiles (SQZ_FR_BLOCK_*). */
SQZ_INTERNAL void sqz__cl_fractal_swar_prelude(const sqz_context *ctx, const sqz_fractal *fr, char *pre, size_t cap,
                                               size_t *at);
/* The fast Life step on triangles and tetrahedra (engine_simplex_swar.c, engine_tetra_swar.c; any
 * map: they walk storage): whether it applies, and `steps` steps. */
SQZ_INTERNAL int sqz__cl_simplex_swar_applies(const sqz_field *f, const sqz_update *u);
SQZ_INTERNAL const char *sqz__cl_simplex_swar_why_not(const sqz_field *f, const sqz_update *u);
SQZ_INTERNAL int sqz__cl_simplex_swar(sqz_field *f, const sqz_update *u, uint64_t steps);
SQZ_INTERNAL int sqz__cl_tetra_swar(sqz_field *f, const sqz_update *u, uint64_t steps);
/* Any update on triangle storage rows (engine_simplex_rows.c; compact and bb, one buffer or a part):
 * NULL when it applies to f, else why not; and `steps` steps. */
SQZ_INTERNAL const char *sqz__cl_simplex_rows_why_not(const sqz_field *f);
SQZ_INTERNAL int sqz__cl_simplex_rows(sqz_field *f, const sqz_update *u, uint64_t steps);
/* What the simplex word steps share: whether their index arithmetic may run in 32 bits (every byte
 * a step reads below 2^32, and no SQZ_INDEX64=1 in the environment); their kernel `name` of the
 * program of files after prelude pre (the field's map and block checked as the map kernels check
 * them, the second state buffer allocated); and `steps` launches of k, whose arguments after the
 * source and destination state (0 and 1) are set, flipping f->cur (releases k). */
SQZ_INTERNAL int sqz__cl_swar_idx32(const sqz_field *f);
SQZ_INTERNAL int sqz__cl_swar_kernel(sqz_field *f, const char *const *files, const char *pre, const char *name,
                                     cl_kernel *k);
SQZ_INTERNAL int sqz__cl_swar_steps(sqz_field *f, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local,
                                    uint64_t steps);
/* The fast Life step on u8 block/compact fractal tiles (engine_fractal_swar.c): whether it
 * applies to f and u (SQZ_ENGINE=generic in the environment turns it off); its plan, the tile shape
 * at `depth` steps a launch (1: the one-step kernel engine_fractal_swar, else engine_fractal_swar_t)
 * in plan->data, SQZ_ERR_UNSUPPORTED with nothing recorded when no tile level fits in local memory
 * (sqz__cl_fractal_swar_drop frees it); and `steps` steps by the plan with kernel k (released). */
SQZ_INTERNAL int sqz__cl_fractal_swar_applies(const sqz_field *f, const sqz_update *u);
SQZ_INTERNAL const char *sqz__cl_fractal_swar_why_not(const sqz_field *f, const sqz_update *u);
SQZ_INTERNAL int sqz__cl_fractal_swar_plan(sqz_field *f, unsigned depth, sqz_path_plan *plan);
SQZ_INTERNAL void sqz__cl_fractal_swar_drop(sqz_path_plan *plan);
SQZ_INTERNAL int sqz__cl_fractal_swar(sqz_field *f, const sqz_update *u, cl_kernel k, const sqz_path_plan *plan,
                                      uint64_t steps);
/* The engine_fractal.c side of the fractal paths: the word steps by a plan of sqz__cl_fractal_swar_plan
 * (its kernel built); whether the generic tile kernel's cache fits local memory (*fits; building that
 * kernel); and the generic kernel of f's layout, or with direct its *_direct kernel (no tile cache). */
SQZ_INTERNAL int sqz__cl_fractal_words(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan);
SQZ_INTERNAL int sqz__cl_fractal_cache_fits(sqz_field *f, const sqz_update *u, int *fits);
SQZ_INTERNAL int sqz__cl_fractal_generic(sqz_field *f, const sqz_update *u, uint64_t steps, int direct);
/* The opencl backend's engine paths (cl_paths.c), which sqz__cl_stencil steps by. */
SQZ_INTERNAL extern const sqz_path_table sqz__cl_paths;
/* Steps per launch of the fast fractal step for `steps` steps: depth 2 .. 4 runs kernel
 * engine_fractal_swar_t (temporal blocking: tiles with a depth-wide halo stepped in local
 * memory), 1 engine_fractal_swar; SQZ_TEMPORAL=1..4 in the environment overrides the default.
 * forced (option engine names the temporal path): the default is the GPUs' on every device and
 * `steps` no bound (a launch then steps fewer). */
SQZ_INTERNAL unsigned sqz__cl_fractal_swar_depth(const sqz_field *f, uint64_t steps, int forced);
SQZ_INTERNAL int sqz__cl_stencil(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq);
/* The table's prepare: sqz__cl_stencil of one step with every launch left out (sqz_cl_state.dry). */
SQZ_INTERNAL int sqz__cl_prepare(sqz_field *f, const sqz_update *u);

/* Fills (random 0/1, uniform floats, a constant) of every type and layout by kernel; a fractal
 * bb/lambda part (a band of embedded rows) by the host fill, uploaded. */
SQZ_INTERNAL int sqz__cl_fill(sqz_field *f, const sqz_fill *fill);
/* The observables' moments of f's own storage (cl/observe.cl, observe_cl.c): the backend's observe. */
SQZ_INTERNAL int sqz__cl_observe(sqz_field *f, const sqz_obs_req *req, sqz_obs_acc *acc);
SQZ_INTERNAL int sqz__cl_fill_fractal(sqz_field *f, const sqz_fill *fill);
SQZ_INTERNAL int sqz__cl_fill_simplex(sqz_field *f, const sqz_fill *fill);

/* 1 when the context's device has double precision (cl_khr_fp64). */
SQZ_INTERNAL int sqz__cl_has_fp64(const sqz_context *ctx);

/* Stage one of the reductions (reduce_cl.c), and the distance matrix (edm_cl.c). */
SQZ_INTERNAL int sqz__cl_reduce(sqz_context *ctx, sqz_red_op op, sqz_type type, sqz_mem mem, uint64_t n,
                                int acc_mode, sqz_red_acc *acc);
/* Cells between the buffer mem and host arrays through storage indices (-1: none): gather_cl.c. */
SQZ_INTERNAL int sqz__cl_gather(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *out);
SQZ_INTERNAL int sqz__cl_scatter(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n,
                                 const void *in);
/* Units gathered through a part's halo list by one kernel (the backend's copy_units): copy_cl.c. */
SQZ_INTERNAL int sqz__cl_copy_units(sqz_context *ctx, sqz_mem dst, uint64_t slot0, sqz_mem src, uint64_t g0, sqz_mem g,
                                    uint64_t i0, uint64_t n, uint64_t ub);
SQZ_INTERNAL int sqz__cl_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out);
#endif
