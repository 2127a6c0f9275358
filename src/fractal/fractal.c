/* fractal.c — parsing NBB fractal names and patterns into replica tables, the host membership test, and the fractal family's row. */
#include <stdio.h>
#include <string.h>

#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"

static const struct {
  const char *name, *pattern;
} sqz__known_fractals[] = {
    {"sierpinski-triangle", "#./##"},
    {"sierpinski-carpet", "###/#.#/###"},
    {"vicsek-cross", ".#./###/.#."},
    {"vicsek-saltire", "#.#/.#./#.#"},
};
#define SQZ__N_KNOWN (sizeof sqz__known_fractals / sizeof sqz__known_fractals[0])

/* Fills s, k, pattern, hl, hnu from the pattern text; errors name the bad row or character. */
static int sqz__parse_pattern(sqz_context *ctx, const char *text, sqz_fractal *fr) {
  size_t s = strcspn(text, "/"), y = 0;
  if (s < 2)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal pattern '%s': first row has %zu characters, need a side s >= 2",
                     text, s);
  if (s > SQZ_MAX_SCALE)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal pattern '%s': side %zu exceeds the largest supported scale %d",
                     text, s, SQZ_MAX_SCALE);
  int k = 0;
  for (const char *row = text;; y++) {
    size_t len = strcspn(row, "/");
    if (y == s)
      return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal pattern '%s' is not square: more than %zu rows", text, s);
    if (len != s)
      return sqz__fail(ctx, SQZ_ERR_PARSE,
                       "fractal pattern '%s' is not square: row %zu has %zu characters, expected %zu", text, y + 1,
                       len, s);
    for (size_t x = 0; x < s; x++) {
      char c = row[x];
      if (c != '#' && c != '.')
        return sqz__fail(ctx, SQZ_ERR_PARSE,
                         "fractal pattern '%s': character '%c' in row %zu, column %zu is neither '#' (replica) nor "
                         "'.' (hole)",
                         text, c, y + 1, x + 1);
      fr->pattern[y * s + x] = (char)(c == '#');
      fr->hnu[y * s + x] = c == '#' ? k : -1;
      if (c == '#') {
        fr->hl[2 * k] = (int)x;
        fr->hl[2 * k + 1] = (int)y;
        k++;
      }
    }
    if (!row[len]) break;
    row += len + 1;
  }
  if (y + 1 != s)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal pattern '%s' is not square: %zu rows of %zu characters", text,
                     y + 1, s);
  if (k == 0) return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal pattern '%s' has no replica ('#')", text);
  if ((size_t)k == s * s)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal pattern '%s' is all replicas: it needs at least one hole ('.')",
                     text);
  fr->s = (int)s;
  fr->k = k;
  return SQZ_OK;
}

/* Level R: decimal, >= 1, with s^R < 2^31 (kernels use 32-bit embedded coordinates) and k^R in 64 bits. */
static int sqz__parse_level(sqz_context *ctx, const char *text, sqz_fractal *fr, uint64_t *side, uint64_t *cells) {
  unsigned long r = 0;
  const char *p = text;
  if (!*p) return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal %s: missing level R after the last ':'", fr->name);
  for (; *p; p++) {
    if (*p < '0' || *p > '9')
      return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal %s: level '%s' is not a non-negative integer", fr->name, text);
    r = r * 10 + (unsigned long)(*p - '0');
    if (r > 64) break;
  }
  if (r == 0) return sqz__fail(ctx, SQZ_ERR_PARSE, "fractal %s: level '%s' must be >= 1", fr->name, text);
  uint64_t n = 1, c = 1;
  for (unsigned long i = 0; i < r; i++) {
    if (!sqz__checked_mul(n, (uint64_t)fr->s, &n) || n >= ((uint64_t)1 << 31))
      return sqz__fail(ctx, SQZ_ERR_TOO_LARGE,
                       "fractal %s: level %s is too large: the side %d^%s must stay below 2^31 (kernels use "
                       "32-bit embedded coordinates)",
                       fr->name, text, fr->s, text);
    if (!sqz__checked_mul(c, (uint64_t)fr->k, &c))
      return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "fractal %s: level %s is too large: %d^%s cells overflow 64 bits",
                       fr->name, text, fr->k, text);
  }
  fr->r = (int)r;
  *side = n;
  *cells = c;
  return SQZ_OK;
}

int sqz__fractal_parse(sqz_context *ctx, const char *name, const char *level_text, sqz_fractal *out,
                       uint64_t *side, uint64_t *cells) {
  sqz_fractal fr;
  memset(&fr, 0, sizeof fr);
  const char *pattern = NULL;
  for (size_t i = 0; i < SQZ__N_KNOWN; i++)
    if (strcmp(name, sqz__known_fractals[i].name) == 0) pattern = sqz__known_fractals[i].pattern;
  if (!pattern) {
    if (!*name || (!strchr(name, '/') && name[strspn(name, "#.")] != '\0'))
      return sqz__fail(ctx, SQZ_ERR_PARSE,
                       "unknown fractal '%s' (expected sierpinski-triangle, sierpinski-carpet, vicsek-cross, "
                       "vicsek-saltire, or a pattern such as '#./##')",
                       name);
    pattern = name;
  }
  int st = sqz__parse_pattern(ctx, pattern, &fr);
  if (st != SQZ_OK) return st;
  snprintf(fr.name, sizeof fr.name, "%s", name); /* fits: a valid pattern has at most s(s+1) - 1 characters */
  st = sqz__parse_level(ctx, level_text, &fr, side, cells);
  if (st == SQZ_OK) *out = fr;
  return st;
}

int sqz__fractal_member(const sqz_fractal *fr, uint64_t x, uint64_t y) {
  uint64_t n = 1;
  for (int i = 0; i < fr->r; i++) n *= (uint64_t)fr->s;
  if (x >= n || y >= n) return 0;
  return sqz_fr_contains((sqz_u32)fr->s, fr->hnu, (sqz_u32)fr->r, (sqz_u32)x, (sqz_u32)y);
}

/* fractal:NAME:R, arg being NAME:R (the level after the last colon). */
static int sqz__fractal_domain(sqz_context *ctx, const char *spec, const char *arg, sqz_domain *d) {
  const char *last = strrchr(spec, ':');
  if (last < arg) return sqz__fail(ctx, SQZ_ERR_PARSE, "domain '%s': expected fractal:NAME:R", spec);
  char name[300];
  size_t nl = (size_t)(last - arg);
  memcpy(name, arg, nl);
  name[nl] = 0;
  d->dims = 2;
  int st = sqz__fractal_parse(ctx, name, last + 1, &d->fr, &d->side, &d->cells);
  if (st == SQZ_OK) snprintf(d->spec, sizeof d->spec, "fractal:%s:%d", d->fr.name, d->fr.r);
  return st;
}

static int sqz__fractal_contains(const sqz_domain *dom, uint64_t x, uint64_t y, uint64_t z) {
  (void)z;
  return x < dom->side && y < dom->side && sqz__fractal_member(&dom->fr, x, y);
}

const sqz_family_ops sqz__fractal_family = {
    .parse = sqz__fractal_domain, .contains = sqz__fractal_contains,
    .parts_tables = sqz__fractal_parts_tables, .parts_halo = sqz__fractal_parts_halo,
    .parts_cells = sqz__fractal_parts_cells, .parts_tiles = sqz__fractal_parts_tiles};
