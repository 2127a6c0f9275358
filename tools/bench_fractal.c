/* bench_fractal.c — `sqz bench fractal`: every fractal layout side by side in one run, against the device's copy bandwidth. */
#include <stdlib.h>
#include <string.h>

#include "bench_backends.h"
#include "bench_cuda.h"
#include "cli_common.h"
#include "cmds.h"
#include "sqz_bench.h"

static const char *sqz_bench_fractal_help =
    "usage: sqz bench fractal --domain fractal:NAME:R [--steps K] [--rule R] [--layouts L1,L2,...]\n"
    "                         [--density P] [--seed S] [--block RHO] [--maps M1,M2] [--backend B] [--device D]\n"
    "                         [--json] [--no-copy-test]\n"
    "\n"
    "Runs Life on the fractal in each layout, one after the other, from the same random state:\n"
    "an untimed warm-up of min(K, 4) steps (builds the kernels), then K timed steps (default 10).\n"
    "  --layouts  default bb,lambda,block:RHO for RHO = s^j up to 32 (s = 2: 4 and 16),compact\n"
    "  --rule     default B2/S23 (the Squeeze paper's rule)\n"
    "  --block    tile side of the compact and lambda launches (a power of s; 0 = automatic)\n"
    "  --maps     tile lambda maps of the lambda, block and compact rows, those of the backend (see\n"
    "             below); rows other than the backend's default are named LAYOUT/MAP\n"
    "  --backend  opencl, cpu, cuda, or all: OpenCL, CUDA with MMA tile maps and CUDA with ALU\n"
    "             tile maps side by side (default: the block layouts; --layouts none: no Life),\n"
    "             then the tile maps alone, MMA against ALU; or a list such as opencl,cpu: the\n"
    "             same run on each backend in turn, each report with its own copy bandwidth\n"
    "             (the cpu backend's: memcpy), then per layout the first backend's speed against\n"
    "             the others' (kernel time ratio) and whether the live cells agree\n"
    "Reports per layout: kernel and end-to-end time per step, cells/s, bytes (both buffers),\n"
    "memory reduction factor against bb, speed-up against bb, and the share of the floor set by\n"
    "moving 2 bytes per cell at the copy bandwidth measured in the same run. Layouts whose\n"
    "buffers do not fit are listed with the reason.\n";

typedef struct {
  char layout[32];
  int status;
  char error[512];
  double kernel_s, wall_s;
  uint64_t bytes, live;
} sqz_bench_row;

/* One layout (row name LAYOUT or LAYOUT/MAP): create, fill, warm-up steps, K timed steps,
 * count. Failures land in the row. */
static void sqz__bench_layout(sqz_context *ctx, sqz_domain *dom, const char *rule, uint64_t steps, double density,
                              uint64_t seed, uint32_t block, sqz_bench_row *row) {
  sqz_field *f = NULL;
  char layout[sizeof row->layout];
  snprintf(layout, sizeof layout, "%s", row->layout);
  char *map = strchr(layout, '/');
  if (map) *map++ = 0;
  int st = sqz_field_create(dom, SQZ_U8, layout, &f);
  if (st == SQZ_OK && map) st = sqz_field_set_map(f, map);
  if (st == SQZ_OK && block && strncmp(row->layout, "block:", 6) != 0 && strcmp(row->layout, "bb") != 0)
    st = sqz_field_set_block(f, block);
  if (st == SQZ_OK) st = sqz_field_fill_random(f, density, seed);
  /* the warm-up builds the kernels of the timed call: a call of several steps may launch another
   * kernel than a single step (several steps per launch), so it runs min(K, 4) steps */
  if (st == SQZ_OK) st = sqz_life_step(f, rule, steps < 4 ? steps : 4);
  if (st == SQZ_OK) st = sqz_life_step(f, rule, steps);
  if (st == SQZ_OK) st = sqz_context_timing(ctx, &row->kernel_s, &row->wall_s);
  if (st == SQZ_OK) row->bytes = sqz_field_bytes(f);
  if (st == SQZ_OK) st = sqz_field_count(f, &row->live);
  row->status = st;
  if (st != SQZ_OK)
    snprintf(row->error, sizeof row->error, "%s: %s", sqz_status_name(st), sqz_last_error(ctx));
  sqz_field_release(f);
}

static void sqz__print_json(FILE *out, sqz_context *ctx, sqz_domain *dom, const char *rule, uint64_t steps, double bw,
                            uint64_t copy_bytes, const sqz_bench_row *rows, int n, const sqz_bench_row *bb,
                            const sqz_bench_row *best) {
  uint64_t cells = sqz_domain_cells(dom), bb_cells = 0;
  sqz_domain_layout_cells(dom, "bb", &bb_cells);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = sqz_cli_memstream(&text, &len);
  if (!mem) return;
  fputc('[', mem);
  for (int i = 0; i < n; i++) {
    const sqz_bench_row *r = &rows[i];
    sqz_json j;
    sqz_json_begin(&j, mem);
    sqz_json_str(&j, "layout", r->layout);
    sqz_json_str(&j, "status", r->status == SQZ_OK ? "ok" : r->error);
    if (r->status == SQZ_OK) {
      sqz_json_num(&j, "kernel_s", r->kernel_s);
      sqz_json_num(&j, "wall_s", r->wall_s);
      sqz_json_num(&j, "kernel_s_per_step", r->kernel_s / (double)steps);
      sqz_json_num(&j, "wall_s_per_step", r->wall_s / (double)steps);
      sqz_json_num(&j, "cells_per_s", (double)cells * (double)steps / r->kernel_s);
      sqz_json_u64(&j, "bytes", r->bytes);
      sqz_json_num(&j, "mrf", 2.0 * (double)bb_cells / (double)r->bytes);
      if (bb) sqz_json_num(&j, "speedup_vs_bb", bb->kernel_s / r->kernel_s);
      if (bw > 0) /* 2 bytes per cell (layout bits: 2 bits) at the copy bandwidth */
        sqz_json_num(&j, "floor_share",
                     2.0 * sqz_cli_cell_scale(dom, r->layout) * (double)cells * (double)steps / bw / r->kernel_s);
      sqz_json_u64(&j, "live", r->live);
    }
    fputc('}', mem); /* sqz_json_end would put a newline inside the array */
    if (i + 1 < n) fputc(',', mem);
  }
  fputc(']', mem);
  fclose(mem);
  sqz_json j;
  sqz_json_begin(&j, out);
  sqz_json_str(&j, "domain", sqz_domain_spec(dom));
  sqz_json_u64(&j, "cells", cells);
  sqz_json_u64(&j, "side", sqz_domain_side(dom));
  sqz_json_u64(&j, "steps", steps);
  sqz_json_str(&j, "rule", rule);
  sqz_json_str(&j, "backend", sqz_context_backend(ctx));
  sqz_json_str(&j, "device", sqz_context_device_name(ctx));
  sqz_json_num(&j, "copy_bandwidth_bytes_per_s", bw);
  sqz_json_u64(&j, "copy_bytes", copy_bytes);
  if (bw > 0) sqz_json_num(&j, "floor_s_per_step", 2.0 * (double)cells / bw);
  if (best) {
    sqz_json_str(&j, "best_layout", best->layout);
    sqz_json_u64(&j, "live", best->live);
    sqz_json_num(&j, "kernel_s", best->kernel_s);
    sqz_json_num(&j, "wall_s", best->wall_s);
    sqz_json_num(&j, "cells_per_s", (double)cells * (double)steps / best->kernel_s);
    sqz_json_u64(&j, "bytes", best->bytes);
  }
  sqz_json_raw(&j, "layouts", text);
  sqz_json_end(&j);
  free(text);
}

static void sqz__print_table(FILE *out, sqz_context *ctx, sqz_domain *dom, const char *rule, uint64_t steps, double bw,
                             uint64_t copy_bytes, const sqz_bench_row *rows, int n, const sqz_bench_row *bb) {
  uint64_t cells = sqz_domain_cells(dom), bb_cells = 0;
  sqz_domain_layout_cells(dom, "bb", &bb_cells);
  double floor_s = bw > 0 ? 2.0 * (double)cells / bw : 0.0;
  fprintf(out, "domain  %s: %llu cells, side %llu; rule %s, %llu timed steps\n", sqz_domain_spec(dom),
         (unsigned long long)cells, (unsigned long long)sqz_domain_side(dom), rule, (unsigned long long)steps);
  fprintf(out, "device  %s (%s)\n", sqz_context_device_name(ctx), sqz_context_backend(ctx));
  fprintf(out, "copy    %.1f GB/s (%s of %llu MiB); floor of 2 bytes per cell: %.4f ms/step\n\n", 1e-9 * bw,
         strcmp(sqz_context_backend(ctx), "opencl") == 0 ? "clEnqueueCopyBuffer" : "memcpy",
         (unsigned long long)(copy_bytes >> 20), 1e3 * floor_s);
  fprintf(out, "%-16s %12s %12s %10s %14s %8s %8s %8s %12s\n", "layout", "kernel ms", "e2e ms", "Gcells/s", "bytes",
         "MRF", "vs bb", "floor", "live");
  for (int i = 0; i < n; i++) {
    const sqz_bench_row *r = &rows[i];
    if (r->status != SQZ_OK) {
      fprintf(out, "%-16s not run: %s\n", r->layout, r->error);
      continue;
    }
    double k = r->kernel_s / (double)steps;
    char vs[32] = "-";
    if (bb) snprintf(vs, sizeof vs, "%.1fx", bb->kernel_s / r->kernel_s);
    fprintf(out, "%-16s %12.4f %12.4f %10.3f %14llu %8.1f %8s %7.1f%% %12llu\n", r->layout, 1e3 * k,
           1e3 * r->wall_s / (double)steps, 1e-9 * (double)cells / k, (unsigned long long)r->bytes,
           2.0 * (double)bb_cells / (double)r->bytes, vs, k > 0 ? 100.0 * floor_s * sqz_cli_cell_scale(dom, r->layout) / k : 0.0,
           (unsigned long long)r->live);
  }
  fprintf(out, "\nkernel/e2e ms: per step; MRF: bb bytes / layout bytes (two buffers each); floor: share of the\n"
          "2-byte-per-cell (bits: 2-bit) copy floor reached; live: live cells after the run (equal in every layout).\n");
}

typedef struct {
  const char *domain, *rule, *layouts, *backend, *device, *maps;
  uint64_t steps, seed, block;
  double density;
  int json, no_copy_test;
} sqz_bench_opts;

static int sqz__bench_args(int argc, char **argv, sqz_bench_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int m;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(sqz_bench_fractal_help, stdout);
      puts("layouts (--layouts):");
      sqz_cli_help_layouts(stdout, "  ");
      puts("tile lambda maps (--maps):");
      sqz_cli_help_maps(stdout, "  ", SQZ_FAMILY_FRACTAL, 0);
      return -1;
    }
    if (strcmp(argv[i], "--json") == 0) {
      o->json = 1;
      continue;
    }
    if (strcmp(argv[i], "--no-copy-test") == 0) { /* no copy-bandwidth measurement: no floor shares */
      o->no_copy_test = 1;
      continue;
    }
    static const char *const text_opts[] = {"--domain", "--rule",  "--layouts", "--backend",
                                            "--device", "--maps", "--density"};
    static const char *const num_opts[] = {"--steps", "--seed", "--block"};
    const char **text_dst[] = {&o->domain, &o->rule, &o->layouts, &o->backend, &o->device, &o->maps, NULL};
    uint64_t *num_dst[] = {&o->steps, &o->seed, &o->block};
    static const uint64_t num_min[] = {1, 0, 0}, num_max[] = {SQZ_CLI_STEPS_MAX, UINT64_MAX, SQZ_CLI_BLOCK_MAX};
    int done = 0;
    for (int k = 0; k < 10 && !done; k++) {
      const char *name = k < 7 ? text_opts[k] : num_opts[k - 7];
      if ((m = sqz_cli_opt(argc, argv, &i, name, 1, &v)) == 0) continue;
      if (m < 0) return sqz_cli_usage("bench fractal", "%s needs a value", name);
      done = 1;
      if (k < 6) {
        *text_dst[k] = v;
      } else if (k == 6) {
        if (sqz_cli_double("bench fractal", name, v, 0.0, 1.0, &o->density)) return 2;
      } else if (sqz_cli_u64_range("bench fractal", name, v, num_min[k - 7], num_max[k - 7], num_dst[k - 7])) {
        return 2;
      }
    }
    if (!done) return sqz_cli_usage("bench fractal", "unexpected argument '%s'", argv[i]);
  }
  if (!o->domain) return sqz_cli_usage("bench fractal", "missing --domain fractal:NAME:R");
  if (o->maps && o->backend && strcmp(o->backend, "all") == 0)
    return sqz_cli_usage("bench fractal", "--maps applies to one backend, not to --backend all");
  return 0;
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

/* The benchmark on one backend: its report to out, its rows to pts (user: the options). */
static int sqz__bench_fractal_one(const char *backend, FILE *out, sqz_bench_points *pts, void *user) {
  const sqz_bench_opts *op = user, o = *op;
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_bench_row *rows = NULL;
  char layouts[512], err[256];
  uint32_t b, s;
  int rc;
  if ((rc = sqz_cli_open("bench fractal", backend, o.device, &ctx)) != 0) return rc;
  int st = sqz_domain_parse(ctx, o.domain, &dom);
  if (st != SQZ_OK) {
    rc = sqz_cli_fail("bench fractal", ctx, st);
    goto done;
  }
  if (sqz_domain_get_kind(dom) != SQZ_DOMAIN_FRACTAL) {
    rc = sqz_cli_usage("bench fractal", "--domain %s is not a fractal (use sqz bench simplex)", o.domain);
    goto done;
  }
  if (sqz_rule_parse(o.rule, 2, &b, &s, err, sizeof err) != SQZ_OK) {
    rc = sqz_cli_usage("bench fractal", "--rule: %s", err);
    goto done;
  }
  if (o.maps && (rc = sqz__bench_maps_ok(ctx, o.maps)) != 0) goto done;
  if (o.layouts) snprintf(layouts, sizeof layouts, "%s", o.layouts);
  else sqz_cli_layouts(dom, SQZ_CLI_LAYOUTS_BENCH, layouts, sizeof layouts);
  int n = 0;
  size_t n_maps = o.maps ? strlen(o.maps) / 4 + 1 : 1;
  rows = sqz_cli_calloc((strlen(layouts) / 2 + 2) * n_maps, sizeof *rows);
  if (!rows) {
    rc = sqz_cli_error("bench fractal", SQZ_ERR_OUT_OF_MEMORY, "%zu result rows", (strlen(layouts) / 2 + 2) * n_maps);
    goto done;
  }
  for (char *save = NULL, *tok = strtok_r(layouts, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    uint64_t cells;
    if ((st = sqz_domain_layout_cells(dom, tok, &cells)) != SQZ_OK && st != SQZ_ERR_TOO_LARGE) {
      rc = sqz_cli_usage("bench fractal", "--layouts: %s", sqz_last_error(ctx));
      goto done;
    }
    if (!o.maps || strcmp(tok, "bb") == 0) { /* bb has no tile λ: one row whatever --maps says */
      snprintf(rows[n++].layout, sizeof rows[0].layout, "%s", tok);
      continue;
    }
    for (const char *p = o.maps; *p; p += strcspn(p, ","), p += *p == ',') {
      int len = (int)strcspn(p, ",");
      char map[16];
      snprintf(map, sizeof map, "%.*s", len, p);
      if (sqz_cli_map_default(map)) snprintf(rows[n++].layout, sizeof rows[0].layout, "%s", tok); /* the default row */
      else snprintf(rows[n++].layout, sizeof rows[0].layout, "%s/%s", tok, map);
    }
  }
  uint64_t copy_bytes = 0;
  double bw = 0; /* stays 0 when it cannot be measured */
  if (!o.no_copy_test) sqz_bench_copy_bandwidth(ctx, 0, &bw, &copy_bytes);
  const sqz_bench_row *bb = NULL, *best = NULL, *first = NULL;
  for (int i = 0; i < n; i++) {
    if (!o.json && sqz_cli_progress()) fprintf(stderr, "sqz bench fractal: %s ...\n", rows[i].layout);
    sqz__bench_layout(ctx, dom, o.rule, o.steps, o.density, o.seed, (uint32_t)o.block /* <= 1024 */, &rows[i]);
    if (rows[i].status != SQZ_OK) continue;
    if (strcmp(rows[i].layout, "bb") == 0) bb = &rows[i];
    if (!best || rows[i].kernel_s < best->kernel_s) best = &rows[i];
    if (!first) first = &rows[i];
    if (first->live != rows[i].live) {
      fprintf(stderr, "sqz bench fractal: %s ends with %llu live cells but %s with %llu\n", rows[i].layout,
              (unsigned long long)rows[i].live, first->layout, (unsigned long long)first->live);
      rc = 1;
    }
  }
  for (int i = 0; i < n; i++)
    sqz_bench_add(pts, rows[i].layout, rows[i].status == SQZ_OK, rows[i].kernel_s / (double)o.steps, rows[i].live);
  if (o.json) sqz__print_json(out, ctx, dom, o.rule, o.steps, bw, copy_bytes, rows, n, bb, best);
  else sqz__print_table(out, ctx, dom, o.rule, o.steps, bw, copy_bytes, rows, n, bb);
  if (!best && rc == 0) rc = 1; /* no layout could run */
done:
  free(rows);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return rc;
}

int sqz_cmd_bench_fractal(int argc, char **argv) {
  sqz_bench_opts o = {.rule = "B2/S23", .steps = 10, .seed = 1, .density = 0.5};
  int rc = sqz__bench_args(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  if (o.backend && strcmp(o.backend, "all") == 0) /* tools/bench_cuda.c */
    return sqz_cmd_bench_fractal_all(o.domain, o.rule, o.layouts, o.steps, o.density, o.seed, o.device, o.json);
  if (sqz_bench_is_list(o.backend)) /* tools/bench_backends.c */
    return sqz_bench_backends("bench fractal", o.backend, o.json, sqz__bench_fractal_one, &o);
  sqz_bench_points pts = {NULL, 0, 0};
  rc = sqz__bench_fractal_one(o.backend, stdout, &pts, &o);
  free(pts.points);
  return rc;
}
