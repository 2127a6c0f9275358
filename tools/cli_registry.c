/* cli_registry.c — the CLI's help lines, defaults and checks read from the library's layout and map registries. */
#include <string.h>

#include "cli_common.h"

/* "simplex, fractal", "2D", "fractal on opencl", ... */
static void sqz__scope(unsigned families, int dims, const char *backend, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = 0;
  if ((families & SQZ_FAMILY_SIMPLEX) && dims >= 0)
    at += (size_t)snprintf(buf + at, len - at, dims ? "%dD" : "2D 3D", dims);
  else if (families & SQZ_FAMILY_SIMPLEX)
    at += (size_t)snprintf(buf + at, len - at, "simplex");
  if ((families & SQZ_FAMILY_FRACTAL) && at < len)
    at += (size_t)snprintf(buf + at, len - at, "%sfractal", at ? ", " : "");
  if (backend && at < len) snprintf(buf + at, len - at, " on %s", backend);
}

void sqz_cli_help_layouts(FILE *out, const char *title, unsigned families, const char *except) {
  char scope[64];
  fprintf(out, "%s\n", title);
  for (size_t i = 0; i < sqz_layout_count(); i++) {
    if ((families && !(sqz_layout_families(i) & families)) || (except && strcmp(sqz_layout_name(i), except) == 0))
      continue;
    sqz__scope(sqz_layout_families(i), -1, NULL, scope, sizeof scope);
    fprintf(out, "  %-10s %-18s %s\n", sqz_layout_name(i), scope, sqz_layout_help(i));
  }
}

void sqz_cli_help_maps(FILE *out, const char *title, unsigned family, int dims, const char *backend, int only_backend) {
  char scope[64];
  fprintf(out, "%s\n", title);
  for (size_t i = 0; i < sqz_map_count(); i++) {
    if (!sqz_map_matches(i, family, dims, backend) || (only_backend && !sqz_map_backend(i))) continue;
    sqz__scope(sqz_map_family(i), sqz_map_dims(i), sqz_map_backend(i), scope, sizeof scope);
    fprintf(out, "  %-10s %-18s %s%s\n", sqz_map_name(i), scope, sqz_map_help(i),
            sqz_map_is_default(i) ? " (default)" : "");
  }
}

int sqz_cli_maps(unsigned family, int dims, const char *backend, int only_backend, const char **names, int max) {
  int n = 0;
  for (size_t i = 0; i < sqz_map_count() && n < max; i++)
    if (sqz_map_matches(i, family, dims, backend) && (!only_backend || sqz_map_backend(i))) names[n++] = sqz_map_name(i);
  return n;
}

int sqz_cli_map_in(const char *name, size_t len, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (strlen(names[i]) == len && strncmp(name, names[i], len) == 0) return 1;
  return 0;
}

int sqz_cli_map_default(const char *name) {
  for (size_t i = 0; i < sqz_map_count(); i++)
    if (strcmp(name, sqz_map_name(i)) == 0) return sqz_map_is_default(i);
  return 0;
}

double sqz_cli_cell_scale(const sqz_domain *dom, const char *layout) {
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(layout, "/"), layout);
  uint64_t cells = 0, bytes = 0;
  if (sqz_domain_layout_cells(dom, name, &cells) != SQZ_OK || sqz_domain_layout_bytes(dom, name, &bytes) != SQZ_OK ||
      cells == 0)
    return 1.0;
  return (double)bytes / (double)cells;
}

void sqz_cli_layouts(const sqz_domain *dom, int flags, char *buf, size_t len) {
  int s = 0, k = 0, r = 0, fractal = sqz_domain_fractal_params(dom, &s, &k, &r) == SQZ_OK;
  unsigned family = fractal ? SQZ_FAMILY_FRACTAL : SQZ_FAMILY_SIMPLEX;
  size_t at = 0;
  buf[0] = 0;
  for (size_t i = 0; i < sqz_layout_count() && at < len; i++) {
    const char *name = sqz_layout_name(i), *colon = strchr(name, ':');
    if (!(sqz_layout_families(i) & family)) continue;
    if (!colon) { /* a plain name */
      if (!(flags & SQZ_CLI_LAYOUTS_TILES)) at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", name);
      continue;
    }
    int j = 1; /* a pattern (block:RHO): RHO = s^j up to 32, j <= R unless for a benchmark */
    for (uint64_t rho = (uint64_t)s; fractal && rho <= 32 && at < len; rho *= (uint64_t)s, j++) {
      if ((flags & SQZ_CLI_LAYOUTS_BENCH) ? s == 2 && rho != 4 && rho != 16 : j > r) continue;
      at += (size_t)snprintf(buf + at, len - at, "%s%.*s%llu", at ? "," : "", (int)(colon - name + 1), name,
                             (unsigned long long)rho);
    }
  }
}
