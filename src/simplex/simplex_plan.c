/* simplex_plan.c — turns a simplex map name, side and block size into a list of kernel launches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simplex/simplex_plan.h"

uint32_t sqz__simplex_default_rho(int dims) { return dims == 2 ? 16u : 8u; }

static uint32_t sqz__cdiv32(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1u) / b); }
static int sqz__pow2(uint64_t v) { return v && !(v & (v - 1u)); }

/* ---- growing launch list ------------------------------------------------------------------ */
typedef struct {
  sqz_simplex_plan *plan;
  size_t cap;
  int oom;
} sqz_plan_builder;

static void sqz__add(sqz_plan_builder *b, uint32_t kind, const uint32_t p[3], const uint32_t o[3],
                     uint32_t gx, uint32_t gy, uint32_t gz) {
  sqz_simplex_plan *pl = b->plan;
  if (b->oom) return;
  if (pl->count == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 8;
    sqz_simplex_launch *l = sqz__realloc(pl->launch, cap * sizeof *l);
    if (!l) {
      b->oom = 1;
      return;
    }
    pl->launch = l;
    b->cap = cap;
  }
  sqz_simplex_launch *l = &pl->launch[pl->count++];
  memcpy(l->p, p, sizeof l->p);
  memcpy(l->o, o, sizeof l->o);
  l->kind = kind;
  l->grid[0] = gx;
  l->grid[1] = gy;
  l->grid[2] = gz;
  pl->kind_mask |= 1u << kind;
}

/* ---- 2D ------------------------------------------------------------------------------------ */
static uint32_t sqz__isqrt_ceil(uint64_t v) { /* ceil(sqrt(v)) */
  uint64_t r = (uint64_t)sqrt((double)v);
  while (r * r < v) r++;
  while (r > 0 && (r - 1u) * (r - 1u) >= v) r--;
  return (uint32_t)r;
}

static void sqz__box2(sqz_plan_builder *b, uint32_t n, uint32_t rho, uint64_t ox, uint64_t oy, uint64_t sx,
                      uint64_t sy) {
  /* clip the box to the bounding square of the domain: cells beyond n are filtered anyway */
  if (ox + sx > n) sx = n - ox;
  if (oy + sy > n) sy = n - oy;
  uint32_t p[3] = {(uint32_t)sx, (uint32_t)sy, 0}, o[3] = {(uint32_t)ox, (uint32_t)oy, 0};
  sqz__add(b, SQZ_SK_BOX, p, o, sqz__cdiv32(sx, rho), sqz__cdiv32(sy, rho), 1);
}

static void sqz__had_upper(sqz_plan_builder *b, uint32_t nbp, uint32_t off) {
  uint32_t p[3] = {nbp - 1u, nbp / 2u, 1u}, o[3] = {off, off, 0};
  sqz__add(b, SQZ_SK_HAD, p, o, nbp == 1 ? 1 : nbp / 2u, nbp == 1 ? 1 : nbp + 1u, 1);
}

/* HAD for any n (docs/MAPS.md 1.6): tol < 0 is approach A (one UPPER launch from above); otherwise
 * approach B, finishing from above once pow2ceil(m) - m < tol. Needs rho = 2^j. */
static void sqz__had2(sqz_plan_builder *b, uint32_t n, uint32_t rho, int64_t tol) {
  uint64_t off = 0, m = n;
  while (m > 0) {
    uint64_t big = (uint64_t)sqz_pow2ceil((uint32_t)m), small = sqz_pow2floor((uint32_t)m);
    if (tol < 0 || (int64_t)(big - m) < tol || small < rho) {
      uint64_t nbp = big / rho;
      sqz__had_upper(b, (uint32_t)(nbp ? nbp : 1u), (uint32_t)off);
      return;
    }
    uint32_t lb = (uint32_t)(small / rho), mb = sqz__cdiv32(m, rho);
    uint32_t p[3] = {mb - 1u, lb / 2u, mb - lb + 1u}, o[3] = {(uint32_t)off, (uint32_t)off, 0};
    sqz__add(b, SQZ_SK_HAD, p, o, lb == 1 ? 1 : lb / 2u, lb == 1 ? mb : 2u * mb - lb + 1u, 1);
    off += small;
    m -= small;
  }
}

/* REC (docs/MAPS.md 1.7) in block units: top triangle floor(nb/2), bottom-right triangle floor(nb/2),
 * and the square of side ceil(nb/2) below the top one; leaves are filtered squares. */
static void sqz__rec2(sqz_plan_builder *b, uint32_t n, uint32_t rho, uint32_t nb, uint32_t x0, uint32_t y0,
                      uint32_t minb) {
  if (nb == 0) return;
  if (nb <= minb) {
    sqz__box2(b, n, rho, (uint64_t)x0 * rho, (uint64_t)y0 * rho, (uint64_t)nb * rho, (uint64_t)nb * rho);
    return;
  }
  uint32_t lo = nb / 2u, hi = nb - lo;
  sqz__rec2(b, n, rho, lo, x0, y0, minb);
  sqz__rec2(b, n, rho, lo, x0 + hi, y0 + hi, minb);
  sqz__box2(b, n, rho, (uint64_t)x0 * rho, (uint64_t)(y0 + lo) * rho, (uint64_t)hi * rho, (uint64_t)hi * rho);
}

static uint64_t sqz__launched(const sqz_simplex_plan *pl, size_t from) {
  uint64_t t = 0, r = pl->rho, rd = pl->dims == 2 ? r * r : r * r * r;
  for (size_t i = from; i < pl->count; i++)
    t += (uint64_t)pl->launch[i].grid[0] * pl->launch[i].grid[1] * pl->launch[i].grid[2] * rd;
  return t;
}

uint64_t sqz__simplex_plan_threads(const sqz_simplex_plan *plan) { return sqz__launched(plan, 0); }

/* "had": approach A or B, whichever launches fewer threads (a launch counts as 2^14 threads). */
static void sqz__had2_auto(sqz_plan_builder *b, uint32_t n, uint32_t rho) {
  sqz_simplex_plan *pl = b->plan;
  sqz__had2(b, n, rho, -1);
  uint64_t a = sqz__launched(pl, 0) + (1u << 14);
  size_t na = pl->count;
  sqz__had2(b, n, rho, rho);
  uint64_t bcost = sqz__launched(pl, na) + (uint64_t)(pl->count - na) * (1u << 14);
  if (b->oom) return;
  if (bcost < a) { /* keep B: move it to the front */
    memmove(pl->launch, pl->launch + na, (pl->count - na) * sizeof *pl->launch);
    pl->count -= na;
  } else {
    pl->count = na;
  }
  pl->kind_mask = 1u << SQZ_SK_HAD;
}

static int sqz__plan2(sqz_plan_builder *b, const char *map, uint32_t n, uint32_t rho, uint32_t rec_min) {
  uint32_t nb = sqz__cdiv32(n, rho);
  uint32_t zero[3] = {0, 0, 0};
  if (strcmp(map, "bb") == 0) {
    sqz__box2(b, n, rho, 0, 0, n, n);
  } else if (strcmp(map, "ltm") == 0) {
    uint32_t g = sqz__isqrt_ceil(sqz_tri(nb));
    uint32_t p[3] = {nb, g, 0};
    sqz__add(b, SQZ_SK_LTM, p, zero, g, g, 1);
  } else if (strcmp(map, "rb") == 0) {
    uint32_t p[3] = {sqz_fold_w(n), (uint32_t)sqz_fold_h(n), 0};
    sqz__add(b, SQZ_SK_RB, p, zero, sqz__cdiv32(p[0], rho), sqz__cdiv32(p[1], rho), 1);
  } else if (strcmp(map, "had") == 0) {
    sqz__had2_auto(b, n, rho);
  } else if (strcmp(map, "had-above") == 0) {
    sqz__had2(b, n, rho, -1);
  } else if (strcmp(map, "had-below") == 0) {
    sqz__had2(b, n, rho, rho);
  } else { /* rec */
    uint32_t minb = rec_min ? rec_min : (nb / 16u > 2u ? nb / 16u : 2u);
    sqz__rec2(b, n, rho, nb, 0, 0, minb);
  }
  return SQZ_OK;
}

/* ---- 3D ------------------------------------------------------------------------------------ */
static void sqz__box3(sqz_plan_builder *b, uint32_t n, uint32_t rho, const uint64_t o[3], uint64_t side) {
  uint32_t p[3], oo[3], g[3];
  for (int d = 0; d < 3; d++) {
    uint64_t s = o[d] + side > n ? n - o[d] : side;
    p[d] = (uint32_t)s;
    oo[d] = (uint32_t)o[d];
    g[d] = sqz__cdiv32(s, rho);
  }
  sqz__add(b, SQZ_SK_BOX3, p, oo, g[0], g[1], g[2]);
}

/* REC3 (docs/MAPS.md 2.5, arity 3) in block units for any nb: the filtered cube of side h = ceil(nb/2)
 * at the corner, then the corner sub-simplices of side nb - h at (h,0,0), (0,h,0), (0,0,h). */
static void sqz__rec3(sqz_plan_builder *b, uint32_t n, uint32_t rho, uint32_t nb, const uint32_t c[3],
                      uint32_t minb) {
  uint64_t o[3] = {(uint64_t)c[0] * rho, (uint64_t)c[1] * rho, (uint64_t)c[2] * rho};
  if (nb <= minb) {
    sqz__box3(b, n, rho, o, (uint64_t)nb * rho);
    return;
  }
  uint32_t h = nb - nb / 2u;
  sqz__box3(b, n, rho, o, (uint64_t)h * rho);
  for (int d = 0; d < 3; d++) {
    uint32_t s[3] = {c[0], c[1], c[2]};
    s[d] += h;
    sqz__rec3(b, n, rho, nb - h, s, minb);
  }
}

static uint32_t sqz__icbrt_ceil(uint64_t v) { /* ceil(cbrt(v)) */
  uint64_t c = (uint64_t)cbrt((double)v);
  while (c * c * c < v) c++;
  while (c > 0 && (c - 1u) * (c - 1u) * (c - 1u) >= v) c--;
  return (uint32_t)c;
}

static int sqz__plan3(sqz_plan_builder *b, const char *map, uint32_t n, uint32_t rho, uint32_t rec_min) {
  uint32_t nb = sqz__cdiv32(n, rho);
  uint32_t zero[3] = {0, 0, 0};
  if (strcmp(map, "bb") == 0) {
    uint64_t o[3] = {0, 0, 0};
    sqz__box3(b, n, rho, o, n);
  } else if (strcmp(map, "ltm3") == 0) {
    uint32_t c = sqz__icbrt_ceil(sqz_tet(nb));
    uint32_t p[3] = {nb, c, 0};
    sqz__add(b, SQZ_SK_LTM3, p, zero, c, c, c);
  } else if (strcmp(map, "had3") == 0) { /* next power of two from above (docs/MAPS.md 2.4) */
    uint32_t nbp = sqz_pow2ceil(nb);
    uint32_t p[3] = {nbp, 0, 0};
    if (nbp >= 2) sqz__add(b, SQZ_SK_HAD3, p, zero, nbp / 2u, nbp / 2u, nbp == 2 ? 1 : 3u * nbp / 4u);
    sqz__add(b, SQZ_SK_HAD3S, p, zero, nbp == 1 ? 1 : nbp / 2u, nbp == 1 ? 1 : nbp + 1u, 1);
  } else { /* rec3 */
    uint32_t minb = rec_min ? rec_min : (nb / 16u > 2u ? nb / 16u : 2u);
    sqz__rec3(b, n, rho, nb, zero, minb);
  }
  return SQZ_OK;
}

/* ---- entry points ------------------------------------------------------------------------- */
const char *sqz__simplex_default_map(int dims, uint64_t n) {
  if (dims == 2) return "had";
  /* had3 pads the block side up to a power of two: worth it only close below one */
  uint64_t nb = (n + 7u) / 8u;
  uint64_t p = sqz_pow2ceil((uint32_t)nb);
  return nb * 100u >= p * 80u ? "had3" : "ltm3";
}

int sqz__simplex_plan(sqz_context *ctx, int dims, uint64_t n, const char *map, uint32_t rho, uint32_t rec_min,
                      sqz_simplex_plan *out) {
  memset(out, 0, sizeof *out);
  if (dims != 2 && dims != 3)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "simplex maps exist in 2 or 3 dimensions, not %d", dims);
  uint64_t maxn = dims == 2 ? 0x80000000ull : 0x200000ull;
  if (n == 0 || n > maxn)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "simplex side %llu is outside 1..%llu", (unsigned long long)n,
                     (unsigned long long)maxn);
  if (!map || !*map) map = sqz__simplex_default_map(dims, n);
  int st = sqz__simplex_map_check(ctx, dims, map);
  if (st != SQZ_OK) return st;
  if (rho == 0) rho = sqz__simplex_default_rho(dims);
  if (rho > (dims == 2 ? 1024u : 64u))
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "block side rho = %u is too large for a %dD block", rho, dims);
  if (strncmp(map, "had", 3) == 0 && !sqz__pow2(rho))
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "block side rho = %u is not allowed by map %s (it needs a power of two)",
                     rho, map);
  out->dims = dims;
  out->n = (uint32_t)n; /* 2^31 still fits 32 bits */
  out->rho = rho;
  strncpy(out->map, map, sizeof out->map - 1);
  sqz_plan_builder b = {out, 0, 0};
  st = dims == 2 ? sqz__plan2(&b, map, out->n, rho, rec_min) : sqz__plan3(&b, map, out->n, rho, rec_min);
  if (st == SQZ_OK && b.oom) st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for a launch plan");
  if (st != SQZ_OK) sqz__simplex_plan_free(out);
  return st;
}

void sqz__simplex_plan_free(sqz_simplex_plan *plan) {
  if (!plan) return;
  free(plan->launch);
  plan->launch = NULL;
  plan->count = 0;
}
