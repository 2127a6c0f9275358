/* sqz_fractal.h — NBB fractal maps (membership, λ, ν, block level, tile halo) for host C and OpenCL C. */
#ifndef SQZ_FRACTAL_H
#define SQZ_FRACTAL_H
/* Needs sqz_common.h first (kernels are built by concatenation, so no #include here).
 *
 * A fractal is given at run time by its scale s, its replica count k and two tables built
 * from the pattern (docs/MAPS.md 4.1): hl[2*beta], hl[2*beta+1] = (tau_x, tau_y) of replica beta
 * (row-major order), and hnu[tau_y*s + tau_x] = beta, or -1 on a hole. Kernels receive them
 * as __constant arrays defined by the generated prelude; the host passes the arrays of its
 * sqz_fractal. Levels are counted from i = 0 (finest digit) upwards.
 *
 * Embedded coordinates are 32-bit: the parser keeps the side s^R below 2^31, so x + 1 and
 * the wrap-around of x - 1 never alias a cell. Compact indices are 64-bit.
 *
 * Compact linear index ("digit order"): c = sum_i beta_i k^i, the base-k digit i of c is the
 * replica chosen at level i. docs/MAPS.md 4.2 writes the same compact space as a 2D array
 * (cx, cy) of k^ceil(r/2) x k^floor(r/2) whose digits are the even (cx) and odd (cy) levels;
 * sqz_fr_interleave / sqz_fr_deinterleave convert. In digit order every run of k^j indices
 * starting at a multiple of k^j is one level-j sub-fractal ("tile"): c = b k^j + l, with b
 * the tile's index at level r - j and l the cell's index inside the tile. */

/* 1 if (x, y) lies in [0, s^levels)^2 and every base-s digit pair is a replica. */
SQZ_FN sqz_u32 sqz_fr_contains(sqz_u32 s, SQZ_CONST sqz_i32 *hnu, sqz_u32 levels, sqz_u32 x, sqz_u32 y) {
  for (sqz_u32 i = 0; i < levels; i++, x /= s, y /= s)
    if (hnu[(y % s) * s + x % s] < 0) return 0u;
  return (x | y) == 0u ? 1u : 0u;
}

/* λ: compact digit-order index c < k^levels -> embedded (x, y) = sum_i s^i H_λ[digit_i(c)]. */
SQZ_FN void sqz_fr_lambda(sqz_u32 s, sqz_u32 k, SQZ_CONST sqz_i32 *hl, sqz_u32 levels, sqz_u64 c, sqz_u32 *x,
                          sqz_u32 *y) {
  sqz_u32 ex = 0u, ey = 0u, sp = 1u, i = 0u, b;
  for (; i < levels && (c >> 32) != 0u; i++, sp *= s) { /* 64-bit digits only while c needs them */
    b = (sqz_u32)(c % k);
    c /= k;
    ex += sp * (sqz_u32)hl[2u * b];
    ey += sp * (sqz_u32)hl[2u * b + 1u];
  }
  sqz_u32 c32 = (sqz_u32)c;
  for (; i < levels; i++, sp *= s) {
    b = c32 % k;
    c32 /= k;
    ex += sp * (sqz_u32)hl[2u * b];
    ey += sp * (sqz_u32)hl[2u * b + 1u];
  }
  *x = ex;
  *y = ey;
}

/* Storage index i of a fractal layout -> embedded (x, y); 1 when i holds a fractal cell (holes and
 * padding: 0). compact: i is a digit-order index (layout compact). Otherwise tiles of rho x rho
 * cells, rho = s^j (layout block:RHO; bb and lambda are one tile, rho = side and j = levels), tile
 * i / rho^2 at λ of level levels - j, its cells row-major. Host layouts and kernels share it. */
SQZ_FN sqz_u32 sqz_fr_cell(sqz_u32 compact, sqz_u32 s, sqz_u32 k, SQZ_CONST sqz_i32 *hl, SQZ_CONST sqz_i32 *hnu,
                           sqz_u32 levels, sqz_u32 j, sqz_u64 rho, sqz_u64 i, sqz_u32 *x, sqz_u32 *y) {
  if (compact) {
    sqz_fr_lambda(s, k, hl, levels, i, x, y);
    return 1u;
  }
  sqz_u64 area = rho * rho, q = i % area;
  sqz_u32 tx = (sqz_u32)(q % rho), ty = (sqz_u32)(q / rho), bx = 0u, by = 0u;
  if (levels > j) sqz_fr_lambda(s, k, hl, levels - j, i / area, &bx, &by);
  *x = bx * (sqz_u32)rho + tx;
  *y = by * (sqz_u32)rho + ty;
  return sqz_fr_contains(s, hnu, j, tx, ty);
}

/* Term of level i of λ for the group-parallel λ (docs/MAPS.md 4.5, Squeeze's warp-parallel λ: one
 * work-item per level, then a tree sum): s^i H_λ[digit_i(c)] packed as x | y << 32, given
 * sp = s^i and kp = k^i. The sum over levels 0 .. levels-1 of these 64-bit words is λ(c)
 * packed the same way, exactly and in any order: each coordinate's total is below
 * s^levels < 2^31, so the low half never carries into the high half. */
SQZ_FN sqz_u64 sqz_fr_lambda_term(sqz_u32 k, SQZ_CONST sqz_i32 *hl, sqz_u32 sp, sqz_u64 kp, sqz_u64 c) {
  sqz_u32 b = c < kp ? 0u : ((c >> 32) != 0u ? (sqz_u32)(c / kp % k) : (sqz_u32)c / (sqz_u32)kp % k);
  return (sqz_u64)(sp * (sqz_u32)hl[2u * b]) | (sqz_u64)(sp * (sqz_u32)hl[2u * b + 1u]) << 32;
}

/* ν: embedded (x, y) -> compact digit-order index, or -1 when (x, y) is not a fractal cell
 * (outside [0, s^levels)^2 or on a hole at some level). ν∘λ and λ∘ν are identities. */
SQZ_FN sqz_i64 sqz_fr_nu(sqz_u32 s, sqz_u32 k, SQZ_CONST sqz_i32 *hnu, sqz_u32 levels, sqz_u32 x, sqz_u32 y) {
  sqz_u64 c = 0u, kp = 1u;
  for (sqz_u32 i = 0; i < levels; i++, kp *= k, x /= s, y /= s) {
    sqz_i32 b = hnu[(y % s) * s + x % s];
    if (b < 0) return -1;
    c += kp * (sqz_u64)b;
  }
  return (x | y) == 0u ? (sqz_i64)c : -1;
}

/* docs/MAPS.md 4.2 compact coordinates (cx, cy) -> digit-order index: level i takes digit i/2 of
 * cx when i is even and of cy when i is odd. */
SQZ_FN sqz_u64 sqz_fr_interleave(sqz_u32 k, sqz_u32 levels, sqz_u64 cx, sqz_u64 cy) {
  sqz_u64 c = 0u, kp = 1u;
  for (sqz_u32 i = 0; i < levels; i++, kp *= k) {
    if (i & 1u) {
      c += kp * (cy % k);
      cy /= k;
    } else {
      c += kp * (cx % k);
      cx /= k;
    }
  }
  return c;
}

/* Digit-order index -> docs/MAPS.md 4.2 compact coordinates (cx, cy). */
SQZ_FN void sqz_fr_deinterleave(sqz_u32 k, sqz_u32 levels, sqz_u64 c, sqz_u64 *cx, sqz_u64 *cy) {
  sqz_u64 px = 1u, py = 1u, ox = 0u, oy = 0u;
  for (sqz_u32 i = 0; i < levels; i++, c /= k) {
    if (i & 1u) {
      oy += py * (c % k);
      py *= k;
    } else {
      ox += px * (c % k);
      px *= k;
    }
  }
  *cx = ox;
  *cy = oy;
}

/* ---- tiles (block level, docs/MAPS.md 4.6/4.8) -----------------------------------------------
 * A tile is a rho x rho embedded square, rho = s^j, at tile coordinates (bx, by) of the
 * level-(r - j) fractal; its tile index is b = ν_b(bx, by) and (bx, by) = λ_b(b). A step
 * gathers the tile into a (rho + 2)^2 cache: its own cells at (1, 1) and a one-cell halo
 * from the 8 neighbouring tiles. Directions are numbered d = (dy + 1) * 3 + (dx + 1), so 4
 * is the tile itself. Storage inside a tile: block layout row-major ly * rho + lx (holes
 * stored as 0); compact layout ν at level j (holes not stored). */

/* Tile index of the neighbour of tile (bx, by) in direction d at level rb, or -1 when that
 * neighbour lies outside the embedding or is not a fractal tile (its halo is then dead). */
SQZ_FN sqz_i64 sqz_fr_tile_neighbour(sqz_u32 s, sqz_u32 k, SQZ_CONST sqz_i32 *hnu, sqz_u32 rb, sqz_u32 bx,
                                     sqz_u32 by, sqz_u32 d) {
  return sqz_fr_nu(s, k, hnu, rb, bx + d % 3u - 1u, by + d / 3u - 1u);
}

/* Neighbour d (4: the tile itself) of tile b, a tile index at level rb (-1: none); fr holds H_λ
 * (2k entries) then H_ν (s^2), as the kernels get them. */
SQZ_FN sqz_i64 sqz_fr_neighbour_of(sqz_u32 s, sqz_u32 k, SQZ_CONST sqz_i32 *fr, sqz_u32 rb, sqz_u64 b, sqz_u32 d) {
  sqz_u32 bx, by;
  sqz_fr_lambda(s, k, fr, rb, b, &bx, &by);
  return d == 4u ? (sqz_i64)b : sqz_fr_tile_neighbour(s, k, fr + 2u * k, rb, bx, by, d);
}

/* Cache position p of a (rho + 2)^2 tile cache -> direction d of the tile that holds it and
 * the cell (lx, ly) inside that tile. */
SQZ_FN sqz_u32 sqz_fr_cache_source(sqz_u32 rho, sqz_u32 p, sqz_u32 *lx, sqz_u32 *ly) {
  sqz_u32 w = rho + 2u, cx = p % w, cy = p / w;
  sqz_u32 dx = cx == 0u ? 0u : (cx > rho ? 2u : 1u); /* dx + 1 */
  sqz_u32 dy = cy == 0u ? 0u : (cy > rho ? 2u : 1u);
  *lx = cx + rho - 1u - dx * rho;
  *ly = cy + rho - 1u - dy * rho;
  return dy * 3u + dx;
}

/* Offset of tile cell (lx, ly) inside a stored tile, or -1 for a hole of the compact layout. */
SQZ_FN sqz_i64 sqz_fr_tile_offset(sqz_u32 compact, sqz_u32 s, sqz_u32 k, SQZ_CONST sqz_i32 *hnu, sqz_u32 j,
                                  sqz_u32 rho, sqz_u32 lx, sqz_u32 ly) {
  return compact ? sqz_fr_nu(s, k, hnu, j, lx, ly) : (sqz_i64)(ly * rho + lx);
}

/* Sum of the 8 Moore neighbours of cache[i] in a row-major cache of row length w (a macro so
 * that it works on any address space). */
#define SQZ_FR_MOORE_SUM(cache, i, w)                                                                       \
  ((sqz_u32)(cache)[(i) - (w) - 1u] + (cache)[(i) - (w)] + (cache)[(i) - (w) + 1u] + (cache)[(i) - 1u] +   \
   (cache)[(i) + 1u] + (cache)[(i) + (w) - 1u] + (cache)[(i) + (w)] + (cache)[(i) + (w) + 1u])

#endif /* SQZ_FRACTAL_H */
