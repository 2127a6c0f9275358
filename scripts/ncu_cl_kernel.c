/* scripts/ncu_cl_kernel.c — runs the PTX that NVIDIA's OpenCL compiled for the triangle word step (from sqz's program cache) through the CUDA driver API, so that Nsight Compute can profile it. */
/* NVIDIA's OpenCL binaries are PTX, which the CUDA driver loads as they are; ncu profiles CUDA
 * launches but not OpenCL ones, so this program replays one OpenCL kernel as a CUDA launch with
 * the arguments sqz gives it. Only engine_simplex_swar2 (cl/engine_simplex_swar.cl):
 *   ncu_cl_kernel CACHE_FILE N [REPS]      (triangle:N, layout compact, B3/S23)
 * CACHE_FILE: a file of SQZ_CACHE_DIR holding that kernel (grep -l engine_simplex_swar2). The
 * launch geometry is sqz's (256 work-items per group, 64 groups per SM, grid-stride). The PTX reads
 * the group offset and the number of groups from OpenCL's environment registers, which a CUDA
 * launch does not set: ncu_replay.h rewrites them (0 and %nctaid.x). Build:
 *   gcc -O2 -I/usr/local/cuda/include scripts/ncu_cl_kernel.c -o ncu_cl_kernel -lcuda (ncu_replay.h beside it) */
#include "ncu_replay.h"

int main(int argc, char **argv) {
  unsigned n = 0, reps = 0;
  char *ptx = replay_args(argc, argv, &n, &reps);
  unsigned wrow = (n + 1) / 2, hrows = n + 1 - (n & 1), compact = 1, rule = 1u << 3 | (1u << 2 | 1u << 3) << 9;
  uint64_t elems = (uint64_t)n * (n + 1) / 2, words = (elems + 3) / 4;
  CUdevice dev;
  CUfunction fn = replay_function(ptx, "engine_simplex_swar2", &dev);
  int sms = 0;
  CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CUdeviceptr src, dst;
  replay_states(elems, 45, &src, &dst);
  uint64_t groups = (words + 255) / 256, cap = (uint64_t)sms * 64;
  unsigned grid[3] = {(unsigned)(groups < cap ? groups : cap), 1, 1}, block[3] = {256, 1, 1};
  void *args[] = {&src, &dst, &rule, &n, &wrow, &hrows, &elems, &compact};
  float best = replay_best_ms(fn, grid, block, 0, args, reps, NULL);
  uint64_t live = 0;
  replay_fetch(dst, elems, &live);
  printf("triangle:%u engine_simplex_swar2 via CUDA: best %.4f ms, %.3g cells/s, live after one step %llu\n", n, best,
         (double)elems / (best * 1e-3), (unsigned long long)live);
  return 0;
}
