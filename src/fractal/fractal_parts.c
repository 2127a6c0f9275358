/* fractal_parts.c — fractal parts by replicas: the coarse neighbours of a part's replicas and the cells a replica gives each direction. */
#include <stdlib.h>
#include <string.h>

#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"

/* All level-j replicas are translated copies of the fractal F of L = R - j levels and side
 * m = s^L, placed at the coarse cells λ_j(b) of the level-j fractal; a cell of replica b can read
 * only replicas at the 8 coarse neighbours of λ_j(b). Replica b' = b + d (coarse offset d) gives b
 * the cells c' of F with c' + d m - c in {-1, 0, 1}^2 for some c in F: per axis, c'_a = 0 and
 * c_a = m - 1 when d_a = +1, c'_a = m - 1 and c_a = 0 when d_a = -1, |c'_a - c_a| <= 1 when
 * d_a = 0. Orthogonal d: the cells t of one edge line of F with a cell at t - 1, t or t + 1 on the
 * opposite edge line; diagonal d: one corner. An edge line of F is a digit language: (0, t) is in F
 * iff every base-s digit t_i has H_nu[t_i s + 0] >= 0 (column 0), and likewise for column s - 1
 * and rows 0 and s - 1. */

/* Allowed digits of edge line `side` of the pattern: 0 column 0, 1 column s-1, 2 row 0, 3 row s-1. */
static unsigned sqz__edge_digits(const sqz_fractal *fr, int side) {
  unsigned set = 0;
  for (int t = 0; t < fr->s; t++) {
    int x = side == 0 ? 0 : side == 1 ? fr->s - 1 : t, y = side == 2 ? 0 : side == 3 ? fr->s - 1 : t;
    if (fr->hnu[y * fr->s + x] >= 0) set |= 1u << t;
  }
  return set;
}

/* 1 when 0 <= u < s^levels and every digit of u is in set. */
static int sqz__line_has(unsigned set, int s, int levels, int64_t u) {
  if (u < 0) return 0;
  for (int i = 0; i < levels; i++, u /= s)
    if (!((set >> (u % s)) & 1u)) return 0;
  return u == 0;
}

/* Cell t of line a is read from line b (cells t - 1, t, t + 1). */
static int sqz__line_reads(unsigned a, unsigned b, int s, int levels, int64_t t) {
  return sqz__line_has(a, s, levels, t) &&
         (sqz__line_has(b, s, levels, t - 1) || sqz__line_has(b, s, levels, t) || sqz__line_has(b, s, levels, t + 1));
}

/* #{t in [0, s^levels) : t in a and one of t - 1, t, t + 1 in b}, by a digit automaton from the
 * least significant digit: state (carry of t + 1, borrow of t - 1, which of the three are still
 * in b). */
static uint64_t sqz__line_count(unsigned a, unsigned b, int s, int levels) {
  uint64_t cnt[2][2][8] = {{{0}}}, next[2][2][8];
  cnt[1][1][7] = 1;
  for (int i = 0; i < levels; i++) {
    memset(next, 0, sizeof next);
    for (int c = 0; c < 2; c++)
      for (int w = 0; w < 2; w++)
        for (int f = 0; f < 8; f++) {
          if (!cnt[c][w][f]) continue;
          for (int t = 0; t < s; t++) {
            if (!((a >> t) & 1u)) continue;
            int up = t + c, down = t - w, nc = up / s, nw = down < 0;
            up %= s;
            down = nw ? down + s : down;
            int g = f & ((((b >> down) & 1u) ? 1 : 0) | (((b >> t) & 1u) ? 2 : 0) | (((b >> up) & 1u) ? 4 : 0));
            next[nc][nw][g] += cnt[c][w][f];
          }
        }
    memcpy(cnt, next, sizeof cnt);
  }
  uint64_t n = 0;
  for (int c = 0; c < 2; c++)
    for (int w = 0; w < 2; w++)
      for (int f = 0; f < 8; f++)
        if (((f & 1) && !w) || (f & 2) || ((f & 4) && !c)) n += cnt[c][w][f];
  return n;
}

/* Direction d = (dy + 1) * 3 + (dx + 1): the line of F that gives (a) and the line it is read from
 * (b), for orthogonal d. */
static void sqz__direction_lines(int dx, int dy, int *a, int *b) {
  if (dx == 1) *a = 0, *b = 1;      /* b' right of b: its column 0 against b's column m-1 */
  else if (dx == -1) *a = 1, *b = 0;
  else if (dy == 1) *a = 2, *b = 3; /* below: row 0 against row m-1 */
  else *a = 3, *b = 2;
}

static unsigned sqz__corner_bit(uint64_t x, uint64_t y) { return 1u << ((x != 0) | (y != 0) << 1); }

void sqz__fractal_parts_tables(sqz_parts_plan *plan) {
  const sqz_fractal *fr = &plan->dom->fr;
  int levels = fr->r - plan->level, s = fr->s;
  int64_t m = 1;
  for (int i = 0; i < levels; i++) m *= s;
  unsigned lines[4];
  for (int e = 0; e < 4; e++) lines[e] = sqz__edge_digits(fr, e);
  for (int d = 0; d < 9; d++) {
    int dx = d % 3 - 1, dy = d / 3 - 1;
    plan->edge[d] = 0;
    plan->corner[d] = 0;
    if (d == 4) continue;
    if (dx && dy) { /* corner c' = (dx > 0 ? 0 : m-1, dy > 0 ? 0 : m-1) against c = the opposite one */
      uint64_t cx = dx > 0 ? 0 : (uint64_t)m - 1, cy = dy > 0 ? 0 : (uint64_t)m - 1;
      unsigned ax = dx > 0 ? lines[0] : lines[1], bx = dx > 0 ? lines[1] : lines[0]; /* a corner is on both lines */
      if (sqz__line_has(ax, s, levels, (int64_t)cy) && sqz__line_has(bx, s, levels, (int64_t)(m - 1 - (int64_t)cy)))
        plan->corner[d] = sqz__corner_bit(cx, cy);
      continue;
    }
    int a, b;
    sqz__direction_lines(dx, dy, &a, &b);
    uint64_t all = sqz__line_count(lines[a], lines[b], s, levels), ends = 0;
    for (int64_t t = 0; t < m; t = t == 0 && m > 1 ? m - 1 : m) { /* t = 0 and t = m - 1 */
      if (!sqz__line_reads(lines[a], lines[b], s, levels, t)) continue;
      ends++;
      uint64_t x = a == 0 ? 0 : a == 1 ? (uint64_t)m - 1 : (uint64_t)t, y = a == 2 ? 0 : a == 3 ? (uint64_t)m - 1 : (uint64_t)t;
      plan->corner[d] |= sqz__corner_bit(x, y);
    }
    plan->edge[d] = all - ends;
  }
}

int sqz__fractal_parts_halo(const sqz_parts_plan *plan, uint64_t p, sqz_halo_sink *sink) {
  const sqz_fractal *fr = &plan->dom->fr;
  sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k, j = (sqz_u32)plan->level;
  uint64_t r0 = plan->start[p] / plan->replica_cells, r1 = plan->start[p + 1] / plan->replica_cells;
  uint64_t cap = 8 * (r1 - r0), n = 0;
  uint64_t (*nb)[2] = sqz__malloc((size_t)(cap ? cap : 1) * sizeof *nb); /* (replica, direction mask) */
  if (!nb) return sqz__fail(plan->dom->ctx, SQZ_ERR_OUT_OF_MEMORY, "the neighbours of part %llu", (unsigned long long)p);
  for (uint64_t b = r0; b < r1; b++) {
    sqz_u32 bx, by;
    sqz_fr_lambda(s, k, fr->hl, j, b, &bx, &by);
    for (sqz_u32 d = 0; d < 9; d++) {
      sqz_i64 o = d == 4 ? -1 : sqz_fr_tile_neighbour(s, k, fr->hnu, j, bx, by, d);
      if (o < 0 || ((uint64_t)o >= r0 && (uint64_t)o < r1)) continue;
      nb[n][0] = (uint64_t)o;
      nb[n++][1] = 1u << d;
    }
  }
  if (n) qsort(nb, (size_t)n, sizeof *nb, sqz__u64_cmp); /* each neighbour once, its directions merged */
  int st = SQZ_OK;
  for (uint64_t i = 0, e; i < n && st == SQZ_OK; i = e) {
    unsigned mask = 0;
    for (e = i; e < n && nb[e][0] == nb[i][0]; e++) mask |= (unsigned)nb[e][1];
    st = sink->replica(sink, nb[i][0], mask);
  }
  free(nb);
  return st;
}

int sqz__fractal_parts_cells(const sqz_parts_plan *plan, uint64_t b, unsigned mask,
                             int (*add)(void *user, uint64_t i), void *user) {
  const sqz_fractal *fr = &plan->dom->fr;
  int levels = fr->r - plan->level, s = fr->s, st = SQZ_OK;
  int64_t m = 1;
  for (int i = 0; i < levels; i++) m *= s;
  unsigned lines[4];
  for (int e = 0; e < 4; e++) lines[e] = sqz__edge_digits(fr, e);
  for (int d = 0; d < 9 && st == SQZ_OK; d++) {
    if (!((mask >> d) & 1u)) continue;
    int dx = d % 3 - 1, dy = d / 3 - 1;
    int64_t t0 = 0, t1 = m - 1;
    if (dx && dy) t0 = t1 = 0; /* one corner: taken from the table */
    for (int64_t t = t0; t <= t1 && st == SQZ_OK; t++) {
      uint64_t x, y;
      if (dx && dy) {
        if (!plan->corner[d]) break;
        x = dx > 0 ? 0 : (uint64_t)m - 1;
        y = dy > 0 ? 0 : (uint64_t)m - 1;
      } else {
        int a, bl;
        sqz__direction_lines(dx, dy, &a, &bl);
        if (!sqz__line_reads(lines[a], lines[bl], s, levels, t)) continue;
        x = a == 0 ? 0 : a == 1 ? (uint64_t)m - 1 : (uint64_t)t;
        y = a == 2 ? 0 : a == 3 ? (uint64_t)m - 1 : (uint64_t)t;
      }
      sqz_i64 l = sqz_fr_nu((sqz_u32)s, (sqz_u32)fr->k, fr->hnu, (sqz_u32)levels, (sqz_u32)x, (sqz_u32)y);
      st = add(user, b * plan->replica_cells + (uint64_t)l);
    }
  }
  return st;
}

/* Edge tile T (of s^L along a line of the replica, tiles of side S = s^jt) holds a cell t = T S + u
 * of line a read from line b (cells t - 1, t, t + 1): inside the tile (u - 1, u, u + 1 in [0, S):
 * T in a and b at the top L digits and some u of the low digits), or across its ends (u = 0 reading
 * tile T - 1's last cell, u = S - 1 reading tile T + 1's first). inside: whether some u does. */
static int sqz__tile_reads(unsigned a, unsigned b, int s, int levels, int jt, int64_t T, int64_t S, int inside) {
  if (!sqz__line_has(a, s, levels, T)) return 0;
  if (inside && sqz__line_has(b, s, levels, T)) return 1;
  return (sqz__line_has(a, s, jt, 0) && sqz__line_has(b, s, levels, T - 1) && sqz__line_has(b, s, jt, S - 1)) ||
         (sqz__line_has(a, s, jt, S - 1) && sqz__line_has(b, s, levels, T + 1) && sqz__line_has(b, s, jt, 0));
}

int sqz__fractal_parts_tiles(const sqz_parts_plan *plan, uint64_t b, unsigned mask, int jt,
                             int (*add)(void *user, uint64_t i), void *user) {
  const sqz_fractal *fr = &plan->dom->fr;
  int levels = fr->r - plan->level - jt, s = fr->s, st = SQZ_OK; /* tile levels of a replica */
  int64_t mc = 1, S = 1;
  for (int i = 0; i < levels; i++) mc *= s;
  for (int i = 0; i < jt; i++) S *= s;
  uint64_t per = 1; /* tiles per replica */
  for (int i = 0; i < levels; i++) per *= (uint64_t)fr->k;
  unsigned lines[4];
  for (int e = 0; e < 4; e++) lines[e] = sqz__edge_digits(fr, e);
  for (int d = 0; d < 9 && st == SQZ_OK; d++) {
    if (!((mask >> d) & 1u)) continue;
    int dx = d % 3 - 1, dy = d / 3 - 1, a = 0, bl = 0, inside = 0;
    if (!(dx && dy)) {
      sqz__direction_lines(dx, dy, &a, &bl);
      for (int64_t u = 0; u < S && !inside; u++) /* a tile's own cells: the low jt digits */
        inside = sqz__line_has(lines[a], s, jt, u) &&
                 ((u > 0 && sqz__line_has(lines[bl], s, jt, u - 1)) || sqz__line_has(lines[bl], s, jt, u) ||
                  (u + 1 < S && sqz__line_has(lines[bl], s, jt, u + 1)));
    }
    for (int64_t T = 0; T < (dx && dy ? 1 : mc) && st == SQZ_OK; T++) {
      uint64_t x, y;
      if (dx && dy) { /* the corner cell's tile */
        if (!plan->corner[d]) break;
        x = dx > 0 ? 0 : (uint64_t)mc - 1;
        y = dy > 0 ? 0 : (uint64_t)mc - 1;
      } else {
        if (!sqz__tile_reads(lines[a], lines[bl], s, levels, jt, T, S, inside)) continue;
        x = a == 0 ? 0 : a == 1 ? (uint64_t)mc - 1 : (uint64_t)T;
        y = a == 2 ? 0 : a == 3 ? (uint64_t)mc - 1 : (uint64_t)T;
      }
      sqz_i64 l = sqz_fr_nu((sqz_u32)s, (sqz_u32)fr->k, fr->hnu, (sqz_u32)levels, (sqz_u32)x, (sqz_u32)y);
      st = add(user, b * per + (uint64_t)l);
    }
  }
  return st;
}
