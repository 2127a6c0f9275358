/* cmd_info.c — `sqz info`: cells, bytes per layout, memory reduction factor and device fit. */
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

static const char *sqz_info_help =
    "usage: sqz info DOMAIN [--layout L] [--backend B] [--device D] [--json]\n"
    "\n"
    "Prints the domain's cells, the bytes of one state buffer (1 byte per cell) in each layout,\n"
    "the memory reduction factor against the bounding box (bb), and whether one buffer fits the\n"
    "device's largest single allocation and two (ping-pong) buffers fit its global memory.\n";

typedef struct {
  char name[32];
  uint64_t cells;
  int status;
} sqz_info_row;

static int sqz__info_layouts(sqz_domain *dom, const char *only, sqz_info_row *rows, int max) {
  const char *fixed[] = {"bb", "lambda", "compact"};
  int n = 0;
  if (only) {
    snprintf(rows[0].name, sizeof rows[0].name, "%s", only);
    return 1;
  }
  int fractal = sqz_domain_get_kind(dom) == SQZ_DOMAIN_FRACTAL;
  snprintf(rows[n++].name, 32, "%s", fixed[0]);
  if (fractal) {
    int s = 0, k = 0, r = 0;
    sqz_domain_fractal_params(dom, &s, &k, &r);
    snprintf(rows[n++].name, 32, "%s", fixed[1]);
    uint64_t rho = (uint64_t)s;
    for (int j = 1; j <= r && rho <= 32 && n < max - 1; j++, rho *= (uint64_t)s)
      snprintf(rows[n++].name, 32, "block:%llu", (unsigned long long)rho);
  }
  snprintf(rows[n++].name, 32, "%s", fixed[2]);
  return n;
}

int sqz_cmd_info(int argc, char **argv) {
  const char *domain = NULL, *layout = NULL, *backend = NULL, *device = NULL;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int m;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(sqz_info_help, stdout);
      return 0;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--layout", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("info", "--layout needs a value");
      layout = v;
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

  sqz_domain *dom = NULL;
  int st = sqz_domain_parse(NULL, domain, &dom);
  if (st != SQZ_OK) return sqz_cli_fail("info", NULL, st);
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
      printf("%s{\"layout\":\"%s\",\"cells\":%llu,\"bytes\":%llu,\"mrf\":%.6g,\"fits_one\":%s,\"fits_two\":%s}",
             first ? "" : ",", rows[i].name, (unsigned long long)rows[i].cells, (unsigned long long)rows[i].cells,
             (double)bb_cells / (double)rows[i].cells, rows[i].cells <= max_alloc ? "true" : "false",
             rows[i].cells <= gmem / 2 ? "true" : "false");
      first = 0;
    }
    fputs("]}\n", stdout);
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
    printf("%-10s %20s %20s %10s %8s %8s\n", "layout", "cells stored", "bytes (1 B/cell)", "MRF vs bb", "fits 1x",
           "fits 2x");
    for (int i = 0; i < n; i++) {
      if (rows[i].status != SQZ_OK) {
        printf("%-10s %s\n", rows[i].name, sqz_status_message(rows[i].status));
        continue;
      }
      printf("%-10s %20llu %20llu %10.4g %8s %8s\n", rows[i].name, (unsigned long long)rows[i].cells,
             (unsigned long long)rows[i].cells, (double)bb_cells / (double)rows[i].cells,
             rows[i].cells <= max_alloc ? "yes" : "no", rows[i].cells <= gmem / 2 ? "yes" : "no");
    }
  }
done:
  sqz_context_release(ctx);
  sqz_domain_release(dom);
  return rc;
}
