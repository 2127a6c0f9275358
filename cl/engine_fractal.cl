/* engine_fractal.cl — the stencil engine on NBB fractals: traversal and 8-neighbour gather in the bb, lambda, block:RHO and compact layouts. */
/* Built after sqz_common.h and sqz_fractal.h, with a prelude that defines the fractal
 * (SQZ_FR_S, SQZ_FR_K, SQZ_FR_HL, SQZ_FR_HNU: cl/sqz_fractal.h's tables; SQZ_FR_SPOW,
 * SQZ_FR_KPOW: s^i and k^i for every level the parser allows) and the update
 * (backends/opencl/cl_engine.h: sqz_cell_t, sqz_param_t, SQZ_APPLY(self, nb, present), and
 * SQZ_WANT_PRESENT when the update reads `present`). Sizes and levels are kernel arguments, so
 * one program serves every level of one pattern and update.
 * Storage is one sqz_cell_t per cell; cells outside the fractal read as 0 and are never written.
 * Every step kernel takes the update's parameters (`param`, __constant) and integer rule
 * parameters (`ip`) right after src and dst.
 *
 * Tile kernels (lambda, block, compact, tile fill) give each work-group `tiles_per_group`
 * consecutive tiles, `lanes` work-items per tile: local id = tile_in_group * lanes + lane.
 * The step kernels come in two variants with identical results: λ_b of a tile by the
 * sequential digit loop (map "seq", the default) or group-parallel (map "group", kernels
 * named *_group; see fr_group_lambda). Both take a trailing __local ulong *terms, which only
 * the group variants use. A program holds the one kernel the host asks for (#ifdef
 * SQZ_KERNEL_<name>, sqz__program_kernel): the others would only cost compile time. */


/* Group-parallel λ at `levels` levels of the group's tiles b0 .. b0 + tiles_per_group - 1
 * (docs/MAPS.md 4.5: one work-item per level, then an O(log r) tree sum of the packed terms of
 * sqz_fr_lambda_term, exact in 64-bit integers). Returns λ(b0 + t) packed as x | y << 32.
 * Every work-item of the group must call it: it contains barriers.
 * Local-memory path: the first w = min(lanes, levels) lanes of tile t take the levels
 * lane, lane + w, ... (a loop when the tile has fewer lanes than levels), leave their
 * partial sums in terms[t * w + lane], and ceil(log2 w) halving steps, each after a
 * barrier, add them up. terms holds tiles_per_group * max(w, 1) words.
 * Sub-group path (SQZ_FR_SUBGROUPS, defined by the host when the device reports
 * cl_khr_subgroups or cl_intel_subgroups): sub-group g takes tiles g, g + G, ... of the
 * group (G sub-groups), its lanes split the levels and sub_group_reduce_add sums them.
 * PoCL 5 on a CPU reports cl_intel_subgroups, and test_fractal_group passed there (docs/BENCHMARKS.md);
 * PoCL 3.1 (CI) and NVIDIA's OpenCL 1.2 report neither, so CI tests the local-memory path. */
static inline ulong fr_group_lambda(uint levels, ulong b0, uint t, uint lane, uint lanes, uint tiles_per_group,
                                    __local ulong *terms, ulong nrun, __global const ulong *runs) {
#ifdef SQZ_FR_SUBGROUPS
  uint sl = get_sub_group_local_id(), ss = get_sub_group_size();
  for (uint u = get_sub_group_id(); u < tiles_per_group; u += get_num_sub_groups()) {
    ulong part = 0u;
    ulong b = sqz_units_at(b0 + u, nrun, runs);
    for (uint i = sl; i < levels; i += ss) part += FR_LAMBDA_TERM(i, b);
    part = sub_group_reduce_add(part);
    if (sl == 0u) terms[u] = part;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return t < tiles_per_group ? terms[t] : 0u;
#else
  uint w = levels < lanes ? levels : lanes;
  if (w == 0u) return 0u; /* a single tile covering the fractal: λ at level 0 is (0, 0) */
  int mine = t < tiles_per_group;
  __local ulong *sum = terms + t * w;
  if (mine && lane < w) {
    ulong part = 0u, b = sqz_units_at(b0 + t, nrun, runs);
    for (uint i = lane; i < levels; i += w) part += FR_LAMBDA_TERM(i, b);
    sum[lane] = part;
  }
  for (uint h = sqz_pow2ceil(w) >> 1; h > 0u; h >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (mine && lane < h && lane + h < w) sum[lane] += sum[lane + h];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return mine ? sum[0] : 0u;
#endif
}

/* Tile b's neighbour in direction d (0 .. 8 over (dy, dx) in {-1, 0, 1}^2, raster order; 4: b
 * itself) at `levels` levels, without λ and ν over all levels: the neighbour has the tile's
 * coordinates plus (d % 3 - 1, d / 3 - 1), which change its digits (from the lowest: λ of one digit
 * by sqz_fr_hl, the ±1 added, ν of it by sqz_fr_hnu) only up to the level where the ±1 stops
 * carrying, on average about s / (s - 1) of them; the higher digits stay. -1 on a hole or a carry
 * past the top level (outside the embedding). FR_CARRY(T): that walk in type T (uint when
 * k^levels < 2^32, else ulong). */
#define FR_CARRY(T)                                                                                          \
  {                                                                                                          \
    T rest = (T)b, n = (T)b, kp = 1u;                                                                        \
    for (uint lev = 0u; lev < levels && (cx | cy) && !hole; lev++, kp *= SQZ_FR_K) {                        \
      uint digit = (uint)(rest % SQZ_FR_K);                                                                  \
      rest /= SQZ_FR_K;                                                                                      \
      int x = sqz_fr_hl[2u * digit] + cx, y = sqz_fr_hl[2u * digit + 1u] + cy;                               \
      cx = x < 0 ? -1 : x >= (int)SQZ_FR_S ? 1 : 0;                                                          \
      cy = y < 0 ? -1 : y >= (int)SQZ_FR_S ? 1 : 0;                                                          \
      int nd = sqz_fr_hnu[(uint)(y - cy * (int)SQZ_FR_S) * SQZ_FR_S + (uint)(x - cx * (int)SQZ_FR_S)];        \
      hole = nd < 0;                                                                                         \
      n += kp * (T)nd - kp * (T)digit;                                                                       \
    }                                                                                                        \
    nb = n;                                                                                                  \
  }
static inline long fr_tile_carry(uint levels, ulong b, uint d) {
  int narrow = levels < sizeof sqz_fr_kpow / sizeof sqz_fr_kpow[0] && sqz_fr_kpow[levels] <= 0xffffffffu;
  int cx = (int)(d % 3u) - 1, cy = (int)(d / 3u) - 1, hole = 0;
  ulong nb;
  if (narrow) FR_CARRY(uint)
  else FR_CARRY(ulong)
  return hole || (cx | cy) ? -1 : (long)nb;
}
#undef FR_CARRY

/* Neighbour d (raster order, centre skipped: d = 0..7 <-> (dy, dx) = (-1,-1) .. (1,1)) as an
 * offset of the 3x3 window index 0..8. */
#define FR_WIN(d) ((d) < 4u ? (d) : (d) + 1u)

/* The word of the tile caches: local arguments are aligned to their declared type only (NVIDIA),
 * so 8-byte cells need 8-byte words. */
#if SQZ_CELL_BYTES == 8
typedef ulong sqz_cache_word;
#else
typedef uint sqz_cache_word;
#endif

/* A part's band of embedded rows (bb and lambda in parts, SQZ_PARTED; src/core/parts_bands.c): the
 * embedded kernels' last arguments, the part's own elements [pu0, pu1) (whole rows) and the
 * elements [wlo, whi) this launch writes (a run of its rows); element i lies at FR_AT(i) of the
 * part's buffer (cl/sqz_parts.h). A field in one buffer reads and writes storage directly. */
#ifdef SQZ_PARTED
#define FR_BAND_ARGS , ulong pu0, ulong pu1, ulong wlo, ulong whi
#define FR_BAND_PASS , pu0, pu1, wlo, whi
#define FR_AT(i) ((ulong)sqz_band_slot((i), pu0, pu1, pu0 > 0u ? n : 0u))
#define FR_WRITES(i) ((i) >= wlo && (i) < whi)
#else
#define FR_BAND_ARGS
#define FR_BAND_PASS
#define FR_AT(i) (i)
#define FR_WRITES(i) 1
#endif

/* The 8 neighbours of embedded (x, y), read straight from embedded storage (holes hold 0), and
 * with SQZ_WANT_PRESENT the mask of those that are fractal cells. */
static inline uint fr_embedded_gather(__global const sqz_cell_t *src, uint n, uint levels, uint x, uint y,
                                      sqz_cell_t *nb FR_BAND_ARGS) {
  uint present = 0u;
  ulong row[3]; /* where rows y - 1, y, y + 1 start (a part's band: its slots) */
  for (uint r = 0u; r < 3u; r++) row[r] = y + r - 1u < n ? FR_AT((ulong)(y + r - 1u) * n) : 0u;
  for (uint d = 0u; d < 8u; d++) {
    uint w = FR_WIN(d), u = x + w % 3u - 1u, v = y + w / 3u - 1u; /* wraps past n below 0 */
    int in = u < n && v < n;
    nb[d] = in ? src[row[w / 3u] + u] : (sqz_cell_t)0;
#ifdef SQZ_WANT_PRESENT
    if (in && FR_CONTAINS(levels, u, v)) present |= 1u << d;
#endif
  }
  return present;
}

/* The 8 neighbours of cache[i] in a row-major cache of row length w. */
static inline void fr_cache_gather(__local const sqz_cell_t *c, uint i, uint w, sqz_cell_t *nb) {
  nb[0] = c[i - w - 1u];
  nb[1] = c[i - w];
  nb[2] = c[i - w + 1u];
  nb[3] = c[i - 1u];
  nb[4] = c[i + 1u];
  nb[5] = c[i + w - 1u];
  nb[6] = c[i + w];
  nb[7] = c[i + w + 1u];
}

/* Which neighbours of tile cell l are fractal cells, from the tile indices nbt of the 9 tiles
 * around it (-1: none) and the cell's two entries of the tile table's present masks (pm, after
 * the halo pairs; sqz__fractal_tile_table): the neighbours that are fractal cells when every tile
 * exists, and for a cell on the tile's border (bit 8) the direction of each neighbour's tile.
 * Every tile of a level has the same pattern, so only the neighbour tiles' existence varies. */
static inline uint fr_tile_present(__local const long *nbt, __global const uint *pm, uint l) {
  uint present = 0u;
#ifdef SQZ_WANT_PRESENT
  present = pm[2u * l];
  if (present & 0x100u) {
    uint dirs = pm[2u * l + 1u];
    for (uint d = 0u; d < 8u; d++)
      if (nbt[(dirs >> (4u * d)) & 15u] < 0) present &= ~(1u << d);
  }
  present &= 0xffu;
#endif
  return present;
}

/* bb: bounding-box launch over the embedded array (rows row0 ..), membership per cell. */
#ifdef SQZ_KERNEL_engine_fractal_bb
__kernel void engine_fractal_bb(__global const sqz_cell_t *src, __global sqz_cell_t *dst,
                                __constant const sqz_param_t *param, uint2 ip, uint n, uint levels,
                                uint row0 FR_BAND_ARGS) {
  uint x = (uint)get_global_id(0), y = row0 + (uint)get_global_id(1);
  if (x >= n || y >= n || !FR_CONTAINS(levels, x, y)) return;
  ulong i = (ulong)y * n + x;
  if (!FR_WRITES(i)) return;
  sqz_cell_t nb[8];
  uint present = fr_embedded_gather(src, n, levels, x, y, nb FR_BAND_PASS);
  dst[FR_AT(i)] = SQZ_APPLY(src[FR_AT(i)], nb, present);
}
#endif

/* Tile tables (sqz__fractal_tile_table, one per step call, shared by every tile): table[l] =
 * tx | ty << 16 for the n_cells = k^j fractal cells of a tile in digit order, then n_halo
 * pairs (cache position | direction << 24, offset inside the neighbour tile in that direction). */

/* lambda: compact launch on embedded storage; cell l of tile b is embedded cell
 * λ_b(b) * rho + λ_j(l): λ_b once per tile (lane 0's digit loop, or group-parallel), λ_j
 * from the table. */
static inline void fr_lambda_step(const uint group, __global const sqz_cell_t *src, __global sqz_cell_t *dst,
                                  __constant const sqz_param_t *param, uint2 ip, __global const uint *table, uint n,
                                  uint levels, uint j, uint rho, uint n_cells, uint lanes, uint tiles_per_group,
                                  ulong tile0, ulong tiles, __local uint *corner, __local ulong *terms FR_BAND_ARGS) {
  uint lid = (uint)get_local_id(0), lane = lid % lanes, t = lid / lanes, x0, y0;
  ulong b0 = tile0 + (ulong)get_group_id(0) * tiles_per_group, b = b0 + t;
  int active = t < tiles_per_group && b < tiles;
  if (group) {
    ulong e = fr_group_lambda(levels - j, b0, t, lane, lanes, tiles_per_group, terms, 0u, 0);
    x0 = (uint)e * rho;
    y0 = (uint)(e >> 32) * rho;
    if (!active) return;
  } else {
    if (active && lane == 0u) {
      uint bx, by;
      FR_LAMBDA(levels - j, b, &bx, &by);
      corner[2u * t] = bx * rho;
      corner[2u * t + 1u] = by * rho;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!active) return;
    x0 = corner[2u * t];
    y0 = corner[2u * t + 1u];
  }
  for (uint l = lane; l < n_cells; l += lanes) {
    uint e = table[l], x = x0 + (e & 0xffffu), y = y0 + (e >> 16);
    ulong i = (ulong)y * n + x;
    if (!FR_WRITES(i)) continue; /* a part's launch: another launch's or part's row */
    sqz_cell_t nb[8];
    uint present = fr_embedded_gather(src, n, levels, x, y, nb FR_BAND_PASS);
    dst[FR_AT(i)] = SQZ_APPLY(src[FR_AT(i)], nb, present);
  }
}

#define FR_LAMBDA_KERNEL(name, group)                                                                        \
  __kernel void name(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,  \
                     uint2 ip, __global const uint *table, uint n, uint levels, uint j, uint rho, uint n_cells,   \
                     uint lanes, uint tiles_per_group, ulong tile0, ulong tiles, __local uint *corner,           \
                     __local ulong *terms FR_BAND_ARGS) {                                                       \
    fr_lambda_step(group, src, dst, param, ip, table, n, levels, j, rho, n_cells, lanes, tiles_per_group, tile0, \
                   tiles, corner, terms FR_BAND_PASS);                                                          \
  }
#ifdef SQZ_KERNEL_engine_fractal_lambda
FR_LAMBDA_KERNEL(engine_fractal_lambda, 0u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_lambda_group
FR_LAMBDA_KERNEL(engine_fractal_lambda_group, 1u)
#endif

/* The unit remap of a field in parts (cl/sqz_parts.h): the tile kernels' last arguments, the
 * part's own tiles [pu0, pu1) and its pnh sorted halo tiles phalo, then the launch's unit set:
 * launch position b is tile sqz_units_at(b, prn, pruns) (a part's inner or border tiles; prn = 0:
 * position b is tile b). A field in one buffer passes pu0 = 0, pu1 = tiles, pnh = 0, prn = 0,
 * where every tile is its own slot. */
#define FR_PART_ARGS , ulong pu0, ulong pu1, ulong pnh, __global const ulong *phalo, ulong prn, __global const ulong *pruns
#define FR_PART_PASS , pu0, pu1, pnh, phalo, prn, pruns

/* The buffer slots of tile b (at launch position b0 + t) and its 8 neighbours (-1 outside the
 * fractal or in no slot of the part) into nb: ν_b from tile b's corner λ_b computed group-parallel
 * (its barriers reached by the whole group), or the carry walk of lanes 0..8 (fr_tile_carry). Every
 * work-item of the group calls it. */
static inline void fr_tile_neighbours(const uint group, uint levels, ulong b0, ulong b, uint t, uint lane,
                                      uint lanes, uint tiles_per_group, int active, __local long *nb,
                                      __local ulong *terms FR_PART_ARGS) {
  uint bx = 0u, by = 0u;
  if (group) {
    ulong e = fr_group_lambda(levels, b0, t, lane, lanes, tiles_per_group, terms, prn, pruns);
    bx = (uint)e;
    by = (uint)(e >> 32);
  }
  if (active && lane < 9u) {
    for (uint d = lane; d < 9u; d += lanes) { /* seq: the carry walk, no λ (group: ν from the group's λ) */
      long g = group ? (d == 4u ? (long)b : sqz_fr_tile_neighbour(SQZ_FR_S, SQZ_FR_K, sqz_fr_hnu, levels, bx, by, d))
                     : fr_tile_carry(levels, b, d);
      nb[d] = g < 0 ? g : sqz_part_slot((ulong)g, pu0, pu1, pnh, phalo);
    }
  }
}

/* block / compact: tile b (rho x rho embedded cells) is gathered with its halo into a
 * (rho + 2)^2 local cache, the halo read through the 8 neighbour tiles, then stepped from the
 * cache. Groups of the sequential map are persistent: each steps the tiles at group, group +
 * groups, ... (times tiles_per_group), so the cache is zeroed once per group, not once per tile
 * (the host launches fewer groups); the group map's kernels step one set of tiles a group. Compact tiles store only their n_cells fractal cells (digit order), so the
 * cache starts at 0; block tiles store all rho^2 cells (holes are 0). */
static inline void fr_tile_step(const uint compact, const uint group, __global const sqz_cell_t *src,
                                __global sqz_cell_t *dst, __constant const sqz_param_t *param, uint2 ip,
                                __global const uint *table, uint levels, uint j, uint rho, uint tile_elems,
                                uint n_cells, uint n_halo, uint lanes, uint tiles_per_group, ulong tile0,
                                ulong tiles, __local sqz_cache_word *cache_words, __local long *nbr,
                                __local ulong *terms FR_PART_ARGS) {
  __local sqz_cell_t *cache = (__local sqz_cell_t *)cache_words;
  uint lid = (uint)get_local_id(0), lane = lid % lanes, t = lid / lanes, w = rho + 2u;
  uint stride = (w * w + 3u) & ~3u; /* per-tile cache cells, a multiple of 4 (so of 4 bytes) */
  uint words = stride * (uint)sizeof(sqz_cell_t) / (uint)sizeof(sqz_cache_word);
  __local sqz_cell_t *c = cache + t * stride;
  __local long *nb = nbr + t * 9u;
  __global const uint *pm = table + n_cells + 2u * n_halo; /* the present masks */
  if (compact) /* once: holes and the corners are never written, every tile writes the same positions */
    for (uint p = lid; p < tiles_per_group * words; p += (uint)get_local_size(0)) cache_words[p] = (sqz_cache_word)0;
  /* persistent groups: launch positions tile0 + (group + m groups) * tiles_per_group + t (uniform loop) */
  for (ulong b0 = tile0 + (ulong)get_group_id(0) * tiles_per_group; b0 < tiles;
       b0 += (ulong)get_num_groups(0) * tiles_per_group) {
    ulong b = b0 + t; /* launch positions */
    int active = t < tiles_per_group && b < tiles;
    if (active) b = sqz_units_at(b, prn, pruns); /* the tile */
    barrier(CLK_LOCAL_MEM_FENCE); /* the previous tiles' steps have read the cache and nb */
    fr_tile_neighbours(group, levels - j, b0, b, t, lane, lanes, tiles_per_group, active, nb, terms FR_PART_PASS);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (active) {
      __global const sqz_cell_t *own = src + (ulong)nb[4] * tile_elems;
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
        c[e & 0xffffffu] = tb < 0 ? (sqz_cell_t)0 : src[(ulong)tb * tile_elems + table[n_cells + 2u * h + 1u]];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint l = lane; active && l < n_cells; l += lanes) {
      uint e = table[l], tx = e & 0xffffu, ty = e >> 16, i = (ty + 1u) * w + tx + 1u;
      sqz_cell_t nbv[8];
      fr_cache_gather(c, i, w, nbv);
      dst[(ulong)nb[4] * tile_elems + (compact ? l : ty * rho + tx)] = SQZ_APPLY(c[i], nbv, fr_tile_present(nb, pm, l));
    }
    if (group) break; /* one set of tiles a group: PoCL 5 miscompiled the group λ's barrier loop inside this one */
  }
}

#define FR_TILE_KERNEL(name, compact, group)                                                                \
  __kernel void name(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,  \
                     uint2 ip, __global const uint *table, uint levels, uint j, uint rho, uint tile_elems,          \
                     uint n_cells, uint n_halo, uint lanes, uint tiles_per_group, ulong tile0, ulong tiles,         \
                     __local sqz_cache_word *cache, __local long *nbr, __local ulong *terms FR_PART_ARGS) {         \
    fr_tile_step(compact, group, src, dst, param, ip, table, levels, j, rho, tile_elems, n_cells, n_halo, lanes,  \
                 tiles_per_group, tile0, tiles, cache, nbr, terms FR_PART_PASS);                                    \
  }
#ifdef SQZ_KERNEL_engine_fractal_block
FR_TILE_KERNEL(engine_fractal_block, 0u, 0u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_compact
FR_TILE_KERNEL(engine_fractal_compact, 1u, 0u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_block_group
FR_TILE_KERNEL(engine_fractal_block_group, 0u, 1u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_compact_group
FR_TILE_KERNEL(engine_fractal_compact_group, 1u, 1u)
#endif

/* block / compact without a cache, for tiles whose (rho + 2)^2 cache exceeds the device's local
 * memory: each cell reads its 8 neighbours from global memory, those across a tile edge from
 * the neighbour tiles (ν_b, kept in local memory as in fr_tile_step). Same arguments as the
 * cached kernels; `cache` is unused. */
static inline void fr_tile_step_direct(const uint compact, const uint group, __global const sqz_cell_t *src,
                                       __global sqz_cell_t *dst, __constant const sqz_param_t *param, uint2 ip,
                                       __global const uint *table, uint levels, uint j, uint rho, uint tile_elems,
                                       uint n_cells, uint n_halo, uint lanes, uint tiles_per_group, ulong tile0,
                                       ulong tiles, __local long *nbr, __local ulong *terms FR_PART_ARGS) {
  uint lid = (uint)get_local_id(0), lane = lid % lanes, t = lid / lanes;
  ulong b0 = tile0 + (ulong)get_group_id(0) * tiles_per_group, b = b0 + t; /* launch positions */
  int active = t < tiles_per_group && b < tiles;
  if (active) b = sqz_units_at(b, prn, pruns); /* the tile */
  __local long *nb = nbr + t * 9u;
  fr_tile_neighbours(group, levels - j, b0, b, t, lane, lanes, tiles_per_group, active, nb, terms FR_PART_PASS);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active) return;
  for (uint l = lane; l < n_cells; l += lanes) {
    uint e = table[l], tx = e & 0xffffu, ty = e >> 16;
    sqz_cell_t nbv[8];
    for (uint d = 0u; d < 8u; d++) {
      uint wd = FR_WIN(d), x = tx + rho + wd % 3u - 1u, y = ty + rho + wd / 3u - 1u; /* shifted by rho: 0 .. 3 rho - 1 */
      uint dx = x / rho, dy = y / rho;
      long tb = nb[dy * 3u + dx];
      long off = tb < 0 ? -1 : sqz_fr_tile_offset(compact, SQZ_FR_S, SQZ_FR_K, sqz_fr_hnu, j, rho, x - dx * rho,
                                                   y - dy * rho);
      nbv[d] = off >= 0 ? src[(ulong)tb * tile_elems + (ulong)off] : (sqz_cell_t)0;
    }
    ulong own = (ulong)nb[4] * tile_elems + (compact ? l : ty * rho + tx);
    dst[own] = SQZ_APPLY(src[own], nbv, fr_tile_present(nb, table + n_cells + 2u * n_halo, l));
  }
}

#define FR_DIRECT_KERNEL(name, compact, group)                                                              \
  __kernel void name(__global const sqz_cell_t *src, __global sqz_cell_t *dst, __constant const sqz_param_t *param,  \
                     uint2 ip, __global const uint *table, uint levels, uint j, uint rho, uint tile_elems,          \
                     uint n_cells, uint n_halo, uint lanes, uint tiles_per_group, ulong tile0, ulong tiles,         \
                     __local sqz_cache_word *cache, __local long *nbr, __local ulong *terms FR_PART_ARGS) {         \
    fr_tile_step_direct(compact, group, src, dst, param, ip, table, levels, j, rho, tile_elems, n_cells, n_halo,  \
                        lanes, tiles_per_group, tile0, tiles, nbr, terms FR_PART_PASS);                             \
  }
#ifdef SQZ_KERNEL_engine_fractal_block_direct
FR_DIRECT_KERNEL(engine_fractal_block_direct, 0u, 0u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_compact_direct
FR_DIRECT_KERNEL(engine_fractal_compact_direct, 1u, 0u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_block_group_direct
FR_DIRECT_KERNEL(engine_fractal_block_group_direct, 0u, 1u)
#endif
#ifdef SQZ_KERNEL_engine_fractal_compact_group_direct
FR_DIRECT_KERNEL(engine_fractal_compact_group_direct, 1u, 1u)
#endif
