/* engine_report.c — which engine path stepped a field, and why the faster ones did not apply (sqz_field_engine, --json, SQZ_DEBUG). */
#include "core/engine_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/field_parts.h"

/* The report f writes to, or NULL: none (a field struct made without one), or a part other than 0. */
static struct sqz_engine_report *sqz__report(sqz_field *f) {
  if (!f || !f->rep) return NULL;
  if (f->part && f->part->u0 != 0) return NULL; /* part 0 owns the first units */
  return f->rep;
}

void sqz__engine_skip(sqz_field *f, const char *path, const char *fmt, ...) {
  struct sqz_engine_report *r = sqz__report(f);
  if (!r) return;
  char entry[512];
  size_t n = (size_t)snprintf(entry, sizeof entry, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  if (n < sizeof entry) vsnprintf(entry + n, sizeof entry - n, fmt, ap);
  va_end(ap);
  if (strstr(r->skipped, entry)) return; /* the same decision in another launch of the call (chunks, parts) */
  size_t at = strlen(r->skipped), cap = sizeof r->skipped;
  if (at + 1 < cap) snprintf(r->skipped + at, cap - at, "%s%s", at ? "; " : "", entry);
}

void sqz__engine_ran(sqz_field *f, const char *path) {
  struct sqz_engine_report *r = sqz__report(f);
  if (r) snprintf(r->engine, sizeof r->engine, "%s", path);
}

void sqz__engine_reset(sqz_field *f) {
  if (!f || !f->rep) return;
  f->rep->engine[0] = 0;
  f->rep->skipped[0] = 0;
}

void sqz__engine_debug(sqz_field *f) {
  if (!f || !f->rep || !f->rep->engine[0] || !sqz__opt_num(NULL, f, SQZ_OPT_DEBUG, 0)) return;
  char now[sizeof f->rep->printed];
  snprintf(now, sizeof now, "%s|%s", f->rep->engine, f->rep->skipped);
  if (strcmp(now, f->rep->printed) == 0) return;
  memcpy(f->rep->printed, now, sizeof now);
  fprintf(stderr, "sqz: %s: engine %s%s%s%s\n", f->dom->spec, f->rep->engine, f->rep->skipped[0] ? " (skipped: " : "",
          f->rep->skipped, f->rep->skipped[0] ? ")" : "");
}

const char *sqz_field_engine(const sqz_field *f, const char **skipped) {
  if (skipped) *skipped = f && f->rep ? f->rep->skipped : "";
  return f && f->rep ? f->rep->engine : "";
}
