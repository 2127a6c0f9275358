/* engine_simplex_swar.c (opencl) — the fast Life step on u8 triangles and tetrahedra: when it applies, the triangles' launches (cl/engine_simplex_swar.cl) and what the word steps share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"
#include "backends/opencl/cl_simplex.h"
#include "sqz_simplex.h"

#define SQZ__SWAR_LOCAL 256u      /* work-items per group */
#define SQZ__SWAR_ROWS_LOCAL 16u  /* work-items (rows) per group, CPU words: small groups balance the threads */
#define SQZ__SWAR_GROUPS_PER_CU 64u /* groups per compute unit; the work-items stride over the words */

const char *sqz__cl_swar_why_not(const sqz_field *f, const sqz_update *u) {
  if (sqz__opt_is(NULL, f, SQZ_OPT_ENGINE, "generic")) return "SQZ_ENGINE=generic";
  cl_bool little = CL_FALSE;
  clGetDeviceInfo(SQZ_CL(f->ctx)->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL);
  if (!little) return "the device is big-endian (the word steps read bytes of little-endian words)";
  static _Thread_local char states[96];
  switch (u->kind) {
  case SQZ_UPDATE_LIFE:
    if (u->states <= 2) return f->type == SQZ_U8 ? NULL : "the word steps hold u8 cells";
    snprintf(states, sizeof states, "the rule has %u states (Generations), the word steps hold cells of 0 and 1",
             u->states);
    return states;
  case SQZ_UPDATE_HEAT: return "the update is heat, the word steps run built-in Life rules";
  case SQZ_UPDATE_CL: return "the update is the user's kernel, the word steps run built-in Life rules";
  default: return "the update is a Life body or a C function, the word steps run built-in Life rules";
  }
}

int sqz__cl_swar_allowed(const sqz_field *f, const sqz_update *u) { return sqz__cl_swar_why_not(f, u) == NULL; }

unsigned sqz__cl_swar_word(const sqz_context *ctx) {
  static const unsigned words[] = {8u, 32u, 64u}; /* the choices of option swar_word */
  return words[sqz__opt_num(ctx, NULL, SQZ_OPT_SWAR_WORD, ctx->is_gpu ? 1u : 0u)];
}

/* Any map (the word steps walk storage), both layouts; engine_simplex.c sends tetrahedra to engine_tetra_swar.c's step. */
const char *sqz__cl_simplex_swar_why_not(const sqz_field *f, const sqz_update *u) {
  const char *why = sqz__cl_swar_why_not(f, u);
  if (why) return why;
  if (f->layout != SQZ_LAYOUT_COMPACT && f->layout != SQZ_LAYOUT_BB) return "layout bits has its own steps";
  return f->part ? "a field in parts (the word steps have no halo slots)" : NULL;
}

int sqz__cl_simplex_swar_applies(const sqz_field *f, const sqz_update *u) {
  return sqz__cl_simplex_swar_why_not(f, u) == NULL;
}

int sqz__cl_swar_idx32(const sqz_field *f) {
  return f->elems + 2 * (uint64_t)f->dom->side + 64 < ((uint64_t)1 << 32) && !sqz__opt_num(NULL, f, SQZ_OPT_INDEX64, 0);
}

int sqz__cl_swar_kernel(sqz_field *f, const char *const *files, const char *pre, const char *name, cl_kernel *k) {
  cl_program prog = NULL;
  *k = NULL;
  /* the step walks storage, but the field's map and block must still be valid ones (same errors as the map kernels) */
  int st = sqz__simplex_check(f->ctx, f->dom->dims, f->dom->side, f->map, f->block);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  if (st == SQZ_OK) st = sqz__program(f->ctx, pre, files, "", &prog);
  return st == SQZ_OK ? sqz__kernel(f->ctx, prog, name, k) : st;
}

int sqz__cl_swar_steps(sqz_field *f, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, uint64_t steps) {
  int st = SQZ_OK;
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    cl_int e = clSetKernelArg(k, 0, sizeof src, &src) | clSetKernelArg(k, 1, sizeof dst, &dst);
    st = e == CL_SUCCESS ? sqz__run(f->ctx, k, dims, global, local)
                         : sqz__fail(f->ctx, SQZ_ERR_INTERNAL, "setting the state arguments of a word step failed");
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  clReleaseKernel(k);
  return st;
}

int sqz__cl_simplex_swar(sqz_field *f, const sqz_update *u, uint64_t steps) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_swar.h", "engine_simplex_swar.cl", NULL};
  sqz_context *ctx = f->ctx;
  cl_kernel k = NULL;
  /* 32-bit indices when every byte a word step reads (up to a row and a word past the last) is below 2^32 */
  unsigned word = sqz__cl_swar_word(ctx);
  char pre[96];
  snprintf(pre, sizeof pre, "#define SQZ_SWAR_WORD %u\n%s", word,
           sqz__cl_swar_idx32(f) ? "#define SQZ_SWAR_IDX32 1\n" : "");
  int st = sqz__cl_swar_kernel(f, files, pre, "engine_simplex_swar2", &k);
  if (st != SQZ_OK) return st;
  cl_uint n = (cl_uint)f->dom->side, compact = f->layout == SQZ_LAYOUT_COMPACT, rule = u->birth | u->survive << 9;
  cl_uint wrow = compact ? sqz_fold_w(n) : n, hrows = compact ? (cl_uint)sqz_fold_h(n) : n;
  cl_ulong elems = f->elems;
  /* 32-bit words: a work-item per 16 cells (grid-stride); 8- and 64-bit words (CPU devices): a work-item per storage row */
  uint64_t items = word != 32 ? hrows : (elems + 15) / 16, lsize = word != 32 ? SQZ__SWAR_ROWS_LOCAL : SQZ__SWAR_LOCAL;
  uint64_t groups = (items + lsize - 1) / lsize;
  uint64_t cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * SQZ__SWAR_GROUPS_PER_CU;
  size_t local = (size_t)lsize, global = (size_t)(groups < cap ? groups : cap) * local;
  st = sqz__args(ctx, k, sizeof(cl_mem), &f->mem[f->cur], sizeof(cl_mem), &f->mem[1 - f->cur], sizeof rule, &rule,
                 sizeof n, &n, sizeof wrow, &wrow, sizeof hrows, &hrows, sizeof elems, &elems, sizeof compact, &compact,
                 (size_t)0);
  if (st != SQZ_OK) {
    clReleaseKernel(k);
    return st;
  }
  return sqz__cl_swar_steps(f, k, 1, &global, &local, steps);
}
