/* observe.cl — the observables' moments over the domain cells of a field's storage, each cell's position from its layout's map: one partial per work-group. */
/* Needs sqz_common.h and sqz_fractal.h (SQZ_OBS_FAMILY 2) or sqz_simplex.h (1, with SQZ_DIMS and
 * SQZ_SLAYOUT). The host's prelude (src/backends/opencl/observe_cl.c) defines
 *   SQZ_OBS_T     the cell type            SQZ_OBS_TMIN, SQZ_OBS_TMAX  its extremes (the identities)
 *   SQZ_OBS_ACC   the accumulator (double where the device has fp64, else float)
 *   SQZ_OBS_NP    centres of the m2 items (the sums are u, u x, u y, u z, then u |p - c|^2 per centre)
 * A grid-stride loop over storage elements first .. first + n - 1 (v[0] is element `first`): holes,
 * padding and cells outside the domain are skipped; each work-item keeps Neumaier (sum, correction)
 * pairs, the count of non-zero cells and the min and max, a local-memory tree folds the group as
 * cl/reduce.cl does, and work-item 0 writes the group's partial. Stage two runs on the host. */
#pragma OPENCL FP_CONTRACT OFF
#define OBS_NS (4 + SQZ_OBS_NP)

/* Rounding error of t = a + b (Neumaier's branch on magnitudes). */
static inline SQZ_OBS_ACC sqz_obs_err(SQZ_OBS_ACC a, SQZ_OBS_ACC b, SQZ_OBS_ACC t) {
  return fabs(a) >= fabs(b) ? (a - t) + b : (b - t) + a;
}

#define OBS_ADD(q, val)                 \
  {                                     \
    const SQZ_OBS_ACC v_ = (val);       \
    const SQZ_OBS_ACC t_ = S[q] + v_;   \
    C[q] += sqz_obs_err(S[q], v_, t_);  \
    S[q] = t_;                          \
  }

/* Storage element e: 1 with its embedded coordinates when it holds a domain cell. */
static inline int sqz_obs_cell(ulong e, uint side, uint s, uint k, uint levels, uint j, ulong rho, uint compact,
                               __constant int *fr, uint *x, uint *y, uint *z) {
  *z = 0u;
#if SQZ_OBS_FAMILY == 2
  return (int)sqz_fr_cell(compact, s, k, fr, fr + 2u * k, levels, j, rho, e, x, y);
#elif SQZ_DIMS == 2
  return sqz_tri_cell(SQZ_SLAYOUT, side, e, x, y);
#else
  return sqz_tet_cell(SQZ_SLAYOUT, side, e, x, y, z);
#endif
}

#ifdef SQZ_KERNEL_sqz_observe
__kernel void sqz_observe(__global const SQZ_OBS_T *v, ulong first, ulong n, uint side, uint s, uint k, uint levels,
                          uint j, ulong rho, uint compact, __constant int *fr, __constant SQZ_OBS_ACC *pts,
                          __global SQZ_OBS_ACC *out, __global ulong *out_count, __global SQZ_OBS_T *out_mm,
                          __local SQZ_OBS_ACC *ls, __local ulong *lc, __local SQZ_OBS_T *lm) {
  const uint lid = (uint)get_local_id(0), L = (uint)get_local_size(0);
  SQZ_OBS_ACC S[OBS_NS], C[OBS_NS];
  for (uint q = 0; q < OBS_NS; q++) S[q] = C[q] = (SQZ_OBS_ACC)0;
  ulong cnt = 0;
  SQZ_OBS_T mn = SQZ_OBS_TMAX, mx = SQZ_OBS_TMIN;
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
    uint x, y, z;
    if (!sqz_obs_cell(first + i, side, s, k, levels, j, rho, compact, fr, &x, &y, &z)) continue;
    const SQZ_OBS_T t = v[i];
    cnt += t != (SQZ_OBS_T)0 ? 1 : 0;
    mn = t < mn ? t : mn;
    mx = t > mx ? t : mx;
    const SQZ_OBS_ACC u = (SQZ_OBS_ACC)t, p[3] = {(SQZ_OBS_ACC)x, (SQZ_OBS_ACC)y, (SQZ_OBS_ACC)z};
    OBS_ADD(0, u)
    for (uint d = 0; d < 3; d++) OBS_ADD(1 + d, u * p[d])
    for (uint c = 0; c < SQZ_OBS_NP; c++) {
      SQZ_OBS_ACC r2 = (SQZ_OBS_ACC)0;
      for (uint d = 0; d < 3; d++) r2 += (p[d] - pts[3 * c + d]) * (p[d] - pts[3 * c + d]);
      OBS_ADD(4 + c, u * r2)
    }
  }
  for (uint q = 0; q < OBS_NS; q++) {
    ls[2 * q * L + lid] = S[q];
    ls[(2 * q + 1) * L + lid] = C[q];
  }
  lc[lid] = cnt;
  lm[lid] = mn;
  lm[L + lid] = mx;
  for (uint h = L >> 1; h > 0; h >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < h) {
      const uint b = lid + h;
      for (uint q = 0; q < OBS_NS; q++) {
        __local SQZ_OBS_ACC *sq = ls + 2 * q * L, *cq = ls + (2 * q + 1) * L;
        const SQZ_OBS_ACC t = sq[lid] + sq[b];
        cq[lid] = (cq[lid] + cq[b]) + sqz_obs_err(sq[lid], sq[b], t);
        sq[lid] = t;
      }
      lc[lid] += lc[b];
      lm[lid] = lm[b] < lm[lid] ? lm[b] : lm[lid];
      lm[L + lid] = lm[L + b] > lm[L + lid] ? lm[L + b] : lm[L + lid];
    }
  }
  if (lid != 0) return;
  const ulong g = get_group_id(0);
  for (uint q = 0; q < 2 * OBS_NS; q++) out[g * 2 * OBS_NS + q] = ls[q * L];
  out_count[g] = lc[0];
  out_mm[2 * g] = lm[0];
  out_mm[2 * g + 1] = lm[L];
}
#endif
