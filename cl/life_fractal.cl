/* life_fractal.cl — Life-like steps and random fills on NBB fractals in the bb, lambda, block:RHO and compact layouts. */
/* Built after sqz_common.h, sqz_rule.h and sqz_fractal.h, with a prelude that defines the
 * fractal (SQZ_FR_S, SQZ_FR_K, SQZ_FR_HL, SQZ_FR_HNU: cl/sqz_fractal.h's tables). Sizes and
 * levels are kernel arguments, so one program serves every level of one pattern.
 * Storage is one uchar per cell; cells outside the fractal read as 0 and are never written.
 *
 * Tile kernels (lambda, block, compact, tile fill) give each work-group `tiles_per_group`
 * consecutive tiles, `lanes` work-items per tile: local id = tile_in_group * lanes + lane. */

__constant sqz_i32 sqz_fr_hl[] = SQZ_FR_HL;
__constant sqz_i32 sqz_fr_hnu[] = SQZ_FR_HNU;

#define FR_CONTAINS(levels, x, y) sqz_fr_contains(SQZ_FR_S, sqz_fr_hnu, (levels), (x), (y))
#define FR_LAMBDA(levels, c, x, y) sqz_fr_lambda(SQZ_FR_S, SQZ_FR_K, sqz_fr_hl, (levels), (c), (x), (y))

/* Live neighbours of embedded (x, y) read straight from embedded storage (holes hold 0). */
static inline uint fr_embedded_live(__global const uchar *src, uint n, uint x, uint y) {
  ulong row = (ulong)y * n;
  uint xl = x > 0u, xr = x + 1u < n, live = 0u;
  if (y > 0u) {
    __global const uchar *p = src + row - n + x;
    live += (xl ? p[-1] : 0u) + p[0] + (xr ? p[1] : 0u);
  }
  __global const uchar *q = src + row + x;
  live += (xl ? q[-1] : 0u) + (xr ? q[1] : 0u);
  if (y + 1u < n) {
    __global const uchar *p = src + row + n + x;
    live += (xl ? p[-1] : 0u) + p[0] + (xr ? p[1] : 0u);
  }
  return live;
}

/* bb: bounding-box launch over the embedded array (rows row0 ..), membership per cell. */
__kernel void life_fractal_bb(__global const uchar *src, __global uchar *dst, uint n, uint levels, uint birth,
                              uint survive, uint row0) {
  uint x = (uint)get_global_id(0), y = row0 + (uint)get_global_id(1);
  if (x >= n || y >= n || !FR_CONTAINS(levels, x, y)) return;
  ulong i = (ulong)y * n + x;
  dst[i] = (uchar)SQZ_APPLY_RULE(src[i], fr_embedded_live(src, n, x, y), birth, survive);
}

/* Tile tables (sqz__fractal_tile_table, one per step call, shared by every tile): table[l] =
 * tx | ty << 16 for the n_cells = k^j fractal cells of a tile in digit order, then n_halo
 * pairs (cache position | direction << 24, offset inside the neighbour tile in that direction). */

/* lambda: compact launch on embedded storage; cell l of tile b is embedded cell
 * λ_b(b) * rho + λ_j(l): λ_b once per tile, λ_j from the table. */
__kernel void life_fractal_lambda(__global const uchar *src, __global uchar *dst, __global const uint *table,
                                  uint n, uint levels, uint j, uint rho, uint n_cells, uint lanes,
                                  uint tiles_per_group, uint birth, uint survive, ulong tile0, ulong tiles,
                                  __local uint *corner) {
  uint lid = (uint)get_local_id(0), lane = lid % lanes, t = lid / lanes;
  ulong b = tile0 + (ulong)get_group_id(0) * tiles_per_group + t;
  int active = t < tiles_per_group && b < tiles;
  if (active && lane == 0u) {
    uint bx, by;
    FR_LAMBDA(levels - j, b, &bx, &by);
    corner[2u * t] = bx * rho;
    corner[2u * t + 1u] = by * rho;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active) return;
  uint x0 = corner[2u * t], y0 = corner[2u * t + 1u];
  for (uint l = lane; l < n_cells; l += lanes) {
    uint e = table[l], x = x0 + (e & 0xffffu), y = y0 + (e >> 16);
    ulong i = (ulong)y * n + x;
    dst[i] = (uchar)SQZ_APPLY_RULE(src[i], fr_embedded_live(src, n, x, y), birth, survive);
  }
}

/* block / compact: tile b (rho x rho embedded cells) is gathered with its halo into a
 * (rho + 2)^2 local cache, the halo read through ν_b of the 8 neighbour tiles, then stepped
 * from the cache. Compact tiles store only their n_cells fractal cells (digit order), so the
 * cache starts at 0; block tiles store all rho^2 cells (holes are 0). */
static inline void fr_tile_step(const uint compact, __global const uchar *src, __global uchar *dst,
                                __global const uint *table, uint levels, uint j, uint rho, uint tile_elems,
                                uint n_cells, uint n_halo, uint lanes, uint tiles_per_group, uint birth,
                                uint survive, ulong tile0, ulong tiles, __local uint *cache_words,
                                __local long *nbr) {
  __local uchar *cache = (__local uchar *)cache_words;
  uint lid = (uint)get_local_id(0), lane = lid % lanes, t = lid / lanes, w = rho + 2u;
  uint stride = (w * w + 3u) & ~3u; /* per-tile cache bytes, a multiple of 4 */
  ulong b = tile0 + (ulong)get_group_id(0) * tiles_per_group + t;
  int active = t < tiles_per_group && b < tiles;
  __local uchar *c = cache + t * stride;
  __local long *nb = nbr + t * 9u;
  if (active) {
    if (lane < 9u) {
      uint bx, by;
      FR_LAMBDA(levels - j, b, &bx, &by);
      for (uint d = lane; d < 9u; d += lanes)
        nb[d] = d == 4u ? (long)b : sqz_fr_tile_neighbour(SQZ_FR_S, SQZ_FR_K, sqz_fr_hnu, levels - j, bx, by, d);
    }
    if (compact)
      for (uint p = lane; p < stride / 4u; p += lanes) cache_words[t * (stride / 4u) + p] = 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (active) {
    __global const uchar *own = src + b * tile_elems;
    if (compact) {
      for (uint l = lane; l < n_cells; l += lanes) {
        uint e = table[l];
        c[((e >> 16) + 1u) * w + (e & 0xffffu) + 1u] = own[l];
      }
    } else {
      for (uint q = lane; q < tile_elems; q += lanes) c[(q / rho + 1u) * w + q % rho + 1u] = own[q];
    }
    for (uint h = lane; h < n_halo; h += lanes) {
      uint e = table[n_cells + 2u * h];
      long tb = nb[e >> 24];
      c[e & 0xffffffu] = tb < 0 ? (uchar)0 : src[(ulong)tb * tile_elems + table[n_cells + 2u * h + 1u]];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active) return;
  for (uint l = lane; l < n_cells; l += lanes) {
    uint e = table[l], tx = e & 0xffffu, ty = e >> 16, i = (ty + 1u) * w + tx + 1u;
    dst[b * tile_elems + (compact ? l : ty * rho + tx)] =
        (uchar)SQZ_APPLY_RULE(c[i], SQZ_FR_MOORE_SUM(c, i, w), birth, survive);
  }
}

#define FR_TILE_KERNEL(name, compact)                                                                       \
  __kernel void name(__global const uchar *src, __global uchar *dst, __global const uint *table, uint levels,     \
                     uint j, uint rho, uint tile_elems, uint n_cells, uint n_halo, uint lanes, uint tiles_per_group, \
                     uint birth, uint survive, ulong tile0, ulong tiles, __local uint *cache, __local long *nbr) {  \
    fr_tile_step(compact, src, dst, table, levels, j, rho, tile_elems, n_cells, n_halo, lanes, tiles_per_group,     \
                 birth, survive, tile0, tiles, cache, nbr);                                                         \
  }
FR_TILE_KERNEL(life_fractal_block, 0u)
FR_TILE_KERNEL(life_fractal_compact, 1u)

/* Random fills: cell (x, y) is alive iff it is a fractal cell and sqz_random_cell(seed, y n + x)
 * says so, the same hash in every layout and backend. Holes are written as 0. */
__kernel void fill_fractal_embedded(__global uchar *dst, uint n, uint levels, ulong seed, ulong threshold,
                                    uint row0) {
  uint x = (uint)get_global_id(0), y = row0 + (uint)get_global_id(1);
  if (x >= n || y >= n) return;
  ulong e = (ulong)y * n + x;
  dst[e] = (uchar)(FR_CONTAINS(levels, x, y) ? sqz_random_cell(seed, e, threshold) : 0u);
}

__kernel void fill_fractal_tiles(__global uchar *dst, uint n, uint levels, uint j, uint rho, uint tile_elems,
                                 uint lanes, uint tiles_per_group, uint compact, ulong seed, ulong threshold,
                                 ulong tile0, ulong tiles) {
  uint lid = (uint)get_local_id(0), lane = lid % lanes;
  ulong b = tile0 + (ulong)get_group_id(0) * tiles_per_group + lid / lanes;
  if (lid >= lanes * tiles_per_group || b >= tiles) return;
  uint bx, by;
  FR_LAMBDA(levels - j, b, &bx, &by);
  for (uint q = lane; q < tile_elems; q += lanes) {
    uint tx = q % rho, ty = q / rho, member = 1u;
    if (compact)
      FR_LAMBDA(j, q, &tx, &ty);
    else
      member = FR_CONTAINS(j, tx, ty);
    ulong e = (ulong)(by * rho + ty) * n + bx * rho + tx;
    dst[b * tile_elems + q] = (uchar)(member ? sqz_random_cell(seed, e, threshold) : 0u);
  }
}
