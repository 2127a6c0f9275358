/* cl_paths.c — the opencl backend's engine paths as one table: per row the fields it steps, whether it applies (or why not) with its plan, and its run. */
#include <string.h>

#include "backends/opencl/cl_bits.h"
#include "backends/opencl/cl_engine.h"
#include "layouts/bits/bits.h"

/* Why no path but the temporal word kernel takes a part's chunk of several steps (the parts then step one at a time). */
static const char sqz__part_chunk[] = "a part steps several steps a launch only by the temporal word kernel";

/* A row's plan made with status st: NULL (it applies), `why` for SQZ_ERR_UNSUPPORTED, else a failure in plan->st. */
static const char *sqz__planned(int st, sqz_path_plan *plan, const char *why) {
  if (st == SQZ_ERR_UNSUPPORTED) return why;
  plan->st = st;
  return st == SQZ_OK ? NULL : "failed";
}

/* ---- fractals, layouts bb, lambda, compact, block:RHO ------------------------------------------ */
static const char *boxes_u8(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  const char *why = sqz__cl_fractal_swar_why_not(f, u);
  if (!why) why = sqz__cl_fractal_boxes_why_not(f);
  if (why) return why;
  return sqz__planned(sqz__cl_bits_box_plan(f, steps, 1, plan), plan, "no plan of the boxes fits the device's local memory");
}

static int boxes_u8_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_bits_box(f, u, steps, 1, plan);
}

static const char *tiles_temporal(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  const char *why = sqz__cl_fractal_swar_why_not(f, u);
  if (why) return why;
  int chunk = f->part && steps > 1, forced = sqz__engine_forced(f, "fractal-tiles-life-u8-temporal");
  if (chunk && steps > 4) return "a part's chunk of more than 4 steps (the kernel steps up to 4 a launch)";
  unsigned depth = chunk ? (unsigned)steps : sqz__cl_fractal_swar_depth(f, steps, forced);
  if (depth < 2) return steps > 1 || forced ? "one step a launch on this device (SQZ_TEMPORAL)" : "one step in this call";
  return sqz__planned(sqz__cl_fractal_swar_plan(f, depth, plan), plan,
                      sqz__path_why("no tile with a halo of %u cells fits local memory", depth));
}

static const char *tiles_u8(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  const char *why = sqz__cl_fractal_swar_why_not(f, u);
  if (why) return why;
  if (f->part && steps > 1) return sqz__part_chunk;
  return sqz__planned(sqz__cl_fractal_swar_plan(f, 1, plan), plan, "no tile level fits local memory");
}

static const char *tiles_generic(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  if (f->part && steps > 1) return sqz__part_chunk;
  int fits = 0;
  plan->st = sqz__cl_fractal_cache_fits(f, u, &fits);
  return plan->st != SQZ_OK ? "failed" : fits ? NULL : "the tile's cache with its halo exceeds local memory";
}

static const char *one_step(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  return f->part && steps > 1 ? sqz__part_chunk : NULL;
}

static int generic_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_fractal_generic(f, u, steps, 0);
}

static int direct_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_fractal_generic(f, u, steps, 1);
}

/* ---- triangles and tetrahedra, layouts compact and bb ------------------------------------------ */
static const char *words_u8(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  return sqz__cl_simplex_swar_why_not(f, u);
}

static int triangle_words_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_simplex_swar(f, u, steps);
}

static int tetra_words_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_tetra_swar(f, u, steps);
}

static const char *rows_generic(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  return sqz__cl_simplex_rows_why_not(f);
}

static int rows_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_simplex_rows(f, u, steps);
}

static int map_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_simplex_map(f, u, steps);
}

/* ---- layout bits --------------------------------------------------------------------------------- */
static const char *bits_lanes(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  if (!sqz__bits_lanes_wanted(f) && !sqz__engine_forced(f, "bits-fractal-lanes"))
    return "not the default yet (SQZ_BITS_STEP=lanes)";
  if (f->part) return "a field in parts";
  return sqz__planned(sqz__cl_bits_lanes_plan(f, steps, plan), plan, "no plan fits local memory");
}

static int bits_lanes_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_bits_lanes(f, u, steps, plan);
}

static const char *bits_boxes(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  cl_bool little = CL_FALSE;
  clGetDeviceInfo(SQZ_CL(f->ctx)->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL);
  if (sqz__opt_is(NULL, f, SQZ_OPT_ENGINE, "generic")) return "SQZ_ENGINE=generic";
  if (!little) return "the device is big-endian (the box step reads bytes of little-endian words)";
  const char *why = sqz__planned(sqz__cl_bits_box_plan(f, steps, 0, plan), plan, "no window of the tile fits local memory");
  if (why || !f->part || plan->depth >= steps) return why;
  return sqz__path_why("a part's %llu steps between exchanges take one launch, and the window that fits steps %u",
                       (unsigned long long)steps, plan->depth);
}

static int bits_boxes_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_bits_box(f, u, steps, 0, plan);
}

static const char *bits_step(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  return f->part && steps > 1 ? "a part steps one step per exchange here" : NULL;
}

static int bits_step_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cl_bits_step(f, u, steps);
}

#define FR_BYTES (SQZ_PATH_FRACTAL | SQZ_PATH_BYTES)
#define FR_TILED (SQZ_PATH_FRACTAL | SQZ_PATH_TILED)
#define SX(fam) (fam | SQZ_PATH_COMPACT | SQZ_PATH_BB)

static const sqz_path_row sqz__cl_rows[] = {
    {"fractal-boxes-life-u8", FR_BYTES,
     "built-in Life on u8, compact, one buffer, no launch block, map seq, little-endian device; on CPU devices boxes "
     "of side 8 (fractal_step=boxes: any)", boxes_u8, boxes_u8_run, sqz__cl_bits_box_drop},
    {"fractal-tiles-life-u8-temporal", FR_BYTES,
     "built-in Life on u8, compact or block, map seq, several steps a launch (GPUs, temporal) where the deeper tile "
     "fits local memory; a part's chunk of up to 4 steps", tiles_temporal, sqz__cl_fractal_words, sqz__cl_fractal_swar_drop},
    {"fractal-tiles-life-u8", FR_BYTES, "built-in Life on u8, compact or block, map seq, a tile level that fits local memory",
     tiles_u8, sqz__cl_fractal_words, sqz__cl_fractal_swar_drop},
    {"fractal-tiles-generic", FR_TILED, "any update and type, compact or block, a tile cache that fits local memory",
     tiles_generic, generic_run, NULL},
    {"fractal-tiles-generic-direct", FR_TILED, "any update and type, compact or block (neighbours from global memory)",
     one_step, direct_run, NULL},
    {"fractal-lambda-generic", SQZ_PATH_FRACTAL | SQZ_PATH_LAMBDA, "any update and type", one_step, generic_run, NULL},
    {"fractal-bb-generic", SQZ_PATH_FRACTAL | SQZ_PATH_BB, "any update and type", one_step, generic_run, NULL},
    {"triangle-words-life-u8", SX(SQZ_PATH_TRIANGLE), "built-in Life on u8, one buffer, little-endian device", words_u8,
     triangle_words_run, NULL},
    {"tetrahedron-rows-life-u8", SX(SQZ_PATH_TETRAHEDRON), "built-in Life on u8, one buffer, little-endian device",
     words_u8, tetra_words_run, NULL},
    {"triangle-rows-generic", SX(SQZ_PATH_TRIANGLE), "any update and type, parts too", rows_generic, rows_run, NULL},
    {"tetrahedron-rows-generic", SX(SQZ_PATH_TETRAHEDRON), "any update and type, parts too, on CPU devices", rows_generic,
     rows_run, NULL},
    {"simplex-map-generic", SX(SQZ_PATH_SIMPLEX), "any update, type and map", NULL, map_run, NULL},
    {"bits-fractal-lanes", SQZ_PATH_FRACTAL | SQZ_PATH_BITS, "bits_step=lanes, one buffer, lanes that fit local memory",
     bits_lanes, bits_lanes_run, sqz__cl_bits_lanes_drop},
    {"bits-fractal-boxes", SQZ_PATH_FRACTAL | SQZ_PATH_BITS, "little-endian device, a window that fits local memory",
     bits_boxes, bits_boxes_run, sqz__cl_bits_box_drop},
    {"bits-fractal-step", SQZ_PATH_FRACTAL | SQZ_PATH_BITS, "any Life-like rule (a part: a step per exchange)", bits_step,
     bits_step_run, NULL},
    {"bits-simplex-rows", SQZ_PATH_SIMPLEX | SQZ_PATH_BITS, "any Life-like rule", NULL, bits_step_run, NULL},
};

const sqz_path_table sqz__cl_paths = {sizeof sqz__cl_rows / sizeof sqz__cl_rows[0], sqz__cl_rows};
