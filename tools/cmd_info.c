/* cmd_info.c — `sqz info`: cells, bytes per layout, memory reduction factor and device fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"
#include "sqz_bench.h"

static const char *sqz_info_help =
    "usage: sqz info DOMAIN [--layout L] [--map M] [--block RHO] [--backend B] [--device D] [--json]\n"
    "       sqz info DOMAIN --parts P [--layout L] [--json]\n"
    "       sqz info simplex --m M [--r R] [--beta B] [--n N] [--json]\n"
    "\n"
    "Prints the domain's cells, the bytes of one state buffer (1 byte per cell; layout bits 1 bit) in each layout,\n"
    "the memory reduction factor against the bounding box (bb), and whether one buffer fits the\n"
    "device's largest single allocation and two (ping-pong) buffers fit its global memory.\n"
    "For simplices it also prints, per thread map (or for --map M), the threads launched, the\n"
    "useful threads and the waste, and the largest N whose bb / compact state fits the device.\n"
    "`sqz info simplex` prints the m-simplex volume analysis: recursive orthotope set of scale R\n"
    "(default 1/2) and arity B (default 2) against the simplex, its extra volume and limit.\n"
    "With --parts P it prints the field in P parts of layout compact instead (no device is opened):\n"
    "fractals by replicas at the smallest level j with k^j >= P, simplices by bands of the storage\n"
    "order; cells per part, and the exact halo each part receives per step (cells, bytes at 1 byte\n"
    "and at 1 bit per cell, messages); with --layout L (bb, lambda, block:RHO, bits) also the largest part buffer\n"
    "and the halo bytes per step of a u8 field in layout L (bb, lambda: bands of bounding-box rows, planes of a\n"
    "tetrahedron; bits: whole bits tiles of fractals, rows of words of simplices; at once for any R and P).\n";

/* `sqz info simplex --m M [--r R --beta B --n N]`: the m-simplex volume analysis. */
static int sqz__info_msimplex(int argc, char **argv) {
  uint64_t m = 0, n = 0;
  double r = 0.5, beta = 2.0;
  int json = 0, have_m = 0;
  for (int i = 2; i < argc; i++) {
    const char *v = NULL;
    int k;
    if ((k = sqz_cli_opt(argc, argv, &i, "--m", 1, &v)) != 0) {
      if (k < 0) return sqz_cli_usage("info", "--m needs a value");
      if (sqz_cli_u64_range("info", "--m", v, 2, 16, &m)) return 2; /* the analysis covers m = 2..16 */
      have_m = 1;
    } else if ((k = sqz_cli_opt(argc, argv, &i, "--n", 1, &v)) != 0) {
      if (k < 0 || sqz_cli_u64("info", "--n", v, &n)) return k < 0 ? sqz_cli_usage("info", "--n needs a value") : 2;
    } else if ((k = sqz_cli_opt(argc, argv, &i, "--r", 1, &v)) != 0) {
      if (k < 0) return sqz_cli_usage("info", "--r needs a value");
      if (sqz_cli_double("info", "--r", v, -HUGE_VAL, HUGE_VAL, &r)) return 2;
    } else if ((k = sqz_cli_opt(argc, argv, &i, "--beta", 1, &v)) != 0) {
      if (k < 0) return sqz_cli_usage("info", "--beta needs a value");
      if (sqz_cli_double("info", "--beta", v, -HUGE_VAL, HUGE_VAL, &beta)) return 2;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else {
      return sqz_cli_usage("info", "unknown option '%s' for 'info simplex'", argv[i]);
    }
  }
  if (!have_m) return sqz_cli_usage("info", "info simplex needs --m M (2..16)");
  sqz_msimplex_volume st;
  int rc = sqz_bench_msimplex((int32_t)m, r, beta, n, &st);
  if (rc != SQZ_OK) return sqz_cli_fail("info", NULL, rc);
  if (json) {
    sqz_json j;
    sqz_json_begin(&j, stdout);
    sqz_json_u64(&j, "m", (uint64_t)st.m);
    sqz_json_num(&j, "r", st.r);
    sqz_json_num(&j, "beta", st.beta);
    sqz_json_num(&j, "gamma", st.gamma);
    sqz_json_num(&j, "limit_extra", st.limit_extra);
    sqz_json_num(&j, "mfact_r", st.mfact_r);
    sqz_json_u64(&j, "n", st.n);
    sqz_json_num(&j, "volume_set", st.volume_set);
    sqz_json_num(&j, "volume_simplex", st.volume_simplex);
    sqz_json_num(&j, "extra", st.extra);
    sqz_json_end(&j);
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

int sqz_cmd_info(int argc, char **argv) {
  const char *domain = NULL, *layout = NULL, *backend = NULL, *device = NULL, *map = NULL;
  uint64_t rho = 0, parts = 0;
  int json = 0, have_parts = 0;
  if (argc > 1 && strcmp(argv[1], "simplex") == 0) return sqz__info_msimplex(argc, argv);
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int m;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(sqz_info_help, stdout);
      puts("\nlayouts (--layout):");
      sqz_cli_help_layouts(stdout, "  ");
      puts("simplex thread maps (--map):");
      sqz_cli_help_maps(stdout, "  ", SQZ_FAMILY_SIMPLEX, 0);
      return 0;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--layout", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--layout needs a value");
      layout = v;
    } else if ((m = sqz_cli_opt(argc, argv, &i, "--map", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--map needs a value");
      map = v;
    } else if ((m = sqz_cli_opt(argc, argv, &i, "--block", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--block needs a value");
      if (sqz_cli_u64_range("info", "--block", v, 0, SQZ_CLI_BLOCK_MAX, &rho)) return 2;
    } else if ((m = sqz_cli_opt(argc, argv, &i, "--parts", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--parts needs a value");
      if (sqz_cli_u64_range("info", "--parts", v, 1, UINT64_MAX, &parts)) return 2;
      have_parts = 1;
    } else if ((m = sqz_cli_opt(argc, argv, &i, "--backend", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--backend needs a value");
      backend = v;
    } else if ((m = sqz_cli_opt(argc, argv, &i, "--device", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--device needs a value");
      device = v;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (argv[i][0] == '-') {
      return sqz_cli_usage("info", "unknown option '%s'", argv[i]);
    } else if (!domain) {
      domain = argv[i];
    } else {
      return sqz_cli_usage("info", "unexpected argument '%s'", argv[i]);
    }
  }
  if (!domain) return sqz_cli_usage("info", "missing DOMAIN (e.g. triangle:1024 or fractal:sierpinski-triangle:16)");
  if (have_parts && (map || rho))
    return sqz_cli_usage("info", "--parts takes no --map or --block: parts cut the compact storage");

  sqz_domain *dom = NULL;
  int st = sqz_domain_parse(NULL, domain, &dom);
  if (st != SQZ_OK) return sqz_cli_fail("info", NULL, st);
  if (have_parts) {
    int prc = sqz_info_parts(dom, parts, layout && strcmp(layout, "compact") != 0 ? layout : NULL, json);
    sqz_domain_release(dom);
    return prc;
  }
  int simplex = sqz_domain_get_kind(dom) != SQZ_DOMAIN_FRACTAL;
  if (map && !simplex) {
    sqz_domain_release(dom);
    return sqz_cli_usage("info", "--map applies to triangle:N and tetrahedron:N; for fractals the layout is the method");
  }
  sqz_context *ctx = NULL;
  int rc = sqz_cli_open("info", backend, device, &ctx);
  if (rc) {
    sqz_domain_release(dom);
    return rc;
  }
  sqz_info_row rows[16];
  int n = sqz__info_layouts(dom, layout, rows, 16);
  uint64_t bb_cells = 0;
  sqz_domain_layout_cells(dom, "bb", &bb_cells);
  for (int i = 0; i < n; i++) {
    rows[i].status = sqz_domain_layout_cells(dom, rows[i].name, &rows[i].cells);
    if (rows[i].status == SQZ_OK) rows[i].status = sqz_domain_layout_bytes(dom, rows[i].name, &rows[i].bytes);
    if (rows[i].status == SQZ_OK && sqz_field_parts_auto(dom, ctx, SQZ_U8, rows[i].name, &rows[i].parts, &rows[i].halo))
      rows[i].parts = 0; /* no count keeps the parts within the limit */
    if (rows[i].status != SQZ_OK && layout) {
      rc = sqz_cli_fail("info", NULL, rows[i].status);
      goto done;
    }
  }
  uint64_t max_alloc = sqz_context_max_alloc(ctx), gmem = sqz_context_global_mem(ctx);
  if (json) {
    sqz_json j;
    sqz_json_begin(&j, stdout);
    sqz_json_str(&j, "domain", sqz_domain_spec(dom));
    sqz_json_u64(&j, "cells", sqz_domain_cells(dom));
    sqz_json_u64(&j, "side", sqz_domain_side(dom));
    sqz_json_str(&j, "device", sqz_context_device_name(ctx));
    sqz_json_u64(&j, "device_max_alloc", max_alloc);
    sqz_json_u64(&j, "device_global_mem", gmem);
    fputs(",\"layouts\":[", stdout);
    for (int i = 0, first = 1; i < n; i++) {
      if (rows[i].status != SQZ_OK) continue;
      printf("%s{\"layout\":\"%s\",\"cells\":%llu,\"bytes\":%llu,\"mrf\":%.6g,\"fits_one\":%s,\"fits_two\":%s,"
             "\"parts\":%llu,\"halo_bytes_per_step\":%llu}",
             first ? "" : ",", rows[i].name, (unsigned long long)rows[i].cells, (unsigned long long)rows[i].bytes,
             (double)bb_cells / (double)rows[i].bytes, rows[i].bytes <= max_alloc ? "true" : "false",
             rows[i].bytes <= gmem / 2 ? "true" : "false", (unsigned long long)rows[i].parts,
             (unsigned long long)rows[i].halo);
      first = 0;
    }
    fputs("]", stdout);
    if (simplex && (rc = sqz__info_maps(dom, map, (uint32_t)rho, 1)) != 0) goto done;
    if (simplex)
      printf(",\"max_n_bb\":%llu,\"max_n_compact\":%llu",
             (unsigned long long)sqz__info_max_side(dom, "bb", max_alloc, gmem),
             (unsigned long long)sqz__info_max_side(dom, "compact", max_alloc, gmem));
    fputs("}\n", stdout);
  } else {
    printf("domain   %s\n", sqz_domain_spec(dom));
    if (sqz_domain_get_kind(dom) == SQZ_DOMAIN_FRACTAL) {
      int s, k, r;
      sqz_domain_fractal_params(dom, &s, &k, &r);
      printf("fractal  s = %d, k = %d, R = %d; embedding %llu x %llu\n", s, k, r,
             (unsigned long long)sqz_domain_side(dom), (unsigned long long)sqz_domain_side(dom));
    } else {
      printf("side     N = %llu (%dD)\n", (unsigned long long)sqz_domain_side(dom), sqz_domain_dims(dom));
    }
    printf("cells    %llu\n", (unsigned long long)sqz_domain_cells(dom));
    printf("device   %s: max allocation %llu bytes, global memory %llu bytes\n\n", sqz_context_device_name(ctx),
           (unsigned long long)max_alloc, (unsigned long long)gmem);
    printf("%-10s %20s %20s %10s %8s %8s %6s %14s\n", "layout", "cells stored", "bytes (1 B/cell)*", "MRF vs bb", "fits 1x",
           "fits 2x", "parts", "halo B/step");
    for (int i = 0; i < n; i++) {
      if (rows[i].status != SQZ_OK) {
        printf("%-10s %s\n", rows[i].name, sqz_status_message(rows[i].status));
        continue;
      }
      printf("%-10s %20llu %20llu %10.4g %8s %8s %6llu %14llu\n", rows[i].name, (unsigned long long)rows[i].cells,
             (unsigned long long)rows[i].bytes, (double)bb_cells / (double)rows[i].bytes,
             rows[i].bytes <= max_alloc ? "yes" : "no", rows[i].bytes <= gmem / 2 ? "yes" : "no",
             (unsigned long long)rows[i].parts, (unsigned long long)rows[i].halo);
    }
    puts("* layout bits: 1 bit per cell, rows (simplices) or tiles (fractals) padded to 32-bit words");
    puts("  parts: the buffers a u8 field takes on this device (above the allocation limit it is split by itself;\n"
         "  0: not even parts fit, or the layout does not part); halo B/step: what those parts exchange per step");
    if (simplex) {
      if ((rc = sqz__info_maps(dom, map, (uint32_t)rho, 0)) != 0) goto done;
      printf("\nlargest N with two 1-byte state buffers on this device: bb %llu, compact %llu\n",
             (unsigned long long)sqz__info_max_side(dom, "bb", max_alloc, gmem),
             (unsigned long long)sqz__info_max_side(dom, "compact", max_alloc, gmem));
    }
  }
done:
  sqz_context_release(ctx);
  sqz_domain_release(dom);
  return rc;
}
