/* parts_run.c — the host reference run of a field in parts: part buffers (own cells + halo), the halo exchange and the stencil step per part. */
#include <stdlib.h>
#include <string.h>

#include "core/parts.h"

typedef struct {
  uint64_t first, cells; /* own cells: compact indices first .. first + cells - 1, local 0 .. cells - 1 */
  sqz_halo halo;         /* halo cell i at local cells + i */
  unsigned char *buf[2];
  uint64_t active;       /* cells a step may update: own cells and halo cells of depth < width */
  uint64_t interior;     /* the first `interior` active slots: own cells that read no halo cell */
  uint64_t *local;       /* active local slots: interior own cells, the other own cells, then by depth */
  unsigned char *depth;  /* depth of each active slot (0: own) */
  int64_t *nbr;          /* per active slot, nb local slots of its neighbours (-1: absent) */
} sqz_part;

struct sqz_parted {
  sqz_parts_plan *plan;
  unsigned width;
  size_t ts;
  int nb, cur;
  uint64_t p0, p1; /* the parts held here; the others have no buffers (held by other processes) */
  sqz_part *part;
  sqz_parted_xchg xchg;
  void *xchg_user;
};

/* Local slot of compact index g in part q, or -1 when it holds no copy. */
static int64_t sqz__local(const sqz_part *q, uint64_t g) {
  if (g >= q->first && g < q->first + q->cells) return (int64_t)(g - q->first);
  const uint64_t *at = q->halo.n ? bsearch(&g, q->halo.index, (size_t)q->halo.n, sizeof g, sqz__u64_cmp) : NULL;
  return at ? (int64_t)(q->cells + (uint64_t)(at - q->halo.index)) : -1;
}

/* Buffers, the active slots and their neighbour slots of part p. */
static int sqz__part_init(sqz_parted *pf, uint64_t p, const unsigned char *values) {
  const sqz_parts_plan *plan = pf->plan;
  const sqz_domain *dom = plan->dom;
  sqz_part *q = &pf->part[p];
  q->first = plan->start[p];
  q->cells = plan->start[p + 1] - q->first;
  int st = pf->width == 1 ? sqz__parts_halo(plan, p, &q->halo) : sqz__parts_halo_wide(plan, p, pf->width, &q->halo);
  if (st != SQZ_OK) return st;
  uint64_t slots = q->cells + q->halo.n;
  st = sqz__host_check(dom->ctx, slots * sqz__parted_slot_bytes(dom, pf->ts),
                       "part %llu of %s (%llu cells and %llu halo cells)", (unsigned long long)p, dom->spec,
                       (unsigned long long)q->cells, (unsigned long long)q->halo.n);
  if (st != SQZ_OK) return st;
  q->buf[0] = sqz__calloc((size_t)slots, pf->ts);
  q->buf[1] = sqz__calloc((size_t)slots, pf->ts);
  q->local = sqz__malloc((size_t)slots * sizeof *q->local);
  q->depth = sqz__malloc((size_t)slots);
  q->nbr = sqz__malloc((size_t)slots * (size_t)pf->nb * sizeof *q->nbr);
  if (!q->buf[0] || !q->buf[1] || !q->local || !q->depth || !q->nbr)
    return sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "part %llu of %s: %llu cells with their halo",
                     (unsigned long long)p, dom->spec, (unsigned long long)slots);
  if (values) memcpy(q->buf[0], values + (q->first - plan->start[pf->p0]) * pf->ts, (size_t)q->cells * pf->ts);
  q->active = 0;
  /* pass 0: own cells that read no halo cell (stepped while the halo is on its way), pass 1: the
   * other own cells, pass 1 + d: the halo ring of depth d */
  for (unsigned pass = 0; pass <= pf->width; pass++) {
    unsigned dep = pass ? pass - 1 : 0;
    for (uint64_t s = 0; s < (pass < 2 ? q->cells : slots); s++) {
      unsigned d = s < q->cells ? 0 : q->halo.depth[s - q->cells];
      if (d != dep) continue;
      uint64_t g = s < q->cells ? q->first + s : q->halo.index[s - q->cells], idx[26];
      uint32_t present = sqz__parts_neighbours(dom, g, idx);
      int64_t row[26];
      int reads_halo = 0;
      for (int n = 0; n < pf->nb; n++) {
        row[n] = (present >> n) & 1u ? sqz__local(q, idx[n]) : -1;
        if ((present >> n) & 1u && row[n] < 0)
          return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "part %llu: neighbour %llu of cell %llu is not in its halo",
                           (unsigned long long)p, (unsigned long long)idx[n], (unsigned long long)g);
        reads_halo |= row[n] >= (int64_t)q->cells;
      }
      if (pass < 2 && reads_halo != (pass == 1)) continue;
      memcpy(q->nbr + q->active * (uint64_t)pf->nb, row, (size_t)pf->nb * sizeof *row);
      q->local[q->active] = s;
      q->depth[q->active++] = (unsigned char)dep;
    }
    if (pass == 0) q->interior = q->active;
  }
  return SQZ_OK;
}

void sqz__parted_free(sqz_parted *pf) {
  if (!pf) return;
  for (uint64_t p = pf->p0; pf->part && p < pf->p1; p++) {
    sqz_part *q = &pf->part[p];
    sqz__halo_free(&q->halo);
    free(q->buf[0]);
    free(q->buf[1]);
    free(q->local);
    free(q->depth);
    free(q->nbr);
  }
  free(pf->part);
  sqz__parts_plan_free(pf->plan);
  free(pf);
}

uint64_t sqz__parted_slot_bytes(const sqz_domain *dom, size_t ts) {
  /* two states, the slot and depth lists, the neighbour slots; a halo cell's index, owner, depth */
  return 2 * ts + sizeof(uint64_t) + 1 + (uint64_t)(dom->dims == 2 ? 8 : 26) * sizeof(int64_t) + 2 * sizeof(uint64_t) + 1;
}

/* The exchange of one process that holds every part: each halo cell copied from its owner. */
static int sqz__parted_exchange(sqz_parted *pf, void *user);
static int sqz__parted_done(sqz_parted *pf, void *user) { return SQZ_OK; }
static const sqz_parted_xchg sqz__parted_local = {sqz__parted_exchange, sqz__parted_done};

int sqz__parted_create(const sqz_domain *dom, uint64_t parts, unsigned width, size_t ts, const void *values,
                       sqz_parted **out) {
  return sqz__parted_create_held(dom, parts, 0, parts, width, ts, values, &sqz__parted_local, NULL, out);
}

int sqz__parted_create_held(const sqz_domain *dom, uint64_t parts, uint64_t p0, uint64_t p1, unsigned width, size_t ts,
                            const void *values, const sqz_parted_xchg *xchg, void *xchg_user, sqz_parted **out) {
  *out = NULL;
  if (width < 1 || width > 255 || (ts != 1 && ts != 4 && ts != 8))
    return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "parts: halo width %u (1 .. 255), cell size %zu (1, 4, 8)",
                     width, ts);
  sqz_parted *pf = sqz__calloc(1, sizeof *pf);
  if (!pf) return sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "a parted field");
  int st = sqz__parts_plan(dom, parts, &pf->plan);
  if (st == SQZ_OK && (p0 >= p1 || p1 > parts))
    st = sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "parts %llu .. %llu of %llu", (unsigned long long)p0,
                   (unsigned long long)p1, (unsigned long long)parts);
  pf->p0 = p0;
  pf->p1 = st == SQZ_OK ? p1 : p0; /* parts whose buffers sqz__parted_free releases */
  pf->xchg = *xchg;
  pf->xchg_user = xchg_user;
  pf->width = width;
  pf->ts = ts;
  pf->nb = dom->dims == 2 ? 8 : 26;
  if (st == SQZ_OK && !(pf->part = sqz__calloc((size_t)parts, sizeof *pf->part)))
    st = sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "%llu parts", (unsigned long long)parts);
  for (uint64_t p = p0; st == SQZ_OK && p < pf->p1; p++) st = sqz__part_init(pf, p, values);
  if (st != SQZ_OK) {
    sqz__parted_free(pf);
    return st;
  }
  *out = pf;
  return SQZ_OK;
}

static int sqz__parted_exchange(sqz_parted *pf, void *user) {
  for (uint64_t p = 0; p < pf->plan->parts; p++) {
    sqz_part *q = &pf->part[p];
    for (uint64_t i = 0; i < q->halo.n; i++) {
      const sqz_part *o = &pf->part[q->halo.owner[i]];
      memcpy(q->buf[pf->cur] + (q->cells + i) * pf->ts, o->buf[pf->cur] + (q->halo.index[i] - o->first) * pf->ts,
             pf->ts);
    }
  }
  return SQZ_OK;
}

/* The active slots of every part held that are still exact at sub-step `sub`: the interior own
 * cells (SQZ_UPD_INTERIOR), the others (SQZ_UPD_REST) or all of them. */
enum { SQZ_UPD_INTERIOR, SQZ_UPD_ALL, SQZ_UPD_REST };
static void sqz__parted_update(sqz_parted *pf, int which, unsigned sub, sqz_update_fn fn, void *user,
                               const void *param) {
  unsigned char nb[26 * 8];
  size_t ts = pf->ts;
  for (uint64_t p = pf->p0; p < pf->p1; p++) {
    sqz_part *q = &pf->part[p];
    const unsigned char *src = q->buf[pf->cur];
    unsigned char *dst = q->buf[pf->cur ^ 1];
    uint64_t a0 = which == SQZ_UPD_REST ? q->interior : 0, a1 = which == SQZ_UPD_INTERIOR ? q->interior : q->active;
    for (uint64_t a = a0; a < a1 && q->depth[a] <= pf->width - sub; a++) { /* the slots still exact */
      const int64_t *row = q->nbr + a * (uint64_t)pf->nb;
      uint32_t present = 0;
      for (int n = 0; n < pf->nb; n++) {
        if (row[n] < 0) {
          memset(nb + (size_t)n * ts, 0, ts);
          continue;
        }
        memcpy(nb + (size_t)n * ts, src + (uint64_t)row[n] * ts, ts);
        present |= 1u << n;
      }
      fn(src + q->local[a] * ts, nb, present, param, dst + q->local[a] * ts, user);
    }
  }
}

int sqz__parted_step(sqz_parted *pf, sqz_update_fn fn, void *user, const void *param, uint64_t steps) {
  while (steps > 0) {
    unsigned round = steps < pf->width ? (unsigned)steps : pf->width;
    int st = pf->xchg.start(pf, pf->xchg_user);
    if (st == SQZ_OK) sqz__parted_update(pf, SQZ_UPD_INTERIOR, 1, fn, user, param); /* the interior, while the halo moves */
    if (st == SQZ_OK) st = pf->xchg.finish(pf, pf->xchg_user);
    if (st != SQZ_OK) return st;
    sqz__parted_update(pf, SQZ_UPD_REST, 1, fn, user, param);
    pf->cur ^= 1;
    for (unsigned sub = 2; sub <= round; sub++, pf->cur ^= 1) sqz__parted_update(pf, SQZ_UPD_ALL, sub, fn, user, param);
    steps -= round;
  }
  return SQZ_OK;
}

void sqz__parted_gather(const sqz_parted *pf, void *values) {
  for (uint64_t p = pf->p0; p < pf->p1; p++) {
    const sqz_part *q = &pf->part[p];
    memcpy((unsigned char *)values + (q->first - pf->plan->start[pf->p0]) * pf->ts, q->buf[pf->cur],
           (size_t)q->cells * pf->ts);
  }
}

unsigned char *sqz__parted_buffer(sqz_parted *pf, uint64_t p, const sqz_halo **halo) {
  if (p < pf->p0 || p >= pf->p1) return NULL;
  if (halo) *halo = &pf->part[p].halo;
  return pf->part[p].buf[pf->cur];
}

const sqz_parts_plan *sqz__parted_plan(const sqz_parted *pf) { return pf->plan; }
