/* fractal_fill.cl — random 0/1 fills of u8 fractal fields in every layout, the same cells as the host fill. */
/* Needs sqz_common.h and sqz_fractal.h. The pattern comes as arguments (s, k and fr = H_λ (2k entries)
 * then H_ν (s^2)), not compiled in: a fill runs once per field, so one program serves every pattern
 * and a new pattern costs no compile (on PoCL a fill program costs about a second of CPU). Tile fills write tile b at dst[(b - first) * tile_elems]: first = 0, or a part's first own tile.
 * Cell (x, y) is alive iff it is a fractal cell and sqz_random_cell(seed, y n + x)
 * says so, the same hash in every layout and backend. Holes are written as 0. A program holds one
 * of the kernels (SQZ_KERNEL_<name>). */
#ifdef SQZ_KERNEL_fill_fractal_embedded
__kernel void fill_fractal_embedded(__global uchar *dst, __constant int *fr, uint s, uint k, uint n, uint levels,
                                    ulong seed, ulong threshold, uint row0) {
  uint x = (uint)get_global_id(0), y = row0 + (uint)get_global_id(1);
  if (x >= n || y >= n) return;
  ulong e = (ulong)y * n + x;
  dst[e] = (uchar)(sqz_fr_contains(s, fr + 2u * k, levels, x, y) ? sqz_random_cell(seed, e, threshold) : 0u);
}
#endif

#ifdef SQZ_KERNEL_fill_fractal_tiles
__kernel void fill_fractal_tiles(__global uchar *dst, __constant int *fr, uint s, uint k, uint n, uint levels, uint j,
                                 uint rho, uint tile_elems, uint lanes, uint tiles_per_group, uint compact, ulong seed,
                                 ulong threshold, ulong tile0, ulong tiles, ulong first) {
  uint lid = (uint)get_local_id(0), lane = lid % lanes;
  ulong b = tile0 + (ulong)get_group_id(0) * tiles_per_group + lid / lanes;
  if (lid >= lanes * tiles_per_group || b >= tiles) return;
  uint bx, by;
  sqz_fr_lambda(s, k, fr, levels - j, b, &bx, &by);
  for (uint q = lane; q < tile_elems; q += lanes) {
    uint tx = q % rho, ty = q / rho, member = 1u;
    if (compact)
      sqz_fr_lambda(s, k, fr, j, q, &tx, &ty);
    else
      member = sqz_fr_contains(s, fr + 2u * k, j, tx, ty);
    ulong e = (ulong)(by * rho + ty) * n + bx * rho + tx;
    dst[(b - first) * tile_elems + q] = (uchar)(member ? sqz_random_cell(seed, e, threshold) : 0u);
  }
}
#endif
