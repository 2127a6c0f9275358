/* observe_parse.c — observable items from their text ("sum", "m2@Y,X", "probe@Z,Y,X", ...) and the values each gives. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"

static const struct {
  const char *name;
  sqz_observable_kind kind;
  int at; /* 1: takes @coordinates */
} obs_names[] = {{"sum", SQZ_OBS_SUM, 0}, {"nonzero", SQZ_OBS_NONZERO, 0}, {"min", SQZ_OBS_MIN, 0},
                 {"max", SQZ_OBS_MAX, 0}, {"com", SQZ_OBS_COM, 0},         {"m2", SQZ_OBS_M2, 1},
                 {"probe", SQZ_OBS_PROBE, 1}};

#define OBS_EXPECTED "sum, nonzero, min, max, com, m2@Y,X or probe@Y,X (3D: m2@Z,Y,X, probe@Z,Y,X)"

/* The comma-separated coordinates after '@' into v (the text's order): dims finite numbers, integers
 * when whole; how many were read, or -1 when one is malformed or there are more than 3. */
static int obs_coords(const char *p, int whole, double v[3]) {
  int n = 0;
  for (;;) {
    char *end = NULL;
    if (n == 3 || !*p || *p == ',' || *p == ' ' || *p == '\t') return -1;
    errno = 0;
    v[n] = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(v[n])) return -1;
    if (whole && (v[n] != floor(v[n]) || v[n] < 0 || strspn(p, "0123456789") != (size_t)(end - p))) return -1;
    n++;
    if (*end == 0) return n;
    if (*end != ',') return -1;
    p = end + 1;
  }
}

/* A probe's cell: a domain cell of dom, or SQZ_ERR_INVALID_ARGUMENT naming it. */
static int obs_probe_check(const sqz_domain *dom, const char *text, const sqz_observable *o) {
  const double lim = (double)dom->side;
  if (o->x < lim && o->y < lim && o->z < lim &&
      sqz_domain_contains(dom, (uint64_t)o->x, (uint64_t)o->y, (uint64_t)o->z))
    return SQZ_OK;
  return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "observable '%s': the cell is not a cell of %s", text, dom->spec);
}

int sqz_observable_parse(const sqz_domain *dom, const char *text, sqz_observable *out) {
  if (!dom || !text || !out) return sqz__fail(dom ? dom->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_observable_parse: NULL argument");
  const size_t len = strcspn(text, "@");
  for (size_t i = 0; i < sizeof obs_names / sizeof obs_names[0]; i++) {
    if (strlen(obs_names[i].name) != len || strncmp(obs_names[i].name, text, len) != 0) continue;
    memset(out, 0, sizeof *out);
    out->kind = obs_names[i].kind;
    if (!obs_names[i].at) {
      if (text[len]) break;
      return SQZ_OK;
    }
    double v[3] = {0, 0, 0};
    const int whole = out->kind == SQZ_OBS_PROBE;
    if (text[len] != '@' || obs_coords(text + len + 1, whole, v) != dom->dims)
      return sqz__fail(dom->ctx, SQZ_ERR_PARSE, "observable '%s': expected %s@%s (%s on %s)", text, obs_names[i].name,
                       dom->dims == 3 ? "Z,Y,X" : "Y,X", whole ? "non-negative integers" : "finite numbers",
                       dom->spec);
    out->x = v[dom->dims - 1]; /* written (z,) y, x */
    out->y = v[dom->dims - 2];
    out->z = dom->dims == 3 ? v[0] : 0.0;
    return whole ? obs_probe_check(dom, text, out) : SQZ_OK;
  }
  return sqz__fail(dom->ctx, SQZ_ERR_PARSE, "unknown observable '%s' (expected " OBS_EXPECTED ")", text);
}

size_t sqz_observable_width(const sqz_observable *item, int dims) {
  return !item ? 0u : item->kind == SQZ_OBS_COM ? (size_t)dims : 1u; /* NULL: the getters' neutral 0 */
}
