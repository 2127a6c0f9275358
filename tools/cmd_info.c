/* cmd_info.c — `sqz info`: cells, bytes per layout, memory reduction factor and device fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_table.h"
#include "cmds.h"
#include "sqz_bench.h"

static const sqz_cli_optdef sqz_info_layout = SQZ_CLI_TEXT(
    "--layout", "L", layout, "one layout of those below instead of all (with --parts: the parts of a u8 field in L)");
static const sqz_cli_optdef sqz_info_map =
    SQZ_CLI_TEXT("--map", "M", map, "one simplex thread map of those below instead of all (simplices only)");
static const sqz_cli_optdef sqz_info_block =
    SQZ_CLI_COUNT("--block", "RHO", block, 0, SQZ_CLI_BLOCK_MAX, "the maps' launch block side (0 = automatic, at most 1024)");
static const sqz_cli_optdef sqz_info_parts_opt = {
    "--parts", "P", "the field in P parts of layout compact instead (no device is opened; no --map, --block)",
    sqz_cli_p_u64, offsetof(sqz_cli_set, parts.parts), 1, UINT64_MAX};
static const sqz_cli_optdef *const sqz_info_opts[] = {
    &sqz_info_layout,     &sqz_info_map,       &sqz_info_block,   &sqz_info_parts_opt,
    &sqz_cli_opt_backend_cuda, &sqz_cli_opt_device, &sqz_cli_opt_json, &sqz_cli_opt_option, NULL};


static const sqz_cli_cmd sqz_info_cmd = {
    "info",
    "DOMAIN [--layout L] [--map M] [--block RHO] [--backend B] [--device D] [--json]\n"
    "       sqz info DOMAIN --parts P [--layout L] [--json]\n"
    "       sqz info simplex --m M [--r R] [--beta B] [--n N] [--json]   (sqz info simplex --help)",
    "Prints the domain's cells, the bytes of one state buffer (1 byte per cell; layout bits 1 bit) in each layout,\n"
    "the memory reduction factor against the bounding box (bb), and whether one buffer fits the\n"
    "device's largest single allocation and two (ping-pong) buffers fit its global memory.\n"
    "For simplices it also prints, per thread map (or for --map M), the threads launched, the\n"
    "useful threads and the waste, and the largest N whose bb / compact state fits the device.\n"
    "With --parts P it prints the field in P parts of layout compact instead (no device is opened):\n"
    "fractals by replicas at the smallest level j with k^j >= P, simplices by bands of the storage\n"
    "order; cells per part, and the exact halo each part receives per step (cells, bytes at 1 byte\n"
    "and at 1 bit per cell, messages); with --layout L (bb, lambda, block:RHO, bits) also the largest part buffer\n"
    "and the halo bytes per step of a u8 field in layout L (bb, lambda: bands of bounding-box rows, planes of a\n"
    "tetrahedron; bits: whole bits tiles of fractals, rows of words of simplices; at once for any R and P).\n",
    sqz_info_opts, 1, {"--layout", 0, NULL}, {"--map", SQZ_FAMILY_SIMPLEX, 0, NULL, 0}};

/* `sqz info simplex`: the m-simplex volume analysis. */
typedef struct {
  sqz_cli_set s; /* --json */
  uint64_t m, n;
  double r, beta;
} sqz_msimplex_opts;

static const sqz_cli_optdef sqz_msimplex_m = {"--m", "M", "the dimension m, 2..16 (required)", sqz_cli_p_u64,
                                              offsetof(sqz_msimplex_opts, m), 2, 16};
static const sqz_cli_optdef sqz_msimplex_r = {"--r", "R", "the scale of the recursive orthotope set, 0 < R < 1 (default 0.5)",
                                              sqz_cli_p_number, offsetof(sqz_msimplex_opts, r), 0, 0};
static const sqz_cli_optdef sqz_msimplex_beta = {"--beta", "B", "its arity, 1 .. 1e6 with B R^M < 1 (default 2)", sqz_cli_p_number,
                                                 offsetof(sqz_msimplex_opts, beta), 0, 0};
static const sqz_cli_optdef sqz_msimplex_n = {"--n", "N", "the sample side of the volumes (default (1/R)^4, or 16)",
                                              sqz_cli_p_u64, offsetof(sqz_msimplex_opts, n), 0, UINT64_MAX};
static const sqz_cli_optdef *const sqz_msimplex_opts_list[] = {&sqz_msimplex_m, &sqz_msimplex_r, &sqz_msimplex_beta,
                                                               &sqz_msimplex_n, &sqz_cli_opt_json, NULL};
static const sqz_cli_cmd sqz_msimplex_cmd = {
    "info simplex", "--m M [--r R] [--beta B] [--n N] [--json]",
    "The m-simplex volume analysis: the recursive orthotope set of scale R and arity B against the\n"
    "simplex, its extra volume and its limit.\n",
    sqz_msimplex_opts_list, 0, {NULL, 0, NULL}, {NULL, 0, 0, NULL, 0}};

static void sqz__msimplex_json(const sqz_msimplex_volume *st) {
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_json_u64(&j, "m", (uint64_t)st->m);
  sqz_json_num(&j, "r", st->r);
  sqz_json_num(&j, "beta", st->beta);
  sqz_json_num(&j, "gamma", st->gamma);
  sqz_json_num(&j, "limit_extra", st->limit_extra);
  sqz_json_num(&j, "mfact_r", st->mfact_r);
  sqz_json_u64(&j, "n", st->n);
  sqz_json_num(&j, "volume_set", st->volume_set);
  sqz_json_num(&j, "volume_simplex", st->volume_simplex);
  sqz_json_num(&j, "extra", st->extra);
  sqz_json_end(&j);
}

static int sqz__info_msimplex(int argc, char **argv) {
  sqz_msimplex_opts o = {.r = 0.5, .beta = 2.0};
  int rc = sqz_cli_parse(&sqz_msimplex_cmd, argc - 1, argv + 1, &o);
  if (rc) return rc < 0 ? 0 : rc;
  if (!o.m) return sqz_cli_usage("info simplex", "missing --m M (2..16)");
  sqz_msimplex_volume st;
  rc = sqz_bench_msimplex((int32_t)o.m, o.r, o.beta, o.n, &st);
  if (rc != SQZ_OK) return sqz_cli_fail("info simplex", NULL, rc);
  if (o.s.json) {
    sqz__msimplex_json(&st);
    return 0;
  }
  printf("m-simplex analysis: m = %d, scale r = %g, arity beta = %g\n", st.m, st.r, st.beta);
  printf("V(S_n^m) = (n^m - n^%.6g) / %.6g\n", st.gamma, st.denom);
  printf("at n = %llu: V(S) = %.6g, V(Delta) = %.6g, extra volume %.6g\n", (unsigned long long)st.n, st.volume_set,
         st.volume_simplex, st.extra);
  printf("limit extra volume m!/(r^-m - beta) - 1 = %.6g\n", st.limit_extra);
  printf("m! target: r = (m! + beta)^(-1/m) = %.6g\n", st.mfact_r);
  return 0;
}

/* Per-map launch statistics of a simplex domain (one map, or all of its dimension). */
static int sqz__info_maps(sqz_domain *dom, const char *map, uint32_t rho, int json) {
  const char *maps[32] = {map};
  int n = map ? 1 : sqz_cli_maps(SQZ_FAMILY_SIMPLEX, sqz_domain_dims(dom), NULL, 0, maps, 32);
  if (json) fputs(",\"maps\":[", stdout);
  else printf("\n%-10s %5s %9s %20s %20s %10s\n", "map", "rho", "launches", "threads launched", "useful", "waste");
  for (int i = 0; i < n; i++) {
    uint32_t rho_used = 0;
    uint64_t launches = 0, launched = 0, useful = 0;
    int st = sqz_domain_map_stats(dom, maps[i], rho, &rho_used, &launches, &launched, &useful);
    if (st != SQZ_OK) {
      if (map || st == SQZ_ERR_OUT_OF_MEMORY) return sqz_cli_fail("info", NULL, st); /* else a map that does not apply */
      if (!json) printf("%-10s %s\n", maps[i], sqz_last_error(NULL));
      continue;
    }
    double waste = (double)(launched - useful) / (double)useful;
    if (json)
      printf("%s{\"map\":\"%s\",\"rho\":%u,\"launches\":%llu,\"launched\":%llu,\"useful\":%llu,\"waste\":%.6g}",
             i ? "," : "", maps[i], rho_used, (unsigned long long)launches, (unsigned long long)launched,
             (unsigned long long)useful, waste);
    else
      printf("%-10s %5u %9llu %20llu %20llu %10.4f\n", maps[i], rho_used, (unsigned long long)launches,
             (unsigned long long)launched, (unsigned long long)useful, waste);
  }
  if (json) fputs("]", stdout);
  return 0;
}

typedef struct {
  char name[32];
  uint64_t cells, bytes; /* storage elements and bytes of one buffer (layout bits: a bit each) */
  uint64_t parts, halo;  /* the automatic part count of a u8 field on the device, its halo bytes per step */
  int status;
} sqz_info_row;

/* The rows: --layout, or the registry's layouts of the domain's family (block:RHO for RHO = s^j <= 32). */
static int sqz__info_layouts(sqz_domain *dom, const char *only, sqz_info_row *rows, int max) {
  char list[512];
  int n = 0;
  if (only) {
    snprintf(rows[0].name, sizeof rows[0].name, "%s", only);
    return 1;
  }
  sqz_cli_layouts(dom, 0, list, sizeof list);
  for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
    snprintf(rows[n++].name, sizeof rows[0].name, "%s", tok);
  return n;
}

/* Largest side whose two 1-byte state buffers fit the device, in layout bb or compact. */
static uint64_t sqz__info_max_side(sqz_domain *dom, const char *layout, uint64_t max_alloc, uint64_t gmem) {
  uint64_t side = 0;
  sqz_simplex_max_side(sqz_domain_dims(dom), layout, 1, 2, max_alloc, gmem, &side);
  return side;
}

/* What the report shows beside the rows. */
typedef struct {
  const sqz_cli_set *o;
  sqz_context *ctx;
  sqz_domain *dom;
  const sqz_info_row *rows;
  int n, simplex;
  uint64_t bb_cells, max_alloc, gmem;
} sqz_info_report;

/* The rows' cells, bytes and automatic parts; 0, or the exit status when the one --layout given fails. */
static int sqz__info_rows(sqz_domain *dom, sqz_context *ctx, const char *layout, sqz_info_row *rows, int n) {
  for (int i = 0; i < n; i++) {
    rows[i].status = sqz_domain_layout_cells(dom, rows[i].name, &rows[i].cells);
    if (rows[i].status == SQZ_OK) rows[i].status = sqz_domain_layout_bytes(dom, rows[i].name, &rows[i].bytes);
    if (rows[i].status == SQZ_OK && sqz_field_parts_auto(dom, ctx, SQZ_U8, rows[i].name, &rows[i].parts, &rows[i].halo))
      rows[i].parts = 0; /* no count keeps the parts within the limit */
    if (rows[i].status != SQZ_OK && layout) return sqz_cli_fail("info", NULL, rows[i].status);
  }
  return 0;
}

static int sqz__info_json(const sqz_info_report *r) {
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_json_str(&j, "domain", sqz_domain_spec(r->dom));
  sqz_json_u64(&j, "cells", sqz_domain_cells(r->dom));
  sqz_json_u64(&j, "side", sqz_domain_side(r->dom));
  sqz_json_str(&j, "device", sqz_context_device_name(r->ctx));
  sqz_json_u64(&j, "device_max_alloc", r->max_alloc);
  sqz_json_u64(&j, "device_global_mem", r->gmem);
  fputs(",\"layouts\":[", stdout);
  for (int i = 0, first = 1; i < r->n; i++) {
    const sqz_info_row *w = &r->rows[i];
    if (w->status != SQZ_OK) continue;
    printf("%s{\"layout\":\"%s\",\"cells\":%llu,\"bytes\":%llu,\"mrf\":%.6g,\"fits_one\":%s,\"fits_two\":%s,"
           "\"parts\":%llu,\"halo_bytes_per_step\":%llu}",
           first ? "" : ",", w->name, (unsigned long long)w->cells, (unsigned long long)w->bytes,
           (double)r->bb_cells / (double)w->bytes, w->bytes <= r->max_alloc ? "true" : "false",
           w->bytes <= r->gmem / 2 ? "true" : "false", (unsigned long long)w->parts, (unsigned long long)w->halo);
    first = 0;
  }
  fputs("]", stdout);
  int rc = r->simplex ? sqz__info_maps(r->dom, r->o->map, (uint32_t)r->o->block, 1) : 0;
  if (rc) return rc;
  if (r->simplex)
    printf(",\"max_n_bb\":%llu,\"max_n_compact\":%llu",
           (unsigned long long)sqz__info_max_side(r->dom, "bb", r->max_alloc, r->gmem),
           (unsigned long long)sqz__info_max_side(r->dom, "compact", r->max_alloc, r->gmem));
  fputs("}\n", stdout);
  return 0;
}

/* The text report's heading: the domain, its cells and the device. */
static void sqz__info_heading(const sqz_info_report *r) {
  printf("domain   %s\n", sqz_domain_spec(r->dom));
  if (sqz_domain_get_kind(r->dom) == SQZ_DOMAIN_FRACTAL) {
    int s, k, lvl;
    sqz_domain_fractal_params(r->dom, &s, &k, &lvl);
    printf("fractal  s = %d, k = %d, R = %d; embedding %llu x %llu\n", s, k, lvl,
           (unsigned long long)sqz_domain_side(r->dom), (unsigned long long)sqz_domain_side(r->dom));
  } else {
    printf("side     N = %llu (%dD)\n", (unsigned long long)sqz_domain_side(r->dom), sqz_domain_dims(r->dom));
  }
  printf("cells    %llu\n", (unsigned long long)sqz_domain_cells(r->dom));
  printf("device   %s: max allocation %llu bytes, global memory %llu bytes\n\n", sqz_context_device_name(r->ctx),
         (unsigned long long)r->max_alloc, (unsigned long long)r->gmem);
}

static int sqz__info_text(const sqz_info_report *r) {
  sqz__info_heading(r);
  printf("%-10s %20s %20s %10s %8s %8s %6s %14s\n", "layout", "cells stored", "bytes (1 B/cell)*", "MRF vs bb", "fits 1x",
         "fits 2x", "parts", "halo B/step");
  for (int i = 0; i < r->n; i++) {
    const sqz_info_row *w = &r->rows[i];
    if (w->status != SQZ_OK) {
      printf("%-10s %s\n", w->name, sqz_status_message(w->status));
      continue;
    }
    printf("%-10s %20llu %20llu %10.4g %8s %8s %6llu %14llu\n", w->name, (unsigned long long)w->cells,
           (unsigned long long)w->bytes, (double)r->bb_cells / (double)w->bytes, w->bytes <= r->max_alloc ? "yes" : "no",
           w->bytes <= r->gmem / 2 ? "yes" : "no", (unsigned long long)w->parts, (unsigned long long)w->halo);
  }
  puts("* layout bits: 1 bit per cell, rows (simplices) or tiles (fractals) padded to 32-bit words");
  puts("  parts: the buffers a u8 field takes on this device (above the allocation limit it is split by itself;\n"
       "  0: not even parts fit, or the layout does not part); halo B/step: what those parts exchange per step");
  if (!r->simplex) return 0;
  int rc = sqz__info_maps(r->dom, r->o->map, (uint32_t)r->o->block, 0);
  if (rc == 0)
    printf("\nlargest N with two 1-byte state buffers on this device: bb %llu, compact %llu\n",
           (unsigned long long)sqz__info_max_side(r->dom, "bb", r->max_alloc, r->gmem),
           (unsigned long long)sqz__info_max_side(r->dom, "compact", r->max_alloc, r->gmem));
  return rc;
}

/* The report on the device of --backend / --device. */
static int sqz__info_device(const sqz_cli_set *o, sqz_domain *dom) {
  sqz_info_report r = {.o = o, .dom = dom, .simplex = sqz_domain_get_kind(dom) != SQZ_DOMAIN_FRACTAL};
  sqz_info_row rows[16];
  if (o->map && !r.simplex)
    return sqz_cli_usage("info", "--map applies to triangle:N and tetrahedron:N; for fractals the layout is the method");
  int rc = sqz_cli_open("info", o->backend, o->device, &r.ctx);
  if (rc) return rc;
  r.rows = rows;
  r.n = sqz__info_layouts(dom, o->layout, rows, 16);
  sqz_domain_layout_cells(dom, "bb", &r.bb_cells);
  r.max_alloc = sqz_context_max_alloc(r.ctx);
  r.gmem = sqz_context_global_mem(r.ctx);
  rc = sqz__info_rows(dom, r.ctx, o->layout, rows, r.n);
  if (rc == 0) rc = o->json ? sqz__info_json(&r) : sqz__info_text(&r);
  sqz_context_release(r.ctx);
  return rc;
}

int sqz_cmd_info(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "simplex") == 0) return sqz__info_msimplex(argc, argv);
  sqz_cli_set o = {0};
  int rc = sqz_cli_parse(&sqz_info_cmd, argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  if (o.parts.parts && (o.map || o.block))
    return sqz_cli_usage("info", "--parts takes no --map or --block: parts cut the compact storage");
  sqz_domain *dom = NULL;
  int st = sqz_domain_parse(NULL, o.domain, &dom);
  if (st != SQZ_OK) return sqz_cli_fail("info", NULL, st);
  if (o.parts.parts)
    rc = sqz_info_parts(dom, o.parts.parts, o.layout && strcmp(o.layout, "compact") != 0 ? o.layout : NULL, o.json);
  else
    rc = sqz__info_device(&o, dom);
  sqz_domain_release(dom);
  return rc;
}
