/* sqz_bits_box.h — layout bits on fractals by sub-tile boxes: k^q storage bits <-> an s^q x s^q box by tables; the fill, step and pack of a tile window, for host C and OpenCL C. */
#ifndef SQZ_BITS_BOX_H
#define SQZ_BITS_BOX_H
/* Needs sqz_common.h and sqz_bits.h first.
 *
 * In digit order the k^q cells of a level-q sub-tile ("box") are consecutive bits of storage,
 * and the box is an S x S square, S = s^q, of the tile. Two tables turn one into the other: U
 * (ceil(k^q / 8) x 256 64-bit words: byte i of the k^q bits -> the box bits y S + x of its
 * cells) and P (S x 2^S words: the S bits of box row y -> the digit-order bits of its cells).
 *
 * A tile of side = s^t (t: the storage level, src/layouts/bits/bits.h) is stepped in a window of R = side +
 * 2 H rows of rw words (H <= 4: the halo width, one cell per step of a launch): tile cell (x, y)
 * at bit x + 64 of row y + H (word 0 and the words past the last column of every row stay 0;
 * word 1 holds the left halo; rw may exceed the columns, a padding against bank conflicts). The window is filled by tasks, each one word column j and one band of S rows: it pulls
 * the boxes of the 9 tiles that meet its word (those the host listed: present cells, at most
 * ceil(32 / S) + 1) and writes whole words, no atomics; the mask area gets the box shapes of
 * present tiles. The steps walk word columns (a task: column c, rows [ya, yb) of a segment of
 * `seg` rows, trimmed to the rows whose words can hold a cell), keeping the horizontal 3-sums
 * of three rows as 2 bit planes; the intermediate steps are ANDed with the
 * mask (holes, absent tiles and what lies past the window stay 0), so after T <= H steps the
 * tile's own cells are exact. The pack builds each storage word from the boxes of its bits, a
 * box row at a time through P.
 *
 * The plan (one uint array `tab`, built by the host, src/layouts/bits/bits_box.c) starts with the
 * header below; then U (from SQZ_BB_U, an even word), P, lam (box origin x | y << 16 of each
 * level-q sub-tile of a tile, in digit order), the fill tasks (head: j | (first row + 16) << 8),
 * their entry offsets (n_fill + 1), the entries (sub-tile | direction << 20 | (shift + 32) <<
 * 24, shift = box x - word x) and the step tasks (c | ya << 8 | yb << 20). */

#ifdef __OPENCL_VERSION__
#define SQZ_BITS_LOCAL __local
#else
#define SQZ_BITS_LOCAL
#endif

/* Loops over box rows and counts: unrolled in kernels, where the box side and the rule are
 * compile-time constants (SQZ_BITS_BOX, SQZ_BITS_B/S), so that rows stay in registers. */
#ifdef __OPENCL_VERSION__
#define SQZ_BB_UNROLL _Pragma("unroll")
#else
#define SQZ_BB_UNROLL
#endif

#define SQZ_BB_DEPTH 0u /* H */
#define SQZ_BB_ROWS 1u  /* R */
#define SQZ_BB_RW 2u
#define SQZ_BB_NFILL 3u
#define SQZ_BB_NSTEP 4u
#define SQZ_BB_SEG 5u
#define SQZ_BB_KQ 6u   /* k^q, <= 32 */
#define SQZ_BB_NSUB 7u /* level-q sub-tiles of a tile */
#define SQZ_BB_U 8u
#define SQZ_BB_P 9u
#define SQZ_BB_LAM 10u
#define SQZ_BB_FILL 11u
#define SQZ_BB_ENT 12u
#define SQZ_BB_STEP 13u
#define SQZ_BB_FULL 14u /* and 15: the box bits of the k^q cells (64 bits) */
#define SQZ_BB_HEADER 16u
#define SQZ_BB_YBIAS 16 /* added to a fill task's first row (which may be negative) */
#define SQZ_BB_MAX_SIDE 8u

/* The kq <= 32 bits of storage from bit p. */
SQZ_FN sqz_u32 sqz_bits_box_bits(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 p, sqz_u32 kq) {
  const SQZ_BITS_GLOBAL sqz_u32 *w = src + (p >> 5);
  sqz_u32 o = (sqz_u32)p & 31u, v = w[0] >> o;
  if (o + kq > 32u) v |= w[1] << (32u - o);
  return kq == 32u ? v : v & ((1u << kq) - 1u);
}

/* The 4 bytes of v as 4 bits (bit i: byte i non-zero): the bytes made 0/1, then gathered by a
 * multiply (byte i of v * 0x00204081 lands at bit 21 + i, the other products elsewhere, no
 * carries). */
SQZ_FN sqz_u32 sqz_bits_nibble(sqz_u32 v) {
  v = ((((v & 0x7f7f7f7fu) + 0x7f7f7f7fu) | v) >> 7) & 0x01010101u;
  return ((v * 0x00204081u) >> 21) & 15u;
}

/* The kq <= 32 cells of a byte state from byte p as bits (bit i: byte p + i non-zero), of n bytes
 * in all: the aligned 32-bit words that hold them, or, for a box in the last partial word of the
 * state, byte by byte. */
SQZ_FN sqz_u32 sqz_bits_byte_bits(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 p, sqz_u32 kq, sqz_u64 n) {
  const SQZ_BITS_GLOBAL sqz_u32 *w = src + (p >> 2);
  sqz_u32 o = (sqz_u32)p & 3u, nw = (o + kq + 3u) >> 2;
  sqz_u64 acc = 0u;
  if (p - o + 4u * nw <= n) {
    SQZ_BB_UNROLL
    for (sqz_u32 i = 0u; i < (kq + 6u) / 4u; i++) /* at most ceil((kq + 3) / 4) words */
      if (i < nw) acc |= (sqz_u64)sqz_bits_nibble(w[i]) << (4u * i);
  } else {
    for (sqz_u32 j = 0u; j < kq; j++)
      acc |= (sqz_u64)(((const SQZ_BITS_GLOBAL unsigned char *)src)[p + j] != 0u) << (o + j);
  }
  acc >>= o;
  return kq == 32u ? (sqz_u32)acc : (sqz_u32)acc & ((1u << kq) - 1u);
}

/* Fill task i of the plan: its rows (those in [0, R)) of word column j of the cell area a and,
 * with `masked`, of the mask area m. nb: the 9 tiles around (-1: absent), wt: words per tile
 * (with `bytes`: a u8 state in compact order, wt bytes a tile, nbytes in all); bs, kq = k^q and
 * bytes as in the plan (compile-time constants in kernels). */
SQZ_FN void sqz_bits_box_fill(const SQZ_BITS_GLOBAL sqz_u32 *src, const SQZ_BITS_GLOBAL sqz_u32 *tab,
                              const SQZ_BITS_LOCAL sqz_i64 *nb, sqz_u64 wt, sqz_u32 bs, sqz_u32 kq, sqz_u32 bytes,
                              sqz_u64 nbytes, sqz_u32 i, SQZ_BITS_LOCAL sqz_u32 *a, SQZ_BITS_LOCAL sqz_u32 *m,
                              sqz_u32 masked) {
  sqz_u32 rows = tab[SQZ_BB_ROWS], rw = tab[SQZ_BB_RW], n = tab[SQZ_BB_NFILL];
  const SQZ_BITS_GLOBAL sqz_u32 *fill = tab + tab[SQZ_BB_FILL], *ent = tab + tab[SQZ_BB_ENT];
  const SQZ_BITS_GLOBAL sqz_u64 *u = (const SQZ_BITS_GLOBAL sqz_u64 *)(tab + tab[SQZ_BB_U]);
  sqz_u64 full = tab[SQZ_BB_FULL] | (sqz_u64)tab[SQZ_BB_FULL + 1u] << 32;
  sqz_u32 head = fill[i], j = head & 0xffu, smask = (1u << bs) - 1u, acc[SQZ_BB_MAX_SIDE], msk[SQZ_BB_MAX_SIDE];
  sqz_i32 y0 = (sqz_i32)(head >> 8) - SQZ_BB_YBIAS;
  SQZ_BB_UNROLL
  for (sqz_u32 r = 0u; r < bs; r++) acc[r] = msk[r] = 0u;
  for (sqz_u32 e = fill[n + i]; e < fill[n + i + 1u]; e++) {
    sqz_u32 en = ent[e];
    sqz_i64 t = nb[(en >> 20) & 15u];
    if (t < 0) continue;
    sqz_u64 sub = (sqz_u64)(en & 0xfffffu) * kq;
    sqz_u32 bits = bytes ? sqz_bits_byte_bits(src, (sqz_u64)t * wt + sub, kq, nbytes)
                         : sqz_bits_box_bits(src, ((sqz_u64)t * wt << 5) + sub, kq);
    sqz_u64 box = 0u;
    SQZ_BB_UNROLL
    for (sqz_u32 b = 0u; 8u * b < kq; b++) box |= u[256u * b + ((bits >> (8u * b)) & 255u)];
    sqz_i32 sh = (sqz_i32)(en >> 24) - 32;
    SQZ_BB_UNROLL
    for (sqz_u32 r = 0u; r < bs; r++) {
      sqz_u32 v = (sqz_u32)(box >> (r * bs)) & smask, f = (sqz_u32)(full >> (r * bs)) & smask;
      acc[r] |= sh >= 0 ? v << sh : v >> -sh;
      msk[r] |= sh >= 0 ? f << sh : f >> -sh;
    }
  }
  SQZ_BB_UNROLL
  for (sqz_u32 r = 0u; r < bs; r++) {
    sqz_i32 y = y0 + (sqz_i32)r;
    if (y < 0 || y >= (sqz_i32)rows) continue;
    a[(sqz_u32)y * rw + j] = acc[r];
    if (masked) m[(sqz_u32)y * rw + j] = msk[r];
  }
}

/* The rows [ya, yb) of step task `task` at step st of a launch: its own within st .. R - st - 1
 * (each step computes one row fewer at either end of the window). */
SQZ_FN sqz_u32 sqz_bits_box_rows(sqz_u32 task, sqz_u32 st, sqz_u32 rows, sqz_u32 *yb) {
  sqz_u32 ya = (task >> 8) & 0xfffu, ye = task >> 20;
  *yb = ye < rows - st ? ye : rows - st;
  return ya > st ? ya : st;
}

/* Horizontal 3-sum (x-1, x, x+1) of the 32 cells of row word w (l, r: the words either side)
 * as two bit planes h0 (weight 1) and h1 (weight 2). */
#define SQZ_BITS_HSUM(l, w, r, h0, h1)                            \
  do {                                                            \
    sqz_u32 a_ = ((w) << 1) | ((l) >> 31), b_ = ((w) >> 1) | ((r) << 31), x_ = a_ ^ b_; \
    (h0) = x_ ^ (w);                                              \
    (h1) = (a_ & b_) | (x_ & (w));                                \
  } while (0)

/* Next state of the cells of a word from their sums with themselves (0 .. 9 in planes p[0..3]):
 * alive where the sum is in `birth` (dead cells) or in `survive2` = survive << 1 (live ones). The
 * 16 values of the planes are the products of two halves (p0, p1) and (p2, p3), so each count is
 * one AND. For 32-bit words (the window) and 64-bit boxes (sqz_bits_list.h). */
#define SQZ_BITS_RULE_FN(name, T)                                                    \
  SQZ_FN T name(T self, const T *p, sqz_u32 birth, sqz_u32 survive2) {               \
    T n0 = ~p[0], n1 = ~p[1], lo[4], hi[3], b = 0u, s = 0u;                          \
    lo[0] = n0 & n1;                                                                 \
    lo[1] = p[0] & n1;                                                               \
    lo[2] = n0 & p[1];                                                               \
    lo[3] = p[0] & p[1];                                                             \
    hi[0] = ~(p[2] | p[3]);                                                          \
    hi[1] = p[2] & ~p[3];                                                            \
    hi[2] = p[3] & ~p[2];                                                            \
    SQZ_BB_UNROLL                                                                    \
    for (sqz_u32 v = 0u; v < 10u; v++) {                                             \
      T eq = lo[v & 3u] & hi[v >> 2];                                                \
      if ((birth >> v) & 1u) b |= eq;                                                \
      if ((survive2 >> v) & 1u) s |= eq;                                             \
    }                                                                                \
    return (self & s) | (~self & b);                                                 \
  }
SQZ_BITS_RULE_FN(sqz_bits_box_rule, sqz_u32)
SQZ_BITS_RULE_FN(sqz_bits_box_rule64, sqz_u64)

/* The sum of three 2-bit sums (a0 + 2 a1, b0 + 2 b1, c0 + 2 c1: 0 .. 9) as 4 bit planes p[0..3]
 * of words of type T. */
#define SQZ_BITS_SUM3(T, a0, a1, b0, b1, c0, c1, p)                                  \
  do {                                                                               \
    T x_ = (a0) ^ (b0), x1_ = (a1) ^ (b1), k0_, t_, u_, v_;                          \
    (p)[0] = x_ ^ (c0); /* weight 1, its carry k0_, then the weight-2 bits */        \
    k0_ = ((a0) & (b0)) | (x_ & (c0));                                               \
    t_ = x1_ ^ (c1);                                                                 \
    u_ = ((a1) & (b1)) | (x1_ & (c1)); /* weight 4 */                                \
    (p)[1] = t_ ^ k0_;                                                               \
    v_ = t_ & k0_; /* weight 4 */                                                    \
    (p)[2] = u_ ^ v_;                                                                \
    (p)[3] = u_ & v_;                                                                \
  } while (0)

/* Cells l .. l + 3 of a tile as 4 bytes 0/1 (byte i: cell l + i), from its bit array of words
 * of type T (bit i of word j: cell W j + i, W the word's bits; one word past the tile's, 0). */
#define SQZ_BITS_BYTES4_FN(name, T)                                                                \
  SQZ_FN sqz_u32 name(const SQZ_BITS_LOCAL T *arr, sqz_u32 l) {                                    \
    const sqz_u32 bits = 8u * (sqz_u32)sizeof(T);                                                  \
    sqz_u32 o = l & (bits - 1u);                                                                   \
    T v = arr[l / bits] >> o;                                                                      \
    if (o > bits - 4u) v |= arr[l / bits + 1u] << (bits - o);                                      \
    return (((sqz_u32)v & 15u) * 0x00204081u) & 0x01010101u; /* bit i at byte i: sqz_bits_nibble's \
                                                                multiply, back */                  \
  }
SQZ_BITS_BYTES4_FN(sqz_bits_bytes4, sqz_u32)

/* Rows ya .. yb - 1 (ya >= 1) of word column c stepped from area `in` into `out` (rows ya - 1 ..
 * yb read): the 9-cell sums of three rows' 3-sums, the rule on the sum with the cell itself
 * (survival at sum n + 1), ANDed with the mask area m when `masked`. */
SQZ_FN void sqz_bits_box_column(const SQZ_BITS_LOCAL sqz_u32 *in, SQZ_BITS_LOCAL sqz_u32 *out,
                                const SQZ_BITS_LOCAL sqz_u32 *m, sqz_u32 masked, sqz_u32 rw, sqz_u32 c, sqz_u32 ya,
                                sqz_u32 yb, sqz_u32 birth, sqz_u32 survive) {
  const SQZ_BITS_LOCAL sqz_u32 *p = in + (ya - 1u) * rw + c;
  sqz_u32 a0, a1, b0, b1, mid = p[rw];
  SQZ_BITS_HSUM(p[-1], p[0], p[1], a0, a1);
  SQZ_BITS_HSUM(p[rw - 1u], mid, p[rw + 1u], b0, b1);
  for (sqz_u32 y = ya; y < yb; y++) {
    p += rw; /* row y */
    sqz_u32 nx = p[rw], c0, c1, pl[4];
    SQZ_BITS_HSUM(p[rw - 1u], nx, p[rw + 1u], c0, c1);
    SQZ_BITS_SUM3(sqz_u32, a0, a1, b0, b1, c0, c1, pl);
    sqz_u32 next = sqz_bits_box_rule(mid, pl, birth, survive << 1);
    out[y * rw + c] = masked ? next & m[y * rw + c] : next;
    a0 = b0;
    a1 = b1;
    b0 = c0;
    b1 = c1;
    mid = nx;
  }
}

/* Storage word w of a tile from its stepped window res: the boxes of its 32 bits, each read a
 * row at a time and packed through P. */
SQZ_FN sqz_u32 sqz_bits_box_pack(const SQZ_BITS_LOCAL sqz_u32 *res, const SQZ_BITS_GLOBAL sqz_u32 *tab, sqz_u32 bs,
                                 sqz_u32 kq, sqz_u32 w) {
  sqz_u32 rw = tab[SQZ_BB_RW], nsub = tab[SQZ_BB_NSUB], h = tab[SQZ_BB_DEPTH];
  const SQZ_BITS_GLOBAL sqz_u32 *lam = tab + tab[SQZ_BB_LAM], *pt = tab + tab[SQZ_BB_P];
  sqz_u32 l0 = 32u * w, v = 0u, smask = (1u << bs) - 1u;
  for (sqz_u32 u = l0 / kq; u < nsub && u * kq < l0 + 32u; u++) {
    sqz_u32 xy = lam[u], x = (xy & 0xffffu) + 64u, o = x & 31u, pk = 0u;
    const SQZ_BITS_LOCAL sqz_u32 *row = res + ((xy >> 16) + h) * rw + (x >> 5);
    SQZ_BB_UNROLL
    for (sqz_u32 r = 0u; r < bs; r++, row += rw) {
      sqz_u32 bits = row[0] >> o;
      if (o + bs > 32u) bits |= row[1] << (32u - o);
      pk |= pt[(r << bs) + (bits & smask)];
    }
    sqz_i32 sh = (sqz_i32)(u * kq) - (sqz_i32)l0;
    v |= sh >= 0 ? pk << sh : pk >> -sh;
  }
  return v;
}

#endif /* SQZ_BITS_BOX_H */
