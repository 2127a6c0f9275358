/* sqz_parts.h — the unit remap of a field in parts (global unit -> local slot of a part buffer), shared by host C11 and OpenCL C kernels. */
#ifndef SQZ_PARTS_CL_H
#define SQZ_PARTS_CL_H
/* Needs sqz_common.h first (kernels are built by concatenation, so no #include here). */

#ifdef __OPENCL_VERSION__
#define SQZ_PARTS_GLOBAL __global
#else
#define SQZ_PARTS_GLOBAL
#endif

/* A part's view of the storage units (src/core/field_parts.h): own units [u0, u1) at slots
 * 0 .. u1 - u0 - 1, then n_halo sorted halo units. A field in one buffer is the part u0 = 0,
 * u1 = units, n_halo = 0, where every slot is the unit itself. */
/* The same view as one value, for kernels that pass it down to their helpers. */
typedef struct {
  sqz_u64 u0, u1, n_halo;
  SQZ_PARTS_GLOBAL const sqz_u64 *halo;
  sqz_u64 n_runs; /* the units a launch covers (sqz_units_has): n_runs runs, 0: every own unit */
  SQZ_PARTS_GLOBAL const sqz_u64 *runs;
} sqz_part_map;

/* The local slot of global unit g, or -1 when the part neither owns nor copies g. */
SQZ_FN sqz_i64 sqz_part_slot(sqz_u64 g, sqz_u64 u0, sqz_u64 u1, sqz_u64 n_halo, SQZ_PARTS_GLOBAL const sqz_u64 *halo) {
  if (g >= u0 && g < u1) return (sqz_i64)(g - u0);
  if (n_halo == 0u || g < halo[0] || g > halo[n_halo - 1u]) return (sqz_i64)-1; /* most reads of far cells */
  sqz_u64 lo = 0u, hi = n_halo;
  while (lo < hi) {
    sqz_u64 mid = lo + (hi - lo) / 2u;
    if (halo[mid] < g) lo = mid + 1u;
    else hi = mid;
  }
  return lo < n_halo && halo[lo] == g ? (sqz_i64)(u1 - u0 + lo) : (sqz_i64)-1;
}

/* Bands (layouts bb, lambda and simplex bits, src/core/parts_bands.c): a part owns units [u0, u1),
 * whole rows, and its halo is the `before` units of the row before u0 (0 when u0 = 0) then the
 * row from u1: the slot of unit g follows from the band alone (the same as sqz_part_slot of that
 * halo); -1 for units before the row above (units past the row below are never read). A field in
 * one buffer is the band u0 = 0, u1 = all, before = 0. */
SQZ_FN sqz_i64 sqz_band_slot(sqz_u64 g, sqz_u64 u0, sqz_u64 u1, sqz_u64 before) {
  if (g >= u0 && g < u1) return (sqz_i64)(g - u0);
  if (g < u0) return g + before >= u0 ? (sqz_i64)(u1 - u0 + (g + before - u0)) : (sqz_i64)-1;
  return (sqz_i64)(u1 - u0 + before + (g - u1));
}

/* A set of units as runs (src/core/field_parts.h, sqz_unit_set): positions 0 .. n - 1 number its
 * units in increasing order; runs[2 r] is the first unit of run r and runs[2 r + 1] its position,
 * runs[2 n_runs + 1] = n. n_runs = 0 stands for the identity (position i is unit i). */
/* The run that holds position i (n_runs > 0). */
SQZ_FN sqz_u64 sqz_units_run(sqz_u64 i, sqz_u64 n_runs, SQZ_PARTS_GLOBAL const sqz_u64 *runs) {
  sqz_u64 lo = 0u, hi = n_runs - 1u; /* the last run whose position is <= i */
  while (lo < hi) {
    sqz_u64 mid = (lo + hi + 1u) / 2u;
    if (runs[2u * mid + 1u] <= i) lo = mid;
    else hi = mid - 1u;
  }
  return lo;
}
/* The unit at position i. */
SQZ_FN sqz_u64 sqz_units_at(sqz_u64 i, sqz_u64 n_runs, SQZ_PARTS_GLOBAL const sqz_u64 *runs) {
  if (n_runs == 0u) return i;
  sqz_u64 r = sqz_units_run(i, n_runs, runs);
  return runs[2u * r] + (i - runs[2u * r + 1u]);
}
/* The first position past i's run: positions i .. end - 1 are consecutive units (n_runs = 0: all). */
SQZ_FN sqz_u64 sqz_units_run_end(sqz_u64 i, sqz_u64 n_runs, SQZ_PARTS_GLOBAL const sqz_u64 *runs) {
  if (n_runs == 0u) return ~(sqz_u64)0;
  return runs[2u * sqz_units_run(i, n_runs, runs) + 3u];
}
/* The run that holds unit g, or -1 when the set does not (n_runs > 0). */
SQZ_FN sqz_i64 sqz_units_run_of(sqz_u64 g, sqz_u64 n_runs, SQZ_PARTS_GLOBAL const sqz_u64 *runs) {
  if (g < runs[0]) return (sqz_i64)-1;
  sqz_u64 lo = 0u, hi = n_runs - 1u; /* the last run whose first unit is <= g */
  while (lo < hi) {
    sqz_u64 mid = (lo + hi + 1u) / 2u;
    if (runs[2u * mid] <= g) lo = mid;
    else hi = mid - 1u;
  }
  return g - runs[2u * lo] < runs[2u * lo + 3u] - runs[2u * lo + 1u] ? (sqz_i64)lo : (sqz_i64)-1;
}
/* Whether unit g is in the set (n_runs = 0: every unit is). */
SQZ_FN int sqz_units_has(sqz_u64 g, sqz_u64 n_runs, SQZ_PARTS_GLOBAL const sqz_u64 *runs) {
  return n_runs == 0u || sqz_units_run_of(g, n_runs, runs) >= 0;
}
#endif
