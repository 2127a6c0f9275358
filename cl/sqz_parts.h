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
#endif
