/* sqz_bits_list.h — layout bits on fractals by a list of boxes: each sub-tile box of a tile and its ring as one 64-bit 8 x 8 bitboard, stepped with its 8 neighbours; for host C and OpenCL C. */
#ifndef SQZ_BITS_LIST_H
#define SQZ_BITS_LIST_H
/* Needs sqz_common.h, sqz_bits.h and sqz_bits_box.h first.
 *
 * The window step (sqz_bits_box.h) steps every word of a dense window of the tile, where a sparse
 * fractal (the Sierpiński triangle: 6561 cells in 256 x 256) puts about 5 cells in a 32-bit word.
 * Here only the boxes that hold cells are stepped: a box (the k^q cells of a level-q sub-tile, an
 * S x S square, S = s^q <= 8) is a 64-bit word, cell (x, y) of the box at bit x + 8 y, and the
 * list holds the boxes of the tile ("own", in raster order of their box rows) and then those of
 * the 8 neighbour tiles next to an own box ("ring", raster order). Each entry knows its 8
 * neighbour entries (the plan's table; the entry `ne`, always 0, stands for a box without cells),
 * so a step is: the horizontal 3-sums of the box as 2 bit planes (the west and east neighbours
 * of a cell come from the box or, at its edge column, from the box beside it), shifted a row up
 * and down (the edge rows: the 3-sums of the next row of the boxes above and below), the 9-cell
 * sum as 4 planes, the rule (sqz_bits_box.h). Cells outside the box's shape (bits of columns or
 * rows >= S, holes of the pattern) may hold anything during a step and are cleared by the entry's
 * mask (the box shape; 0 for a box of an absent tile) between the steps of a launch. The ring is S cells deep,
 * so T <= S steps a launch leave the own cells exact (what lies past the ring is read as 0, an
 * error that moves one cell a step). The pack reads only the boxes' shape cells, through P.
 *
 * The plan (one uint array `tab`, src/layouts/bits/bits_list.c) starts with the header below; then U (an
 * even word; ceil(k^q / 8) x 256 64-bit words: byte i of the k^q storage bits -> the box bits
 * x + 8 y of its cells), P (S x 2^S words: the S bits of box row y -> the digit-order bits of
 * its cells), the entries (sub-tile | direction << 20: the tile, 4 itself, and its sub-tile in
 * digit order), their neighbours (from a multiple of 4 words; 4 words an entry, the entries of
 * its neighbours NW, N, NE, W, E, SW, S, SE as 16-bit halves, low half first) and the own entry
 * of each sub-tile. */

#define SQZ_BL_DEPTH 0u /* steps a launch at most, <= S */
#define SQZ_BL_NE 1u    /* entries, own then ring */
#define SQZ_BL_NSUB 2u  /* own entries: the level-q sub-tiles of a tile */
#define SQZ_BL_KQ 3u    /* k^q <= 32 */
#define SQZ_BL_BOX 4u   /* S */
#define SQZ_BL_U 5u
#define SQZ_BL_P 6u
#define SQZ_BL_ENT 7u
#define SQZ_BL_NB 8u
#define SQZ_BL_OWN 9u
#define SQZ_BL_FULL 10u /* and 11: the box shape */
#define SQZ_BL_HEADER 12u
#define SQZ_BL_COL0 ((sqz_u64)0x0101010101010101u) /* column 0 of every row of a box */

/* Entry e of the list from storage into a (its box) and m (its mask): the k^q cells of its
 * sub-tile in tile nb[direction] (-1: absent, an empty box and mask). Storage bits (wt words a
 * tile), or with `bytes` bytes (wt bytes a tile, nbytes in all: a u8 state in compact order). kq
 * as in the plan (kq and bytes: compile-time constants in kernels). */
SQZ_FN void sqz_bits_list_fill(const SQZ_BITS_GLOBAL sqz_u32 *src, const SQZ_BITS_GLOBAL sqz_u32 *tab,
                               const SQZ_BITS_LOCAL sqz_i64 *nb, sqz_u64 wt, sqz_u32 kq, sqz_u32 bytes, sqz_u64 nbytes,
                               sqz_u32 e, SQZ_BITS_LOCAL sqz_u64 *a, SQZ_BITS_LOCAL sqz_u64 *m) {
  const SQZ_BITS_GLOBAL sqz_u64 *u = (const SQZ_BITS_GLOBAL sqz_u64 *)(tab + tab[SQZ_BL_U]);
  sqz_u32 en = tab[tab[SQZ_BL_ENT] + e];
  sqz_i64 t = nb[en >> 20];
  sqz_u64 box = 0u, mask = 0u;
  if (t >= 0) {
    sqz_u64 sub = (sqz_u64)(en & 0xfffffu) * kq;
    sqz_u32 bits = bytes ? sqz_bits_byte_bits(src, (sqz_u64)t * wt + sub, kq, nbytes)
                          : sqz_bits_box_bits(src, ((sqz_u64)t * wt << 5) + sub, kq);
    SQZ_BB_UNROLL
    for (sqz_u32 b = 0u; 8u * b < kq; b++) box |= u[256u * b + ((bits >> (8u * b)) & 255u)];
    mask = tab[SQZ_BL_FULL] | (sqz_u64)tab[SQZ_BL_FULL + 1u] << 32;
  }
  a[e] = box;
  m[e] = mask;
}

/* Horizontal 3-sum of the cells of box c (w, e: the boxes west and east of it; bs: the box side)
 * as two bit planes h0 (weight 1) and h1 (weight 2). */
#define SQZ_BITS_LIST_HSUM(w, c, e, bs, h0, h1)                                                          \
  do {                                                                                                   \
    sqz_u64 col_ = SQZ_BL_COL0 << ((bs) - 1u);                                                           \
    sqz_u64 a_ = (((c) << 1) & ~SQZ_BL_COL0) | (((w) >> ((bs) - 1u)) & SQZ_BL_COL0);                     \
    sqz_u64 b_ = (((c) >> 1) & ~col_) | (((e) << ((bs) - 1u)) & col_), x_ = a_ ^ b_;                     \
    (h0) = x_ ^ (c);                                                                                     \
    (h1) = (a_ & b_) | (x_ & (c));                                                                       \
  } while (0)

/* Row r of box v as the low 8 bits of a 32-bit word. */
#define SQZ_BL_ROW(v, r) ((sqz_u32)((v) >> (8u * (r))) & 255u)

/* SQZ_BITS_LIST_HSUM on one box row (w, c, e: that row of the three boxes, SQZ_BL_ROW), in 32-bit
 * words: h0, h1 in bits 0 .. 7 (columns >= bs may hold anything, bits >= 8 hold nothing). Unlike
 * SQZ_BITS_LIST_HSUM it does not mask its inputs: their columns >= bs must hold nothing (w's
 * would reach columns 1 .., c's column bs column bs - 1), as the fill and the masks leave them. */
#define SQZ_BITS_ROW_HSUM(w, c, e, bs, h0, h1)                                                           \
  do {                                                                                                   \
    sqz_u32 a_ = (((c) << 1) | ((w) >> ((bs) - 1u))) & 255u;                                             \
    sqz_u32 b_ = ((c) >> 1) | (((e) << ((bs) - 1u)) & (1u << ((bs) - 1u))), x_ = a_ ^ b_;                \
    (h0) = x_ ^ (c);                                                                                     \
    (h1) = (a_ & b_) | (x_ & (c));                                                                       \
  } while (0)

/* The next state of box c (before its mask) from its west and east boxes bw, be, the last row of
 * the boxes NW, N, NE (nw, n, ne) and the first row of SW, S, SE (sw, s, se), rows as SQZ_BL_ROW
 * gives them: of the boxes above and below only the row next to c counts, so only that row is
 * summed, in 32-bit words (a box's rows and columns >= S hold nothing between steps; the unmasked
 * result of a launch's last step is only packed, never stepped). */
SQZ_FN sqz_u64 sqz_bits_list_life(sqz_u64 c, sqz_u32 nw, sqz_u32 n, sqz_u32 ne, sqz_u64 bw, sqz_u64 be, sqz_u32 sw,
                                  sqz_u32 s, sqz_u32 se, sqz_u32 bs, sqz_u32 birth, sqz_u32 survive) {
  sqz_u32 top = 8u * (bs - 1u), n0, n1, s0, s1;
  sqz_u64 m0, m1, pl[4];
  SQZ_BITS_ROW_HSUM(nw, n, ne, bs, n0, n1);
  SQZ_BITS_LIST_HSUM(bw, c, be, bs, m0, m1);
  SQZ_BITS_ROW_HSUM(sw, s, se, bs, s0, s1);
  /* the rows above (a) and below (d) each cell: the box's rows shifted, the edge row from the
   * box row beside */
  sqz_u64 a0 = (m0 << 8) | n0, a1 = (m1 << 8) | n1;
  sqz_u64 d0 = (m0 >> 8) | ((sqz_u64)s0 << top), d1 = (m1 >> 8) | ((sqz_u64)s1 << top);
  SQZ_BITS_SUM3(sqz_u64, a0, a1, m0, m1, d0, d1, pl);
  return sqz_bits_box_rule64(c, pl, birth, survive << 1);
}

/* The next state of box e of `in` (before its mask), its neighbour entries a, b, .. h (NW, N, NE,
 * W, E, SW, S, SE). */
#define SQZ_BITS_LIST_NEXT(in, e, a, b, c, d, f, g, h, i, bs, birth, survive)                            \
  sqz_bits_list_life((in)[e], SQZ_BL_ROW((in)[a], (bs) - 1u), SQZ_BL_ROW((in)[b], (bs) - 1u),            \
                     SQZ_BL_ROW((in)[c], (bs) - 1u), (in)[d], (in)[f], SQZ_BL_ROW((in)[g], 0u),          \
                     SQZ_BL_ROW((in)[h], 0u), SQZ_BL_ROW((in)[i], 0u), bs, birth, survive)

/* The next state of entry e's box (before its mask) from `in`; n01 .. n67: its 4 neighbour words. */
SQZ_FN sqz_u64 sqz_bits_list_step(const SQZ_BITS_LOCAL sqz_u64 *in, sqz_u32 n01, sqz_u32 n23, sqz_u32 n45, sqz_u32 n67,
                                  sqz_u32 e, sqz_u32 bs, sqz_u32 birth, sqz_u32 survive) {
  return SQZ_BITS_LIST_NEXT(in, e, n01 & 0xffffu, n01 >> 16, n23 & 0xffffu, n23 >> 16, n45 & 0xffffu, n45 >> 16,
                            n67 & 0xffffu, n67 >> 16, bs, birth, survive);
}

/* Storage word w of a tile from the stepped list res (0 past the tile): the own boxes of its 32
 * bits, a box row at a time through P. */
SQZ_FN sqz_u32 sqz_bits_list_pack(const SQZ_BITS_LOCAL sqz_u64 *res, const SQZ_BITS_GLOBAL sqz_u32 *tab, sqz_u32 bs,
                                  sqz_u32 kq, sqz_u32 w) {
  const SQZ_BITS_GLOBAL sqz_u32 *own = tab + tab[SQZ_BL_OWN], *pt = tab + tab[SQZ_BL_P];
  sqz_u32 nsub = tab[SQZ_BL_NSUB], l0 = 32u * w, v = 0u, smask = (1u << bs) - 1u;
  for (sqz_u32 u = l0 / kq; u < nsub && u * kq < l0 + 32u; u++) {
    sqz_u64 box = res[own[u]];
    sqz_u32 pk = 0u;
    SQZ_BB_UNROLL
    for (sqz_u32 r = 0u; r < bs; r++) pk |= pt[(r << bs) + ((sqz_u32)(box >> (8u * r)) & smask)];
    sqz_i32 sh = (sqz_i32)(u * kq) - (sqz_i32)l0;
    v |= sh >= 0 ? pk << sh : pk >> -sh;
  }
  return v;
}

/* sqz_bits_bytes4 on the list's bit arrays of 64-bit words. */
SQZ_BITS_BYTES4_FN(sqz_bits_list_bytes4, sqz_u64)

#endif /* SQZ_BITS_LIST_H */
