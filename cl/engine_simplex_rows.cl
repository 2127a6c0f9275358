/* engine_simplex_rows.cl — any update on triangle:N storage rows (compact fold and bb): a work-item per stored cell, neighbours straight from the three storage rows around it. */
/* Built after sqz_common.h, sqz_simplex.h, sqz_parts.h and the update (cl_engine.h: sqz_cell_t,
 * sqz_param_t, SQZ_APPLY, SQZ_WANT_PRESENT), with SQZ_SLAYOUT and SQZ_IDX32 (32-bit indices when
 * the storage holds at most 2^32 cells). Storage is a rectangle of `hrows` rows of `wrow` cells
 * (cl/sqz_simplex.h): compact is the fold, where storage (u, v) is cell (u, v - e) in the straight
 * part and cell (n - e - u, n - 1 - v) in the turned part, a point reflection; bb is the n x n box
 * (cells x <= y; the others hold 0 and are never written).
 * A cell whose 3 x 3 storage block lies inside the rectangle's interior and, for compact, inside one
 * part is "regular": that block is its Moore neighbourhood, all 8 neighbours are domain cells, and
 * the reflection of the turned part reverses the raster order (neighbour d at the block's window
 * 8 - w(d)), so every update sees the cpu backend's order and floats round alike. Other cells (near
 * the rectangle's edges and the fold's seam) go through sqz_tri_nbrs, as the map kernels.
 * A field in parts reads through the part's slots and writes only its own cells of the launch's set
 * (cl/sqz_parts.h, as cl/engine_simplex.cl). */
#ifdef SQZ_PARTED
#define SR_PART_ARGS , ulong pu0, ulong pu1, ulong pnh, __global const ulong *phalo, ulong prn, __global const ulong *pruns
#define SR_READ(i) sr_part_read(src, (i), pu0, pu1, pnh, phalo)
#define SR_OWN(i) ((i) >= pu0 && (i) < pu1 && sqz_units_has((i), prn, pruns))
#define SR_DST(i) ((i) - pu0)
static inline sqz_cell_t sr_part_read(__global const sqz_cell_t *src, ulong g, ulong pu0, ulong pu1, ulong pnh,
                                      __global const ulong *phalo) {
  long s = sqz_part_slot(g, pu0, pu1, pnh, phalo);
  return s < 0 ? (sqz_cell_t)0 : src[s];
}
#else
#define SR_PART_ARGS
#define SR_READ(i) src[i]
#define SR_OWN(i) 1
#define SR_DST(i) (i)
#endif

#ifdef SQZ_PARTED
/* The first run of the launch's unit set (prn runs, cl/sqz_parts.h) that ends past unit g: a row's own segments are
 * the runs from there that start before the row's end. */
static inline ulong sr_first_run(ulong g, ulong prn, __global const ulong *pruns) {
  ulong lo = 0u, hi = prn - 1u; /* the last run that starts at or before g (or run 0) */
  while (lo < hi) {
    ulong mid = (lo + hi + 1u) / 2u;
    if (pruns[2u * mid] <= g) lo = mid;
    else hi = mid - 1u;
  }
  return pruns[2u * lo] + (pruns[2u * lo + 3u] - pruns[2u * lo + 1u]) <= g ? lo + 1u : lo;
}
/* Run r's units [*g0, *g1). */
static inline void sr_run(ulong r, __global const ulong *pruns, ulong *g0, ulong *g1) {
  *g0 = pruns[2u * r];
  *g1 = *g0 + (pruns[2u * r + 3u] - pruns[2u * r + 1u]);
}
#endif

/* Whether storage cell (u, v) is regular (see above; u < wrow, v < hrows). */
/* The present mask of a regular cell: all 8 (0 when the update does not read it, as sqz_tri_present). */
#ifdef SQZ_WANT_PRESENT
#define SR_ALL 0xffu
#else
#define SR_ALL 0u
#endif

static inline int sr_regular(uint n, uint wrow, uint hrows, uint u, uint v) {
  if (u == 0u || u + 1u >= wrow || v == 0u || v + 1u >= hrows) return 0;
#if SQZ_SLAYOUT == SQZ_SL_COMPACT
  uint odd = n & 1u;
  return u + 3u - odd <= v || u >= v + 2u + odd; /* the block all straight, or all turned */
#else
  return u + 2u <= v; /* bb: (x + 1, y - 1) still on or below the diagonal */
#endif
}

/* Storage cell (u, v) at i through sqz_tri_nbrs: any cell, the regular ones too. */
static inline void sr_cell(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,
                           uint2 ip, uint n, uint u, uint v, sqz_sidx i SR_PART_ARGS) {
  uint x = u, y = v;
#if SQZ_SLAYOUT == SQZ_SL_COMPACT
  sqz_fold(n, u, v, &x, &y);
#endif
  sqz_sidx idx[8], self;
  sqz_cell_t nb[8];
  uint present = sqz_tri_nbrs(SQZ_SLAYOUT, n, x, y, idx, &self);
  for (uint d = 0u; d < 8u; d++) nb[d] = (present >> d) & 1u ? SR_READ(idx[d]) : (sqz_cell_t)0;
#ifndef SQZ_WANT_PRESENT
  present = 0u;
#endif
  dst[SR_DST(i)] = SQZ_APPLY(SR_READ(i), nb, present);
}

#ifdef SQZ_PARTED
#define SR_PART_PASS , pu0, pu1, pnh, phalo, prn, pruns
#else
#define SR_PART_PASS
#endif

#ifdef SQZ_KERNEL_sqz_rows2
#define SR_SEG 8u /* storage rows a work-item walks down its columns */
/* Storage columns a work-item walks side by side (SQZ__ROWS_CW of the host): 4 byte cells, so that a row of the window
 * is 6 loads for 4 cells (NVIDIA has no byte SIMD: fewer, shared loads are what counts), else 1. */
#define SR_CW (sizeof(sqz_cell_t) == 1 ? 4u : 1u)
/* Storage cell (u, v), 0 outside the rectangle (u or v wrapped below 0 too). */
#define SR_AT(u, v) ((u) < wrow && (v) < hrows ? SR_READ((sqz_sidx)(v) * wrow + (u)) : (sqz_cell_t)0)

/* GPUs: a work-item per SR_CW storage columns u0 .. u0 + SR_CW - 1 and segment of SR_SEG rows from
 * v0 + SR_SEG * global id 1, walking down them with the 3 x (SR_CW + 2) storage window in registers: the row below
 * is SR_CW + 2 loads, several in flight per work-item, and the row above and its own come from the window. */
__kernel void sqz_rows2(__global const sqz_cell_t *restrict src, __global sqz_cell_t *restrict dst,
                        __constant const sqz_param_t *param, uint2 ip, uint n, uint wrow, uint hrows,
                        uint v0 SR_PART_ARGS) {
  uint u0 = (uint)get_global_id(0) * SR_CW, vs = v0 + SR_SEG * (uint)get_global_id(1);
  if (u0 >= wrow || vs >= hrows) return;
  uint ve = min(hrows, vs + SR_SEG);
#if SQZ_SLAYOUT == SQZ_SL_BB
  if (u0 >= ve) return; /* right of the diagonal in every row of the segment: no cell */
#endif
  sqz_cell_t a[SR_CW + 2u], b[SR_CW + 2u], c[SR_CW + 2u]; /* rows v - 1, v, v + 1 at columns u0 - 1 .. u0 + SR_CW */
#pragma unroll
  for (uint k = 0u; k < SR_CW + 2u; k++) {
    a[k] = SR_AT(u0 + k - 1u, vs - 1u);
    b[k] = SR_AT(u0 + k - 1u, vs);
  }
  for (uint v = vs; v < ve; v++) {
#pragma unroll
    for (uint k = 0u; k < SR_CW + 2u; k++) c[k] = SR_AT(u0 + k - 1u, v + 1u);
#pragma unroll
    for (uint k = 0u; k < SR_CW; k++) {
      uint u = u0 + k;
      sqz_sidx i = (sqz_sidx)v * wrow + u;
#if SQZ_SLAYOUT == SQZ_SL_BB
      int cell = u < wrow && u <= v && SR_OWN(i);
#else
      int cell = u < wrow && SR_OWN(i);
#endif
      if (cell && sr_regular(n, wrow, hrows, u, v)) {
        sqz_cell_t nb[8];
#if SQZ_SLAYOUT == SQZ_SL_COMPACT
        int turned = !sqz_fold_straight(n, u, v);
#else
        const int turned = 0;
#endif
        if (turned) { /* the point reflection: neighbour d at window 8 - w(d) */
          nb[0] = c[k + 2u]; nb[1] = c[k + 1u]; nb[2] = c[k]; nb[3] = b[k + 2u]; nb[4] = b[k];
          nb[5] = a[k + 2u]; nb[6] = a[k + 1u]; nb[7] = a[k];
        } else {
          nb[0] = a[k]; nb[1] = a[k + 1u]; nb[2] = a[k + 2u]; nb[3] = b[k]; nb[4] = b[k + 2u];
          nb[5] = c[k]; nb[6] = c[k + 1u]; nb[7] = c[k + 2u];
        }
        dst[SR_DST(i)] = SQZ_APPLY(b[k + 1u], nb, SR_ALL);
      } else if (cell) {
        sr_cell(src, dst, param, ip, n, u, v, i SR_PART_PASS);
      }
    }
#pragma unroll
    for (uint k = 0u; k < SR_CW + 2u; k++) {
      a[k] = b[k];
      b[k] = c[k];
    }
  }
}
#endif

#ifdef SQZ_KERNEL_sqz_rows2_walk
/* Cells [ua, ue) of storage row v (row = v wrow) that the step writes (a part's set of units: a segment of one run),
 * the spans as the kernel below finds them: straight [1, a1] and turned [b0, b1]. */
static inline void sr_walk2(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,
                            uint2 ip, uint n, uint wrow, uint v, sqz_sidx row, uint ua, uint ue, uint a1, uint b0,
                            uint b1, int direct SR_PART_ARGS) {
  for (uint u = ua; u < ue; u++) {
    sqz_sidx i = row + u;
    int span = direct && ((u >= 1u && u <= a1) || (u >= b0 && u <= b1));
    if (span) { /* the spans' loops below */
      uint last = min(u <= a1 ? a1 : b1, ue - 1u), turned = u > a1;
#ifdef SQZ_PARTED
      __global const sqz_cell_t *s = src - pu0;
      __global sqz_cell_t *d = dst - pu0;
#else
      __global const sqz_cell_t *s = src;
      __global sqz_cell_t *d = dst;
#endif
      /* pointers and a signed count: the compiler sees unit strides that cannot wrap, and vectorises */
      __global const sqz_cell_t *pc = s + ((ulong)row + u), *pu = pc - wrow, *pd = pc + wrow;
      __global sqz_cell_t *pw = d + ((ulong)row + u);
      int len = (int)(last - u + 1u);
      sqz_cell_t nb[8];
      if (turned) {
        for (int q = 0; q < len; q++) {
          nb[0] = pd[q + 1]; nb[1] = pd[q]; nb[2] = pd[q - 1]; nb[3] = pc[q + 1]; nb[4] = pc[q - 1];
          nb[5] = pu[q + 1]; nb[6] = pu[q]; nb[7] = pu[q - 1];
          pw[q] = SQZ_APPLY(pc[q], nb, SR_ALL);
        }
      } else {
        for (int q = 0; q < len; q++) {
          nb[0] = pu[q - 1]; nb[1] = pu[q]; nb[2] = pu[q + 1]; nb[3] = pc[q - 1]; nb[4] = pc[q + 1];
          nb[5] = pd[q - 1]; nb[6] = pd[q]; nb[7] = pd[q + 1];
          pw[q] = SQZ_APPLY(pc[q], nb, SR_ALL);
        }
      }
      u = last;
      continue;
    }
#ifdef SQZ_PARTED
    if (i >= pu0 && i < pu1) sr_cell(src, dst, param, ip, n, u, v, i SR_PART_PASS);
#else
    sr_cell(src, dst, param, ip, n, u, v, i SR_PART_PASS);
#endif
  }
}

/* CPU devices: a work-item per storage row v0 + global id, walking it. Its regular cells are at most
 * two spans (compact: the straight one left of the seam, the turned one right of it; bb: one), found
 * once per row, whose loops have no branch, so the compiler vectorises them within the work-item; the
 * other cells go one by one. A part's rows whose neighbours are all its own read with the offset; a launch over a
 * set of units (a part's inner or border units) walks the row's segments of the set's runs, found by one search.
 * src and dst are not `restrict` (here and in sqz_rows3_walk): with it, LLVM carries each window load over to the
 * next cell in registers, a chain of recurrences its loop vectoriser refuses ("value that could not be identified
 * as reduction is used outside the loop"), and the span stayed scalar; without it, a store to dst may change src, the
 * loads stay in the loop, and the vectoriser takes it behind a run-time check that the rows do not overlap
 * (PoCL, u8 user Life on triangle:4000: 14.5 -> 2.4 ms a step). */
__kernel void sqz_rows2_walk(__global const sqz_cell_t *src, __global sqz_cell_t *dst,
                             __constant const sqz_param_t *param, uint2 ip, uint n, uint wrow, uint hrows,
                             uint v0 SR_PART_ARGS) {
  uint v = v0 + (uint)get_global_id(0);
  if (v >= hrows) return;
  sqz_sidx row = (sqz_sidx)v * wrow;
  uint a1 = 0u, b0 = 1u, b1 = 0u, end = wrow; /* spans [1, a1] straight, [b0, b1] turned */
  if (v >= 1u && v + 1u < hrows && wrow >= 3u) {
#if SQZ_SLAYOUT == SQZ_SL_COMPACT
    uint odd = n & 1u;
    a1 = v + odd >= 3u ? min(wrow - 2u, v + odd - 3u) : 0u;
    b0 = max(1u, v + 2u + odd);
    b1 = wrow - 2u;
#else
    a1 = v >= 2u ? min(wrow - 2u, v - 2u) : 0u;
#endif
  }
#if SQZ_SLAYOUT == SQZ_SL_BB
  end = min(wrow, v + 1u); /* cells x <= y */
#endif
#ifdef SQZ_PARTED
  int direct = row >= pu0 + wrow && row + 2u * (sqz_sidx)wrow <= pu1; /* rows v - 1 .. v + 1 own */
  if (prn != 0u) { /* a set of units (inner or border): its segments of the row */
    for (ulong r = sr_first_run(row, prn, pruns), g0, g1; r < prn; r++) {
      sr_run(r, pruns, &g0, &g1);
      if (g0 >= (ulong)row + end) break;
      uint ua = g0 > (ulong)row ? (uint)(g0 - row) : 0u, ue = (uint)min(g1 - (ulong)row, (ulong)end);
      sr_walk2(src, dst, param, ip, n, wrow, v, row, ua, ue, a1, b0, b1, direct SR_PART_PASS);
    }
    return;
  }
#else
  const int direct = 1;
#endif
  sr_walk2(src, dst, param, ip, n, wrow, v, row, 0u, end, a1, b0, b1, direct SR_PART_PASS);
}
#endif

#ifdef SQZ_KERNEL_sqz_rows3_walk
/* The present mask of a regular tetrahedron cell: all 26 (0 when the update does not read it). */
#ifdef SQZ_WANT_PRESENT
#define SR_ALL3 0x3ffffffu
#else
#define SR_ALL3 0u
#endif

/* Tetrahedron cell (x, y, z) at i through sqz_tet_nbrs: any cell. */
static inline void sr_cell3(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,
                            uint2 ip, uint n, uint x, uint y, uint z SR_PART_ARGS) {
  sqz_sidx idx[26], i;
  sqz_cell_t nb[26];
  uint present = sqz_tet_nbrs(SQZ_SLAYOUT, n, x, y, z, idx, &i);
  if (!SR_OWN(i)) return;
  for (uint d = 0u; d < 26u; d++) nb[d] = (present >> d) & 1u ? SR_READ(idx[d]) : (sqz_cell_t)0;
#ifndef SQZ_WANT_PRESENT
  present = 0u;
#endif
  dst[SR_DST(i)] = SQZ_APPLY(SR_READ(i), nb, present);
}

/* Cell x of a row whose 9 rows are read through row bases (cell x' of row r at rb[r][x']), outside the span: x = 0,
 * the last cells, rows on the planes y = 0 or z = 0. Neighbour (dx, dy, dz) is cell x + dx of row (dy, dz), present
 * when x + dx is below that row's length (x - 1 wraps above it at x = 0; an absent row has length 0): the order
 * and mask of sqz_tet_nbrs, without its index arithmetic. */
static inline void sr_edge3(__global const sqz_cell_t *const *rb, __global sqz_cell_t *pw,
                            __constant const sqz_param_t *param, uint2 ip, const uint *rlen, uint x) {
  sqz_cell_t nb[26];
  uint present = 0u;
#pragma unroll
  for (uint w = 0u; w < 27u; w++) {
    if (w == 13u) continue;
    uint r = w / 3u, xx = x + w % 3u - 1u, k = w < 13u ? w : w - 1u;
    int in = xx < rlen[r];
    nb[k] = in ? rb[r][xx] : (sqz_cell_t)0;
    present |= (uint)in << k;
  }
#ifndef SQZ_WANT_PRESENT
  present = 0u;
#endif
  pw[x] = SQZ_APPLY(rb[4][x], nb, present);
}

/* The row bases of the 9 rows (rb) and of the row's own cells (*pw), and the row's own cells [*x0, *x1): 1 when every
 * row reads through its base, a part's rows each wholly its own or one run of its halo; 0 when one does not (a
 * row split between the part and its halo, or a launch over a set of units: cell by cell through sqz_tet_nbrs). */
static inline int sr_bases3(__global const sqz_cell_t *src, __global sqz_cell_t *dst, const sqz_sidx *start,
                            const uint *rlen, __global const sqz_cell_t **rb, __global sqz_cell_t **pw, uint *x0,
                            uint *x1 SR_PART_ARGS) {
  *x0 = 0u;
  *x1 = rlen[4];
#ifdef SQZ_PARTED
  ulong own = (ulong)start[4];
  *x0 = own >= pu0 ? 0u : (uint)min(pu0 - own, (ulong)rlen[4]);
  *x1 = own >= pu1 ? 0u : (uint)min(pu1 - own, (ulong)rlen[4]);
  *pw = dst + (own - pu0);
  for (uint r = 0u; r < 9u; r++) {
    if (!rlen[r]) continue;
    long s0 = sqz_part_slot(start[r], pu0, pu1, pnh, phalo), s1 = sqz_part_slot(start[r] + rlen[r] - 1u, pu0, pu1, pnh, phalo);
    if (s0 < 0 || s1 - s0 != (long)rlen[r] - 1) return 0;
    rb[r] = src + s0;
  }
#else
  *pw = dst + start[4];
#pragma unroll
  for (uint r = 0u; r < 9u; r++) rb[r] = src + start[r];
#endif
  return 1;
}

/* Cells [x0, x1) of row (y, z), own ones: the span [a, b] through the row bases (based: every row has one), the other
 * cells by the rows' bounds, or all cell by cell through the part's slots (not based). */
static inline void sr_walk3(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,
                            uint2 ip, uint n, uint y, uint z, __global const sqz_cell_t *const *rb,
                            __global sqz_cell_t *pw, const uint *rlen, uint a, uint b, uint x0, uint x1,
                            int based SR_PART_ARGS) {
  if (!based) {
    for (uint x = x0; x < x1; x++) sr_cell3(src, dst, param, ip, n, x, y, z SR_PART_PASS);
    return;
  }
  a = max(a, x0);
  b = min(b, x1 - 1u); /* x1 >= 1 when x1 > x0; an empty span when not */
  for (uint x = x0; x < x1; x++) {
    if (x >= a && x <= b) { /* pointers and a signed count: unit strides that cannot wrap */
      __global const sqz_cell_t *rp[9];
#pragma unroll
      for (uint r = 0u; r < 9u; r++) rp[r] = rb[r] + x;
      __global sqz_cell_t *pq = pw + x;
      int cnt = (int)(b - x + 1u);
      sqz_cell_t nb[26];
#pragma clang loop vectorize(assume_safety)
      for (int q = 0; q < cnt; q++) {
#pragma unroll
        for (int w = 0; w < 27; w++)
          if (w != 13) nb[w < 13 ? w : w - 1] = rp[w / 3][q + w % 3 - 1];
        pq[q] = SQZ_APPLY(rp[4][q], nb, SR_ALL3);
      }
      x = b;
      continue;
    }
    sr_edge3(rb, pw, param, ip, rlen, x);
  }
}

/* CPU devices: a work-item per row (y, z) of the tetrahedron, planes z0 .. of the launch along the grid's second
 * dimension, walking x. The 9 rows (y + dy, z + dz) around it (sqz_tet_rows9) hold the Moore neighbourhood; a cell
 * with x, y, z >= 1 and x <= len - 4 has all 26 (the shortest neighbour row, (y + 1, z + 1), ends at len - 3), so
 * its span's loop reads them through 9 row pointers without a test, and the compiler vectorises it; the other cells
 * go one by one, their neighbours by the rows' bounds (sr_edge3). A part reads each row through its slot base (own
 * rows, and rows that are one run of its halo), found once per row (sr_bases3); a row where that fails goes cell by
 * cell through the part's slots (sr_cell3). */
__kernel void sqz_rows3_walk(__global const sqz_cell_t *src, __global sqz_cell_t *dst,
                             __constant const sqz_param_t *param, uint2 ip, uint n, uint wrow, uint hrows,
                             uint z0 SR_PART_ARGS) {
  uint y = (uint)get_global_id(0), z = z0 + (uint)get_global_id(1);
  if (z >= n || y >= n - z) return;
  uint len = n - y - z, a = 1u, b = y >= 1u && z >= 1u && len >= 5u ? len - 4u : 0u; /* the span [a, b] */
  sqz_sidx start[9];
  uint rlen[9], x0, x1;
  sqz_tet_rows9(SQZ_SLAYOUT, n, y, z, start, rlen);
  __global const sqz_cell_t *rb[9];
  __global sqz_cell_t *pw;
  int based = sr_bases3(src, dst, start, rlen, rb, &pw, &x0, &x1 SR_PART_PASS);
#ifdef SQZ_PARTED
  if (prn != 0u) { /* a set of units (inner or border): its segments of the row */
    ulong row = (ulong)start[4];
    for (ulong r = sr_first_run(row + x0, prn, pruns), g0, g1; r < prn; r++) {
      sr_run(r, pruns, &g0, &g1);
      if (g0 >= row + x1) break;
      uint ua = (uint)(max(g0, row + x0) - row), ue = (uint)(min(g1, row + x1) - row);
      sr_walk3(src, dst, param, ip, n, y, z, rb, pw, rlen, a, b, ua, ue, based SR_PART_PASS);
    }
    return;
  }
#endif
  sr_walk3(src, dst, param, ip, n, y, z, rb, pw, rlen, a, b, x0, x1, based SR_PART_PASS);
}
#endif
