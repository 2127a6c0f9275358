/* reduce.cl — two-stage tree reductions: exact counts, integer sums, pairwise and Neumaier float sums. */
/* The host builds one program per element type and kernel with this prelude (src/opencl/reduce_cl.c):
 *   SQZ_RED_BITS  unsigned type of the element's width (count works on bit patterns)
 *   SQZ_RED_T     element type            SQZ_RED_KIND  0 count only, 1 integer, 2 float
 *   SQZ_RED_ACC   Neumaier accumulator    SQZ_RED_FP64  defined when doubles are used
 *   SQZ_KERNEL_<name>  the one kernel of the program (sqz__program_kernel)
 * Every kernel is stage one: a bounded grid of work-groups walks the input with a grid
 * stride, each work-item folds its elements, a local-memory tree folds the work-group, and
 * work-item 0 writes one partial per group. Stage two (partials -> result) runs on the host.
 * The local size is a power of two, every work-item reaches every barrier, and work-items
 * without (more) input contribute the identity 0. */
#ifdef SQZ_RED_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#pragma OPENCL FP_CONTRACT OFF

/* Folds scratch[0 .. L) into scratch[0]; COMBINE(a, b) folds slot b into slot a. */
#define SQZ_RED_TREE(lid, COMBINE)                                      \
  for (uint half_ = (uint)get_local_size(0) >> 1; half_ > 0; half_ >>= 1) { \
    barrier(CLK_LOCAL_MEM_FENCE);                                       \
    if ((lid) < half_) COMBINE((lid), (lid) + half_);                   \
  }

/* Number of elements whose bits under mask are not all zero: integers != 0; for floats the
 * mask drops the sign bit, so -0.0 counts as zero and NaN as non-zero. */
#define SQZ_RED_COUNT_ADD(a, b) scratch[a] += scratch[b]
#ifdef SQZ_KERNEL_sqz_red_count
__kernel void sqz_red_count(__global const SQZ_RED_BITS *x, ulong n, SQZ_RED_BITS mask,
                            __global ulong *out, __local ulong *scratch) {
  const uint lid = (uint)get_local_id(0);
  const ulong stride = get_global_size(0);
  ulong c = 0;
  for (ulong i = get_global_id(0); i < n; i += stride) c += (x[i] & mask) != 0 ? 1 : 0;
  scratch[lid] = c;
  SQZ_RED_TREE(lid, SQZ_RED_COUNT_ADD)
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
#endif

#if SQZ_RED_KIND == 1
/* Exact integer sum; a group's partial fits in 64 bits while it sums < 2^32 elements,
 * which the host guarantees. */
#ifdef SQZ_KERNEL_sqz_red_isum
__kernel void sqz_red_isum(__global const SQZ_RED_T *x, ulong n, __global long *out,
                           __local long *scratch) {
  const uint lid = (uint)get_local_id(0);
  const ulong stride = get_global_size(0);
  long s = 0;
  for (ulong i = get_global_id(0); i < n; i += stride) s += (long)x[i];
  scratch[lid] = s;
  SQZ_RED_TREE(lid, SQZ_RED_COUNT_ADD)
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
#endif
#endif

#if SQZ_RED_KIND == 2
/* Pairwise sum in the element type. Each work-item takes blocks of 8 elements (one per
 * grid stride, so loads stay coalesced), sums a block as a balanced tree, and merges block
 * sums like a binary counter: the stack holds sums of 2^j blocks, j decreasing upwards, so
 * the work-item's additions form a tree of height <= 3 + 2 log2(blocks) + 1. The group tree
 * adds log2(L) levels. Any NaN or infinity in the input sets *flag. */
#define SQZ_RED_PAIR_ADD(a, b) scratch[a] += scratch[b]
#ifdef SQZ_KERNEL_sqz_red_pairwise
__kernel void sqz_red_pairwise(__global const SQZ_RED_T *x, ulong n, __global SQZ_RED_T *out,
                               volatile __global int *flag, __local SQZ_RED_T *scratch) {
  const uint lid = (uint)get_local_id(0);
  const ulong stride = get_global_size(0);
  SQZ_RED_T stack[64];
  uint top = 0;
  int bad = 0;
  ulong k = 0;
  for (ulong b = get_global_id(0); b < n; b += 8 * stride, k++) {
    SQZ_RED_T v[8];
    for (uint j = 0; j < 8; j++) {
      const ulong i = b + j * stride;
      v[j] = i < n ? x[i] : (SQZ_RED_T)0;
      bad |= isfinite(v[j]) ? 0 : 1;
    }
    SQZ_RED_T s = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
    for (ulong m = k; m & 1; m >>= 1) s = stack[--top] + s;
    stack[top++] = s;
  }
  SQZ_RED_T s = (SQZ_RED_T)0;
  while (top > 0) s = stack[--top] + s;
  scratch[lid] = s;
  SQZ_RED_TREE(lid, SQZ_RED_PAIR_ADD)
  if (lid == 0) out[get_group_id(0)] = scratch[0];
  if (bad) atomic_or(flag, 1);
}
#endif

/* Rounding error of t = a + b (Neumaier's branch on magnitudes; exact for finite a, b). */
static inline SQZ_RED_ACC sqz_red_err(SQZ_RED_ACC a, SQZ_RED_ACC b, SQZ_RED_ACC t) {
  return fabs(a) >= fabs(b) ? (a - t) + b : (b - t) + a;
}

/* Compensated sum: each work-item runs Neumaier's (sum, correction) over its elements in
 * SQZ_RED_ACC; the group tree adds two pairs as s = s1 + s2, c = (c1 + c2) + err(s1 + s2).
 * out receives (s, c) per group. scratch holds 2L accumulators: sums, then corrections. */
#define SQZ_RED_NEU_ADD(a, b)                                                 \
  {                                                                          \
    const SQZ_RED_ACC t_ = scratch[a] + scratch[b];                          \
    scratch[L + (a)] = (scratch[L + (a)] + scratch[L + (b)]) +                \
                       sqz_red_err(scratch[a], scratch[b], t_);              \
    scratch[a] = t_;                                                         \
  }
#ifdef SQZ_KERNEL_sqz_red_neumaier
__kernel void sqz_red_neumaier(__global const SQZ_RED_T *x, ulong n, __global SQZ_RED_ACC *out,
                               volatile __global int *flag, __local SQZ_RED_ACC *scratch) {
  const uint lid = (uint)get_local_id(0);
  const uint L = (uint)get_local_size(0);
  const ulong stride = get_global_size(0);
  SQZ_RED_ACC s = 0, c = 0;
  int bad = 0;
  for (ulong i = get_global_id(0); i < n; i += stride) {
    const SQZ_RED_T xi = x[i];
    bad |= isfinite(xi) ? 0 : 1;
    const SQZ_RED_ACC v = (SQZ_RED_ACC)xi;
    const SQZ_RED_ACC t = s + v;
    c += sqz_red_err(s, v, t);
    s = t;
  }
  scratch[lid] = s;
  scratch[L + lid] = c;
  SQZ_RED_TREE(lid, SQZ_RED_NEU_ADD)
  if (lid == 0) {
    out[2 * get_group_id(0)] = scratch[0];
    out[2 * get_group_id(0) + 1] = scratch[L];
  }
  if (bad) atomic_or(flag, 1);
}
#endif
#endif
