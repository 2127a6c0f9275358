/* fractal_fill.cl — fills of fractal fields (random 0/1, uniform floats, a constant) in every layout and cell type, the same values as the host fill. */
/* Needs sqz_common.h and sqz_fractal.h, and a prelude defining SQZ_FILL_BYTES (1, 4 or 8: the
 * cell's size; the kernels write the raw bits of sqz_fill_bits, so one program serves i32 and f32,
 * and f64 needs no fp64). The pattern comes as arguments (s, k and fr = H_λ (2k entries) then H_ν
 * (s^2)), not compiled in: a fill runs once per field, so one program serves every pattern and a
 * new pattern costs no compile (on PoCL a fill program costs about a second of CPU). Tile fills
 * write tile b at dst[(b - first) * tile_elems]: first = 0, or a part's first own tile. Cell (x, y)
 * gets sqz_fill_bits(mode, ..., y n + x) if it is a fractal cell, holes 0. A program holds one of
 * the kernels (SQZ_KERNEL_<name>). */
#define FF_VALUE(e) ((sqz_fill_t)sqz_fill_bits(mode, SQZ_FILL_BYTES, seed, threshold, value, (e)))

#ifdef SQZ_KERNEL_fill_fractal_embedded
__kernel void fill_fractal_embedded(__global sqz_fill_t *dst, __constant int *fr, uint s, uint k, uint n, uint levels,
                                    uint mode, ulong seed, ulong threshold, ulong value, uint row0) {
  uint x = (uint)get_global_id(0), y = row0 + (uint)get_global_id(1);
  if (x >= n || y >= n) return;
  ulong e = (ulong)y * n + x;
  dst[e] = sqz_fr_contains(s, fr + 2u * k, levels, x, y) ? FF_VALUE(e) : (sqz_fill_t)0;
}
#endif

#ifdef SQZ_KERNEL_fill_fractal_tiles
/* `lanes` work-items a tile: the tile's corner by λ of the tile, each cell's place in the tile by
 * λ_j (compact) or row-major (block, whose holes get 0). */
__kernel void fill_fractal_tiles(__global sqz_fill_t *dst, __constant int *fr, uint s, uint k, uint n, uint levels, uint j,
                                 uint rho, uint tile_elems, uint lanes, uint tiles_per_group, uint compact, uint mode,
                                 ulong seed, ulong threshold, ulong value, ulong tile0, ulong tiles, ulong first) {
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
    dst[(b - first) * tile_elems + q] = member ? FF_VALUE(e) : (sqz_fill_t)0;
  }
}
#endif
