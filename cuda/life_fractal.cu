/* life_fractal.cu — Life-like steps on block:RHO fractal storage (MMA or ALU tile maps) and the random fill. */
#include "fractal_map.cuh"

/* Storage (src/fractal_layout.c): tile b of the level-rb grid (digit order) holds its
 * rho x rho embedded micro-square at b rho^2, row-major; holes are stored as 0 and stay 0.
 * Cells hold 0 or 1.
 *
 * A warp takes `tpw` consecutive tiles: it maps them (λ_b once, ν_b of the 8 neighbour
 * tiles, docs/MAPS.md 4.8) and then steps them. Lane columns: each lane owns `unit` adjacent
 * cells (a 32-bit word when rho % 4 == 0, else one byte) of one tile column and walks down
 * the rows -1 .. rho, keeping the horizontal 3-sums of the last rows in registers, so each
 * cell is read once. Left and right neighbours come from the adjacent lanes by shuffle; the
 * lanes at a tile's edge read the neighbour tile's column from memory. Tiles wider than 32
 * lane columns are walked in segments of 32.
 *
 * G = 1 (the sqz_gens kernels): a Generations rule of T.states > 2 states (cl/sqz_rule.h). Cells
 * hold 0 .. states - 1 and only state 1 counts as a neighbour, so the sums run over the bytes
 * equal to 1 (sqz_cu_alive) while the cell's own state comes from the raw row. */

/* 1 in each byte of m that equals 1, else 0 (exact: no carry crosses a byte). */
template <unsigned W>
__device__ __forceinline__ unsigned sqz_cu_alive(unsigned m) {
  if (W == 1u) return m == 1u;
  const unsigned x = m ^ 0x01010101u, t = ((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x;
  return (~t >> 7) & 0x01010101u;
}

template <unsigned W>
__device__ __forceinline__ unsigned sqz_cu_ld(const unsigned char *__restrict__ p) {
  if (W == 4u) return *(const unsigned *)p;
  return *p;
}

template <unsigned W>
__device__ __forceinline__ void sqz_cu_st(unsigned char *__restrict__ p, unsigned v) {
  if (W == 4u) *(unsigned *)p = v;
  else *p = (unsigned char)v;
}

/* One extended row y (-1 .. rho) of a lane column: the lane's word, and the bytes left and
 * right of it when the lane is at the edge of its tile segment (else 0). */
struct sqz_cu_row {
  unsigned m, el, er;
};

template <unsigned W>
__device__ __forceinline__ sqz_cu_row sqz_cu_load_row(const unsigned char *__restrict__ src, const sqz_i64 *nbs,
                                                      unsigned rho, sqz_u64 area, int active, unsigned x0,
                                                      unsigned first, unsigned last, int y) {
  sqz_cu_row r = {0u, 0u, 0u};
  if (!active) return r;
  const unsigned dyi = y < 0 ? 0u : (y >= (int)rho ? 2u : 1u);
  const sqz_u64 ly = y < 0 ? rho - 1u : (y >= (int)rho ? 0u : (unsigned)y);
  const sqz_i64 tb = nbs[dyi * 3u + 1u];
  if (tb >= 0) r.m = sqz_cu_ld<W>(src + (sqz_u64)tb * area + ly * rho + x0);
  if (first) { /* column x0 - 1 */
    const unsigned dxi = x0 == 0u ? 0u : 1u;
    const sqz_i64 t2 = nbs[dyi * 3u + dxi];
    if (t2 >= 0) r.el = src[(sqz_u64)t2 * area + ly * rho + (x0 == 0u ? rho - 1u : x0 - 1u)];
  }
  if (last) { /* column x0 + W */
    const unsigned xr = x0 + W, dxi = xr >= rho ? 2u : 1u;
    const sqz_i64 t2 = nbs[dyi * 3u + dxi];
    if (t2 >= 0) r.er = src[(sqz_u64)t2 * area + ly * rho + (xr >= rho ? 0u : xr)];
  }
  return r;
}

/* The next states of the W cells of a lane column's row: v holds per byte the 3 x 3 sum (self
 * included) of the counted cells, m the row's raw states. */
template <unsigned W, unsigned G>
__device__ __forceinline__ unsigned sqz_cu_next(unsigned rule, unsigned states, unsigned v, unsigned m) {
  unsigned next = 0u;
  if (G) {
#pragma unroll
    for (unsigned e = 0; e < W; e++) {
      const unsigned self = (m >> (8u * e)) & 0xffu, live = ((v >> (8u * e)) & 0xffu) - (self == 1u);
      const unsigned n = self == 0u ? (rule >> live) & 1u : self == 1u ? 2u - ((rule >> (9u + live)) & 1u)
                                                                         : (self + 1u) % states;
      next |= n << (8u * e);
    }
    return next;
  }
  v += m << 3; /* per byte: live neighbours + 9 self (<= 17), the bit of birth | survive << 9 */
#pragma unroll
  for (unsigned e = 0; e < W; e++) next |= ((rule >> ((v >> (8u * e)) & 0xffu)) & 1u) << (8u * e);
  return next;
}

/* Steps the warp's ntiles mapped tiles (nb from sqz_cu_map) from src into dst. */
template <unsigned W, unsigned G>
__device__ void sqz_cu_step_tiles(const sqz_cu_fractal &T, const unsigned char *__restrict__ src,
                                  unsigned char *__restrict__ dst, const unsigned char *__restrict__ mask,
                                  unsigned ntiles, const sqz_i64 (*nb)[9], unsigned lane) {
  const unsigned rho = T.rho, units = T.units, rule = T.rule, states = T.states;
  const sqz_u64 area = (sqz_u64)rho * rho;
  const unsigned segs = units > 32u ? (units + 31u) / 32u : 1u;
  for (unsigned seg = 0; seg < segs; seg++) {
    unsigned slot, u, pos, len;
    if (units > 32u) {
      slot = 0u;
      u = seg * 32u + lane;
      pos = lane;
      len = units - seg * 32u < 32u ? units - seg * 32u : 32u;
    } else {
      slot = lane / units;
      u = lane % units;
      pos = u;
      len = units;
    }
    const int active = slot < ntiles && pos < len;
    const sqz_i64 *nbs = nb[active ? slot : 0u];
    const unsigned x0 = u * W, first = pos == 0u, last = pos + 1u == len;
    const sqz_u64 self = active ? (sqz_u64)nbs[4] * area + x0 : 0u;
    sqz_cu_row nxt = sqz_cu_load_row<W>(src, nbs, rho, area, active, x0, first, last, -1);
    unsigned s2 = 0u, s1 = 0u, m1 = 0u; /* 3-sums of rows y - 2, y - 1, and row y - 1 itself */
    for (int y = -1; y <= (int)rho; y++) {
      const sqz_cu_row cur = nxt;
      if (y < (int)rho) nxt = sqz_cu_load_row<W>(src, nbs, rho, area, active, x0, first, last, y + 1);
      const unsigned am = G ? sqz_cu_alive<W>(cur.m) : cur.m; /* the counted cells */
      const unsigned lm = __shfl_up_sync(SQZ_CU_FULL, am, 1), rm = __shfl_down_sync(SQZ_CU_FULL, am, 1);
      const unsigned el = G ? cur.el == 1u : cur.el, er = G ? cur.er == 1u : cur.er;
      const unsigned lb = first ? el : lm >> (8u * (W - 1u)), rbt = last ? er : rm & 0xffu;
      /* bytes: left + self + right of each cell (<= 3, no carries) */
      const unsigned s0 = W == 4u ? ((am << 8) | lb) + am + ((am >> 8) | (rbt << 24)) : lb + am + rbt;
      if (y >= 1 && active) {
        const unsigned row = (unsigned)y - 1u;
        unsigned next = sqz_cu_next<W, G>(rule, states, s2 + s1 + s0, m1);
        next &= sqz_cu_ld<W>(mask + (sqz_u64)row * rho + x0); /* holes of the micro-fractal stay 0 */
        sqz_cu_st<W>(dst + self + (sqz_u64)row * rho, next);
      }
      s2 = s1;
      s1 = s0;
      m1 = cur.m;
    }
  }
}

/* The step kernel: CTAs of up to SQZ_CU_WARPS warps, each warp loops over tile groups
 * wg = global warp, + all warps, while wg < groups (tile0 = wg * tpw). */
template <bool MMA, unsigned S, unsigned K, unsigned W, unsigned G>
__device__ void sqz_cu_life(const sqz_cu_fractal *tab, const unsigned char *__restrict__ src,
                            unsigned char *__restrict__ dst, const unsigned char *__restrict__ mask,
                            sqz_u64 groups) {
  __shared__ sqz_cu_shared sh;
  sqz_cu_load_table(&sh.T, tab);
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
  for (sqz_u64 wg = (sqz_u64)blockIdx.x * warps + warp; wg < groups; wg += (sqz_u64)gridDim.x * warps) {
    const sqz_u64 tile0 = wg * sh.T.tpw;
    const unsigned ntiles = (unsigned)(sh.T.tiles - tile0 < sh.T.tpw ? sh.T.tiles - tile0 : sh.T.tpw);
    sqz_cu_map<MMA, S, K>(sh.T, tile0, ntiles, sh.nb[warp], sh.lam[warp], lane);
    sqz_cu_step_tiles<W, G>(sh.T, src, dst, mask, ntiles, sh.nb[warp], lane);
    __syncwarp();
  }
}

#define SQZ_CU_LIFE(name, MMA, S, K, W, G)                                                                    \
  extern "C" __global__ void __launch_bounds__(SQZ_CU_WARPS * 32u)                                           \
      name(const sqz_cu_fractal *tab, const unsigned char *__restrict__ src, unsigned char *__restrict__ dst, \
           const unsigned char *__restrict__ mask, sqz_u64 groups) {                                         \
    sqz_cu_life<MMA, S, K, W, G>(tab, src, dst, mask, groups);                                               \
  }
/* sqz_life_*: two-state B/S rules; sqz_gens_*: Generations rules */
#define SQZ_CU_LIFE_W(suffix, S, K, W)                                \
  SQZ_CU_LIFE(sqz_life_mma_##suffix##_w##W, true, S, K, W##u, 0u)   \
  SQZ_CU_LIFE(sqz_life_alu_##suffix##_w##W, false, S, K, W##u, 0u)  \
  SQZ_CU_LIFE(sqz_gens_mma_##suffix##_w##W, true, S, K, W##u, 1u)   \
  SQZ_CU_LIFE(sqz_gens_alu_##suffix##_w##W, false, S, K, W##u, 1u)
#define SQZ_CU_LIFE_W1(suffix, S, K) SQZ_CU_LIFE_W(suffix, S, K, 1)
SQZ_CU_SPECIALISATIONS(SQZ_CU_LIFE_W1)
/* 4-cell words need rho % 4 == 0: never for s = 3 */
SQZ_CU_LIFE_W(s2k3, 2u, 3u, 4)
SQZ_CU_LIFE_W(gen, 0u, 0u, 4)

/* Random fill of block storage: cell i of tile b = i / rho^2 is embedded cell
 * λ_b(b) rho + (i mod rho, i div rho) of a rho-row tile; alive iff it is not a hole and
 * sqz_random_cell(seed, y side + x) says so (the hash every backend uses). */
extern "C" __global__ void __launch_bounds__(256) sqz_fill_block(const sqz_cu_fractal *tab, unsigned char *dst,
                                                                 const unsigned char *__restrict__ mask,
                                                                 sqz_u64 seed, sqz_u64 threshold, unsigned side,
                                                                 sqz_u64 cells) {
  __shared__ sqz_cu_fractal T;
  sqz_cu_load_table(&T, tab);
  const sqz_u64 area = (sqz_u64)T.rho * T.rho;
  for (sqz_u64 i = (sqz_u64)blockIdx.x * blockDim.x + threadIdx.x; i < cells; i += (sqz_u64)gridDim.x * blockDim.x) {
    const unsigned q = (unsigned)(i % area), tx = q % T.rho, ty = q / T.rho;
    sqz_u32 bx, by;
    sqz_fr_lambda(T.s, T.k, T.hl, T.rb, i / area, &bx, &by);
    const sqz_u64 e = (sqz_u64)(by * T.rho + ty) * side + bx * T.rho + tx;
    dst[i] = (unsigned char)(mask[q] ? sqz_random_cell(seed, e, threshold) : 0u);
  }
}
