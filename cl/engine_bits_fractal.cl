/* engine_bits_fractal.cl — layout bits on fractals: tiles expanded into dense bitmaps in local memory, bit-sliced Life, packed back; by sub-tile boxes, in a list or a window (sqz_bits_fractal_box), or a cell at a time (sqz_bits_fractal_step). */
/* A field in parts (src/core/field_parts.h; built with SQZ_PARTED, needs sqz_parts.h): the steps
 * take the part's view as last arguments, launch positions [first, end) are units (tiles)
 * sqz_units_at of the view's set, and every tile, own or neighbour, is read and written at its
 * slot sqz_part_slot (-1: a tile the part neither owns nor copies, read as empty). One buffer: no
 * arguments, positions are tiles, slots are tiles. */
#ifdef SQZ_PARTED
#define BITS_PART_ARGS , ulong first, ulong pu0, ulong pu1, ulong pnh, __global const ulong *phalo, ulong prn, \
                         __global const ulong *pruns
#define BITS_FIRST first
#define BITS_TILE(pos) sqz_units_at((pos), prn, pruns)
#define BITS_SLOT(g) bits_slot((g), pu0, pu1, pnh, phalo)
static inline long bits_slot(long g, ulong u0, ulong u1, ulong n_halo, __global const ulong *halo) {
  return g < 0 ? g : sqz_part_slot((ulong)g, u0, u1, n_halo, halo);
}
#else
#define BITS_PART_ARGS
#define BITS_FIRST 0ul
#define BITS_TILE(pos) (pos)
#define BITS_SLOT(g) (g)
#endif

/* Each program holds the kernels it is built for (PoCL compiles every kernel of a program): the
 * one-step kernel with a rule (SQZ_BITS_B), the fill without one, the box step alone. */
#if defined(SQZ_BITS_B) && !defined(SQZ_KERNEL_sqz_bits_fractal_box)
/* sqz_bits_fractal_step (SQZ_ENGINE=generic, and where the box window does not fit in local
 * memory): one work-group per tile, one step. Needs sqz_common.h, sqz_fractal.h and sqz_bits.h.
 * Tile b (digit order at level rb = R - t) holds k^t cells in wt words from word b * wt; lam[l] = x | y << 16 is tile cell l's place
 * and nu[y * side + x] (stored after lam) its index (-1: a hole), then the nw dense words
 * q = (y - 1) * rw + j that hold a cell; fr = H_λ (2k entries) then H_ν (s^2). The dense
 * bitmap has side + 2 rows of rw words, tile cell (x, y) at bit x + 1 of row y + 1. */
__kernel void sqz_bits_fractal_step(__global const uint *src, __global uint *dst, __global const uint *lam,
                                    __constant int *fr, uint s, uint k, uint rb, uint side,
                                    uint kt, uint wt, uint nw, uint birth, uint survive, ulong tile0,
                                    __local uint *dense, __local uint *res BITS_PART_ARGS) {
  __local long nb[9];
  __global const int *nu = (__global const int *)(lam + kt);
  __global const uint *wl = lam + kt + side * side;
#ifdef SQZ_BITS_B /* the rule as constants: the compiler unrolls the rule's count tests */
  birth = SQZ_BITS_B;
  survive = SQZ_BITS_S;
#endif
  ulong b = BITS_TILE(tile0 + get_group_id(0)); /* tile0: a launch position */
  uint lid = (uint)get_local_id(0), ls = (uint)get_local_size(0), rw = (side + 33u) / 32u;
  if (lid < 9u) nb[lid] = BITS_SLOT(sqz_fr_neighbour_of(s, k, fr, rb, b, lid));
  for (uint q = lid; q < (side + 2u) * rw; q += ls) dense[q] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  __global const uint *own = src + (ulong)BITS_SLOT((long)b) * wt;
  for (uint l = lid; l < kt; l += ls)
    if ((own[l >> 5] >> (l & 31u)) & 1u) {
      uint x = (lam[l] & 0xFFFFu) + 1u, y = (lam[l] >> 16) + 1u;
      atomic_or(&dense[y * rw + (x >> 5)], 1u << (x & 31u));
    }
  for (uint p = lid; p < 4u * side + 4u; p += ls) {
    uint cx, cy, lx, ly, d = sqz_bits_halo(side, p, &cx, &cy, &lx, &ly);
    int l = nb[d] < 0 ? -1 : nu[ly * side + lx];
    if (l >= 0 && ((src[(ulong)nb[d] * wt + ((uint)l >> 5)] >> ((uint)l & 31u)) & 1u))
      atomic_or(&dense[cy * rw + (cx >> 5)], 1u << (cx & 31u));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < nw; i += ls) { /* the dense words that hold cells */
    uint q = wl[i];
    SQZ_BITS_DENSE_STEP(dense, rw, q / rw + 1u, q % rw, birth, survive, res[q]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = lid; w < wt; w += ls) {
    uint v = 0u;
    for (uint i = 0u, l = w * 32u; i < 32u && l < kt; i++, l++) {
      uint x = (lam[l] & 0xFFFFu) + 1u, y = lam[l] >> 16;
      v |= ((res[y * rw + (x >> 5)] >> (x & 31u)) & 1u) << i;
    }
    dst[(ulong)BITS_SLOT((long)b) * wt + w] = v;
  }
}

#endif

#ifndef SQZ_BITS_B
/* Word w of tile b from item b * wt + w, items [item0, items) at dst[item - base] (a part: base =
 * u0 wt, its own words): cell (x, y) alive iff sqz_random_cell(seed, y N + x). */
__kernel void sqz_bits_fractal_fill(__global uint *dst, __global const uint *lam, __constant int *fr, uint s, uint k,
                                    uint rb, uint side, uint kt, uint wt, ulong n, ulong seed, ulong threshold,
                                    ulong item0, ulong items, ulong base) {
  ulong item = item0 + get_global_id(0), b = item / wt;
  if (item >= items) return;
  uint w = (uint)(item % wt), bx, by, v = 0u;
  sqz_fr_lambda(s, k, fr, rb, b, &bx, &by);
  for (uint i = 0u, l = w * 32u; i < 32u && l < kt; i++, l++) {
    ulong x = (ulong)bx * side + (lam[l] & 0xFFFFu), y = (ulong)by * side + (lam[l] >> 16);
    v |= sqz_random_cell(seed, y * n + x, threshold) << i;
  }
  dst[item - base] = v;
}
#endif

#ifdef SQZ_KERNEL_sqz_bits_fractal_box
/* The step by boxes (sqz_bits_fractal_box below), its two plans' areas and phases.
 * Window (cl/sqz_bits_box.h): `area` holds two cell areas of R x rw words (a, then b) and, for
 * steps > 1, the mask area; the window is filled by the plan's fill tasks (whole words, no
 * atomics), stepped by its step tasks. Words that no task writes (guard words, and in b whatever
 * no step task covers) are zeroed once per group and stay 0, as every tile writes the same
 * positions.
 * List (SQZ_BITS_LIST, cl/sqz_bits_list.h; needs sqz_bits_list.h): `area` holds the boxes a, the
 * boxes b and the masks, ne + 1 64-bit words each (entry ne: the empty box, set once per group);
 * the last step computes only the own boxes.
 * Bytes (SQZ_BITS_BYTES): src and dst are a u8 state in compact order (tile b at byte b wt: wt is
 * the tile's bytes), the boxes filled from its bytes (any non-zero byte alive), the tile's cells
 * gathered into a bit array in local memory (list: in the masks' area, 64-bit words; window: past
 * the three areas, whatever the steps) and stored as bytes 0/1; no parts. */
#ifdef SQZ_BITS_BYTES
#define BITS_BYTES 1u
#else
#define BITS_BYTES 0u
#endif

/* The neighbour entries a work-item keeps in registers (SQZ_BITS_HOIST = H: those of entries
 * lid, lid + ls, .. lid + (H - 1) ls, one uint8 each), for the list's steps on GPUs. */
#ifdef SQZ_BITS_HOIST
#define BITS_HOIST_N SQZ_BITS_HOIST
#else
#define BITS_HOIST_N 1
#endif
typedef struct {
  uint8 e[BITS_HOIST_N];
} bits_mine;

#ifdef SQZ_BITS_LIST
#define BITS_AREA ulong
#define BITS_BYTES4 sqz_bits_list_bytes4 /* a bit array of 64-bit words */
#else
#define BITS_AREA uint
#define BITS_BYTES4 sqz_bits_bytes4
#endif

/* The tile's kt bytes of a u8 state from byte b0 of dst, from its bit array arr: whole aligned
 * words inside the tile, the bytes at its ends (words shared with the tiles beside) one at a time. */
static inline void bits_store_bytes(__global uint *dst, __local const BITS_AREA *arr, ulong b0, uint kt, uint lid,
                                    uint ls) {
  ulong end = b0 + kt, a0 = (b0 + 3u) >> 2, a1 = end >> 2;
  uint nw = a1 > a0 ? (uint)(a1 - a0) : 0u, head = nw ? (uint)(4u * a0 - b0) : kt;
  uint n = nw ? nw + head + (uint)(end - 4u * a1) : kt;
  __global uint *d = dst + a0; /* word i: cells head + 4 i .. + 3 */
  for (uint i = lid; i < nw; i += ls) d[i] = BITS_BYTES4(arr, head + 4u * i);
  for (uint j = lid; j < n - nw; j += ls) {
    ulong at = j < head ? b0 + j : 4u * a1 + (j - head);
    ((__global uchar *)dst)[at] = (uchar)BITS_BYTES4(arr, (uint)(at - b0));
  }
}

#ifdef SQZ_BITS_LIST
/* The list's phases (cl/sqz_bits_list.h): `area` holds the boxes a, the boxes b and the masks,
 * ne + 1 64-bit words each; entry ne, the empty box, is set once per group and never written. */
static inline uint bits_area_words(__global const uint *tab) { return tab[SQZ_BL_NE] + 1u; }
static inline void bits_group_start(__local ulong *area, __global const uint *tab, uint lid, uint ls) {
  uint ne = tab[SQZ_BL_NE];
  if (lid == 0u) area[ne] = area[2u * ne + 1u] = 0u;
}
static inline void bits_fill(__global const uint *src, __global const uint *tab, __local const long *nb, uint wt,
                             ulong nbytes, __local ulong *a, __local ulong *m, uint steps, uint lid, uint ls) {
  for (uint e = lid; e < tab[SQZ_BL_NE]; e += ls) sqz_bits_list_fill(src, tab, nb, wt, SQZ_BITS_KQ, BITS_BYTES, nbytes, e, a, m);
}
/* Step st of `steps` from in to out: every entry, the last step only the own ones; on GPUs
 * (SQZ_BITS_HOIST = H) with ne <= H ls each work-item's entries' neighbours come in `mine`, read once. */
static inline void bits_step(__global const uint *tab, __local const ulong *in, __local ulong *out,
                             __local const ulong *m, bits_mine mine, uint st, uint steps, uint birth, uint survive,
                             uint lid, uint ls) {
  uint ne = tab[SQZ_BL_NE], n = st < steps ? ne : tab[SQZ_BL_NSUB];
  __global const uint4 *nb4 = (__global const uint4 *)(tab + tab[SQZ_BL_NB]); /* 16-byte aligned */
#ifdef SQZ_BITS_HOIST
  if (ne <= BITS_HOIST_N * ls) { /* at most H entries a work-item */
    SQZ_BB_UNROLL
    for (uint h = 0u; h < BITS_HOIST_N; h++) {
      uint e = lid + h * ls;
      uint8 w = mine.e[h];
      if (e < n) {
        ulong v = SQZ_BITS_LIST_NEXT(in, e, w.s0, w.s1, w.s2, w.s3, w.s4, w.s5, w.s6, w.s7, SQZ_BITS_BOX, birth, survive);
        out[e] = st < steps ? v & m[e] : v;
      }
    }
    return;
  }
#endif
  for (uint e = lid; e < n; e += ls) {
    uint4 w = nb4[e];
    ulong v = sqz_bits_list_step(in, w.s0, w.s1, w.s2, w.s3, e, SQZ_BITS_BOX, birth, survive);
    out[e] = st < steps ? v & m[e] : v;
  }
}
#ifdef SQZ_BITS_BYTES
/* The tile's cells as a bit array of 64-bit words (two storage words of the plan each) in the
 * masks' area, from the result res. */
static inline __local ulong *bits_cells(__global const uint *tab, __local const ulong *res, __local ulong *m,
                                         __local ulong *area, uint kt, uint lid, uint ls) {
  for (uint j = lid; j <= (kt + 63u) / 64u; j += ls)
    m[j] = sqz_bits_list_pack(res, tab, SQZ_BITS_BOX, SQZ_BITS_KQ, 2u * j) |
           (ulong)sqz_bits_list_pack(res, tab, SQZ_BITS_BOX, SQZ_BITS_KQ, 2u * j + 1u) << 32;
  barrier(CLK_LOCAL_MEM_FENCE);
  return m;
}
#endif
#define BITS_PACK sqz_bits_list_pack
#else
/* The window's phases (cl/sqz_bits_box.h): `area` holds two cell areas of R x rw words (a, then b),
 * the mask area and (bytes) the tile's bit array; words that no task writes (guard words, and in
 * b whatever no step task covers) are zeroed once per group and stay 0, as every tile writes the
 * same positions. */
static inline uint bits_area_words(__global const uint *tab) { return tab[SQZ_BB_ROWS] * tab[SQZ_BB_RW]; }
static inline void bits_group_start(__local uint *area, __global const uint *tab, uint lid, uint ls) {
  for (uint i = lid; i < 2u * bits_area_words(tab); i += ls) area[i] = 0u;
}
static inline void bits_fill(__global const uint *src, __global const uint *tab, __local const long *nb, uint wt,
                             ulong nbytes, __local uint *a, __local uint *m, uint steps, uint lid, uint ls) {
  for (uint i = lid; i < tab[SQZ_BB_NFILL]; i += ls)
    sqz_bits_box_fill(src, tab, nb, wt, SQZ_BITS_BOX, SQZ_BITS_KQ, BITS_BYTES, nbytes, i, a, m, steps > 1u);
}
static inline void bits_step(__global const uint *tab, __local const uint *in, __local uint *out,
                             __local const uint *m, bits_mine mine, uint st, uint steps, uint birth, uint survive, uint lid,
                             uint ls) {
  uint rows = tab[SQZ_BB_ROWS], rw = tab[SQZ_BB_RW];
  __global const uint *tasks = tab + tab[SQZ_BB_STEP];
  for (uint i = lid; i < tab[SQZ_BB_NSTEP]; i += ls) {
    uint task = tasks[i], yb, ya = sqz_bits_box_rows(task, st, rows, &yb);
    if (ya < yb) sqz_bits_box_column(in, out, m, st < steps, rw, task & 0xffu, ya, yb, birth, survive);
  }
}
#ifdef SQZ_BITS_BYTES
/* The tile's cells as a bit array of 32-bit words past the three areas (whatever the steps), from
 * the result res. */
static inline __local uint *bits_cells(__global const uint *tab, __local const uint *res, __local uint *m,
                                        __local uint *area, uint kt, uint lid, uint ls) {
  __local uint *arr = area + 3u * bits_area_words(tab);
  for (uint w = lid; w <= (kt + 31u) / 32u; w += ls)
    arr[w] = w < (kt + 31u) / 32u ? sqz_bits_box_pack(res, tab, SQZ_BITS_BOX, SQZ_BITS_KQ, w) : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  return arr;
}
#endif
#define BITS_PACK sqz_bits_box_pack
#endif

/* The tile's storage from the result res: the plan's words of bits, or (bytes) bytes from the
 * tile's bit array (bits_cells). */
static inline void bits_store(__global uint *dst, __global const uint *tab, __local const BITS_AREA *res,
                              __local BITS_AREA *m, __local BITS_AREA *area, ulong w0, uint wt, uint lid, uint ls) {
#ifdef SQZ_BITS_BYTES
  bits_store_bytes(dst, bits_cells(tab, res, m, area, wt, lid, ls), w0, wt, lid, ls);
#else
  for (uint w = lid; w < wt; w += ls) dst[w0 + w] = BITS_PACK(res, tab, SQZ_BITS_BOX, SQZ_BITS_KQ, w);
#endif
}

/* The step by boxes, `steps` steps a launch (at most the plan's depth): each group steps tiles b =
 * group, + groups, ...; per tile the 9 tiles around it (ν once per tile, while the previous
 * tile is stored), the fill, the steps between the areas a and b (intermediate ones masked), the
 * tile's storage from the result (the phases above). Needs sqz_bits_box.h (and sqz_bits_list.h),
 * SQZ_BITS_BOX (the box side) and SQZ_BITS_KQ (its cells); SQZ_BITS_LIST: the list's plan, else
 * the window's; SQZ_BITS_BYTES: a u8 state. */
__kernel void sqz_bits_fractal_box(__global const uint *restrict src, __global uint *restrict dst,
                                   __global const uint *restrict tab, __constant int *fr, uint s, uint k, uint rb,
                                   uint wt, ulong tiles, uint steps, uint birth, uint survive,
                                   __local BITS_AREA *area BITS_PART_ARGS) {
  __local long nb[9];
#ifdef SQZ_BITS_B
  birth = SQZ_BITS_B;
  survive = SQZ_BITS_S;
#endif
#ifdef SQZ_BITS_FR_S /* s and k as constants: the tile neighbours' λ and ν divide by them at every level */
  s = SQZ_BITS_FR_S;
  k = SQZ_BITS_FR_K;
#endif
  uint lid = (uint)get_local_id(0), ls = (uint)get_local_size(0), an = bits_area_words(tab);
  __local BITS_AREA *a = area, *bb = area + an, *m = area + 2u * an;
  ulong nbytes = BITS_BYTES ? tiles * wt : 0u; /* a u8 state: wt bytes a tile */
  bits_mine mine;
  SQZ_BB_UNROLL
  for (uint h = 0u; h < BITS_HOIST_N; h++) {
    mine.e[h] = (uint8)(0u);
#ifdef SQZ_BITS_HOIST /* GPUs: with ne <= H ls, the neighbour entries of entries lid + h ls kept in registers from here */
    uint ne = an - 1u, e = lid + h * ls; /* the list's areas hold ne + 1 boxes */
    if (ne <= BITS_HOIST_N * ls && e < ne) {
      uint4 w = ((__global const uint4 *)(tab + tab[SQZ_BL_NB]))[e];
      mine.e[h] = (uint8)(w.s0 & 0xffffu, w.s0 >> 16, w.s1 & 0xffffu, w.s1 >> 16, w.s2 & 0xffffu, w.s2 >> 16,
                          w.s3 & 0xffffu, w.s3 >> 16);
    }
#endif
  }
  bits_group_start(area, tab, lid, ls);
  ulong b = BITS_FIRST + get_group_id(0), stride = get_num_groups(0); /* b: a launch position, tiles its end */
  if (lid < 9u && b < tiles) /* the neighbours of the first tile */
    nb[lid] = BITS_SLOT(sqz_fr_neighbour_of(s, k, fr, rb, BITS_TILE(b), lid));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (; b < tiles; b += stride) { /* uniform over the group */
    ulong w0 = (ulong)BITS_SLOT((long)BITS_TILE(b)) * wt; /* the tile's first storage word (byte) */
    bits_fill(src, tab, nb, wt, nbytes, a, m, steps, lid, ls);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint st = 1u; st <= steps; st++) {
      bits_step(tab, (st & 1u) ? a : bb, (st & 1u) ? bb : a, m, mine, st, steps, birth, survive, lid, ls);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* the neighbours of the group's next tile, while the tile is stored (during the steps, PoCL 3.1
     * ran the bytes window's second tile with the first one's neighbours) */
    if (lid < 9u && b + stride < tiles) nb[lid] = BITS_SLOT(sqz_fr_neighbour_of(s, k, fr, rb, BITS_TILE(b + stride), lid));
    bits_store(dst, tab, (steps & 1u) ? bb : a, m, area, w0, wt, lid, ls);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif
