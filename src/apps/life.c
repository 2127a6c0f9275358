/* life.c — Life-like rule strings, simplex map names, and the dispatch of life steps to families. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/stencil.h"
#include "core/registry.h"
#include "core/sqz_internal.h"

static int sqz__rule_err(char *err, size_t len, const char *fmt, const char *rule, long v) {
  if (err && len) snprintf(err, len, fmt, rule, v);
  return SQZ_ERR_PARSE;
}

/* Parses one list after 'B' or 'S' up to '/' or the end; advances *p. */
static int sqz__rule_list(const char *rule, const char **p, int maxc, uint32_t *mask, char *err, size_t len) {
  const char *s = *p;
  const char *end = s;
  while (*end && *end != '/') end++;
  int commas = memchr(s, ',', (size_t)(end - s)) != NULL;
  *mask = 0;
  while (s < end) {
    long v;
    if (!isdigit((unsigned char)*s))
      return sqz__rule_err(err, len, "rule '%s': unexpected character at position %ld", rule, (long)(s - rule) + 1);
    if (commas) {
      v = 0;
      while (s < end && isdigit((unsigned char)*s)) {
        v = v * 10 + (*s++ - '0');
        if (v > 1000) break;
      }
      if (s < end && *s != ',')
        return sqz__rule_err(err, len, "rule '%s': expected ',' at position %ld", rule, (long)(s - rule) + 1);
      if (s < end) {
        s++;
        if (s == end) return sqz__rule_err(err, len, "rule '%s': trailing ',' at position %ld", rule, (long)(s - rule));
      }
    } else {
      v = *s++ - '0';
    }
    if (v > maxc) {
      if (err && len)
        snprintf(err, len, "rule '%s': count %ld exceeds the %d neighbours of the %s Moore neighbourhood", rule, v, maxc,
                 maxc == 8 ? "2D" : "3D");
      return SQZ_ERR_PARSE;
    }
    *mask |= 1u << v;
  }
  *p = end;
  return SQZ_OK;
}

int sqz_rule_parse(const char *rule, int dims, uint32_t *birth, uint32_t *survive, char *err, size_t len) {
  if (err && len) err[0] = 0;
  if (dims != 2 && dims != 3) {
    if (err && len) snprintf(err, len, "rules exist for 2 or 3 dimensions, not %d", dims);
    return SQZ_ERR_INVALID_ARGUMENT;
  }
  if (!rule || !*rule) {
    if (err && len) snprintf(err, len, "empty rule (expected B<counts>/S<counts>, e.g. B3/S23)");
    return SQZ_ERR_PARSE;
  }
  int maxc = dims == 2 ? 8 : 26;
  uint32_t b = 0, s = 0;
  int have_b = 0, have_s = 0;
  const char *p = rule;
  for (int part = 0; part < 2; part++) {
    char c = (char)toupper((unsigned char)*p);
    if (c != 'B' && c != 'S')
      return sqz__rule_err(err, len, "rule '%s': expected 'B' or 'S' at position %ld (syntax B<counts>/S<counts>)", rule,
                           (long)(p - rule) + 1);
    if ((c == 'B' && have_b) || (c == 'S' && have_s))
      return sqz__rule_err(err, len, "rule '%s': '%c' given twice", rule, c);
    p++;
    int st = sqz__rule_list(rule, &p, maxc, c == 'B' ? &b : &s, err, len);
    if (st != SQZ_OK) return st;
    if (c == 'B') have_b = 1; else have_s = 1;
    if (part == 0) {
      if (*p != '/') return sqz__rule_err(err, len, "rule '%s': expected '/' at position %ld", rule, (long)(p - rule) + 1);
      p++;
    } else if (*p) {
      return sqz__rule_err(err, len, "rule '%s': unexpected text at position %ld", rule, (long)(p - rule) + 1);
    }
  }
  if (birth) *birth = b;
  if (survive) *survive = s;
  return SQZ_OK;
}

int sqz_field_set_map(sqz_field *f, const char *map) {
  if (!f) return SQZ_ERR_INVALID_ARGUMENT;
  if (!map || !*map) { f->map[0] = 0; return SQZ_OK; }
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) {
    int st = sqz__simplex_map_check(f->ctx, f->dom->dims, map);
    if (st == SQZ_OK) snprintf(f->map, sizeof f->map, "%s", map);
    return st;
  }
  if (strcmp(map, "bb") == 0 && f->layout == SQZ_LAYOUT_BB) { f->map[0] = 0; return SQZ_OK; }
  const sqz_map_info *m = sqz__map_find(map); /* the tile λ maps are those of one backend */
  const char *backend = sqz_context_backend(f->ctx);
  char maps[128], layouts[128];
  if (!m || !(m->families & SQZ_FAMILY_FRACTAL) || !m->backend) {
    sqz__layout_names(SQZ_FAMILY_FRACTAL, NULL, "|", "|", layouts, sizeof layouts);
    sqz__map_names(SQZ_FAMILY_FRACTAL, 2, backend, 1, ", ", " or ", maps, sizeof maps);
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "map '%s' does not apply to fractals: the layout (--layout %s) is the method; the tile lambda "
                     "maps on %s: %s", map, layouts, backend, *maps ? maps : "none");
  }
  if (strcmp(m->backend, backend) != 0 || f->layout == SQZ_LAYOUT_BB) {
    sqz__layout_names(SQZ_FAMILY_FRACTAL, "bb", ", ", " or ", layouts, sizeof layouts);
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "map '%s' (%s) needs the %s backend and layout %s, not %s on %s",
                     map, m->help, m->backend, layouts, f->layout_str, backend);
  }
  snprintf(f->map, sizeof f->map, "%s", m->is_default ? "" : map); /* the backend's default reads "" */
  return SQZ_OK;
}

const char *sqz_field_map(const sqz_field *f) { return f->map; }

static int sqz__life(sqz_field *f, sqz_update *u, uint64_t steps) {
  if (f->type != SQZ_U8)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "life needs a SQZ_U8 field (this one has %zu-byte cells)",
                     sqz_type_size(f->type));
  return sqz__stencil_run(f, u, steps);
}

int sqz_life_step(sqz_field *f, const char *rule, uint64_t steps) {
  if (!f) return SQZ_ERR_INVALID_ARGUMENT;
  sqz_update u = {.kind = SQZ_UPDATE_LIFE};
  char err[256];
  int st = sqz_rule_parse(rule ? rule : "B3/S23", f->dom->dims, &u.birth,
                          &u.survive, err, sizeof err);
  if (st != SQZ_OK) return sqz__fail(f->ctx, st, "%s", err);
  return sqz__life(f, &u, steps);
}

int sqz_life_step_custom(sqz_field *f, const char *cell_body, uint64_t steps) {
  if (!f || !cell_body || !*cell_body) return SQZ_ERR_INVALID_ARGUMENT;
  sqz_update u = {.kind = SQZ_UPDATE_LIFE_BODY};
  u.source = cell_body;
  return sqz__life(f, &u, steps);
}
