/* bench_work.c — the field workloads of `sqz bench fractal|simplex`: life, heat or a user kernel on a cell type, in one buffer or in parts, and one row's run. */
#include <stdlib.h>
#include <string.h>

#include "bench_work.h"

/* --parts P[,P...]: counts of at least 2 (one buffer is the row beside them), added to those before. */
static int sqz__parts_list(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *text) {
  sqz_bench_work *w = sqz_cli_value(a, d);
  for (const char *p = text;; p++) {
    size_t len = strcspn(p, ",");
    char tok[24];
    uint64_t v = 0;
    snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), p);
    const char *why = len < sizeof tok ? sqz_cli_u64_text(tok, &v) : "is not a part count";
    if (why) return sqz_cli_usage(a->cmd, "--parts '%s': '%s' %s", text, tok, why);
    if (v < 2)
      return sqz_cli_usage(a->cmd, "--parts '%s': %llu: each count must be 2 or more (the one-buffer row is always run)",
                           text, (unsigned long long)v);
    if (w->n_parts == SQZ_BENCH_MAX_PARTS)
      return sqz_cli_usage(a->cmd, "--parts '%s': at most %d part counts in one run", text, SQZ_BENCH_MAX_PARTS);
    w->parts[w->n_parts++] = v;
    p += len;
    if (!*p) return 0;
  }
}

int sqz_bench_p_workload(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  sqz_bench_work *w = sqz_cli_value(a, d);
  w->workload = value;
  if (strcmp(value, "kernel") != 0) return 0;
  if (*a->i + 1 >= a->argc || a->argv[*a->i + 1][0] == '-')
    return sqz_cli_usage(a->cmd, "--workload kernel needs FILE.cl, the update as for 'sqz run --kernel'");
  w->kernel = a->argv[++*a->i];
  return 0;
}

#define SQZ_BENCH_W(name, arg, field, parse, help) {name, arg, help, parse, offsetof(sqz_bench_args, w.field), 0, 0}
const sqz_cli_optdef sqz_bench_opt_type =
    SQZ_BENCH_W("--type", "T", type_text, sqz_cli_p_text,
                "the cell type: life u8; heat f32 or f64 (default f64); kernel u8, i32, f32 or f64 (required)");
const sqz_cli_optdef sqz_bench_opt_param =
    SQZ_BENCH_W("--param", "V1,V2,...", param_text, sqz_cli_p_text, "the values of --workload kernel's param[0..]");
const sqz_cli_optdef sqz_bench_opt_parts = {
    "--parts", "P[,P...]",
    "beside each one-buffer row of a layout that parts, a row in P parts (2 or more; a list or\n"
    "repeated; life, heat, kernel); 'vs 1' is the parts' speed against one buffer",
    sqz__parts_list, offsetof(sqz_bench_args, w), 0, 0};
const sqz_cli_optdef sqz_bench_opt_steps =
    SQZ_CLI_COUNT("--steps", "K", steps, 1, SQZ_CLI_STEPS_MAX, "the timed steps after the untimed warm-up (default 10)");
const sqz_cli_optdef sqz_bench_opt_density =
    SQZ_BENCH_W("--density", "P", density, sqz_cli_p_fraction, "the density of the random 0/1 state (life, kernel; default 0.5)");
const sqz_cli_optdef sqz_bench_opt_seed = {"--seed", "S", "the seed of the random state (default 1)", sqz_cli_p_u64,
                                           offsetof(sqz_bench_args, w.seed), 0, UINT64_MAX};
const sqz_cli_optdef sqz_bench_opt_no_copy_test = {"--no-copy-test", NULL,
                                                   "skip the copy-bandwidth run: no floor columns",
                                                   sqz_cli_p_flag, offsetof(sqz_bench_args, no_copy_test), 0, 0};

/* The workload's kind, or -1 after naming the known ones (2 is the exit status). */
static int sqz__kind(const char *cmd, const char *name, const char *const *others) {
  static const char *const names[] = {"life", "heat", "kernel"};
  for (int k = 0; k < 3; k++)
    if (strcmp(name, names[k]) == 0) return k;
  char list[128] = "";
  for (int k = 0; others && others[k]; k++) {
    if (strcmp(name, others[k]) == 0) return SQZ_BENCH_OTHER;
    size_t at = strlen(list);
    snprintf(list + at, sizeof list - at, ", %s", others[k]);
  }
  sqz_cli_usage(cmd, "unknown workload '%s' (expected life, heat, kernel FILE.cl%s)", name, list);
  return -1;
}

int sqz_bench_work_check(const char *cmd, sqz_bench_work *w, const char *const *others) {
  static const char *const takes[] = {"u8", "f32 or f64", "u8, i32, f32 or f64", "u8"};
  const char *name = w->workload ? w->workload : "life";
  int k = sqz__kind(cmd, name, others);
  if (k < 0) return 2;
  w->kind = (sqz_bench_kind)k;
  if (!w->type_text && w->kind == SQZ_BENCH_KERNEL)
    return sqz_cli_usage(cmd, "--workload kernel %s needs --type u8|i32|f32|f64", w->kernel);
  const char *t = w->type_text ? w->type_text : w->kind == SQZ_BENCH_HEAT ? "f64" : "u8";
  if (sqz_cli_parse_type(cmd, t, 0, &w->type)) return 2;
  int is_float = w->type == SQZ_F32 || w->type == SQZ_F64;
  if (w->kind != SQZ_BENCH_KERNEL && (w->kind == SQZ_BENCH_HEAT ? !is_float : w->type != SQZ_U8))
    return sqz_cli_usage(cmd, "--type %s: the %s workload takes %s cells", t, name, takes[w->kind]);
  if (w->param_text && w->kind != SQZ_BENCH_KERNEL)
    return sqz_cli_usage(cmd, "--param %s applies to --workload kernel FILE.cl, not to %s", w->param_text, name);
  if (w->n_parts && w->kind == SQZ_BENCH_OTHER)
    return sqz_cli_usage(cmd, "--parts applies to the life, heat and kernel workloads, not to %s", name);
  if (w->kind != SQZ_BENCH_KERNEL) return 0;
  int rc = sqz_cli_parse_params(cmd, w->param_text, &w->params, &w->n_params);
  return rc ? rc : sqz_cli_read_kernel(cmd, "--workload kernel", w->kernel, &w->source);
}

void sqz_bench_work_free(sqz_bench_work *w) {
  free(w->source);
  free(w->params);
  w->source = NULL;
  w->params = NULL;
}

const char *sqz_bench_work_type_name(const sqz_bench_work *w) {
  static const char *const names[] = {"?", "u8", "i32", "f32", "f64"};
  return w->type >= SQZ_U8 && w->type <= SQZ_F64 ? names[w->type] : names[0];
}

const char *sqz_bench_work_label(const sqz_bench_work *w, char *buf, size_t len) {
  const char *type = sqz_bench_work_type_name(w);
  if (w->kind == SQZ_BENCH_LIFE) snprintf(buf, len, "life %s (%s)", w->rule ? w->rule : "", type);
  else if (w->kind == SQZ_BENCH_KERNEL) snprintf(buf, len, "kernel %s (%s)", w->kernel, type);
  else if (w->kind == SQZ_BENCH_HEAT) snprintf(buf, len, "heat (%s)", type);
  else snprintf(buf, len, "%s", w->workload); /* a bench's own workload */
  return buf;
}

double sqz_bench_work_bytes(const sqz_bench_work *w) { return 2.0 * (double)sqz_type_size(w->type); }

int sqz_bench_work_parts_ok(const char *cmd, sqz_context *ctx, const sqz_bench_work *w, sqz_domain *dom,
                            const char *layout) {
  uint64_t part_bytes, halo;
  /* a layout that cannot hold the type at all: its one-buffer row says why, no parts rows */
  if (w->n_parts && sqz_field_parts_bytes(dom, w->type, layout, 1, &part_bytes, &halo) != SQZ_OK) return 0;
  for (int k = 0; k < w->n_parts; k++) {
    int st = sqz_field_parts_bytes(dom, w->type, layout, w->parts[k], &part_bytes, &halo);
    if (st == SQZ_ERR_UNSUPPORTED) return 0;
    if (st == SQZ_ERR_INVALID_ARGUMENT)
      return sqz_cli_usage(cmd, "--parts %llu: layout %s: %s", (unsigned long long)w->parts[k], layout,
                           sqz_last_error(ctx));
  }
  return 1;
}

void sqz_bench_work_json(sqz_json *j, const sqz_bench_work *w) {
  sqz_json_str(j, "workload", w->workload ? w->workload : "life");
  sqz_json_str(j, "type", sqz_bench_work_type_name(w));
  if (w->kind == SQZ_BENCH_KERNEL) {
    sqz_json_str(j, "kernel", w->kernel);
    sqz_json_str(j, "param", w->param_text ? w->param_text : "");
  }
}

int sqz_bench_work_field(const sqz_bench_work *w, sqz_domain *dom, const char *layout, const sqz_bench_ran *r,
                         sqz_field **f) {
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(layout, "/"), layout);
  if (r->parts > 1) return sqz_field_create_parts(dom, w->type, name, r->parts, f);
  return sqz_field_create(dom, w->type, name, f);
}

static int sqz__work_steps(const sqz_bench_work *w, sqz_field *f, uint64_t steps) {
  switch (w->kind) {
  case SQZ_BENCH_HEAT: /* sqz heat's default alpha */
    return sqz_heat_step(f, sqz_domain_dims(sqz_field_domain(f)) == 2 ? 0.2 : 0.1, steps);
  case SQZ_BENCH_KERNEL: return sqz_stencil_step(f, w->source, w->kernel, w->params, w->n_params, steps);
  default: return sqz_life_step(f, w->rule, steps);
  }
}

int sqz_bench_work_run(const sqz_bench_work *w, sqz_context *ctx, sqz_field *f, int st, uint64_t warmup,
                       uint64_t steps, sqz_bench_ran *r) {
  if (st == SQZ_OK)
    st = w->kind == SQZ_BENCH_HEAT ? sqz_field_fill_uniform(f, w->seed) : sqz_field_fill_random(f, w->density, w->seed);
  if (st == SQZ_OK && warmup) st = sqz__work_steps(w, f, warmup);
  if (st == SQZ_OK) st = sqz__work_steps(w, f, steps);
  if (st == SQZ_OK) st = sqz_context_timing(ctx, &r->kernel_s, &r->wall_s);
  if (st == SQZ_OK) { /* the report belongs to the field: copied before the next call */
    const char *skipped = "", *engine = sqz_field_engine(f, &skipped);
    snprintf(r->engine, sizeof r->engine, "%s", engine);
    snprintf(r->skipped, sizeof r->skipped, "%s", skipped);
    r->bytes = sqz_field_bytes(f);
    st = sqz_field_count(f, &r->result);
  }
  r->status = st;
  if (st != SQZ_OK && !r->error[0])
    snprintf(r->error, sizeof r->error, "%s: %s", sqz_status_name(st), sqz_last_error(ctx));
  return st;
}

int sqz_bench_work_fatal(const char *cmd, sqz_context *ctx, const sqz_bench_work *w, int st) {
  if (w->kind != SQZ_BENCH_KERNEL || st != SQZ_ERR_BUILD_FAILED) return 0;
  sqz_cli_fail(cmd, ctx, st);
  return 1;
}

void sqz_bench_ran_json(sqz_json *j, const sqz_bench_ran *r) {
  sqz_json_u64(j, "parts", r->parts);
  sqz_json_str(j, "engine", r->engine);
  sqz_json_str(j, "skipped", r->skipped);
  if (r->one && r->one->status == SQZ_OK && r->kernel_s > 0)
    sqz_json_num(j, "vs_one_buffer", r->one->kernel_s / r->kernel_s);
}

const char *sqz_bench_ran_vs(const sqz_bench_ran *r, char *buf, size_t len) {
  if (r->one && r->one->status == SQZ_OK && r->kernel_s > 0) snprintf(buf, len, "%.2fx", r->one->kernel_s / r->kernel_s);
  else snprintf(buf, len, "-");
  return buf;
}

void sqz_bench_ran_name(const sqz_bench_ran *r, const char *base, char *buf, size_t len) {
  if (r->parts > 1) snprintf(buf, len, "%s parts=%llu", base, (unsigned long long)r->parts);
  else snprintf(buf, len, "%s", base);
}
