/* gather.cl — cells between storage and a host-side list of storage indices: bands of the embedding read and written without the whole array. */
/* Prelude: SQZ_T, the unsigned type of the cell's width (uchar, uint, ulong), and SQZ_KERNEL_<name> (the
 * program's one kernel). An index of -1 is a cell outside the domain: it reads as 0 and is never written. */
#ifdef SQZ_KERNEL_sqz_gather
__kernel void sqz_gather(__global const SQZ_T *src, __global const long *idx, __global SQZ_T *out, ulong n) {
  ulong i = get_global_id(0);
  if (i >= n) return;
  long j = idx[i];
  out[i] = j < 0 ? (SQZ_T)0 : src[j];
}
#endif

#ifdef SQZ_KERNEL_sqz_scatter
__kernel void sqz_scatter(__global SQZ_T *dst, __global const long *idx, __global const SQZ_T *in, ulong n) {
  ulong i = get_global_id(0);
  if (i >= n) return;
  long j = idx[i];
  if (j >= 0) dst[j] = in[i];
}
#endif
