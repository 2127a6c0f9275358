/* simplex_parts.c — simplex parts by bands of the compact storage: each row's owned interval(s) and the halo rows around them. */
#include "simplex/simplex.h"
#include "sqz_simplex.h"

/* A band [a, b) of the compact order meets each domain row in at most two x intervals: a
 * tetrahedron row (y, z) is stored contiguously, a triangle row y in two pieces (x < W in
 * rectangle row y + e, increasing; x >= W in rectangle row n - 1 - y, decreasing; docs/MAPS.md 1.4).
 * The halo of the band in row r is the union, over the rows r' next to r (3 in 2D, 9 in 3D, r
 * included), of the band's intervals of r' widened by one and clipped to r, less the band's own
 * intervals of r. Only rows near the band's rows are visited, so a count costs O(rows of the band). */

typedef struct {
  int64_t x0, x1;
} sqz_iv;

typedef struct {
  int dims;
  int64_t n, w, e, a, b; /* side, fold width and parity (2D), the band [a, b) */
} sqz_band;

static int64_t sqz__max(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t sqz__min(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t sqz__row_len(const sqz_band *bd, int64_t y, int64_t z) {
  if (z < 0 || y < 0 || (bd->dims == 2 ? y >= bd->n : y + z >= bd->n)) return 0;
  return bd->dims == 2 ? y + 1 : bd->n - y - z;
}

/* Index of cell x of row (y, z) is left(x) = l + x for x < split, right(x) = r - x beyond. */
static void sqz__row_map(const sqz_band *bd, int64_t y, int64_t z, int64_t *l, int64_t *r, int64_t *split) {
  if (bd->dims == 2) {
    *l = (y + bd->e) * bd->w;
    *r = (bd->n - 1 - y) * bd->w + bd->n - bd->e;
    *split = bd->w;
  } else {
    *l = (int64_t)sqz_tet_index(SQZ_SL_COMPACT, (sqz_u32)bd->n, 0, (sqz_u32)y, (sqz_u32)z);
    *r = 0;
    *split = bd->n;
  }
}

/* The band's intervals in row (y, z): 0, 1 or 2, sorted. */
static int sqz__row_own(const sqz_band *bd, int64_t y, int64_t z, sqz_iv out[2]) {
  int64_t len = sqz__row_len(bd, y, z), l, r, split, k = 0;
  if (!len) return 0;
  sqz__row_map(bd, y, z, &l, &r, &split);
  int64_t lo = sqz__max(0, bd->a - l), hi = sqz__min(sqz__min(len, split) - 1, bd->b - 1 - l);
  if (lo <= hi) out[k].x0 = lo, out[k++].x1 = hi;
  if (len > split) { /* right piece: r - x in [a, b) */
    lo = sqz__max(split, r - bd->b + 1);
    hi = sqz__min(len - 1, r - bd->a);
    if (lo <= hi) out[k].x0 = lo, out[k++].x1 = hi;
  }
  return (int)k;
}

/* Cells x0 .. x1 of row (y, z) to the sink, as runs of indices (split at the fold in 2D). */
static int sqz__row_emit(const sqz_band *bd, int64_t y, int64_t z, int64_t x0, int64_t x1, sqz_halo_sink *sink) {
  int64_t l, r, split;
  sqz__row_map(bd, y, z, &l, &r, &split);
  int st = SQZ_OK;
  if (x0 < split) st = sink->range(sink, (uint64_t)(l + x0), (uint64_t)(l + sqz__min(x1, split - 1)));
  if (st == SQZ_OK && x1 >= split) st = sink->range(sink, (uint64_t)(r - x1), (uint64_t)(r - sqz__max(x0, split)));
  return st;
}

/* The halo of the band in row (y, z), handed to the sink as runs of indices. */
static int sqz__row_halo(const sqz_band *bd, int64_t y, int64_t z, sqz_halo_sink *sink) {
  int64_t len = sqz__row_len(bd, y, z);
  if (!len) return SQZ_OK;
  sqz_iv iv[18], own[2], t;
  int n = 0, no = sqz__row_own(bd, y, z, own);
  if (no && own[0].x0 == 0 && own[no - 1].x1 == len - 1 && (no == 1 || own[0].x1 + 1 == own[1].x0))
    return SQZ_OK; /* the whole row is the band's */
  int z0 = bd->dims == 3 ? -1 : 0, z1 = bd->dims == 3 ? 1 : 0;
  for (int dz = z0; dz <= z1; dz++)
    for (int dy = -1; dy <= 1; dy++) {
      sqz_iv o[2];
      int k = sqz__row_own(bd, y + dy, z + dz, o);
      for (int i = 0; i < k; i++) {
        t.x0 = sqz__max(0, o[i].x0 - 1);
        t.x1 = sqz__min(len - 1, o[i].x1 + 1);
        if (t.x0 > t.x1) continue;
        int at = n++; /* insertion sort by x0 */
        while (at > 0 && iv[at - 1].x0 > t.x0) iv[at] = iv[at - 1], at--;
        iv[at] = t;
      }
    }
  int64_t done = -1; /* cells up to here are handled */
  for (int i = 0; i < n; i++) {
    int64_t cur = sqz__max(iv[i].x0, done + 1), hi = iv[i].x1;
    if (cur > hi) continue;
    done = hi;
    int st = SQZ_OK;
    for (int j = 0; j < no && st == SQZ_OK; j++) { /* [cur, hi] less the own intervals */
      if (own[j].x1 < cur) continue;
      if (own[j].x0 > hi) break;
      if (own[j].x0 > cur) st = sqz__row_emit(bd, y, z, cur, own[j].x0 - 1, sink);
      cur = own[j].x1 + 1;
    }
    if (st == SQZ_OK && cur <= hi) st = sqz__row_emit(bd, y, z, cur, hi, sink);
    if (st != SQZ_OK) return st;
  }
  return SQZ_OK;
}

int sqz__simplex_parts_halo(const sqz_parts_plan *plan, uint64_t p, sqz_halo_sink *sink) {
  const sqz_domain *dom = plan->dom;
  sqz_band bd = {dom->dims, (int64_t)dom->side, 0, 0, (int64_t)plan->start[p], (int64_t)plan->start[p + 1]};
  sqz_u32 n = (sqz_u32)dom->side;
  int st = SQZ_OK;
  if (bd.dims == 2) {
    bd.w = sqz_fold_w((sqz_u64)n);
    bd.e = 1 - (bd.n & 1);
    /* rectangle rows v0 .. v1 hold rows y = v - e (left pieces) and y = n - 1 - v (right pieces) */
    int64_t v0 = bd.a / bd.w, v1 = (bd.b - 1) / bd.w;
    int64_t r[2][2] = {{v0 - bd.e - 1, v1 - bd.e + 1}, {bd.n - 2 - v1, bd.n - v0}};
    int64_t done = -1;
    if (r[1][0] < r[0][0]) { /* visit the two ranges in order, each row once */
      int64_t s0 = r[0][0], s1 = r[0][1];
      r[0][0] = r[1][0], r[0][1] = r[1][1], r[1][0] = s0, r[1][1] = s1;
    }
    for (int i = 0; i < 2 && st == SQZ_OK; i++)
      for (int64_t y = sqz__max(sqz__max(r[i][0], 0), done + 1); y <= sqz__min(r[i][1], bd.n - 1) && st == SQZ_OK; y++) {
        st = sqz__row_halo(&bd, y, 0, sink);
        done = y;
      }
    return st;
  }
  sqz_u32 xa, ya, za, xb, yb, zb;
  sqz_tet_coords(n, (sqz_u64)bd.a, &xa, &ya, &za);
  sqz_tet_coords(n, (sqz_u64)bd.b - 1, &xb, &yb, &zb);
  for (int64_t z = sqz__max(0, (int64_t)za - 1); z <= sqz__min(bd.n - 1, (int64_t)zb + 1) && st == SQZ_OK; z++) {
    int64_t first = (int64_t)(sqz_te(n) - sqz_te(n - (sqz_u32)z)), last = (int64_t)(sqz_te(n) - sqz_te(n - 1u - (sqz_u32)z));
    if (first >= bd.a && last <= bd.b) continue; /* the whole layer is the band's: no halo in it */
    /* rows of layer z next to the band's rows of layers z - 1 .. z + 1 (each a run of y) */
    int64_t lo = bd.n, hi = -1;
    for (int64_t zz = z - 1; zz <= z + 1; zz++) {
      if (zz < (int64_t)za || zz > (int64_t)zb) continue;
      lo = sqz__min(lo, (zz == (int64_t)za ? (int64_t)ya : 0) - 1);
      hi = sqz__max(hi, (zz == (int64_t)zb ? (int64_t)yb : bd.n - 1 - zz) + 1);
    }
    for (int64_t y = sqz__max(lo, 0); y <= sqz__min(hi, bd.n - 1 - z) && st == SQZ_OK; y++)
      st = sqz__row_halo(&bd, y, z, sink);
  }
  return st;
}
