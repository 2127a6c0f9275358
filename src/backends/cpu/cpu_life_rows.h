/* cpu_life_rows.h — Life on whole rows of u8 cells for the cpu engine: neighbour counts from padded row pointers and the rule, in loops the compiler vectorises. */
#ifndef SQZ_CPU_LIFE_ROWS_H
#define SQZ_CPU_LIFE_ROWS_H
#include <stdint.h>

#include "core/sqz_internal.h"

/* A padded row: p[0] is cell x = -1, p[1 + x] cell x; cells outside the domain read 0. Counts
 * are sums of u8 lanes modulo 256: exact for Life's 0/1 states, and for other bytes they keep
 * the low 5 bits of the exact sum, all that the rule reads (OpenCL's shift reads the count
 * modulo 32). out[x] = SQZ_APPLY_RULE(self, count, birth, survive) for x < len, self = b[1 + x]. */

/* 2D: the 8 neighbours from padded rows a (above), b (the row) and c (below). On a row-major
 * tile cache of row length w the whole tile is one call: a = cache, b = a + w, c = b + w. mask
 * (may be NULL): out[x] is 0 where mask[x] is 0 (fractal holes of an embedded row). */
SQZ_INTERNAL void sqz__cpu_life_row8(const uint8_t *a, const uint8_t *b, const uint8_t *c, uint8_t *out, uint64_t len,
                                     uint32_t birth, uint32_t survive, const uint8_t *mask);
/* 2D on a row-major tile cache of row length w, results at the same positions of res: span i
 * is spans[2i + 1] cells (a multiple of SQZ_LIFE_SPAN) from cache position spans[2i]. A span may
 * run past its row's last cell into padding (computed, never read): both buffers need
 * SQZ_LIFE_SPAN + 2 bytes of slack after the tile. */
#define SQZ_LIFE_SPAN 32u
SQZ_INTERNAL void sqz__cpu_life_spans(const uint8_t *cache, uint8_t *res, uint32_t w, const uint32_t *spans,
                                      uint32_t n_spans, uint32_t birth, uint32_t survive);
/* 3D: the 26 neighbours from the nine padded rows rows[dz * 3 + dy] (the row is rows[4]), computed
 * in whole multiples of SQZ_LIFE_SPAN cells: the rows are read and out written up to SQZ_LIFE_SPAN + 2
 * bytes past len (out's extra bytes are not results). */
SQZ_INTERNAL void sqz__cpu_life_row26(const uint8_t *const rows[9], uint8_t *out, uint64_t len, uint32_t birth,
                                      uint32_t survive);
/* out[l] = res[pos[l]], l < n; res must have 3 readable bytes after its last position read (the
 * AVX2 path loads 32 bits per byte). */
SQZ_INTERNAL void sqz__cpu_gather_bytes(uint8_t *out, const uint8_t *res, const uint32_t *pos, uint32_t n);
/* A compact tile of scale 2 as 4 x 4 blocks (levels 2 and up, kk = k^2 <= 16 cells a block):
 * block g holds cells g*kk .. g*kk + kk - 1 and its top-left cell is at cache position base[g];
 * in[r] is the cell at block position r (row-major, 0x80: none), out[q] the position of cell q. */
typedef struct {
  uint32_t kk; /* 0: not used */
  uint8_t in[16], out[16];
  const uint32_t *base;
} sqz_cpu_blocks;
/* cache <- the n cells own (blocks_in) and out <- the cells from the results res (blocks_out),
 * block by block with byte shuffles; return 0 without doing it where the machine has no AVX2 or
 * kk is 0 (the caller then moves cell by cell). */
SQZ_INTERNAL int sqz__cpu_blocks_in(uint8_t *cache, uint32_t w, const uint8_t *own, uint32_t n, const sqz_cpu_blocks *bl);
SQZ_INTERNAL int sqz__cpu_blocks_out(uint8_t *out, uint32_t n, const uint8_t *res, uint32_t w, const sqz_cpu_blocks *bl);
/* dst[i] = src[-i], i < len: the right part of a folded triangle row (its cells stored backwards). */
SQZ_INTERNAL void sqz__cpu_copy_reversed(uint8_t *dst, const uint8_t *src, uint64_t len);
#endif
