/* life.c — Life-like rule strings, simplex map names, the dispatch of life steps to families, and the check of a state's cells. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/stencil.h"
#include "core/reduce_acc.h"
#include "core/registry.h"
#include "core/sqz_internal.h"
#include "io/image_rows.h"

/* A rule being parsed: the text, the dimension, and where messages go. */
typedef struct {
  const char *rule;
  int dims, maxc; /* maxc: cells of the Moore neighbourhood, 8 or 26 */
  char *err;
  size_t len;
} sqz_rule_scan;

/* Writes "rule '<rule>': <message>" to the error buffer; returns SQZ_ERR_PARSE. */
static int sqz__rule_err(const sqz_rule_scan *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sqz__rule_err(const sqz_rule_scan *r, const char *fmt, ...) {
  if (r->err && r->len) {
    int k = snprintf(r->err, r->len, "rule '%s': ", r->rule);
    if (k >= 0 && (size_t)k < r->len) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(r->err + k, r->len - (size_t)k, fmt, ap);
      va_end(ap);
    }
  }
  return SQZ_ERR_PARSE;
}

/* 1-based position of p in the rule, for messages. */
static long sqz__rule_pos(const sqz_rule_scan *r, const char *p) { return (long)(p - r->rule) + 1; }

/* Refuses a 3D list of several digits without commas ("B27": 2 and 7, or 27?), suggesting the comma
 * form built from its digits. part..end is the part as written, letter included. */
static int sqz__rule_ambiguous(const sqz_rule_scan *r, const char *part, const char *end) {
  char sugg[64];
  size_t k = 0;
  sugg[k++] = part[0];
  for (const char *q = part + 1; q < end && k + 3 < sizeof sugg; q++) {
    if (q > part + 1) sugg[k++] = ',';
    sugg[k++] = *q;
  }
  sugg[k] = 0;
  return sqz__rule_err(r,
                       "'%.*s' is ambiguous in 3D, where counts reach 26: separate the counts with commas (%s); a "
                       "single count of 10 or more takes a trailing comma (%c14,)",
                       (int)(end - part), part, sugg, part[0]);
}

/* Parses the counts in [s, end) into *mask: one digit per count, or comma-separated integers (one
 * integer with a trailing comma, "14,", is the lone count 14). part..end is the part as written
 * ("B27", or "23" in the S/B form), for messages. */
static int sqz__rule_list(const sqz_rule_scan *r, const char *part, const char *s, const char *end, uint32_t *mask) {
  int commas = memchr(s, ',', (size_t)(end - s)) != NULL, n = 0;
  *mask = 0;
  for (const char *q = s; q < end; q++)
    if (!isdigit((unsigned char)*q) && *q != ',')
      return sqz__rule_err(r, "unexpected character '%c' at position %ld", *q, sqz__rule_pos(r, q));
  if (!commas && r->dims == 3 && end - s > 1) return sqz__rule_ambiguous(r, part, end);
  for (; s < end; n++) {
    const char *num = s;
    long v = 0;
    if (!commas) {
      v = *s++ - '0';
    } else {
      for (; s < end && isdigit((unsigned char)*s); s++)
        if (v <= 1000) v = v * 10 + (*s - '0'); /* larger: refused below, named as written */
      if (s == num) return sqz__rule_err(r, "expected a count at position %ld", sqz__rule_pos(r, s));
    }
    int num_len = (int)(s - num);
    if (commas && s < end && ++s == end && n > 0)
      return sqz__rule_err(r, "trailing ',' at position %ld", sqz__rule_pos(r, s - 1));
    if (v > r->maxc)
      return sqz__rule_err(r, "count %.*s in '%.*s' exceeds the %d neighbours of the %dD Moore neighbourhood",
                           num_len, num, (int)(end - part), part, r->maxc, r->dims);
    *mask |= 1u << v;
  }
  return SQZ_OK;
}

/* The number of states of a Generations rule, the digits in [s, end) (part: the text as written, for
 * messages): 2 to 256, the states a u8 cell holds. */
static int sqz__rule_states(const sqz_rule_scan *r, const char *part, const char *s, const char *end, uint32_t *c) {
  long v = 0;
  if (s == end)
    return sqz__rule_err(r, "expected the number of states at position %ld (Generations: B2/S/C3 or /2/3)",
                         sqz__rule_pos(r, s));
  for (const char *q = s; q < end; q++) {
    if (!isdigit((unsigned char)*q))
      return sqz__rule_err(r, "unexpected character '%c' at position %ld", *q, sqz__rule_pos(r, q));
    if (v <= 1000) v = v * 10 + (*q - '0');
  }
  if (v < 2 || v > 256)
    return sqz__rule_err(r, "'%.*s': a Generations rule has 2 to 256 states (u8 cells)", (int)(end - part), part);
  *c = (uint32_t)v;
  return SQZ_OK;
}

/* Golly's digits-only form S/B ("23/3": survival on 2 or 3, birth on 3) and S/B/C (Generations,
 * "345/2/4"), 2D only. */
static int sqz__rule_sb(const sqz_rule_scan *r, uint32_t *b, uint32_t *s, uint32_t *c) {
  const char *rule = r->rule, *end = rule + strlen(rule), *slash = strchr(rule, '/');
  const char *slash2 = slash ? strchr(slash + 1, '/') : NULL;
  if (r->dims != 2)
    return sqz__rule_err(r, "the digits-only S/B form (Golly's 23/3) is for 2D rules; in 3D write "
                            "B<counts>/S<counts> with comma-separated counts (B6/S5,6,7)");
  if (!slash)
    return sqz__rule_err(r, "expected '/' at position %ld (the S/B form is survival/birth digits, e.g. 23/3)",
                         sqz__rule_pos(r, end));
  for (const char *q = rule; q < end; q++)
    if (!isdigit((unsigned char)*q) && q != slash && q != slash2)
      return sqz__rule_err(r, "unexpected character '%c' at position %ld (the S/B form has digits only, e.g. 23/3)",
                           *q, sqz__rule_pos(r, q));
  int st = sqz__rule_list(r, rule, rule, slash, s);
  if (st == SQZ_OK) st = sqz__rule_list(r, slash + 1, slash + 1, slash2 ? slash2 : end, b);
  return st != SQZ_OK || !slash2 ? st : sqz__rule_states(r, slash2 + 1, slash2 + 1, end, c);
}

/* 1 when c starts the states part of the B/S form: C (Golly's Generations) or G. */
static int sqz__rule_cpart(char c) { return toupper((unsigned char)c) == 'C' || toupper((unsigned char)c) == 'G'; }

/* B<counts>/S<counts> in either order, the '/' optional (B3S23), letters in any case, then for
 * Generations the number of states /C<n> (or G<n>): B2/S/C3. */
static int sqz__rule_bs(const sqz_rule_scan *r, uint32_t *b, uint32_t *s, uint32_t *states) {
  const char *p = r->rule;
  char first = 0;
  for (int part = 0; part < 2; part++) {
    char c = (char)toupper((unsigned char)*p);
    char want = first == 'B' ? 'S' : 'B';
    if (part == 1 && c == first) return sqz__rule_err(r, "'%c' given twice (position %ld)", c, sqz__rule_pos(r, p));
    if (part == 1 && *p == 0)
      return sqz__rule_err(r, "missing the %c part (e.g. B3/S23)", want);
    if (c != 'B' && c != 'S')
      return part == 0 ? sqz__rule_err(r, "expected 'B' or 'S' at position %ld (forms: B3/S23, B3S23, 23/3)",
                                       sqz__rule_pos(r, p))
                       : sqz__rule_err(r, "expected '%c' at position %ld", want, sqz__rule_pos(r, p));
    const char *end = p + 1;
    while (*end && *end != '/' && toupper((unsigned char)*end) != 'B' && toupper((unsigned char)*end) != 'S' &&
           !sqz__rule_cpart(*end))
      end++;
    int st = sqz__rule_list(r, p, p + 1, end, c == 'B' ? b : s);
    if (st != SQZ_OK) return st;
    first = c;
    p = end;
    if (part == 0 && *p == '/') p++;
  }
  if (*p == '/' && sqz__rule_cpart(p[1])) p++;
  if (sqz__rule_cpart(*p)) return sqz__rule_states(r, p, p + 1, p + strlen(p), states);
  if (*p) return sqz__rule_err(r, "unexpected text '%s' at position %ld", p, sqz__rule_pos(r, p));
  return SQZ_OK;
}

int sqz_rule_parse_states(const char *rule, int dims, uint32_t *birth, uint32_t *survive, uint32_t *states, char *err,
                          size_t len) {
  if (err && len) err[0] = 0;
  if (dims != 2 && dims != 3) {
    if (err && len) snprintf(err, len, "rules exist for 2 or 3 dimensions, not %d", dims);
    return SQZ_ERR_INVALID_ARGUMENT;
  }
  if (!rule || !*rule) {
    if (err && len) snprintf(err, len, "empty rule (expected B<counts>/S<counts>, e.g. B3/S23)");
    return SQZ_ERR_PARSE;
  }
  sqz_rule_scan r = {rule, dims, dims == 2 ? 8 : 26, err, len};
  uint32_t b = 0, s = 0, c = 2;
  int st = isdigit((unsigned char)rule[0]) || rule[0] == '/' ? sqz__rule_sb(&r, &b, &s, &c) : sqz__rule_bs(&r, &b, &s, &c);
  if (st != SQZ_OK) return st;
  if (birth) *birth = b;
  if (survive) *survive = s;
  if (states) *states = c;
  return SQZ_OK;
}

int sqz_rule_parse(const char *rule, int dims, uint32_t *birth, uint32_t *survive, char *err, size_t len) {
  uint32_t c = 2;
  int st = sqz_rule_parse_states(rule, dims, birth, survive, &c, err, len);
  if (st == SQZ_OK && c > 2) {
    sqz_rule_scan r = {rule, dims, dims == 2 ? 8 : 26, err, len};
    return sqz__rule_err(&r, "a Generations rule of %u states, which sqz_rule_parse_states reads", c);
  }
  return st;
}

static int sqz__set_map(sqz_field *f, const char *map) {
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

int sqz_field_set_map(sqz_field *f, const char *map) {
  if (!f) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_set_map");
  sqz__lock(f->ctx); /* a step on another thread reads the map */
  int st = sqz__set_map(f, map);
  sqz__unlock(f->ctx);
  return st;
}

const char *sqz_field_map(const sqz_field *f) { return f ? f->map : ""; }

const char *sqz_field_map_resolved(const sqz_field *f) {
  if (!f) return "";
  if (f->map[0]) return f->map;
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) return sqz_simplex_default_map(f->dom->dims, f->dom->side);
  if (f->layout == SQZ_LAYOUT_BB) return "bb"; /* the bounding-box launch: no tile map */
  const char *backend = sqz_context_backend(f->ctx);
  for (size_t i = 0; i < sqz_map_count(); i++) /* the backend's default tile map */
    if (sqz_map_is_default(i) && sqz_map_matches(i, SQZ_FAMILY_FRACTAL, 2, backend) && sqz_map_backend(i))
      return sqz_map_name(i);
  return "none";
}

static int sqz__life_type(sqz_field *f) {
  if (f->type != SQZ_U8)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "life needs a SQZ_U8 field (this one has %zu-byte cells)",
                     sqz_type_size(f->type));
  return SQZ_OK;
}

int sqz__life_update(sqz_field *f, const char *rule, sqz_update *u) {
  if (!f) return sqz__null_arg(f ? f->ctx : NULL, "sqz_life_step");
  memset(u, 0, sizeof *u);
  u->kind = SQZ_UPDATE_LIFE;
  char err[256];
  if (!rule) rule = f->dom->dims == 3 ? "B6/S5,6,7" : "B3/S23"; /* the default rule of each dimension */
  int st = sqz_rule_parse_states(rule, f->dom->dims, &u->birth, &u->survive, &u->states, err, sizeof err);
  if (st != SQZ_OK) return sqz__fail(f->ctx, st, "%s", err);
  if ((st = sqz__life_type(f)) != SQZ_OK) return st;
  if (u->states > 2 && f->layout == SQZ_LAYOUT_BITS)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "rule '%s' has %u states and layout bits holds one bit a cell "
                     "(0 or 1): a Generations rule needs a layout of u8 cells", rule, u->states);
  return SQZ_OK;
}

int sqz_life_step(sqz_field *f, const char *rule, uint64_t steps) {
  sqz_update u;
  int st = sqz__life_update(f, rule, &u);
  return st == SQZ_OK ? sqz__stencil_run(f, &u, steps, NULL) : st;
}

int sqz_life_step_custom(sqz_field *f, const char *cell_body, uint64_t steps) {
  if (!f || !cell_body || !*cell_body) return sqz__null_arg(f ? f->ctx : NULL, "sqz_life_step_custom");
  sqz_update u = {.kind = SQZ_UPDATE_LIFE_BODY};
  u.source = cell_body;
  int st = sqz__life_type(f);
  return st == SQZ_OK ? sqz__stencil_run(f, &u, steps, NULL) : st;
}

/* Checked once (after a load), never in a step: one device reduction counts the cells above 1; only
 * a state that has some is read back, in bands of image rows, to name the first above the rule's
 * last state. */
int sqz_life_check_rule(sqz_field *f, const char *rule) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_life_check: the field is NULL");
  sqz_update u;
  int st = sqz__life_update(f, rule, &u);
  if (st != SQZ_OK || f->layout == SQZ_LAYOUT_BITS) return st; /* bits: one bit a cell */
  uint64_t above = 0;
  if ((st = sqz__field_count_op(f, SQZ_RED_ABOVE1, &above)) != SQZ_OK || above == 0) return st;
  sqz_image im;
  uint64_t x = 0, y = 0, z = 0;
  unsigned value = 0, states = u.states > 2 ? u.states : 2;
  if ((st = sqz__image_open(f, "sqz_life_check", SQZ_IMAGE_SAVE, &im)) != SQZ_OK) return st;
  int found = sqz__image_find_above(&im, states - 1, &x, &y, &z, &value, &st);
  sqz__image_close(&im);
  return st == SQZ_OK && found ? sqz__states_fail(f, NULL, x, y, z, value, rule, states) : st;
}

int sqz_life_check(sqz_field *f) { return sqz_life_check_rule(f, NULL); }
