/* engine_fractal.c (opencl) — the stencil engine on fractal fields (one kernel per layout) and their random fills. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_bits.h"
#include "backends/opencl/cl_engine.h"
#include "core/field_parts.h"
#include "fractal/fractal_internal.h"

#define SQZ__GROUP 256u                        /* work-items per group: explicit local sizes  */
#define SQZ__MAX_GROUPS ((uint64_t)1 << 20)   /* groups per launch: NDRanges of at most 2^28 items */
#define SQZ__NBR_BYTES (9u * sizeof(cl_long)) /* neighbour tile indices per tile (local memory) */
#define SQZ__PERSISTENT_PER_CU 32u            /* groups per compute unit of the cached tile steps */

/* 1 if the device's extension list holds `name` as a whole word. */
static int sqz__device_extension(sqz_context *ctx, const char *name) {
  size_t len = 0, n = strlen(name);
  if (clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || len == 0) return 0;
  char *ext = sqz__malloc(len + 1);
  int found = 0;
  if (ext && clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS) {
    ext[len] = 0;
    for (const char *p = strstr(ext, name); p && !found; p = strstr(p + 1, name))
      found = (p == ext || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ');
  }
  free(ext);
  return found;
}

/* Sub-groups for the group-parallel λ (cl/life_fractal.cl, fr_group_lambda): prelude lines
 * and build options when the device reports cl_intel_subgroups (usable from OpenCL C 1.2) or
 * cl_khr_subgroups with OpenCL C 2.0 or later (the program is then built with that
 * -cl-std); otherwise nothing, and the kernels sum in local memory. PoCL 5 (CPU) reports
 * cl_intel_subgroups: test_fractal_group passed there; NVIDIA's OpenCL 1.2 and PoCL 3 report none. */
static const char *sqz__subgroup_prelude(sqz_context *ctx, char *opts, size_t len) {
  int major = 0, minor = 0;
  opts[0] = 0;
  if (sqz__device_extension(ctx, "cl_intel_subgroups"))
    return "#pragma OPENCL EXTENSION cl_intel_subgroups : enable\n#define SQZ_FR_SUBGROUPS 1\n";
  if (sqz__device_extension(ctx, "cl_khr_subgroups") && sscanf(ctx->c_version, "OpenCL C %d.%d", &major, &minor) == 2 &&
      major >= 2) {
    snprintf(opts, len, "-cl-std=CL%d.%d", major, minor);
    return "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n#define SQZ_FR_SUBGROUPS 1\n";
  }
  return "";
}

/* The fractal part of a prelude: s, k, H_λ, H_ν and the powers s^i and k^i of every level the
 * parser allows (s^i < 2^31), appended to pre at *at (cap bytes). */
static void sqz__fractal_defines(const sqz_fractal *fr, char *pre, size_t cap, size_t *at) {
  *at += (size_t)snprintf(pre + *at, cap - *at, "#define SQZ_FR_S %du\n#define SQZ_FR_K %du\n#define SQZ_FR_HL {", fr->s,
                          fr->k);
  for (int i = 0; i < 2 * fr->k; i++) *at += (size_t)snprintf(pre + *at, cap - *at, "%s%d", i ? "," : "", fr->hl[i]);
  *at += (size_t)snprintf(pre + *at, cap - *at, "}\n#define SQZ_FR_HNU {");
  for (int i = 0; i < fr->s * fr->s; i++) *at += (size_t)snprintf(pre + *at, cap - *at, "%s%d", i ? "," : "", fr->hnu[i]);
  *at += (size_t)snprintf(pre + *at, cap - *at, "}\n#define SQZ_FR_SPOW {1u");
  for (uint64_t p = (uint64_t)fr->s; p < ((uint64_t)1 << 31); p *= (uint64_t)fr->s)
    *at += (size_t)snprintf(pre + *at, cap - *at, ",%lluu", (unsigned long long)p);
  *at += (size_t)snprintf(pre + *at, cap - *at, "}\n#define SQZ_FR_KPOW {1ul");
  for (uint64_t p = (uint64_t)fr->s, q = (uint64_t)fr->k; p < ((uint64_t)1 << 31); p *= (uint64_t)fr->s, q *= (uint64_t)fr->k)
    *at += (size_t)snprintf(pre + *at, cap - *at, ",%lluul", (unsigned long long)q); /* k^i < s^2i < 2^62 */
  *at += (size_t)snprintf(pre + *at, cap - *at, "}\n");
}

/* Kernel `name` of f's fractal with update u, alone in its program: the fractal's tables and, for
 * the group-parallel λ, the sub-group switch, then the update's prelude, in front of the shared
 * sources. One program per pattern, update and kernel, any level. (The fills take the pattern as
 * arguments: sqz__cl_fill_fractal.) */
static int sqz__fractal_kernel(sqz_field *f, const sqz_update *u, int group, const char *name, cl_kernel *k) {
  const char *files[] = {"sqz_common.h", "sqz_rule.h", "sqz_heat.h", "sqz_fractal.h", "sqz_fractal_tables.h", NULL,
                         "sqz_parts.h", "engine_fractal.cl", "sqz_swar.h", "engine_fractal_swar.cl", NULL};
  char *upre = sqz__cl_update_prelude(f->ctx, f, u), opts[32] = "";
  if (!upre) return SQZ_ERR_OUT_OF_MEMORY;
  const char *sub = group ? sqz__subgroup_prelude(f->ctx, opts, sizeof opts) : "";
  size_t cap = strlen(upre) + strlen(sub) + 12u * 3u * SQZ_MAX_SCALE * SQZ_MAX_SCALE + 2048u, at = 0;
  char *pre = sqz__malloc(cap);
  int st = SQZ_OK;
  if (!pre) {
    st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
    goto done;
  }
  at = (size_t)snprintf(pre, cap, "%s%s", sub, f->part && sqz__bands_layout(f) ? "#define SQZ_PARTED 1\n" : "");
  if (strcmp(name, "engine_fractal_swar") == 0) /* its step in 1-byte words on CPU devices (sqz__cl_fractal_swar_word) */
    sqz__cl_fractal_swar_prelude(f->ctx, &f->dom->fr, pre, cap, &at);
  sqz__fractal_defines(&f->dom->fr, pre, cap, &at);
  snprintf(pre + at, cap - at, "%s", upre);
  files[5] = sqz__cl_update_file(u);
  if (!files[5]) { /* the user's update is in the prelude: close the gap in the list */
    for (size_t i = 5; i + 1 < sizeof files / sizeof files[0]; i++) files[i] = files[i + 1];
  }
  st = sqz__program_kernel(f->ctx, pre, files, opts, name, k);
done:
  free(upre);
  free(pre);
  return st;
}

/* Launch shape of a tile kernel: `lanes` work-items per tile, `per_group` tiles per group. */
typedef struct {
  sqz_fractal_tiling t;
  int direct; /* the cache does not fit in local memory: the *_direct kernel, no cache */
  cl_uint lanes, per_group;
  size_t local; /* lanes * per_group, or the whole group when that leaves at most 1/8 of it idle (243, 252 or 255
                 * of 256): the extra work-items find no tile and idle, and each kernel compiles for fewer local sizes
                 * (PoCL compiles a kernel once per local size) */
  uint64_t local_bytes; /* per group, for the tile cache and neighbour indices */
  uint64_t terms_bytes; /* per group, the step kernels' `terms` (group-parallel λ sums) */
} sqz__tile_launch;

/* cached 1: the block/compact step's (rho + 2)^2 cache (rounded to 4 bytes) and neighbour
 * indices per tile; when that exceeds local memory, only p->direct is set (the caller plans
 * again with the *_direct kernel). cached 2: the direct kernels' neighbour indices (and 4
 * unused cache bytes) per tile. cached 0: the lambda step's tile corner (8 bytes per tile). group: the
 * group-parallel λ's min(lanes, R - j) partial sums per tile (at least one; else 8 unused
 * bytes per group, cl/life_fractal.cl fr_group_lambda). */
static int sqz__plan_tiles(sqz_field *f, cl_kernel k, int cached, int group, sqz__tile_launch *p) {
  sqz_context *ctx = f->ctx;
  int st = sqz__fractal_tiling(f, &p->t);
  if (st != SQZ_OK) return st;
  size_t kwg = SQZ__GROUP;
  cl_ulong lmem = 0;
  SQZ_CL_CHECK(ctx, clGetKernelWorkGroupInfo(k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
  lmem = ctx->local_mem;
  size_t wg = kwg < SQZ__GROUP ? kwg : SQZ__GROUP;
  p->lanes = (cl_uint)(p->t.tile_elems < wg ? p->t.tile_elems : wg);
  p->per_group = (cl_uint)(wg / p->lanes);
  uint64_t ts = sqz_type_size(f->type);
  uint64_t cache = cached == 1 ? ((((uint64_t)(p->t.rho + 2) * (p->t.rho + 2) + 3) & ~(uint64_t)3) * ts) : 8;
  uint64_t per_tile = cached ? cache + SQZ__NBR_BYTES : 8;
  uint64_t rb = (uint64_t)f->dom->fr.r - p->t.j, terms = group ? 8 * (rb < p->lanes ? (rb ? rb : 1) : p->lanes) : 0;
  uint64_t unused = group ? 0 : 8; /* the sequential kernels' `terms` */
  per_tile += terms;
  p->direct = cached == 2;
  if (cached == 1 && per_tile + unused > lmem) {
    p->direct = 1;
    return SQZ_OK;
  }
  while (p->per_group > 1 && per_tile * p->per_group + unused > lmem) p->per_group /= 2;
  if (per_tile + unused > lmem)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                     "%s in layout %s: a %u x %u tile cache needs %llu bytes of local memory, %s has %llu",
                     f->dom->spec, f->layout_str, p->t.rho + 2, p->t.rho + 2, (unsigned long long)per_tile,
                     ctx->device_name, (unsigned long long)lmem);
  p->local = (size_t)p->lanes * p->per_group;
  if (p->local < wg && wg - p->local <= wg / 8) p->local = wg; /* see sqz__tile_launch.local */
  p->local_bytes = (per_tile - terms) * p->per_group;
  p->terms_bytes = group ? terms * p->per_group : 8;
  return SQZ_OK;
}

/* Enqueues a tile kernel over tiles [first, end) of the tiling (all, or a part's own), in launches
 * of at most SQZ__MAX_GROUPS groups; the first tile of each launch goes to argument tile0_arg.
 * persistent: the kernel's groups loop over the tiles (fr_tile_step), so one launch of at most
 * SQZ__PERSISTENT_PER_CU groups per compute unit covers them all. */
static int sqz__run_tiles(sqz_context *ctx, cl_kernel k, cl_uint tile0_arg, const sqz__tile_launch *p, int persistent) {
  uint64_t groups = (p->t.end - p->t.first + p->per_group - 1) / p->per_group;
  uint64_t cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * SQZ__PERSISTENT_PER_CU;
  if (persistent && groups > cap) groups = cap;
  for (uint64_t g0 = 0; g0 < groups; g0 += SQZ__MAX_GROUPS) {
    cl_ulong tile0 = p->t.first + g0 * p->per_group;
    SQZ_CL_CHECK(ctx, clSetKernelArg(k, tile0_arg, sizeof tile0, &tile0));
    size_t global = (size_t)(groups - g0 < SQZ__MAX_GROUPS ? groups - g0 : SQZ__MAX_GROUPS) * p->local;
    int st = sqz__run(ctx, k, 1, &global, &p->local);
    if (st != SQZ_OK) return st;
  }
  return SQZ_OK;
}

/* Enqueues a 2D kernel over rows y0 .. y1 - 1 of the n x n embedding with 32 x 8 groups, in row
 * bands that keep each NDRange below 2^30 items and 65535 groups high; the first row goes to
 * row0_arg. */
static int sqz__run_rows(sqz_context *ctx, cl_kernel k, cl_uint row0_arg, uint32_t n, uint64_t y0, uint64_t y1) {
  size_t local[2] = {32, 8}, gx = ((size_t)n + 31) / 32 * 32;
  uint64_t band = ((uint64_t)1 << 30) / gx;
  band = band < 8 ? 8 : band - band % 8;
  if (band > 65535u * 8u) band = 65535u * 8u;
  for (uint64_t r0 = y0; r0 < y1; r0 += band) {
    cl_uint row0 = (cl_uint)r0;
    uint64_t rows = y1 - r0 < band ? y1 - r0 : band;
    size_t global[2] = {gx, (size_t)(rows + 7) / 8 * 8};
    SQZ_CL_CHECK(ctx, clSetKernelArg(k, row0_arg, sizeof row0, &row0));
    int st = sqz__run(ctx, k, 2, global, local);
    if (st != SQZ_OK) return st;
  }
  return SQZ_OK;
}

static const char *sqz__step_kernel_name(sqz_layout_id layout, int group) {
  switch (layout) {
  case SQZ_LAYOUT_BB: return "engine_fractal_bb";
  case SQZ_LAYOUT_LAMBDA: return group ? "engine_fractal_lambda_group" : "engine_fractal_lambda";
  case SQZ_LAYOUT_BLOCK: return group ? "engine_fractal_block_group" : "engine_fractal_block";
  case SQZ_LAYOUT_COMPACT:
  default: break;
  }
  return group ? "engine_fractal_compact_group" : "engine_fractal_compact";
}

/* Arguments of the step kernels (cl/engine_fractal.cl), by name. */
enum { FA_SRC, FA_DST, FA_PARAM, FA_IP };
enum { FA_BB_N = FA_IP + 1, FA_BB_LEVELS, FA_BB_ROW0 };
enum {
  FA_LA_TABLE = FA_IP + 1, FA_LA_N, FA_LA_LEVELS, FA_LA_J, FA_LA_RHO, FA_LA_CELLS, FA_LA_LANES, FA_LA_PER_GROUP,
  FA_LA_TILE0, FA_LA_TILES, FA_LA_CORNER, FA_LA_TERMS
};
enum {
  FA_TI_TABLE = FA_IP + 1, FA_TI_LEVELS, FA_TI_J, FA_TI_RHO, FA_TI_ELEMS, FA_TI_CELLS, FA_TI_HALO, FA_TI_LANES,
  FA_TI_PER_GROUP, FA_TI_TILE0, FA_TI_TILES, FA_TI_CACHE, FA_TI_NBR, FA_TI_TERMS, FA_TI_PU0, FA_TI_PU1, FA_TI_PNH,
  FA_TI_PHALO, FA_TI_PRN, FA_TI_PRUNS
};

#define SQZ__ARG(k, i, v) clSetKernelArg((k), (i), sizeof(v), &(v))

/* A part's band arguments of the embedded kernels (cl/engine_fractal.cl, FR_BAND_ARGS): its own
 * elements and the rows y0 .. y1 - 1 this launch writes, from argument `first` on. */
static int sqz__band_args(sqz_field *f, cl_kernel k, cl_uint first, uint64_t y0, uint64_t y1) {
  cl_ulong n = f->dom->side, pu0 = f->part->u0, pu1 = f->part->u1, wlo = y0 * n, whi = y1 * n;
  cl_int e = SQZ__ARG(k, first, pu0) | SQZ__ARG(k, first + 1, pu1) | SQZ__ARG(k, first + 2, wlo) |
             SQZ__ARG(k, first + 3, whi);
  return e == CL_SUCCESS ? SQZ_OK : sqz__fail(f->ctx, SQZ_ERR_INTERNAL, "setting a part's band arguments failed");
}

/* Sets the arguments of one step from mem[cur] into mem[1 - cur] (all but tile0/row0). */
static int sqz__step_args(sqz_field *f, cl_kernel k, cl_mem param, cl_uint2 ip, cl_mem table,
                          const sqz__tile_launch *p, cl_uint n_cells, cl_uint n_halo) {
  sqz_context *ctx = f->ctx;
  cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
  cl_uint n = (cl_uint)f->dom->side, r = (cl_uint)f->dom->fr.r, j = p->t.j, rho = p->t.rho, te = p->t.tile_elems;
  cl_ulong tiles = p->t.end; /* the launch bound: all tiles, a part's last own tile + 1, or its set's size */
  cl_int e = SQZ__ARG(k, FA_SRC, src) | SQZ__ARG(k, FA_DST, dst) | SQZ__ARG(k, FA_PARAM, param) | SQZ__ARG(k, FA_IP, ip);
  switch (f->layout) {
  case SQZ_LAYOUT_BB:
    e |= SQZ__ARG(k, FA_BB_N, n) | SQZ__ARG(k, FA_BB_LEVELS, r);
    break;
  case SQZ_LAYOUT_LAMBDA:
    e |= SQZ__ARG(k, FA_LA_TABLE, table) | SQZ__ARG(k, FA_LA_N, n) | SQZ__ARG(k, FA_LA_LEVELS, r) |
         SQZ__ARG(k, FA_LA_J, j) | SQZ__ARG(k, FA_LA_RHO, rho) | SQZ__ARG(k, FA_LA_CELLS, n_cells) |
         SQZ__ARG(k, FA_LA_LANES, p->lanes) | SQZ__ARG(k, FA_LA_PER_GROUP, p->per_group) |
         SQZ__ARG(k, FA_LA_TILES, tiles) | clSetKernelArg(k, FA_LA_CORNER, (size_t)p->local_bytes, NULL) |
         clSetKernelArg(k, FA_LA_TERMS, (size_t)p->terms_bytes, NULL);
    break;
  case SQZ_LAYOUT_BLOCK:
  case SQZ_LAYOUT_COMPACT: {
    size_t nbr = SQZ__NBR_BYTES * p->per_group;
    const sqz_field_part *pt = f->part; /* the unit remap (cl/sqz_parts.h): identity in one buffer */
    cl_ulong pu0 = pt ? pt->u0 : 0, pu1 = pt ? pt->u1 : p->t.tiles, pnh = pt ? pt->n_halo : 0;
    cl_mem phalo = pt ? (cl_mem)pt->halo_dev : NULL, pruns = (cl_mem)p->t.runs_dev; /* launch positions -> tiles */
    cl_ulong prn = p->t.n_runs;
    e |= SQZ__ARG(k, FA_TI_PU0, pu0) | SQZ__ARG(k, FA_TI_PU1, pu1) | SQZ__ARG(k, FA_TI_PNH, pnh) |
         SQZ__ARG(k, FA_TI_PHALO, phalo) | SQZ__ARG(k, FA_TI_PRN, prn) | SQZ__ARG(k, FA_TI_PRUNS, pruns);
    e |= SQZ__ARG(k, FA_TI_TABLE, table) | SQZ__ARG(k, FA_TI_LEVELS, r) | SQZ__ARG(k, FA_TI_J, j) |
         SQZ__ARG(k, FA_TI_RHO, rho) | SQZ__ARG(k, FA_TI_ELEMS, te) | SQZ__ARG(k, FA_TI_CELLS, n_cells) |
         SQZ__ARG(k, FA_TI_HALO, n_halo) | SQZ__ARG(k, FA_TI_LANES, p->lanes) |
         SQZ__ARG(k, FA_TI_PER_GROUP, p->per_group) | SQZ__ARG(k, FA_TI_TILES, tiles) |
         clSetKernelArg(k, FA_TI_CACHE, (size_t)p->local_bytes - nbr, NULL) | clSetKernelArg(k, FA_TI_NBR, nbr, NULL) |
         clSetKernelArg(k, FA_TI_TERMS, (size_t)p->terms_bytes, NULL);
    break;
  }
  default: break; /* bits has its own steps */
  }
  if (e != CL_SUCCESS) return sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the arguments of a fractal step failed");
  return SQZ_OK;
}

/* The tile table of f as a device buffer (tiled layouts only). */
static int sqz__table_buffer(sqz_field *f, const sqz__tile_launch *p, cl_mem *out, cl_uint *n_cells,
                             cl_uint *n_halo) {
  uint32_t *table = sqz__fractal_tile_table(f, &p->t, n_cells, n_halo);
  if (!table) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  size_t bytes = (3u * (size_t)*n_cells + 2u * *n_halo) * sizeof *table; /* cells, halo, present masks */
  int st = sqz__const_buffer(f->ctx, bytes, table, out); /* no queue command: enqueued steps may wait */
  free(table);
  return st;
}

int sqz__cl_fractal_words(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  cl_kernel k = NULL; /* map seq: the word steps do not take map group */
  int st = sqz__fractal_kernel(f, u, 0, plan->depth > 1 ? "engine_fractal_swar_t" : "engine_fractal_swar", &k);
  return st == SQZ_OK ? sqz__cl_fractal_swar(f, u, k, plan, steps) : st;
}

/* The generic step kernel of f's layout (with direct its *_direct kernel) and, tiled, its tile plan. */
static int sqz__generic_kernel(sqz_field *f, const sqz_update *u, int direct, cl_kernel *k, sqz__tile_launch *plan) {
  int group = strcmp(f->map, "group") == 0;
  char name[64];
  memset(plan, 0, sizeof *plan);
  snprintf(name, sizeof name, "%s%s", sqz__step_kernel_name(f->layout, group), direct ? "_direct" : "");
  int st = sqz__fractal_kernel(f, u, group, name, k);
  if (st == SQZ_OK && f->layout != SQZ_LAYOUT_BB)
    st = sqz__plan_tiles(f, *k, direct ? 2 : f->layout != SQZ_LAYOUT_LAMBDA, group, plan);
  return st;
}

int sqz__cl_fractal_cache_fits(sqz_field *f, const sqz_update *u, int *fits) {
  cl_kernel k = NULL;
  sqz__tile_launch plan;
  int st = sqz__generic_kernel(f, u, 0, &k, &plan);
  *fits = !plan.direct;
  if (k) clReleaseKernel(k);
  return st;
}

int sqz__cl_fractal_generic(sqz_field *f, const sqz_update *u, uint64_t steps, int direct) {
  sqz_context *ctx = f->ctx;
  cl_kernel k = NULL;
  cl_mem table = NULL, param = NULL;
  cl_uint n_cells = 0, n_halo = 0;
  cl_uint2 ip;
  sqz__tile_launch plan;
  int tiled = f->layout != SQZ_LAYOUT_BB, group = strcmp(f->map, "group") == 0;
  int st = sqz__generic_kernel(f, u, direct, &k, &plan);
  if (st == SQZ_OK && plan.direct && !direct) /* its path applied to this field, update and device */
    st = sqz__fail(ctx, SQZ_ERR_INTERNAL, "%s: the tile cache of the generic step no longer fits local memory",
                   f->dom->spec);
  if (st == SQZ_OK && tiled) st = sqz__table_buffer(f, &plan, &table, &n_cells, &n_halo);
  if (st == SQZ_OK) st = sqz__cl_update_params(ctx, f, u, &param, &ip);
  for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
    st = sqz__step_args(f, k, param, ip, table, &plan, n_cells, n_halo);
    uint64_t y0 = 0, y1 = f->dom->side; /* bb: every row; a part's band (bb, lambda): each run of its rows */
    for (uint64_t r = 0, n_runs = 1; st == SQZ_OK && r < n_runs; r++) {
      if (f->part && sqz__bands_layout(f)) {
        n_runs = sqz__band_run(f, f->dom->side, r, &y0, &y1);
        st = sqz__band_args(f, k, f->layout == SQZ_LAYOUT_BB ? FA_BB_ROW0 + 1 : FA_LA_TERMS + 1, y0, y1);
      }
      if (st == SQZ_OK)
        st = tiled ? sqz__run_tiles(ctx, k, f->layout == SQZ_LAYOUT_LAMBDA ? FA_LA_TILE0 : FA_TI_TILE0, &plan,
                                    f->layout != SQZ_LAYOUT_LAMBDA && !plan.direct && !group)
                   : sqz__run_rows(ctx, k, FA_BB_ROW0, (uint32_t)f->dom->side, y0, y1);
    }
    if (st == SQZ_OK) f->cur = 1 - f->cur;
  }
  int fin = sqz__cl_done_with(ctx, table, param); /* they must outlive the launches that read them */
  if (st == SQZ_OK) st = fin;
  if (k) clReleaseKernel(k);
  return st;
}

int sqz__cl_fractal_pattern(sqz_context *ctx, const sqz_fractal *fr, cl_mem *out) {
  cl_int tab[2 * SQZ_MAX_SCALE * SQZ_MAX_SCALE + SQZ_MAX_SCALE * SQZ_MAX_SCALE];
  size_t n = 2u * (size_t)fr->k, m = (size_t)fr->s * (size_t)fr->s;
  memcpy(tab, fr->hl, n * sizeof *tab);
  memcpy(tab + n, fr->hnu, m * sizeof *tab);
  return sqz__const_buffer(ctx, (n + m) * sizeof *tab, tab, out);
}

/* Arguments of the fill kernels (cl/fractal_fill.cl) that change per launch, by name: the
 * kernels take (dst, fr, s, k, n, levels, mode, seed, threshold, value, row0) and (dst, fr, s, k,
 * n, levels, j, rho, tile_elems, lanes, tiles_per_group, compact, mode, seed, threshold, value,
 * tile0, tiles, first). */
enum { FF_EMBEDDED_ROW0 = 10, FF_TILES_TILE0 = 16 };

int sqz__cl_fill_fractal(sqz_field *f, const sqz_fill *fill) {
  static const char *const files[] = {"sqz_common.h", "sqz_fractal.h", "fractal_fill.cl", NULL};
  sqz_context *ctx = f->ctx;
  cl_kernel k = NULL;
  cl_mem fr = NULL;
  char pre[48];
  snprintf(pre, sizeof pre, "#define SQZ_FILL_BYTES %u\n", (unsigned)sqz_type_size(f->type));
  int embedded = f->layout == SQZ_LAYOUT_BB || f->layout == SQZ_LAYOUT_LAMBDA;
  int st = sqz__program_kernel(ctx, pre, files, NULL, embedded ? "fill_fractal_embedded" : "fill_fractal_tiles", &k);
  if (st == SQZ_OK) st = sqz__cl_fractal_pattern(ctx, &f->dom->fr, &fr);
  if (st != SQZ_OK) {
    if (k) clReleaseKernel(k);
    return st;
  }
  cl_mem dst = (cl_mem)f->mem[f->cur];
  cl_uint n = (cl_uint)f->dom->side, r = (cl_uint)f->dom->fr.r, compact = f->layout == SQZ_LAYOUT_COMPACT;
  cl_uint s = (cl_uint)f->dom->fr.s, kk = (cl_uint)f->dom->fr.k, mode = fill->mode;
  cl_ulong cseed = fill->seed, thr = fill->threshold, val = fill->value, zero = 0;
  if (embedded) {
    st = sqz__args(ctx, k, sizeof dst, &dst, sizeof fr, &fr, sizeof s, &s, sizeof kk, &kk, sizeof n, &n, sizeof r, &r,
                   sizeof mode, &mode, sizeof cseed, &cseed, sizeof thr, &thr, sizeof val, &val, sizeof(cl_uint), &zero,
                   (size_t)0);
    if (st == SQZ_OK) st = sqz__run_rows(ctx, k, FF_EMBEDDED_ROW0, n, 0, n);
  } else {
    sqz__tile_launch p;
    memset(&p, 0, sizeof p);
    st = sqz__plan_tiles(f, k, 0, 0, &p);
    cl_uint j = p.t.j, rho = p.t.rho, te = p.t.tile_elems;
    cl_ulong tiles = p.t.end, first = p.t.first; /* a part's buffer starts at its first own tile */
    if (st == SQZ_OK)
      st = sqz__args(ctx, k, sizeof dst, &dst, sizeof fr, &fr, sizeof s, &s, sizeof kk, &kk, sizeof n, &n, sizeof r,
                     &r, sizeof j, &j, sizeof rho, &rho, sizeof te, &te, sizeof p.lanes, &p.lanes, sizeof p.per_group,
                     &p.per_group, sizeof compact, &compact, sizeof mode, &mode, sizeof cseed, &cseed, sizeof thr, &thr,
                     sizeof val, &val, sizeof zero, &zero, sizeof tiles, &tiles, sizeof first, &first, (size_t)0);
    if (st == SQZ_OK) st = sqz__run_tiles(ctx, k, FF_TILES_TILE0, &p, 0);
  }
  int fin = sqz__cl_done_with(ctx, fr, NULL); /* the pattern must outlive the launches that read it */
  if (st == SQZ_OK) st = fin;
  clReleaseKernel(k);
  return st;
}
