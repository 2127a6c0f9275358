/* copy.cl — units gathered through a part's halo list: one launch for a halo of many short runs. */
/* A work-item per unit i < n: dst at (slot0 + i) ub <- src at (g[i0 + i] - g0) ub, ub bytes (as one copy command
 * per run would move them; src and dst are different buffers). */
__kernel void sqz_copy_units(__global uchar *dst, ulong slot0, __global const uchar *src, ulong g0,
                             __global const ulong *g, ulong i0, ulong n, ulong ub) {
  ulong i = (ulong)get_global_id(0);
  if (i >= n) return;
  __global uchar *d = dst + (slot0 + i) * ub;
  __global const uchar *s = src + (g[i0 + i] - g0) * ub;
  for (ulong b = 0; b < ub; b++) d[b] = s[b];
}
