/* domain.c — parsing domain strings (triangle, tetrahedron, fractal), reference counting and domain queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"

/* Strict unsigned decimal: digits only, no sign, no overflow. */
static int sqz__parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s) return 0;
  uint64_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) return 0;
    v = v * 10 + d;
  }
  *out = v;
  return 1;
}

#define SQZ_TRIANGLE_MAX_N 2147483648ULL  /* 2^31: coordinates and neighbours fit 32 bits */
#define SQZ_TETRA_MAX_N 2097152ULL        /* 2^21: embedded indices fit 64 bits */

static int sqz__parse_simplex(sqz_context *ctx, const char *spec, const char *arg, sqz_domain *d) {
  uint64_t n = 0;
  int tri = d->kind == SQZ_DOMAIN_TRIANGLE;
  const char *what = tri ? "triangle" : "tetrahedron";
  if (!sqz__parse_u64(arg, &n))
    return sqz__fail(ctx, SQZ_ERR_PARSE, "domain '%s': size '%s' is not a positive integer", spec, arg);
  if (n == 0) return sqz__fail(ctx, SQZ_ERR_PARSE, "domain '%s': N must be at least 1 (got 0)", spec);
  uint64_t max = tri ? SQZ_TRIANGLE_MAX_N : SQZ_TETRA_MAX_N;
  if (n > max)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "domain '%s': N = %llu is too large for a %s (at most %llu)", spec,
                     (unsigned long long)n, what, (unsigned long long)max);
  d->dims = tri ? 2 : 3;
  d->side = n;
  d->cells = tri ? sqz_tri(n) : sqz_tet(n);
  snprintf(d->spec, sizeof d->spec, "%s:%llu", what, (unsigned long long)n);
  return SQZ_OK;
}

int sqz_domain_parse(sqz_context *ctx, const char *spec, sqz_domain **out) {
  if (!out) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "sqz_domain_parse: out is NULL");
  *out = NULL;
  if (!spec || !*spec) return sqz__fail(ctx, SQZ_ERR_PARSE, "empty domain string");
  if (strlen(spec) >= 300) return sqz__fail(ctx, SQZ_ERR_PARSE, "domain string too long (%zu characters)", strlen(spec));
  sqz_domain *d = sqz__calloc(1, sizeof *d);
  if (!d) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  d->ctx = ctx;
  int st;
  const char *colon = strchr(spec, ':');
  size_t head = colon ? (size_t)(colon - spec) : strlen(spec);
  if (head == 8 && strncmp(spec, "triangle", 8) == 0 && colon) {
    d->kind = SQZ_DOMAIN_TRIANGLE;
    st = sqz__parse_simplex(ctx, spec, colon + 1, d);
  } else if (head == 11 && strncmp(spec, "tetrahedron", 11) == 0 && colon) {
    d->kind = SQZ_DOMAIN_TETRAHEDRON;
    st = sqz__parse_simplex(ctx, spec, colon + 1, d);
  } else if (head == 7 && strncmp(spec, "fractal", 7) == 0 && colon) {
    const char *last = strrchr(spec, ':');
    if (last == colon) {
      st = sqz__fail(ctx, SQZ_ERR_PARSE, "domain '%s': expected fractal:NAME:R", spec);
    } else {
      char name[300];
      size_t nl = (size_t)(last - colon - 1);
      memcpy(name, colon + 1, nl);
      name[nl] = 0;
      d->kind = SQZ_DOMAIN_FRACTAL;
      d->dims = 2;
      st = sqz__fractal_parse(ctx, name, last + 1, &d->fr, &d->side, &d->cells);
      if (st == SQZ_OK) snprintf(d->spec, sizeof d->spec, "fractal:%s:%d", d->fr.name, d->fr.r);
    }
  } else {
    char kind[64];
    snprintf(kind, sizeof kind, "%.*s", (int)(head < 60 ? head : 60), spec);
    st = sqz__fail(ctx, SQZ_ERR_PARSE,
                   "domain '%s': unknown kind '%s' (expected triangle:N, tetrahedron:N or fractal:NAME:R)", spec,
                   kind);
  }
  if (st != SQZ_OK) {
    free(d);
    return st;
  }
  atomic_init(&d->refs, 1u);
  sqz_context_retain(ctx); /* the domain keeps its context alive (NULL: none) */
  *out = d;
  return SQZ_OK;
}

void sqz_domain_retain(sqz_domain *dom) {
  if (dom) atomic_fetch_add_explicit(&dom->refs, 1u, memory_order_relaxed);
}

void sqz_domain_release(sqz_domain *dom) {
  if (!dom || atomic_fetch_sub_explicit(&dom->refs, 1u, memory_order_acq_rel) != 1u) return;
  sqz_context *ctx = dom->ctx;
  free(dom);
  sqz_context_release(ctx);
}
/* The getters of a NULL domain give 0 and "" (include/sqz.h, "NULL handles"). */
sqz_domain_kind sqz_domain_get_kind(const sqz_domain *dom) { return dom ? dom->kind : (sqz_domain_kind)0; }
int sqz_domain_dims(const sqz_domain *dom) { return dom ? dom->dims : 0; }
uint64_t sqz_domain_cells(const sqz_domain *dom) { return dom ? dom->cells : 0; }
uint64_t sqz_domain_side(const sqz_domain *dom) { return dom ? dom->side : 0; }
const char *sqz_domain_spec(const sqz_domain *dom) { return dom ? dom->spec : ""; }

int sqz_domain_fractal_params(const sqz_domain *dom, int *s, int *k, int *r) {
  if (!dom || dom->kind != SQZ_DOMAIN_FRACTAL) return SQZ_ERR_INVALID_ARGUMENT;
  if (s) *s = dom->fr.s;
  if (k) *k = dom->fr.k;
  if (r) *r = dom->fr.r;
  return SQZ_OK;
}

int sqz_domain_contains(const sqz_domain *dom, uint64_t x, uint64_t y, uint64_t z) {
  if (!dom) return 0;
  uint64_t n = dom->side;
  switch (dom->kind) {
  case SQZ_DOMAIN_TRIANGLE: return x <= y && y < n;
  case SQZ_DOMAIN_TETRAHEDRON: return x < n && y < n && z < n && x + y + z <= n - 1;
  case SQZ_DOMAIN_FRACTAL: return x < n && y < n && sqz__fractal_member(&dom->fr, x, y);
  }
  return 0;
}
