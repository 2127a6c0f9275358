/* simplex_domain.c — triangle:N and tetrahedron:N: their parsing, their cells, and the simplex family's row. */
#include <stdio.h>

#include "simplex/simplex.h"

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

static int sqz__simplex_parse(sqz_context *ctx, const char *spec, const char *arg, sqz_domain *d) {
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

int sqz__simplex_contains(const sqz_domain *dom, uint64_t x, uint64_t y, uint64_t z) {
  uint64_t n = dom->side;
  if (dom->dims == 2) return x <= y && y < n;
  return x < n && y < n && z < n && x + y + z <= n - 1u;
}

/* Parts by bands: no tables, replicas or tiles. */
const sqz_family_ops sqz__simplex_family = {
    .parse = sqz__simplex_parse, .contains = sqz__simplex_contains, .parts_halo = sqz__simplex_parts_halo};
