/* engine_simplex_swar.cl — the fast Life step on u8 triangles (compact and bb): four cells per 32-bit storage word (GPUs) or storage rows in 1-byte words (CPU devices), neighbours from the 3 rows around. */
/* Built after sqz_common.h, sqz_simplex.h and sqz_swar.h. Storage is a rectangle of `hrows`
 * rows of `wrow` cells: compact is the fold of cl/sqz_simplex.h (wrow = fold width, every
 * cell a domain cell, a straight part where storage (u, v) is cell (u, v - e) and a turned
 * part where it is cell (n - e - u, n - 1 - v), a point reflection: in both parts the 3 x 3
 * storage block around a cell is its Moore neighbourhood, as long as the block stays inside
 * one part); bb is the n x n bounding box (cells x <= y, the others stored as 0 and never
 * written).
 * A work-item owns aligned storage words (grid-stride). A "regular" word, whose 4 cells and
 * their 3 x 3 blocks lie inside the rectangle's interior and, for compact, inside one part,
 * is stepped by SWAR from the three storage rows (the rows above and below read through two
 * or three aligned words each); any other word (rectangle edges, the fold's seam, bb rows'
 * ends) cell by cell through sqz_tri_nbrs, as the generic kernels. */

/* The bytes at storage a - 1 .. a + 4 as (left, middle, right) words for sqz_swar_hsum, from
 * aligned 32-bit words (a third one only when a - 1 is at byte 3 of its word). */
static inline uint sqz_swar_window(__global const uint *s32, ulong a, uint *l, uint *r) {
  ulong at = a - 1u, k = at >> 2;
  uint sh = (uint)(at & 3u) * 8u;
  ulong v = ((ulong)s32[k] | (ulong)s32[k + 1u] << 32) >> sh;
  if (sh == 24u) v |= (ulong)s32[k + 2u] << 40;
  *l = (uint)v << 24;
  *r = (uint)(v >> 40);
  return (uint)(v >> 8);
}

/* a / b, in 32 bits when a fits (a 64-bit division costs several times more on GPUs). */
static inline ulong sqz_swar_div(ulong a, uint b) { return (a >> 32) != 0u ? a / b : (ulong)((uint)a / b); }

/* Left + self + right of the four cells at storage a .. a + 3 (sqz_swar_window). */
static inline uint sqz_swar_row(__global const uint *s32, ulong a) {
  uint l, r, m = sqz_swar_window(s32, a, &l, &r);
  return sqz_swar_hsum(l, m, r);
}

/* One cell through the layout's neighbour indices (sqz_tri_nbrs). */
static inline uchar sqz_swar_cell(__global const uchar *src, int layout, uint n, uint x, uint y, uint rule) {
  sqz_sidx idx[8], self = 0u;
  uint present = sqz_tri_nbrs(layout, n, x, y, idx, &self), live = 0u;
  for (uint d = 0u; d < 8u; d++)
    if ((present >> d) & 1u) live += src[idx[d]];
  return (uchar)((rule >> (live + 9u * src[self])) & 1u);
}

#if SQZ_SWAR_WORD != 32
/* CPU devices (words of 8 bits, the default, or 64): one work-item per storage row v, walking it
 * in words of W = SQZ_WBYTES cells at any byte offset through unaligned loads, so the regular
 * cells of a row are two spans found once per row, not a test per word, and the span loop is
 * branch-free: with 1-byte words PoCL's compiler vectorises it (AVX2 lanes of bytes). A word
 * starting at u is regular when its cells and their 3 x 3 blocks lie inside the rectangle's
 * interior and inside one part: 1 <= u, u + W < wrow, 1 <= v < hrows - 1 and, compact, all
 * straight (u + W + 1 - odd <= v - 1) or all turned (u >= v + 2 + odd); bb, every cell at
 * x <= y (u + W - 1 <= v). The other cells of the row go one by one through sqz_tri_nbrs (bb:
 * none right of the diagonal). */

/* Cells [u0, u1) of storage row v, one by one. */
static inline void sqz_swar_cells(__global const uchar *src, __global uchar *dst, int layout, uint n, ulong row, uint u0,
                                  uint u1, uint rule) {
  for (uint u = u0; u < u1; u++) {
    uint x, y;
    if (sqz_tri_cell(layout, n, row + u, &x, &y)) dst[row + u] = sqz_swar_cell(src, layout, n, x, y, rule);
  }
}

/* Words at u = lo, lo + 8, ... while the word ends by `end`, from u; the cells before lo one by
 * one. Returns the first cell not stepped. */
static inline uint sqz_swar_span(__global const uchar *src, __global uchar *dst, int layout, uint n, ulong row, uint wrow,
                                 uint u, int lo, int end, uint rule) {
  if (lo < 1 || lo + (int)SQZ_WBYTES > end) return u; /* no regular word */
  sqz_swar_cells(src, dst, layout, n, row, u, (uint)lo, rule);
  for (u = (uint)lo; u < (uint)end + 1u - SQZ_WBYTES; u += SQZ_WBYTES) { /* lo + W <= end: no wrap */
    __global const uchar *p = src + row + u, *a = p - wrow, *b = p + wrow;
    sqz_word m = sqz_swar_load(p);
    sqz_word v = sqz_swar_load(a - 1) + sqz_swar_load(a) + sqz_swar_load(a + 1) + sqz_swar_load(p - 1) +
                 sqz_swar_load(p + 1) + sqz_swar_load(b - 1) + sqz_swar_load(b) + sqz_swar_load(b + 1) + m * 9u;
    sqz_swar_store(dst + row + u, sqz_swar_rule(v, rule)); /* v: bytes 0 .. 17 */
  }
  return u;
}

__kernel void engine_simplex_swar2(__global const uchar *restrict src, __global uchar *restrict dst, uint rule, uint n,
                                   uint wrow, uint hrows, ulong elems, uint compact) {
  int layout = compact ? SQZ_SL_COMPACT : SQZ_SL_BB, odd = (int)(n & 1u);
  (void)elems;
  for (uint v = (uint)get_global_id(0); v < hrows; v += (uint)get_global_size(0)) {
    ulong row = (ulong)v * wrow;
    int inner = v >= 1u && v + 2u <= hrows, last = (int)wrow - 1, iv = (int)v; /* a word's end: <= last */
    uint wend = compact ? wrow : min(v + 1u, wrow), u = 0u;
    if (inner && compact) {
      u = sqz_swar_span(src, dst, layout, n, row, wrow, u, 1, min(iv - 2 + odd, last), rule); /* straight */
      u = sqz_swar_span(src, dst, layout, n, row, wrow, u, max(iv + 2 + odd, 1), last, rule); /* turned */
    } else if (inner) {
      u = sqz_swar_span(src, dst, layout, n, row, wrow, u, 1, min(iv + 1, last), rule);
    }
    sqz_swar_cells(src, dst, layout, n, row, u, wend, rule);
  }
}
#else
#ifdef SQZ_SWAR_IDX32 /* the host defines it when every byte a step reads lies below 2^32: 32-bit index arithmetic */
typedef uint sqz_swar_idx;
#else
typedef ulong sqz_swar_idx;
#endif
/* GPUs: a work-item owns 16 cells (an aligned 16-byte chunk of storage, 4 words; grid-stride).
 * A chunk whose cells all lie in one storage row and are regular (their 3 x 3 blocks inside the
 * rectangle's interior and inside one part; bb: every cell at x <= y) is stepped in one go: the
 * rows above and below are read as 6 aligned words each (the 18 bytes around the chunk) and
 * realigned by funnel shifts, the three rows summed per byte first (column sums <= 3) and then
 * across (sqz_swar_hsum of the column sums, <= 9), so a chunk costs 18 loads, one 16-byte store
 * and about 8 instructions a cell besides the rule. Any other chunk goes word by word: a regular
 * word by SWAR from three unaligned row windows, the others cell by cell (sqz_swar_cell). */

/* Word w (cells i = 4 w .. 4 w + 3 of storage row v at column u) stepped alone. */
static inline void sqz_swar_word1(__global const uint *s32, __global const uchar *src, __global uchar *dst, uint rule,
                                  uint n, uint wrow, uint hrows, ulong elems, uint compact, sqz_swar_idx w,
                                  sqz_swar_idx v, uint u) {
  int layout = compact ? SQZ_SL_COMPACT : SQZ_SL_BB;
  sqz_swar_idx i = w << 2;
  if (!compact && u > v && u + 4u <= wrow) return; /* bb: four cells right of the diagonal */
  int regular = u >= 1u && u + 6u <= wrow && v >= 1u && v + 2u <= hrows && ((i + wrow + 4u) | 3u) < (sqz_swar_idx)elems;
  if (compact && regular) /* one part: all straight, or all turned (the fold's straight cells satisfy u + 1 - (n & 1) <= v) */
    regular = sqz_fold_straight(n, u + 4u, (uint)v - 1u) || !sqz_fold_straight(n, u - 1u, (uint)v + 1u);
  if (regular) {
    uint m = s32[w];
    uint next = sqz_swar_rule(sqz_swar_row(s32, i - wrow) + sqz_swar_hsum(s32[w - 1u], m, s32[w + 1u]) +
                                  sqz_swar_row(s32, i + wrow) + (m << 3),
                              rule);
    if (!compact && u + 3u > v) next &= 0xffffffffu >> (8u * (u + 3u - (uint)v)); /* bb: cells x <= y only */
    ((__global uint *)dst)[w] = next;
    return;
  }
  for (ulong c = i; c < (ulong)i + 4u && c < elems; c++) {
    uint x, y;
    if (sqz_tri_cell(layout, n, c, &x, &y)) dst[c] = sqz_swar_cell(src, layout, n, x, y, rule);
  }
}

/* The bytes of the storage row around a .. a + 15 as 6 words realigned from the 6 aligned words
 * that hold bytes a - 1 .. a + 16: r[1 .. 4] are bytes a .. a + 15, the last byte of r[0] is
 * byte a - 1 and byte 0 of r[5] is byte a + 16 (the rest of r[0] and r[5] is not used). */
static inline void sqz_swar_row6(__global const uint *s32, sqz_swar_idx a, uint *r) {
  sqz_swar_idx k = (a - 1u) >> 2;
  uint sh = ((uint)((a - 1u) & 3u) + 1u) * 8u, w0 = s32[k]; /* byte a sits sh bits into the pair (w[k], w[k + 1]) */
  r[0] = w0 << (32u - sh);
#pragma unroll
  for (uint j = 1u; j < 6u; j++) {
    uint w1 = s32[k + j];
    r[j] = (uint)((((ulong)w1 << 32) | w0) >> sh);
    w0 = w1;
  }
}

__kernel void engine_simplex_swar2(__global const uchar *restrict src, __global uchar *restrict dst, uint rule, uint n,
                                   uint wrow, uint hrows, ulong elems, uint compact) {
  __global const uint *s32 = (__global const uint *)src;
  sqz_swar_idx chunks = (sqz_swar_idx)((elems + 15u) >> 4);
  uint ranges = sqz_swar_ranges(rule);
  for (sqz_swar_idx t = (sqz_swar_idx)get_global_id(0); t < chunks; t += (sqz_swar_idx)get_global_size(0)) {
    sqz_swar_idx i = t << 4, v = (sqz_swar_idx)sqz_swar_div(i, wrow);
    uint u = (uint)(i - v * wrow);
    /* regular chunk: cells u .. u + 15 of row v, their neighbours u - 1 .. u + 16 in rows v - 1 .. v + 1, the
     * last word read (row v + 1, below byte u + 24) inside storage */
    int fast = u >= 1u && u + 17u <= wrow && v >= 1u && v + 2u <= hrows && i + wrow + 24u <= (sqz_swar_idx)elems;
    if (fast)
      fast = compact ? sqz_fold_straight(n, u + 16u, (uint)v - 1u) || !sqz_fold_straight(n, u - 1u, (uint)v + 1u)
                     : u + 15u <= (uint)v;
    if (!fast) {
      sqz_swar_idx ve = v;
      for (uint e = 0u, ue = u; e < 4u && (i + 4u * e) < (sqz_swar_idx)elems; e++, ue += 4u) {
        while (ue >= wrow) { /* the chunk crosses into the next storage rows */
          ue -= wrow;
          ve++;
        }
        sqz_swar_word1(s32, src, dst, rule, n, wrow, hrows, elems, compact, (t << 2) + e, ve, ue);
      }
      continue;
    }
    uint a[6], b[6], c[6];
    sqz_swar_row6(s32, i - wrow, a);
    sqz_swar_row6(s32, i + wrow, b);
    uint4 m4 = ((__global const uint4 *)s32)[t];
    c[0] = s32[(t << 2) - 1u];
    c[1] = m4.x;
    c[2] = m4.y;
    c[3] = m4.z;
    c[4] = m4.w;
    c[5] = s32[(t << 2) + 4u];
#pragma unroll
    for (uint j = 0u; j < 6u; j++) a[j] += b[j] + c[j]; /* column sums, bytes <= 3 */
    uint4 next;
    next.x = sqz_swar_rule_r(sqz_swar_hsum(a[0], a[1], a[2]) + (c[1] << 3), rule, ranges);
    next.y = sqz_swar_rule_r(sqz_swar_hsum(a[1], a[2], a[3]) + (c[2] << 3), rule, ranges);
    next.z = sqz_swar_rule_r(sqz_swar_hsum(a[2], a[3], a[4]) + (c[3] << 3), rule, ranges);
    next.w = sqz_swar_rule_r(sqz_swar_hsum(a[3], a[4], a[5]) + (c[4] << 3), rule, ranges);
    ((__global uint4 *)dst)[t] = next;
  }
}
#endif
