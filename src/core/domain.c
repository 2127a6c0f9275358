/* domain.c — domain strings (triangle, tetrahedron, fractal) to their family's row, reference counting and domain queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"

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
  if (head == 8 && strncmp(spec, "triangle", 8) == 0 && colon) d->kind = SQZ_DOMAIN_TRIANGLE;
  else if (head == 11 && strncmp(spec, "tetrahedron", 11) == 0 && colon) d->kind = SQZ_DOMAIN_TETRAHEDRON;
  else if (head == 7 && strncmp(spec, "fractal", 7) == 0 && colon) d->kind = SQZ_DOMAIN_FRACTAL;
  if (d->kind) { /* the family's row parses the rest */
    st = sqz__family_of(d)->parse(ctx, spec, colon + 1, d);
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
  return dom ? sqz__family_of(dom)->contains(dom, x, y, z) : 0;
}
