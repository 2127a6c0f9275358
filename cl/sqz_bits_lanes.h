/* sqz_bits_lanes.h — layout bits on fractals by lanes: 32 sub-tiles stepped at once, bit i of every word one sub-tile, so that a cell's 8 neighbours are 8 whole words; for host C and OpenCL C. */
#ifndef SQZ_BITS_LANES_H
#define SQZ_BITS_LANES_H
/* Needs sqz_common.h, sqz_bits.h and sqz_bits_box.h first.
 *
 * The list step (sqz_bits_list.h) keeps a sub-tile box in a 64-bit 8 x 8 bitboard, where the
 * Sierpiński triangle's box holds 27 cells: most of every word is holes. All sub-tiles of one
 * level are the same shape, so here a group steps `lanes` <= 32 of them side by side, "transposed":
 * position p of the group's area is one cell (or a cell of the ring around the sub-tile) and its
 * 32-bit word holds that cell of every lane (bit i: lane i). A step of a position is its 8
 * neighbour positions' words (the plan's table) through sqz_bits_count8 and the rule: every bit a
 * cell, no hole in any word, no shift or mask.
 *
 * A lane is a level-u sub-tile (u <= t, t the storage tile level, src/layouts/bits/bits.h) with K = k^u
 * cells; a tile holds L = k^(t - u) of them and a group the L m lanes of m whole tiles (L m <=
 * 32), so that the group's pack writes whole tile words. Positions come in blocks of 32: block
 * (d, w) holds cells 32 w .. 32 w + 31 (in digit order) of each lane's neighbour sub-tile in
 * direction d (d = (dy + 1) 3 + dx + 1; 4: the lane's own), filled by one 32 x 32 bit transpose
 * of the lanes' 32-bit pieces (sqz_bits_transpose32). The own blocks come first (w = 0 ..
 * ceil(K / 32) - 1), then, for each direction, the blocks of the neighbour that hold a cell
 * within `depth` cells (Chebyshev) of one of the lane's own cells, not of its square. A position
 * past K in its block, and one whose neighbour is no position, reads the empty word `npos`
 * (always 0). A block of a direction in which a lane's sub-tile has no neighbour (absent, or
 * past the fractal) is 0 in that lane and stays 0: each intermediate step ANDs block (d, w)
 * with dmask[d], the lanes that have that neighbour. So after T <= depth steps the own positions
 * are exact; the last step computes only them.
 *
 * The plan (one uint array `tab`, built by the host, src/layouts/bits/bits_lanes.c) starts with the
 * header below; then the blocks (d | w << 4) and, from a multiple of 4 words, the neighbours: 4
 * words a position, NW, N, NE, W, E, SW, S, SE as 16-bit halves, low half first, each the byte
 * offset 4 q of the neighbour's position q in an area (4 npos: the empty word), so that a kernel
 * adds it to a fixed local address. */

#define SQZ_BLN_DEPTH 0u  /* steps a launch at most */
#define SQZ_BLN_NPOS 1u   /* positions: 32 x blocks (< 2^14); the empty word is position npos */
#define SQZ_BLN_NOWN 2u   /* own positions: 32 ceil(K / 32) */
#define SQZ_BLN_K 3u      /* cells of a lane's sub-tile, k^u */
#define SQZ_BLN_L 4u      /* sub-tiles of a tile, k^(t - u) */
#define SQZ_BLN_LANES 5u  /* lanes of a group: L m */
#define SQZ_BLN_LEVEL 6u  /* u */
#define SQZ_BLN_BLK 7u    /* offset of the blocks */
#define SQZ_BLN_NB 8u     /* offset of the neighbours */
#define SQZ_BLN_HEADER 12u

/* Transposes the 32 x 32 bit matrix a in place: bit j of a[i] becomes bit i of a[j]. Five rounds
 * swap the off-diagonal blocks of side 16, 8, 4, 2 and 1 (the bits of a[r] above the block and
 * those of a[r + h] below it). */
SQZ_FN void sqz_bits_transpose32(sqz_u32 *a) {
  const sqz_u32 masks[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u};
  SQZ_BB_UNROLL
  for (sqz_u32 round = 0u; round < 5u; round++) {
    sqz_u32 h = 16u >> round, m = masks[round];
    SQZ_BB_UNROLL
    for (sqz_u32 r = 0u; r < 32u; r++) {
      if (r & h) continue;
      sqz_u32 x = ((a[r] >> h) ^ a[r + h]) & m;
      a[r] ^= x << h;
      a[r + h] ^= x;
    }
  }
}

/* The 32 bits of the bit array src (nw words) from bit o; past its end, 0. */
SQZ_FN sqz_u32 sqz_bits_lanes_piece(const SQZ_BITS_GLOBAL sqz_u32 *src, sqz_u64 o, sqz_u64 nw) {
  sqz_u64 w = o >> 5;
  sqz_u32 sh = (sqz_u32)o & 31u, v = w < nw ? src[w] >> sh : 0u;
  if (sh && w + 1u < nw) v |= src[w + 1u] << (32u - sh);
  return v;
}

/* The word at byte offset o of area a. */
#define SQZ_BITS_LANES_AT(a, o) (*(const SQZ_BITS_LOCAL sqz_u32 *)((const SQZ_BITS_LOCAL unsigned char *)(a) + (o)))

/* The next word of position p from area `in`: its 4 neighbour words n01 .. n67 (the plan's byte
 * offsets) and a Life-like rule (birth, survive: bit n for n neighbours). */
SQZ_FN sqz_u32 sqz_bits_lanes_next(const SQZ_BITS_LOCAL sqz_u32 *in, sqz_u32 p, sqz_u32 n01, sqz_u32 n23, sqz_u32 n45,
                                   sqz_u32 n67, sqz_u32 birth, sqz_u32 survive) {
  sqz_u32 pl[4];
  sqz_bits_count8(SQZ_BITS_LANES_AT(in, n01 & 0xffffu), SQZ_BITS_LANES_AT(in, n01 >> 16),
                  SQZ_BITS_LANES_AT(in, n23 & 0xffffu), SQZ_BITS_LANES_AT(in, n23 >> 16),
                  SQZ_BITS_LANES_AT(in, n45 & 0xffffu), SQZ_BITS_LANES_AT(in, n45 >> 16),
                  SQZ_BITS_LANES_AT(in, n67 & 0xffffu), SQZ_BITS_LANES_AT(in, n67 >> 16), pl);
  return sqz_bits_rule(in[p], pl, 4, birth, survive);
}

#endif /* SQZ_BITS_LANES_H */
