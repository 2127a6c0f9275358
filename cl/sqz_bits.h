/* sqz_bits.h — layout bits (1 bit per cell in 32-bit words): row geometry of simplices and bit-sliced Life arithmetic, for host C and OpenCL C. */
#ifndef SQZ_BITS_H
#define SQZ_BITS_H
/* Needs sqz_common.h first (and sqz_parts.h in kernels).
 *
 * Storage (documented in docs/ARCHITECTURE.md, "Layout bits"): bit b of word w is cell 32 w + b
 * of the layout's bit order; padding bits are 0 and stay 0.
 *   triangle:n     rows y = 0 .. n-1 (cells x = 0 .. y), each padded to whole words: row y
 *                  starts at word S(y), S(m) = sum_{j=1..m} ceil(j / 32); n rows take S(n) words.
 *   tetrahedron:n  planes z, rows y (cells x = 0 .. n-1-y-z), each row padded to whole words:
 *                  row (y, z) starts at word T(n) - T(n-z) + S(n-z) - S(n-z-y), T(m) = sum S(j).
 *   fractals       tiles of level t (the sub-fractals of k^t cells, digit order at level R - t),
 *                  each padded to whole words: tile b at word b * ceil(k^t / 32), its cell l (digit
 *                  order inside the tile) at bit l.
 * A step computes 32 cells at once: the Moore neighbours of a row word come from the words of
 * the neighbouring rows shifted by one bit, their count is kept in bit planes (bit-sliced
 * adders) and the B/S rule is a boolean function of the planes. */

#ifdef __OPENCL_VERSION__
#define SQZ_BITS_GLOBAL __global
#else
#define SQZ_BITS_GLOBAL
#include "sqz_parts.h" /* kernels: built after it */
#endif

/* The words a simplex step reads, in a part's buffer (layout bits in parts: bands of rows, the
 * word at sqz_band_slot(word, b.u0, b.u1, b.before), cl/sqz_parts.h) or in one buffer
 * (SQZ_BITS_WHOLE: every word itself). */
typedef struct {
  sqz_u64 u0, u1, before;
} sqz_bits_band;
#define SQZ_BITS_WHOLE(b) ((b).u0 = 0u, (b).u1 = ~(sqz_u64)0, (b).before = 0u)

#define SQZ_BITS_W 32u /* bits per storage word */
#define SQZ_BITS_PLANES 5 /* count planes: up to 31 neighbours (26 in 3D) */

/* Words of a row of `len` cells. */
SQZ_FN sqz_u64 sqz_bits_words(sqz_u64 len) { return (len + 31u) >> 5; }
/* S(m) = sum_{j=1..m} ceil(j/32) = sum_{i < ceil(m/32)} (m - 32 i): words of rows of 1 .. m cells. */
SQZ_FN sqz_u64 sqz_bits_S(sqz_u64 m) {
  sqz_u64 q = sqz_bits_words(m);
  return q * m - 16u * q * (q - (q > 0u ? 1u : 0u));
}
/* T(m) = sum_{j=1..m} S(j) = sum_{i < p} tri(m - 32 i), p = ceil(m/32), in closed form:
 * (p m (m+1) - 16 (2m+1) p (p-1) + 1024 (p-1) p (2p-1) / 6) / 2. */
SQZ_FN sqz_u64 sqz_bits_T(sqz_u64 m) {
  sqz_u64 p = sqz_bits_words(m);
  if (p == 0u) return 0u;
  sqz_u64 sq = (p - 1u) * p * (2u * p - 1u) / 6u;
  return (p * m * (m + 1u) - 16u * (2u * m + 1u) * p * (p - 1u) + 1024u * sq) / 2u;
}
/* First word of row y of triangle:n / row (y, z) of tetrahedron:n, and the row's length. */
SQZ_FN sqz_u64 sqz_bits_tri_row(sqz_u64 y) { return sqz_bits_S(y); }
SQZ_FN sqz_u64 sqz_bits_tet_row(sqz_u64 n, sqz_u64 y, sqz_u64 z) {
  return sqz_bits_T(n) - sqz_bits_T(n - z) + sqz_bits_S(n - z) - sqz_bits_S(n - z - y);
}

/* ---- bit-sliced counting ------------------------------------------------------------------ */
/* Adds the 0/1 bits of x to the counters held in planes p[0..np-1] (p[i] = bit i of each count). */
#define SQZ_BITS_ADD(p, np, x)                                  \
  do {                                                          \
    sqz_u32 c_ = (x);                                           \
    for (int i_ = 0; i_ < (np); i_++) {                         \
      sqz_u32 t_ = (p)[i_] & c_;                                \
      (p)[i_] ^= c_;                                            \
      c_ = t_;                                                  \
    }                                                           \
  } while (0)

/* Counts of 8 neighbour words into 4 planes by carry-save adders (26 operations, not 64). */
#define SQZ_BITS_FA(a, b, c, s, cy)       \
  do {                                    \
    sqz_u32 x_ = (a) ^ (b);               \
    (s) = x_ ^ (c);                       \
    (cy) = ((a) & (b)) | (x_ & (c));      \
  } while (0)
SQZ_FN void sqz_bits_count8(sqz_u32 a, sqz_u32 b, sqz_u32 c, sqz_u32 d, sqz_u32 e, sqz_u32 f, sqz_u32 g, sqz_u32 h,
                            sqz_u32 *p) {
  sqz_u32 s1, c1, s2, c2, s3 = g ^ h, c3 = g & h, c4, t0, t1;
  SQZ_BITS_FA(a, b, c, s1, c1);
  SQZ_BITS_FA(d, e, f, s2, c2);
  SQZ_BITS_FA(s1, s2, s3, p[0], c4); /* weight 1 */
  SQZ_BITS_FA(c1, c2, c3, t0, t1);   /* weights 2 and 4 */
  p[1] = t0 ^ c4;
  sqz_u32 t2 = t0 & c4; /* weight 4 */
  p[2] = t1 ^ t2;
  p[3] = t1 & t2; /* weight 8: all eight alive */
}

/* The cells of a word whose count (planes p[0..np-1]) is in `mask` (bit v: count v). */
SQZ_FN sqz_u32 sqz_bits_in(const sqz_u32 *p, int np, sqz_u32 mask) {
  sqz_u32 out = 0u;
  for (sqz_u32 v = 0u; mask != 0u; v++, mask >>= 1) {
    if (!(mask & 1u)) continue;
    sqz_u32 eq = 0xFFFFFFFFu;
    for (int i = 0; i < np; i++) eq &= ((v >> i) & 1u) ? p[i] : ~p[i];
    out |= eq;
  }
  return out;
}

/* Next state of 32 cells: self bits and the neighbour counts' planes, Life-like masks. */
SQZ_FN sqz_u32 sqz_bits_rule(sqz_u32 self, const sqz_u32 *p, int np, sqz_u32 birth, sqz_u32 survive) {
  return (self & sqz_bits_in(p, np, survive)) | (~self & sqz_bits_in(p, np, birth));
}

/* Adds the three horizontal neighbours x-1, x, x+1 of a row word w (with the words before and
 * after it) to the planes; `centre` 0 leaves out w itself (the cell's own row). */
#define SQZ_BITS_ADD_ROW(p, np, prev, w, next, centre)               \
  do {                                                               \
    SQZ_BITS_ADD(p, np, ((w) << 1) | ((prev) >> 31));                \
    SQZ_BITS_ADD(p, np, ((w) >> 1) | ((next) << 31));                \
    if (centre) SQZ_BITS_ADD(p, np, (w));                            \
  } while (0)

/* Mask of the first `len - 32 j` cells of word j of a row of len cells. */
SQZ_FN sqz_u32 sqz_bits_row_mask(sqz_u64 len, sqz_u64 j) {
  sqz_u64 left = len - 32u * j;
  return left >= 32u ? 0xFFFFFFFFu : (((sqz_u32)1u << left) - 1u);
}

/* The next 32 cells of a 2D row word from the (previous, current, next) words of the rows above
 * (a), the row itself (m) and below (b). */
SQZ_FN sqz_u32 sqz_bits_life2(sqz_u32 a0, sqz_u32 a1, sqz_u32 a2, sqz_u32 m0, sqz_u32 m1, sqz_u32 m2, sqz_u32 b0,
                              sqz_u32 b1, sqz_u32 b2, sqz_u32 birth, sqz_u32 survive) {
  sqz_u32 p[4];
  sqz_bits_count8((a1 << 1) | (a0 >> 31), a1, (a1 >> 1) | (a2 << 31), (m1 << 1) | (m0 >> 31), (m1 >> 1) | (m2 << 31),
                  (b1 << 1) | (b0 >> 31), b1, (b1 >> 1) | (b2 << 31), p);
  return sqz_bits_rule(m1, p, 4, birth, survive);
}

/* Word j of triangle row y (0 when the row or the word does not exist). */
SQZ_FN sqz_u32 sqz_bits_tri_word(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 n, sqz_i64 y, sqz_i64 j, sqz_bits_band b) {
  if (y < 0 || (sqz_u64)y >= n || j < 0 || (sqz_u64)j >= sqz_bits_words((sqz_u64)y + 1u)) return 0u;
  return src[sqz_band_slot(sqz_bits_tri_row((sqz_u64)y) + (sqz_u64)j, b.u0, b.u1, b.before)];
}
/* Word j of tetrahedron row (y, z) (0 when the row or the word does not exist). */
SQZ_FN sqz_u32 sqz_bits_tet_word(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 n, sqz_i64 y, sqz_i64 z, sqz_i64 j,
                                 sqz_bits_band b) {
  if (y < 0 || z < 0 || (sqz_u64)(y + z) >= n || j < 0 || (sqz_u64)j >= sqz_bits_words(n - (sqz_u64)(y + z)))
    return 0u;
  return src[sqz_band_slot(sqz_bits_tet_row(n, (sqz_u64)y, (sqz_u64)z) + (sqz_u64)j, b.u0, b.u1, b.before)];
}

/* One step of word j of triangle row y: the next 32 cells (padding bits 0). */
SQZ_FN sqz_u32 sqz_bits_tri_step(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 n, sqz_u64 y, sqz_u64 j, sqz_u32 birth,
                                 sqz_u32 survive, sqz_bits_band b) {
  sqz_u32 w[9];
  for (int i = 0; i < 9; i++) w[i] = sqz_bits_tri_word(src, n, (sqz_i64)y + i / 3 - 1, (sqz_i64)j + i % 3 - 1, b);
  return sqz_bits_life2(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], birth, survive) &
         sqz_bits_row_mask(y + 1u, j);
}

/* One step of word j of tetrahedron row (y, z): 26 neighbours in 9 rows. */
SQZ_FN sqz_u32 sqz_bits_tet_step(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 n, sqz_u64 y, sqz_u64 z, sqz_u64 j,
                                 sqz_u32 birth, sqz_u32 survive, sqz_bits_band b) {
  sqz_u32 p[5] = {0u, 0u, 0u, 0u, 0u}, self = 0u;
  for (sqz_i64 dz = -1; dz <= 1; dz++)
    for (sqz_i64 dy = -1; dy <= 1; dy++) {
      sqz_i64 ry = (sqz_i64)y + dy, rz = (sqz_i64)z + dz;
      sqz_u32 a = sqz_bits_tet_word(src, n, ry, rz, (sqz_i64)j - 1, b), w = sqz_bits_tet_word(src, n, ry, rz, (sqz_i64)j, b),
              c = sqz_bits_tet_word(src, n, ry, rz, (sqz_i64)j + 1, b);
      SQZ_BITS_ADD_ROW(p, 5, a, w, c, dy != 0 || dz != 0);
      if (dy == 0 && dz == 0) self = w;
    }
  return sqz_bits_rule(self, p, 5, birth, survive) & sqz_bits_row_mask(n - y - z, j);
}

/* Halo position p < 4 side + 4 of a dense tile bitmap of (side + 2)^2 cells: its place (cx, cy)
 * (rows 0 and side + 1, then columns 0 and side + 1), and the direction d = (dy+1)*3 + (dx+1) of
 * the neighbouring tile that holds it, as cell (lx, ly) of that tile. */
SQZ_FN sqz_u32 sqz_bits_halo(sqz_u32 side, sqz_u32 p, sqz_u32 *cx, sqz_u32 *cy, sqz_u32 *lx, sqz_u32 *ly) {
  sqz_u32 w = side + 2u, q = p - 2u * w;
  *cy = p < w ? 0u : p < 2u * w ? side + 1u : 1u + q / 2u;
  *cx = p < w ? p : p < 2u * w ? p - w : ((q & 1u) ? side + 1u : 0u);
  sqz_u32 dx = *cx == 0u ? 0u : (*cx > side ? 2u : 1u), dy = *cy == 0u ? 0u : (*cy > side ? 2u : 1u);
  *lx = *cx + side - 1u - dx * side;
  *ly = *cy + side - 1u - dy * side;
  return dy * 3u + dx;
}

/* One step of word j of row y of a dense tile bitmap (fractal tiles): rows of rw words, cell x
 * of the tile at bit x + 1 of row y + 1 (a one-cell halo all round). */
#define SQZ_BITS_DENSE_STEP(d, rw, y, j, birth, survive, out)                                        \
  do {                                                                                               \
    sqz_u32 w_[9];                                                                                   \
    for (sqz_u32 i_ = 0u; i_ < 9u; i_++) {                                                           \
      sqz_u32 r_ = (y) + i_ / 3u - 1u, c_ = (j) + i_ % 3u - 1u; /* c_ wraps at j = 0 */              \
      w_[i_] = c_ < (rw) ? (d)[r_ * (rw) + c_] : 0u;                                                 \
    }                                                                                                \
    (out) = sqz_bits_life2(w_[0], w_[1], w_[2], w_[3], w_[4], w_[5], w_[6], w_[7], w_[8], (birth),   \
                           (survive));                                                               \
  } while (0)

#endif /* SQZ_BITS_H */
