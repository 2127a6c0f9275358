/* scripts/ncu_bits_kernel.c — runs the PTX that NVIDIA's OpenCL compiled for a bits fractal step (the box step sqz_bits_fractal_box, or the lanes' sqz_bits_fractal_lanes) through the CUDA driver API, with sqz's own launch, so that Nsight Compute can profile it. */
/* usage: ncu_bits_kernel CACHE_FILE PLAN_FILE [REPS]
 *   CACHE_FILE: the file of SQZ_CACHE_DIR that holds the kernel (grep -l ".entry sqz_bits_fractal_box",
 *   or _lanes for a plan of SQZ_BITS_STEP=lanes);
 *   PLAN_FILE: what `SQZ_BITS_PLAN_OUT=PLAN_FILE sqz life|bench ... --layout bits` wrote: the
 *   launch's scalars, the plan table (a list, a window or a lanes plan: flag 4) and H_λ, H_ν
 *   (src/backends/opencl/bits_launch.c).
 * The state is random words (tile padding bits 0), or random 0/1 bytes for a u8 state (flag 2).
 * Grid, group size and arguments are sqz's. Two
 * things a CUDA launch does not do as OpenCL does: the __local argument (the tile areas) is the
 * launch's dynamic shared memory, which the kernel is rewritten to read (replay_dynamic_local); and the
 * __constant argument (H_λ + H_ν) is made a global one (ld.const -> ld.global). Each parameter's
 * size comes from cuFuncGetParamInfo (CUDA 12.4+). Build (ncu_replay.h beside it):
 *   gcc -O2 -Icl -I/usr/local/cuda/include scripts/ncu_bits_kernel.c -o ncu_bits_kernel -lcuda */
#include "ncu_replay.h"
#include "sqz_common.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_list.h"
#include "sqz_bits_lanes.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s CACHE_FILE PLAN_FILE [REPS]\n", argv[0]);
    return 2;
  }
  FILE *fp = fopen(argv[2], "rb");
  uint32_t h[16];
  if (!fp || fread(h, sizeof h, 1, fp) != 1 || h[0] != 0x42425153u)
    return fprintf(stderr, "%s: not a plan\n", argv[2]), 2;
  uint32_t s = h[1], k = h[2], rb = h[3], wt = h[4], steps = h[5], birth = h[6], survive = h[7], lbytes = h[8];
  uint32_t groups = h[9], local = h[10], words = h[11], nfr = 2 * k + s * s;
  uint64_t tiles = h[12] | (uint64_t)h[13] << 32;
  uint32_t *tab = malloc(words * 4u), *fr = malloc(nfr * 4u);
  if (!tab || !fr || fread(tab, 4, words, fp) != words || fread(fr, 4, nfr, fp) != nfr)
    return fprintf(stderr, "%s: short plan\n", argv[2]), 2;
  fclose(fp);
  int lanes = (h[15] & 4u) != 0;
  const char *name = lanes ? "sqz_bits_fractal_lanes" : "sqz_bits_fractal_box";
  char param[64];
  snprintf(param, sizeof param, "%s_param_12", name); /* the __local area */
  char *ptx = replay_ptx(argv[1]);
  ptx = rewrite(rewrite(ptx, ".ptr .const", ".ptr .global"), "ld.const.", "ld.global.");
  ptx = rewrite(rewrite(ptx, "cvta.to.const.", "cvta.to.global."), "cvta.const.", "cvta.global.");
  ptx = replay_dynamic_local(ptx, param);
  unsigned reps = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 5;
  int bytes = (h[15] & 2u) != 0; /* a u8 state: wt is the tile's bytes */
  uint64_t kt = lanes       ? (uint64_t)tab[SQZ_BLN_K] * tab[SQZ_BLN_L]  /* the lanes' plan, the list's, the window's */
                : h[15] & 1u ? (uint64_t)tab[SQZ_BL_NSUB] * tab[SQZ_BL_KQ]
                             : (uint64_t)tab[SQZ_BB_NSUB] * tab[SQZ_BB_KQ],
           nwords = bytes ? (tiles * wt + 3u) / 4u : tiles * wt;
  CUdevice dev;
  CUfunction fn = replay_function(ptx, name, &dev);
  int sstatic = 0;
  CK(cuFuncGetAttribute(&sstatic, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn));
  uint64_t area = 0; /* the __local argument: not read (replay_dynamic_local) */
  CUdeviceptr src, dst, dtab, dfr;
  CK(cuMemAlloc(&src, nwords * 4u + 64));
  CK(cuMemAlloc(&dst, nwords * 4u + 64));
  CK(cuMemAlloc(&dtab, words * 4u));
  CK(cuMemAlloc(&dfr, nfr * 4u));
  CK(cuMemcpyHtoD(dtab, tab, words * 4u));
  CK(cuMemcpyHtoD(dfr, fr, nfr * 4u));
  uint32_t *w = malloc(nwords * 4u);
  uint64_t x = 88172645463325252ULL;
  for (uint64_t i = 0; i < nwords; i++) {
    uint64_t left = kt - (i % wt) * 32u;
    w[i] = bytes ? (uint32_t)replay_next(&x) & 0x01010101u /* 0/1 bytes */
                 : (uint32_t)replay_next(&x) & (left >= 32u ? 0xffffffffu : (1u << left) - 1u);
  }
  CK(cuMemcpyHtoD(src, w, nwords * 4u));
  CK(cuMemsetD8(dst, 0, nwords * 4u + 64));
  /* the arguments in the kernel's order, each at the size its parameter has */
  uint64_t vals[13] = {src, dst, dtab, dfr, s, k, rb, wt, tiles, steps, birth, survive, area};
  unsigned char store[13][8];
  void *args[13];
  for (int i = 0; i < 13; i++) {
    size_t off = 0, size = 0;
    CK(cuFuncGetParamInfo(fn, (size_t)i, &off, &size));
    if (size != 4 && size != 8) return fprintf(stderr, "parameter %d: %zu bytes\n", i, size), 1;
    if (size == 4) {
      uint32_t v = (uint32_t)vals[i];
      memcpy(store[i], &v, 4);
    } else {
      memcpy(store[i], &vals[i], 8);
    }
    args[i] = store[i];
  }
  unsigned shared = lbytes;
  unsigned grid[3] = {groups, 1, 1}, block[3] = {local, 1, 1};
  float best = replay_best_ms(fn, grid, block, shared, args, reps, NULL);
  CK(cuMemcpyDtoH(w, dst, nwords * 4u));
  uint64_t live = 0;
  for (uint64_t i = 0; i < nwords; i++) live += (uint64_t)__builtin_popcount(w[i]);
  printf("%s via CUDA: %llu tiles of %llu cells, %u steps a launch, %u groups of %u, %u + %u B shared:"
         " best %.4f ms a launch, %.3g cell steps/s, live after one launch %llu\n",
         name, (unsigned long long)tiles, (unsigned long long)kt, steps, groups, local, sstatic, shared, best,
         (double)(tiles * kt * steps) / (best * 1e-3), (unsigned long long)live);
  return 0;
}
