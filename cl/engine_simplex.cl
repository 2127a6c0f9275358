/* engine_simplex.cl — the stencil engine on triangle:N / tetrahedron:N fields: thread-map traversal and Moore-neighbour gather. */
/* Prelude: SQZ_DIMS (2 or 3), SQZ_KIND_MASK (the launch kinds of the map's plan), SQZ_SLAYOUT
 * (SQZ_SL_BB or SQZ_SL_COMPACT), SQZ_IDX32 when the storage has at most 2^32 cells, SQZ_RHO_MAX
 * (the largest block side the device's work-group limit allows: it sizes the tiles; rho itself
 * is a kernel argument) and the update (backends/opencl/cl_engine.h: sqz_cell_t, sqz_param_t,
 * SQZ_APPLY(self, nb, present), SQZ_WANT_PRESENT). One work-group per block of rho^dims cells,
 * one work-item per cell, launched through one launch of a plan:
 * lp = (kind, p0, p1, p2, o0, o1, o2, unused).
 *
 * The step tiles the block through local memory: the work-group loads its block and a one-cell
 * halo once (cells outside the domain as 0), each cell by one work-item with its storage
 * index computed once, then every work-item gathers its neighbours from local memory.
 *
 * Fields in parts (cl/sqz_parts.h; unit = one cell): the step kernels end with the part's own
 * cells [pu0, pu1) and its pnh sorted halo cells phalo, every read goes through the cell's slot
 * (cells in no slot read as 0: they are no neighbour of an own cell) and only own cells are
 * written, those of the launch's unit set (prn runs pruns: inner or border cells; 0: all). That code is compiled only into a part's program (SQZ_PARTED): a field in one buffer
 * (pu0 = 0, pu1 = cells, pnh = 0) reads and writes storage directly, as before parts. */
#define SQZ_PART_ARGS , ulong pu0, ulong pu1, ulong pnh, __global const ulong *phalo, ulong prn, __global const ulong *pruns
#ifdef SQZ_PARTED /* the host defines it for a part's program: a field in one buffer pays nothing */
static inline sqz_cell_t sqz_part_cell(__global const sqz_cell_t *src, ulong i, sqz_part_map pm) {
  long s = sqz_part_slot(i, pm.u0, pm.u1, pm.n_halo, pm.halo);
  return s < 0 ? (sqz_cell_t)0 : src[s];
}
static inline int sqz_part_own(ulong i, sqz_part_map pm) {
  return i >= pm.u0 && i < pm.u1 && sqz_units_has(i, pm.n_runs, pm.runs);
}
/* A part of several (cells outside it exist): a group whose block holds no own cell skips its
 * tile and step (uniform over the group, after the barriers). mine: the work-item's cell is own
 * and in the launch's set. */
static inline int sqz_part_group(__local int *any, int mine, sqz_part_map pm) {
  if (pm.u0 == 0u && pm.n_halo == 0u) return 1; /* one part: the whole field */
  if (get_local_id(0) == 0u && get_local_id(1) == 0u && get_local_id(2) == 0u) *any = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (mine) *any = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  return *any;
}
#else /* one buffer: storage index = slot, every cell own */
#define sqz_part_cell(src, i, pm) ((src)[i])
#define sqz_part_own(i, pm) 1
#define sqz_part_group(any, mine, pm) 1
#endif

#if SQZ_DIMS == 2
/* Row y of a tile, at t: work-item tx loads cell ox + tx at position tx + 1, and work-items
 * 0 and 1 the halo cells ox - 1 (position 0) and ox + rho (position rho + 1), as flags
 * (coordinates wrap below 0, and such cells are outside). Returns the storage index of
 * ox + tx (meaningless outside). always_inline: one call site per tile, for CPU compilers. */
__attribute__((always_inline)) static inline sqz_sidx sqz_trow2(__local sqz_cell_t *t, __global const sqz_cell_t *src,
                                                                uint n, uint rho, uint tx, uint ox, uint y,
                                                                sqz_part_map pm) {
  uint cnt = y < n ? y + 1u : 0u; /* row y holds x = 0 .. y */
  sqz_srow r = sqz_tri_srow(SQZ_SLAYOUT, n, y);
  uint x = ox + tx;
  sqz_sidx i = sqz_srow_index(r, x);
  t[tx + 1u] = x < cnt ? sqz_part_cell(src, i, pm) : (sqz_cell_t)0;
  if (tx < 2u || rho == 1u) { /* rho = 1: work-item 0 loads both */
    uint p = (rho == 1u ? 1u : tx) * (rho + 1u);
    t[p] = ox - 1u + p < cnt ? sqz_part_cell(src, sqz_srow_index(r, ox - 1u + p), pm) : (sqz_cell_t)0;
    if (rho == 1u) t[0] = ox - 1u < cnt ? sqz_part_cell(src, sqz_srow_index(r, ox - 1u), pm) : (sqz_cell_t)0;
  }
  return i;
}
/* Tile of the box of rho x rho cells at (ox, oy) with its halo: (rho + 2)^2 flags, row by row
 * from (ox - 1, oy - 1). Work-item (tx, ty) loads cell (ox + tx, oy + ty), whose storage index
 * it returns, and work-items of rows 0 and 1 the halo rows. */
#define SQZ_TILE ((SQZ_RHO_MAX + 2) * (SQZ_RHO_MAX + 2))
__attribute__((always_inline)) static inline sqz_sidx sqz_tile2(__local sqz_cell_t *t, __global const sqz_cell_t *src,
                                                                uint n, uint rho, uint ox, uint oy, uint tx, uint ty,
                                                                sqz_part_map pm) {
  uint w = rho + 2u;
  if (ty < 2u || rho == 1u) {
    uint p = (rho == 1u ? 1u : ty) * (rho + 1u);
    sqz_trow2(t + p * w, src, n, rho, tx, ox, oy - 1u + p, pm);
    if (rho == 1u) sqz_trow2(t, src, n, rho, tx, ox, oy - 1u, pm);
  }
  return sqz_trow2(t + (ty + 1u) * w, src, n, rho, tx, ox, oy + ty, pm);
}

/* Which of the 8 neighbours of triangle cell (x, y) are domain cells (0 <= x <= y < n). */
static inline uint sqz_tri_present(uint n, uint x, uint y) {
  uint present = 0u;
#ifdef SQZ_WANT_PRESENT
  for (uint d = 0u; d < 8u; d++) {
    uint w = d < 4u ? d : d + 1u, xx = x + w % 3u - 1u, yy = y + w / 3u - 1u; /* wraps below 0 */
    if (yy < n && xx <= yy) present |= 1u << d;
  }
#endif
  return present;
}

__kernel void sqz_engine2(__global const sqz_cell_t *restrict src, __global sqz_cell_t *restrict dst,
                          __constant const sqz_param_t *param, uint2 ip, uint n, uint rho, uint8 lp SQZ_PART_ARGS) {
  sqz_part_map pm = {pu0, pu1, pnh, phalo, prn, pruns};
  __local sqz_cell_t tile[SQZ_TILE];
  __local uint blk[3];
#ifdef SQZ_PARTED
  __local int any;
  uint cx, cy;
#endif
  uint bx = 0u, by = 0u, tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
  /* has is uniform over the group; a group without a cell skips the tile but passes the barrier
   * before it leaves: PoCL 3 miscompiled an early return here */
  int has = sqz_block2(blk, lp, rho, n, &bx, &by);
#ifdef SQZ_PARTED
  int mine = has && sqz_scell2(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, bx, by, tx, ty, n, &cx, &cy) &&
             sqz_part_own(sqz_tri_index(SQZ_SLAYOUT, n, cx, cy), pm);
  has = sqz_part_group(&any, mine, pm) && has;
#endif
  uint ox = bx, oy = by, ux = tx, uy = ty; /* the work-item's cell is (ox + ux, oy + uy) */
#if SQZ_HAS_KIND(SQZ_SK_RB)
  int mixed = 0;
  if (lp.s0 == SQZ_SK_RB) {
    /* (bx, by) is a block of the rectangle: its straight cells lie in the box at (bx, by - e)
     * of the triangle, its turned cells (cell (tx, ty) at (rho - 1 - tx, rho - 1 - ty)) in the
     * box at (n - e - bx - rho + 1, n - by - rho). The few blocks across the fold line (about
     * rho / n of them) hold cells of both: they gather from global memory, as the cpu backend. */
    uint e = 1u - (n & 1u);
    int all_turned = !sqz_fold_straight(n, bx, by + rho - 1u);
    mixed = !all_turned && !sqz_fold_straight(n, bx + rho - 1u, by);
    if (all_turned) {
      ox = n - e - bx - (rho - 1u);
      oy = n - by - rho;
      ux = rho - 1u - tx;
      uy = rho - 1u - ty;
    } else {
      oy = by - e;
    }
  }
#endif
  sqz_sidx own = has ? sqz_tile2(tile, src, n, rho, ox, oy, ux, uy, pm) : 0u; /* the cell's storage index */
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x, y;
  if (!has || !sqz_scell2(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, bx, by, tx, ty, n, &x, &y)) return;
  sqz_cell_t nb[8];
#if SQZ_HAS_KIND(SQZ_SK_RB)
  if (mixed) {
    sqz_sidx i = 0u, idx[8];
    uint present = sqz_tri_nbrs(SQZ_SLAYOUT, n, x, y, idx, &i);
    for (uint d = 0u; d < 8u; d++) nb[d] = (present >> d) & 1u ? sqz_part_cell(src, idx[d], pm) : (sqz_cell_t)0;
    if (sqz_part_own(i, pm)) dst[i - pu0] = SQZ_APPLY(sqz_part_cell(src, i, pm), nb, present);
    return;
  }
#endif
  uint w = rho + 2u;
  __local const sqz_cell_t *c = tile + (y - oy + 1u) * w + (x - ox + 1u), *up = c - w, *dn = c + w;
  nb[0] = up[-1];
  nb[1] = up[0];
  nb[2] = up[1];
  nb[3] = c[-1];
  nb[4] = c[1];
  nb[5] = dn[-1];
  nb[6] = dn[0];
  nb[7] = dn[1];
  if (sqz_part_own(own, pm)) dst[own - pu0] = SQZ_APPLY(c[0], nb, sqz_tri_present(n, x, y));
}

#else
/* As sqz_tile2: the (rho + 2)^3 flags from (ox - 1, oy - 1, oz - 1), x fastest. Each of the
 * (rho + 2)^2 rows first gets its storage index and its number of domain cells (x from 0),
 * in rbase and rcnt, so that a cell costs one comparison and one addition. A group without
 * a cell (has = 0) loads nothing and passes the barrier. */
#define SQZ_TROWS ((SQZ_RHO_MAX + 2) * (SQZ_RHO_MAX + 2))
static inline void sqz_tile3(__local sqz_cell_t *t, __local sqz_sidx *rbase, __local uint *rcnt,
                             __global const sqz_cell_t *src, uint n, uint rho, uint ox, uint oy, uint oz, int has,
                             sqz_part_map pm) {
  uint w = rho + 2u, g = rho * rho * rho, rows = has ? w * w : 0u, cells = has ? w * w * w : 0u;
  uint first = (uint)get_local_id(0) + rho * ((uint)get_local_id(1) + rho * (uint)get_local_id(2));
  float rw = 1.0f / (float)w;
  for (uint r = first; r < rows; r += g) {
    uint ly, lz = sqz_tdiv(r, w, rw, &ly);
    uint y = oy - 1u + ly, z = oz - 1u + lz;
    int in = y < n && z < n && y + z < n;
    rcnt[r] = in ? n - y - z : 0u;
    rbase[r] = in ? sqz_tet_layer(SQZ_SLAYOUT, n, z) + sqz_tet_rowoff(SQZ_SLAYOUT, n, y, z) : (sqz_sidx)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = first; i < cells; i += g) {
    uint lx, r = sqz_tdiv(i, w, rw, &lx);
    uint x = ox - 1u + lx; /* wraps to >= rcnt[r] left of x = 0 */
    t[i] = x < rcnt[r] ? sqz_part_cell(src, rbase[r] + x, pm) : (sqz_cell_t)0;
  }
}

/* Which of the 26 neighbours of tetrahedron cell (x, y, z) are domain cells (x + y + z < n). */
static inline uint sqz_tet_present(uint n, uint x, uint y, uint z) {
  uint present = 0u;
#ifdef SQZ_WANT_PRESENT
  for (uint d = 0u; d < 26u; d++) {
    uint w = d < 13u ? d : d + 1u, xx = x + w % 3u - 1u, yy = y + w / 3u % 3u - 1u, zz = z + w / 9u - 1u;
    if (xx < n && yy < n && zz < n && xx + yy + zz < n) present |= 1u << d;
  }
#endif
  return present;
}

__kernel void sqz_engine3(__global const sqz_cell_t *restrict src, __global sqz_cell_t *restrict dst,
                          __constant const sqz_param_t *param, uint2 ip, uint n, uint rho, uint8 lp SQZ_PART_ARGS) {
  sqz_part_map pm = {pu0, pu1, pnh, phalo, prn, pruns};
  __local sqz_cell_t tile[(SQZ_RHO_MAX + 2) * SQZ_TROWS];
  __local sqz_sidx rbase[SQZ_TROWS];
  __local uint rcnt[SQZ_TROWS];
  __local uint blk[4];
#ifdef SQZ_PARTED
  __local int any;
  uint cx, cy, cz;
#endif
  uint bx = 0u, by = 0u, bz = 0u;
  uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1), tz = (uint)get_local_id(2);
  int has = sqz_block3(blk, lp, rho, n, &bx, &by, &bz); /* uniform: leave after the barriers, as in 2D */
#ifdef SQZ_PARTED
  int mine = has && sqz_scell3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, bx, by, bz, tx, ty, tz, n, &cx, &cy, &cz) &&
             sqz_part_own(sqz_tet_index(SQZ_SLAYOUT, n, cx, cy, cz), pm);
  has = sqz_part_group(&any, mine, pm) && has;
#endif
  sqz_tile3(tile, rbase, rcnt, src, n, rho, bx, by, bz, has, pm); /* !has: the barrier only */
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x, y, z;
  if (!has || !sqz_scell3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, bx, by, bz, tx, ty, tz, n, &x, &y, &z)) return;
  int w = (int)rho + 2;
  __local const sqz_cell_t *c = tile + ((tz + 1u) * (uint)w + ty + 1u) * (uint)w + tx + 1u;
  sqz_cell_t nb[26];
  /* constant indices after unrolling, so nb stays in registers */
#pragma unroll
  for (int i = 0; i < 27; i++)
    if (i != 13) nb[i < 13 ? i : i - 1] = c[(i / 9 - 1) * w * w + (i / 3 % 3 - 1) * w + i % 3 - 1];
  sqz_sidx i = rbase[(tz + 1u) * (uint)w + ty + 1u] + x;
  if (sqz_part_own(i, pm)) dst[i - pu0] = SQZ_APPLY(c[0], nb, sqz_tet_present(n, x, y, z));
}
#endif
