/* sqz_simplex.h — every triangle/tetrahedron thread map and the compact storage index, shared by host C and OpenCL C. */
#ifndef SQZ_SIMPLEX_H
#define SQZ_SIMPLEX_H
/* Needs sqz_common.h first. Domains (docs/MAPS.md 1.1, 2.1): triangle:n is 0 <= x <= y < n and
 * tetrahedron:n is x + y + z <= n - 1. Maps follow docs/MAPS.md 1 and 2; a launch is a block grid
 * plus the parameters of one launch kind, so every map (and every launch of a plan) is one
 * call of sqz_smap2 / sqz_smap3 with the kernel's group and local ids. */

#ifdef __OPENCL_VERSION__
#define SQZ_SQRTF(v) sqrt(v)
#define SQZ_CBRTF(v) cbrt(v)
#else
#include <math.h>
#define SQZ_SQRTF(v) sqrtf(v)
#define SQZ_CBRTF(v) cbrtf(v)
#endif

/* ---- launch kinds (parameters p0..p3, element offset o0..o2) ---------------------------- */
#define SQZ_SK_BOX 1   /* block grid over the box [o, o + (p0, p1)), 2D (bb, rec)          */
#define SQZ_SK_LTM 2   /* p0 = blocks per side nb, p1 = grid side g                          */
#define SQZ_SK_RB 3    /* thread-level rectangle fold, p0 = W, p1 = H                         */
#define SQZ_SK_HAD 4   /* p0 = last trapezoid row, p1 = tower x shift, p2 = tower y shift    */
#define SQZ_SK_BOX3 5  /* block grid over the box [o, o + (p0, p1, p2)), 3D (bb, rec3)       */
#define SQZ_SK_LTM3 6  /* p0 = blocks per side nb, p1 = grid side c                          */
#define SQZ_SK_HAD3 7  /* main orthotope of HAD3, p0 = nb (power of two >= 2)               */
#define SQZ_SK_HAD3S 8 /* strip of HAD3 (the by = 0 layer), p0 = nb (power of two)          */

/* Kinds compiled into a kernel: the prelude may restrict them (bit k = kind k). */
#ifndef SQZ_KIND_MASK
#define SQZ_KIND_MASK 0xFFFFFFFFu
#endif
#define SQZ_HAS_KIND(k) (((SQZ_KIND_MASK) >> (k)) & 1u)

/* ---- integer roots with an estimate and an exact integer correction ------------------------ */
/* Te(k) by exact division: k(k+1)(k+2)/2 is a multiple of 3 and 0xAAAAAAAAAAAAAAAB is the
 * inverse of 3 modulo 2^64 (the same value as sqz_tet, without a division). */
SQZ_FN sqz_u64 sqz_te(sqz_u64 k) { return sqz_tri(k) * (k + 2u) * (sqz_u64)0xAAAAAAAAAAAAAAABUL; }
/* max{y : T(y) <= v}  (T(y) = y(y+1)/2), v <= T(2^31) */
SQZ_FN sqz_u64 sqz_tri_root(sqz_u64 v) {
  sqz_u64 y = (sqz_u64)((SQZ_SQRTF(8.0f * (float)v + 1.0f) - 1.0f) * 0.5f);
  while (y > 0u && sqz_tri(y) > v) y--;
  while (sqz_tri(y + 1u) <= v) y++;
  return y;
}
/* max{z : Te(z) <= v}  (Te(z) = z(z+1)(z+2)/6), v <= Te(2^21) */
SQZ_FN sqz_u64 sqz_tet_root(sqz_u64 v) {
  float c = SQZ_CBRTF(6.0f * (float)v) - 1.0f;
  sqz_u64 z = c > 0.0f ? (sqz_u64)c : 0u;
  while (z > 0u && sqz_te(z) > v) z--;
  while (sqz_te(z + 1u) <= v) z++;
  return z;
}

/* ---- 2D building blocks ----------------------------------------------------------------- */
/* LTM (docs/MAPS.md 1.3): linear block index bc = T(Y) + X -> (X, Y), 0 <= X <= Y */
SQZ_FN void sqz_ltm2(sqz_u64 bc, sqz_u32 *bx, sqz_u32 *by) {
  sqz_u64 y = sqz_tri_root(bc);
  *by = (sqz_u32)y;
  *bx = (sqz_u32)(bc - sqz_tri(y));
}

/* HAD (docs/MAPS.md 1.5/1.6), branch-free form: UPPER(N) uses (last, hw, shift) = (N-1, N/2, 1),
 * LOWER(Lb, Mb) uses (Mb-1, Lb/2, Mb-Lb+1). Rows above `last` are the tower rows. */
SQZ_FN void sqz_had2(sqz_u32 last, sqz_u32 hw, sqz_u32 shift, sqz_u32 wx, sqz_u32 wy,
                     sqz_u32 *bx, sqz_u32 *by) {
  sqz_u32 h = sqz_ilog2(wy + 1u);
  sqz_u32 qb = wx & (0xFFFFFFFFu << h);
  sqz_u32 k = wy > last ? 0xFFFFFFFFu : 0u;
  *bx = wx + qb + (k & hw);
  *by = wy + 2u * qb - (k & shift);
}
/* Inverse of UPPER(N): block (X <= Y < N) -> omega (docs/MAPS.md 1.5). */
SQZ_FN void sqz_had2_inverse(sqz_u32 nb, sqz_u32 bx, sqz_u32 by, sqz_u32 *wx, sqz_u32 *wy) {
  if (nb >= 2u && by == nb - 1u && bx >= nb / 2u) {
    *wx = bx - nb / 2u;
    *wy = nb;
    return;
  }
  sqz_u32 h = sqz_ilog2(bx ^ (by + 1u));
  sqz_u32 qb = (bx >> (h + 1u)) << h;
  *wx = bx - qb;
  *wy = by - 2u * qb;
}

/* RB rectangle fold (docs/MAPS.md 1.4): W x H = T(n), W = floor((n+1)/2), H = n + 1 - (n & 1). */
SQZ_FN sqz_u32 sqz_fold_w(sqz_u64 n) { return (sqz_u32)((n + 1u) >> 1); }
SQZ_FN sqz_u64 sqz_fold_h(sqz_u64 n) { return n + 1u - (n & 1u); }
/* 1 when rectangle cell (u, v) is folded straight, (x, y) = (u, v - e); 0 when it is turned
 * half a turn, (x, y) = (n - e - u, n - 1 - v), where e = 1 for even n */
SQZ_FN int sqz_fold_straight(sqz_u32 n, sqz_u32 u, sqz_u32 v) { return u + 1u - (n & 1u) <= v; }
/* rectangle (u, v) -> triangle (x, y) */
SQZ_FN void sqz_fold(sqz_u32 n, sqz_u32 u, sqz_u32 v, sqz_u32 *x, sqz_u32 *y) {
  sqz_u32 e = 1u - (n & 1u); /* 1 for even n */
  if (sqz_fold_straight(n, u, v)) {
    *x = u;
    *y = v - e;
  } else {
    *x = n - e - u;
    *y = n - 1u - v;
  }
}
/* triangle (x, y) -> rectangle (u, v) */
SQZ_FN void sqz_unfold(sqz_u32 n, sqz_u32 x, sqz_u32 y, sqz_u32 *u, sqz_u32 *v) {
  sqz_u32 e = 1u - (n & 1u);
  if (x < sqz_fold_w(n)) {
    *u = x;
    *v = y + e;
  } else {
    *u = n - e - x;
    *v = n - 1u - y;
  }
}

/* ---- 2D thread map: launch parameters + ids -> triangle cell ----------------------------- */
/* Every launch kind gives each work-group a block of rho x rho cells: cell (tx, ty) of the
 * block at (bx, by) is (bx + tx, by + ty), except for RB, whose blocks tile the folded
 * rectangle: there (bx + tx, by + ty) is the rectangle cell (u, v) and the cell is fold(u, v).
 * Returns 0 when work-group (wx, wy) owns no cell at all. */
SQZ_FN int sqz_sblock2(sqz_u32 kind, sqz_u32 p0, sqz_u32 p1, sqz_u32 p2, sqz_u32 o0, sqz_u32 o1, sqz_u32 wx,
                       sqz_u32 wy, sqz_u32 rho, sqz_u32 *bx, sqz_u32 *by) {
  sqz_u32 cx = wx, cy = wy; /* the block in block units, then offset by o */
  if (SQZ_HAS_KIND(SQZ_SK_LTM) && kind == SQZ_SK_LTM) {
    sqz_u64 bc = (sqz_u64)wx + (sqz_u64)wy * p1;
    if (bc >= sqz_tri(p0)) return 0;
    sqz_ltm2(bc, &cx, &cy);
  } else if (SQZ_HAS_KIND(SQZ_SK_HAD) && kind == SQZ_SK_HAD) {
    sqz_had2(p0, p1, p2, wx, wy, &cx, &cy);
  } else if (SQZ_HAS_KIND(SQZ_SK_RB) && kind == SQZ_SK_RB) {
    /* RB and BOX blocks are the launch grid itself */
  } else if (SQZ_HAS_KIND(SQZ_SK_BOX) && kind == SQZ_SK_BOX) {
  } else {
    return 0;
  }
  *bx = o0 + cx * rho;
  *by = o1 + cy * rho;
  return 1;
}
/* Cell (tx, ty) of the block (bx, by) of sqz_sblock2: returns 1 and sets (x, y) when the
 * thread owns a cell of triangle:n, 0 otherwise. */
SQZ_FN int sqz_scell2(sqz_u32 kind, sqz_u32 p0, sqz_u32 p1, sqz_u32 o0, sqz_u32 o1, sqz_u32 bx, sqz_u32 by,
                      sqz_u32 tx, sqz_u32 ty, sqz_u32 n, sqz_u32 *x, sqz_u32 *y) {
  if (SQZ_HAS_KIND(SQZ_SK_RB) && kind == SQZ_SK_RB) {
    if (bx + tx >= p0 || by + ty >= p1) return 0;
    sqz_fold(n, bx + tx, by + ty, x, y);
    return 1;
  }
  if (SQZ_HAS_KIND(SQZ_SK_BOX) && kind == SQZ_SK_BOX && (bx - o0 + tx >= p0 || by - o1 + ty >= p1)) return 0;
  *x = bx + tx;
  *y = by + ty;
  return *x <= *y && *y < n;
}
/* Returns 1 and sets (x, y) when the thread owns a cell of triangle:n, 0 otherwise. */
SQZ_FN int sqz_smap2(sqz_u32 kind, sqz_u32 p0, sqz_u32 p1, sqz_u32 p2, sqz_u32 o0, sqz_u32 o1,
                     sqz_u32 wx, sqz_u32 wy, sqz_u32 tx, sqz_u32 ty, sqz_u32 rho, sqz_u32 n,
                     sqz_u32 *x, sqz_u32 *y) {
  sqz_u32 bx = 0u, by = 0u;
  return sqz_sblock2(kind, p0, p1, p2, o0, o1, wx, wy, rho, &bx, &by) &&
         sqz_scell2(kind, p0, p1, o0, o1, bx, by, tx, ty, n, x, y);
}

/* ---- 3D building blocks ----------------------------------------------------------------- */
/* LTM3 (docs/MAPS.md 2.3): w = Te(c) + T(b) + a with a <= b <= c < nb, turned into the regular
 * simplex block (a, b - a, nb - 1 - c), so that X + Y + Z <= nb - 1. */
SQZ_FN void sqz_ltm3(sqz_u32 nb, sqz_u64 w, sqz_u32 *bx, sqz_u32 *by, sqz_u32 *bz) {
  sqz_u64 c = sqz_tet_root(w);
  sqz_u32 a, b;
  sqz_ltm2(w - sqz_te(c), &a, &b);
  *bx = a;
  *by = b - a;
  *bz = nb - 1u - (sqz_u32)c;
}

/* HAD3 main orthotope (docs/MAPS.md 2.4): (N/2) x (N/2) x (3N/4) blocks (1 layer when N = 2). */
SQZ_FN int sqz_had3_main(sqz_u32 nb, sqz_u32 gx, sqz_u32 gy, sqz_u32 gz, sqz_u32 *bx, sqz_u32 *by,
                         sqz_u32 *bz) {
  sqz_i32 hw = (sqz_i32)(nb / 2u), m = (sqz_i32)nb - 1;
  sqz_i32 x, y, z;
  if ((sqz_i32)gz < hw) {
    x = (sqz_i32)gx;
    y = hw - 1 - (sqz_i32)gy;
    z = (sqz_i32)gz;
    if (x + y + z >= m) {
      x = hw - 1 - x;
      y = hw - 1 - y;
      z = (sqz_i32)nb - 1 - z;
    }
  } else {
    if (gy == 0u) return 0;
    sqz_u32 h = sqz_ilog2(gy);
    sqz_i32 b = 1 << h, zz = (sqz_i32)gz - hw;
    if (zz >= b) return 0;
    sqz_i32 qb = (sqz_i32)((gx >> h) << h);
    x = (sqz_i32)gx + qb;
    y = m - ((sqz_i32)gy + 2 * qb);
    z = zz;
    if (x + y + z >= m) {
      sqz_i32 lx = x & (b - 1), ly = y & (b - 1);
      x = x - lx + (b - 1 - ly);
      y = y - ly + (b - 1 - lx);
      z = 2 * b - 1 - z;
    }
  }
  *bx = (sqz_u32)x;
  *by = (sqz_u32)y + 1u;
  *bz = (sqz_u32)z;
  return 1;
}
/* HAD3 strip: the 2D map UPPER(N) in the xz plane, block (X, 0, N - 1 - Y). */
SQZ_FN void sqz_had3_strip(sqz_u32 nb, sqz_u32 wx, sqz_u32 wy, sqz_u32 *bx, sqz_u32 *by, sqz_u32 *bz) {
  sqz_u32 x2, y2;
  sqz_had2(nb - 1u, nb / 2u, 1u, wx, wy, &x2, &y2);
  *bx = x2;
  *by = 0u;
  *bz = nb - 1u - y2;
}

/* ---- 3D thread map ----------------------------------------------------------------------- */
/* Block of work-group (wx, wy, wz): cell (tx, ty, tz) of the block at (bx, by, bz) is
 * (bx + tx, by + ty, bz + tz). Returns 0 when the work-group owns no cell at all. */
SQZ_FN int sqz_sblock3(sqz_u32 kind, sqz_u32 p0, sqz_u32 p1, sqz_u32 o0, sqz_u32 o1, sqz_u32 o2, sqz_u32 wx,
                       sqz_u32 wy, sqz_u32 wz, sqz_u32 rho, sqz_u32 *bx, sqz_u32 *by, sqz_u32 *bz) {
  sqz_u32 cx = wx, cy = wy, cz = wz;
  if (SQZ_HAS_KIND(SQZ_SK_LTM3) && kind == SQZ_SK_LTM3) {
    sqz_u64 w = (sqz_u64)wx + (sqz_u64)p1 * ((sqz_u64)wy + (sqz_u64)p1 * wz);
    if (w >= sqz_te(p0)) return 0;
    sqz_ltm3(p0, w, &cx, &cy, &cz);
  } else if (SQZ_HAS_KIND(SQZ_SK_HAD3) && kind == SQZ_SK_HAD3) {
    if (!sqz_had3_main(p0, wx, wy, wz, &cx, &cy, &cz)) return 0;
  } else if (SQZ_HAS_KIND(SQZ_SK_HAD3S) && kind == SQZ_SK_HAD3S) {
    sqz_had3_strip(p0, wx, wy, &cx, &cy, &cz);
  } else if (!(SQZ_HAS_KIND(SQZ_SK_BOX3) && kind == SQZ_SK_BOX3)) {
    return 0;
  }
  *bx = o0 + cx * rho;
  *by = o1 + cy * rho;
  *bz = o2 + cz * rho;
  return 1;
}
/* Cell (tx, ty, tz) of the block of sqz_sblock3: returns 1 and sets (x, y, z) when the
 * thread owns a cell of tetrahedron:n, 0 otherwise. */
SQZ_FN int sqz_scell3(sqz_u32 kind, sqz_u32 p0, sqz_u32 p1, sqz_u32 p2, sqz_u32 o0, sqz_u32 o1, sqz_u32 o2,
                      sqz_u32 bx, sqz_u32 by, sqz_u32 bz, sqz_u32 tx, sqz_u32 ty, sqz_u32 tz, sqz_u32 n,
                      sqz_u32 *x, sqz_u32 *y, sqz_u32 *z) {
  if (SQZ_HAS_KIND(SQZ_SK_BOX3) && kind == SQZ_SK_BOX3 &&
      (bx - o0 + tx >= p0 || by - o1 + ty >= p1 || bz - o2 + tz >= p2))
    return 0;
  *x = bx + tx;
  *y = by + ty;
  *z = bz + tz;
  return *x + *y + *z < n;
}
/* Returns 1 and sets (x, y, z) when the thread owns a cell of tetrahedron:n, 0 otherwise. */
SQZ_FN int sqz_smap3(sqz_u32 kind, sqz_u32 p0, sqz_u32 p1, sqz_u32 p2, sqz_u32 o0, sqz_u32 o1,
                     sqz_u32 o2, sqz_u32 wx, sqz_u32 wy, sqz_u32 wz, sqz_u32 tx, sqz_u32 ty,
                     sqz_u32 tz, sqz_u32 rho, sqz_u32 n, sqz_u32 *x, sqz_u32 *y, sqz_u32 *z) {
  sqz_u32 bx = 0u, by = 0u, bz = 0u;
  return sqz_sblock3(kind, p0, p1, o0, o1, o2, wx, wy, wz, rho, &bx, &by, &bz) &&
         sqz_scell3(kind, p0, p1, p2, o0, o1, o2, bx, by, bz, tx, ty, tz, n, x, y, z);
}

/* ---- storage ------------------------------------------------------------------------------
 * Layout bb: the embedded array (2D y*n + x, 3D (z*n + y)*n + x).
 * Layout compact, triangle: the rectangle fold, index v*W + u with (u, v) = unfold(x, y).
 * Layout compact, tetrahedron: layers z = 0, 1, ... one after another, each layer row by row
 * (y = 0, 1, ...), each row x = 0 .. n-1-y-z. Row (y, z) holds k = n - z - y cells and starts
 * at Te(n) - Te(n - z - 1) - T(k): zero waste, contiguous rows like the embedded array, and
 * O(1) both ways (the inverse finds the layer and the row with exact integer roots). */
#define SQZ_SL_BB 0
#define SQZ_SL_COMPACT 1

/* Storage index arithmetic. Every formula below is a ring expression (+, -, *), so it may run
 * modulo 2^32 whenever the storage holds at most 2^32 cells: a kernel built with SQZ_IDX32
 * does that (half the instructions of 64-bit indices); the host always uses 64 bits. */
#if defined(__OPENCL_VERSION__) && defined(SQZ_IDX32)
typedef sqz_u32 sqz_sidx;
#else
typedef sqz_u64 sqz_sidx;
#endif

/* One storage row: the index of cell x of the row is x < w ? al + x : ar - x. */
typedef struct {
  sqz_sidx al, ar;
  sqz_u32 w;
} sqz_srow;

/* compact triangle:n, row y */
SQZ_FN sqz_srow sqz_tri_row(sqz_u32 n, sqz_u32 y) {
  sqz_srow r;
  sqz_u32 e = 1u - (n & 1u);
  r.w = sqz_fold_w(n);
  r.al = (sqz_sidx)(y + e) * r.w;
  r.ar = (sqz_sidx)(n - 1u - y) * r.w + (n - e);
  return r;
}
SQZ_FN sqz_sidx sqz_srow_index(sqz_srow r, sqz_u32 x) { return x < r.w ? r.al + x : r.ar - x; }

/* Row y of triangle:n (cells x <= y) in either layout. */
SQZ_FN sqz_srow sqz_tri_srow(int layout, sqz_u32 n, sqz_u32 y) {
  if (layout == SQZ_SL_COMPACT) return sqz_tri_row(n, y);
  sqz_srow r;
  r.al = (sqz_sidx)y * n;
  r.ar = 0u;
  r.w = 0xFFFFFFFFu;
  return r;
}
SQZ_FN sqz_sidx sqz_tri_index(int layout, sqz_u32 n, sqz_u32 x, sqz_u32 y) {
  return sqz_srow_index(sqz_tri_srow(layout, n, y), x);
}

/* 3D storage index = layer(z) + row(y, z) + x (modulo the index width), for y + z <= n - 1 */
SQZ_FN sqz_sidx sqz_tet_layer(int layout, sqz_u32 n, sqz_u32 z) {
  if (layout == SQZ_SL_COMPACT) return (sqz_sidx)(sqz_te(n) - sqz_te(n - z - 1u));
  return (sqz_sidx)z * n * n;
}
SQZ_FN sqz_sidx sqz_tet_rowoff(int layout, sqz_u32 n, sqz_u32 y, sqz_u32 z) {
  sqz_sidx k = n - z - y;
  if (layout == SQZ_SL_COMPACT) return (sqz_sidx)0u - ((k & 1u) ? k * ((k + 1u) >> 1) : (k >> 1) * (k + 1u));
  return (sqz_sidx)y * n;
}
SQZ_FN sqz_sidx sqz_tet_index(int layout, sqz_u32 n, sqz_u32 x, sqz_u32 y, sqz_u32 z) {
  return sqz_tet_layer(layout, n, z) + sqz_tet_rowoff(layout, n, y, z) + x;
}
/* Storage distance from row (y, z) to row (y + 1, z): compact, the row's n - y - z cells; bb, n
 * (a ring expression: y = -1, wrapped, gives the step from the row before row 0). */
SQZ_FN sqz_sidx sqz_tet_rowstep(int layout, sqz_u32 n, sqz_u32 y, sqz_u32 z) {
  return layout == SQZ_SL_COMPACT ? (sqz_sidx)(n - y - z) : (sqz_sidx)n;
}
/* The 3 x 3 rows (y + dy, z + dz), dy, dz in -1, 0, 1, around row (y, z) (y + z <= n - 1), at
 * [3 (dz + 1) + dy + 1]: the storage index of cell 0 in start[] and the cell count in len[] (0: a
 * row outside the domain). Rows y -/+ 1 start one row step before/after row y of their plane, even
 * outside the domain (y = 0: the row before row 0), so that adding sqz_tet_rowstep to start[]
 * walks a plane down y; the starts in a plane z + dz outside 0 .. n - 1 mean nothing. */
SQZ_FN void sqz_tet_rows9(int layout, sqz_u32 n, sqz_u32 y, sqz_u32 z, sqz_sidx *start, sqz_u32 *len) {
  for (sqz_u32 dz = 0u; dz < 3u; dz++) {
    sqz_u32 zz = z + dz - 1u; /* wraps above n - 1 below plane 0 */
    sqz_sidx mid = zz < n ? sqz_tet_index(layout, n, 0u, y, zz) : (sqz_sidx)0u;
    for (sqz_u32 dy = 0u; dy < 3u; dy++) {
      sqz_u32 yy = y + dy - 1u;
      start[3u * dz + dy] = dy == 0u   ? mid - sqz_tet_rowstep(layout, n, yy, zz)
                            : dy == 1u ? mid
                                       : mid + sqz_tet_rowstep(layout, n, y, zz);
      len[3u * dz + dy] = zz < n && yy < n && yy + zz < n ? n - yy - zz : 0u;
    }
  }
}
/* compact index -> cell (every index below T(n) / Te(n) is a cell) */
SQZ_FN void sqz_tri_coords(sqz_u32 n, sqz_u64 i, sqz_u32 *x, sqz_u32 *y) {
  sqz_u32 w = sqz_fold_w(n);
  sqz_fold(n, (sqz_u32)(i % w), (sqz_u32)(i / w), x, y);
}
SQZ_FN void sqz_tet_coords(sqz_u32 n, sqz_u64 i, sqz_u32 *x, sqz_u32 *y, sqz_u32 *z) {
  sqz_u64 rest = sqz_te(n) - i; /* >= 1: cells from i to the end */
  sqz_u32 m = (sqz_u32)sqz_tet_root(rest - 1u) + 1u; /* layer side: smallest m with Te(m) >= rest */
  sqz_u64 left = rest - sqz_te(m - 1u);              /* cells from i to the end of the layer */
  sqz_u32 k = (sqz_u32)sqz_tri_root(left - 1u) + 1u; /* row length: smallest k with T(k) >= left */
  *x = (sqz_u32)(sqz_tri(k) - left);
  *y = m - k;
  *z = n - m;
}
/* storage index (below the layout's size) -> cell; returns 1 when it is a domain cell */
SQZ_FN int sqz_tri_cell(int layout, sqz_u32 n, sqz_u64 i, sqz_u32 *x, sqz_u32 *y) {
  if (layout == SQZ_SL_COMPACT) {
    sqz_tri_coords(n, i, x, y);
    return 1;
  }
  *x = (sqz_u32)(i % n);
  *y = (sqz_u32)(i / n);
  return *x <= *y;
}
SQZ_FN int sqz_tet_cell(int layout, sqz_u32 n, sqz_u64 i, sqz_u32 *x, sqz_u32 *y, sqz_u32 *z) {
  if (layout == SQZ_SL_COMPACT) {
    sqz_tet_coords(n, i, x, y, z);
    return 1;
  }
  *x = (sqz_u32)(i % n);
  *y = (sqz_u32)((i / n) % n);
  *z = (sqz_u32)(i / ((sqz_u64)n * n));
  return *x + *y + *z < n;
}

/* ---- Moore neighbourhoods ----------------------------------------------------------------- */
/* The stencil engine's neighbour order: raster order of the offsets, centre skipped (2D (dy, dx),
 * 3D (dz, dy, dx), each over -1, 0, 1). These return the mask of the neighbours that are domain
 * cells (bit d for neighbour d), their storage indices in idx[d] (set for present ones only),
 * and the cell's own index in *self. */
/* Triangle cell (x, y): rows y-1, y, y+1 of either layout are one row step apart: al grows and
 * ar shrinks by it. */
SQZ_FN sqz_u32 sqz_tri_nbrs(int layout, sqz_u32 n, sqz_u32 x, sqz_u32 y, sqz_sidx *idx, sqz_sidx *self) {
  sqz_srow r = sqz_tri_srow(layout, n, y);
  sqz_sidx step = layout == SQZ_SL_COMPACT ? (sqz_sidx)r.w : (sqz_sidx)n;
  sqz_sidx a = r.al + x - step, b = r.ar - x + step; /* row y-1: cell x at a (left part) or b */
  sqz_u32 present = 0u, d = 0u;
  for (sqz_i32 dy = -1; dy <= 1; dy++, a += step, b -= step) {
    sqz_u32 yy = y + (sqz_u32)dy; /* wraps to > n - 1 above row 0 */
    for (sqz_i32 dx = -1; dx <= 1; dx++) {
      sqz_u32 xx = x + (sqz_u32)dx;
      int in = yy < n && xx <= yy;
      sqz_sidx i = in ? (xx < r.w ? a + (sqz_sidx)dx : b - (sqz_sidx)dx) : (sqz_sidx)0u;
      if (dx == 0 && dy == 0) {
        *self = i;
        continue;
      }
      if (in) {
        idx[d] = i;
        present |= 1u << d;
      }
      d++;
    }
  }
  return present;
}
/* Tetrahedron cell (x, y, z). */
SQZ_FN sqz_u32 sqz_tet_nbrs(int layout, sqz_u32 n, sqz_u32 x, sqz_u32 y, sqz_u32 z, sqz_sidx *idx, sqz_sidx *self) {
  sqz_u32 present = 0u, d = 0u;
  for (sqz_i32 dz = -1; dz <= 1; dz++) {
    sqz_u32 zz = z + (sqz_u32)dz;
    sqz_sidx layer = zz < n ? sqz_tet_layer(layout, n, zz) : (sqz_sidx)0u;
    for (sqz_i32 dy = -1; dy <= 1; dy++) {
      sqz_u32 yy = y + (sqz_u32)dy;
      int row = zz < n && yy < n && yy + zz < n;
      sqz_u32 lim = row ? n - 1u - yy - zz : 0u;
      sqz_sidx base = row ? layer + sqz_tet_rowoff(layout, n, yy, zz) : (sqz_sidx)0u;
      for (sqz_i32 dx = -1; dx <= 1; dx++) {
        sqz_u32 xx = x + (sqz_u32)dx;
        if (dx == 0 && dy == 0 && dz == 0) {
          *self = base + xx;
          continue;
        }
        if (row && xx <= lim) {
          idx[d] = base + xx;
          present |= 1u << d;
        }
        d++;
      }
    }
  }
  return present;
}

#endif /* SQZ_SIMPLEX_H */
