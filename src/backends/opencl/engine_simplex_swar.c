/* engine_simplex_swar.c (opencl) — the fast Life step on u8 triangles and tetrahedra (cl/engine_simplex_swar.cl): when it applies and its launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"
#include "backends/opencl/cl_simplex.h"
#include "sqz_simplex.h"

#define SQZ__SWAR_LOCAL 256u      /* work-items per group */
#define SQZ__SWAR_ROWS_LOCAL 16u  /* work-items (rows) per group, CPU words: small groups balance the threads */
#define SQZ__SWAR_GROUPS_PER_CU 64u /* groups per compute unit; the work-items stride over the words */

int sqz__cl_swar_allowed(const sqz_field *f, const sqz_update *u) {
  const char *e = getenv("SQZ_ENGINE");
  if (e && strcmp(e, "generic") == 0) return 0;
  cl_bool little = CL_FALSE;
  clGetDeviceInfo(SQZ_CL(f->ctx)->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL);
  return little && f->type == SQZ_U8 && u->kind == SQZ_UPDATE_LIFE;
}

unsigned sqz__cl_swar_word(const sqz_context *ctx) {
  const char *e = getenv("SQZ_SWAR_WORD");
  if (e && (strcmp(e, "8") == 0 || strcmp(e, "32") == 0 || strcmp(e, "64") == 0)) return (unsigned)atoi(e);
  return ctx->is_gpu ? 32u : 8u;
}

/* Tetrahedra keep the generic kernels unless SQZ_ENGINE=fast: the 3D word step (9 unaligned row windows
 * and a cube root per word) measured slower than the generic had3 step, 0.73x on the H200 and 0.75x on
 * PoCL (docs/BENCHMARKS.md, runs 5 and 6). */
int sqz__cl_simplex_swar_applies(const sqz_field *f, const sqz_update *u) {
  const char *e = getenv("SQZ_ENGINE");
  int forced = e && strcmp(e, "fast") == 0;
  return sqz__cl_swar_allowed(f, u) && (f->layout == SQZ_LAYOUT_COMPACT || f->layout == SQZ_LAYOUT_BB) &&
         (f->dom->dims == 2 || forced);
}

int sqz__cl_simplex_swar(sqz_field *f, const sqz_update *u, uint64_t steps) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_swar.h", "engine_simplex_swar.cl", NULL};
  sqz_context *ctx = f->ctx;
  cl_program prog = NULL;
  cl_kernel k = NULL;
  int dims = f->dom->dims;
  /* the step walks storage, but the field's map and block must still be valid ones (same errors as the map kernels) */
  int st = sqz__simplex_check(ctx, dims, f->dom->side, f->map, f->block);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  /* 32-bit indices when every byte a word step reads (up to a row and a word past the last) is below 2^32 */
  const char *i64 = getenv("SQZ_INDEX64");
  int idx32 = f->elems + 2 * (uint64_t)f->dom->side + 64 < ((uint64_t)1 << 32) && !(i64 && *i64 && strcmp(i64, "0") != 0);
  unsigned word = dims == 2 ? sqz__cl_swar_word(ctx) : 32u; /* the 3D word step is written for 32-bit words */
  char pre[96];
  snprintf(pre, sizeof pre, "#define SQZ_DIMS %d\n#define SQZ_SWAR_WORD %u\n%s", dims, word,
           dims == 2 && idx32 ? "#define SQZ_SWAR_IDX32 1\n" : "");
  if (st == SQZ_OK) st = sqz__program(ctx, pre, files, "", &prog);
  if (st == SQZ_OK) st = sqz__kernel(ctx, prog, dims == 2 ? "engine_simplex_swar2" : "engine_simplex_swar3", &k);
  if (st != SQZ_OK) return st;
  cl_uint n = (cl_uint)f->dom->side, compact = f->layout == SQZ_LAYOUT_COMPACT, rule = u->birth | u->survive << 9;
  cl_uint wrow = compact ? sqz_fold_w(n) : n, hrows = compact ? (cl_uint)sqz_fold_h(n) : n;
  cl_ulong rule3 = (cl_ulong)u->birth | (cl_ulong)u->survive << 27;
  cl_ulong elems = f->elems;
  /* 32-bit words: a work-item per word (grid-stride); 8- and 64-bit words (CPU devices): a work-item per storage row */
  uint64_t items = word != 32 ? hrows : (elems + 3) / 4, lsize = word != 32 ? SQZ__SWAR_ROWS_LOCAL : SQZ__SWAR_LOCAL;
  uint64_t groups = (items + lsize - 1) / lsize;
  uint64_t cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * SQZ__SWAR_GROUPS_PER_CU;
  size_t local = (size_t)lsize, global = (size_t)(groups < cap ? groups : cap) * local;
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    st = dims == 2 ? sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof rule, &rule, sizeof n, &n, sizeof wrow,
                               &wrow, sizeof hrows, &hrows, sizeof elems, &elems, sizeof compact, &compact, (size_t)0)
                   : sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof rule3, &rule3, sizeof n, &n,
                               sizeof elems, &elems, sizeof compact, &compact, (size_t)0);
    if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  clReleaseKernel(k);
  return st;
}
