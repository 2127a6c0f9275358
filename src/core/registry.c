/* registry.c — the layouts' rows (listed in src/layouts/layouts.c) and the one table of maps, read by the API, the checks, the messages and the CLI. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/registry.h"

#define SQZ_S SQZ_FAMILY_SIMPLEX
#define SQZ_F SQZ_FAMILY_FRACTAL

/* name, families, dims (0 = any), backend (NULL = any), default, help */
static const sqz_map_info sqz_maps[] = {
    {"bb", SQZ_S | SQZ_F, 0, NULL, 0, "bounding box, cells outside filtered (fractals: layout bb)"},
    {"ltm", SQZ_S, 2, NULL, 0, "linear index: blocks of the triangle through a square root"},
    {"rb", SQZ_S, 2, NULL, 0, "rectangular box: the triangle folded into a rectangle"},
    {"had", SQZ_S, 2, NULL, 1, "recursive orthotopes, O(1): from above or below, the cheaper"},
    {"had-above", SQZ_S, 2, NULL, 0, "had from the next power of two above: one launch"},
    {"had-below", SQZ_S, 2, NULL, 0, "had over the powers of two below N: a launch per part"},
    {"rec", SQZ_S, 2, NULL, 0, "recursive halves and squares: O(log N) launches"},
    {"ltm3", SQZ_S, 3, NULL, 1, "linear index: blocks of the tetrahedron through a cube root"},
    {"had3", SQZ_S, 3, NULL, 1, "recursive orthotopes, O(1), from the next power of two above"},
    {"rec3", SQZ_S, 3, NULL, 0, "a corner cube and three half tetrahedra, recursively"},
    {"seq", SQZ_F, 2, "opencl", 1, "tile lambda by a sequential digit loop"},
    {"group", SQZ_F, 2, "opencl", 0, "tile lambda group-parallel: a work-item per level, tree sum"},
    {"mma", SQZ_F, 2, "cuda", 1, "tile lambda and nu on int8 tensor cores"},
    {"alu", SQZ_F, 2, "cuda", 0, "tile lambda and nu by digit loops"},
};

#define SQZ_N_LAYOUTS ((size_t)SQZ_LAYOUT_COUNT)
#define SQZ_N_MAPS (sizeof sqz_maps / sizeof sqz_maps[0])

/* ---- layouts -------------------------------------------------------------------------------- */
size_t sqz_layout_count(void) { return SQZ_N_LAYOUTS; }
const char *sqz_layout_name(size_t i) { return i < SQZ_N_LAYOUTS ? sqz__layouts[i].name : NULL; }
unsigned sqz_layout_families(size_t i) { return i < SQZ_N_LAYOUTS ? sqz__layout_families(&sqz__layouts[i]) : 0u; }
const char *sqz_layout_help(size_t i) { return i < SQZ_N_LAYOUTS ? sqz__layouts[i].help : NULL; }

const sqz_layout_row *sqz__layout_find(const char *name) {
  for (size_t i = 0; name && i < SQZ_N_LAYOUTS; i++) {
    const char *colon = strchr(sqz__layouts[i].name, ':'); /* a pattern: its prefix names it */
    size_t len = colon ? (size_t)(colon - sqz__layouts[i].name) + 1 : strlen(sqz__layouts[i].name) + 1;
    if (strncmp(name, sqz__layouts[i].name, len) == 0) return &sqz__layouts[i];
  }
  return NULL;
}

/* ---- maps ------------------------------------------------------------------------------------ */
size_t sqz_map_count(void) { return SQZ_N_MAPS; }
const char *sqz_map_name(size_t i) { return i < SQZ_N_MAPS ? sqz_maps[i].name : NULL; }
unsigned sqz_map_family(size_t i) { return i < SQZ_N_MAPS ? sqz_maps[i].families : 0u; }
int sqz_map_dims(size_t i) { return i < SQZ_N_MAPS ? sqz_maps[i].dims : -1; }
const char *sqz_map_backend(size_t i) { return i < SQZ_N_MAPS ? sqz_maps[i].backend : NULL; }
int sqz_map_is_default(size_t i) { return i < SQZ_N_MAPS ? sqz_maps[i].is_default : 0; }
const char *sqz_map_help(size_t i) { return i < SQZ_N_MAPS ? sqz_maps[i].help : NULL; }

int sqz_map_matches(size_t i, unsigned family, int dims, const char *backend) {
  if (i >= SQZ_N_MAPS) return 0;
  const sqz_map_info *m = &sqz_maps[i];
  if (family && !(m->families & family)) return 0;
  if (dims && m->dims && m->dims != dims) return 0;
  return !backend || !m->backend || strcmp(m->backend, backend) == 0;
}

const sqz_map_info *sqz__map_find(const char *name) {
  for (size_t i = 0; name && i < SQZ_N_MAPS; i++)
    if (strcmp(name, sqz_maps[i].name) == 0) return &sqz_maps[i];
  return NULL;
}

/* ---- lists for messages and help ------------------------------------------------------------ */
typedef struct {
  unsigned families;
  int dims;
  const char *backend, *skip;
  int only_backend, maps; /* maps: filter sqz_maps, else sqz__layouts */
} sqz_filter;

static const char *sqz__kept(const sqz_filter *f, size_t i) {
  if (!f->maps) {
    const sqz_layout_row *l = &sqz__layouts[i];
    if ((f->families && !(sqz__layout_families(l) & f->families)) || (f->skip && strcmp(f->skip, l->name) == 0))
      return NULL;
    return l->name;
  }
  if (!sqz_map_matches(i, f->families, f->dims, f->backend)) return NULL;
  return f->only_backend && !sqz_maps[i].backend ? NULL : sqz_maps[i].name;
}

static int sqz__join(const sqz_filter *f, const char *sep, const char *last, char *buf, size_t len) {
  size_t count = f->maps ? SQZ_N_MAPS : SQZ_N_LAYOUTS, at = 0;
  int total = 0, n = 0, full = 0;
  for (size_t i = 0; i < count; i++) total += sqz__kept(f, i) != NULL;
  if (!buf) return len ? SQZ_ERR_INVALID_ARGUMENT : total;
  if (len) buf[0] = 0;
  for (size_t i = 0; i < count; i++) {
    const char *name = sqz__kept(f, i);
    if (!name) continue;
    const char *s = n == 0 ? "" : n == total - 1 ? last : sep;
    size_t ls = strlen(s), ln = strlen(name);
    n++;
    if (full || at + ls + ln >= len) {
      full = 1;
      continue;
    }
    memcpy(buf + at, s, ls);
    memcpy(buf + at + ls, name, ln + 1);
    at += ls + ln;
  }
  return full ? SQZ_ERR_TOO_LARGE : total;
}

int sqz__layout_names(unsigned families, const char *skip, const char *sep, const char *last, char *buf, size_t len) {
  sqz_filter f = {families, 0, NULL, skip, 0, 0};
  return sqz__join(&f, sep, last, buf, len);
}

int sqz__map_names(unsigned family, int dims, const char *backend, int only_backend, const char *sep, const char *last,
                   char *buf, size_t len) {
  sqz_filter f = {family, dims, backend, NULL, only_backend, 1};
  return sqz__join(&f, sep, last, buf, len);
}

int sqz_layout_list(unsigned families, char *buf, size_t len) {
  return sqz__layout_names(families, NULL, ", ", ", ", buf, len);
}

int sqz_map_list(unsigned family, int dims, const char *backend, char *buf, size_t len) {
  return sqz__map_names(family, dims, backend, 0, ", ", ", ", buf, len);
}

/* ---- simplex maps ---------------------------------------------------------------------------- */
static const char *sqz_simplex_lists[2][SQZ_N_MAPS + 1];
static pthread_once_t sqz_simplex_once = PTHREAD_ONCE_INIT;

static void sqz__simplex_lists_init(void) {
  for (int d = 0; d < 2; d++) {
    size_t n = 0;
    for (size_t i = 0; i < SQZ_N_MAPS; i++)
      if (sqz_map_matches(i, SQZ_FAMILY_SIMPLEX, d + 2, NULL)) sqz_simplex_lists[d][n++] = sqz_maps[i].name;
    sqz_simplex_lists[d][n] = NULL;
  }
}

const char *const *sqz__simplex_maps(int dims) {
  pthread_once(&sqz_simplex_once, sqz__simplex_lists_init);
  return sqz_simplex_lists[dims == 3];
}

int sqz__simplex_map_check(sqz_context *ctx, int dims, const char *map) {
  const sqz_map_info *m = sqz__map_find(map);
  if (m && (m->families & SQZ_FAMILY_SIMPLEX) && (!m->dims || m->dims == dims)) return SQZ_OK;
  char list[256], why[64] = "is unknown";
  sqz__map_names(SQZ_FAMILY_SIMPLEX, dims, NULL, 0, ", ", ", ", list, sizeof list);
  if (m && (m->families & SQZ_FAMILY_SIMPLEX))
    snprintf(why, sizeof why, "is a %dD map and the domain is %dD", m->dims, dims);
  else if (m)
    snprintf(why, sizeof why, "is a fractal map");
  return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "map '%s' %s (%dD maps: %s)", map, why, dims, list);
}
