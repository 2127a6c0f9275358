/* scripts/ncu_replay.h — shared by the ncu replay tools (ncu_cl_kernel.c, ncu_bits_kernel.c, ncu_tetra_kernel.c): CUDA error checks, the PTX of an OpenCL kernel from sqz's program cache made launchable by CUDA, random states, timed launches. */
#ifndef NCU_REPLAY_H
#define NCU_REPLAY_H
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

/* The PTX of a cache file of SQZ_CACHE_DIR (sqz's header: u64 payload bytes at offset 16, the
 * payload last), with OpenCL's environment registers, which a CUDA launch does not set, rewritten:
 * %envreg0..2 (group offsets of a split launch) and %envreg3..5 (global offsets) to 0, %envreg6..8
 * (numbers of groups) to %nctaid.x/y/z; any other %envreg stops the replay (its meaning unknown;
 * NVIDIA does not document them, the replays' results check the guess). Also the state space is
 * dropped from __local pointer parameters (`.ptr .shared`), which the CUDA driver
 * refuses (CUDA_ERROR_INVALID_IMAGE, even for a cubin ptxas made): the kernel reads the value as
 * a shared-window address either way. */
static char *replay_ptx(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) perror(path), exit(1);
  fseek(fp, 0, SEEK_END);
  long len = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  unsigned char *file = malloc((size_t)len + 1);
  if (!file || fread(file, 1, (size_t)len, fp) != (size_t)len) fprintf(stderr, "read failed\n"), exit(1);
  fclose(fp);
  uint64_t payload = 0;
  for (int i = 7; i >= 0; i--) payload = payload << 8 | file[16 + i];
  file[len] = 0;
  char *ptx = (char *)file + (len - (long)payload);
  for (const char *p = strstr(ptx, "%envreg"); p; p = strstr(p + 7, "%envreg"))
    if (p[7] < '0' || p[7] > '8' || (p[8] >= '0' && p[8] <= '9'))
      fprintf(stderr, "%s: %.10s is not one the replay knows\n", path, p), exit(1);
  static const char *const env[9] = {"0", "0", "0", "0", "0", "0", "%nctaid.x", "%nctaid.y", "%nctaid.z"};
  for (int i = 0; i < 9; i++) {
    char reg[16];
    snprintf(reg, sizeof reg, "%%envreg%d", i);
    ptx = rewrite(ptx, reg, env[i]);
  }
  return rewrite(rewrite(ptx, ".ptr .shared .align 4 ", ""), ".ptr .shared .align 8 ", "");
}

/* ptx with the __local pointer parameter `param` (its PTX name, e.g. "k_param_12") read as the
 * start of the launch's dynamic shared memory (a new `.extern .shared` array) instead of the value
 * passed: CUDA reserves shared memory below the kernel's static variables on sm_80+, so an offset
 * guessed from their size would point into them (the bits replay overwrote its tile neighbours). */
static char *replay_dynamic_local(const char *ptx, const char *param) {
  char ref[160];
  snprintf(ref, sizeof ref, "[%s];", param);
  const char *entry = strstr(ptx, ".entry "), *p;
  if (!entry || !strstr(entry, ref)) fprintf(stderr, "no load of %s in the PTX\n", param), exit(1);
  while (entry > ptx && entry[-1] != '\n') entry--; /* ".visible .entry" or ".entry": the line's start */
  char *out = malloc(strlen(ptx) + 64), *o = out; /* the declaration; each rewritten load is shorter */
  if (!out) exit(1);
  o += sprintf(o, "%.*s.extern .shared .align 16 .b8 replay_dynamic_local[];\n", (int)(entry - ptx), ptx);
  const char *at;
  for (p = entry; (at = strstr(p, ref)) != NULL; p = at + strlen(ref)) { /* every load of it */
    const char *line = at;
    while (line > p && line[-1] != '\n') line--;
    const char *ld = strstr(line, "ld.param.u64"), *reg = ld ? strchr(ld, '%') : NULL;
    if (!ld || ld > at || !reg || reg > at) fprintf(stderr, "%s: not a 64-bit parameter load\n", param), exit(1);
    o += sprintf(o, "%.*smov.u64 \t%.*sreplay_dynamic_local;", (int)(ld - p), p, (int)(at - reg), reg);
  }
  strcpy(o, p);
  return out;
}

/* The command line CACHE_FILE N [REPS] (default 5) of the replays of one domain side: the PTX of
 * CACHE_FILE (replay_ptx), N in *n, REPS in *reps; the usage and exit 2 when short. */
static inline char *replay_args(int argc, char **argv, unsigned *n, unsigned *reps) {
  if (argc < 3) fprintf(stderr, "usage: %s CACHE_FILE N [REPS]\n", argv[0]), exit(2);
  *n = (unsigned)strtoul(argv[2], NULL, 10);
  *reps = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 5;
  return replay_ptx(argv[1]);
}

/* The kernel `name` of the PTX, loaded in a new context on device 0 (returned in *dev). */
static CUfunction replay_function(const char *ptx, const char *name, CUdevice *dev) {
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CK(cuInit(0));
  CK(cuDeviceGet(dev, 0));
  CK(cuCtxCreate(&ctx, NULL, 0, *dev));
  char log[8192] = "";
  CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *val[2] = {log, (void *)(uintptr_t)sizeof log};
  const char *cubin = getenv("REPLAY_CUBIN"); /* a cubin ptxas made of the PTX, when the driver's JIT refuses it */
  CUresult r = cubin ? cuModuleLoad(&mod, cubin) : cuModuleLoadDataEx(&mod, ptx, 2, opt, val);
  if (r != CUDA_SUCCESS) { /* the driver's code, the JIT's reason, and the PTX to look at */
    const char *code = NULL;
    cuGetErrorName(r, &code);
    FILE *out = fopen("replay-failed.ptx", "w");
    if (out) fputs(ptx, out), fclose(out);
    fprintf(stderr, "%s does not load (%s; PTX written to replay-failed.ptx): %s\n", cubin ? cubin : "the PTX",
            code ? code : "?", log);
    exit(1);
  }
  CK(cuModuleGetFunction(&fn, mod, name));
  return fn;
}

/* The best of `reps` launches of fn (grid x block work-items, 3D, `shared` bytes of dynamic shared
 * memory), in ms by CUDA events; their mean in *mean unless NULL. */
static float replay_best_ms(CUfunction fn, const unsigned grid[3], const unsigned block[3], unsigned shared, void **args,
                            unsigned reps, float *mean) {
  CUevent a, b;
  CK(cuEventCreate(&a, 0));
  CK(cuEventCreate(&b, 0));
  float best = 1e30f, sum = 0;
  for (unsigned r = 0; r < reps; r++) {
    CK(cuEventRecord(a, 0));
    CK(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, 0, args, NULL));
    CK(cuEventRecord(b, 0));
    CK(cuEventSynchronize(b));
    float ms = 0;
    CK(cuEventElapsedTime(&ms, a, b));
    if (ms < best) best = ms;
    sum += ms;
  }
  if (mean) *mean = reps ? sum / (float)reps : 0;
  return best;
}

/* The next value of a xorshift64 generator (the replays' random states). */
static uint64_t replay_next(uint64_t *x) {
  *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
  return *x;
}

/* Two state buffers of `bytes` (+ 64 zero bytes), dst all 0 and src random cells 0/1, live with
 * probability percent/100; returns the host copy of src. */
static inline unsigned char *replay_states(uint64_t bytes, unsigned percent, CUdeviceptr *src, CUdeviceptr *dst) {
  unsigned char *h = calloc(bytes + 64, 1);
  if (!h) fprintf(stderr, "out of host memory\n"), exit(1);
  uint64_t x = 88172645463325252ULL;
  for (uint64_t i = 0; i < bytes; i++) h[i] = (unsigned char)(replay_next(&x) % 100 < percent);
  CK(cuMemAlloc(src, bytes + 64));
  CK(cuMemAlloc(dst, bytes + 64));
  CK(cuMemcpyHtoD(*src, h, bytes + 64));
  CK(cuMemsetD8(*dst, 0, bytes + 64));
  return h;
}

/* The first `bytes` of d on the host, and their sum in *live. */
static inline unsigned char *replay_fetch(CUdeviceptr d, uint64_t bytes, uint64_t *live) {
  unsigned char *h = malloc(bytes ? bytes : 1);
  if (!h) fprintf(stderr, "out of host memory\n"), exit(1);
  CK(cuMemcpyDtoH(h, d, bytes));
  *live = 0;
  for (uint64_t i = 0; i < bytes; i++) *live += h[i];
  return h;
}
#endif
