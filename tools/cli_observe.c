/* cli_observe.c — the observables of sqz life, heat and run: options, the output's header and rows (CSV or JSON lines), the observer of the steps. */
#include <math.h>
#include <string.h>

#include "cli_common.h"
#include "cli_observe.h"
#include "cli_table.h"

static sqz_cli_obs *sqz_obs_active; /* the run's, for sqz_cli_observe_chunk */

/* --observe ITEM, repeatable: the items as written, each once. */
static int sqz__obs_add(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  sqz_cli_obs *o = sqz_cli_value(a, d);
  if (o->n == SQZ_CLI_MAX_OBSERVE) return sqz_cli_usage(a->cmd, "more than %d --observe items", SQZ_CLI_MAX_OBSERVE);
  for (size_t k = 0; k < o->n; k++)
    if (strcmp(o->text[k], value) == 0) return sqz_cli_usage(a->cmd, "--observe %s is given twice", value);
  o->text[o->n++] = value;
  return 0;
}

const sqz_cli_optdef sqz_cli_opt_observe = {
    "--observe", "ITEM",
    "an observable, repeatable: sum, nonzero, min, max, com, m2@Y,X (the sum of u |p - c|^2\n"
    "about a real point; 3D m2@Z,Y,X), probe@Y,X (one cell); computed on the device at step 0,\n"
    "every --every K steps and at the last, a row each into --observe-out (docs/OBSERVABLES.md)",
    sqz__obs_add, offsetof(sqz_cli_set, obs), 0, 0};
const sqz_cli_optdef sqz_cli_opt_observe_out =
    SQZ_CLI_TEXT("--observe-out", "FILE", obs.out, "the --observe rows: FILE.csv or FILE.jsonl");

int sqz_cli_observe_check(const char *cmd, const sqz_cli_obs *o, uint64_t every) {
  if (o->n && !o->out) return sqz_cli_usage(cmd, "--observe %s needs --observe-out FILE.csv|FILE.jsonl", o->text[0]);
  if (o->out && !o->n) return sqz_cli_usage(cmd, "--observe-out %s needs at least one --observe ITEM", o->out);
  if (o->out && !sqz_cli_has_ext(o->out, ".csv") && !sqz_cli_has_ext(o->out, ".jsonl"))
    return sqz_cli_usage(cmd, "--observe-out %s: expected a .csv or .jsonl file", o->out);
  if (o->n && !every) return sqz_cli_usage(cmd, "--observe needs --every K (a row every K steps, K >= 1)");
  return 0;
}

/* The name of value k of item i: the item as written, com's as com_y, com_x[, com_z]. */
static const char *sqz__obs_name(const sqz_cli_obs *o, size_t i, size_t k) {
  static const char *const com[] = {"com_y", "com_x", "com_z"};
  return o->items[i].kind == SQZ_OBS_COM ? com[k] : o->text[i];
}

static void sqz__obs_header(const sqz_cli_obs *o) {
  if (o->jsonl) return; /* JSON lines name each value in every row */
  fputs("step", o->fp);
  for (size_t i = 0; i < o->n; i++)
    for (size_t k = 0; k < sqz_observable_width(&o->items[i], o->dims); k++) {
      const char *name = sqz__obs_name(o, i, k);
      fprintf(o->fp, strpbrk(name, ",\"") ? ",\"%s\"" : ",%s", name); /* items hold no '"' */
    }
  fputc('\n', o->fp);
}

int sqz_cli_observe_begin(const char *cmd, sqz_context *ctx, sqz_cli_obs *o, sqz_domain *dom, const char *layout,
                          int write) {
  o->dims = sqz_domain_dims(dom);
  o->jsonl = o->out && sqz_cli_has_ext(o->out, ".jsonl");
  for (size_t i = 0; i < o->n; i++) {
    int st = sqz_observable_parse(dom, o->text[i], &o->items[i]);
    if (st != SQZ_OK) return sqz_cli_usage(cmd, "--observe %s: %s", o->text[i], sqz_last_error(ctx));
    sqz_observable_kind k = o->items[i].kind;
    if (layout && strcmp(layout, "bits") == 0 && (k == SQZ_OBS_M2 || k == SQZ_OBS_COM))
      return sqz_cli_usage(cmd, "--observe %s: layout bits gives no cell positions on the device (use another --layout)",
                           o->text[i]);
  }
  const char *tmp = NULL;
  int rc = o->n && write ? sqz_cli_output(cmd, o->out, &tmp, &o->fp) : 0;
  if (rc == 0 && o->fp) sqz__obs_header(o);
  return rc;
}

/* A value as CSV or JSON text (JSON has no NaN: null). */
static void sqz__obs_value(const sqz_cli_obs *o, double v) {
  if (isnan(v)) fputs(o->jsonl ? "null" : "nan", o->fp);
  else fprintf(o->fp, "%.17g", v);
}

static int sqz__obs_row(sqz_cli_obs *o, sqz_field *f, uint64_t step) {
  double v[SQZ_CLI_MAX_OBSERVE * 3];
  int st = o->observe(f, o->items, o->n, v);
  if (st != SQZ_OK || !o->fp) return st;
  fprintf(o->fp, o->jsonl ? "{\"step\":%llu" : "%llu", (unsigned long long)step);
  const double *p = v;
  for (size_t i = 0; i < o->n; i++)
    for (size_t k = 0; k < sqz_observable_width(&o->items[i], o->dims); k++) {
      fputc(',', o->fp);
      if (o->jsonl) {
        sqz_json_escape(o->fp, sqz__obs_name(o, i, k));
        fputc(':', o->fp);
      }
      sqz__obs_value(o, *p++);
    }
  fputs(o->jsonl ? "}\n" : "\n", o->fp);
  return SQZ_OK; /* a failed write is reported when the outputs are committed */
}

static int sqz__obs_observer(sqz_field *f, uint64_t done, void *user) {
  sqz_cli_obs *o = user;
  return sqz__obs_row(o, f, o->base + done);
}

int sqz_cli_observe_start(sqz_cli_obs *o, sqz_context *ctx, sqz_field *f, uint64_t base, uint64_t every) {
  if (!o->n) return SQZ_OK;
  if (!o->observe) o->observe = sqz_field_observe;
  o->base = base;
  sqz_obs_active = o;
  int st = sqz__obs_row(o, f, base);
  return st == SQZ_OK ? sqz_context_set_observer(ctx, every, sqz__obs_observer, o) : st;
}

void sqz_cli_observe_chunk(uint64_t done) {
  if (sqz_obs_active) sqz_obs_active->base += done;
}
