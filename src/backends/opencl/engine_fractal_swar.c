/* engine_fractal_swar.c (opencl) — the fast Life step on u8 fractal tiles (cl/engine_fractal_swar.cl): when it applies, its tile level, tables and launches. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"
#include "core/field_parts.h"
#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"

#define SQZ__SWAR_GROUP 256u        /* work-items per group */
#define SQZ__SWAR_LMEM 49152u       /* local memory a group may use at most (NVIDIA's limit) */
#define SQZ__SWAR_ITER_CELLS 4096u  /* tiles per iteration: about this many cells */
#define SQZ__SWAR_GROUPS_PER_CU 256u /* persistent groups per compute unit */
/* CPU devices (1-byte words): groups of one work-item, 4 per compute unit. A group runs on one
 * thread there, so one work-item loses no parallelism and makes every loop a plain loop over
 * consecutive cells (vectorised); few groups zero their tile cache once for many iterations.
 * PoCL, fractal:sierpinski-triangle:13 compact, 1 thread: 5.4 ms a step against 11.2 ms with
 * 256 work-items and 256 groups per compute unit (docs/BENCHMARKS.md, PoCL words). */
#define SQZ__SWAR_CPU_GROUPS_PER_CU 4u
#define SQZ__SWAR_CPU_SLACK 32u /* bytes after a CPU device's tile cache that its chunk steps may write */
#define SQZ__SWAR_CPU_CHUNK 16u /* bytes a CPU device's step computes at once (cl/engine_fractal_swar.cl: uchar16) */
/* Steps per launch on GPUs (SQZ_TEMPORAL=1..4 overrides): on the H200 4 steps per launch ran 1.09x
 * (Sierpinski compact R = 20) to 1.7x (carpet R = 10) the one-step kernel, docs/BENCHMARKS.md run 7;
 * CPU devices keep 1, as stepping the whole window costs more instructions than the loads it saves. */
#define SQZ__SWAR_DEPTH_GPU 4u

/* One tile level's shape for the kernel: the tables every tile shares, packed in words
 * (pos from word 0, halo pairs from word halo_at, tasks as ushort from task_at). */
typedef struct {
  uint32_t j, rho, te, wrow, seg, n_halo, n_tasks, halo_at, task_at, mask_at, words;
  uint32_t depth, bm_at; /* engine_fractal_swar_t: halo width (0: the one-step kernel) and its K word table */
  uint32_t wide; /* pos for the 32-bit word kernels: per cell l two words, the positions of l .. l + 3 (else a ushort) */
  uint32_t rowmajor; /* 1: block layout with rho % 4 == 0: tile words are cache words (holes masked by the mask table);
                     * 2 (CPU devices' one-step kernel): compact tiles moved in 4 x 4 blocks (sqz__swar_blocks) */
  uint64_t tiles, tile_bytes; /* local bytes per tile: cache, output area, 9 neighbour indices */
  uint32_t *tab;
} sqz__swar_shape;

/* pos: the cache byte of every stored cell of a tile, tile cell (x, y) at row y + row0, column x +
 * col0 (holes: byte wrow, column 0 of row 1, which no step reads, except in whole-word moves,
 * rowmajor, whose holes are masked on the way out); a ushort per cell, or with sh->wide 16 bits
 * i of entry l (two words) for cell l + i (i < 4; 0 past the tile). */
static void sqz__swar_pos(const sqz_field *f, sqz__swar_shape *sh, uint32_t row0, uint32_t col0) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k;
  int compact = f->layout == SQZ_LAYOUT_COMPACT;
  uint16_t *pos = (uint16_t *)sh->tab;
  uint32_t *pos4 = sh->tab;
  for (uint32_t l = 0; l < sh->te; l++) {
    sqz_u32 tx, ty;
    if (compact) sqz_fr_lambda(s, k, fr->hl, sh->j, l, &tx, &ty);
    else {
      tx = l % sh->rho;
      ty = l / sh->rho;
    }
    int cell = compact || sqz_fr_contains(s, fr->hnu, sh->j, tx, ty);
    uint32_t p = cell || sh->rowmajor ? (ty + row0) * sh->wrow + tx + col0 : sh->wrow;
    if (!sh->wide) pos[l] = (uint16_t)p;
    for (uint32_t i = 0; sh->wide && i < 4 && i <= l; i++) pos4[2 * (l - i) + i / 2] |= p << (16 * (i % 2));
  }
}

/* rowmajor: byte l % 4 of mask word mask_at + l / 4 is 0xff on a fractal cell of the tile. */
static void sqz__swar_hole_mask(const sqz_field *f, sqz__swar_shape *sh) {
  const sqz_fractal *fr = &f->dom->fr;
  for (uint32_t l = 0; sh->rowmajor && l < sh->te; l++)
    if (sqz_fr_contains((sqz_u32)fr->s, fr->hnu, sh->j, l % sh->rho, l / sh->rho))
      sh->tab[sh->mask_at + l / 4] |= 0xffu << (8 * (l % 4));
}

/* CPU devices' one-step kernel: the 16-byte chunks of the cache rows that hold a cell (chunk i
 * of tile row y: cache row y + 1 from column 4 + 16 i, that is tile columns 16 i .. 16 i + 15),
 * in row-major order, as the cache position of their first byte (ushort), appended to the table;
 * task_at then points to them and n_tasks counts them (that kernel steps chunks, not word
 * columns). */
static int sqz__swar_chunks(const sqz_field *f, sqz__swar_shape *sh) {
  const sqz_fractal *fr = &f->dom->fr;
  int compact = f->layout == SQZ_LAYOUT_COMPACT;
  uint32_t per_row = (sh->rho + SQZ__SWAR_CPU_CHUNK - 1) / SQZ__SWAR_CPU_CHUNK, n = sh->rho * per_row;
  uint8_t *any = sqz__calloc(n, 1);
  uint32_t *tab = any ? realloc(sh->tab, ((size_t)sh->words + (n + 1) / 2) * sizeof *tab) : NULL;
  if (!tab) {
    free(any);
    return SQZ_ERR_OUT_OF_MEMORY;
  }
  sh->tab = tab;
  for (uint32_t l = 0; l < sh->te; l++) {
    sqz_u32 tx, ty;
    if (compact) sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, sh->j, l, &tx, &ty);
    else {
      tx = l % sh->rho;
      ty = l / sh->rho;
      if (!sqz_fr_contains((sqz_u32)fr->s, fr->hnu, sh->j, tx, ty)) continue;
    }
    any[ty * per_row + tx / SQZ__SWAR_CPU_CHUNK] = 1;
  }
  uint16_t *chunk = (uint16_t *)(tab + sh->words);
  sh->n_tasks = 0;
  for (uint32_t i = 0; i < n; i++)
    if (any[i]) chunk[sh->n_tasks++] = (uint16_t)((i / per_row + 1) * sh->wrow + 4 + i % per_row * SQZ__SWAR_CPU_CHUNK);
  free(any);
  sh->task_at = sh->words;
  sh->words += (sh->n_tasks + 1) / 2; /* the block order, if any, follows (cl/engine_fractal_swar.cl, fr_cpu_tile) */
  return SQZ_OK;
}

/* Builds the shape of tile level j with tasks of seg rows, pos wide or not (sqz__swar_pos; tab
 * malloc'ed; SQZ_ERR_UNSUPPORTED when cache positions would not fit in 16 bits). */
static int sqz__swar_shape_build(const sqz_field *f, uint32_t j, uint32_t seg, uint32_t wide, sqz__swar_shape *sh) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k;
  int compact = f->layout == SQZ_LAYOUT_COMPACT;
  memset(sh, 0, sizeof *sh);
  uint64_t rho = sqz__ipow(s, (int)j), cols = (rho + 3) / 4, wrow = 4 * (cols + 2);
  if ((rho + 2) * wrow > 0xffff || cols > 255) return SQZ_ERR_UNSUPPORTED;
  sh->j = j;
  sh->rho = (uint32_t)rho;
  sh->wrow = (uint32_t)wrow;
  sh->te = compact ? (uint32_t)sqz__ipow(k, (int)j) : sh->rho * sh->rho;
  sh->seg = sh->rho < seg ? sh->rho : seg;
  sh->tiles = sqz__ipow(k, fr->r - (int)j);
  sh->tile_bytes = (2 * rho + 2) * wrow + 9 * sizeof(cl_long);
  uint32_t segs = (sh->rho + sh->seg - 1) / sh->seg, w = sh->rho + 2;
  sh->wide = wide;
  sh->halo_at = wide ? 2 * sh->te : (sh->te + 3) / 4 * 2; /* after pos, even: the halo pairs load as 8-byte words */
  uint32_t halo_max = 4 * sh->rho + 4;
  sh->rowmajor = !compact && sh->rho % 4 == 0;
  sh->tab = sqz__calloc((size_t)sh->halo_at + 2 * halo_max + ((size_t)cols * segs + 1) / 2 + 1 +
                            (sh->rowmajor ? sh->te / 4 : 0),
                        sizeof *sh->tab);
  if (!sh->tab) return SQZ_ERR_OUT_OF_MEMORY;
  sqz__swar_pos(f, sh, 1, 4);
  uint32_t *halo = sh->tab + sh->halo_at;
  for (sqz_u32 p = 0; p < w * w; p++) {
    sqz_u32 lx, ly, d = sqz_fr_cache_source(sh->rho, p, &lx, &ly);
    if (d == 4 || !sqz_fr_contains(s, fr->hnu, j, lx, ly)) continue; /* the tile itself, or a hole (stays 0) */
    sqz_i64 off = sqz_fr_tile_offset(compact, s, k, fr->hnu, j, sh->rho, lx, ly);
    halo[2 * sh->n_halo] = ((p / w) * sh->wrow + p % w + 3) | d << 24;
    halo[2 * sh->n_halo + 1] = (uint32_t)off;
    sh->n_halo++;
  }
  sh->task_at = sh->halo_at + 2 * sh->n_halo;
  uint16_t *tasks = (uint16_t *)(sh->tab + sh->task_at);
  for (uint32_t sg = 0; sg < segs; sg++)
    for (uint32_t c = 1; c <= cols; c++) {
      int any = 0;
      for (uint32_t y = sg * sh->seg; y < (sg + 1) * sh->seg && y < sh->rho && !any; y++)
        for (uint32_t x = 4 * c - 4; x < 4 * c && x < sh->rho && !any; x++) any = (int)sqz_fr_contains(s, fr->hnu, j, x, y);
      if (any) tasks[sh->n_tasks++] = (uint16_t)(c | sg << 8);
    }
  sh->mask_at = sh->task_at + (sh->n_tasks + 1) / 2;
  sqz__swar_hole_mask(f, sh);
  sh->words = sh->mask_at + (sh->rowmajor ? sh->te / 4 : 0);
  return SQZ_OK;
}

/* The tile cell (lx, ly) and direction d (dy * 3 + dx) that cache cell (x, y) of a tile holds, x
 * and y relative to the tile's corner (-rho <= x, y < 2 rho). */
static uint32_t sqz__swar_source(uint32_t rho, int64_t x, int64_t y, uint32_t *lx, uint32_t *ly) {
  uint32_t dx = x < 0 ? 0 : x >= (int64_t)rho ? 2 : 1, dy = y < 0 ? 0 : y >= (int64_t)rho ? 2 : 1;
  *lx = (uint32_t)(x - ((int64_t)dx - 1) * rho);
  *ly = (uint32_t)(y - ((int64_t)dy - 1) * rho);
  return dy * 3 + dx;
}

/* The shape of engine_fractal_swar_t at tile level j and halo width depth (2 .. 4): pos, the
 * width-depth halo table, the rowmajor hole mask and the word table of the K areas (per area word
 * the directions of the tiles its bytes' cells belong to, at most two as the left halo is word 1
 * and the tile starts at word 2: bits 0-3 and 4-7, and their bytes, bits 8-11 and 12-15; unused:
 * direction 4, no bytes). SQZ_ERR_UNSUPPORTED when a cache position would not fit in 16 bits. */
static int sqz__swar_shape_deep(const sqz_field *f, uint32_t j, uint32_t depth, sqz__swar_shape *sh) {
  const sqz_fractal *fr = &f->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k;
  int compact = f->layout == SQZ_LAYOUT_COMPACT;
  memset(sh, 0, sizeof *sh);
  uint64_t rho = sqz__ipow(s, (int)j), wrow = 4 * ((rho + 3) / 4 + 4), rows = rho + 2 * depth;
  if (rows * wrow > 0xffff || depth > rho) return SQZ_ERR_UNSUPPORTED;
  sh->j = j;
  sh->depth = depth;
  sh->rho = (uint32_t)rho;
  sh->wrow = (uint32_t)wrow;
  sh->te = compact ? (uint32_t)sqz__ipow(k, (int)j) : sh->rho * sh->rho;
  sh->tiles = sqz__ipow(k, fr->r - (int)j);
  sh->tile_bytes = 3 * rows * wrow + 9 * sizeof(cl_long);
  sh->rowmajor = !compact && sh->rho % 4 == 0;
  sh->wide = 1;
  sh->halo_at = 2 * sh->te; /* after pos */
  uint64_t side = rho + 2 * depth, halo_max = side * side - rho * rho;
  uint64_t w4 = wrow / 4, segs = (rows + 3) / 4;
  sh->mask_at = sh->halo_at + 2 * (uint32_t)halo_max;
  sh->bm_at = sh->mask_at + (sh->rowmajor ? sh->te / 4 : 0);
  sh->task_at = sh->bm_at + (uint32_t)(rows * w4);
  sh->words = sh->task_at + (uint32_t)((w4 * segs + 1) / 2);
  sh->tab = sqz__calloc(sh->words, sizeof *sh->tab);
  if (!sh->tab) return SQZ_ERR_OUT_OF_MEMORY;
  sqz__swar_pos(f, sh, depth, 8);
  uint32_t *halo = sh->tab + sh->halo_at;
  uint8_t *bm = (uint8_t *)(sh->tab + sh->bm_at);
  for (int64_t y = -(int64_t)depth; y < (int64_t)(rho + depth); y++)
    for (int64_t x = -(int64_t)depth; x < (int64_t)(rho + depth); x++) {
      uint32_t lx, ly, d = sqz__swar_source(sh->rho, x, y, &lx, &ly);
      if (!sqz_fr_contains(s, fr->hnu, j, lx, ly)) continue; /* a hole: stays 0 */
      uint32_t at = (uint32_t)((y + depth) * wrow + x + 8);
      bm[at] = (uint8_t)(d + 1);
      if (d == 4) continue; /* the tile itself: loaded through pos */
      halo[2 * sh->n_halo] = at | d << 24;
      halo[2 * sh->n_halo + 1] = (uint32_t)sqz_fr_tile_offset(compact, s, k, fr->hnu, j, sh->rho, lx, ly);
      sh->n_halo++;
    }
  sqz__swar_hole_mask(f, sh);
  uint16_t *tasks = (uint16_t *)(sh->tab + sh->task_at);
  for (uint32_t sg = 0; sg < segs; sg++)
    for (uint32_t c = 1; c + 1 < w4; c++) {
      int any = 0;
      for (uint64_t y = 4 * sg; y < 4 * sg + 4 && y < rows && !any; y++)
        for (uint32_t b = 0; b < 4 && !any; b++) any = bm[y * wrow + 4 * c + b] != 0;
      if (any) tasks[sh->n_tasks++] = (uint16_t)(c | sg << 8);
    }
  for (uint64_t wi = 0; wi < rows * w4; wi++) { /* bm (1 + direction per byte) -> the K word table, in place */
    uint32_t d[2] = {4, 4}, m[2] = {0, 0}, n = 0;
    for (uint32_t b = 0; b < 4; b++) {
      uint32_t v = bm[4 * wi + b], i = n > 0 && d[0] + 1 == v ? 0 : n > 1 && d[1] + 1 == v ? 1 : n;
      if (!v) continue;
      if (i > 1) {
        free(sh->tab);
        return SQZ_ERR_UNSUPPORTED;
      }
      n += i == n;
      d[i] = v - 1;
      m[i] |= 1u << b;
    }
    sh->tab[sh->bm_at + wi] = d[0] | d[1] << 4 | m[0] << 8 | m[1] << 12;
  }
  return SQZ_OK;
}

/* Estimated instructions per cell of a step at this shape (a model, not a measurement): the
 * scatter and gather of each cell, the uncoalesced halo reads, the SWAR rows of the tasks and
 * the 9 λ/ν digit loops per tile. */
static double sqz__swar_cost(const sqz_field *f, const sqz__swar_shape *sh) {
  double levels = (double)(f->dom->fr.r - (int)sh->j);
  return (12.0 * sh->te + 15.0 * sh->n_halo + sh->n_tasks * (34.0 * sh->seg + 24.0) + 144.0 * levels) / sh->te;
}

unsigned sqz__cl_fractal_swar_word(const sqz_context *ctx) { return sqz__cl_swar_word(ctx) == 8u ? 8u : 32u; }

/* The digits of a block when compact tiles of fractal fr move in blocks on CPU devices: 2 at scale 2
 * (4 x 4 blocks), 1 at scales 3 and 4 (3 x 3, 4 x 4), where a block has at most 16 cells; else 0
 * (cell by cell). The tile level must have at least that many digits. */
static int sqz__swar_blocks(const sqz_fractal *fr) {
  int d = fr->s == 2 ? 2 : fr->s <= 4 ? 1 : 0;
  return d && sqz__ipow((uint64_t)fr->k, d) <= 16 ? d : 0;
}

void sqz__cl_fractal_swar_prelude(const sqz_context *ctx, const sqz_fractal *fr, char *pre, size_t cap, size_t *at) {
  unsigned word = sqz__cl_fractal_swar_word(ctx);
  int d = sqz__swar_blocks(fr);
  *at += (size_t)snprintf(pre + *at, cap - *at, "#define SQZ_SWAR_WORD %u\n", word);
  if (word != 8u || !d) return;
  uint32_t kk = (uint32_t)sqz__ipow((uint64_t)fr->k, d), in[16], out[16] = {0};
  for (int r = 0; r < 16; r++) in[r] = 16; /* no cell: byte 0 of the zero vector */
  for (uint32_t q = 0; q < kk; q++) { /* cell q of a block (its d lowest digits) at block position r */
    sqz_u32 x, y;
    sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, (sqz_u32)d, q, &x, &y);
    in[y * 4 + x] = q;
    out[q] = y * 4 + x;
  }
  *at += (size_t)snprintf(pre + *at, cap - *at,
                          "#define SQZ_FR_BLOCK_KK %uu\n#define SQZ_FR_BLOCK_ROWS %uu\n#define SQZ_FR_BLOCK_R0 %uu\n", kk,
                          (unsigned)sqz__ipow((uint64_t)fr->s, d), out[0]);
  for (int io = 0; io < 2; io++) {
    const uint32_t *v = io ? out : in;
    *at += (size_t)snprintf(pre + *at, cap - *at, "#define SQZ_FR_BLOCK_%s ", io ? "OUT" : "IN");
    for (int i = 0; i < 16; i++) *at += (size_t)snprintf(pre + *at, cap - *at, "%u%s", v[i], i < 15 ? "," : "\n");
  }
}

/* Ascending uint32_t. */
static int sqz__swar_u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* CPU devices' block moves (rowmajor 2): the first cell of each block that moves as one 16-byte
 * load (its 16 bytes inside the tile: the first (te - 16) / kk + 1 blocks), in the cache's row-major
 * order (ushort), appended to the table after the chunks. Row-major, a block's 4-byte cache rows
 * may write past its s columns into the block on its right (3 x 3 blocks), which comes later. */
static int sqz__swar_block_order(sqz__swar_shape *sh, uint32_t kk) {
  uint32_t n = sh->te < 16 ? 0 : (sh->te - 16) / kk + 1, *key = sqz__malloc(((size_t)n + 1) * sizeof *key);
  uint32_t *tab = key ? realloc(sh->tab, ((size_t)sh->words + (n + 1) / 2) * sizeof *tab) : NULL;
  if (!tab) {
    free(key);
    return SQZ_ERR_OUT_OF_MEMORY;
  }
  sh->tab = tab;
  const uint16_t *pos = (const uint16_t *)tab;
  for (uint32_t g = 0; g < n; g++) key[g] = (uint32_t)pos[g * kk] << 16 | g * kk; /* by its first cell's position */
  qsort(key, n, sizeof *key, sqz__swar_u32_cmp);
  uint16_t *order = (uint16_t *)(tab + sh->words);
  for (uint32_t g = 0; g < n; g++) order[g] = (uint16_t)(key[g] & 0xffffu);
  free(key);
  sh->words += (n + 1) / 2;
  return SQZ_OK;
}

const char *sqz__cl_fractal_swar_why_not(const sqz_field *f, const sqz_update *u) {
  const char *why = sqz__cl_swar_why_not(f, u);
  if (why) return why;
  if (f->layout != SQZ_LAYOUT_COMPACT && f->layout != SQZ_LAYOUT_BLOCK) return "the word steps take layouts compact and block";
  return strcmp(f->map, "group") == 0 ? "map group (the word steps find a tile's neighbours by digit loops)" : NULL;
}

int sqz__cl_fractal_swar_applies(const sqz_field *f, const sqz_update *u) { return sqz__cl_fractal_swar_why_not(f, u) == NULL; }

/* The tile level (block:RHO's, the compact launch block when set, else any whose tile fits in
 * local memory) and task height (4, 8 or 16 rows), the cheapest by sqz__swar_cost.
 * SQZ_ERR_UNSUPPORTED when no level fits. */
static int sqz__swar_pick(const sqz_field *f, uint64_t lmem, uint32_t wide, sqz__swar_shape *best) {
  sqz_fractal_tiling t;
  int st = sqz__fractal_tiling(f, &t), fixed = f->layout == SQZ_LAYOUT_BLOCK || f->block;
  if (st != SQZ_OK) return st;
  double best_cost = 0;
  memset(best, 0, sizeof *best);
  for (uint32_t i = 0, j0 = fixed ? t.j : 0; i < 3 * ((fixed ? t.j : (uint32_t)f->dom->fr.r) - j0 + 1); i++) {
    uint32_t j = j0 + i / 3, seg = 4u << (i % 3);
    sqz__swar_shape sh;
    st = sqz__swar_shape_build(f, j, seg, wide, &sh);
    if (st == SQZ_ERR_UNSUPPORTED) break; /* larger levels are larger still */
    if (st != SQZ_OK) return sqz__fail(f->ctx, st, "out of host memory");
    double cost = sqz__swar_cost(f, &sh);
    if (sh.tile_bytes <= lmem && (!best->tab || cost < best_cost)) {
      free(best->tab);
      *best = sh;
      best_cost = cost;
    } else {
      free(sh.tab);
    }
  }
  return best->tab ? SQZ_OK : SQZ_ERR_UNSUPPORTED;
}

/* The local arguments of engine_fractal_swar (after its 24 value arguments) and engine_fractal_swar_t (26). */
enum { SW_CACHE = 24, SW_NBR, SW_T_CACHE = 26, SW_T_NBR };

unsigned sqz__cl_fractal_swar_depth(const sqz_field *f, uint64_t steps, int forced) {
  unsigned def = f->ctx->is_gpu || forced ? SQZ__SWAR_DEPTH_GPU : 1u;
  unsigned long v = sqz__opt_num(NULL, f, SQZ_OPT_TEMPORAL, def) < 4u ? sqz__opt_num(NULL, f, SQZ_OPT_TEMPORAL, def) : 4u; /* at most 4 here */
  if (forced) return (unsigned)v;
  return steps < 2 ? 1u : (unsigned)(v < steps ? v : steps);
}

/* The shape of the one-step kernel, or at depth > 1 of the temporal kernel: the largest level up to the
 * one-step kernel's whose deeper tile fits (SQZ_ERR_UNSUPPORTED, nothing recorded, when none does). */
static int sqz__swar_plan_shape(sqz_field *f, unsigned depth, uint64_t lmem, int cpu_shape, sqz__swar_shape *sh) {
  uint64_t slack = cpu_shape ? SQZ__SWAR_CPU_SLACK : 0u; /* after its cache */
  int st = sqz__swar_pick(f, lmem > slack ? lmem - slack : 0u, !cpu_shape, sh);
  if (st != SQZ_OK || depth < 2) return st;
  uint32_t j = sh->j, lowest = f->layout == SQZ_LAYOUT_BLOCK || f->block || f->part ? j : 1; /* parts: the unit's level */
  free(sh->tab);
  sh->tab = NULL;
  for (st = SQZ_ERR_UNSUPPORTED; st == SQZ_ERR_UNSUPPORTED && j >= lowest && j > 0; j--) {
    st = sqz__swar_shape_deep(f, j, depth, sh);
    if (st == SQZ_OK && sh->tile_bytes > lmem) {
      free(sh->tab);
      sh->tab = NULL;
      st = SQZ_ERR_UNSUPPORTED;
    }
  }
  if (st != SQZ_OK) sh->tab = NULL; /* freed by the shape that failed, if it made one */
  return st == SQZ_ERR_OUT_OF_MEMORY ? sqz__fail(f->ctx, st, "out of host memory") : st;
}

/* CPU devices' one-step kernel: the chunk table, the slack after the cache and the block order. */
static int sqz__swar_plan_cpu(sqz_field *f, sqz__swar_shape *sh) {
  if (sqz__swar_chunks(f, sh) != SQZ_OK) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  sh->tile_bytes += SQZ__SWAR_CPU_SLACK; /* its one tile cache and the slack after it (cl/engine_fractal_swar.cl, FR_CPU_SLACK) */
  int d = sqz__swar_blocks(&f->dom->fr);
  if (f->layout != SQZ_LAYOUT_COMPACT || !d || sh->j < (uint32_t)d) return SQZ_OK;
  sh->rowmajor = 2; /* blocks */
  if (sqz__swar_block_order(sh, (uint32_t)sqz__ipow((uint64_t)f->dom->fr.k, d)) != SQZ_OK)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  return SQZ_OK;
}

int sqz__cl_fractal_swar_plan(sqz_field *f, unsigned depth, sqz_path_plan *plan) {
  sqz_context *ctx = f->ctx;
  uint64_t lmem = ctx->local_mem < SQZ__SWAR_LMEM ? ctx->local_mem : SQZ__SWAR_LMEM;
  int cpu_shape = sqz__cl_fractal_swar_word(ctx) == 8u && depth == 1; /* see SQZ__SWAR_CPU_GROUPS_PER_CU */
  sqz__swar_shape *sh = sqz__calloc(1, sizeof *sh);
  if (!sh) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  int st = sqz__swar_plan_shape(f, depth, lmem, cpu_shape, sh);
  if (st == SQZ_OK && cpu_shape) st = sqz__swar_plan_cpu(f, sh);
  plan->data = sh;
  plan->depth = depth;
  return st;
}

void sqz__cl_fractal_swar_drop(sqz_path_plan *plan) {
  sqz__swar_shape *sh = plan->data;
  if (sh) free(sh->tab);
  free(sh);
}

int sqz__cl_fractal_swar(sqz_field *f, const sqz_update *u, cl_kernel k, const sqz_path_plan *plan, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  uint64_t lmem = ctx->local_mem < SQZ__SWAR_LMEM ? ctx->local_mem : SQZ__SWAR_LMEM;
  const sqz__swar_shape *shape = plan->data, sh = *shape;
  unsigned depth = plan->depth;
  int cpu_shape = sqz__cl_fractal_swar_word(ctx) == 8u && depth == 1, st = SQZ_OK;
  cl_mem tab = NULL;
  size_t local = SQZ__SWAR_GROUP;
  if (clGetKernelWorkGroupInfo(k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof local, &local, NULL) !=
      CL_SUCCESS)
    local = 64;
  if (local > SQZ__SWAR_GROUP) local = SQZ__SWAR_GROUP;
  if (cpu_shape) local = 1;
  /* tiles per iteration: about SQZ__SWAR_ITER_CELLS cells, within half the local memory where possible */
  uint64_t per = (SQZ__SWAR_ITER_CELLS + sh.te - 1) / sh.te, fit = lmem / 2 / sh.tile_bytes;
  if (per > fit) per = fit;
  if (per < 1) per = 1;
  /* and per d^2 < 2^32 for the kernels' divisors d (fr_swar_magic: exact below per d^2; every d < 2^16) */
  uint64_t dmax = sh.te > sh.n_halo ? sh.te : sh.n_halo;
  if (sh.n_tasks > dmax) dmax = sh.n_tasks;
  if (per > 0xffffffffu / dmax / dmax) per = 0xffffffffu / dmax / dmax;
  const sqz_field_part *pt = f->part; /* a part's own tiles (its tile level is the unit's: sqz__swar_pick) */
  uint64_t first64, end64, n_runs;
  const uint64_t *runs;
  cl_mem phalo = pt ? (cl_mem)pt->halo_dev : NULL, pruns = NULL;
  sqz__step_units(f, sh.tiles, &first64, &end64, &n_runs, &runs, (sqz_mem *)&pruns); /* launch positions */
  cl_ulong first = first64, end = end64, pu0 = pt ? pt->u0 : 0, pu1 = pt ? pt->u1 : sh.tiles, pnh = pt ? pt->n_halo : 0;
  cl_ulong prn = n_runs;
  if (per > end - first) per = end - first;
  uint64_t groups = (end - first + per - 1) / per, cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * SQZ__SWAR_GROUPS_PER_CU;
  if (cpu_shape) cap = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * SQZ__SWAR_CPU_GROUPS_PER_CU;
  if (groups > cap) groups = cap;
  if (st == SQZ_OK) st = sqz__const_buffer(ctx, (uint64_t)sh.words * sizeof *sh.tab, sh.tab, &tab);
  cl_uint rule = u->birth | u->survive << 9, levels = (cl_uint)f->dom->fr.r - sh.j, per_iter = (cl_uint)per;
  size_t global = (size_t)groups * local;
  for (uint64_t done = 0; st == SQZ_OK && done < steps;) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    cl_uint now = depth > 1 && steps - done < depth ? (cl_uint)(steps - done) : depth;
    if (depth > 1)
      st = sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof rule, &rule, sizeof tab, &tab, sizeof sh.halo_at,
                     &sh.halo_at, sizeof sh.bm_at, &sh.bm_at, sizeof sh.mask_at, &sh.mask_at, sizeof sh.task_at,
                     &sh.task_at, sizeof sh.n_tasks, &sh.n_tasks, sizeof sh.rowmajor,
                     &sh.rowmajor, sizeof levels, &levels, sizeof sh.te, &sh.te, sizeof sh.n_halo, &sh.n_halo,
                     sizeof sh.rho, &sh.rho, sizeof sh.wrow, &sh.wrow, sizeof sh.depth, &sh.depth, sizeof now, &now,
                     sizeof per_iter, &per_iter, sizeof end, &end, sizeof first, &first, sizeof pu0, &pu0,
                     sizeof pu1, &pu1, sizeof pnh, &pnh, sizeof phalo, &phalo, sizeof prn, &prn, sizeof pruns, &pruns,
                     (size_t)0);
    else
      st = sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof rule, &rule, sizeof tab, &tab, sizeof sh.halo_at,
                     &sh.halo_at, sizeof sh.task_at, &sh.task_at, sizeof sh.mask_at, &sh.mask_at, sizeof sh.rowmajor,
                     &sh.rowmajor, sizeof levels, &levels, sizeof sh.te, &sh.te,
                     sizeof sh.n_halo, &sh.n_halo, sizeof sh.n_tasks, &sh.n_tasks, sizeof sh.rho, &sh.rho,
                     sizeof sh.wrow, &sh.wrow, sizeof sh.seg, &sh.seg, sizeof per_iter, &per_iter, sizeof end, &end,
                     sizeof first, &first, sizeof pu0, &pu0, sizeof pu1, &pu1, sizeof pnh, &pnh, sizeof phalo, &phalo,
                     sizeof prn, &prn, sizeof pruns, &pruns, (size_t)0);
    if (st == SQZ_OK &&
        (clSetKernelArg(k, depth > 1 ? SW_T_CACHE : SW_CACHE, (size_t)((sh.tile_bytes - 9 * sizeof(cl_long)) * per),
                        NULL) != CL_SUCCESS ||
         clSetKernelArg(k, depth > 1 ? SW_T_NBR : SW_NBR, 9 * sizeof(cl_long) * (size_t)per, NULL) != CL_SUCCESS))
      st = sqz__fail(ctx, SQZ_ERR_INTERNAL, "setting the local arguments of the fractal Life step failed");
    if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
    if (st == SQZ_OK) {
      f->cur = 1 - f->cur;
      done += now;
    }
  }
  int fin = sqz__cl_done_with(ctx, tab, NULL); /* it must outlive the launches that read it */
  if (st == SQZ_OK) st = fin;
  if (k) clReleaseKernel(k);
  return st;
}
