/* rule.c — Life-like rule strings (B3/S23, B3S23, Golly's 23/3, Generations B2/S/C3) parsed into birth and survival masks: sqz_rule_parse_states, sqz_rule_parse. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sqz_internal.h"

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
  va_list ap;
  va_start(ap, fmt);
  if (r->err && r->len) sqz__vappend(r->err, r->len, snprintf(r->err, r->len, "rule '%s': ", r->rule), fmt, ap);
  va_end(ap);
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
