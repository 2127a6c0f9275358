/* life_simplex.cl — Life-like steps and the map/accumulate micro-workloads on triangle:N / tetrahedron:N fields. */
/* Prelude: SQZ_DIMS (2 or 3), SQZ_KIND_MASK (the launch kinds of the map's plan), SQZ_SLAYOUT
 * (SQZ_SL_BB or SQZ_SL_COMPACT), SQZ_IDX32 when the storage has at most 2^32 cells, SQZ_RHO_MAX
 * (the largest block side the device's work-group limit allows: it sizes the tiles; rho itself
 * is a kernel argument) and the user's rule when there is one. One work-group per block of
 * rho^dims cells, one work-item per cell, launched through one launch of a plan:
 * lp = (kind, p0, p1, p2, o0, o1, o2, unused).
 *
 * Life tiles the block through local memory: the work-group loads its block and a one-cell
 * halo once (cells outside the domain as 0), each cell by one work-item with its storage
 * index computed once, then every work-item counts its neighbours in local memory. */

/* Tiles hold 1 for a live cell and 0 for a dead one (or one outside the domain); a user rule
 * also sees the cell's own byte, read again from src. */
#ifdef SQZ_USER_RULE
#define SQZ_SELF(raw, live) (raw)
#else
#define SQZ_SELF(raw, live) (live)
#endif

/* i / w and (*r) i % w for tile positions (i < 2^20, 3 <= w): a float estimate from rw = 1 / w
 * (a few ulp) and an integer correction, cheaper than an integer division on GPUs and CPUs. */
static inline uint sqz_tdiv(uint i, uint w, float rw, uint *r) {
  uint q = (uint)((float)i * rw);
  int d = (int)(i - q * w);
  if (d < 0) {
    q--;
    d += (int)w;
  } else if (d >= (int)w) {
    q++;
    d -= (int)w;
  }
  *r = (uint)d;
  return q;
}

#if SQZ_DIMS == 2
/* The block of this work-group (sqz_sblock2), uniform over the group; 0 when it holds no cell
 * of the domain. LTM's block map (a square root and its integer correction) runs once per
 * work-group, through blk in local memory; the other kinds cost less than the barrier and run
 * per work-item. */
static inline int sqz_block2(__local uint *blk, uint8 lp, uint rho, uint n, uint *bx, uint *by) {
  uint wx = (uint)get_group_id(0), wy = (uint)get_group_id(1);
  int ok;
#if SQZ_HAS_KIND(SQZ_SK_LTM)
  if (lp.s0 == SQZ_SK_LTM) { /* uniform: a kernel argument */
    if (get_local_id(0) == 0u && get_local_id(1) == 0u) {
      uint x = 0u, y = 0u;
      blk[0] = (uint)sqz_sblock2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, wx, wy, rho, &x, &y);
      blk[1] = x;
      blk[2] = y;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *bx = blk[1];
    *by = blk[2];
    ok = blk[0] != 0u;
  } else
#endif
    ok = sqz_sblock2(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, wx, wy, rho, bx, by);
  /* an RB block lies in the folded rectangle, every other one in the triangle's square */
  return ok && (lp.s0 == SQZ_SK_RB || (*bx <= *by + rho - 1u && *by < n));
}

/* Row y of a tile, at t: work-item tx loads cell ox + tx at position tx + 1, and work-items
 * 0 and 1 the halo cells ox - 1 (position 0) and ox + rho (position rho + 1), as flags
 * (coordinates wrap below 0, and such cells are outside). Returns the storage index of
 * ox + tx (meaningless outside). always_inline: one call site per tile, for CPU compilers. */
__attribute__((always_inline)) static inline sqz_sidx sqz_trow2(__local uchar *t, __global const uchar *src, uint n,
                                                                uint rho, uint tx, uint ox, uint y) {
  uint cnt = y < n ? y + 1u : 0u; /* row y holds x = 0 .. y */
  sqz_srow r = sqz_tri_srow(SQZ_SLAYOUT, n, y);
  uint x = ox + tx;
  sqz_sidx i = sqz_srow_index(r, x);
  t[tx + 1u] = x < cnt && src[i] != 0;
  if (tx < 2u || rho == 1u) { /* rho = 1: work-item 0 loads both */
    uint p = (rho == 1u ? 1u : tx) * (rho + 1u);
    t[p] = ox - 1u + p < cnt && src[sqz_srow_index(r, ox - 1u + p)] != 0;
    if (rho == 1u) t[0] = ox - 1u < cnt && src[sqz_srow_index(r, ox - 1u)] != 0;
  }
  return i;
}
/* Tile of the box of rho x rho cells at (ox, oy) with its halo: (rho + 2)^2 flags, row by row
 * from (ox - 1, oy - 1). Work-item (tx, ty) loads cell (ox + tx, oy + ty), whose storage index
 * it returns, and work-items of rows 0 and 1 the halo rows. */
#define SQZ_TILE ((SQZ_RHO_MAX + 2) * (SQZ_RHO_MAX + 2))
__attribute__((always_inline)) static inline sqz_sidx sqz_tile2(__local uchar *t, __global const uchar *src, uint n,
                                                                uint rho, uint ox, uint oy, uint tx, uint ty) {
  uint w = rho + 2u;
  if (ty < 2u || rho == 1u) {
    uint p = (rho == 1u ? 1u : ty) * (rho + 1u);
    sqz_trow2(t + p * w, src, n, rho, tx, ox, oy - 1u + p);
    if (rho == 1u) sqz_trow2(t, src, n, rho, tx, ox, oy - 1u);
  }
  return sqz_trow2(t + (ty + 1u) * w, src, n, rho, tx, ox, oy + ty);
}

__kernel void sqz_life2(__global const uchar *restrict src, __global uchar *restrict dst, uint n, uint rho,
                        uint birth, uint survive, uint8 lp) {
  __local uchar tile[SQZ_TILE];
  __local uint blk[3];
  uint bx = 0u, by = 0u, tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
  /* has is uniform over the group; a group without a cell skips the tile but passes the barrier
   * before it leaves: PoCL 3 miscompiled an early return here */
  int has = sqz_block2(blk, lp, rho, n, &bx, &by);
  uint ox = bx, oy = by, ux = tx, uy = ty; /* the work-item's cell is (ox + ux, oy + uy) */
#if SQZ_HAS_KIND(SQZ_SK_RB)
  int mixed = 0;
  if (lp.s0 == SQZ_SK_RB) {
    /* (bx, by) is a block of the rectangle: its straight cells lie in the box at (bx, by - e)
     * of the triangle, its turned cells (cell (tx, ty) at (rho - 1 - tx, rho - 1 - ty)) in the
     * box at (n - e - bx - rho + 1, n - by - rho). The few blocks across the fold line (about
     * rho / n of them) hold cells of both: they count from global memory, as the cpu backend. */
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
  sqz_sidx own = has ? sqz_tile2(tile, src, n, rho, ox, oy, ux, uy) : 0u; /* the cell's storage index */
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x, y;
  if (!has || !sqz_scell2(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, bx, by, tx, ty, n, &x, &y)) return;
#if SQZ_HAS_KIND(SQZ_SK_RB)
  if (mixed) {
    sqz_sidx i = 0u;
    uint live = sqz_tri_live(src, SQZ_SLAYOUT, n, x, y, &i);
    dst[i] = (uchar)SQZ_APPLY_RULE(src[i], live, birth, survive);
    return;
  }
#endif
  uint w = rho + 2u;
  __local const uchar *c = tile + (y - oy + 1u) * w + (x - ox + 1u), *up = c - w, *dn = c + w;
  uint live = up[-1] + up[0] + up[1] + c[-1] + c[1] + dn[-1] + dn[0] + dn[1];
  dst[own] = (uchar)SQZ_APPLY_RULE(SQZ_SELF(src[own], c[0]), live, birth, survive);
}

/* Micro-workloads of the map papers: every domain cell written once (acc = 0: store 1) or
 * read and incremented (acc = 1). */
__kernel void sqz_touch2(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  __local uint blk[3];
  uint bx = 0u, by = 0u, x, y;
  if (!sqz_block2(blk, lp, rho, n, &bx, &by) ||
      !sqz_scell2(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, bx, by, (uint)get_local_id(0), (uint)get_local_id(1), n, &x, &y))
    return;
  sqz_sidx i = sqz_tri_index(SQZ_SLAYOUT, n, x, y);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}

#else
/* As sqz_block2, for LTM3 (a cube root, a square root and their corrections). */
static inline int sqz_block3(__local uint *blk, uint8 lp, uint rho, uint n, uint *bx, uint *by, uint *bz) {
  uint wx = (uint)get_group_id(0), wy = (uint)get_group_id(1), wz = (uint)get_group_id(2);
  int ok;
#if SQZ_HAS_KIND(SQZ_SK_LTM3)
  if (lp.s0 == SQZ_SK_LTM3) {
    if (get_local_id(0) == 0u && get_local_id(1) == 0u && get_local_id(2) == 0u) {
      uint x = 0u, y = 0u, z = 0u;
      blk[0] = (uint)sqz_sblock3(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, lp.s6, wx, wy, wz, rho, &x, &y, &z);
      blk[1] = x;
      blk[2] = y;
      blk[3] = z;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *bx = blk[1];
    *by = blk[2];
    *bz = blk[3];
    ok = blk[0] != 0u;
  } else
#endif
    ok = sqz_sblock3(lp.s0, lp.s1, lp.s2, lp.s4, lp.s5, lp.s6, wx, wy, wz, rho, bx, by, bz);
  return ok && *bx + *by + *bz < n;
}

/* As sqz_tile2: the (rho + 2)^3 flags from (ox - 1, oy - 1, oz - 1), x fastest. Each of the
 * (rho + 2)^2 rows first gets its storage index and its number of domain cells (x from 0),
 * in rbase and rcnt, so that a cell costs one comparison and one addition. A group without
 * a cell (has = 0) loads nothing and passes the barrier. */
#define SQZ_TROWS ((SQZ_RHO_MAX + 2) * (SQZ_RHO_MAX + 2))
static inline void sqz_tile3(__local uchar *t, __local sqz_sidx *rbase, __local uint *rcnt,
                             __global const uchar *src, uint n, uint rho, uint ox, uint oy, uint oz, int has) {
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
    t[i] = x < rcnt[r] && src[rbase[r] + x] != 0;
  }
}

__kernel void sqz_life3(__global const uchar *restrict src, __global uchar *restrict dst, uint n, uint rho,
                        uint birth, uint survive, uint8 lp) {
  __local uchar tile[(SQZ_RHO_MAX + 2) * SQZ_TROWS];
  __local sqz_sidx rbase[SQZ_TROWS];
  __local uint rcnt[SQZ_TROWS];
  __local uint blk[4];
  uint bx = 0u, by = 0u, bz = 0u;
  uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1), tz = (uint)get_local_id(2);
  int has = sqz_block3(blk, lp, rho, n, &bx, &by, &bz); /* uniform: leave after the barriers, as in 2D */
  sqz_tile3(tile, rbase, rcnt, src, n, rho, bx, by, bz, has); /* !has: the barrier only */
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x, y, z;
  if (!has || !sqz_scell3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, bx, by, bz, tx, ty, tz, n, &x, &y, &z)) return;
  int w = (int)rho + 2;
  __local const uchar *c = tile + ((tz + 1u) * (uint)w + ty + 1u) * (uint)w + tx + 1u;
  uint live = 0u;
  for (int dz = -w * w; dz <= w * w; dz += w * w)
    for (int dy = -w; dy <= w; dy += w) {
      __local const uchar *r = c + dz + dy;
      live += r[-1] + r[0] + r[1];
    }
  live -= c[0];
  sqz_sidx i = rbase[(tz + 1u) * (uint)w + ty + 1u] + x;
  dst[i] = (uchar)SQZ_APPLY_RULE(SQZ_SELF(src[i], c[0]), live, birth, survive);
}

__kernel void sqz_touch3(__global uchar *dst, uint n, uint rho, uint acc, uint8 lp) {
  __local uint blk[4];
  uint bx = 0u, by = 0u, bz = 0u, x, y, z;
  if (!sqz_block3(blk, lp, rho, n, &bx, &by, &bz) ||
      !sqz_scell3(lp.s0, lp.s1, lp.s2, lp.s3, lp.s4, lp.s5, lp.s6, bx, by, bz, (uint)get_local_id(0),
                  (uint)get_local_id(1), (uint)get_local_id(2), n, &x, &y, &z))
    return;
  sqz_sidx i = sqz_tet_index(SQZ_SLAYOUT, n, x, y, z);
  dst[i] = acc ? (uchar)(dst[i] + 1u) : (uchar)1;
}
#endif
