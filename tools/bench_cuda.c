/* bench_cuda.c — `sqz bench fractal --backend all`: CUDA-MMA, CUDA-ALU and OpenCL Life steps on one GPU, and the tile maps alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cuda.h"
#include "cli_common.h"
#include "sqz_bench.h"

#define SQZ_BX_METHODS 3
static const char *const sqz_bx_methods[SQZ_BX_METHODS] = {"opencl", "cuda-mma", "cuda-alu"};

typedef struct {
  int method;
  char layout[32];
  int status;
  char error[512];
  double kernel_s, wall_s;
  uint64_t live;
} sqz_bx_row;

typedef struct {
  uint32_t rb;
  uint64_t tile0, tiles; /* the last tiles of the level, at most 2^30 of them */
  int status;
  double s[2]; /* alu, mma: seconds per pass over every tile */
  uint64_t sum[2];
} sqz_bx_maps;

static void sqz__bx_error(sqz_context *ctx, int st, char *buf, size_t len) {
  snprintf(buf, len, "%s: %s", sqz_status_name(st), ctx ? sqz_last_error(ctx) : sqz_last_error(NULL));
}

/* One Life row: fill, one untimed warm-up step, `steps` timed steps, count. */
static void sqz__bx_life(sqz_context *ctx, sqz_domain *dom, const char *rule, uint64_t steps, double density,
                         uint64_t seed, sqz_bx_row *row) {
  sqz_field *f = NULL;
  int st = sqz_field_create(dom, SQZ_U8, row->layout, &f);
  if (st == SQZ_OK && row->method > 0) st = sqz_field_set_map(f, row->method == 1 ? "mma" : "alu");
  if (st == SQZ_OK) st = sqz_field_fill_random(f, density, seed);
  if (st == SQZ_OK) st = sqz_life_step(f, rule, 1);
  if (st == SQZ_OK) st = sqz_life_step(f, rule, steps);
  if (st == SQZ_OK) st = sqz_context_timing(ctx, &row->kernel_s, &row->wall_s);
  if (st == SQZ_OK) st = sqz_field_count(f, &row->live);
  row->status = st;
  if (st != SQZ_OK) sqz__bx_error(ctx, st, row->error, sizeof row->error);
  sqz_field_release(f);
}

/* The maps alone at grid level rb: one warm-up pass, then the best of three, per method. */
static void sqz__bx_maps(sqz_context *ctx, const sqz_domain *dom, sqz_bx_maps *m) {
  m->status = SQZ_OK;
  for (int mma = 0; mma < 2 && m->status == SQZ_OK; mma++)
    for (int rep = 0; rep < 4 && m->status == SQZ_OK; rep++) {
      double s = 0;
      m->status = sqz_bench_fractal_maps(ctx, dom, m->rb, mma ? "mma" : "alu", m->tile0, m->tiles, &m->sum[mma], &s);
      if (rep == 1 || (rep > 1 && s < m->s[mma])) m->s[mma] = s;
    }
}

static void sqz__bx_json(sqz_domain *dom, const char *rule, uint64_t steps, const sqz_bx_row *rows, int n,
                         const sqz_bx_maps *maps, int n_maps, const char *devices) {
  printf("{\"domain\":");
  sqz_json_escape(stdout, sqz_domain_spec(dom));
  printf(",\"cells\":%llu,\"steps\":%llu,\"rule\":", (unsigned long long)sqz_domain_cells(dom),
         (unsigned long long)steps);
  sqz_json_escape(stdout, rule);
  printf(",\"devices\":");
  sqz_json_escape(stdout, devices);
  printf(",\"rows\":[");
  for (int i = 0; i < n; i++) {
    const sqz_bx_row *r = &rows[i];
    printf("%s{\"method\":\"%s\",\"layout\":", i ? "," : "", sqz_bx_methods[r->method]);
    sqz_json_escape(stdout, r->layout);
    printf(",\"status\":");
    sqz_json_escape(stdout, r->status == SQZ_OK ? "ok" : r->error);
    if (r->status == SQZ_OK)
      printf(",\"kernel_s_per_step\":%.9g,\"wall_s_per_step\":%.9g,\"cells_per_s\":%.6g,\"live\":%llu",
             r->kernel_s / (double)steps, r->wall_s / (double)steps,
             (double)sqz_domain_cells(dom) * (double)steps / r->kernel_s, (unsigned long long)r->live);
    printf("}");
  }
  printf("],\"maps\":[");
  for (int i = 0; i < n_maps; i++) {
    const sqz_bx_maps *m = &maps[i];
    printf("%s{\"level\":%u,\"tiles\":%llu,\"status\":\"%s\"", i ? "," : "", m->rb, (unsigned long long)m->tiles,
           sqz_status_name(m->status));
    if (m->status == SQZ_OK)
      printf(",\"mma_s\":%.9g,\"alu_s\":%.9g,\"checksums_agree\":%s", m->s[1], m->s[0],
             m->sum[0] == m->sum[1] ? "true" : "false");
    printf("}");
  }
  printf("]}\n");
}

static void sqz__bx_table(sqz_domain *dom, const char *rule, uint64_t steps, const sqz_bx_row *rows, int n,
                          const sqz_bx_maps *maps, int n_maps, const char *devices, const char *maps_why) {
  double cells = (double)sqz_domain_cells(dom);
  printf("domain   %s: %.0f cells; rule %s, %llu timed steps\ndevices  %s\n\n", sqz_domain_spec(dom), cells, rule,
         (unsigned long long)steps, devices);
  printf("%-9s %-11s %11s %11s %10s %10s %14s\n", "method", "layout", "kernel ms", "e2e ms", "Gcells/s", "vs opencl",
         "live");
  for (int i = 0; i < n; i++) {
    const sqz_bx_row *r = &rows[i], *ocl = &rows[i - r->method];
    if (r->status != SQZ_OK) {
      printf("%-9s %-11s not run: %s\n", sqz_bx_methods[r->method], r->layout, r->error);
      continue;
    }
    double k = r->kernel_s / (double)steps;
    char vs[24] = "-";
    if (r->method > 0 && ocl->status == SQZ_OK) snprintf(vs, sizeof vs, "%.2fx", ocl->kernel_s / r->kernel_s);
    printf("%-9s %-11s %11.4f %11.4f %10.2f %10s %14llu\n", sqz_bx_methods[r->method], r->layout, 1e3 * k,
           1e3 * r->wall_s / (double)steps, 1e-9 * cells / k, vs, (unsigned long long)r->live);
  }
  printf("\ntile maps alone: lambda_b + 8 nu_b per tile, checksummed (no state traffic)\n");
  if (maps_why) {
    printf("not run: %s\n", maps_why);
    return;
  }
  printf("%-6s %14s %11s %11s %12s %12s %8s %9s\n", "level", "tiles (last)", "mma ms", "alu ms", "mma Gtile/s",
         "alu Gtile/s", "mma/alu", "checksum");
  for (int i = 0; i < n_maps; i++) {
    const sqz_bx_maps *m = &maps[i];
    if (m->status != SQZ_OK) {
      printf("%-6u %14llu not run: %s\n", m->rb, (unsigned long long)m->tiles, sqz_status_name(m->status));
      continue;
    }
    printf("%-6u %14llu %11.4f %11.4f %12.3f %12.3f %7.2fx %9s\n", m->rb, (unsigned long long)m->tiles,
           1e3 * m->s[1], 1e3 * m->s[0], 1e-9 * (double)m->tiles / m->s[1], 1e-9 * (double)m->tiles / m->s[0],
           m->s[0] / m->s[1], m->sum[0] == m->sum[1] ? "agree" : "DIFFER");
  }
}

/* One run of --backend all: its settings, the two contexts (opencl, cuda) or why each did not open, the rows. */
typedef struct {
  const char *domain, *rule;
  uint64_t steps, seed;
  double density;
  sqz_context *ctx[2];
  char why[2][400];
  int fs, fk, fr; /* the fractal's scale, replicas and level */
  sqz_bx_row rows[3 * 16];
  sqz_bx_maps maps[17];
  int n, n_maps;
} sqz_bx_run;

/* The row of method m in layout tok: Life on a domain of its context, or why it did not run. 1 when its live
 * count differs from OpenCL's (the row m places before it). */
static int sqz__bx_row(sqz_bx_run *x, const char *tok, int m) {
  sqz_bx_row *row = &x->rows[x->n], *ocl = &x->rows[x->n - m];
  sqz_context *c = x->ctx[m > 0];
  row->method = m;
  snprintf(row->layout, sizeof row->layout, "%s", tok);
  if (!c) {
    row->status = SQZ_ERR_BACKEND_UNAVAILABLE;
    memcpy(row->error, x->why[m > 0], sizeof x->why[0]); /* a string within why, which error outsizes */
    return 0;
  }
  if (m > 0 && strncmp(tok, "block:", 6) != 0) { /* not filled and refused at the first step: skip it */
    row->status = SQZ_ERR_UNSUPPORTED;
    snprintf(row->error, sizeof row->error, "the cuda backend steps fractals in layout block:RHO only");
    return 0;
  }
  sqz_domain *d = NULL;
  row->status = sqz_domain_parse(c, x->domain, &d);
  if (row->status == SQZ_OK) sqz__bx_life(c, d, x->rule, x->steps, x->density, x->seed, row);
  else sqz__bx_error(c, row->status, row->error, sizeof row->error);
  sqz_domain_release(d);
  if (row->status != SQZ_OK || ocl->status != SQZ_OK || row->live == ocl->live) return 0;
  fprintf(stderr, "sqz bench fractal: %s %s ends with %llu live cells, opencl with %llu\n", sqz_bx_methods[m], tok,
          (unsigned long long)row->live, (unsigned long long)ocl->live);
  return 1;
}

/* The rows of every layout of list, each method in turn; a block layout adds its grid level to the maps'. 1 when
 * live counts disagree. */
static int sqz__bx_rows(sqz_bx_run *x, char *list) {
  int rc = 0;
  for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok && x->n < 3 * 16; tok = strtok_r(NULL, ",", &save)) {
    uint32_t j = 0;
    int block = strncmp(tok, "block:", 6) == 0; /* other layouts: the element level, added below */
    if (block)
      for (uint64_t rho = strtoull(tok + 6, NULL, 10), p = 1; p < rho; p *= (uint64_t)x->fs) j++;
    if (block && j > 0 && j <= (uint32_t)x->fr && x->n_maps < 16) x->maps[x->n_maps++].rb = (uint32_t)x->fr - j;
    for (int m = 0; m < SQZ_BX_METHODS; m++, x->n++) rc |= sqz__bx_row(x, tok, m);
  }
  return rc;
}

/* The tile maps alone at every grid level (and the element level), on CUDA. 1 when a checksum disagrees. */
static int sqz__bx_all_maps(sqz_bx_run *x, sqz_domain *dom) {
  int rc = 0;
  x->maps[x->n_maps++].rb = (uint32_t)x->fr; /* element level: one cell per tile */
  for (int i = 0; i < x->n_maps; i++) {
    sqz_bx_maps *m = &x->maps[i];
    uint64_t all = 1; /* every tile of the level, or the last 2^30 (the largest coordinates) */
    for (uint32_t l = 0; l < m->rb; l++) all *= (uint64_t)x->fk;
    m->tiles = all < ((uint64_t)1 << 30) ? all : (uint64_t)1 << 30;
    m->tile0 = all - m->tiles;
    if (x->ctx[1]) sqz__bx_maps(x->ctx[1], dom, m);
    if (x->ctx[1] && m->status == SQZ_OK && m->sum[0] != m->sum[1]) rc = 1;
  }
  return rc;
}

/* Runs the rows and maps on dom and prints the report; the exit status. */
static int sqz__bx_run(sqz_bx_run *x, sqz_domain *dom, const char *layouts, int json) {
  char list[512], devices[900];
  snprintf(devices, sizeof devices, "opencl: %s; cuda: %s", x->ctx[0] ? sqz_context_device_name(x->ctx[0]) : x->why[0],
           x->ctx[1] ? sqz_context_device_name(x->ctx[1]) : x->why[1]);
  sqz_domain_fractal_params(dom, &x->fs, &x->fk, &x->fr);
  if (layouts) snprintf(list, sizeof list, "%s", strcmp(layouts, "none") == 0 ? "" : layouts); /* none: maps only */
  else sqz_cli_layouts(dom, SQZ_CLI_LAYOUTS_BENCH | SQZ_CLI_LAYOUTS_TILES, list, sizeof list);
  int rc = sqz__bx_rows(x, list);
  rc |= sqz__bx_all_maps(x, dom);
  int ran = 0;
  for (int i = 0; i < x->n; i++) ran |= x->rows[i].status == SQZ_OK;
  for (int i = 0; i < x->n_maps && x->ctx[1]; i++) ran |= x->maps[i].status == SQZ_OK;
  if (json) sqz__bx_json(dom, x->rule, x->steps, x->rows, x->n, x->maps, x->ctx[1] ? x->n_maps : 0, devices);
  else sqz__bx_table(dom, x->rule, x->steps, x->rows, x->n, x->maps, x->n_maps, devices, x->ctx[1] ? NULL : x->why[1]);
  return !ran && rc == 0 ? 1 : rc;
}

int sqz_cmd_bench_fractal_all(const char *domain, const char *rule, const char *layouts, uint64_t steps, double density,
                          uint64_t seed, const char *device, int json) {
  sqz_bx_run x = {.domain = domain, .rule = rule, .steps = steps, .seed = seed, .density = density};
  int numeric = device && *device && strspn(device, "0123456789") == strlen(device);
  for (int b = 0; b < 2; b++) {
    int st = sqz_context_create_opts(b ? "cuda" : "opencl", b && !numeric ? NULL : device, sqz_cli_options(), &x.ctx[b]);
    if (st != SQZ_OK) sqz__bx_error(NULL, st, x.why[b], sizeof x.why[b]);
  }
  sqz_domain *dom = NULL;
  int rc, st = sqz_domain_parse(x.ctx[0] ? x.ctx[0] : x.ctx[1], domain, &dom);
  if (st != SQZ_OK || sqz_domain_get_kind(dom) != SQZ_DOMAIN_FRACTAL)
    rc = sqz_cli_usage("bench fractal", "--domain %s: %s", domain,
                       st != SQZ_OK ? sqz_last_error(NULL) : "not a fractal (use sqz bench simplex)");
  else
    rc = sqz__bx_run(&x, dom, layouts, json);
  sqz_domain_release(dom);
  sqz_context_release(x.ctx[0]);
  sqz_context_release(x.ctx[1]);
  return rc;
}
