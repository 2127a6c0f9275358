/* field_parts.c — fields in parts: the unit of a layout, part ranges and halos in units, part buffers, and the step (exchange, then every part); the exchanges themselves: parts_xchg.c. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"
#include "sqz_bits.h"

uint64_t sqz__parts_alloc_limit(const sqz_context *ctx) {
  uint64_t lim = sqz__opt_num(ctx, NULL, SQZ_OPT_MAX_ALLOC, 0);
  return lim > 0 && lim < ctx->max_alloc ? lim : ctx->max_alloc;
}

/* 1 when f's layout parts by tiles of a fractal (of any level or of a fixed one). */
static int sqz__parts_by_tiles(const sqz_field *f) {
  unsigned parts = sqz__layout_on(f)->parts;
  return parts == SQZ_PARTS_DIGITS || parts == SQZ_PARTS_TILES;
}

int sqz__parts_unit(const sqz_field *f, uint64_t *unit, uint64_t *unit_cells, uint32_t *jt) {
  const sqz_layout_on *on = sqz__layout_on(f);
  *unit = *unit_cells = 1;
  *jt = 0;
  switch (on->parts) {
  case SQZ_PARTS_DIGITS:
  case SQZ_PARTS_TILES: return on->storage->tiles(f, unit, unit_cells, jt); /* a tile */
  case SQZ_PARTS_CELLS: return SQZ_OK;                                      /* a cell */
  case SQZ_PARTS_BANDS: /* an element (bit cells: a word), parts of whole rows */
    *unit = sqz__layout_of(f)->bit_cells ? SQZ_BITS_W : 1;
    return SQZ_OK;
  }
  return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED,
                   "%s in layout %s cannot be stored in parts: the layouts that part are compact, block:RHO, bits, bb "
                   "and lambda on fractals and compact, bb and bits on triangles and tetrahedra",
                   f->dom->spec, f->layout_str);
}

uint64_t sqz__parts_max(const sqz_field *f) {
  const sqz_layout_on *on = sqz__layout_on(f);
  uint64_t most = f->dom->cells; /* cells, and tiles of any level: units shrink down to one cell */
  if (on->parts == SQZ_PARTS_TILES) most = on->storage->tile_count(f); /* a tile per part at most */
  if (on->parts == SQZ_PARTS_BANDS) most = sqz__bands_rows(f);         /* a row (plane) per part at most */
  return most < SQZ_PARTS_MAX ? most : SQZ_PARTS_MAX;
}

uint64_t sqz__parts_owner_of(const sqz_field_split *fp, uint64_t g) {
  uint64_t lo = 0, hi = fp->parts - 1; /* the last p with u0 <= g */
  while (lo < hi) {
    uint64_t mid = (lo + hi + 1) / 2;
    if (fp->part[mid].u0 <= g) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

uint64_t sqz__parts_halo_bytes(const sqz_field *f) {
  const sqz_field_split *fp = f->parts;
  uint64_t n = 0;
  for (uint64_t p = 0; fp && p < fp->parts; p++) n += fp->part[p].n_halo;
  return fp ? sqz__elems_bytes(f, n * fp->unit) : 0;
}

void sqz__part_view(sqz_field *f, uint64_t p, sqz_field *view) {
  const sqz_field_part *pt = &f->parts->part[p];
  *view = *f;
  view->ctx = pt->ctx;
  view->mem[0] = pt->mem[0];
  view->mem[1] = pt->mem[1];
  view->parts = NULL;
  view->part = pt;
  view->units = NULL;
}

/* Bytes of one buffer of part pt. */
static uint64_t sqz__part_bytes(const sqz_field *f, const sqz_field_split *fp, const sqz_field_part *pt) {
  return sqz__elems_bytes(f, (pt->u1 - pt->u0 + pt->n_halo) * fp->unit);
}

/* The units of part p's halo: the cell halo of the plan in units (sorted, unique; fractal tiles
 * listed as tiles, O(edge tiles)), or with steps per exchange (tiles) that of the plan one tile
 * per cell, their owners, and the runs of consecutive units of one owner. */
static int sqz__part_halo(sqz_field *f, sqz_field_split *fp, const sqz_parts_plan *tiles, uint64_t p) {
  sqz_field_part *pt = &fp->part[p];
  sqz_halo h;
  uint64_t per = tiles || fp->unit_cells > 1 ? 1 : fp->unit_cells; /* cells per unit in the listed indices */
  int st = tiles ? sqz__parts_halo(tiles, p, &h) /* tiles as cells */
           : fp->unit_cells > 1 ? sqz__parts_halo_tiles(fp->plan, p, (int)fp->jt, &h) /* fractal tiles, not listing cells */
                                : sqz__parts_halo(fp->plan, p, &h);
  if (st != SQZ_OK) return st;
  pt->halo = sqz__malloc((h.n ? h.n : 1) * sizeof *pt->halo);
  pt->owner = sqz__malloc((h.n ? h.n : 1) * sizeof *pt->owner);
  pt->runs = sqz__malloc((h.n ? h.n : 1) * sizeof *pt->runs);
  if (!pt->halo || !pt->owner || !pt->runs) {
    sqz__halo_free(&h);
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the halo of part %llu (%llu cells)", (unsigned long long)p,
                     (unsigned long long)h.n);
  }
  for (uint64_t i = 0; i < h.n; i++) {
    uint64_t g = h.index[i] / per;
    if (pt->n_halo && pt->halo[pt->n_halo - 1] == g) continue;
    pt->halo[pt->n_halo] = g;
    pt->owner[pt->n_halo++] = h.owner[i];
  }
  sqz__halo_free(&h);
  for (uint64_t i = 0; i < pt->n_halo; i++) {
    sqz_halo_run *r = pt->n_runs ? &pt->runs[pt->n_runs - 1] : NULL;
    if (r && r->owner == pt->owner[i] && r->g0 + r->n == pt->halo[i]) r->n++;
    else pt->runs[pt->n_runs++] = (sqz_halo_run){pt->halo[i], 1, pt->u1 - pt->u0 + i, pt->owner[i]};
  }
  return SQZ_OK;
}

/* Steps per exchange when SQZ_EXCHANGE_STEPS is not set: 4 on a GPU in one process, as one buffer
 * steps 4 a launch there (on the H200, R = 21 block:32 in 2 parts: 1.71e11 cells/s against 0.99e11
 * at 1, the rate of R = 20 in one buffer; BENCHMARKS run 9), and for layout bits on every device in
 * one process, whose box step takes 4 a launch everywhere (PoCL here, sierpinski-triangle:16 bits,
 * 40 steps in 4 parts: 1.6 s at T = 4 as in one buffer, 4.0 s at T = 1); 1 on CPU devices, where
 * the temporal word kernel does not pay, and on MPI ranks, whose halos must agree while their
 * devices may differ. */
static uint32_t sqz__parts_default_depth(const sqz_field *f, const sqz_exchange_ops *xchg) {
  int one_process = !xchg || xchg == &sqz__exchange_device || xchg == &sqz__exchange_host;
  return one_process && (f->ctx->is_gpu || sqz__layout_fast(f, SQZ_FAST_BOXES)) ? 4u : 1u;
}

/* Unit ranges and halos of `parts` parts of f (no buffers, no contexts) into a new fp, for
 * `depth` steps per exchange where f's layout allows it (SQZ_EXCHANGE_STEPS=T overrides); lists 0:
 * the sizes only where that is cheaper (bands: n_halo and runs, no halo arrays). */
static int sqz__parts_layout(sqz_field *f, uint64_t parts, uint32_t depth, int lists, sqz_field_split **out) {
  *out = NULL;
  uint64_t most = sqz__parts_max(f), unit, unit_cells;
  uint32_t jt;
  int st = sqz__parts_unit(f, &unit, &unit_cells, &jt); /* the layout parts at all */
  if (st != SQZ_OK) return st;
  if (parts == 0 || parts > most)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "%llu parts of %s in layout %s: the count must be 1 .. %llu (the largest valid count: %s)",
                     (unsigned long long)parts, f->dom->spec, f->layout_str, (unsigned long long)most,
                     most == SQZ_PARTS_MAX ? "the most parts sqz plans"
                     : sqz__bands_layout(f) ? (f->dom->dims == 3 ? "one plane per part" : "one row per part")
                     : sqz__layout_on(f)->parts == SQZ_PARTS_TILES ? "one tile per part"
                                                                   : "one cell per part");
  sqz_field_split *fp = sqz__calloc(1, sizeof *fp);
  if (!fp) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  fp->unit = unit;
  fp->unit_cells = unit_cells;
  fp->jt = jt;
  fp->parts = parts;
  fp->units = f->elems / fp->unit;
  fp->depth = 1;
  if (sqz__bands_layout(f)) { /* bands of rows: no cell plan */
    *out = fp;
    if (!(fp->part = sqz__calloc((size_t)parts, sizeof *fp->part)))
      return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the table of %llu parts", (unsigned long long)parts);
    return sqz__bands_split(f, fp, lists);
  }
  int max_level = 0;
  if (st == SQZ_OK && f->dom->kind == SQZ_DOMAIN_FRACTAL) {
    const sqz_fractal *fr = &f->dom->fr;
    if (sqz__layout_on(f)->parts == SQZ_PARTS_DIGITS) { /* finer tiles until there is a tile per part */
      while (fp->jt > 0 && sqz__ipow((uint64_t)fr->k, fr->r - (int)fp->jt) < parts) fp->jt--;
      fp->unit = fp->unit_cells = sqz__ipow((uint64_t)fr->k, (int)fp->jt);
    }
    max_level = fr->r - (int)fp->jt; /* part boundaries on whole tiles */
  }
  fp->parts = parts;
  fp->units = f->elems / fp->unit;
  if (st == SQZ_OK) st = sqz__parts_plan_level(f->dom, parts, max_level, &fp->plan);
  if (st == SQZ_OK && !(fp->part = sqz__calloc((size_t)parts, sizeof *fp->part)))
    st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the table of %llu parts", (unsigned long long)parts);
  for (uint64_t p = 0; st == SQZ_OK && p < parts; p++) {
    fp->part[p].u0 = fp->plan->start[p] / fp->unit_cells;
    fp->part[p].u1 = fp->plan->start[p + 1] / fp->unit_cells;
    fp->part[p].unit = fp->unit;
  }
  sqz_domain coarse; /* the fractal one tile per cell (T > 1): borrowed by its plan while the halos are made */
  sqz_parts_plan *tiles = NULL;
  fp->depth = 1;
  uint64_t want = sqz__opt_num(f->ctx, NULL, SQZ_OPT_EXCHANGE_STEPS, depth);
  if (st == SQZ_OK && want >= 2 && want <= 4 && sqz__parts_by_tiles(f) &&
      sqz__ipow((uint64_t)f->dom->fr.s, (int)fp->jt) >= want) {
    coarse = *f->dom;
    coarse.fr.r = f->dom->fr.r - (int)fp->jt;
    coarse.side = sqz__ipow((uint64_t)coarse.fr.s, coarse.fr.r);
    coarse.cells = sqz__ipow((uint64_t)coarse.fr.k, coarse.fr.r);
    st = sqz__parts_plan_level(&coarse, parts, max_level, &tiles);
    int same = st == SQZ_OK; /* the same replica split (the level depends on k, the count and max_level only) */
    for (uint64_t p = 0; same && p <= parts; p++) same = tiles->start[p] * fp->unit_cells == fp->plan->start[p];
    if (same) fp->depth = (uint32_t)want;
    if (!same) { /* not expected; steps one at a time then */
      sqz__parts_plan_free(tiles);
      tiles = NULL;
    }
  }
  for (uint64_t p = 0; st == SQZ_OK && p < parts; p++) st = sqz__part_halo(f, fp, tiles, p);
  sqz__parts_plan_free(tiles);
  *out = fp;
  return st;
}

static void sqz__parts_release(sqz_field_split *fp) {
  if (!fp) return;
  if (fp->xchg && fp->xchg->release) fp->xchg->release(fp);
  for (uint64_t p = 0; fp->part && p < fp->parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    if (pt->ctx) {
      sqz__lock(pt->ctx);
      for (int i = 0; i < 2; i++) pt->ctx->ops->free(pt->ctx, pt->mem[i]);
      pt->ctx->ops->free(pt->ctx, pt->halo_dev);
      pt->ctx->ops->free(pt->ctx, pt->inner.dev);
      pt->ctx->ops->free(pt->ctx, pt->border.dev);
      sqz__unlock(pt->ctx);
      sqz_context_release(pt->ctx);
    }
    free(pt->halo);
    free(pt->owner);
    free(pt->runs);
    free(pt->inner.runs);
    free(pt->border.runs);
  }
  free(fp->part);
  free(fp->ctxs);
  sqz__parts_plan_free(fp->plan);
  free(fp);
}

void sqz__field_parts_free(sqz_field *f) {
  sqz__parts_release(f->parts);
  f->parts = NULL;
}

int sqz__parts_sizes(sqz_field *f, uint64_t parts, uint32_t depth, uint64_t *largest, uint64_t *halo) {
  sqz_field_split *fp = NULL;
  int st = sqz__parts_layout(f, parts, depth, 0, &fp);
  *largest = *halo = 0;
  for (uint64_t q = 0; st == SQZ_OK && q < parts; q++) {
    uint64_t b = sqz__part_bytes(f, fp, &fp->part[q]);
    *largest = b > *largest ? b : *largest;
    *halo += sqz__elems_bytes(f, fp->part[q].n_halo * fp->unit);
  }
  sqz__parts_release(fp);
  return st;
}

int sqz__parts_auto(sqz_field *f, uint64_t max_alloc, uint64_t *parts, uint64_t *halo_bytes) {
  uint64_t bytes = sqz__elems_bytes(f, f->elems), most = sqz__parts_max(f);
  uint64_t p = max_alloc ? (bytes + max_alloc - 1) / max_alloc : most + 1;
  for (p = p ? p : 1; p <= most; p += (p + 15) / 16) { /* halos grow a part past elems / P: try more */
    uint64_t largest = 0, halo = 0;
    int st = sqz__parts_sizes(f, p, sqz__parts_default_depth(f, NULL), &largest, &halo);
    if (st != SQZ_OK) return st;
    if (largest <= max_alloc) {
      *parts = p;
      if (halo_bytes) *halo_bytes = halo;
      return SQZ_OK;
    }
  }
  return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE,
                   "%s in layout %s: no part count up to %llu keeps a part buffer within %s's %llu-byte allocation limit",
                   f->dom->spec, f->layout_str, (unsigned long long)most, f->ctx->device_name,
                   (unsigned long long)max_alloc);
}

/* Adds ctx to fp's distinct contexts (f->ctx is the first). */
static void sqz__parts_add_ctx(sqz_field_split *fp, sqz_context *ctx) {
  for (size_t i = 0; i < fp->n_ctx; i++)
    if (fp->ctxs[i] == ctx) return;
  fp->ctxs[fp->n_ctx++] = ctx;
}

/* Appends unit g to set u (runs growing in place; room for every own unit's run and the sentinel). */
static void sqz__set_add(sqz_unit_set *u, uint64_t g) {
  uint64_t *r = u->runs;
  if (!(u->n_runs && r[2 * (u->n_runs - 1)] + (u->n - r[2 * u->n_runs - 1]) == g)) {
    r[2 * u->n_runs] = g;
    r[2 * u->n_runs++ + 1] = u->n;
  }
  u->n++;
}

/* The runs of set u on ctx (replacing its device copy). */
static int sqz__set_upload(sqz_context *ctx, sqz_unit_set *u) {
  ctx->ops->free(ctx, u->dev);
  u->dev = NULL;
  if (!u->n) return SQZ_OK;
  uint64_t bytes = 2 * (u->n_runs + 1) * sizeof *u->runs;
  int st = ctx->ops->alloc(ctx, bytes, &u->dev);
  if (st == SQZ_OK) st = ctx->ops->upload(ctx, u->dev, 0, u->runs, bytes);
  return st;
}

int sqz__part_split(sqz_field *f, uint64_t p, const uint64_t *border, uint64_t n) {
  sqz_field_part *pt = &f->parts->part[p];
  uint64_t own = pt->u1 - pt->u0, cap = 2 * ((n < own - n ? n : own - n) + 2);
  sqz_unit_set *in = &pt->inner, *bd = &pt->border;
  free(in->runs);
  free(bd->runs);
  in->n = in->n_runs = bd->n = bd->n_runs = 0;
  in->runs = sqz__malloc((size_t)cap * sizeof *in->runs);
  bd->runs = sqz__malloc((size_t)cap * sizeof *bd->runs);
  if (!in->runs || !bd->runs)
    return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the inner and border units of part %llu", (unsigned long long)p);
  uint64_t i = 0;
  for (uint64_t g = pt->u0; g < pt->u1; g++) { /* runs: at most min(n, own - n) + 1 of either */
    if (i < n && border[i] == g) {
      sqz__set_add(bd, g);
      i++;
    } else {
      sqz__set_add(in, g);
    }
  }
  in->runs[2 * in->n_runs] = bd->runs[2 * bd->n_runs] = 0; /* the sentinels */
  in->runs[2 * in->n_runs + 1] = in->n;
  bd->runs[2 * bd->n_runs + 1] = bd->n;
  if (!pt->ctx) return SQZ_OK;
  sqz__lock(pt->ctx);
  int st = sqz__set_upload(pt->ctx, in);
  if (st == SQZ_OK) st = sqz__set_upload(pt->ctx, bd);
  if (st == SQZ_OK) st = sqz__finish(pt->ctx);
  if (st != SQZ_OK && pt->ctx != f->ctx) st = sqz__fail(f->ctx, st, "part %llu on %s: %s", (unsigned long long)p,
                                                        pt->ctx->device_name, sqz_last_error(pt->ctx));
  sqz__unlock(pt->ctx);
  return st;
}

/* The split of every part held here: its border units are the units of it that other parts'
 * halos hold (a Moore neighbourhood is symmetric: a cell that reads another part's cell is read
 * by it), sorted and unique. Bands: only the parts next to it hold any. */
static int sqz__parts_split(sqz_field *f, sqz_field_split *fp) {
  int st = SQZ_OK;
  uint64_t *list = NULL, cap = 0;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    if (!fp->part[p].ctx) continue;
    uint64_t n = 0, band = sqz__bands_layout(f);
    for (uint64_t q = band && p ? p - 1 : 0; st == SQZ_OK && q < (band ? p + 2 : fp->parts) && q < fp->parts; q++) {
      const sqz_field_part *o = &fp->part[q];
      for (uint64_t i = 0; st == SQZ_OK && q != p && i < o->n_halo; i++) {
        if (o->owner[i] != p) continue;
        if (n == cap) {
          uint64_t *grown = sqz__realloc(list, (size_t)(cap = cap ? 2 * cap : 256) * sizeof *list);
          if (!grown) st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the border units of part %llu", (unsigned long long)p);
          else list = grown;
        }
        if (st == SQZ_OK) list[n++] = o->halo[i];
      }
    }
    if (st != SQZ_OK) break;
    if (n > 1) qsort(list, (size_t)n, sizeof *list, sqz__u64_cmp); /* list is NULL while n is 0 */
    uint64_t m = 0;
    for (uint64_t i = 0; i < n; i++)
      if (m == 0 || list[m - 1] != list[i]) list[m++] = list[i];
    st = sqz__part_split(f, p, list, m);
  }
  free(list);
  return st;
}

/* Buffer 0 and the device copy of the halo of every part held here, after the memory checks: each
 * buffer within its device's allocation limit, the pairs of each device within its memory. */
static int sqz__parts_alloc(sqz_field *f, sqz_field_split *fp) {
  for (size_t c = 0; c < fp->n_ctx; c++) {
    sqz_context *ctx = fp->ctxs[c];
    uint64_t total = 0;
    for (uint64_t p = 0; p < fp->parts; p++) {
      sqz_field_part *pt = &fp->part[p];
      uint64_t b = sqz__part_bytes(f, fp, pt);
      if (pt->ctx != ctx) continue;
      if (b > sqz__parts_alloc_limit(ctx))
        return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE,
                         "%s in layout %s: part %llu needs a buffer of %llu bytes but %s allocates at most %llu (more "
                         "parts: --parts)",
                         f->dom->spec, f->layout_str, (unsigned long long)p, (unsigned long long)b, ctx->device_name,
                         (unsigned long long)sqz__parts_alloc_limit(ctx));
      total += 2 * b + pt->n_halo * 8;
    }
    if (total > ctx->global_mem)
      return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s in layout %s needs %llu bytes on %s (two state buffers per part) but it has %llu bytes",
                       f->dom->spec, f->layout_str, (unsigned long long)total, ctx->device_name,
                       (unsigned long long)ctx->global_mem);
  }
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx) continue;
    sqz__lock(pt->ctx);
    st = pt->ctx->ops->alloc(pt->ctx, sqz__part_bytes(f, fp, pt), &pt->mem[0]);
    if (st == SQZ_OK && pt->n_halo) st = pt->ctx->ops->alloc(pt->ctx, pt->n_halo * 8, &pt->halo_dev);
    if (st == SQZ_OK && pt->n_halo) st = pt->ctx->ops->upload(pt->ctx, pt->halo_dev, 0, pt->halo, pt->n_halo * 8);
    if (st == SQZ_OK) st = sqz__finish(pt->ctx);
    if (st != SQZ_OK && pt->ctx != f->ctx) st = sqz__fail(f->ctx, st, "part %llu on %s: %s", (unsigned long long)p,
                                                          pt->ctx->device_name, sqz_last_error(pt->ctx));
    sqz__unlock(pt->ctx);
  }
  return st;
}

int sqz__field_parts_build(sqz_field *f, uint64_t parts, sqz_context *const *ctxs, size_t n_ctx,
                           const sqz_exchange_ops *xchg) {
  sqz_field_split *fp = NULL;
  int st = sqz__parts_layout(f, parts, sqz__parts_default_depth(f, xchg), 1, &fp);
  if (st == SQZ_OK && !(fp->ctxs = sqz__calloc(n_ctx + 1, sizeof *fp->ctxs)))
    st = sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  if (st != SQZ_OK) {
    sqz__parts_release(fp);
    return st;
  }
  fp->ctxs[fp->n_ctx++] = f->ctx;
  for (uint64_t p = 0; p < parts; p++) {
    sqz_context *ctx = n_ctx ? ctxs[p * n_ctx / parts] : f->ctx;
    fp->part[p].ctx = ctx;
    if (!ctx) continue;
    sqz_context_retain(ctx);
    sqz__parts_add_ctx(fp, ctx);
  }
  if (!xchg) xchg = fp->n_ctx == 1 ? &sqz__exchange_device : &sqz__exchange_host;
  fp->xchg = xchg;
  if (sqz__layout_on(f)->parts == SQZ_PARTS_DIGITS) /* the engine's tiles are the units */
    f->block = (uint32_t)sqz__ipow((uint64_t)f->dom->fr.s, (int)fp->jt);
  /* one context: the copies and the kernels share one in-order queue, so a split launch would only
   * add a launch per part; several contexts and MPI ranks overlap (the option overlap, 0 or 1, overrides) */
  fp->serial = sqz__opt_text(f->ctx, NULL, SQZ_OPT_OVERLAP) ? !sqz__opt_num(f->ctx, NULL, SQZ_OPT_OVERLAP, 0)
                                                            : xchg == &sqz__exchange_device;
  f->parts = fp;
  st = sqz__parts_alloc(f, fp);
  if (st == SQZ_OK) st = sqz__parts_split(f, fp);
  if (st != SQZ_OK) {
    f->parts = NULL;
    sqz__parts_release(fp);
    return st;
  }
  return SQZ_OK;
}

/* ---- the step -------------------------------------------------------------------------------- */
int sqz__field_parts_pairs(sqz_field *f) {
  sqz_field_split *fp = f->parts;
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx || pt->mem[1]) continue;
    sqz__lock(pt->ctx);
    st = pt->ctx->ops->alloc(pt->ctx, sqz__part_bytes(f, fp, pt), &pt->mem[1]);
    if (st != SQZ_OK && pt->ctx != f->ctx) st = sqz__fail(f->ctx, st, "%s", sqz_last_error(pt->ctx));
    sqz__unlock(pt->ctx);
  }
  return st;
}

/* `k` steps of every part held here over its units `which` (0: all own, 1: inner, 2: border); k > 1:
 * one launch each, or SQZ_ERR_UNSUPPORTED from the first part's engine before anything runs. */
static int sqz__parts_launch(sqz_field *f, const sqz_update *u, int which, uint64_t k, double *secs) {
  static const sqz_enqueue no_wait = {0, NULL, NULL}; /* enqueued, without a wait list or an event */
  sqz_field_split *fp = f->parts;
  double t0 = sqz__now();
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    const sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx) continue;
    sqz_field view;
    sqz__part_view(f, p, &view);
    const sqz_unit_set *set = which == 1 ? &pt->inner : which == 2 ? &pt->border : NULL;
    if (set && set->n == 0) continue;
    view.units = set == &pt->inner && pt->border.n == 0 ? NULL : set; /* every own unit: positions are units */
    sqz__lock(view.ctx);
    /* several devices: each part's step is enqueued on its queue without waiting, so that the
     * devices run side by side (the next exchange's transfers wait for them); one device: its
     * queue serialises the parts anyway */
    st = k > 1 || fp->n_ctx > 1 ? view.ctx->ops->stencil(&view, u, k, fp->n_ctx > 1 ? &no_wait : NULL)
                                : view.ctx->ops->stencil_part(&view, u);
    if (st != SQZ_OK && view.ctx != f->ctx) st = sqz__fail(f->ctx, st, "part %llu: %s", (unsigned long long)p,
                                                           sqz_last_error(view.ctx));
    sqz__unlock(view.ctx);
  }
  *secs += sqz__now() - t0;
  return st;
}

int sqz__field_parts_step(sqz_field *f, const sqz_update *u, uint64_t steps) {
  sqz_field_split *fp = f->parts;
  sqz_parts_clock *c = &fp->clock;
  int st = sqz__field_parts_pairs(f), first = 1;
  uint64_t depth = fp->depth;
  for (uint64_t s = 0; st == SQZ_OK && s < steps;) {
    uint64_t k = steps - s < depth ? steps - s : depth;
    double t0 = sqz__now(), t1;
    st = fp->xchg->start(f, f->cur);
    if (fp->serial) { /* the exchange whole, then every own unit */
      if (st == SQZ_OK) st = fp->xchg->complete(f, f->cur, &c->wait_s);
      c->exchange_s += sqz__now() - t0;
      if (st == SQZ_OK) st = sqz__parts_launch(f, u, 0, k, &c->inner_s);
    } else {
      c->exchange_s += sqz__now() - t0;
      if (st == SQZ_OK) st = sqz__parts_launch(f, u, 1, k, &c->inner_s);
      t1 = sqz__now();
      if (st == SQZ_OK || (k > 1 && first && st == SQZ_ERR_UNSUPPORTED)) {
        int cs = fp->xchg->complete(f, f->cur, &c->wait_s); /* started: completed whatever the launch did */
        st = st == SQZ_OK ? cs : st;
      }
      c->exchange_s += sqz__now() - t1;
      if (st == SQZ_OK) st = sqz__parts_launch(f, u, 2, k, &c->border_s);
    }
    if (st == SQZ_ERR_UNSUPPORTED && k > 1 && first) { /* the engine steps one at a time: so do the exchanges */
      depth = 1;
      st = SQZ_OK;
      continue; /* nothing ran: the chunk again, a step at a time (the halo is refreshed again) */
    }
    first = 0;
    if (st == SQZ_OK) {
      f->cur ^= 1;
      c->exchanges++;
      c->steps += k;
      s += k;
    }
  }
  return st;
}
