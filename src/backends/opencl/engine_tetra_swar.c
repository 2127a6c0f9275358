/* engine_tetra_swar.c (opencl) — the fast Life step on u8 tetrahedra (cl/engine_tetra_swar.cl): its word per device type, rows per work-item and launch shape. */
#include <stdio.h>

#include "backends/opencl/cl_engine.h"

/* 32-bit words (GPUs), two planes a work-item, as measured on the H200 (tetrahedron:2048, 2026-12-05): rows of a
 * plane per work-item 16 in compact (the state of 128: 1.19x slower), 64 in bb (1.17x), where longer rows pay for
 * the start of a chunk; groups of 32 along x by 4 plane pairs (128 by 1: 1.14x slower). SQZ_TETRA_CHUNK and
 * SQZ_TETRA_LOCAL_X override. */
#define SQZ__TETRA_CHUNK_COMPACT 16u
#define SQZ__TETRA_CHUNK_BB 64u
#define SQZ__TETRA_LOCAL 128u  /* work-items per group, 32-bit words (H200, one plane: 128 along x by 8 % over 64 and 256) */
#define SQZ__TETRA_LOCAL_X 32u /* of them along x, two planes a work-item */
#define SQZ__TETRA_ROWS_CHUNK 32u /* rows of a plane per work-item, 1-byte words (CPU devices, SQZ_TETRA_CHUNK overrides; PoCL: 32 over 8 by ~10 %) */
#define SQZ__TETRA_ROWS_LOCAL 16u /* work-items per group along y, 1-byte words */

static size_t sqz__round_up(uint64_t v, uint64_t m) { return (size_t)((v + m - 1) / m * m); }

int sqz__cl_tetra_swar(sqz_field *f, const sqz_update *u, uint64_t steps) {
  static const char *const files[] = {"sqz_common.h", "sqz_simplex.h", "sqz_swar.h", "engine_tetra_swar.cl", NULL};
  sqz_context *ctx = f->ctx;
  cl_kernel k = NULL;
  unsigned word = sqz__cl_swar_word(ctx) == 8 ? 8u : 32u, variant = 0; /* 64 counts as 32 here */
  cl_uint vendor = 0;
  clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL);
  int st = SQZ_ERR_INTERNAL;
  /* Tried in turn until one builds: 1-byte words (CPU devices; clang's vector extensions, which PoCL has), then
   * 32-bit words; with 32-bit words inline PTX on NVIDIA (vendor 0x10de) for variant 1, then OpenCL C. Variants:
   * 0 one plane a work-item (engine_tetra_swar), 2 two (engine_tetra_swar_z2), 1 two with inline PTX on NVIDIA
   * (opt-in until NVIDIA's compiler has built and timed it). */
  for (; st != SQZ_OK && word <= 32u; word += 24u) {
    variant = word == 32 ? (unsigned)sqz__opt_num(NULL, f, SQZ_OPT_TETRA_VARIANT, 2) : 0u;
    for (int ptx = variant == 1 && vendor == 0x10deu; ptx >= 0 && st != SQZ_OK; ptx--) {
      char pre[128];
      snprintf(pre, sizeof pre, "#define SQZ_SWAR_WORD %u\n%s%s", word, sqz__cl_swar_idx32(f) ? "#define SQZ_IDX32 1\n" : "",
               ptx ? "#define SQZ_PTX 1\n" : "");
      st = sqz__cl_swar_kernel(f, files, pre, variant ? "engine_tetra_swar_z2" : "engine_tetra_swar", &k);
    }
  }
  if (st != SQZ_OK) return st;
  word -= 24u; /* the word that built */
  cl_uint n = (cl_uint)f->dom->side, compact = f->layout == SQZ_LAYOUT_COMPACT, chunk = (cl_uint)sqz__opt_num(NULL, f, SQZ_OPT_TETRA_CHUNK,
                                 word == 8 ? SQZ__TETRA_ROWS_CHUNK
                                           : (compact ? SQZ__TETRA_CHUNK_COMPACT : SQZ__TETRA_CHUNK_BB));
  cl_uint birth = u->birth, survive = u->survive;
  cl_ulong elems = f->elems;
  /* 1-byte words: a work-item per `chunk` rows of plane z; 32-bit words: per 8 cells along x (two words) of `chunk` rows of plane z (variant 0) or planes z, z + 1 */
  size_t global[3] = {sqz__round_up((n + chunk - 1) / chunk, SQZ__TETRA_ROWS_LOCAL), n, 1}, local[3] = {SQZ__TETRA_ROWS_LOCAL, 1, 1};
  if (word == 32) {
    /* a group: lx work-items along x by SQZ__TETRA_LOCAL / lx plane pairs (variant 1, 2: fewer along x,
     * so that a warp's work-items end their rows at nearer y; SQZ_TETRA_LOCAL_X) */
    size_t lx = variant ? (size_t)sqz__opt_num(NULL, f, SQZ_OPT_TETRA_LOCAL_X, SQZ__TETRA_LOCAL_X) : SQZ__TETRA_LOCAL;
    local[0] = lx;
    local[1] = SQZ__TETRA_LOCAL / lx;
    global[0] = sqz__round_up(((uint64_t)n + 7) / 8, lx); /* 8 cells a work-item */
    global[1] = sqz__round_up(variant ? (n + 1) / 2 : n, local[1]); /* planes z, z + 1 a work-item */
    global[2] = (n + chunk - 1) / chunk;
  }
  st = sqz__args(ctx, k, sizeof(cl_mem), &f->mem[f->cur], sizeof(cl_mem), &f->mem[1 - f->cur], sizeof birth, &birth,
                 sizeof survive, &survive, sizeof n, &n, sizeof compact, &compact, sizeof chunk, &chunk, sizeof elems,
                 &elems, (size_t)0);
  if (st != SQZ_OK) {
    clReleaseKernel(k);
    return st;
  }
  return sqz__cl_swar_steps(f, k, word == 32 ? 3 : 2, global, local, steps);
}
