/* engine_tetra_swar.cl — the fast Life step on u8 tetrahedra (compact and bb, any map): storage rows (y, z), the 9 rows around found once (sqz_tet_rows9), then streamed along x. */
/* Built after sqz_common.h, sqz_simplex.h and sqz_swar.h. Cell x of row (y, z) has its 26
 * neighbours at x - 1 .. x + 1 of the rows (y + dy, z + dz): every layout stores a row's cells
 * contiguously, so once the 9 row starts and lengths are known a row is a stream along x. Cells
 * past a row's length (and rows outside the domain) read as 0, so the bb layout's cells outside the
 * domain are neither read nor written. birth and survive are 27-bit masks: a cell with c live
 * neighbours becomes ((self ? survive : birth) >> c) & 1. Arguments: src, dst, birth, survive, n,
 * compact (1: compact, 0: bb), chunk (rows of a plane per work-item), elems (cells stored). */

/* The next state of a cell from live27, the live cells of its 3 x 3 x 3 block, self included. */
static inline uint tet_next(uint self, uint live27, uint birth, uint survive) {
  return ((self ? survive : birth) >> (live27 - self)) & 1u;
}

#if SQZ_SWAR_WORD == 8
/* CPU devices: a work-item per `chunk` rows (y, z) of plane z (global ids (0, 1)), each row in
 * blocks of TET_W cells held as one vector (clang's vector extension: PoCL lowers it to AVX2 /
 * AVX-512 registers). A block's column sums (the 9 rows' cells at each x, <= 9) are loaded once and
 * kept for the next block, so a block costs 9 loads and its 27-cell sums are the column sums at
 * x - 1, x, x + 1, shifted across the previous and next blocks. Row (y + dy, z + dz) holds
 * k - dy - dz cells (k: the row's own length) or is outside the domain: while every lane is inside
 * every row the loads go unmasked, past that each is masked by the lanes below its row's length
 * (rows outside the domain: none). The rule is a byte range test per run of consecutive set bits of
 * birth | survive << 32 at key = count + 32 self. Reads run up to 2 TET_W cells past the row; a row
 * whose reads would pass the end of the storage goes cell by cell. */
#ifndef TET_W
#define TET_W 32 /* cells a block (64 and 16 also build): 32 over 64 by ~15 %, over 16 by ~13 % on AVX-512 (PoCL 3.1) */
#endif
typedef uchar tet_v __attribute__((ext_vector_type(TET_W)));
typedef tet_v tet_vu __attribute__((aligned(1))); /* loads and stores at any byte address */
#define TET_I4(b) (b), (b) + 1, (b) + 2, (b) + 3
#define TET_I16(b) TET_I4(b), TET_I4((b) + 4), TET_I4((b) + 8), TET_I4((b) + 12)
#if TET_W == 64
#define TET_IW(b) TET_I16(b), TET_I16((b) + 16), TET_I16((b) + 32), TET_I16((b) + 48)
#elif TET_W == 32
#define TET_IW(b) TET_I16(b), TET_I16((b) + 16)
#else
#define TET_IW(b) TET_I16(b)
#endif
typedef uchar tet_v32 __attribute__((ext_vector_type(32)));
#define TET_LOAD(p) (*(__global const tet_vu *)(p))
#define TET_MASK(v) __builtin_astype(v, tet_v) /* a compare's 0 / -1 lanes as bytes */

/* The column sums of cells x .. x + TET_W - 1 of the 9 rows r[3 (dz + 1) + dy + 1], every lane
 * inside every row. */
static inline tet_v tet_cols(__global const uchar *r0, __global const uchar *r1, __global const uchar *r2,
                             __global const uchar *r3, __global const uchar *r4, __global const uchar *r5,
                             __global const uchar *r6, __global const uchar *r7, __global const uchar *r8, uint x) {
  return TET_LOAD(r0 + x) + TET_LOAD(r1 + x) + TET_LOAD(r2 + x) + TET_LOAD(r3 + x) + TET_LOAD(r4 + x) +
         TET_LOAD(r5 + x) + TET_LOAD(r6 + x) + TET_LOAD(r7 + x) + TET_LOAD(r8 + x);
}

/* The same with each row's lanes past its length k - dy - dz masked, and the rows whose bit
 * in `in` is 0 (outside the domain) too: the rows of one length share a mask. */
static inline tet_v tet_cols_cut(__global const uchar *r0, __global const uchar *r1, __global const uchar *r2,
                                 __global const uchar *r3, __global const uchar *r4, __global const uchar *r5,
                                 __global const uchar *r6, __global const uchar *r7, __global const uchar *r8, uint x,
                                 uint k, uint in) {
  const tet_v lanes = (tet_v)(TET_IW(0));
  tet_v b = (tet_v)((uchar)clamp((int)k + 2 - (int)x, 0, 255)); /* lane j of row i, k + 2 - s cells (s = i / 3 + i % 3): j + s < b */
#define TET_IN(i) (TET_LOAD(r##i + x) & (tet_v)((in >> i) & 1u ? (uchar)0xffu : (uchar)0u))
  return (TET_IN(0) & TET_MASK(lanes < b)) + ((TET_IN(1) + TET_IN(3)) & TET_MASK(lanes + (uchar)1u < b)) +
         ((TET_IN(2) + TET_IN(4) + TET_IN(6)) & TET_MASK(lanes + (uchar)2u < b)) +
         ((TET_IN(5) + TET_IN(7)) & TET_MASK(lanes + (uchar)3u < b)) + (TET_IN(8) & TET_MASK(lanes + (uchar)4u < b));
#undef TET_IN
}

/* The rule as runs of consecutive keys (key = count, plus 32 for a live cell; B6/S5,6,7: 6 and
 * 37 .. 39): the lowest run of *rest (first key and length), cleared from *rest; none left: an
 * empty run. */
typedef struct {
  uchar lo, len;
} tet_run;
static inline tet_run tet_next_run(ulong *rest) {
  tet_run run = {0u, 0u};
  if (*rest) {
    ulong r = *rest, lo = 63u - clz(r & (0u - r)), t = r >> lo; /* the run at bit 0 of t */
    run.lo = (uchar)lo;
    run.len = (uchar)(63u - clz(~t & (t + 1u)));
    *rest = r & ~((t & ~(t + 1u)) << lo);
  }
  return run;
}

/* The next states of a block from its column sums c, those of the blocks before (p) and after (q),
 * and its cells s: key = (neighbours mod 32) + 32 (self != 0) in the runs a, b and those of rest. */
static inline tet_v tet_block(tet_v p, tet_v c, tet_v q, tet_v s, tet_run a, tet_run b, ulong rest) {
  tet_v key = ((c + __builtin_shufflevector(p, c, TET_IW(TET_W - 1)) + __builtin_shufflevector(c, q, TET_IW(1)) - s) &
               (uchar)31u) + (TET_MASK(s != (uchar)0u) & (uchar)32u); /* as the other engines: any non-zero cell alive, counts mod 32 */
  tet_v hit = TET_MASK(key - a.lo < (tet_v)(a.len)) | TET_MASK(key - b.lo < (tet_v)(b.len));
  while (rest) {
    tet_run r = tet_next_run(&rest);
    hit |= TET_MASK(key - r.lo < (tet_v)(r.len));
  }
  return hit & (uchar)1u;
}

/* Stores the first rem (< TET_W) cells of v at out: halves of decreasing size. */
static inline void tet_store_part(__global uchar *out, tet_v v, uint rem) {
#if TET_W == 64
  tet_v32 h = (rem & 32u) ? (vstore16(v.lo.lo, 0u, out), vstore16(v.lo.hi, 0u, out + 16), out += 32, v.hi) : v.lo;
#elif TET_W == 32
  tet_v32 h = v;
#endif
#if TET_W >= 32
  uchar16 g = (rem & 16u) ? (vstore16(h.lo, 0u, out), out += 16, h.hi) : h.lo;
#else
  uchar16 g = v;
#endif
  uchar8 e = (rem & 8u) ? (vstore8(g.lo, 0u, out), out += 8, g.hi) : g.lo;
  uchar4 d = (rem & 4u) ? (vstore4(e.lo, 0u, out), out += 4, e.hi) : e.lo;
  uchar2 b = (rem & 2u) ? (vstore2(d.lo, 0u, out), out += 2, d.hi) : d.lo;
  if (rem & 1u) *out = b.x;
}

/* One row of k cells from its 9 rows (bit i of `in`: row i is inside the domain; rows outside
 * point at the row itself) into out. */
static inline void tet_row(__global const uchar *r0, __global const uchar *r1, __global const uchar *r2,
                           __global const uchar *r3, __global const uchar *r4, __global const uchar *r5,
                           __global const uchar *r6, __global const uchar *r7, __global const uchar *r8, uint k,
                           uint in, __global uchar *out, tet_run a, tet_run b, ulong rest) {
#define TET_R9 r0, r1, r2, r3, r4, r5, r6, r7, r8
  uint x = 0u, free = in == 0x1ffu ? k : 0u; /* blocks below free - 2 are inside every row */
  tet_v p = (tet_v)(0), c = x + TET_W + 2u <= free ? tet_cols(TET_R9, 0u) : tet_cols_cut(TET_R9, 0u, k, in), q;
  for (; x + 2u * TET_W + 2u <= free; x += TET_W) {
    q = tet_cols(TET_R9, x + TET_W);
    *(__global tet_vu *)(out + x) = tet_block(p, c, q, TET_LOAD(r4 + x), a, b, rest);
    p = c;
    c = q;
  }
  for (; x < k; x += TET_W) {
    q = tet_cols_cut(TET_R9, x + TET_W, k, in);
    tet_v v = tet_block(p, c, q, TET_LOAD(r4 + x), a, b, rest);
    if (x + TET_W <= k) *(__global tet_vu *)(out + x) = v;
    else tet_store_part(out + x, v, k - x);
    p = c;
    c = q;
  }
#undef TET_R9
}

__kernel void engine_tetra_swar(__global const uchar *restrict src, __global uchar *restrict dst, uint birth,
                                uint survive, uint n, uint compact, uint chunk, ulong elems) {
  uint y0 = (uint)get_global_id(0) * chunk, z = (uint)get_global_id(1);
  if (z >= n || y0 >= n - z) return;
  int layout = compact ? SQZ_SL_COMPACT : SQZ_SL_BB;
  uint y1 = min(y0 + chunk, n - z);
  ulong rest = (ulong)(birth & 0x7ffffffu) | (ulong)(survive & 0x7ffffffu) << 32; /* counts 0 .. 26 */
  tet_run a = tet_next_run(&rest), b = tet_next_run(&rest);
  sqz_sidx start[9];
  uint len[9];
  sqz_tet_rows9(layout, n, y0, z, start, len);
  /* the row starts as scalars (arrays would live in PoCL's work-item context) */
  sqz_sidx a0 = start[0], a1 = start[1], a2 = start[2], a3 = start[3], a4 = start[4], a5 = start[5], a6 = start[6],
           a7 = start[7], a8 = start[8];
  uint planes = (z > 0u ? 0x7u : 0u) | 0x38u | (z + 1u < n ? 0x1c0u : 0u); /* rows of the planes inside */
  for (uint y = y0; y < y1; y++) {
    uint k = n - y - z, in = planes & (y > 0u ? 0x1ffu : 0x1b6u); /* row y - 1: none at y = 0 */
    in &= k >= 3u ? 0x1ffu : k == 2u ? 0x0ffu : 0x05fu; /* rows of k + 2 - dy - dz <= 0 cells: none */
#define TET_EFF(i) sqz_sidx e##i = (in >> i) & 1u ? a##i : a4
    TET_EFF(0); TET_EFF(1); TET_EFF(2); TET_EFF(3); TET_EFF(5); TET_EFF(6); TET_EFF(7); TET_EFF(8);
#undef TET_EFF
    sqz_sidx far = max(max(max(e0, e1), max(e2, e3)), max(max(a4, e5), max(max(e6, e7), e8)));
    if ((ulong)far + k + 2u * TET_W <= elems) {
      tet_row(src + e0, src + e1, src + e2, src + e3, src + a4, src + e5, src + e6, src + e7, src + e8, k, in, dst + a4,
              a, b, rest);
    } else { /* the rows at the end of the storage: cell by cell (x - 1 wraps at 0) */
#define TET_LEN(i) ((in >> i) & 1u ? k + 2u - (i / 3u) - (i % 3u) : 0u)
#define TET_EDGE(i) (x - 1u < TET_LEN(i) ? src[e##i + x - 1u] : 0) + (x < TET_LEN(i) ? src[e##i + x] : 0) + (x + 1u < TET_LEN(i) ? src[e##i + x + 1u] : 0)
      sqz_sidx e4 = a4;
      for (uint x = 0u; x < k; x++) {
        uint live = TET_EDGE(0) + TET_EDGE(1) + TET_EDGE(2) + TET_EDGE(3) + TET_EDGE(4) + TET_EDGE(5) + TET_EDGE(6) +
                    TET_EDGE(7) + TET_EDGE(8);
        dst[a4 + x] = (uchar)tet_next(src[a4 + x], live, birth, survive);
      }
#undef TET_EDGE
#undef TET_LEN
    }
    /* down y: each plane's rows move up one, the new row y + 2 one row step after row y + 1 */
    a0 = a1, a1 = a2, a2 += sqz_tet_rowstep(layout, n, y + 1u, z - 1u);
    a3 = a4, a4 = a5, a5 += sqz_tet_rowstep(layout, n, y + 1u, z);
    a6 = a7, a7 = a8, a8 += sqz_tet_rowstep(layout, n, y + 1u, z + 1u);
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

/* ---- Two planes a work-item (SQZ_TETRA_VARIANT 1, the default with 32-bit words) -----------
 * engine_tetra_swar_z2: a work-item owns cells x = 8 g .. 8 g + 7 (g: id 0) of rows y0 .. y0 +
 * chunk - 1 (id 2) of planes z and z + 1 (z = 2 id 1), where the one-plane step above spent about
 * 50 SASS instructions a cell (masks and range tests in every window, 8 rule lookups, byte stores).
 * - Reuse across z: per row it reads row y + 1 of the 4 planes z - 1 .. z + 2 once, as windows W
 *   of cells x - 1 .. x + 10 (3 words), and adds whole windows before the 3-sum along x:
 *   P_z = W(z - 1) + Q, P_z+1 = Q + W(z + 2), Q = W(z) + W(z + 1): 4 windows and 2 3-sums for 16
 *   cells (one plane: 3 and 3 for 8). The 27-cell sum is s2 + P(y + 1), s2 = P(y - 1) + P(y).
 * - Fast rows: while row y + 1 of plane z + 2 (the shortest of the 4) holds cells x - 1 .. x + 8
 *   and z >= 1 (y < n - z - x - 11), a window is 4 aligned loads and 3 funnel shifts, with no
 *   masks or range tests: the 4 words hold cells x - 4 .. x + 14 at most, the bytes past x + 8
 *   unused, and inside the storage (the rows before and after it there hold 8 cells or more);
 *   cell -1 of x = 0 is masked once in the sums. A work-item takes them for all its rows but
 *   the last 11 at most (12 when their count is odd), in its own loop, so a warp decides once and
 *   the rows near the diagonal (TET_MASKED: the same loads, bytes past the row masked; byte loads
 *   only near the storage's end) run after the warp's fast loop, together.
 * - Rules a word (4 cells) at a time (tet_rule4): birth and survive each one run of counts
 *   (B6/S5,6,7): two byte-wise range tests, 6-7 instructions; else two byte permutes (PTX prmt)
 *   into the masks. The kind is a constant of its own fast loop.
 * - Stores: a full row segment goes out as two aligned words, or, the row starting inside a word
 *   (the same for a warp's work-items of one plane), one aligned word and 2-3 byte or 16-bit stores.
 * - The fast loop runs two rows a turn with its pipeline registers swapped, so none is copied.
 * SASS of the fast loop (clang's PTX of this file, ptxas sm_90): about 165-175 instructions a row
 * of 16 cells with a range rule, 195-205 with permutes (docs/BENCHMARKS.md). */

#define TET_INLINE static inline __attribute__((always_inline)) /* inlined even where a compiler would not (the arrays must become registers) */

/* Three PTX instructions the compiler would not pick from OpenCL C: the funnel shift (hi:lo) >>
 * (k mod 32); the byte permute, byte i of the result being byte (c >> 4 i) & 7 of (b:a) (selectors
 * below 8); and a shift right by 7 that the compiler cannot see through, so that a mask before it
 * stays in one LOP3 with the test (not a second one after the shift). NVIDIA's OpenCL takes inline
 * PTX (the host defines SQZ_PTX there); elsewhere the same in OpenCL C. */
#ifdef SQZ_PTX
#ifndef SQZ_ASM
#define SQZ_ASM asm
#endif
TET_INLINE uint tet_fshr(uint lo, uint hi, uint k) { uint r; SQZ_ASM("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(k)); return r; }
TET_INLINE uint tet_prmt(uint a, uint b, uint c) { uint r; SQZ_ASM("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
TET_INLINE uint tet_shr7(uint v) { uint r; SQZ_ASM("shr.b32 %0, %1, 7;" : "=r"(r) : "r"(v)); return r; }
#else
TET_INLINE uint tet_fshr(uint lo, uint hi, uint k) { return (uint)((((ulong)hi << 32) | lo) >> (k & 31u)); }
TET_INLINE uint tet_prmt(uint a, uint b, uint c) {
  ulong t = (ulong)b << 32 | a;
  uint r = 0u;
  for (uint i = 0u; i < 4u; i++) r |= (uint)((t >> (8u * ((c >> (4u * i)) & 7u))) & 0xffu) << (8u * i);
  return r;
}
TET_INLINE uint tet_shr7(uint v) { return v >> 7; }
#endif

/* The rule, once per work-item. range: birth and survive are each empty or one run [lo, hi] of
 * counts, tested as bit 7 of c + 128 - lo (c >= lo) and of c + 127 - hi (c > hi), with c = s - m
 * (s: the 27-cell sum, m: self) folded into s + k + m d per byte (no carries: every byte stays in
 * 0 .. 255, so d may wrap). */
typedef struct {
  uint range, tk, td, uk, ud, birth, survive;
} tet_rule;

TET_INLINE uint tet_lo(uint m) { return m ? 31u - clz(m & (0u - m)) : 63u; }
TET_INLINE uint tet_hi(uint m) { return m ? 31u - clz(m) : 0u; }
TET_INLINE tet_rule tet_rule_of(uint birth, uint survive) {
  tet_rule r;
  uint lb = tet_lo(birth), ls = tet_lo(survive), hb = tet_hi(birth), hs = tet_hi(survive);
  r.range = (!birth || !(((birth >> lb) + 1u) & (birth >> lb))) && (!survive || !(((survive >> ls) + 1u) & (survive >> ls)));
  r.tk = (128u - lb) * 0x01010101u;
  r.td = lb - ls - 1u;
  r.uk = (127u - hb) * 0x01010101u;
  r.ud = hb - hs - 1u;
  r.birth = birth;
  r.survive = survive;
  return r;
}

/* The next states of 4 cells: a + b the 27-cell sums (self included; two addends, so that the
 * constants of the range tests join their add), m the cells, a byte each. Not range: the index
 * j = c + 32 m (0 .. 58) splits into byte j >> 3 of (survive:birth) and bit j & 7 of it, both
 * looked up 4 at a time by a permute (its selectors: the bytes packed to nibbles). */
TET_INLINE uint tet_rule4(uint a, uint b, uint m, tet_rule r, int range) {
  if (range) {
    uint t = a + b + r.tk + m * r.td, u = a + b + r.uk + m * r.ud;
    return tet_shr7(t & ~u & 0x80808080u);
  }
  uint j = a + b + 31u * m, lo = j & 0x07070707u, hi = (j >> 3) & 0x07070707u;
  uint t = tet_prmt(r.birth, r.survive, tet_prmt(hi | (hi >> 4), 0u, 0x20u));
  uint o = tet_prmt(0x08040201u, 0x80402010u, tet_prmt(lo | (lo >> 4), 0u, 0x20u));
  return tet_shr7(((t & o) + 0x7f7f7f7fu) & 0x80808080u);
}

/* Cells of row (y, zz) (0: outside the domain). */
TET_INLINE uint tet_len(uint n, uint y, uint zz) { return zz < n && y < n && y + zz < n ? n - y - zz : 0u; }

/* Cells c .. c + 3 of the row at storage a with len cells (c may be -1), 0 outside the row. */
TET_INLINE uint tet_cells4(__global const uchar *s, sqz_sidx a, uint len, uint c) {
  uint v = 0u;
  for (uint e = 0u; e < 4u; e++)
    if (c + e < len) v |= (uint)s[a + (c + e)] << (8u * e);
  return v;
}

/* Bytes [0, h) of a word (h clamped to 0 .. 4). */
TET_INLINE uint tet_bmask(int h) { return h >= 4 ? ~0u : h <= 0 ? 0u : ~0u >> (32u - 8u * (uint)h); }

#define TET_BYTES 0  /* tet_win: byte loads tested against the row */
#define TET_FAST 1   /* 4 aligned loads, no masks: the row holds cells x - 1 .. x + 8, rows of 8 or more around */
#define TET_MASKED 2 /* 4 aligned loads, bytes past the row masked; byte loads near the storage's end */

/* The window of cells x - 1 .. x + 10 of a row as three words (bytes x + 9, x + 10 unused; cell -1
 * is not masked here), p the storage of cell x - 1, len the row's cells (0: outside the domain),
 * lim the whole words of the storage. */
TET_INLINE uint3 tet_win(__global const uchar *s, sqz_sidx p, uint len, uint x, sqz_sidx lim, int mode) {
  int h = (int)len + 1 - (int)x; /* window bytes inside the row (from cell x - 1) */
  sqz_sidx k = p >> 2;
  if (mode == TET_MASKED && h <= 0) return (uint3)(0u, 0u, 0u);
  if (mode == TET_BYTES || (mode == TET_MASKED && k + 4u > lim)) {
    sqz_sidx a = p + 1u - x; /* cell 0 */
    return (uint3)(tet_cells4(s, a, len, x - 1u), tet_cells4(s, a, len, x + 3u), tet_cells4(s, a, len, x + 7u));
  }
  __global const uint *w = (__global const uint *)s + k;
  uint sh = (uint)p << 3, w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
  uint3 v = (uint3)(tet_fshr(w0, w1, sh), tet_fshr(w1, w2, sh), tet_fshr(w2, w3, sh));
  if (mode == TET_MASKED) v &= (uint3)(tet_bmask(h), tet_bmask(h - 4), tet_bmask(h - 8));
  return v;
}

/* The 3-sums along x of cells x .. x + 7 from a window (bytes <= 27 / 3 when windows are summed). */
TET_INLINE uint2 tet_hsum3(uint3 w) {
  return (uint2)(w.x + tet_fshr(w.x, w.y, 8u) + tet_fshr(w.x, w.y, 16u), w.y + tet_fshr(w.y, w.z, 8u) + tet_fshr(w.y, w.z, 16u));
}

/* Cells x .. x + 7 of a window. */
TET_INLINE uint2 tet_mid(uint3 w) { return (uint2)(tet_fshr(w.x, w.y, 8u), tet_fshr(w.y, w.z, 8u)); }

/* A work-item's walk down the rows y of planes z - 1 .. z + 2: p[k] the storage of cell x - 1 of
 * row (y, z - 1 + k), st the row step of plane z - 1 (compact: one less each row and plane, dd = 1;
 * bb: n, dd = 0). */
typedef struct {
  sqz_sidx p[4], st, dd;
} tet_walk;

/* Steps the walk from row y to row y + 1 (IADD3s: p[k] += st - k dd). */
TET_INLINE void tet_down(tet_walk *w) {
  for (uint k = 0u; k < 4u; k++) w->p[k] += w->st - k * w->dd;
  w->st -= w->dd;
}

/* Row y of the planes z - 1 .. z + 2 (the walk at row y): the plane sums of planes z and z + 1 in
 * p[0], p[1], their cells in m[0], m[1]. */
TET_INLINE void tet_planes(__global const uchar *src, const tet_walk *w, uint n, uint y, uint z, uint x, sqz_sidx lim,
                           int mode, uint2 *p, uint2 *m) {
  uint3 w0 = tet_win(src, w->p[0], tet_len(n, y, z - 1u), x, lim, mode);
  uint3 w1 = tet_win(src, w->p[1], tet_len(n, y, z), x, lim, mode);
  uint3 w2 = tet_win(src, w->p[2], tet_len(n, y, z + 1u), x, lim, mode);
  uint3 w3 = tet_win(src, w->p[3], tet_len(n, y, z + 2u), x, lim, mode);
  uint3 q = w1 + w2, r0 = w0 + q, r1 = q + w3;
  uint xm = x ? ~0u : ~0xffu; /* cell -1 (bytes of the row before) */
  r0.x &= xm;
  r1.x &= xm;
  p[0] = tet_hsum3(r0);
  p[1] = tet_hsum3(r1);
  m[0] = tet_mid(w1);
  m[1] = tet_mid(w2);
}

/* Cells x .. x + 7 (bytes of r) at storage o, cells of them (all 8: two aligned words, or, where o
 * is inside a word, the aligned word in the middle and 2-3 byte or 16-bit stores around it). */
TET_INLINE void tet_store(__global uchar *dst, sqz_sidx o, uint2 r, uint cells) {
  uint s = (uint)o & 3u;
  if (cells < 8u) {
    for (uint e = 0u; e < cells; e++) dst[o + e] = (uchar)((e < 4u ? r.x : r.y) >> (8u * (e & 3u)));
    return;
  }
  __global uint *w = (__global uint *)(dst + (o - s));
  __global ushort *h = (__global ushort *)w;
  __global uchar *b = (__global uchar *)w;
  if (s == 0u) {
    w[0] = r.x;
    w[1] = r.y;
    return;
  }
  w[1] = tet_fshr(r.x, r.y, 32u - 8u * s);
  if (s == 1u) {
    b[1] = (uchar)r.x;
    h[1] = (ushort)(r.x >> 8);
    b[8] = (uchar)(r.y >> 24);
  } else if (s == 2u) {
    h[1] = (ushort)r.x;
    h[4] = (ushort)(r.y >> 16);
  } else {
    b[3] = (uchar)r.x;
    h[4] = (ushort)(r.y >> 8);
    b[10] = (uchar)(r.y >> 24);
  }
}

/* Output row y of planes z and z + 1: reads row y + 1, rule, stores. Per plane q: s2 the plane
 * sums of rows y - 1 and y added (updated in place), s1 that of row y, m the cells of row y; those
 * of row y + 1 go to s1o and mo (the fast loop runs two rows a turn, its second with the two
 * swapped, so that no register is copied). e0: the rows of plane z that hold cell x. */
TET_INLINE void tet_row2(__global const uchar *src, __global uchar *dst, uint n, uint z, uint x, uint y, uint e0,
                         sqz_sidx lim, tet_rule r, int mode, int range, tet_walk *w, uint2 *s2, const uint2 *s1,
                         const uint2 *m, uint2 *s1o, uint2 *mo) {
  sqz_sidx o0 = w->p[1] + 1u, o1 = w->p[2] + 1u;
  uint2 pn[2], mn[2];
  tet_down(w);
  tet_planes(src, w, n, y + 1u, z, x, lim, mode, pn, mn);
#pragma unroll
  for (uint q = 0u; q < 2u; q++) {
    uint2 next = (uint2)(tet_rule4(s2[q].x, pn[q].x, m[q].x, r, range), tet_rule4(s2[q].y, pn[q].y, m[q].y, r, range));
    uint cells = mode == TET_FAST ? 8u : y + q < e0 && z + q < n ? min(8u, e0 - q - y) : 0u;
    tet_store(dst, q ? o1 : o0, next, cells);
    s2[q] = s1[q] + pn[q];
    s1o[q] = pn[q];
    mo[q] = mn[q];
  }
}

__kernel void engine_tetra_swar_z2(__global const uchar *restrict src, __global uchar *restrict dst, uint birth,
                                   uint survive, uint n, uint compact, uint chunk, ulong elems) {
  uint x = 8u * (uint)get_global_id(0), z = 2u * (uint)get_global_id(1), y0 = (uint)get_global_id(2) * chunk;
  if (z >= n || y0 >= n - z || x >= n - z - y0) return;
  int layout = compact ? SQZ_SL_COMPACT : SQZ_SL_BB;
  uint e0 = n - z - x, y1 = min(y0 + chunk, e0); /* plane z: rows y < e0 hold cell x; plane z + 1: y < e0 - 1 */
  uint yf = z >= 1u && e0 > 11u ? clamp(e0 - 11u, y0, y1) : y0; /* rows y < yf: fast (x = 0 too: cell -1 masked) */
  yf -= (yf - y0) & 1u;                                           /* in pairs (the odd one masked) */
  sqz_sidx lim = (sqz_sidx)(elems >> 2);
  tet_rule r = tet_rule_of(birth, survive);
  tet_walk w;
  uint2 s2[2], s1[2], m[2], s1b[2], mb[2];
  for (uint k = 0u; k < 4u; k++) { /* row y0 - 1 of planes z - 1 .. z + 2 */
    uint zz = z - 1u + k;
    w.p[k] = (zz < n ? sqz_tet_index(layout, n, 0u, y0, zz) : (sqz_sidx)0u) - sqz_tet_rowstep(layout, n, y0 - 1u, zz) + x - 1u;
  }
  w.st = sqz_tet_rowstep(layout, n, y0 - 1u, z - 1u);
  w.dd = compact ? 1u : 0u;
  tet_planes(src, &w, n, y0 - 1u, z, x, lim, TET_MASKED, s2, m);
  tet_down(&w);
  tet_planes(src, &w, n, y0, z, x, lim, TET_MASKED, s1, m);
  s2[0] += s1[0];
  s2[1] += s1[1];
  uint y = y0;
#define TET_FAST_ROWS(range) /* the rule's kind and the fast rows as constants of their own loop */ \
  for (; y < yf; y += 2u) {                                                                        \
    tet_row2(src, dst, n, z, x, y, e0, lim, r, TET_FAST, range, &w, s2, s1, m, s1b, mb);            \
    tet_row2(src, dst, n, z, x, y + 1u, e0, lim, r, TET_FAST, range, &w, s2, s1b, mb, s1, m);       \
  }
  if (r.range)
    TET_FAST_ROWS(1)
  else
    TET_FAST_ROWS(0)
  for (; y < y1; y++) tet_row2(src, dst, n, z, x, y, e0, lim, r, TET_MASKED, r.range, &w, s2, s1, m, s1, m);
}
#endif
