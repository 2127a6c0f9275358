/* scripts/ncu_cl_kernel.c — runs the PTX that NVIDIA's OpenCL compiled for the triangle word step (from sqz's program cache) through the CUDA driver API, so that Nsight Compute can profile it. */
/* NVIDIA's OpenCL binaries are PTX, which the CUDA driver loads as they are; ncu profiles CUDA
 * launches but not OpenCL ones, so this program replays one OpenCL kernel as a CUDA launch with
 * the arguments sqz gives it. Only engine_simplex_swar2 (cl/engine_simplex_swar.cl):
 *   ncu_cl_kernel CACHE_FILE N [REPS]      (triangle:N, layout compact, B3/S23)
 * CACHE_FILE: a file of SQZ_CACHE_DIR holding that kernel (grep -l engine_simplex_swar2). The
 * launch geometry is sqz's (256 work-items per group, 64 groups per SM, grid-stride). The PTX reads
 * the group offset and the number of groups from OpenCL's environment registers %envreg0 and
 * %envreg6, which a CUDA launch does not set: they are rewritten to 0 and %nctaid.x. Build:
 *   gcc -O2 -I/usr/local/cuda/include scripts/ncu_cl_kernel.c -o ncu_cl_kernel -lcuda */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                 \
  do {                                                                                        \
    CUresult r_ = (x);                                                                        \
    if (r_ != CUDA_SUCCESS) {                                                                 \
      const char *m_ = NULL;                                                                  \
      cuGetErrorString(r_, &m_);                                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, m_ ? m_ : "?");             \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

/* text with every `from` replaced by `to` (a new buffer; the old one is leaked: a one-shot tool). */
static char *rewrite(const char *text, const char *from, const char *to) {
  size_t n = 0, lf = strlen(from), lt = strlen(to);
  for (const char *p = strstr(text, from); p; p = strstr(p + lf, from)) n++;
  char *out = malloc(strlen(text) + n * lt + 1), *o = out;
  if (!out) exit(1);
  for (const char *p = text, *q; (q = strstr(p, from)) != NULL || (strcpy(o, p), 0); p = q + lf) {
    memcpy(o, p, (size_t)(q - p));
    o += q - p;
    memcpy(o, to, lt);
    o += lt;
  }
  return out;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s CACHE_FILE N [REPS]\n", argv[0]);
    return 2;
  }
  FILE *fp = fopen(argv[1], "rb");
  if (!fp) return perror(argv[1]), 1;
  fseek(fp, 0, SEEK_END);
  long len = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  unsigned char *file = malloc((size_t)len + 1);
  if (!file || fread(file, 1, (size_t)len, fp) != (size_t)len) return fprintf(stderr, "read failed\n"), 1;
  fclose(fp);
  uint64_t payload = 0; /* sqz's cache header: u64 payload bytes at offset 16, the payload last */
  for (int i = 7; i >= 0; i--) payload = payload << 8 | file[16 + i];
  char *ptx = (char *)file + (len - (long)payload);
  file[len] = 0;
  ptx = rewrite(rewrite(ptx, "%envreg0", "0"), "%envreg6", "%nctaid.x");
  unsigned n = (unsigned)strtoul(argv[2], NULL, 10), reps = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 5;
  unsigned wrow = (n + 1) / 2, hrows = n + 1 - (n & 1), compact = 1, rule = 1u << 3 | (1u << 2 | 1u << 3) << 9;
  uint64_t elems = (uint64_t)n * (n + 1) / 2, words = (elems + 3) / 4;
  CK(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CK(cuDeviceGet(&dev, 0));
  CK(cuCtxCreate(&ctx, NULL, 0, dev));
  CUmodule mod;
  CUfunction fn;
  CK(cuModuleLoadData(&mod, ptx));
  CK(cuModuleGetFunction(&fn, mod, "engine_simplex_swar2"));
  int sms = 0;
  CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CUdeviceptr src, dst;
  CK(cuMemAlloc(&src, elems + 64));
  CK(cuMemAlloc(&dst, elems + 64));
  unsigned char *h = malloc(elems);
  uint64_t x = 88172645463325252ULL;
  for (uint64_t i = 0; i < elems; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    h[i] = (unsigned char)(x % 100 < 45);
  }
  CK(cuMemcpyHtoD(src, h, elems));
  CK(cuMemsetD8(dst, 0, elems + 64));
  uint64_t groups = (words + 255) / 256, cap = (uint64_t)sms * 64;
  unsigned grid = (unsigned)(groups < cap ? groups : cap);
  void *args[] = {&src, &dst, &rule, &n, &wrow, &hrows, &elems, &compact};
  CUevent a, b;
  CK(cuEventCreate(&a, 0));
  CK(cuEventCreate(&b, 0));
  float best = 1e30f;
  for (unsigned r = 0; r < reps; r++) {
    CK(cuEventRecord(a, 0));
    CK(cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, 0, args, NULL));
    CK(cuEventRecord(b, 0));
    CK(cuEventSynchronize(b));
    float ms = 0;
    CK(cuEventElapsedTime(&ms, a, b));
    if (ms < best) best = ms;
  }
  CK(cuMemcpyDtoH(h, dst, elems));
  uint64_t live = 0;
  for (uint64_t i = 0; i < elems; i++) live += h[i];
  printf("triangle:%u engine_simplex_swar2 via CUDA: best %.4f ms, %.3g cells/s, live after one step %llu\n", n, best,
         (double)elems / (best * 1e-3), (unsigned long long)live);
  return 0;
}
