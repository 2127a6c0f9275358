/* scripts/ncu_tetra_kernel.c — runs the PTX that NVIDIA's OpenCL compiled for the tetrahedron word step (engine_tetra_swar_z2, or engine_tetra_swar with SQZ_TETRA_VARIANT=0, from sqz's program cache) through the CUDA driver API with sqz's arguments and launch, so that Nsight Compute can profile it. */
/* usage: ncu_tetra_kernel CACHE_FILE N [REPS]      (tetrahedron:N, layout compact, B6/S5,6,7)
 * CACHE_FILE: the file of SQZ_CACHE_DIR that holds the kernel's 32-bit-word variant (grep -l
 * ".entry engine_tetra_swar"; 32-bit indices, SQZ_IDX32, below 2^32 cells). The launch is
 * src/backends/opencl/engine_tetra_swar.c's: groups of 128 work-items, 8 cells (two words) a
 * work-item, lx = 128 (or SQZ_TETRA_LOCAL_X) of them along x by 128 / lx plane pairs, global
 * (round_up(ceil(N / 8), lx), round_up(ceil(N / 2), 128 / lx), ceil(N / chunk)); variant 0: one
 * plane a work-item, 128 along x, global (round_up(ceil(N / 8), 128), N, ceil(N / chunk)); chunk =
 * 128 rows (or SQZ_TETRA_CHUNK, as sqz reads it); arguments src, dst, birth, survive, n, compact, chunk, elems,
 * each checked against the size of the kernel's parameter. The state is random (50 % live); each
 * of the REPS launches steps src into dst, and sampled cells of dst (row ends included) are
 * checked against the rule applied on the host with sqz_tet_nbrs (cl/sqz_simplex.h). Build:
 *   gcc -O2 -I/usr/local/cuda/include scripts/ncu_tetra_kernel.c -o ncu_tetra_kernel -lcuda */
#include "ncu_replay.h"
#include "../cl/sqz_common.h"
#include "../cl/sqz_simplex.h"

#define SAMPLES (1u << 20)

int main(int argc, char **argv) {
  unsigned n = 0, reps = 0;
  char *ptx = replay_args(argc, argv, &n, &reps);
  const char *ec = getenv("SQZ_TETRA_CHUNK");
  long cv = ec ? strtol(ec, NULL, 10) : 0;
  unsigned chunk = cv >= 1 && cv <= 65536 ? (unsigned)cv : 128u, compact = 1;
  unsigned birth = 1u << 6, survive = 1u << 5 | 1u << 6 | 1u << 7;
  uint64_t elems = sqz_te(n);
  if (n < 1 || n > 65535 || elems + 2u * n + 64u >= (uint64_t)1 << 32)
    return fprintf(stderr, "N = %u: 1 .. 65535 and 32-bit indices (below 2^32 cells) only\n", n), 2;
  CUdevice dev;
  const char *ev = getenv("SQZ_TETRA_VARIANT"), *el = getenv("SQZ_TETRA_LOCAL_X");
  int two = !(ev && strcmp(ev, "0") == 0); /* variants 1 and 2: two planes a work-item */
  long lv = el ? strtol(el, NULL, 10) : 0;
  unsigned lx = two && lv >= 1 && lv <= 128 ? (unsigned)lv : 128u, ly = 128u / lx;
  const char *name = two ? "engine_tetra_swar_z2" : "engine_tetra_swar";
  CUfunction fn = replay_function(ptx, name, &dev);
  CUdeviceptr src, dst;
  unsigned char *h = replay_states(elems, 50, &src, &dst);
  void *args[] = {&src, &dst, &birth, &survive, &n, &compact, &chunk, &elems};
  static const size_t want[8] = {8, 8, 4, 4, 4, 4, 4, 8};
  for (int i = 0; i < 8; i++) {
    size_t off = 0, size = 0;
    CK(cuFuncGetParamInfo(fn, (size_t)i, &off, &size));
    if (size != want[i]) return fprintf(stderr, "parameter %d: %zu bytes, not %zu\n", i, size, want[i]), 1;
  }
  unsigned grid[3] = {((n + 7) / 8 + lx - 1) / lx, two ? ((n + 1) / 2 + ly - 1) / ly : n, (n + chunk - 1) / chunk};
  unsigned block[3] = {lx, ly, 1};
  float mean = 0, best = replay_best_ms(fn, grid, block, 0, args, reps, &mean);
  uint64_t live = 0, bad = 0;
  unsigned char *out = replay_fetch(dst, elems, &live);
  uint64_t x = 2463534242ULL;
  for (unsigned i = 0; i < SAMPLES; i++) { /* (y, z) uniform, x uniform or among the last 9 cells of the row */
    unsigned y, z, cx;
    do y = (unsigned)(replay_next(&x) % n), z = (unsigned)(replay_next(&x) % n);
    while (y + z >= n);
    unsigned k = n - y - z;
    cx = (i & 1u) ? (unsigned)(replay_next(&x) % k) : k - 1u - (unsigned)(replay_next(&x) % (k < 9u ? k : 9u));
    sqz_sidx idx[26], self = 0;
    sqz_u32 present = sqz_tet_nbrs(SQZ_SL_COMPACT, n, cx, y, z, idx, &self), c = 0;
    for (int d = 0; d < 26; d++) c += (present >> d & 1u) ? h[idx[d]] : 0u;
    unsigned want_next = ((h[self] ? survive : birth) >> c) & 1u;
    if (out[self] != want_next && bad++ < 5)
      fprintf(stderr, "cell (%u, %u, %u) at %llu: %u, the rule gives %u\n", cx, y, z, (unsigned long long)self, out[self],
              want_next);
  }
  printf("tetrahedron:%u %s via CUDA: grid %u x %u x %u of %u x %u, chunk %u: best %.4f ms, mean %.4f ms a step "
         "(%u launches), %.3g cells/s, live after one step %llu; %u sampled cells: %s (%llu samples differ)\n",
         n, name, grid[0], grid[1], grid[2], lx, ly, chunk, best, mean, reps, (double)elems / (best * 1e-3), (unsigned long long)live,
         SAMPLES, bad ? "DIFFERENT from the rule" : "equal to the rule", (unsigned long long)bad);
  return bad ? 1 : 0;
}
