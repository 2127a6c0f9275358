/* cpu_engine.h — the cpu backend's workloads behind its operations table: the reference stencil engine, reductions, EDM. */
#ifndef SQZ_CPU_ENGINE_H
#define SQZ_CPU_ENGINE_H
#include <string.h>

#include "core/backend.h"

/* Which traversal the engine specialises: Life on u8 cells (the rule inlined), another built-in
 * rule (run in parallel), or the user's function (called from one thread at a time). */
typedef enum { SQZ_CPU_LIFE, SQZ_CPU_BUILTIN, SQZ_CPU_USER } sqz_cpu_rule;

/* An update as the cpu engine applies it: a C function over cells of ts bytes. */
typedef struct {
  size_t ts;            /* bytes per cell */
  sqz_update_fn fn;     /* the update (built-in rules are C functions too) */
  void *user;           /* fn's user data */
  const void *param;    /* parameters as sqz_param_t (float, or double for f64 cells) */
  int want_present;     /* compute the present mask (else 0 is passed) */
  sqz_cpu_rule rule;
} sqz_cpu_update;

/* The traversal + gather per family (engine_fractal.c, engine_simplex.c): on fractals `steps`
 * steps of u from f->mem[f->cur], flipping f->cur after each (what a step needs is set up once
 * for all of them); on simplices one step from src to dst (storage arrays of f's layout). */
SQZ_INTERNAL int sqz__cpu_steps_fractal(sqz_field *f, const sqz_cpu_update *u, uint64_t steps);
SQZ_INTERNAL int sqz__cpu_step_simplex(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src,
                                       unsigned char *dst);

/* Threads of a step over `cells` cells: OpenMP's (OMP_NUM_THREADS) for built-in rules on domains
 * large enough to pay for waking them (2^15 cells), one for the user's function (it is called
 * from one thread at a time); 1 without OpenMP. And the calling thread's number. */
#define SQZ_CPU_PARALLEL_CELLS ((uint64_t)1 << 15)
#ifdef _OPENMP
#include <omp.h>
static inline int sqz__cpu_threads(const sqz_cpu_update *u, uint64_t cells) {
  return u->rule == SQZ_CPU_USER || cells < SQZ_CPU_PARALLEL_CELLS ? 1 : omp_get_max_threads();
}
static inline int sqz__cpu_thread(void) { return omp_get_thread_num(); }
#else
static inline int sqz__cpu_threads(const sqz_cpu_update *u, uint64_t cells) { return 1; }
static inline int sqz__cpu_thread(void) { return 0; }
#endif

/* The engine's vector loops compiled twice where the toolchain can pick at load time (ifunc):
 * AVX2 (32 u8 lanes) and the baseline of the target (SSE2 on x86-64: 16 lanes). The library
 * itself is built for the baseline, never -march=native. */
#ifdef SQZ_CPU_TARGET_CLONES
#define SQZ_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SQZ_CPU_CLONES
#endif

/* Copies one cell of ts bytes (1, 4 or 8). */
static inline void sqz__cpu_cell_copy(unsigned char *dst, const unsigned char *src, size_t ts) {
  switch (ts) {
  case 1: *dst = *src; break;
  case 4: memcpy(dst, src, 4); break;
  default: memcpy(dst, src, 8); break;
  }
}

/* The stencil entry (cpu_paths.c): its checks, then the path of sqz__cpu_paths that applies. */
SQZ_INTERNAL int sqz__cpu_stencil(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq);
SQZ_INTERNAL extern const struct sqz_path_table sqz__cpu_paths;
SQZ_INTERNAL int sqz__cpu_reduce(sqz_context *ctx, sqz_red_op op, sqz_type type, sqz_mem mem, uint64_t n,
                                 int acc_mode, sqz_red_acc *acc);
/* Best memcpy rate between two host buffers of n bytes (bytes read + written per second). */
SQZ_INTERNAL int sqz__cpu_copy_rate(sqz_context *ctx, uint64_t n, double *bytes_per_s);
SQZ_INTERNAL int sqz__cpu_edm(sqz_context *ctx, const float *xy, uint64_t n, const char *map, float *out);
#endif
