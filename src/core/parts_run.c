/* parts_run.c — the host reference run of a field in parts: part buffers (own cells + halo), the halo exchange and the stencil step per part. */
#include <stdlib.h>
#include <string.h>

#include "core/parts.h"

typedef struct {
  uint64_t first, cells; /* own cells: compact indices first .. first + cells - 1, local 0 .. cells - 1 */
  sqz_halo halo;         /* halo cell i at local cells + i */
  unsigned char *buf[2];
  uint64_t active;       /* cells a step may update: own cells and halo cells of depth < width */
  uint64_t *local;       /* active local slots, own cells first, by increasing depth */
  unsigned char *depth;  /* depth of each active slot (0: own) */
  int64_t *nbr;          /* per active slot, nb local slots of its neighbours (-1: absent) */
} sqz_part;

struct sqz_parted {
  sqz_parts_plan *plan;
  unsigned width;
  size_t ts;
  int nb, cur;
  sqz_part *part;
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
  q->buf[0] = sqz__calloc((size_t)slots, pf->ts);
  q->buf[1] = sqz__calloc((size_t)slots, pf->ts);
  q->local = sqz__malloc((size_t)slots * sizeof *q->local);
  q->depth = sqz__malloc((size_t)slots);
  q->nbr = sqz__malloc((size_t)slots * (size_t)pf->nb * sizeof *q->nbr);
  if (!q->buf[0] || !q->buf[1] || !q->local || !q->depth || !q->nbr)
    return sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "part %llu of %s: %llu cells with their halo",
                     (unsigned long long)p, dom->spec, (unsigned long long)slots);
  memcpy(q->buf[0], values + q->first * pf->ts, (size_t)q->cells * pf->ts);
  q->active = 0;
  for (unsigned dep = 0; dep < pf->width; dep++) /* own cells (depth 0), then the halo ring by ring */
    for (uint64_t s = 0; s < slots; s++) {
      unsigned d = s < q->cells ? 0 : q->halo.depth[s - q->cells];
      if (d != dep) continue;
      uint64_t g = s < q->cells ? q->first + s : q->halo.index[s - q->cells], idx[26];
      uint32_t present = sqz__parts_neighbours(dom, g, idx);
      int64_t *row = q->nbr + q->active * (uint64_t)pf->nb;
      for (int n = 0; n < pf->nb; n++) {
        row[n] = (present >> n) & 1u ? sqz__local(q, idx[n]) : -1;
        if ((present >> n) & 1u && row[n] < 0)
          return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "part %llu: neighbour %llu of cell %llu is not in its halo",
                           (unsigned long long)p, (unsigned long long)idx[n], (unsigned long long)g);
      }
      q->local[q->active] = s;
      q->depth[q->active++] = (unsigned char)dep;
    }
  return SQZ_OK;
}

void sqz__parted_free(sqz_parted *pf) {
  if (!pf) return;
  for (uint64_t p = 0; pf->part && p < pf->plan->parts; p++) {
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

int sqz__parted_create(const sqz_domain *dom, uint64_t parts, unsigned width, size_t ts, const void *values,
                       sqz_parted **out) {
  *out = NULL;
  if (width < 1 || width > 255 || (ts != 1 && ts != 4 && ts != 8))
    return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "parts: halo width %u (1 .. 255), cell size %zu (1, 4, 8)",
                     width, ts);
  sqz_parted *pf = sqz__calloc(1, sizeof *pf);
  if (!pf) return sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "a parted field");
  int st = sqz__parts_plan(dom, parts, &pf->plan);
  pf->width = width;
  pf->ts = ts;
  pf->nb = dom->dims == 2 ? 8 : 26;
  if (st == SQZ_OK && !(pf->part = sqz__calloc((size_t)parts, sizeof *pf->part)))
    st = sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "%llu parts", (unsigned long long)parts);
  for (uint64_t p = 0; st == SQZ_OK && p < parts; p++) st = sqz__part_init(pf, p, values);
  if (st != SQZ_OK) {
    sqz__parted_free(pf);
    return st;
  }
  *out = pf;
  return SQZ_OK;
}

/* Every halo cell of every part copied from its owner's current buffer. */
static void sqz__parted_exchange(sqz_parted *pf) {
  for (uint64_t p = 0; p < pf->plan->parts; p++) {
    sqz_part *q = &pf->part[p];
    for (uint64_t i = 0; i < q->halo.n; i++) {
      const sqz_part *o = &pf->part[q->halo.owner[i]];
      memcpy(q->buf[pf->cur] + (q->cells + i) * pf->ts, o->buf[pf->cur] + (q->halo.index[i] - o->first) * pf->ts,
             pf->ts);
    }
  }
}

int sqz__parted_step(sqz_parted *pf, sqz_update_fn fn, void *user, const void *param, uint64_t steps) {
  unsigned char nb[26 * 8];
  size_t ts = pf->ts;
  while (steps > 0) {
    unsigned round = steps < pf->width ? (unsigned)steps : pf->width;
    sqz__parted_exchange(pf);
    for (unsigned sub = 1; sub <= round; sub++, pf->cur ^= 1) {
      for (uint64_t p = 0; p < pf->plan->parts; p++) {
        sqz_part *q = &pf->part[p];
        const unsigned char *src = q->buf[pf->cur];
        unsigned char *dst = q->buf[pf->cur ^ 1];
        for (uint64_t a = 0; a < q->active && q->depth[a] <= pf->width - sub; a++) { /* the slots still exact */
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
    steps -= round;
  }
  return SQZ_OK;
}

void sqz__parted_gather(const sqz_parted *pf, void *values) {
  for (uint64_t p = 0; p < pf->plan->parts; p++) {
    const sqz_part *q = &pf->part[p];
    memcpy((unsigned char *)values + q->first * pf->ts, q->buf[pf->cur], (size_t)q->cells * pf->ts);
  }
}

const sqz_parts_plan *sqz__parted_plan(const sqz_parted *pf) { return pf->plan; }
