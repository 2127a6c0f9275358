/* parts.c — a domain's compact order split into parts: the plan, the owner of a cell, each part's exact halo (counted or listed) and sqz_parts_info. */
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "sqz_fractal.h"
#include "sqz_simplex.h"

static uint64_t sqz__upow(uint64_t b, int e) {
  uint64_t p = 1;
  while (e-- > 0) p *= b;
  return p;
}

/* floor(p * n / parts) without overflow (p <= parts <= 2^20). */
static uint64_t sqz__share(uint64_t n, uint64_t parts, uint64_t p) {
  return p * (n / parts) + p * (n % parts) / parts;
}

int sqz__parts_plan(const sqz_domain *dom, uint64_t parts, sqz_parts_plan **out) {
  return sqz__parts_plan_level(dom, parts, dom->kind == SQZ_DOMAIN_FRACTAL ? dom->fr.r : 0, out);
}

int sqz__parts_plan_level(const sqz_domain *dom, uint64_t parts, int max_level, sqz_parts_plan **out) {
  *out = NULL;
  uint64_t most = dom->cells < SQZ_PARTS_MAX ? dom->cells : SQZ_PARTS_MAX;
  if (parts == 0 || parts > most)
    return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "%llu parts of %s: the count must be 1 .. %llu (the largest valid count: %s)",
                     (unsigned long long)parts, dom->spec, (unsigned long long)most,
                     most == dom->cells ? "one cell per part" : "the most parts sqz plans");
  sqz_parts_plan *pl = sqz__calloc(1, sizeof *pl);
  if (pl) pl->start = sqz__malloc((size_t)(parts + 1) * sizeof *pl->start);
  if (!pl || !pl->start) {
    free(pl);
    return sqz__fail(dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "the plan of %llu parts", (unsigned long long)parts);
  }
  pl->dom = dom;
  pl->parts = parts;
  if (dom->kind == SQZ_DOMAIN_FRACTAL) {
    uint64_t k = (uint64_t)dom->fr.k;
    pl->kind = SQZ_PARTS_BY_REPLICAS;
    pl->replicas = 1;
    while (pl->replicas < parts) { /* k^j >= parts <= k^R, so j <= R */
      pl->replicas *= k;
      pl->level++;
    }
    /* balance: finer replicas while the largest part exceeds the mean by more than 1/32 (P = 2
     * of 3 replicas would be 2 : 1), up to 2^22 replicas */
    while (pl->level < max_level && 32 * (((pl->replicas + parts - 1) / parts) * parts) > 33 * pl->replicas &&
           pl->replicas * k <= SQZ_PARTS_REPLICAS_MAX) {
      pl->replicas *= k;
      pl->level++;
    }
    pl->replica_cells = sqz__upow(k, dom->fr.r - pl->level);
    for (uint64_t p = 0; p <= parts; p++) pl->start[p] = sqz__share(pl->replicas, parts, p) * pl->replica_cells;
    sqz__family_of(dom)->parts_tables(pl);
  } else {
    pl->kind = SQZ_PARTS_BY_BANDS;
    pl->replica_cells = 1;
    for (uint64_t p = 0; p <= parts; p++) pl->start[p] = sqz__share(dom->cells, parts, p);
  }
  *out = pl;
  return SQZ_OK;
}

void sqz__parts_plan_free(sqz_parts_plan *plan) {
  if (!plan) return;
  free(plan->start);
  free(plan);
}

uint64_t sqz__parts_owner(const sqz_parts_plan *plan, uint64_t i) {
  uint64_t lo = 0, hi = plan->parts - 1; /* the last p with start[p] <= i */
  while (lo < hi) {
    uint64_t mid = (lo + hi + 1) / 2;
    if (plan->start[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* ---- counting: per source part, cells received ----------------------------------------------- */
typedef struct {
  sqz_halo_sink sink;
  const sqz_parts_plan *plan;
  uint64_t n, cap, last;
  uint64_t (*src)[2]; /* (source part, cells) */
} sqz_count_sink;

static int sqz__count_add(sqz_count_sink *c, uint64_t part, uint64_t cells) {
  if (!cells) return SQZ_OK; /* a neighbouring replica that gives nothing is no source */
  if (c->last < c->n && c->src[c->last][0] == part) {
    c->src[c->last][1] += cells;
    return SQZ_OK;
  }
  for (uint64_t i = 0; i < c->n; i++)
    if (c->src[i][0] == part) {
      c->src[c->last = i][1] += cells;
      return SQZ_OK;
    }
  if (c->n == c->cap) {
    uint64_t cap = c->cap ? 2 * c->cap : 16;
    void *grown = sqz__realloc(c->src, (size_t)cap * sizeof *c->src);
    if (!grown) return sqz__fail(c->plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "the halo's source parts");
    c->src = grown;
    c->cap = cap;
  }
  c->src[c->n][0] = part;
  c->src[c->n][1] = cells;
  c->last = c->n++;
  return SQZ_OK;
}

static int sqz__count_range(sqz_halo_sink *sink, uint64_t lo, uint64_t hi) {
  sqz_count_sink *c = (sqz_count_sink *)sink;
  for (uint64_t p = sqz__parts_owner(c->plan, lo); lo <= hi; p++) {
    uint64_t end = c->plan->start[p + 1] - 1 < hi ? c->plan->start[p + 1] - 1 : hi;
    int st = sqz__count_add(c, p, end - lo + 1);
    if (st != SQZ_OK) return st;
    lo = end + 1;
  }
  return SQZ_OK;
}

/* |union over the directions of mask of the cells replica b gives| from the plan's tables. */
static uint64_t sqz__replica_halo(const sqz_parts_plan *plan, unsigned mask) {
  uint64_t n = 0;
  unsigned corners = 0;
  for (unsigned d = 0; d < 9; d++)
    if ((mask >> d) & 1u) {
      n += plan->edge[d];
      corners |= plan->corner[d];
    }
  return n + (uint64_t)__builtin_popcount(corners);
}

static int sqz__count_replica(sqz_halo_sink *sink, uint64_t b, unsigned mask) {
  sqz_count_sink *c = (sqz_count_sink *)sink;
  return sqz__count_add(c, sqz__parts_owner(c->plan, b * c->plan->replica_cells), sqz__replica_halo(c->plan, mask));
}

static int sqz__parts_walk(const sqz_parts_plan *plan, uint64_t p, sqz_halo_sink *sink) {
  return sqz__family_of(plan->dom)->parts_halo(plan, p, sink); /* replicas on fractals, bands on simplices */
}

int sqz__parts_stats(const sqz_parts_plan *plan, uint64_t p, sqz_part_stats *st) {
  sqz_count_sink c = {{sqz__count_range, sqz__count_replica}, plan, 0, 0, 0, NULL};
  memset(st, 0, sizeof *st);
  st->cells = plan->start[p + 1] - plan->start[p];
  int rc = sqz__parts_walk(plan, p, &c.sink);
  for (uint64_t i = 0; rc == SQZ_OK && i < c.n; i++) {
    st->halo += c.src[i][1];
    st->bit_bytes += (c.src[i][1] + 7) / 8;
  }
  st->sources = c.n;
  free(c.src);
  return rc;
}

/* ---- listing ------------------------------------------------------------------------------ */
typedef struct {
  sqz_halo_sink sink;
  const sqz_parts_plan *plan;
  uint64_t n, cap, *index;
  int jt; /* sqz__parts_halo_tiles: the tile level listed */
} sqz_list_sink;

static int sqz__list_add(void *user, uint64_t i) {
  sqz_list_sink *l = user;
  if (l->n == l->cap) {
    uint64_t cap = l->cap ? 2 * l->cap : 256;
    void *grown = sqz__realloc(l->index, (size_t)cap * sizeof *l->index);
    if (!grown) return sqz__fail(l->plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "a halo list of %llu cells",
                                 (unsigned long long)cap);
    l->index = grown;
    l->cap = cap;
  }
  l->index[l->n++] = i;
  return SQZ_OK;
}

static int sqz__list_range(sqz_halo_sink *sink, uint64_t lo, uint64_t hi) {
  int st = SQZ_OK;
  for (uint64_t i = lo; st == SQZ_OK && i <= hi; i++) st = sqz__list_add(sink, i);
  return st;
}

static int sqz__list_replica(sqz_halo_sink *sink, uint64_t b, unsigned mask) {
  sqz_list_sink *l = (sqz_list_sink *)sink;
  return sqz__family_of(l->plan->dom)->parts_cells(l->plan, b, mask, sqz__list_add, l);
}

static int sqz__list_replica_tiles(sqz_halo_sink *sink, uint64_t b, unsigned mask) {
  sqz_list_sink *l = (sqz_list_sink *)sink;
  return sqz__family_of(l->plan->dom)->parts_tiles(l->plan, b, mask, l->jt, sqz__list_add, l);
}

int sqz__u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Sorts the listed keys index << 8 | depth (shift 8) or plain indices (shift 0, depth 1) into h: each
 * index once, with its least depth, and its owner (the part of cell index * scale). */
static int sqz__halo_finish(const sqz_parts_plan *plan, sqz_list_sink *l, int shift, uint64_t scale, sqz_halo *h) {
  uint64_t n = 0;
  if (l->n) qsort(l->index, (size_t)l->n, sizeof *l->index, sqz__u64_cmp);
  h->depth = sqz__malloc((size_t)(l->n ? l->n : 1));
  h->index = l->index;
  for (uint64_t i = 0; h->depth && i < l->n; i++) {
    uint64_t idx = l->index[i] >> shift;
    if (n && l->index[n - 1] == idx) continue; /* sorted: the first copy has the least depth */
    h->depth[n] = shift ? (unsigned char)(l->index[i] & 0xFF) : 1;
    l->index[n++] = idx;
  }
  h->n = n;
  h->owner = sqz__malloc((size_t)(n ? n : 1) * sizeof *h->owner);
  if (!h->owner || !h->depth) {
    sqz__halo_free(h);
    return sqz__fail(plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "a halo list of %llu cells", (unsigned long long)n);
  }
  for (uint64_t i = 0; i < n; i++) h->owner[i] = sqz__parts_owner(plan, h->index[i] * scale);
  return SQZ_OK;
}

int sqz__parts_halo(const sqz_parts_plan *plan, uint64_t p, sqz_halo *h) {
  sqz_list_sink l = {{sqz__list_range, sqz__list_replica}, plan, 0, 0, NULL, 0};
  memset(h, 0, sizeof *h);
  int st = sqz__parts_walk(plan, p, &l.sink);
  if (st != SQZ_OK) {
    free(l.index);
    return st;
  }
  return sqz__halo_finish(plan, &l, 0, 1, h);
}

int sqz__parts_halo_tiles(const sqz_parts_plan *plan, uint64_t p, int jt, sqz_halo *h) {
  sqz_list_sink l = {{NULL, sqz__list_replica_tiles}, plan, 0, 0, NULL, jt};
  memset(h, 0, sizeof *h);
  if (plan->kind != SQZ_PARTS_BY_REPLICAS || jt < 0 || jt > plan->dom->fr.r - plan->level)
    return sqz__fail(plan->dom->ctx, SQZ_ERR_INTERNAL, "a tile halo of level %d on %s", jt, plan->dom->spec);
  int st = sqz__family_of(plan->dom)->parts_halo(plan, p, &l.sink);
  if (st != SQZ_OK) {
    free(l.index);
    return st;
  }
  return sqz__halo_finish(plan, &l, 0, sqz__upow((uint64_t)plan->dom->fr.k, jt), h);
}

void sqz__halo_free(sqz_halo *h) {
  if (!h) return;
  free(h->index);
  free(h->owner);
  free(h->depth);
  memset(h, 0, sizeof *h);
}

/* ---- cells, coordinates and neighbours in compact order -------------------------------------- */
void sqz__parts_coords(const sqz_domain *dom, uint64_t i, int64_t c[3]) {
  sqz_u32 x = 0, y = 0, z = 0, n = (sqz_u32)dom->side;
  if (dom->kind == SQZ_DOMAIN_FRACTAL)
    sqz_fr_lambda((sqz_u32)dom->fr.s, (sqz_u32)dom->fr.k, dom->fr.hl, (sqz_u32)dom->fr.r, i, &x, &y);
  else if (dom->dims == 2) sqz_tri_coords(n, i, &x, &y);
  else sqz_tet_coords(n, i, &x, &y, &z);
  c[0] = x;
  c[1] = y;
  c[2] = z;
}

int64_t sqz__parts_index(const sqz_domain *dom, const int64_t c[3]) {
  int64_t n = (int64_t)dom->side;
  if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= n || c[1] >= n || c[2] >= n) return -1;
  sqz_u32 x = (sqz_u32)c[0], y = (sqz_u32)c[1], z = (sqz_u32)c[2];
  if (dom->kind == SQZ_DOMAIN_FRACTAL)
    return c[2] ? -1 : sqz_fr_nu((sqz_u32)dom->fr.s, (sqz_u32)dom->fr.k, dom->fr.hnu, (sqz_u32)dom->fr.r, x, y);
  if (dom->dims == 2) return c[2] == 0 && x <= y ? (int64_t)sqz_tri_index(SQZ_SL_COMPACT, (sqz_u32)n, x, y) : -1;
  return c[0] + c[1] + c[2] < n ? (int64_t)sqz_tet_index(SQZ_SL_COMPACT, (sqz_u32)n, x, y, z) : -1;
}

uint32_t sqz__parts_neighbours(const sqz_domain *dom, uint64_t i, uint64_t idx[26]) {
  int64_t c[3], e[3];
  uint32_t present = 0, d = 0;
  sqz__parts_coords(dom, i, c);
  int dz0 = dom->dims == 3 ? -1 : 0, dz1 = dom->dims == 3 ? 1 : 0;
  for (int dz = dz0; dz <= dz1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        if (!dx && !dy && !dz) continue;
        e[0] = c[0] + dx;
        e[1] = c[1] + dy;
        e[2] = c[2] + dz;
        int64_t j = sqz__parts_index(dom, e);
        if (j >= 0) {
          idx[d] = (uint64_t)j;
          present |= 1u << d;
        }
        d++;
      }
  return present;
}

/* ---- the width-T halo by enumeration --------------------------------------------------------- */
int sqz__parts_halo_wide(const sqz_parts_plan *plan, uint64_t p, unsigned width, sqz_halo *h) {
  const sqz_domain *dom = plan->dom;
  sqz_list_sink l = {{NULL, NULL}, plan, 0, 0, NULL, 0};
  int st = SQZ_OK, t = (int)width, tz = dom->dims == 3 ? t : 0;
  memset(h, 0, sizeof *h);
  if (width < 1 || width > 255 || dom->cells >> 56)
    return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "halo width %u on %s: it must be 1 .. 255, on fewer than 2^56 cells",
                     width, dom->spec);
  for (uint64_t i = plan->start[p]; st == SQZ_OK && i < plan->start[p + 1]; i++) {
    int64_t c[3], e[3];
    sqz__parts_coords(dom, i, c);
    for (int dz = -tz; dz <= tz && st == SQZ_OK; dz++)
      for (int dy = -t; dy <= t && st == SQZ_OK; dy++)
        for (int dx = -t; dx <= t && st == SQZ_OK; dx++) {
          e[0] = c[0] + dx;
          e[1] = c[1] + dy;
          e[2] = c[2] + dz;
          int64_t j = sqz__parts_index(dom, e);
          if (j < 0 || ((uint64_t)j >= plan->start[p] && (uint64_t)j < plan->start[p + 1])) continue;
          int ring = abs(dx) > abs(dy) ? abs(dx) : abs(dy); /* the Chebyshev distance of this path */
          ring = ring > abs(dz) ? ring : abs(dz);
          st = sqz__list_add(&l, (uint64_t)j << 8 | (uint64_t)ring);
        }
  }
  if (st == SQZ_OK) return sqz__halo_finish(plan, &l, 8, 1, h);
  free(l.index);
  return st;
}

/* ---- public summary ---------------------------------------------------------------------------- */
int sqz_parts_info(const sqz_domain *dom, uint64_t parts, uint64_t *values, size_t n_values) {
  if (!dom || !values)
    return sqz__fail(dom ? dom->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_parts_info: NULL domain or values");
  sqz_parts_plan *plan = NULL;
  int st = sqz__parts_plan(dom, parts, &plan);
  if (st != SQZ_OK) return st;
  uint64_t v[SQZ_PARTS_VALUES] = {0};
  v[SQZ_PARTS_KIND] = (uint64_t)plan->kind;
  v[SQZ_PARTS_LEVEL] = (uint64_t)plan->level;
  v[SQZ_PARTS_REPLICA_COUNT] = plan->replicas;
  v[SQZ_PARTS_CELLS_MIN] = v[SQZ_PARTS_HALO_MIN] = UINT64_MAX;
  for (uint64_t p = 0; p < parts && st == SQZ_OK; p++) {
    sqz_part_stats ps;
    if ((st = sqz__parts_stats(plan, p, &ps)) != SQZ_OK) break;
    if (ps.cells < v[SQZ_PARTS_CELLS_MIN]) v[SQZ_PARTS_CELLS_MIN] = ps.cells;
    if (ps.cells > v[SQZ_PARTS_CELLS_MAX]) v[SQZ_PARTS_CELLS_MAX] = ps.cells;
    if (ps.halo < v[SQZ_PARTS_HALO_MIN]) v[SQZ_PARTS_HALO_MIN] = ps.halo;
    if (ps.halo > v[SQZ_PARTS_HALO_MAX]) v[SQZ_PARTS_HALO_MAX] = ps.halo;
    if (ps.bit_bytes > v[SQZ_PARTS_BIT_BYTES_MAX]) v[SQZ_PARTS_BIT_BYTES_MAX] = ps.bit_bytes;
    if (ps.sources > v[SQZ_PARTS_SOURCES_MAX]) v[SQZ_PARTS_SOURCES_MAX] = ps.sources;
    v[SQZ_PARTS_HALO_TOTAL] += ps.halo;
    v[SQZ_PARTS_BIT_BYTES_TOTAL] += ps.bit_bytes;
    v[SQZ_PARTS_MESSAGES] += ps.sources;
  }
  v[SQZ_PARTS_MAX_COUNT] = dom->cells < SQZ_PARTS_MAX ? dom->cells : SQZ_PARTS_MAX;
  sqz__parts_plan_free(plan);
  if (st == SQZ_OK) memcpy(values, v, (n_values < SQZ_PARTS_VALUES ? n_values : SQZ_PARTS_VALUES) * sizeof *v);
  return st;
}
