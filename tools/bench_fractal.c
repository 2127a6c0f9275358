/* bench_fractal.c — `sqz bench fractal`: every fractal layout side by side in one run, against the device's copy bandwidth. */
#include <stdlib.h>
#include <string.h>

#include "bench_backends.h"
#include "bench_cuda.h"
#include "bench_work.h"
#include "cli_common.h"
#include "cmds.h"
#include "sqz_bench.h"

typedef struct {
  char layout[32]; /* LAYOUT or LAYOUT/MAP */
  sqz_bench_ran run;
} sqz_bench_row;

/* One row: create (in run.parts parts), fill, warm-up steps, K timed steps, count. Failures land in the row. */
static void sqz__bench_layout(sqz_context *ctx, sqz_domain *dom, const sqz_bench_work *w, uint64_t steps,
                              uint32_t block, sqz_bench_row *row) {
  sqz_field *f = NULL;
  const char *map = strchr(row->layout, '/');
  int st = sqz_bench_work_field(w, dom, row->layout, &row->run, &f);
  if (st == SQZ_OK && map) st = sqz_field_set_map(f, map + 1);
  if (st == SQZ_OK && block && strncmp(row->layout, "block:", 6) != 0 && strcmp(row->layout, "bb") != 0)
    st = sqz_field_set_block(f, block);
  /* the warm-up builds the kernels of the timed call: a call of several steps may launch another
   * kernel than a single step (several steps per launch), so it runs min(K, 4) steps */
  sqz_bench_work_run(w, ctx, f, st, steps < 4 ? steps : 4, steps, &row->run);
  sqz_field_release(f);
}

/* What the report prints beside the rows. */
typedef struct {
  sqz_context *ctx;
  sqz_domain *dom;
  const sqz_bench_work *w;
  uint64_t steps, copy_bytes;
  double bw;
  const sqz_bench_row *rows, *bb, *best;
  int n;
} sqz_bench_report;

static void sqz__row_json(FILE *mem, int i, void *user) {
  const sqz_bench_report *rp = user;
  const sqz_bench_ran *r = &rp->rows[i].run;
  double cells = (double)sqz_domain_cells(rp->dom), steps = (double)rp->steps;
  uint64_t bb_cells = 0;
  sqz_domain_layout_cells(rp->dom, "bb", &bb_cells);
  sqz_json j;
  sqz_json_begin(&j, mem);
  sqz_json_str(&j, "layout", rp->rows[i].layout);
  sqz_json_str(&j, "status", r->status == SQZ_OK ? "ok" : r->error);
  if (r->status == SQZ_OK) {
    sqz_json_num(&j, "kernel_s", r->kernel_s);
    sqz_json_num(&j, "wall_s", r->wall_s);
    sqz_json_num(&j, "kernel_s_per_step", r->kernel_s / steps);
    sqz_json_num(&j, "wall_s_per_step", r->wall_s / steps);
    sqz_json_num(&j, "cells_per_s", cells * steps / r->kernel_s);
    sqz_json_u64(&j, "bytes", r->bytes);
    sqz_json_num(&j, "mrf", 2.0 * (double)bb_cells * (double)sqz_type_size(rp->w->type) / (double)r->bytes);
    if (rp->bb) sqz_json_num(&j, "speedup_vs_bb", rp->bb->run.kernel_s / r->kernel_s);
    if (rp->bw > 0) /* 2 x sizeof(T) bytes per cell (layout bits: 2 bits) at the copy bandwidth */
      sqz_json_num(&j, "floor_share", sqz_bench_work_bytes(rp->w) * sqz_cli_cell_scale(rp->dom, rp->rows[i].layout) *
                                          cells * steps / rp->bw / r->kernel_s);
    sqz_json_u64(&j, "live", r->result);
  }
  sqz_bench_ran_json(&j, r);
  fputc('}', mem); /* sqz_json_end would put a newline inside the array */
}

static void sqz__print_json(FILE *out, const sqz_bench_report *rp) {
  uint64_t cells = sqz_domain_cells(rp->dom);
  char *text = sqz_json_rows(rp->n, sqz__row_json, (void *)rp);
  sqz_json j;
  sqz_json_begin(&j, out);
  sqz_json_str(&j, "domain", sqz_domain_spec(rp->dom));
  sqz_json_u64(&j, "cells", cells);
  sqz_json_u64(&j, "side", sqz_domain_side(rp->dom));
  sqz_json_u64(&j, "steps", rp->steps);
  sqz_bench_work_json(&j, rp->w);
  sqz_json_num(&j, "bytes_per_cell", sqz_bench_work_bytes(rp->w));
  if (rp->w->kind == SQZ_BENCH_LIFE) sqz_json_str(&j, "rule", rp->w->rule);
  sqz_json_str(&j, "backend", sqz_context_backend(rp->ctx));
  sqz_json_str(&j, "device", sqz_context_device_name(rp->ctx));
  sqz_json_num(&j, "copy_bandwidth_bytes_per_s", rp->bw);
  sqz_json_u64(&j, "copy_bytes", rp->copy_bytes);
  if (rp->bw > 0) sqz_json_num(&j, "floor_s_per_step", sqz_bench_work_bytes(rp->w) * (double)cells / rp->bw);
  const sqz_bench_ran *best = rp->best ? &rp->best->run : NULL;
  if (best) {
    sqz_json_str(&j, "best_layout", rp->best->layout);
    sqz_json_u64(&j, "live", best->result);
    sqz_json_num(&j, "kernel_s", best->kernel_s);
    sqz_json_num(&j, "wall_s", best->wall_s);
    sqz_json_num(&j, "cells_per_s", (double)cells * (double)rp->steps / best->kernel_s);
    sqz_json_u64(&j, "bytes", best->bytes);
  }
  sqz_json_raw(&j, "layouts", text ? text : "[]");
  sqz_json_end(&j);
  free(text);
}

static void sqz__print_table(FILE *out, const sqz_bench_report *rp) {
  uint64_t cells = sqz_domain_cells(rp->dom), bb_cells = 0;
  sqz_domain_layout_cells(rp->dom, "bb", &bb_cells);
  double bpc = sqz_bench_work_bytes(rp->w), floor_s = rp->bw > 0 ? bpc * (double)cells / rp->bw : 0.0;
  char label[160], vs[16], one[16];
  fprintf(out, "domain  %s: %llu cells, side %llu; %s, %llu timed steps\n", sqz_domain_spec(rp->dom),
          (unsigned long long)cells, (unsigned long long)sqz_domain_side(rp->dom),
          sqz_bench_work_label(rp->w, label, sizeof label), (unsigned long long)rp->steps);
  fprintf(out, "device  %s (%s)\n", sqz_context_device_name(rp->ctx), sqz_context_backend(rp->ctx));
  fprintf(out, "copy    %.1f GB/s (%s of %llu MiB); floor of %.0f bytes per cell: %.4f ms/step\n\n", 1e-9 * rp->bw,
          strcmp(sqz_context_backend(rp->ctx), "opencl") == 0 ? "clEnqueueCopyBuffer" : "memcpy",
          (unsigned long long)(rp->copy_bytes >> 20), bpc, 1e3 * floor_s);
  fprintf(out, "%-16s %5s %12s %12s %10s %14s %8s %8s %7s %8s %12s  %s\n", "layout", "parts", "kernel ms", "e2e ms",
          "Gcells/s", "bytes", "MRF", "vs bb", "vs 1", "floor", "live", "engine");
  for (int i = 0; i < rp->n; i++) {
    const sqz_bench_ran *r = &rp->rows[i].run;
    if (r->status != SQZ_OK) {
      fprintf(out, "%-16s %5llu not run: %s\n", rp->rows[i].layout, (unsigned long long)r->parts, r->error);
      continue;
    }
    double k = r->kernel_s / (double)rp->steps;
    snprintf(vs, sizeof vs, "-");
    if (rp->bb) snprintf(vs, sizeof vs, "%.1fx", rp->bb->run.kernel_s / r->kernel_s);
    fprintf(out, "%-16s %5llu %12.4f %12.4f %10.3f %14llu %8.1f %8s %7s %7.1f%% %12llu  %s\n", rp->rows[i].layout,
            (unsigned long long)r->parts, 1e3 * k, 1e3 * r->wall_s / (double)rp->steps, 1e-9 * (double)cells / k,
            (unsigned long long)r->bytes, 2.0 * (double)bb_cells * (double)sqz_type_size(rp->w->type) / (double)r->bytes,
            vs, sqz_bench_ran_vs(r, one, sizeof one),
            k > 0 ? 100.0 * floor_s * sqz_cli_cell_scale(rp->dom, rp->rows[i].layout) / k : 0.0,
            (unsigned long long)r->result, *r->engine ? r->engine : "-");
  }
  fprintf(out, "\nkernel/e2e ms: per step; MRF: bb bytes / layout bytes (two buffers each); vs 1: speed of the parts\n"
          "against one buffer; floor: share of the %.0f-byte-per-cell (bits: 2-bit) copy floor reached; live: non-zero\n"
          "cells after the run (equal in every row); engine: the path that ran (sqz_field_engine).\n", bpc);
}

typedef sqz_bench_args sqz_bench_opts;

static const sqz_cli_optdef sqz_fb_domain = SQZ_CLI_TEXT("--domain", "D", domain, "fractal:NAME:R (required)");
static const sqz_cli_optdef sqz_fb_workload = {
    "--workload", "W",
    "life (default; u8 cells, --rule), heat (f32 or f64, default f64; uniform values, alpha 0.2)\n"
    "or kernel FILE.cl (your update as for sqz run: --type u8|i32|f32|f64 and --param values; a\n"
    "random 0/1 state of --density)",
    sqz_bench_p_workload, offsetof(sqz_bench_args, w), 0, 0};
static const sqz_cli_optdef sqz_fb_rule =
    SQZ_CLI_TEXT("--rule", "R", rule, "life's rule (default B2/S23, the Squeeze paper's rule)");
static const sqz_cli_optdef sqz_fb_layouts = {
    "--layouts", "L1,L2,...",
    "the layouts below to run (default bb,lambda,block:RHO for RHO = s^j up to 32 (s = 2: 4\n"
    "and 16),compact)",
    sqz_cli_p_text, offsetof(sqz_bench_args, layouts), 0, 0};
static const sqz_cli_optdef sqz_fb_block = SQZ_CLI_COUNT(
    "--block", "RHO", block, 0, SQZ_CLI_BLOCK_MAX, "tile side of the compact and lambda launches (a power of s; 0 = automatic)");
static const sqz_cli_optdef sqz_fb_maps = {
    "--maps", "M1,M2", "tile lambda maps of the lambda, block and compact rows, those below of the backend; rows\n"
                       "other than the backend's default are named LAYOUT/MAP",
    sqz_cli_p_text, offsetof(sqz_bench_args, maps), 0, 0};
static const sqz_cli_optdef sqz_fb_backend = SQZ_CLI_TEXT(
    "--backend", "B",
    backend, "opencl (default), cpu, cuda, or all: OpenCL, CUDA with MMA tile maps and CUDA with ALU\n"
             "tile maps side by side (default: the block layouts; --layouts none: no Life), then the tile\n"
             "maps alone, MMA against ALU; or a list such as opencl,cpu: the same run on each backend in\n"
             "turn, each report with its own copy bandwidth (the cpu backend's: memcpy), then per layout\n"
             "the first backend's speed against the others' (kernel time ratio) and whether the live\n"
             "cells agree");
static const sqz_cli_optdef *const sqz_fb_opts[] = {&sqz_fb_domain, &sqz_fb_workload, SQZ_BENCH_OPTS_WORK,
                                                    &sqz_fb_rule,   &sqz_fb_layouts,  &sqz_fb_maps,
                                                    &sqz_fb_block,  &sqz_fb_backend,  SQZ_BENCH_OPTS_END};


static const sqz_cli_cmd sqz_fb_cmd = {
    "bench fractal", "--domain fractal:NAME:R [options]",
    "Runs the workload on the fractal in each layout, one after the other, from the same state:\n"
    "an untimed warm-up of min(K, 4) steps (builds the kernels), then K timed steps.\n"
    "Reports per layout: kernel and end-to-end time per step, cells/s, bytes (both buffers),\n"
    "memory reduction factor against bb, speed-up against bb, the share of the floor set by\n"
    "moving 2 x sizeof(T) bytes per cell (layout bits: 2 bits) at the copy bandwidth measured in\n"
    "the same run, and the engine path that ran (sqz_field_engine). Layouts whose buffers do not\n"
    "fit are listed with the reason.\n",
    sqz_fb_opts, 0, {"--layouts", SQZ_FAMILY_FRACTAL, NULL}, {"--maps", SQZ_FAMILY_FRACTAL, 0, NULL, 1}};

/* After the options: the domain given, what --backend all takes, the workload. */
static int sqz__bench_check(sqz_bench_opts *o) {
  int all = o->s.backend && strcmp(o->s.backend, "all") == 0;
  if (!o->s.domain) return sqz_cli_usage("bench fractal", "missing --domain fractal:NAME:R");
  if (o->maps && all) return sqz_cli_usage("bench fractal", "--maps applies to one backend, not to --backend all");
  if (all && (o->w.workload || o->w.type_text || o->w.n_parts))
    return sqz_cli_usage("bench fractal", "--backend all runs Life on u8 cells in one buffer: no --workload, --type "
                                          "or --parts");
  o->w.rule = o->s.rule;
  return sqz_bench_work_check("bench fractal", &o->w, NULL);
}

/* --maps against the registry's tile maps of the context's backend. */
static int sqz__bench_maps_ok(sqz_context *ctx, const char *maps) {
  const char *known[16];
  const char *backend = sqz_context_backend(ctx);
  int n = sqz_cli_maps(SQZ_FAMILY_FRACTAL, 2, backend, 1, known, 16);
  for (const char *p = maps; *p;) {
    size_t len = strcspn(p, ",");
    if (!sqz_cli_map_in(p, len, known, n)) {
      char list[128] = "none";
      for (int i = 0, at = 0; i < n && at < (int)sizeof list; i++)
        at += snprintf(list + at, sizeof list - (size_t)at, "%s%s", i ? " and " : "", known[i]);
      return sqz_cli_usage("bench fractal", "--maps '%s': the tile maps on %s are %s, comma-separated", maps, backend,
                           list);
    }
    p += len + (p[len] == ',');
  }
  return 0;
}

/* The rows of one --layouts entry: one per map (bb: one), each followed by its --parts rows where the
 * layout parts. 0 or the exit status. */
static int sqz__layout_rows(sqz_context *ctx, sqz_domain *dom, const sqz_bench_opts *o, const char *tok,
                            sqz_bench_row *rows, int *n) {
  uint64_t cells;
  int st = sqz_domain_layout_cells(dom, tok, &cells);
  if (st != SQZ_OK && st != SQZ_ERR_TOO_LARGE) return sqz_cli_usage("bench fractal", "--layouts: %s", sqz_last_error(ctx));
  int parts = sqz_bench_work_parts_ok("bench fractal", ctx, &o->w, dom, tok);
  if (parts == 2) return 2;
  const char *maps = o->maps && strcmp(tok, "bb") != 0 ? o->maps : ""; /* bb has no tile λ: one row */
  do {
    int len = (int)strcspn(maps, ","), one = *n;
    sqz_bench_row *r = &rows[(*n)++];
    if (!len || sqz_cli_map_default(maps)) snprintf(r->layout, sizeof r->layout, "%s", tok); /* the default row */
    else snprintf(r->layout, sizeof r->layout, "%s/%.*s", tok, len, maps);
    r->run.parts = 1;
    for (int k = 0; parts && k < o->w.n_parts; k++) {
      rows[*n] = rows[one];
      rows[*n].run.parts = o->w.parts[k];
      rows[(*n)++].run.one = &rows[one].run;
    }
    maps += len + (maps[len] == ',');
  } while (*maps);
  return 0;
}

/* Runs every row; *bb and *best: one-buffer rows. 1 when the rows disagree, 0 otherwise; 2 (stop) after a kernel
 * that does not build. */
static int sqz__run_rows(sqz_context *ctx, sqz_domain *dom, const sqz_bench_opts *o, sqz_bench_row *rows, int n,
                         const sqz_bench_row **bb, const sqz_bench_row **best) {
  const sqz_bench_row *first = NULL;
  int rc = 0;
  for (int i = 0; i < n; i++) {
    const sqz_bench_ran *r = &rows[i].run;
    if (!o->s.json && sqz_cli_progress())
      fprintf(stderr, "sqz bench fractal: %s (%llu parts) ...\n", rows[i].layout, (unsigned long long)r->parts);
    sqz__bench_layout(ctx, dom, &o->w, o->s.steps, (uint32_t)o->s.block /* <= 1024 */, &rows[i]);
    if (sqz_bench_work_fatal("bench fractal", ctx, &o->w, r->status)) return 2;
    if (r->status != SQZ_OK) continue;
    if (strcmp(rows[i].layout, "bb") == 0 && r->parts == 1) *bb = &rows[i];
    if (r->parts == 1 && (!*best || r->kernel_s < (*best)->run.kernel_s)) *best = &rows[i];
    if (!first) first = &rows[i];
    if (first->run.result != r->result) {
      fprintf(stderr, "sqz bench fractal: %s (%llu parts) ends with %llu non-zero cells but %s with %llu\n",
              rows[i].layout, (unsigned long long)r->parts, (unsigned long long)r->result, first->layout,
              (unsigned long long)first->run.result);
      rc = 1;
    }
  }
  return rc;
}

/* The benchmark on one backend: its report to out, its rows to pts (user: the options). */
static int sqz__bench_fractal_one(const char *backend, FILE *out, sqz_bench_points *pts, void *user) {
  const sqz_bench_opts *o = user;
  sqz_bench_report rp = {.w = &o->w, .steps = o->s.steps};
  sqz_bench_row *rows = NULL;
  char layouts[512], err[256], name[48];
  int rc;
  if ((rc = sqz_cli_open("bench fractal", backend, o->s.device, &rp.ctx)) != 0) return rc;
  int st = sqz_domain_parse(rp.ctx, o->s.domain, &rp.dom);
  if (st != SQZ_OK) rc = sqz_cli_fail("bench fractal", rp.ctx, st);
  else if (sqz_domain_get_kind(rp.dom) != SQZ_DOMAIN_FRACTAL)
    rc = sqz_cli_usage("bench fractal", "--domain %s is not a fractal (use sqz bench simplex)", o->s.domain);
  else if (o->w.kind == SQZ_BENCH_LIFE && sqz_rule_parse(o->s.rule, 2, NULL, NULL, err, sizeof err) != SQZ_OK)
    rc = sqz_cli_usage("bench fractal", "--rule: %s", err);
  else if (o->maps)
    rc = sqz__bench_maps_ok(rp.ctx, o->maps);
  if (rc) goto done;
  if (o->layouts) snprintf(layouts, sizeof layouts, "%s", o->layouts);
  else sqz_cli_layouts(rp.dom, SQZ_CLI_LAYOUTS_BENCH, layouts, sizeof layouts);
  size_t n_rows = (strlen(layouts) / 2 + 2) * (o->maps ? strlen(o->maps) / 4 + 1 : 1) * (size_t)(1 + o->w.n_parts);
  rows = sqz_cli_calloc(n_rows, sizeof *rows);
  if (!rows) {
    rc = sqz_cli_error("bench fractal", SQZ_ERR_OUT_OF_MEMORY, "%zu result rows", n_rows);
    goto done;
  }
  for (char *save = NULL, *tok = strtok_r(layouts, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
    if ((rc = sqz__layout_rows(rp.ctx, rp.dom, o, tok, rows, &rp.n)) != 0) goto done;
  if (!o->no_copy_test) sqz_bench_copy_bandwidth(rp.ctx, 0, &rp.bw, &rp.copy_bytes); /* bw stays 0 when it cannot */
  rp.rows = rows;
  if ((rc = sqz__run_rows(rp.ctx, rp.dom, o, rows, rp.n, &rp.bb, &rp.best)) == 2) {
    rc = 1; /* the kernel did not build: no report */
    goto done;
  }
  for (int i = 0; i < rp.n; i++) {
    const sqz_bench_ran *r = &rows[i].run;
    sqz_bench_ran_name(r, rows[i].layout, name, sizeof name);
    sqz_bench_add(pts, name, r->status == SQZ_OK, r->kernel_s / (double)o->s.steps, r->result);
  }
  if (o->s.json) sqz__print_json(out, &rp);
  else sqz__print_table(out, &rp);
  if (!rp.best && rc == 0) rc = 1; /* no layout could run */
done:
  free(rows);
  sqz_domain_release(rp.dom);
  sqz_context_release(rp.ctx);
  return rc;
}

int sqz_cmd_bench_fractal(int argc, char **argv) {
  sqz_bench_opts o = {.s = {.rule = "B2/S23", .steps = 10}, .w = {.seed = 1, .density = 0.5}};
  int rc = sqz_cli_parse(&sqz_fb_cmd, argc, argv, &o);
  if (rc == 0) rc = sqz__bench_check(&o);
  if (rc == 0 && o.s.backend && strcmp(o.s.backend, "all") == 0) /* tools/bench_cuda.c */
    rc = sqz_cmd_bench_fractal_all(o.s.domain, o.s.rule, o.layouts, o.s.steps, o.w.density, o.w.seed, o.s.device,
                                   o.s.json);
  else if (rc == 0 && sqz_bench_is_list(o.s.backend)) /* tools/bench_backends.c */
    rc = sqz_bench_backends("bench fractal", o.s.backend, o.s.json, sqz__bench_fractal_one, &o);
  else if (rc == 0) {
    sqz_bench_points pts = {NULL, 0, 0};
    rc = sqz__bench_fractal_one(o.s.backend, stdout, &pts, &o);
    free(pts.points);
  }
  sqz_bench_work_free(&o.w);
  return rc < 0 ? 0 : rc;
}
