/* cli_json.c — the commands' JSON output: one object on one line, with the version and the options of the run; arrays of rows; the engine path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"

void sqz_json_begin(sqz_json *j, FILE *out) {
  j->out = out;
  j->n = 0;
  fputc('{', out);
  sqz_json_str(j, "version", sqz_version_string()); /* every object says which sqz wrote it */
  if (*sqz_cli_options_recorded()) /* and with which options, where any were set */
    sqz_json_raw(j, "options", sqz_cli_options_recorded());
}
static void sqz__json_key(sqz_json *j, const char *key) {
  if (j->n++) fputc(',', j->out);
  sqz_json_escape(j->out, key);
  fputc(':', j->out);
}
void sqz_json_str(sqz_json *j, const char *key, const char *value) {
  sqz__json_key(j, key);
  sqz_json_escape(j->out, value);
}
void sqz_json_u64(sqz_json *j, const char *key, uint64_t value) {
  sqz__json_key(j, key);
  fprintf(j->out, "%llu", (unsigned long long)value);
}
void sqz_json_num(sqz_json *j, const char *key, double value) {
  sqz__json_key(j, key);
  if (value != value || value > 1e308 || value < -1e308) {
    fputs("null", j->out);
    return;
  }
  char text[32]; /* the shortest of 15 or 17 digits that reads back as the same double (sums are compared to 1e-12) */
  snprintf(text, sizeof text, "%.15g", value);
  if (strtod(text, NULL) != value) snprintf(text, sizeof text, "%.17g", value);
  fputs(text, j->out);
}
void sqz_json_raw(sqz_json *j, const char *key, const char *json) {
  sqz__json_key(j, key);
  fputs(json, j->out);
}
void sqz_json_end(sqz_json *j) { fputs("}\n", j->out); }

char *sqz_json_rows(int n, void (*row)(FILE *out, int i, void *user), void *user) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = sqz_cli_memstream(&text, &len);
  if (!mem) return NULL;
  fputc('[', mem);
  for (int i = 0; i < n; i++) {
    if (i) fputc(',', mem);
    row(mem, i, user);
  }
  fputc(']', mem);
  fclose(mem);
  return text;
}

void sqz_cli_engine_json(sqz_json *j, const sqz_field *f) {
  const char *skipped = "", *engine = sqz_field_engine(f, &skipped);
  sqz_json_str(j, "engine", engine);
  sqz_json_str(j, "skipped", skipped);
}

void sqz_cli_engine_print(const sqz_field *f) {
  const char *skipped = "", *engine = sqz_field_engine(f, &skipped);
  if (*engine) printf("engine   %s\n", engine);
  if (*skipped) printf("skipped  %s\n", skipped);
}
