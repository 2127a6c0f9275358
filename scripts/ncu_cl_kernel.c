/* scripts/ncu_cl_kernel.c — runs the PTX that NVIDIA's OpenCL compiled for the triangle word step (from sqz's program cache) through the CUDA driver API, so that Nsight Compute can profile it. */
/* NVIDIA's OpenCL binaries are PTX, which the CUDA driver loads as they are; ncu profiles CUDA
 * launches but not OpenCL ones, so this program replays one OpenCL kernel as a CUDA launch with
 * the arguments sqz gives it. Only engine_simplex_swar2 (cl/engine_simplex_swar.cl):
 *   ncu_cl_kernel CACHE_FILE N [REPS]      (triangle:N, layout compact, B3/S23)
 * CACHE_FILE: a file of SQZ_CACHE_DIR holding that kernel (grep -l engine_simplex_swar2). The
 * launch geometry is sqz's (256 work-items per group, 64 groups per SM, grid-stride). The PTX reads
 * the group offset and the number of groups from OpenCL's environment registers %envreg0 and
 * %envreg6, which a CUDA launch does not set: they are rewritten to 0 and %nctaid.x. Build:
 *   gcc -O2 -I/usr/local/cuda/include scripts/ncu_cl_kernel.c -o ncu_cl_kernel -lcuda (ncu_replay.h beside it) */
#include "ncu_replay.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s CACHE_FILE N [REPS]\n", argv[0]);
    return 2;
  }
  char *ptx = replay_ptx(argv[1]);
  unsigned n = (unsigned)strtoul(argv[2], NULL, 10), reps = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 5;
  unsigned wrow = (n + 1) / 2, hrows = n + 1 - (n & 1), compact = 1, rule = 1u << 3 | (1u << 2 | 1u << 3) << 9;
  uint64_t elems = (uint64_t)n * (n + 1) / 2, words = (elems + 3) / 4;
  CUdevice dev;
  CUfunction fn = replay_function(ptx, "engine_simplex_swar2", &dev);
  int sms = 0;
  CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CUdeviceptr src, dst;
  CK(cuMemAlloc(&src, elems + 64));
  CK(cuMemAlloc(&dst, elems + 64));
  unsigned char *h = malloc(elems);
  uint64_t x = 88172645463325252ULL;
  for (uint64_t i = 0; i < elems; i++) {
    h[i] = (unsigned char)(replay_next(&x) % 100 < 45);
  }
  CK(cuMemcpyHtoD(src, h, elems));
  CK(cuMemsetD8(dst, 0, elems + 64));
  uint64_t groups = (words + 255) / 256, cap = (uint64_t)sms * 64;
  unsigned grid = (unsigned)(groups < cap ? groups : cap);
  void *args[] = {&src, &dst, &rule, &n, &wrow, &hrows, &elems, &compact};
  float best = replay_best_ms(fn, grid, 256, 0, args, reps);
  CK(cuMemcpyDtoH(h, dst, elems));
  uint64_t live = 0;
  for (uint64_t i = 0; i < elems; i++) live += h[i];
  printf("triangle:%u engine_simplex_swar2 via CUDA: best %.4f ms, %.3g cells/s, live after one step %llu\n", n, best,
         (double)elems / (best * 1e-3), (unsigned long long)live);
  return 0;
}
