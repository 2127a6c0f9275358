/* engine_tetra_swar.cl — the fast Life step on u8 tetrahedra (compact and bb, any map): storage rows (y, z), the 9 rows around found once (sqz_tet_rows9), then streamed along x. */
/* Built after sqz_common.h, sqz_simplex.h and sqz_swar.h. Cell x of row (y, z) has its 26
 * neighbours at x - 1 .. x + 1 of the rows (y + dy, z + dz): every layout stores a row's cells
 * contiguously, so once the 9 row starts and lengths are known a row is a stream along x. Cells
 * past a row's length (and rows outside the domain) read as 0, so the bb layout's cells outside the
 * domain are neither read nor written. birth and survive are 27-bit masks: a cell with c live
 * neighbours becomes ((self ? survive : birth) >> c) & 1. Arguments: src, dst, birth, survive, n,
 * compact (1: compact, 0: bb), chunk (rows per work-item, 32-bit words), elems (cells stored). */

/* The next state of a cell from live27, the live cells of its 3 x 3 x 3 block, self included. */
static inline uint tet_next(uint self, uint live27, uint birth, uint survive) {
  return ((self ? survive : birth) >> (live27 - self)) & 1u;
}

#if SQZ_SWAR_WORD == 8
/* CPU devices: a work-item per row (y, z) = global ids (0, 1), in blocks of TET_W cells held as
 * one vector each (clang's vector extension: PoCL lowers it to AVX2 / AVX-512 registers). A block's
 * column sums (the 9 rows' cells at each x, <= 9) are loaded once and kept for the next block, so a
 * block costs 9 loads and its 27-cell sums are the column sums at x - 1, x, x + 1, shifted across
 * the previous and next blocks. Rows around hold k - 2 .. k + 2 cells (k: the row's own length),
 * rows outside the domain none: while every lane is inside every row the loads are masked by a
 * constant, past that by the lanes below each row's length. The rule is a byte compare per set bit
 * of the rule's keys (count, plus 32 for a live cell). Reads run up to 2 TET_W cells past the row;
 * a row whose reads would pass the end of the storage takes a cell-by-cell loop. */
#define TET_W 64
typedef uchar tet_v __attribute__((ext_vector_type(TET_W)));
typedef tet_v tet_vu __attribute__((aligned(1))); /* loads at any byte address */
typedef uchar tet_v32 __attribute__((ext_vector_type(32)));
#define TET_I4(b) (b), (b) + 1, (b) + 2, (b) + 3
#define TET_I16(b) TET_I4(b), TET_I4((b) + 4), TET_I4((b) + 8), TET_I4((b) + 12)
#define TET_I64(b) TET_I16(b), TET_I16((b) + 16), TET_I16((b) + 32), TET_I16((b) + 48)

/* Lanes below rem (clamped to 0 .. TET_W) as 0xff, the rest 0. */
static inline tet_v tet_below(int rem) {
  const tet_v lanes = (tet_v)(TET_I64(0));
  return __builtin_astype(lanes < (tet_v)((uchar)clamp(rem, 0, TET_W)), tet_v);
}

/* The column sums of cells x .. x + TET_W - 1 of the 9 rows, row i masked by m[i]. */
#define TET_COL(i, m) (*(__global const tet_vu *)(r##i + x) & (m##i))
#define TET_COLSUM(m) (TET_COL(0, m) + TET_COL(1, m) + TET_COL(2, m) + TET_COL(3, m) + TET_COL(4, m) + TET_COL(5, m) + \
                       TET_COL(6, m) + TET_COL(7, m) + TET_COL(8, m))

/* The next states of a block from its column sums c, those of the blocks before (p) and after (q),
 * and its cells s: key = live27 + 31 self = the count, plus 32 when live. */
static inline tet_v tet_block(tet_v p, tet_v c, tet_v q, tet_v s, ulong rule) {
  tet_v key = c + __builtin_shufflevector(p, c, TET_I64(TET_W - 1)) + __builtin_shufflevector(c, q, TET_I64(1)) +
              s * (uchar)31u;
  tet_v hit = (tet_v)(0);
  for (ulong r = rule; r; r &= r - 1u) hit |= __builtin_astype(key == (tet_v)((uchar)(63u - clz(r & (0u - r)))), tet_v);
  return hit & (uchar)1u;
}

/* Stores the first rem (< TET_W) cells of v at out: halves of decreasing size. */
static inline void tet_store_part(__global uchar *out, tet_v v, uint rem) {
  tet_v32 h = v.lo;
  if (rem & 32u) vstore16(h.lo, 0u, out), vstore16(h.hi, 0u, out + 16), out += 32, h = v.hi;
  uchar16 g = (rem & 16u) ? (vstore16(h.lo, 0u, out), out += 16, h.hi) : h.lo;
  uchar8 e = (rem & 8u) ? (vstore8(g.lo, 0u, out), out += 8, g.hi) : g.lo;
  uchar4 d = (rem & 4u) ? (vstore4(e.lo, 0u, out), out += 4, e.hi) : e.lo;
  uchar2 b = (rem & 2u) ? (vstore2(d.lo, 0u, out), out += 2, d.hi) : d.lo;
  if (rem & 1u) *out = b.x;
}

__kernel void engine_tetra_swar(__global const uchar *restrict src, __global uchar *restrict dst, uint birth,
                                uint survive, uint n, uint compact, uint chunk, ulong elems) {
  uint y = (uint)get_global_id(0), z = (uint)get_global_id(1);
  (void)chunk;
  if (y >= n || z >= n || y + z >= n) return;
  sqz_sidx start[9];
  uint len[9];
  sqz_tet_rows9(compact ? SQZ_SL_COMPACT : SQZ_SL_BB, n, y, z, start, len);
  uint k = len[4];
  sqz_sidx far = 0u; /* the last row start read */
  /* the rows as scalars (arrays would live in PoCL's work-item context, reloaded every cell);
   * rows outside the domain point at the row itself, masked */
#define TET_ROW(i)                                                                                                 \
  sqz_sidx a##i = len[i] ? start[i] : start[4];                                                                   \
  __global const uchar *r##i = src + a##i;                                                                        \
  tet_v whole##i = (tet_v)(len[i] ? (uchar)0xffu : (uchar)0u);                                                      \
  far = max(far, a##i)
  TET_ROW(0); TET_ROW(1); TET_ROW(2); TET_ROW(3); TET_ROW(4); TET_ROW(5); TET_ROW(6); TET_ROW(7); TET_ROW(8);
  __global uchar *out = dst + start[4];
  if ((ulong)far + k + 2u * TET_W <= elems) {
    ulong rule = (ulong)birth | (ulong)survive << 32;
    uint x = 0u;
#define TET_BELOW(i) tet_v cut##i = tet_below((int)len[i] - (int)x)
#define TET_CUTS TET_BELOW(0); TET_BELOW(1); TET_BELOW(2); TET_BELOW(3); TET_BELOW(4); TET_BELOW(5); TET_BELOW(6); TET_BELOW(7); TET_BELOW(8)
    tet_v p = (tet_v)(0), c, q;
    {
      TET_CUTS;
      c = TET_COLSUM(cut);
    }
    for (; x + 2u * TET_W + 2u <= k; x += TET_W) { /* the next block inside every row */
      tet_v s = *(__global const tet_vu *)(r4 + x);
      x += TET_W;
      q = TET_COLSUM(whole);
      x -= TET_W;
      *(__global tet_vu *)(out + x) = tet_block(p, c, q, s, rule);
      p = c;
      c = q;
    }
    for (; x < k; x += TET_W) {
      tet_v s = *(__global const tet_vu *)(r4 + x);
      x += TET_W;
      {
        TET_CUTS;
        q = TET_COLSUM(cut);
      }
      x -= TET_W;
      tet_v v = tet_block(p, c, q, s, rule);
      if (x + TET_W <= k) *(__global tet_vu *)(out + x) = v;
      else tet_store_part(out + x, v, k - x);
      p = c;
      c = q;
    }
    return;
  }
#define TET_EDGE(i) ((x - 1u < len[i] ? (r##i + x)[-1] : 0) + (x < len[i] ? (r##i + x)[0] : 0) + (x + 1u < len[i] ? (r##i + x)[1] : 0))
  for (uint x = 0u; x < k; x++) { /* rows at the end of the storage (x - 1 wraps at 0) */
    uint live = TET_EDGE(0) + TET_EDGE(1) + TET_EDGE(2) + TET_EDGE(3) + TET_EDGE(4) + TET_EDGE(5) + TET_EDGE(6) +
                TET_EDGE(7) + TET_EDGE(8);
    out[x] = (uchar)tet_next(r4[x], live, birth, survive);
  }
}
#else
/* GPUs: a work-item owns cells x = 8 g .. 8 g + 7 (g = global id 0) of the rows y0 .. y0 + chunk - 1
 * of plane z (ids 1 and 2), as two 32-bit words of 4 cells. Walking down y it keeps the plane sums
 * P(y) = the 3-sums along x of rows (y, z - 1), (y, z), (y, z + 1), so a row costs the 3 new rows'
 * windows and the 27-cell sum is P(y - 1) + P(y) + P(y + 1) (bytes <= 27, no carries). */

/* Aligned word w of the storage (bytes past elems: 0). */
static inline uint tet_word(__global const uint *s32, __global const uchar *s8, sqz_sidx w, sqz_sidx elems) {
  if (w < (elems >> 2)) return s32[w];
  uint v = 0u;
  for (uint e = 0u; e < 4u && (w << 2) + e < elems; e++) v |= (uint)s8[(w << 2) + e] << (8u * e);
  return v;
}

/* Bytes [l, h) of a 64-bit word, l and h clamped to 0 .. 6. */
static inline ulong tet_bytes(int l, int h) {
  l = clamp(l, 0, 6);
  h = clamp(h, 0, 6);
  return h > l ? (((ulong)1 << (8 * h)) - 1u) & ~(((ulong)1 << (8 * l)) - 1u) : 0u;
}

/* The 3-sums along x of cells x .. x + 7 of the row at storage a with len cells, as the bytes of
 * two words (cells outside the row count 0), from the aligned words that hold cells x - 1 .. x + 8;
 * the cells x .. x + 7 themselves in *mid. */
static inline uint2 tet_hsum(__global const uint *s32, __global const uchar *s8, sqz_sidx elems, sqz_sidx a, uint len,
                             uint x, uint2 *mid) {
  uint lo = x > 0u ? x - 1u : 0u, hi = min(x + 9u, len); /* cells [lo, hi) of the row */
  if (lo >= hi) {
    *mid = (uint2)(0u, 0u);
    return (uint2)(0u, 0u);
  }
  sqz_sidx p = a + x, kw = p >> 2, first = (a + lo) >> 2, last = (a + hi - 1u) >> 2;
  uint sb = (uint)p & 3u;
  uint wa = first < kw ? tet_word(s32, s8, kw - 1u, elems) : 0u, wb = kw <= last ? tet_word(s32, s8, kw, elems) : 0u;
  uint wc = kw + 1u <= last ? tet_word(s32, s8, kw + 1u, elems) : 0u;
  uint wd = kw + 2u <= last ? tet_word(s32, s8, kw + 2u, elems) : 0u;
  /* byte i of v0: cell x - 1 + i; of v1: cell x + 3 + i */
  ulong v0 = (((ulong)wb | (ulong)wc << 32) >> (8u * sb)) << 8 | (sb ? (wb >> (8u * sb - 8u)) & 0xffu : wa >> 24);
  ulong v1 = (((ulong)wc | (ulong)wd << 32) >> (8u * sb)) << 8 | (sb ? (wc >> (8u * sb - 8u)) & 0xffu : wb >> 24);
  int l = (int)lo - (int)x + 1, h = (int)hi - (int)x + 1;
  v0 &= tet_bytes(l, h);
  v1 &= tet_bytes(l - 4, h - 4);
  *mid = (uint2)((uint)(v0 >> 8), (uint)(v1 >> 8));
  return (uint2)((uint)v0 + (uint)(v0 >> 8) + (uint)(v0 >> 16), (uint)v1 + (uint)(v1 >> 8) + (uint)(v1 >> 16));
}

__kernel void engine_tetra_swar(__global const uchar *restrict src, __global uchar *restrict dst, uint birth,
                                uint survive, uint n, uint compact, uint chunk, ulong elems) {
  uint x = 8u * (uint)get_global_id(0), z = (uint)get_global_id(1), y0 = (uint)get_global_id(2) * chunk;
  if (z >= n || y0 >= n - z || x >= n - z - y0) return;
  int layout = compact ? SQZ_SL_COMPACT : SQZ_SL_BB;
  uint y1 = min(y0 + chunk, n - z - x); /* the rows that hold cell x */
  __global const uint *s32 = (__global const uint *)src;
  sqz_sidx ne = (sqz_sidx)elems, start[9];
  uint len[9];
  uint2 m, mn; /* mn: the cells of the row below, once its plane sum is in */
  sqz_tet_rows9(layout, n, y0, z, start, len);
  sqz_sidx a0 = start[0], a1 = start[3], a2 = start[6]; /* row y0 - 1 of planes z - 1, z, z + 1 */
  uint2 pp = tet_hsum(s32, src, ne, a0, len[0], x, &mn) + tet_hsum(s32, src, ne, a1, len[3], x, &mn) +
             tet_hsum(s32, src, ne, a2, len[6], x, &mn);
  a0 += sqz_tet_rowstep(layout, n, y0 - 1u, z - 1u);
  a1 += sqz_tet_rowstep(layout, n, y0 - 1u, z);
  a2 += sqz_tet_rowstep(layout, n, y0 - 1u, z + 1u);
  uint l0 = len[1], l1 = len[4], l2 = len[7]; /* row y0 */
  uint2 pc = tet_hsum(s32, src, ne, a0, l0, x, &mn) + tet_hsum(s32, src, ne, a2, l2, x, &mn) +
             tet_hsum(s32, src, ne, a1, l1, x, &m); /* m: the cells of row y0 */
  for (uint y = y0; y < y1; y++) {
    sqz_sidx o = a1 + x; /* cell x of row (y, z) */
    a0 += sqz_tet_rowstep(layout, n, y, z - 1u);
    a1 += sqz_tet_rowstep(layout, n, y, z);
    a2 += sqz_tet_rowstep(layout, n, y, z + 1u);
    l0 = l0 ? l0 - 1u : 0u;
    l1 = l1 ? l1 - 1u : 0u;
    l2 = l2 ? l2 - 1u : 0u;
    uint2 pn = tet_hsum(s32, src, ne, a0, l0, x, &mn) + tet_hsum(s32, src, ne, a2, l2, x, &mn);
    pn += tet_hsum(s32, src, ne, a1, l1, x, &mn);
    uint2 sum = pp + pc + pn, next = (uint2)(0u, 0u);
#pragma unroll
    for (uint e = 0u; e < 32u; e += 8u) {
      next.x |= tet_next((m.x >> e) & 1u, (sum.x >> e) & 31u, birth, survive) << e;
      next.y |= tet_next((m.y >> e) & 1u, (sum.y >> e) & 31u, birth, survive) << e;
    }
    uint cells = min(8u, n - y - z - x);
    if (cells == 8u && (o & 3u) == 0u) {
      ((__global uint *)dst)[o >> 2] = next.x;
      ((__global uint *)dst)[(o >> 2) + 1u] = next.y;
    } else {
      for (uint e = 0u; e < cells; e++) dst[o + e] = (uchar)((e < 4u ? next.x : next.y) >> (8u * (e & 3u)));
    }
    pp = pc;
    pc = pn;
    m = mn;
  }
}
#endif
