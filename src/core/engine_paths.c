/* engine_paths.c — one choice of an engine path per field, update and step count: the backend's rows tried in order (or the one option engine names), the choice and its plan kept in the field, the reasons reported. */
#include "core/engine_paths.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/engine_report.h"

#define SQZ_PATH_STEPS_CLASS 9u /* step counts above choose as this one: every check compares steps with at most 8 */
/* Choices a field keeps, the oldest replaced: updates and step counts, and its parts on up to 8 devices, each
 * stepping single steps and chunks (2 keys a device), without one evicting another. */
#define SQZ_PATH_SLOTS 16u

/* What a choice depends on besides the field's domain, type and layout, which never change. */
typedef struct {
  const sqz_context *ctx; /* the device: a part's on several devices */
  uint64_t ctx_gen, field_gen, update, steps;
  uint32_t block, parted;
  char map[16];
} sqz_path_key;

typedef struct {
  int used;
  const sqz_path_row *row; /* NULL: none applied, the step fails with st and why */
  sqz_path_key key;
  sqz_path_plan plan;
  int st;
  char skipped[1024]; /* the rows tried before it, "path: reason" a line */
  char why[1536];
} sqz_path_choice;

struct sqz_engine_cache {
  sqz_path_choice slot[SQZ_PATH_SLOTS];
  unsigned next;
  uint64_t selections;
};

const char *sqz__path_why(const char *fmt, ...) {
  static _Thread_local char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

static uint64_t sqz__path_fnv(uint64_t h, const void *p, size_t n) {
  for (const unsigned char *b = p; n--; b++) h = (h ^ *b) * 1099511628211ull;
  return h;
}

/* The update's identity: its kind, rule, function and source (parameters change no choice). */
static uint64_t sqz__path_update_id(const sqz_update *u) {
  uint32_t w[4] = {(uint32_t)u->kind, u->birth, u->survive, u->states};
  uint64_t h = sqz__path_fnv(14695981039346656037ull, w, sizeof w);
  h = sqz__path_fnv(h, &u->fn, sizeof u->fn);
  if (u->source) h = sqz__path_fnv(h, u->source, strlen(u->source) + 1);
  return u->source_name ? sqz__path_fnv(h, u->source_name, strlen(u->source_name) + 1) : h;
}

static void sqz__path_key(const sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_key *k) {
  memset(k, 0, sizeof *k); /* padding too: keys compare with memcmp */
  k->ctx = f->ctx;
  k->ctx_gen = f->ctx->opts.gen;
  k->field_gen = f->opts ? f->opts->gen : 0;
  k->update = sqz__path_update_id(u);
  k->steps = steps < SQZ_PATH_STEPS_CLASS ? steps : SQZ_PATH_STEPS_CLASS;
  k->block = f->block;
  k->parted = f->part != NULL;
  snprintf(k->map, sizeof k->map, "%s", f->map);
}

/* The SQZ_PATH_* bits of f's family and layout. */
static unsigned sqz__path_bits(const sqz_field *f) {
  static const unsigned layouts[SQZ_LAYOUT_COUNT] = {[SQZ_LAYOUT_BB] = SQZ_PATH_BB,
                                                     [SQZ_LAYOUT_COMPACT] = SQZ_PATH_COMPACT,
                                                     [SQZ_LAYOUT_LAMBDA] = SQZ_PATH_LAMBDA,
                                                     [SQZ_LAYOUT_BLOCK] = SQZ_PATH_BLOCK,
                                                     [SQZ_LAYOUT_BITS] = SQZ_PATH_BITS};
  unsigned fam = f->dom->kind == SQZ_DOMAIN_FRACTAL ? SQZ_PATH_FRACTAL
                 : f->dom->dims == 3               ? SQZ_PATH_TETRAHEDRON
                                                   : SQZ_PATH_TRIANGLE;
  return fam | layouts[f->layout];
}

static int sqz__path_steps_field(const sqz_path_row *row, unsigned bits) {
  return (row->fields & bits & SQZ_PATH_FAMILIES) && (row->fields & bits & ~(unsigned)SQZ_PATH_FAMILIES);
}

static void sqz__path_drop(const sqz_path_row *row, sqz_path_plan *plan) {
  if (row && row->drop) row->drop(plan);
  else free(plan->data);
  memset(plan, 0, sizeof *plan);
}

static const char *sqz__engine_option(const sqz_field *f) {
  const char *t = sqz__opt_text(NULL, f, SQZ_OPT_ENGINE);
  return t && strcmp(t, "fast") != 0 && strcmp(t, "generic") != 0 ? t : NULL;
}

int sqz__engine_forced(const sqz_field *f, const char *name) {
  const char *t = sqz__engine_option(f);
  return t && strcmp(t, name) == 0;
}

/* Row r's check for f: NULL (it applies, its plan in c->plan) or why not; c->plan.st set on a failure. */
static const char *sqz__path_check(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_row *r,
                                   sqz_path_choice *c) {
  memset(&c->plan, 0, sizeof c->plan);
  const char *why = r->applies ? r->applies(f, u, steps, &c->plan) : NULL;
  int st = c->plan.st;
  if (why || st != SQZ_OK) sqz__path_drop(r, &c->plan);
  c->plan.st = st;
  return why;
}

/* The rows of f's backend in order: the first that steps f and applies, into c. */
static void sqz__path_first(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_table *t,
                            sqz_path_choice *c) {
  unsigned bits = sqz__path_bits(f);
  size_t at = 0;
  for (size_t i = 0; i < t->n; i++) {
    const sqz_path_row *r = &t->rows[i];
    if (!sqz__path_steps_field(r, bits)) continue;
    const char *why = sqz__path_check(f, u, steps, r, c);
    if (c->plan.st != SQZ_OK) { /* the detail is the failure's */
      c->st = c->plan.st;
      return;
    }
    if (!why) {
      c->row = r;
      return;
    }
    at += (size_t)snprintf(c->skipped + at, sizeof c->skipped - at, "%s: %s\n", r->name, why);
    at = at < sizeof c->skipped ? at : sizeof c->skipped - 1;
  }
  c->st = SQZ_ERR_UNSUPPORTED;
  at = (size_t)snprintf(c->why, sizeof c->why, "%s: no engine path of the %s backend applies (", f->dom->spec,
                        f->ctx->ops->name);
  for (const char *p = c->skipped; *p && at + 3 < sizeof c->why; p++) { /* the lines as "; "-separated reasons */
    if (*p != '\n') c->why[at++] = *p;
    else if (p[1]) at += (size_t)snprintf(c->why + at, sizeof c->why - at, "; ");
  }
  snprintf(c->why + at, sizeof c->why - at, ")");
}

/* "fractals, triangles in layouts compact, bb": the fields of mask m. */
static const char *sqz__path_fields(unsigned m) {
  static const char *const names[] = {"fractals", "triangles", "tetrahedra", "bb", "compact", "lambda", "block", "bits"};
  static const unsigned bit[] = {SQZ_PATH_FRACTAL, SQZ_PATH_TRIANGLE, SQZ_PATH_TETRAHEDRON, SQZ_PATH_BB,
                                 SQZ_PATH_COMPACT, SQZ_PATH_LAMBDA,  SQZ_PATH_BLOCK,       SQZ_PATH_BITS};
  static _Thread_local char buf[128];
  size_t at = 0;
  int layouts = __builtin_popcount(m & ~(unsigned)SQZ_PATH_FAMILIES);
  for (int i = 0, n = 0; i < 8; i++) {
    if (i == 3) n = 0;
    if (m & bit[i])
      at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", n++ ? ", " : i < 3 ? "" : layouts > 1 ? " in layouts " : " in layout ",
                             names[i]);
  }
  return buf;
}

/* Why row `name` steps no field like f, or NULL when it does (it may still not apply). */
static const char *sqz__path_foreign(const sqz_field *f, const sqz_path_table *t, const char *name,
                                     const sqz_path_row **row) {
  *row = NULL;
  for (size_t i = 0; i < t->n && !*row; i++)
    if (strcmp(t->rows[i].name, name) == 0) *row = &t->rows[i];
  for (const sqz_backend_ops *const *b = sqz__backends; !*row && *b; b++)
    for (size_t i = 0; i < (*b)->paths->n; i++)
      if (strcmp((*b)->paths->rows[i].name, name) == 0)
        return sqz__path_why("it is a path of the %s backend, and this field is on %s", (*b)->name, f->ctx->ops->name);
  if (!*row) return "no backend has a path of this name";
  if (sqz__path_steps_field(*row, sqz__path_bits(f))) return NULL;
  return sqz__path_why("it steps %s; this field is %s in layout %s", sqz__path_fields((*row)->fields), f->dom->spec,
                       f->layout_str);
}

/* The row option engine names, into c (INVALID_ARGUMENT where it does not apply). */
static void sqz__path_named(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_table *t,
                            const char *name, sqz_path_choice *c) {
  const sqz_path_row *r;
  const char *why = sqz__path_foreign(f, t, name, &r);
  if (!why) why = sqz__path_check(f, u, steps, r, c);
  if (c->plan.st != SQZ_OK) {
    c->st = c->plan.st;
  } else if (why) { /* a part's chunk of several steps: the parts step one at a time instead */
    c->st = f->part && steps > 1 ? SQZ_ERR_UNSUPPORTED : SQZ_ERR_INVALID_ARGUMENT;
    snprintf(c->why, sizeof c->why, "engine path %s does not apply: %s", name, why);
  } else {
    c->row = r;
  }
}

/* The kept choice for key k, or a slot to make it in (its old plan dropped). */
static sqz_path_choice *sqz__path_slot(struct sqz_engine_cache *cache, const sqz_path_key *k, int *hit) {
  for (unsigned i = 0; i < SQZ_PATH_SLOTS; i++)
    if (cache->slot[i].used && memcmp(&cache->slot[i].key, k, sizeof *k) == 0) {
      *hit = 1;
      return &cache->slot[i];
    }
  sqz_path_choice *c = &cache->slot[cache->next++ % SQZ_PATH_SLOTS];
  if (c->used) sqz__path_drop(c->row, &c->plan);
  memset(c, 0, sizeof *c);
  *hit = 0;
  return c;
}

/* The report's skipped list from c's lines "path: reason". */
static void sqz__path_report(sqz_field *f, const sqz_path_choice *c) {
  char name[64];
  for (const char *p = c->skipped; *p;) {
    size_t n = strcspn(p, "\n"), at = strcspn(p, ":");
    if (at + 2 <= n && at < sizeof name) {
      snprintf(name, sizeof name, "%.*s", (int)at, p);
      sqz__engine_skip(f, name, "%.*s", (int)(n - at - 2), p + at + 2);
    }
    p += n + (p[n] == '\n');
  }
}

int sqz__engine_step(sqz_field *f, const sqz_update *u, uint64_t steps) {
  const sqz_path_table *t = f->ctx->ops->paths;
  sqz_path_choice local, *c = &local;
  sqz_path_key k;
  int hit = 0;
  sqz__path_key(f, u, steps, &k);
  if (f->sel) c = sqz__path_slot(f->sel, &k, &hit);
  else memset(c, 0, sizeof *c);
  if (!hit) {
    const char *name = sqz__engine_option(f);
    c->key = k;
    c->used = 1;
    if (f->sel) f->sel->selections++;
    if (name) sqz__path_named(f, u, steps, t, name, c);
    else sqz__path_first(f, u, steps, t, c);
  }
  if (!c->row && c->plan.st != SQZ_OK) { /* a failure, not a reason: not kept, its detail recorded */
    c->used = 0;
    return c->st;
  }
  if (!c->row) return sqz__fail(f->ctx, c->st, "%s", c->why);
  sqz__path_report(f, c);
  int st = c->row->run(f, u, steps, &c->plan);
  if (st == SQZ_OK) sqz__engine_ran(f, c->row->name);
  if (c == &local) sqz__path_drop(c->row, &c->plan);
  return st;
}

struct sqz_engine_cache *sqz__engine_cache_new(void) { return sqz__calloc(1, sizeof(struct sqz_engine_cache)); }

void sqz__engine_cache_free(struct sqz_engine_cache *c) {
  for (unsigned i = 0; c && i < SQZ_PATH_SLOTS; i++)
    if (c->slot[i].used) sqz__path_drop(c->slot[i].row, &c->slot[i].plan);
  free(c);
}

uint64_t sqz__engine_selections(const sqz_field *f) { return f && f->sel ? f->sel->selections : 0; }
