/* parts_xchg.c — the halo exchanges of a field in parts within one process: device copies on one context, staged through the host across contexts. */
#include <stdlib.h>

#include "core/backend.h"
#include "core/field_parts.h"

/* One context: nothing moves before the inner step; then every run of halo units by the backend's
 * device copy, or the runs of one owner by one gather where they are many (copy_units), ordered on the queue
 * after the inner step and before the border step. */
static int sqz__xchg_none(sqz_field *f, int cur) {
  (void)f;
  (void)cur;
  return SQZ_OK;
}

#define SQZ__XCHG_GATHER_RUNS 4 /* from this many runs of one owner, one gather instead of a copy per run */

/* The end of part pt's group of halo runs from run r: the runs of r's owner (consecutive in the run list). */
static uint64_t sqz__owner_end(const sqz_field_part *pt, uint64_t r) {
  uint64_t e = r + 1;
  while (e < pt->n_runs && pt->runs[e].owner == pt->runs[r].owner) e++;
  return e;
}

/* Part pt's halo runs [r, e) of one owner q: a copy per run, or one gather over their slots (consecutive: the runs
 * follow the halo list, sorted by unit, and q owns one range of units). */
static int sqz__xchg_owner(sqz_field_part *pt, const sqz_field_part *q, uint64_t r, uint64_t e, uint64_t ub, int cur) {
  const sqz_halo_run *a = &pt->runs[r], *b = &pt->runs[e - 1];
  if (e - r >= SQZ__XCHG_GATHER_RUNS && pt->halo_dev)
    return pt->ctx->ops->copy_units(pt->ctx, pt->mem[cur], a->slot0, q->mem[cur], q->u0, pt->halo_dev,
                                    a->slot0 - (pt->u1 - pt->u0), b->slot0 + b->n - a->slot0, ub);
  int st = SQZ_OK;
  for (const sqz_halo_run *run = a; st == SQZ_OK && run <= b; run++)
    st = pt->ctx->ops->copy(pt->ctx, pt->mem[cur], run->slot0 * ub, q->mem[cur], (run->g0 - q->u0) * ub, run->n * ub);
  return st;
}

static int sqz__xchg_device(sqz_field *f, int cur, double *wait_s) {
  (void)wait_s; /* enqueued: nothing to wait for */
  sqz_field_split *fp = f->parts;
  uint64_t ub = sqz__elems_bytes(f, fp->unit);
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    for (uint64_t r = 0, e; st == SQZ_OK && r < pt->n_runs; r = e) {
      e = sqz__owner_end(pt, r);
      st = sqz__xchg_owner(pt, &fp->part[pt->runs[r].owner], r, e, ub, cur);
    }
  }
  return st;
}

typedef struct {
  uint64_t part, run;    /* the group: part `part`'s halo runs from `run` on, of one owner */
  sqz_context *ctx;      /* the owner's context, which holds the two buffers */
  sqz_mem units, packed; /* the group's halo units (global) and their packed copy */
} sqz_host_pack;

/* Any contexts. start: each part's halo runs downloaded from their owners into the part's area of
 * a host staging buffer laid out as its halo slots; complete: each area uploaded in one transfer
 * (ordered after the part's inner step on its queue, before its border step). */
typedef struct {
  unsigned char *stage; /* every part's halo, part after part */
  uint64_t bytes;
  sqz_host_pack *pack; /* the groups of many runs, packed on their owner's device (made at their first exchange) */
  size_t n_pack, cap_pack;
} sqz_host_xchg;

static void sqz__xchg_host_release(sqz_field_split *fp) {
  sqz_host_xchg *h = fp->state;
  for (size_t i = 0; h && i < h->n_pack; i++) {
    if (h->pack[i].units) h->pack[i].ctx->ops->free(h->pack[i].ctx, h->pack[i].units);
    if (h->pack[i].packed) h->pack[i].ctx->ops->free(h->pack[i].ctx, h->pack[i].packed);
  }
  if (h) free(h->stage);
  if (h) free(h->pack);
  free(h);
  fp->state = NULL;
}

/* The pack of part p's group from run r (n units; its halo units from pt->halo + i0), made on q's context the
 * first time. */
static int sqz__xchg_pack(sqz_host_xchg *h, uint64_t p, uint64_t r, const sqz_field_part *pt, const sqz_field_part *q,
                          uint64_t i0, uint64_t n, uint64_t ub, sqz_host_pack **out) {
  for (size_t i = 0; i < h->n_pack; i++)
    if (h->pack[i].part == p && h->pack[i].run == r) return *out = &h->pack[i], SQZ_OK;
  if (h->n_pack == h->cap_pack) {
    size_t cap = h->cap_pack ? 2 * h->cap_pack : 8;
    sqz_host_pack *grown = sqz__realloc(h->pack, cap * sizeof *grown);
    if (!grown) return sqz__fail(q->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
    h->pack = grown;
    h->cap_pack = cap;
  }
  sqz_host_pack *k = &h->pack[h->n_pack++];
  *k = (sqz_host_pack){p, r, q->ctx, NULL, NULL};
  int st = q->ctx->ops->alloc(q->ctx, n * sizeof *pt->halo, &k->units);
  if (st == SQZ_OK) st = q->ctx->ops->upload(q->ctx, k->units, 0, pt->halo + i0, n * sizeof *pt->halo);
  if (st == SQZ_OK) st = q->ctx->ops->alloc(q->ctx, n * ub, &k->packed);
  *out = k;
  return st;
}

/* Part p's halo runs [r, e) of one owner q into its staging area `at`: a download per run, or, from
 * SQZ__XCHG_GATHER_RUNS runs on a device, one gather there (copy_units) and one download. */
static int sqz__xchg_host_owner(sqz_host_xchg *h, uint64_t p, const sqz_field_part *pt, const sqz_field_part *q,
                                uint64_t r, uint64_t e, unsigned char *at, uint64_t ub, int cur) {
  uint64_t own = pt->u1 - pt->u0;
  const sqz_halo_run *a = &pt->runs[r], *b = &pt->runs[e - 1];
  int st = SQZ_OK;
  sqz__lock(q->ctx);
  if (e - r >= SQZ__XCHG_GATHER_RUNS && !q->ctx->ops->host_memory) {
    uint64_t i0 = a->slot0 - own, n = b->slot0 + b->n - a->slot0;
    sqz_host_pack *k = NULL;
    st = sqz__xchg_pack(h, p, r, pt, q, i0, n, ub, &k);
    if (st == SQZ_OK) st = q->ctx->ops->copy_units(q->ctx, k->packed, 0, q->mem[cur], q->u0, k->units, 0, n, ub);
    if (st == SQZ_OK) st = q->ctx->ops->download(q->ctx, at + i0 * ub, k->packed, 0, n * ub);
  } else {
    for (const sqz_halo_run *run = a; st == SQZ_OK && run <= b; run++)
      st = q->ctx->ops->download(q->ctx, at + (run->slot0 - own) * ub, q->mem[cur], (run->g0 - q->u0) * ub, run->n * ub);
  }
  sqz__unlock(q->ctx);
  return st;
}

static int sqz__xchg_host_start(sqz_field *f, int cur) {
  sqz_field_split *fp = f->parts;
  sqz_host_xchg *h = fp->state;
  uint64_t ub = sqz__elems_bytes(f, fp->unit), total = 0;
  for (uint64_t p = 0; p < fp->parts; p++) total += fp->part[p].ctx ? fp->part[p].n_halo * ub : 0;
  if (total == 0) return SQZ_OK;
  if (!h || h->bytes < total) {
    sqz__xchg_host_release(fp);
    h = sqz__calloc(1, sizeof *h);
    int st = h ? sqz__host_alloc(f->ctx, total, 0, (void **)&h->stage, "%s: the host staging area of a halo exchange",
                                 f->dom->spec)
               : sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
    if (st != SQZ_OK) {
      free(h);
      return st;
    }
    h->bytes = total;
    fp->state = h;
  }
  int st = SQZ_OK;
  unsigned char *at = h->stage;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx) continue;
    for (uint64_t r = 0, e; st == SQZ_OK && r < pt->n_runs; r = e) {
      e = sqz__owner_end(pt, r);
      st = sqz__xchg_host_owner(h, p, pt, &fp->part[pt->runs[r].owner], r, e, at, ub, cur);
    }
    at += pt->n_halo * ub;
  }
  for (size_t i = 0; st == SQZ_OK && i < fp->n_ctx; i++) {
    sqz__lock(fp->ctxs[i]);
    st = sqz__finish(fp->ctxs[i]);
    sqz__unlock(fp->ctxs[i]);
  }
  return st;
}

static int sqz__xchg_host_complete(sqz_field *f, int cur, double *wait_s) {
  sqz_field_split *fp = f->parts;
  sqz_host_xchg *h = fp->state;
  uint64_t ub = sqz__elems_bytes(f, fp->unit);
  double t0 = sqz__now();
  int st = SQZ_OK;
  unsigned char *at = h ? h->stage : NULL;
  for (uint64_t p = 0; st == SQZ_OK && h && p < fp->parts; p++) {
    sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx || !pt->n_halo) continue;
    sqz__lock(pt->ctx);
    st = pt->ctx->ops->upload(pt->ctx, pt->mem[cur], (pt->u1 - pt->u0) * ub, at, pt->n_halo * ub);
    sqz__unlock(pt->ctx);
    at += pt->n_halo * ub;
  }
  *wait_s += sqz__now() - t0;
  return st;
}

const sqz_exchange_ops sqz__exchange_device = {"device", sqz__xchg_none, sqz__xchg_device, NULL};
const sqz_exchange_ops sqz__exchange_host = {"host", sqz__xchg_host_start, sqz__xchg_host_complete, sqz__xchg_host_release};
