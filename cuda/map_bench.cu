/* map_bench.cu — the tile maps alone (MMA or ALU): every λ_b and ν_b of a tile range, written out or checksummed. */
#include "fractal_map.cuh"

/* Tiles tile0 .. tile0 + count - 1 in groups of 32 per warp. With out, tile t writes 10
 * values at out[10 (t - tile0)]: the 9 direction tile indices (-1 = none, 4 = itself) and
 * λ_b packed as x | y << 32. Without out, every value is folded into an XOR checksum at
 * *sum, so the kernel measures the maps and not the memory. */
template <bool MMA, unsigned S, unsigned K>
__device__ void sqz_cu_maps(const sqz_cu_fractal *tab, sqz_u64 tile0, sqz_u64 count, sqz_u64 *out,
                            unsigned long long *sum) {
  __shared__ sqz_cu_shared sh;
  sqz_cu_load_table(&sh.T, tab);
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
  sqz_u64 acc = 0u;
  for (sqz_u64 g = ((sqz_u64)blockIdx.x * warps + warp) * 32u; g < count; g += (sqz_u64)gridDim.x * warps * 32u) {
    const unsigned n = (unsigned)(count - g < 32u ? count - g : 32u);
    sqz_i64(*nb)[9] = sh.nb[warp];
    sqz_u64 *lam = sh.lam[warp];
    sqz_cu_map<MMA, S, K>(sh.T, tile0 + g, n, nb, lam, lane);
    for (unsigned i = lane; i < 10u * n; i += 32u) {
      const unsigned q = i / 10u, d = i % 10u;
      const sqz_u64 v = d == 9u ? lam[q] : (sqz_u64)nb[q][d];
      if (out) out[(g + q) * 10u + d] = v;
      else acc ^= sqz_mix64(v + 0x9e3779b97f4a7c15ull * (d + 1u)); /* order-independent fold */
    }
    __syncwarp();
  }
  if (!out) {
    for (unsigned off = 16u; off > 0u; off >>= 1) acc ^= __shfl_xor_sync(SQZ_CU_FULL, acc, off);
    if (lane == 0u && acc) atomicXor(sum, (unsigned long long)acc);
  }
}

#define SQZ_CU_MAPS(name, MMA, S, K)                                                                        \
  extern "C" __global__ void __launch_bounds__(SQZ_CU_WARPS * 32u)                                         \
      name(const sqz_cu_fractal *tab, sqz_u64 tile0, sqz_u64 count, sqz_u64 *out, unsigned long long *sum) { \
    sqz_cu_maps<MMA, S, K>(tab, tile0, count, out, sum);                                                   \
  }
#define SQZ_CU_MAPS_ALL(suffix, S, K)             \
  SQZ_CU_MAPS(sqz_maps_mma_##suffix, true, S, K) \
  SQZ_CU_MAPS(sqz_maps_alu_##suffix, false, S, K)
SQZ_CU_SPECIALISATIONS(SQZ_CU_MAPS_ALL)
