/* engine_fractal_swar.cl — the fast Life step on u8 fractal tiles (block:RHO, compact): row-major tile caches, four cells per 32-bit word. */
/* Built with engine_fractal.cl and sqz_swar.h into a program of its own (SQZ_KERNEL_engine_fractal_swar); defined for 1-byte cells
 * and 8 neighbours only (the host picks it for the built-in Life rule on u8 cells, whose
 * states are 0 and 1; every other update runs the generic kernels).
 *
 * Work-group: `per_iter` consecutive tiles per iteration, iterating over the tiles
 * b0 = group * per_iter, + groups * per_iter, ... (persistent groups). Per tile, a local
 * cache of rows + 2 rows of `wrow` bytes (tile cell (x, y) at row y + 1, column x + 4; the
 * left halo at column 3, the right one at column rows + 4; wrow = 4 (ceil(rows / 4) + 2))
 * and an output area of `rows` rows of wrow bytes. Each iteration:
 *  1. neighbour tiles: ν_b of the 9 tiles around each tile (GPUs: the ±1 carried through the
 *     tile's lowest digits, fr_swar_neighbours_carry; CPU devices: λ_b and ν_b digit loops);
 *  2. own cells: the group's byte range of storage read as aligned 32-bit words (bytes at
 *     either end of the range one by one) and scattered to the cache through pos[l] (the
 *     cache position of tile cell l, shared by every tile: tiles of a level have one shape;
 *     a hole of the block layout has pos = wrow, column 0 of cache row 1, which the step
 *     never reads, so that its output position, column 0 of output row 0, is never written
 *     and stays 0; block tiles with rows % 4 == 0 move whole words instead, holes masked);
 *  3. halo: the halo table (cache position | direction << 24, offset in that tile) read from
 *     the neighbour tiles, 0 where the neighbour tile is absent;
 *  4. the step: one work-item per task (word column c, row segment of `seg` rows; the task
 *     list holds only the blocks that contain a fractal cell) walks down its column keeping
 *     the horizontal 3-sums of three rows: per byte, left + self + right <= 3, three rows
 *     plus 8 self <= 17, so no byte carries into the next; the rule (birth | survive << 9)
 *     is looked up per byte;
 *  5. output: the range's words assembled from the output area through pos and stored as
 *     words (bytes at either end one by one, so neighbouring groups never share a word).
 * Positions that are never written (holes, padding, corners) are zeroed once per group and
 * stay 0, as every iteration writes the same positions. Little-endian devices only (the host
 * checks). */
#if SQZ_CELL_BYTES == 1 && SQZ_NB == 8 && (defined(SQZ_KERNEL_engine_fractal_swar) || defined(SQZ_KERNEL_engine_fractal_swar_t))
/* each kernel alone in its program (sqz__program_kernel) */

#if SQZ_SWAR_WORD != 8
/* The divisions by a divisor d that is the same for the whole launch (te, n_halo, n_tasks) as a
 * multiply-high by m = fr_swar_magic(d), computed once per work-item:
 * floor((2^32 - 1) / d) + 1 = 2^32 / d + e (0 <= e < 1), so that for n d < 2^32 (the host keeps
 * per_iter d^2 < 2^32, and every dividend n is below per_iter d) n m / 2^32 = n / d + n e / 2^32,
 * whose second term is below 1 / d: mul_hi(n, m) = floor(n / d). d = 1: m = 0, n itself (d = 0:
 * no dividends). */
static inline uint fr_swar_magic(uint d) { return d > 1u ? 0xffffffffu / d + 1u : 0u; }
static inline uint fr_swar_div(uint n, uint m) { return m ? mul_hi(n, m) : n; }

/* Steps 2 and 5: the group's storage bytes [q0, q1) (tiles of te cells, mte: fr_swar_magic of te)
 * between global memory and the tile caches. load: storage -> cache at the cache position of tile
 * cell l; else cache output area -> storage. pos[l] holds the positions of cells l .. l + 3, 16
 * bits each (l's in the low half of x), so that a word's four come in one 8-byte load. Word u of the range (storage word q0 / 4 + u, its bytes 4 u .. 4 u + 3 from
 * q0 & ~3) inside the range and inside one tile moves as one 32-bit access without branches; the
 * words at the range's ends or across a tile boundary byte by byte. */
static inline void fr_swar_move(const int load, __global const uchar *src, __global uchar *dst,
                                __global const uint2 *restrict pos, __global const uint *restrict mask, uint rowmajor,
                                __local uchar *cache, uint tile_bytes, uint out_offset, ulong q0, ulong q1, uint te,
                                uint mte) {
  uint lid = (uint)get_local_id(0), g = (uint)get_local_size(0), o = (uint)q0 & 3u, end = o + (uint)(q1 - q0);
  if (load) src += q0 - o;
  else {
    dst += q0 - o;
    cache += out_offset;
  }
  for (uint u = lid; 4u * u < end; u += g) {
    uint b = 4u * u, first = b < o ? o : b, rel = first - o, t = fr_swar_div(rel, mte), l = rel - t * te;
    __local uchar *c = cache + t * tile_bytes;
    if (rowmajor) { /* block, rho % 4 == 0: every word is 4 cells of one tile row, one aligned cache word */
      __local uint *cw = (__local uint *)(c + (pos[l].x & 0xffffu));
      if (load) *cw = ((__global const uint *)src)[u];
      else ((__global uint *)dst)[u] = *cw & mask[l >> 2];
      continue;
    }
    if (b >= o && b + 4u <= end && l + 4u <= te) {
      uint2 pp = pos[l];
      uint p0 = pp.x & 0xffffu, p1 = pp.x >> 16, p2 = pp.y & 0xffffu, p3 = pp.y >> 16;
      if (load) {
        uint v = ((__global const uint *)src)[u];
        c[p0] = (uchar)v;
        c[p1] = (uchar)(v >> 8);
        c[p2] = (uchar)(v >> 16);
        c[p3] = (uchar)(v >> 24);
      } else {
        ((__global uint *)dst)[u] = (uint)c[p0] | (uint)c[p1] << 8 | (uint)c[p2] << 16 | (uint)c[p3] << 24;
      }
      continue;
    }
    for (uint e = first; e < b + 4u && e < end; e++) {
      uint p = pos[l].x & 0xffffu;
      if (load) c[p] = src[e];
      else dst[e] = c[p];
      if (++l == te) {
        l = 0u;
        c += tile_bytes;
      }
    }
  }
}
#endif

/* A part's view of the tiles (cl/sqz_parts.h): own tiles [u0, u1) then the pnh halo tiles, and
 * the launch's unit set (launch position p is tile sqz_units_at(p, prn, pruns); prn = 0: tile p).
 * One buffer: u0 = 0, u1 = tiles, pnh = 0, prn = 0. */
#define FR_SWAR_PART_ARGS , ulong pu0, ulong pu1, ulong pnh, __global const ulong *phalo, ulong prn, __global const ulong *pruns
#define FR_SWAR_PART_PASS , pu0, pu1, pnh, phalo, prn, pruns

/* The 9 tiles around the tiles at launch positions p0 .. p0 + nt - 1 into nbr (9 per tile) as
 * slots of this buffer (ν_b through the unit remap), -1 outside the fractal. */
static inline void fr_swar_neighbours(__local long *nbr, uint levels, ulong p0, uint nt FR_SWAR_PART_ARGS) {
  for (uint i = (uint)get_local_id(0); i < 9u * nt; i += (uint)get_local_size(0)) {
    uint t = i / 9u, d = i - 9u * t, bx, by;
    ulong b = sqz_units_at(p0 + t, prn, pruns);
    FR_LAMBDA(levels, b, &bx, &by);
    long nb = d == 4u ? (long)b : sqz_fr_tile_neighbour(SQZ_FR_S, SQZ_FR_K, sqz_fr_hnu, levels, bx, by, d);
    nbr[i] = nb < 0 ? nb : sqz_part_slot((ulong)nb, pu0, pu1, pnh, phalo);
  }
}

#if SQZ_SWAR_WORD != 8
/* fr_swar_neighbours for GPUs, without the λ and ν loops over all levels (fr_tile_carry). */
static inline void fr_swar_neighbours_carry(__local long *nbr, uint levels, ulong p0, uint nt FR_SWAR_PART_ARGS) {
  for (uint i = (uint)get_local_id(0); i < 9u * nt; i += (uint)get_local_size(0)) {
    uint t = i / 9u, d = i - 9u * t;
    long nb = fr_tile_carry(levels, sqz_units_at(p0 + t, prn, pruns), d);
    nbr[i] = nb < 0 ? nb : sqz_part_slot((ulong)nb, pu0, pu1, pnh, phalo);
  }
}

/* Steps 2 and 5 for the nt tiles at launch positions p0 ..: each stretch of them that is
 * consecutive tiles (all of them unless a unit set splits them) moves as one storage byte range
 * (fr_swar_move). Uniform over the group. */
static inline void fr_swar_moves(const int load, __global const uchar *src, __global uchar *dst,
                                 __global const uint2 *restrict pos, __global const uint *restrict mask, uint rowmajor,
                                 __local uchar *cache, uint tile_bytes, uint out_offset, ulong p0, uint nt, uint te,
                                 uint mte, ulong pu0, ulong prn, __global const ulong *pruns) {
  for (uint t = 0u; t < nt;) {
    ulong end = sqz_units_run_end(p0 + t, prn, pruns), q0 = (sqz_units_at(p0 + t, prn, pruns) - pu0) * te;
    uint t1 = end - p0 < (ulong)nt ? (uint)(end - p0) : nt;
    fr_swar_move(load, src, dst, pos, mask, rowmajor, cache + t * tile_bytes, tile_bytes, out_offset, q0,
                 q0 + (ulong)(t1 - t) * te, te, mte);
    t = t1;
  }
}

#endif

#if SQZ_SWAR_WORD != 8

/* The halo of nt tiles into their caches from the halo table (pairs cache position | direction
 * << 24, offset in that tile; 8-byte aligned), 0 where the neighbour tile is absent; mh:
 * fr_swar_magic of n_halo. */
static inline void fr_swar_halo(__local uchar *cb, __global const uchar *src, __global const uint *restrict halo,
                                __local const long *nbr, uint n_halo, uint mh, uint nt, uint tile_bytes, uint te) {
  for (uint i = (uint)get_local_id(0); i < nt * n_halo; i += (uint)get_local_size(0)) {
    uint t = fr_swar_div(i, mh);
    uint2 e = ((__global const uint2 *)halo)[i - t * n_halo];
    long tb = nbr[9u * t + (e.x >> 24)];
    cb[t * tile_bytes + (e.x & 0xffffffu)] = tb < 0 ? (uchar)0 : src[(ulong)tb * te + e.y];
  }
}

/* Rows y0 .. y1 - 1 of word column c stepped from `in` into `out` (row-major areas of w4 words per
 * row, rows y0 - 1 .. y1 read), each result word ANDed with `keep` (a mask area, or NULL); the rule
 * by range tests where ranges (sqz_swar_ranges(rule), once per work-item) is not 0. */
static inline void fr_swar_column(__local const uint *in, __local uint *out, __local const uint *keep, uint w4, uint c,
                                  uint y0, uint y1, uint rule, uint ranges) {
  __local const uint *p = in + y0 * w4 + c;
  p -= w4; /* row y0 - 1 (y0 may be 0: no unsigned wrap) */
  uint m0 = p[0], m1 = p[w4];
  uint h0 = sqz_swar_hsum(p[-1], m0, p[1]), h1 = sqz_swar_hsum(p[w4 - 1u], m1, p[w4 + 1u]);
  for (uint y = y0; y < y1; y++) {
    p += w4; /* row y */
    uint m2 = p[w4], h2 = sqz_swar_hsum(p[w4 - 1u], m2, p[w4 + 1u]);
    uint next = sqz_swar_rule_r(h0 + h1 + h2 + (m1 << 3), rule, ranges);
    out[y * w4 + c] = keep ? next & keep[y * w4 + c] : next;
    h0 = h1;
    h1 = h2;
    m1 = m2;
  }
}

/* Steps 1 to 3 for the nt tiles at launch positions p0 ..: their neighbour slots into nbr, then
 * their own cells and halos into the caches (tile_bytes apart). Every work-item of the group
 * calls it. */
static inline void fr_swar_fill(__local uchar *cb, __local long *nbr, __global const uchar *src,
                                __global const uint2 *restrict pos, __global const uint *restrict mask, uint rowmajor,
                                __global const uint *restrict halo, uint n_halo, uint mh, uint levels, ulong p0,
                                uint nt, uint tile_bytes, uint te, uint mte FR_SWAR_PART_ARGS) {
  fr_swar_neighbours_carry(nbr, levels, p0, nt FR_SWAR_PART_PASS);
  barrier(CLK_LOCAL_MEM_FENCE);
  fr_swar_moves(1, src, NULL, pos, mask, rowmajor, cb, tile_bytes, 0u, p0, nt, te, mte, pu0, prn, pruns);
  fr_swar_halo(cb, src, halo, nbr, n_halo, mh, nt, tile_bytes, te);
}
#else
/* CPU devices (1-byte words; the host launches groups of one work-item): a group steps its tiles
 * one at a time in one tile cache of (rows + 2) + rows rows of wrow bytes (the tile with its halo,
 * then the output area) and FR_CPU_SLACK bytes that the last chunk of the step may run into (the
 * host counts them in the cache's size: SQZ__SWAR_CPU_SLACK). Every loop is a plain loop over
 * bytes, blocks or whole vectors, without barriers or divisions. */
#define FR_CPU_SLACK 32u

/* 16 and 4 bytes at any address: PoCL's vload16 and vstore16 went in pieces and byte by byte */
typedef uchar16 fr_cpu_bytes16 __attribute__((aligned(1)));
typedef uint fr_cpu_bytes4 __attribute__((aligned(1)));
#define FR_CPU_AT(p, x) (*(__local const fr_cpu_bytes16 *)((p) + (x)))
#define FR_CPU_ROW(p) (*(__local fr_cpu_bytes4 *)(p))

#if defined(SQZ_FR_BLOCK_IN) && defined(__clang__)
/* Compact tiles in blocks of SQZ_FR_BLOCK_KK <= 16 cells, SQZ_FR_BLOCK_ROWS rows of at most 4
 * (the lowest digits: the same pattern in every block; the host's SQZ_FR_BLOCK_* give block
 * position r = 4 row + column -> cell, cell -> r, and r of cell 0): 16 storage bytes from a
 * block's first cell, one byte shuffle, a 4-byte cache row per block row; and back. The blocks
 * whose 16 bytes lie inside the tile (the first n) move so, the rest is left to the caller:
 * returns the first cell not moved. Loads go in the cache's row-major order (order: the first
 * cell of each block), as a block row of 3 writes a 0 past its end into the block on its right,
 * which that block rewrites; stores in storage order, as their bytes past the block's cells are
 * the next block's, which rewrites them. c: the cache (load) or the output area less one row. */
static inline uint fr_cpu_blocks(const int load, __global const uchar *restrict src, __global uchar *restrict dst,
                                 __global const ushort *restrict pos, __global const ushort *restrict order,
                                 __local uchar *c, uint wrow, uint te) {
  uint n = te < 16u ? 0u : (te - 16u) / SQZ_FR_BLOCK_KK + 1u;
  uint r0 = (SQZ_FR_BLOCK_R0 >> 2) * wrow + (SQZ_FR_BLOCK_R0 & 3u);
  for (uint i = 0u; i < n; i++) {
    uint l = load ? order[i] : i * SQZ_FR_BLOCK_KK;
    __local uchar *r = c + pos[l] - r0; /* the block's top-left byte */
    if (load) {
      uchar16 s = *(__global const fr_cpu_bytes16 *)(src + l);
      uint4 v = as_uint4(__builtin_shufflevector(s, (uchar16)(0), SQZ_FR_BLOCK_IN));
      FR_CPU_ROW(r) = v.s0;
      FR_CPU_ROW(r + wrow) = v.s1;
      FR_CPU_ROW(r + 2u * wrow) = v.s2;
      if (SQZ_FR_BLOCK_ROWS > 3u) FR_CPU_ROW(r + 3u * wrow) = v.s3;
    } else {
      uint4 w = (uint4)(FR_CPU_ROW(r), FR_CPU_ROW(r + wrow), FR_CPU_ROW(r + 2u * wrow),
                        SQZ_FR_BLOCK_ROWS > 3u ? FR_CPU_ROW(r + 3u * wrow) : 0u);
      uchar16 v = as_uchar16(w);
      *(__global fr_cpu_bytes16 *)(dst + l) = __builtin_shufflevector(v, v, SQZ_FR_BLOCK_OUT);
    }
  }
  return n * SQZ_FR_BLOCK_KK;
}
#endif

/* A tile's te cells between storage (src or dst, at the tile's first cell) and its cache c (load)
 * or output area less one row (store): mode 1 (block layout, rho % 4 == 0) aligned words of 4
 * cells of a tile row, holes masked on the way out; mode 2 (compact, sqz__swar_blocks on the
 * host) blocks where the device compiler has byte shuffles (order: fr_cpu_blocks); the rest cell
 * by cell through pos (kept scalar: vectorised, the scatter/gather became lane extracts, measured
 * slower). */
static inline void fr_cpu_move(const int load, __global const uchar *restrict src, __global uchar *restrict dst,
                               __global const ushort *restrict pos, __global const ushort *restrict order,
                               __global const uint *restrict mask, uint mode, __local uchar *c, uint wrow, uint te) {
  uint l = 0u;
  if (mode == 1u) {
    __global const uint *s4 = (__global const uint *)src;
    __global uint *d4 = (__global uint *)dst;
    for (uint w = 0u; w < te >> 2; w++) {
      __local uint *cw = (__local uint *)(c + pos[w << 2]);
      if (load) *cw = s4[w];
      else d4[w] = *cw & mask[w];
    }
    return;
  }
#if defined(SQZ_FR_BLOCK_IN) && defined(__clang__)
  if (mode == 2u) l = fr_cpu_blocks(load, src, dst, pos, order, c, wrow, te);
#endif
  if (load) {
#pragma clang loop vectorize(disable)
    for (; l < te; l++) c[pos[l]] = src[l];
  } else {
#pragma clang loop vectorize(disable)
    for (; l < te; l++) dst[l] = c[pos[l]];
  }
}

/* The halo of a tile into its cache c from the halo table (cache position | direction << 24,
 * offset in that tile) and the 9 neighbour slots nbr, 0 where the neighbour tile is absent. */
static inline void fr_cpu_halo(__local uchar *c, __global const uchar *restrict src, __global const uint *restrict halo,
                               __local const long *nbr, uint n_halo, uint te) {
  for (uint h = 0u; h < n_halo; h++) {
    uint e = halo[2u * h];
    long tb = nbr[e >> 24];
    c[e & 0xffffffu] = tb < 0 ? (uchar)0 : src[(ulong)tb * te + halo[2u * h + 1u]];
  }
}

/* The step of a tile cache c into its output area (out_offset on, output row y = cache row y + 1)
 * in the n 16-byte chunks of the table that hold a cell (each the cache position of its first
 * byte, row-major: a chunk running past its row writes padding or the start of the next output
 * row, which that row's chunks rewrite after it, or the slack). Per byte the 8 neighbours' sum n
 * (<= 8: no byte carries) and the rule (birth | survive << 9): on x86 two byte-table lookups
 * (pshufb) of the rule at n, a dead cell's and the change for a live one, exact for Life's states
 * 0 and 1 (1.26 -> 1.04 ms a step, fractal:sierpinski-triangle:13 compact, PoCL, 1 thread);
 * elsewhere the rule's bit n + 9 self. */
static inline void fr_cpu_chunks(__local uchar *c, __global const ushort *restrict chunks, uint n, uint wrow,
                                 uint out_offset, uint rule) {
#ifdef __SSSE3__
  uchar16 tb = 0, tx = 0;
  for (uint e = 0u; e < 9u; e++) {
    tb[e] = (uchar)((rule >> e) & 1u);
    tx[e] = (uchar)(((rule >> e) ^ (rule >> (e + 9u))) & 1u);
  }
#else
  uint16 r = (uint16)(rule);
#endif
  __local uchar *o = c + out_offset - wrow;
  for (uint i = 0u; i < n; i++) {
    uint x = chunks[i];
    __local const uchar *m = c + x, *a = m - wrow, *b = m + wrow;
    uchar16 self = FR_CPU_AT(m, 0);
    uchar16 nb = FR_CPU_AT(a, -1) + FR_CPU_AT(a, 0) + FR_CPU_AT(a, 1) + FR_CPU_AT(m, -1) + FR_CPU_AT(m, 1) +
                 FR_CPU_AT(b, -1) + FR_CPU_AT(b, 0) + FR_CPU_AT(b, 1);
#ifdef __SSSE3__
    uchar16 dead = as_uchar16(__builtin_ia32_pshufb128(as_char16(tb), as_char16(nb)));
    uchar16 change = as_uchar16(__builtin_ia32_pshufb128(as_char16(tx), as_char16(nb)));
    *(__local fr_cpu_bytes16 *)(o + x) = dead ^ (change & ((uchar16)(0) - self));
#else
    uint16 v = convert_uint16(nb + (self << (uchar)3) + self) & 31u;
    *(__local fr_cpu_bytes16 *)(o + x) = convert_uchar16((r >> v) & 1u);
#endif
  }
}

/* Launch position p's tile, all five steps: its neighbour slots into nbr, own cells and halo
 * into the cache c, the step, the output area back to storage. */
static inline void fr_cpu_tile(__local uchar *c, __local long *nbr, __global const uchar *restrict src,
                               __global uchar *restrict dst, __global const uint *restrict tab, uint halo_at,
                               uint task_at, uint n_tasks, uint mask_at, uint mode, uint levels, uint te, uint n_halo,
                               uint rows, uint wrow, uint rule, ulong p FR_SWAR_PART_ARGS) {
  __global const ushort *pos = (__global const ushort *)tab;
  __global const uint *mask = tab + mask_at;
  uint out_offset = (rows + 2u) * wrow;
  __global const ushort *chunks = (__global const ushort *)(tab + task_at);
  __global const ushort *order = (__global const ushort *)(tab + task_at + (n_tasks + 1u) / 2u); /* mode 2 */
  ulong q = (sqz_units_at(p, prn, pruns) - pu0) * te;
  fr_swar_neighbours(nbr, levels, p, 1u FR_SWAR_PART_PASS);
  fr_cpu_move(1, src + q, NULL, pos, order, mask, mode, c, wrow, te);
  fr_cpu_halo(c, src, tab + halo_at, nbr, n_halo, te);
  fr_cpu_chunks(c, chunks, n_tasks, wrow, out_offset, rule);
  fr_cpu_move(0, NULL, dst + q, pos, order, mask, mode, c + out_offset - wrow, wrow, te);
}
#endif

/* The tiles at launch positions [first, tiles) are stepped (all; a part's own units, its buffer
 * holding tile b at slot sqz_part_slot(b, pu0, pu1, pnh, phalo); or a part's unit set through
 * pruns: FR_SWAR_PART_ARGS).
 * tab: the shared tables, pos from word 0 (ushort per cell; 32-bit words: 2 words per cell, those
 * of fr_swar_move), halo pairs from word halo_at, tasks (ushort:
 * word column | segment << 8) from word task_at, and with rowmajor (block layout, rows % 4 == 0:
 * tiles and their rows are whole words, so storage words move to cache words as they are, holes
 * included, their pos being their true cache byte) the hole mask per tile word from mask_at.
 * CPU devices (SQZ_SWAR_WORD 8): the n_tasks 16-byte chunks (ushort, fr_cpu_chunks) from word
 * task_at instead of the tasks, then with rowmajor 2 the block order (fr_cpu_blocks); seg unused. */
#ifdef SQZ_KERNEL_engine_fractal_swar /* not built into engine_fractal_swar_t's program: its helpers stay inlined */
__kernel void engine_fractal_swar(__global const uchar *restrict src, __global uchar *restrict dst, uint rule,
                                  __global const uint *restrict tab, uint halo_at, uint task_at, uint mask_at,
                                  uint rowmajor, uint levels, uint te,
                                  uint n_halo, uint n_tasks, uint rows, uint wrow, uint seg, uint per_iter, ulong tiles,
                                  ulong first FR_SWAR_PART_ARGS, __local uint *cache, __local long *nbr) {
#if SQZ_SWAR_WORD == 8
  /* CPU devices: one work-item, one tile cache (its size: fr_cpu_tile), zeroed once */
  __local uchar *cb = (__local uchar *)cache;
  for (uint i = 0u; i < (2u * rows + 2u) * wrow + FR_CPU_SLACK; i++) cb[i] = 0u;
  ulong stride = (ulong)get_num_groups(0) * per_iter;
  for (ulong b0 = first + (ulong)get_group_id(0) * per_iter; b0 < tiles; b0 += stride)
    for (ulong p = b0; p < b0 + per_iter && p < tiles; p++)
      fr_cpu_tile(cb, nbr, src, dst, tab, halo_at, task_at, n_tasks, mask_at, rowmajor, levels, te, n_halo, rows, wrow,
                  rule, p FR_SWAR_PART_PASS);
  (void)seg;
}
#else
  __global const uint2 *pos = (__global const uint2 *)tab;
  __global const ushort *tasks = (__global const ushort *)(tab + task_at);
  __global const uint *halo = tab + halo_at, *mask = tab + mask_at;
  uint lid = (uint)get_local_id(0), g = (uint)get_local_size(0), w4 = wrow >> 2, ranges = sqz_swar_ranges(rule);
  uint tile_words = (2u * rows + 2u) * w4, tile_bytes = 4u * tile_words, out_offset = (rows + 2u) * wrow;
  uint mte = fr_swar_magic(te), mh = fr_swar_magic(n_halo), mtask = fr_swar_magic(n_tasks);
  __local uchar *cb = (__local uchar *)cache;
  for (uint i = lid; i < per_iter * tile_words; i += g) cache[i] = 0u;
  ulong stride = (ulong)get_num_groups(0) * per_iter;
  for (ulong b0 = first + (ulong)get_group_id(0) * per_iter; b0 < tiles; b0 += stride) { /* uniform over the group */
    uint nt = tiles - b0 < (ulong)per_iter ? (uint)(tiles - b0) : per_iter;
    fr_swar_fill(cb, nbr, src, pos, mask, rowmajor, halo, n_halo, mh, levels, b0, nt, tile_bytes, te,
                 mte FR_SWAR_PART_PASS);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < nt * n_tasks; i += g) { /* cache row y + 1 holds tile row y; output row y at out_offset */
      uint t = fr_swar_div(i, mtask), task = tasks[i - t * n_tasks], c = task & 0xffu, y0 = (task >> 8) * seg;
      uint y1 = y0 + seg < rows ? y0 + seg : rows;
      __local uint *tc = cache + t * tile_words;
      fr_swar_column(tc + w4, tc + (rows + 2u) * w4, NULL, w4, c, y0, y1, rule, ranges);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    fr_swar_moves(0, src, dst, pos, mask, rowmajor, cb, tile_bytes, out_offset - wrow, b0, nt, te, mte, pu0, prn,
                  pruns);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif
#endif
/* Several steps per launch (temporal blocking, engine_fractal_swar_t): each tile is loaded with a
 * halo `depth` cells wide (depth <= 4) and stepped `steps` <= depth times in local memory before
 * its own cells go back, so the loads, the stores, the halo reads and the neighbour slots are
 * paid once per `steps` steps. Per tile three areas of R = rows + 2 depth rows of wrow bytes
 * (wrow = 4 (ceil(rows / 4) + 4)): A and B, between which the steps go back and forth, and K,
 * the mask of the cells that must follow the rule (0xff on a fractal cell of a present tile
 * within the loaded halo, 0 elsewhere: holes, absent tiles and what lies past the halo stay 0).
 * Tile cell (x, y) is at row y + depth, column x + 8; words 0 and w4 - 1 of every row are never
 * written and stay 0. Step s (1 .. steps) computes rows s .. R - s - 1 and words 1 .. w4 - 2:
 * after s steps the cells within depth - s of the tile are exact, as the rows and columns past
 * them were not stepped, so after `steps` <= depth steps the tile is. The word table `kt` (from
 * word bm_at of tab) gives per area word the directions of the tiles of its bytes' cells, at most
 * two (bits 0-3, 4-7), and their bytes (bits 8-11, 12-15; unused: direction 4, no bytes); the
 * tasks (word column, 4-row segment) are the blocks of words 1 .. w4 - 2 that hold a cell: the
 * others are never written, never loaded, and stay 0 (in K too: it is set on the tasks' words
 * only, as only they are read). Parts as engine_fractal_swar. */
#ifdef SQZ_KERNEL_engine_fractal_swar_t
__kernel void engine_fractal_swar_t(__global const uchar *restrict src, __global uchar *restrict dst, uint rule,
                                    __global const uint *restrict tab, uint halo_at, uint bm_at, uint mask_at,
                                    uint task_at, uint n_tasks, uint rowmajor, uint levels, uint te, uint n_halo,
                                    uint rows, uint wrow, uint depth, uint steps, uint per_iter, ulong tiles,
                                    ulong first FR_SWAR_PART_ARGS, __local uint *cache, __local long *nbr) {
  __global const uint2 *pos = (__global const uint2 *)tab;
  __global const ushort *tasks = (__global const ushort *)(tab + task_at);
  __global const uint *halo = tab + halo_at, *mask = tab + mask_at;
  __global const uint *kt = tab + bm_at;
  uint lid = (uint)get_local_id(0), g = (uint)get_local_size(0), w4 = wrow >> 2, R = rows + 2u * depth;
  uint ranges = sqz_swar_ranges(rule);
  uint area = R * w4, tile_words = 3u * area, tile_bytes = 4u * tile_words;
  uint mte = fr_swar_magic(te), mh = fr_swar_magic(n_halo), mtask = fr_swar_magic(n_tasks);
  __local uchar *cb = (__local uchar *)cache;
  for (uint i = lid; i < per_iter * tile_words; i += g) cache[i] = 0u;
  ulong stride = (ulong)get_num_groups(0) * per_iter;
  for (ulong b0 = first + (ulong)get_group_id(0) * per_iter; b0 < tiles; b0 += stride) { /* uniform over the group */
    uint nt = tiles - b0 < (ulong)per_iter ? (uint)(tiles - b0) : per_iter;
    fr_swar_fill(cb, nbr, src, pos, mask, rowmajor, halo, n_halo, mh, levels, b0, nt, tile_bytes, te,
                 mte FR_SWAR_PART_PASS);
    for (uint i = lid; i < 4u * nt * n_tasks; i += g) { /* K, of the tasks' words only (no step reads others) */
      uint i4 = i >> 2, t = fr_swar_div(i4, mtask), task = tasks[i4 - t * n_tasks];
      uint y = 4u * (task >> 8) + (i & 3u), wi = y * w4 + (task & 0xffu);
      if (y >= R) continue; /* the last segment's rows past the area */
      uint e = kt[wi];
      __local const long *nb = nbr + 9u * t;
      uint m = (nb[e & 15u] >= 0 ? (e >> 8) & 15u : 0u) | (nb[(e >> 4) & 15u] >= 0 ? e >> 12 : 0u);
      cache[t * tile_words + 2u * area + wi] = ((m * 0x00204081u) & 0x01010101u) * 0xffu; /* bit b -> byte b */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 1u; s <= steps; s++) { /* tasks: word column c | 4-row segment sg << 8, those with a cell */
      for (uint i = lid; i < nt * n_tasks; i += g) {
        uint t = fr_swar_div(i, mtask), task = tasks[i - t * n_tasks], c = task & 0xffu, sg = task >> 8;
        uint ya = 4u * sg > s ? 4u * sg : s, yb = 4u * sg + 4u < R - s ? 4u * sg + 4u : R - s;
        __local uint *tc = cache + t * tile_words;
        if (ya < yb)
          fr_swar_column(tc + ((s & 1u) ? 0u : area), tc + ((s & 1u) ? area : 0u), tc + 2u * area, w4, c, ya, yb, rule,
                         ranges);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    fr_swar_moves(0, src, dst, pos, mask, rowmajor, cb, tile_bytes, (steps & 1u) ? 4u * area : 0u, b0, nt, te, mte, pu0,
                  prn, pruns);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif
#endif
