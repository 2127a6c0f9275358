/* bench_simplex.c — `sqz bench simplex`: every simplex map side by side in one run, against the device's copy bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_backends.h"
#include "bench_work.h"
#include "cli_common.h"
#include "cmds.h"
#include "sqz_bench.h"

typedef enum { SQZ_W_LIFE, SQZ_W_EDM, SQZ_W_MAP, SQZ_W_ACC, SQZ_W_FIELD } sqz_workload; /* FIELD: heat, kernel */
static const char *const sqz_workload_others[] = {"edm", "map", "accumulate", NULL}; /* beside life, heat, kernel */
static const double sqz_workload_bytes[] = {2.0, 4.0, 1.0, 2.0}; /* bytes moved per cell and pass */

typedef struct {
  uint32_t rho;      /* block side used */
  uint64_t launches; /* kernel launches per pass */
  uint64_t launched; /* threads launched */
  uint64_t useful;   /* domain cells */
  double waste;      /* (launched - useful) / useful */
} sqz_map_stats;

typedef struct {
  char map[16], layout[16];
  sqz_map_stats stats;
  sqz_bench_ran run; /* result: non-zero cells, or a hash of the distances */
} sqz_srow_result;

typedef struct {
  sqz_context *ctx;
  sqz_domain *dom;
  sqz_workload w;
  const char *rule;
  uint64_t steps, seed;
  uint32_t block;
  float *xy;                  /* edm points */
  const sqz_bench_work *work; /* the field workloads' settings */
} sqz_sbench;

/* Bytes each cell moves per pass: 2 x sizeof(T) for the field workloads, the table's for the others. */
static double sqz__bytes(const sqz_sbench *b) {
  return b->work->kind == SQZ_BENCH_OTHER ? sqz_workload_bytes[b->w] : sqz_bench_work_bytes(b->work);
}

static uint64_t sqz__fnv64(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static int sqz__bench_edm(sqz_sbench *b, sqz_srow_result *r) {
  uint64_t n = sqz_domain_side(b->dom), entries = n * (n + 1) / 2;
  float *out = sqz_cli_malloc((size_t)entries * sizeof *out);
  if (!out) {
    snprintf(r->run.error, sizeof r->run.error, "%s: %llu distances do not fit in host memory",
             sqz_status_name(SQZ_ERR_OUT_OF_MEMORY), (unsigned long long)entries);
    return SQZ_ERR_OUT_OF_MEMORY;
  }
  int st = sqz_edm(b->ctx, b->xy, n, r->map, out); /* warm-up */
  for (uint64_t s = 0; st == SQZ_OK && s < b->steps; s++) {
    double k = 0, w = 0;
    st = sqz_edm(b->ctx, b->xy, n, r->map, out);
    if (st == SQZ_OK) st = sqz_context_timing(b->ctx, &k, &w);
    r->run.kernel_s += k;
    r->run.wall_s += w;
  }
  r->run.bytes = entries * sizeof *out;
  if (st == SQZ_OK) r->run.result = sqz__fnv64(out, (size_t)r->run.bytes);
  free(out);
  return st;
}

static int sqz__bench_field(sqz_sbench *b, sqz_srow_result *r) {
  sqz_field *f = NULL;
  int st = sqz_bench_work_field(b->work, b->dom, r->layout, &r->run, &f);
  if (st == SQZ_OK) st = sqz_field_set_map(f, r->map);
  if (st == SQZ_OK) st = sqz_field_set_block(f, b->block);
  if (b->work->kind != SQZ_BENCH_OTHER) { /* life, heat, kernel: one warm-up step */
    st = sqz_bench_work_run(b->work, b->ctx, f, st, 1, b->steps, &r->run);
  } else {
    if (st == SQZ_OK) st = sqz_bench_simplex_touch(f, b->w == SQZ_W_ACC, 1);
    if (st == SQZ_OK) st = sqz_bench_simplex_touch(f, b->w == SQZ_W_ACC, b->steps);
    if (st == SQZ_OK) st = sqz_context_timing(b->ctx, &r->run.kernel_s, &r->run.wall_s);
    if (st == SQZ_OK) r->run.bytes = sqz_field_bytes(f);
    if (st == SQZ_OK) st = sqz_field_count(f, &r->run.result);
  }
  sqz_field_release(f);
  return st;
}

static void sqz__bench_row(sqz_sbench *b, sqz_srow_result *r) {
  sqz_map_stats *ms = &r->stats;
  int st = sqz_domain_map_stats(b->dom, r->map, b->block, &ms->rho, &ms->launches, &ms->launched, &ms->useful);
  if (st == SQZ_OK) ms->waste = (double)(ms->launched - ms->useful) / (double)ms->useful;
  if (st == SQZ_OK) st = b->w == SQZ_W_EDM ? sqz__bench_edm(b, r) : sqz__bench_field(b, r);
  r->run.status = st;
  if (st != SQZ_OK && !r->run.error[0])
    snprintf(r->run.error, sizeof r->run.error, "%s: %s", sqz_status_name(st), sqz_last_error(b->ctx));
}

/* Splits a comma list into at most max entries of up to 15 characters. */
static int sqz__split_list(const char *text, char (*out)[16], int max) {
  int n = 0;
  while (*text && n < max) {
    size_t len = strcspn(text, ",");
    if (len == 0 || len > 15) return -1;
    memcpy(out[n], text, len);
    out[n++][len] = 0;
    text += len + (text[len] == ',');
  }
  return *text ? -1 : n;
}

static const sqz_srow_result *sqz__bb_row(const sqz_srow_result *rows, int n, const char *layout) {
  for (int i = 0; i < n; i++)
    if (rows[i].run.status == SQZ_OK && rows[i].run.parts == 1 && strcmp(rows[i].map, "bb") == 0 &&
        strcmp(rows[i].layout, layout) == 0)
      return &rows[i];
  return NULL;
}

typedef struct {
  const sqz_sbench *b;
  const sqz_srow_result *rows, *first;
  int n;
  double bw;
} sqz_sreport;

static void sqz__row_json(FILE *out, int i, void *user) {
  const sqz_sreport *rp = user;
  const sqz_sbench *b = rp->b;
  const sqz_srow_result *r = &rp->rows[i], *bb = sqz__bb_row(rp->rows, rp->n, r->layout);
  double bw = rp->bw;
  int agree = rp->first && r->run.result == rp->first->run.result;
  double cells = (double)sqz_domain_cells(b->dom) * (double)b->steps;
  sqz_json j;
  sqz_json_begin(&j, out);
  sqz_json_str(&j, "map", r->map);
  sqz_json_str(&j, "layout", r->layout);
  sqz_json_str(&j, "status", r->run.status == SQZ_OK ? "ok" : r->run.error);
  if (r->run.status == SQZ_OK) {
    sqz_json_u64(&j, "rho", r->stats.rho);
    sqz_json_u64(&j, "launches", r->stats.launches);
    sqz_json_u64(&j, "launched_threads", r->stats.launched);
    sqz_json_u64(&j, "useful_threads", r->stats.useful);
    sqz_json_num(&j, "waste", r->stats.waste);
    sqz_json_num(&j, "kernel_s_per_pass", r->run.kernel_s / (double)b->steps);
    sqz_json_num(&j, "wall_s_per_pass", r->run.wall_s / (double)b->steps);
    sqz_json_num(&j, "cells_per_s", cells / r->run.kernel_s);
    sqz_json_u64(&j, "bytes", r->run.bytes);
    if (bb) sqz_json_num(&j, "speedup_vs_bb", bb->run.kernel_s / r->run.kernel_s);
    if (bw > 0) /* layout bits moves a bit where the others move a byte */
      sqz_json_num(&j, "floor_share",
                   sqz__bytes(b) * sqz_cli_cell_scale(b->dom, r->layout) * cells / bw / r->run.kernel_s);
    sqz_json_u64(&j, "result", r->run.result);
    sqz_json_raw(&j, "agree", agree ? "true" : "false");
  }
  sqz_bench_ran_json(&j, &r->run);
  fputc('}', out);
}

static void sqz__report_json(FILE *out, const sqz_sreport *rp, uint64_t copy_bytes, uint64_t max_bb, uint64_t max_c) {
  const sqz_sbench *b = rp->b;
  char *text = sqz_json_rows(rp->n, sqz__row_json, (void *)rp);
  sqz_json j;
  sqz_json_begin(&j, out);
  sqz_json_str(&j, "domain", sqz_domain_spec(b->dom));
  sqz_json_u64(&j, "cells", sqz_domain_cells(b->dom));
  sqz_bench_work_json(&j, b->work);
  if (b->w == SQZ_W_LIFE) sqz_json_str(&j, "rule", b->rule);
  sqz_json_u64(&j, "steps", b->steps);
  sqz_json_str(&j, "backend", sqz_context_backend(b->ctx));
  sqz_json_str(&j, "device", sqz_context_device_name(b->ctx));
  sqz_json_num(&j, "copy_bandwidth_bytes_per_s", rp->bw);
  sqz_json_u64(&j, "copy_bytes", copy_bytes);
  sqz_json_num(&j, "bytes_per_cell", sqz__bytes(b));
  sqz_json_u64(&j, "max_side_bb", max_bb);
  sqz_json_u64(&j, "max_side_compact", max_c);
  sqz_json_raw(&j, "rows", text ? text : "[]");
  sqz_json_end(&j);
  free(text);
}

static void sqz__report(FILE *out, const sqz_sbench *b, const sqz_srow_result *rows, int n, double bw, uint64_t copy_bytes,
                        int json) {
  sqz_context *ctx = b->ctx;
  int dims = sqz_domain_dims(b->dom);
  const sqz_srow_result *first = NULL;
  for (int i = 0; i < n && !first; i++)
    if (rows[i].run.status == SQZ_OK) first = &rows[i];
  uint64_t max_bb = 0, max_c = 0;
  sqz_simplex_max_side(dims, "bb", 1, 2, sqz_context_max_alloc(ctx), sqz_context_global_mem(ctx), &max_bb);
  sqz_simplex_max_side(dims, "compact", 1, 2, sqz_context_max_alloc(ctx), sqz_context_global_mem(ctx), &max_c);
  double cells = (double)sqz_domain_cells(b->dom) * (double)b->steps, bpc = sqz__bytes(b);
  sqz_sreport rp = {b, rows, first, n, bw};
  if (json) {
    sqz__report_json(out, &rp, copy_bytes, max_bb, max_c);
    return;
  }
  char label[160], vs[16], one[16];
  fprintf(out, "sqz bench simplex: %s (%llu cells), workload %s, %llu passes, %s (%s)\n", sqz_domain_spec(b->dom),
          (unsigned long long)sqz_domain_cells(b->dom), sqz_bench_work_label(b->work, label, sizeof label),
          (unsigned long long)b->steps, sqz_context_device_name(ctx), sqz_context_backend(ctx));
  fprintf(out, "copy bandwidth %.3g B/s (copies of %llu bytes); floor at %.0f bytes per cell: %.3g cells/s\n", bw,
          (unsigned long long)copy_bytes, bpc, bw / bpc);
  fprintf(out, "largest side that fits (2 buffers of 1 byte per cell): bb %llu, compact %llu (%.3fx)\n",
          (unsigned long long)max_bb, (unsigned long long)max_c, max_bb ? (double)max_c / (double)max_bb : 0.0);
  fprintf(out, "%-8s %-10s %5s %4s %8s %14s %14s %7s %10s %10s %9s %7s %6s %6s %12s %4s  %s\n", "layout", "map", "parts",
          "rho", "launches", "launched", "useful", "waste%", "kernel ms", "e2e ms", "Gcells/s", "floor%", "vs bb", "vs 1",
          "bytes", "same", "engine");
  for (int i = 0; i < n; i++) {
    const sqz_srow_result *r = &rows[i], *bb = sqz__bb_row(rows, n, r->layout);
    if (r->run.status != SQZ_OK) {
      fprintf(out, "%-8s %-10s %5llu  failed: %s\n", r->layout, r->map, (unsigned long long)r->run.parts, r->run.error);
      continue;
    }
    snprintf(vs, sizeof vs, "-");
    if (bb) snprintf(vs, sizeof vs, "%.2f", bb->run.kernel_s / r->run.kernel_s);
    fprintf(out, "%-8s %-10s %5llu %4u %8llu %14llu %14llu %7.2f %10.4f %10.4f %9.3f %7.1f %6s %6s %12llu %4s  %s\n",
            r->layout, r->map, (unsigned long long)r->run.parts, r->stats.rho, (unsigned long long)r->stats.launches,
            (unsigned long long)r->stats.launched, (unsigned long long)r->stats.useful, 100.0 * r->stats.waste,
            1e3 * r->run.kernel_s / (double)b->steps, 1e3 * r->run.wall_s / (double)b->steps,
            cells / r->run.kernel_s * 1e-9,
            bw > 0 ? 100.0 * bpc * sqz_cli_cell_scale(b->dom, r->layout) * cells / bw / r->run.kernel_s : 0.0, vs,
            sqz_bench_ran_vs(&r->run, one, sizeof one), (unsigned long long)r->run.bytes,
            first && r->run.result == first->run.result ? "yes" : "NO", *r->run.engine ? r->run.engine : "-");
  }
}

/* The parsed command line of one run. */
typedef struct {
  sqz_bench_args a; /* the options */
  sqz_sbench b;     /* the workload's settings; ctx, dom and xy are each run's */
  char layout_list[4][16];
  int nlayouts;
} sqz_sopts;

#define SQZ_SB_TEXT(name, arg, field, help) {name, arg, help, sqz_cli_p_text, offsetof(sqz_bench_args, field), 0, 0}
static const sqz_cli_optdef sqz_sb_domain =
    SQZ_CLI_TEXT("--domain", "D", domain, "triangle:N or tetrahedron:N (required)");
static const sqz_cli_optdef sqz_sb_workload = {
    "--workload", "W",
    "life (default), heat, kernel FILE.cl, edm, map or accumulate (below)", sqz_bench_p_workload,
    offsetof(sqz_bench_args, w), 0, 0};
static const sqz_cli_optdef sqz_sb_maps =
    SQZ_SB_TEXT("--maps", "M1,M2,...", maps, "the maps below to run (default: all of the domain's dimension)");
static const sqz_cli_optdef sqz_sb_layouts =
    SQZ_SB_TEXT("--layouts", "L1,L2", layouts, "the layouts below to run each map in (default compact,bb)");
static const sqz_cli_optdef sqz_sb_rule =
    SQZ_CLI_TEXT("--rule", "R", rule, "life's rule (default B3/S23 in 2D and B6/S5,6,7 in 3D)");
static const sqz_cli_optdef sqz_sb_backend = SQZ_CLI_TEXT(
    "--backend", "B", backend, "opencl (default) or cpu, or a list such as opencl,cpu: the same run on each backend in\n"
                               "turn, each report with its own copy bandwidth, then per layout and map the first\n"
                               "backend's speed against the others' (kernel time ratio) and whether results agree");
static const sqz_cli_optdef *const sqz_sb_opts[] = {&sqz_sb_domain, &sqz_sb_workload, SQZ_BENCH_OPTS_WORK,
                                                    &sqz_sb_rule,   &sqz_sb_layouts,  &sqz_sb_maps,
                                                    &sqz_cli_opt_block, &sqz_sb_backend, SQZ_BENCH_OPTS_END};


static const sqz_cli_cmd sqz_sb_cmd = {
    "bench simplex", "--domain triangle:N|tetrahedron:N [options]",
    "Runs the workload through every map of the domain's dimension (default) in each layout, one after the\n"
    "other: one untimed warm-up pass (builds the kernels), then K timed passes. Workloads:\n"
    "  life        Life-like steps (--rule) from a random state (--density, --seed); u8 cells\n"
    "  heat        heat steps (sqz heat, default alpha) from uniform values; --type f32 or f64 (default)\n"
    "  kernel FILE.cl  your update as for sqz run: --type u8|i32|f32|f64, --param values; a random\n"
    "              0/1 state of --density\n"
    "  edm         distance matrix of N random points (triangles only; packed float32 output)\n"
    "  map         every domain cell written once through the map (1 byte per cell)\n"
    "  accumulate  every domain cell read and incremented (2 bytes per cell)\n"
    "Reports per map: launches, launched and useful threads, kernel and end-to-end time per\n"
    "pass, cells/s, bytes, the speed-up against the bb map in the same layout, and the share\n"
    "of the floor set by the bytes each cell must move (2 x sizeof(T) for life, heat and kernel;\n"
    "layout bits: 2 bits) at the copy bandwidth measured in the same run (clEnqueueCopyBuffer;\n"
    "memcpy on the cpu backend), and the engine path that ran (sqz_field_engine). A column\n"
    "checks that all rows computed the same.\n",
    sqz_sb_opts, 0, {"--layouts", SQZ_FAMILY_SIMPLEX, NULL}, {"--maps", SQZ_FAMILY_SIMPLEX, 0, NULL, 0}};

static int sqz__bench_simplex_one(const char *backend, FILE *out, sqz_bench_points *pts, void *user);

/* After the options: the domain given, the workload checked, the lists split. */
static int sqz__simplex_check(sqz_sopts *o) {
  char map_list[16][16];
  const char *layouts = o->a.layouts;
  if (!o->a.s.domain) return sqz_cli_usage("bench simplex", "missing --domain triangle:N or tetrahedron:N");
  int rc = sqz_bench_work_check("bench simplex", &o->a.w, sqz_workload_others);
  if (rc) return rc;
  o->b = (sqz_sbench){.w = o->a.w.kind == SQZ_BENCH_LIFE ? SQZ_W_LIFE : SQZ_W_FIELD, .rule = o->a.s.rule,
                      .steps = o->a.s.steps, .seed = o->a.w.seed, .block = (uint32_t)o->a.s.block /* <= 1024 */};
  for (int k = 0; o->a.w.kind == SQZ_BENCH_OTHER && sqz_workload_others[k]; k++)
    if (strcmp(o->a.w.workload, sqz_workload_others[k]) == 0) o->b.w = (sqz_workload)(SQZ_W_EDM + k);
  if ((o->nlayouts = sqz__split_list(layouts ? layouts : "compact,bb", o->layout_list, 4)) <= 0)
    return sqz_cli_usage("bench simplex", "--layouts: '%s' is not a list like compact,bb", layouts);
  if (o->a.maps && sqz__split_list(o->a.maps, map_list, 16) <= 0)
    return sqz_cli_usage("bench simplex", "--maps: '%s' is not a list like bb,had", o->a.maps);
  return 0;
}

int sqz_cmd_bench_simplex(int argc, char **argv) {
  sqz_sopts o = {.a = {.s = {.steps = 10}, .w = {.density = 0.5, .seed = 1}}};
  int rc = sqz_cli_parse(&sqz_sb_cmd, argc, argv, &o);
  if (rc == 0) rc = sqz__simplex_check(&o);
  if (rc == 0 && sqz_bench_is_list(o.a.s.backend)) { /* tools/bench_backends.c */
    rc = sqz_bench_backends("bench simplex", o.a.s.backend, o.a.s.json, sqz__bench_simplex_one, &o);
  } else if (rc == 0) {
    sqz_bench_points pts = {NULL, 0, 0};
    rc = sqz__bench_simplex_one(o.a.s.backend, stdout, &pts, &o);
    free(pts.points);
  }
  sqz_bench_work_free(&o.a.w);
  return rc < 0 ? 0 : rc;
}

/* The domain against the workload and the maps (the registry's of its dimension when none were given). 0 or the
 * exit status. */
static int sqz__simplex_setup(const sqz_sopts *o, sqz_sbench *b, char (*map_list)[16], int *nmaps) {
  int st = sqz_domain_parse(b->ctx, o->a.s.domain, &b->dom);
  int dims = st == SQZ_OK ? sqz_domain_dims(b->dom) : 0;
  if (st != SQZ_OK) return sqz_cli_fail("bench simplex", b->ctx, st);
  if (sqz_domain_get_kind(b->dom) == SQZ_DOMAIN_FRACTAL)
    return sqz_cli_error("bench simplex", SQZ_ERR_INVALID_ARGUMENT, "'%s' is a fractal: use 'sqz bench fractal'", o->a.s.domain);
  if (b->w == SQZ_W_EDM && dims != 2)
    return sqz_cli_error("bench simplex", SQZ_ERR_INVALID_ARGUMENT, "the edm workload runs on triangles, not on %s", o->a.s.domain);
  if (b->rule && sqz_rule_parse(b->rule, dims, NULL, NULL, NULL, 0) != SQZ_OK)
    return sqz_cli_error("bench simplex", SQZ_ERR_PARSE, "--rule '%s' is not a %dD rule", b->rule, dims);
  if (!b->rule) b->rule = dims == 2 ? "B3/S23" : "B6/S5,6,7";
  const char *known[16];
  int nknown = sqz_cli_maps(SQZ_FAMILY_SIMPLEX, dims, NULL, 0, known, 16); /* the registry's maps of dims */
  *nmaps = o->a.maps ? sqz__split_list(o->a.maps, map_list, 16) : 0;
  if (!o->a.maps)
    for (int m = 0; m < nknown; m++) snprintf(map_list[(*nmaps)++], 16, "%s", known[m]);
  for (int m = 0; m < *nmaps; m++)
    if (!sqz_cli_map_in(map_list[m], strlen(map_list[m]), known, nknown))
      return sqz_cli_usage("bench simplex", "--maps: '%s' is not a %dD map", map_list[m], dims);
  if (b->w != SQZ_W_EDM) return 0;
  uint64_t np = sqz_domain_side(b->dom);
  b->xy = sqz_cli_malloc((size_t)(2 * np) * sizeof *b->xy);
  if (!b->xy) return sqz_cli_error("bench simplex", SQZ_ERR_OUT_OF_MEMORY, "%llu points", (unsigned long long)np);
  sqz_bench_random_points(np, b->seed, b->xy);
  return 0;
}

/* The rows: per layout and map the one-buffer row, then its --parts rows where the layout parts. *rows to free();
 * 0 or the exit status. */
static int sqz__simplex_rows(const sqz_sopts *o, const sqz_sbench *b, char (*map_list)[16], int nmaps,
                             sqz_srow_result **rows, int *n) {
  int nlayouts = b->w == SQZ_W_EDM ? 1 : o->nlayouts;
  size_t cap = (size_t)nlayouts * (size_t)nmaps * (size_t)(1 + o->a.w.n_parts);
  if (!(*rows = sqz_cli_calloc(cap, sizeof **rows)))
    return sqz_cli_error("bench simplex", SQZ_ERR_OUT_OF_MEMORY, "%zu result rows", cap);
  for (int l = 0; l < nlayouts; l++) {
    const char *layout = b->w == SQZ_W_EDM ? "packed" : o->layout_list[l];
    int parts = b->w == SQZ_W_EDM ? 0 : sqz_bench_work_parts_ok("bench simplex", b->ctx, &o->a.w, b->dom, layout);
    if (parts == 2) return 2;
    for (int m = 0; m < nmaps; m++) {
      sqz_srow_result *one = &(*rows)[(*n)++];
      snprintf(one->map, sizeof one->map, "%.15s", map_list[m]); /* names of up to 15 characters */
      snprintf(one->layout, sizeof one->layout, "%.15s", layout);
      one->run.parts = 1;
      for (int k = 0; parts && k < o->a.w.n_parts; k++) {
        sqz_srow_result *r = &(*rows)[(*n)++];
        *r = *one;
        r->run.parts = o->a.w.parts[k];
        r->run.one = &one->run;
      }
    }
  }
  return 0;
}

static int sqz__bench_simplex_one(const char *backend, FILE *out, sqz_bench_points *pts, void *user) {
  const sqz_sopts *o = user;
  sqz_sbench b = o->b;
  sqz_bench_work w = o->a.w; /* its rule: the domain's default when none was given */
  sqz_srow_result *rows = NULL;
  char map_list[16][16], name[48];
  int nmaps = 0, n = 0, rc = 0;
  b.work = &w;
  if ((rc = sqz_cli_open("bench simplex", backend, o->a.s.device, &b.ctx)) != 0) return rc;
  if ((rc = sqz__simplex_setup(o, &b, map_list, &nmaps)) != 0) goto done;
  w.rule = b.rule;
  if ((rc = sqz__simplex_rows(o, &b, map_list, nmaps, &rows, &n)) != 0) goto done;
  uint64_t copy_bytes = 0;
  double bw = 0; /* stays 0 when it cannot be measured */
  if (!o->a.no_copy_test) sqz_bench_copy_bandwidth(b.ctx, 0, &bw, &copy_bytes); /* else no floor columns (0) */
  for (int i = 0; i < n; i++) {
    if (sqz_cli_progress()) fprintf(stderr, "\r%-8s %-10s %llu ...", rows[i].layout, rows[i].map,
                                    (unsigned long long)rows[i].run.parts);
    sqz__bench_row(&b, &rows[i]);
    if (sqz_bench_work_fatal("bench simplex", b.ctx, &w, rows[i].run.status)) {
      rc = 1; /* the kernel did not build: no report */
      goto done;
    }
  }
  if (sqz_cli_progress()) fprintf(stderr, "\r%40s\r", "");
  sqz__report(out, &b, rows, n, bw, copy_bytes, o->a.s.json);
  for (int i = 0; i < n; i++) {
    char base[40];
    snprintf(base, sizeof base, "%s/%s", rows[i].layout, rows[i].map);
    sqz_bench_ran_name(&rows[i].run, base, name, sizeof name);
    sqz_bench_add(pts, name, rows[i].run.status == SQZ_OK, rows[i].run.kernel_s / (double)b.steps, rows[i].run.result);
    if (rows[i].run.status != SQZ_OK) rc = 1;
  }
done:
  free(rows);
  free(b.xy);
  sqz_domain_release(b.dom);
  sqz_context_release(b.ctx);
  return rc;
}
