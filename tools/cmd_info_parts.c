/* cmd_info_parts.c — `sqz info DOMAIN --parts P`: the decomposition into parts, cells per part and halo bytes per step. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

/* What the report shows: the figures of sqz_parts_info, and with --layout L those of a u8 field in layout L. */
typedef struct {
  const sqz_domain *dom;
  uint64_t parts, cells, v[SQZ_PARTS_VALUES];
  double mean, ratio, worst;
  const char *layout, *how; /* how L parts: its units */
  uint64_t lay_part, lay_halo;
  int bits;
} sqz_parts_report;

static void sqz__parts_json(const sqz_parts_report *r) {
  const uint64_t *v = r->v;
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_json_str(&j, "domain", sqz_domain_spec(r->dom));
  sqz_json_u64(&j, "cells", r->cells);
  sqz_json_str(&j, "layout", "compact");
  sqz_json_u64(&j, "parts", r->parts);
  sqz_json_str(&j, "kind", v[SQZ_PARTS_KIND] == 1 ? "replicas" : "bands");
  sqz_json_u64(&j, "level", v[SQZ_PARTS_LEVEL]);
  sqz_json_u64(&j, "replicas", v[SQZ_PARTS_REPLICA_COUNT]);
  sqz_json_u64(&j, "cells_min", v[SQZ_PARTS_CELLS_MIN]);
  sqz_json_u64(&j, "cells_max", v[SQZ_PARTS_CELLS_MAX]);
  sqz_json_num(&j, "cells_mean", r->mean);
  sqz_json_u64(&j, "halo_min", v[SQZ_PARTS_HALO_MIN]);
  sqz_json_u64(&j, "halo_max", v[SQZ_PARTS_HALO_MAX]);
  sqz_json_u64(&j, "halo_total", v[SQZ_PARTS_HALO_TOTAL]);
  sqz_json_u64(&j, "halo_bytes_max", v[SQZ_PARTS_HALO_MAX]); /* 1 byte per cell */
  sqz_json_u64(&j, "halo_bytes_total", v[SQZ_PARTS_HALO_TOTAL]);
  sqz_json_u64(&j, "halo_bit_bytes_max", v[SQZ_PARTS_BIT_BYTES_MAX]);
  sqz_json_u64(&j, "halo_bit_bytes_total", v[SQZ_PARTS_BIT_BYTES_TOTAL]);
  if (r->layout) {
    sqz_json_str(&j, "parts_layout", r->layout);
    sqz_json_u64(&j, r->bits ? "bits_part_bytes_max" : "layout_part_bytes_max", r->lay_part);
    sqz_json_u64(&j, r->bits ? "bits_halo_bytes_per_step" : "layout_halo_bytes_per_step", r->lay_halo);
  }
  sqz_json_u64(&j, "sources_max", v[SQZ_PARTS_SOURCES_MAX]);
  sqz_json_u64(&j, "messages", v[SQZ_PARTS_MESSAGES]);
  sqz_json_num(&j, "halo_ratio", r->ratio);
  sqz_json_num(&j, "halo_ratio_max", r->worst);
  sqz_json_end(&j);
}

static void sqz__parts_text(const sqz_parts_report *r) {
  const uint64_t *v = r->v;
  uint64_t per = v[SQZ_PARTS_KIND] == 1 ? r->cells / v[SQZ_PARTS_REPLICA_COUNT] : 1; /* cells of a replica */
  printf("domain   %s\n", sqz_domain_spec(r->dom));
  printf("cells    %llu\n", (unsigned long long)r->cells);
  if (v[SQZ_PARTS_KIND] == 1)
    printf("parts    %llu of layout compact: replicas at level %llu (%llu replicas of %llu cells, %llu to %llu per part)\n",
           (unsigned long long)r->parts, (unsigned long long)v[SQZ_PARTS_LEVEL],
           (unsigned long long)v[SQZ_PARTS_REPLICA_COUNT], (unsigned long long)per,
           (unsigned long long)(v[SQZ_PARTS_CELLS_MIN] / per), (unsigned long long)(v[SQZ_PARTS_CELLS_MAX] / per));
  else
    printf("parts    %llu of layout compact: bands of the storage order\n", (unsigned long long)r->parts);
  printf("\ncells per part        min %llu, max %llu, mean %.1f\n", (unsigned long long)v[SQZ_PARTS_CELLS_MIN],
         (unsigned long long)v[SQZ_PARTS_CELLS_MAX], r->mean);
  printf("halo cells per step   per part min %llu, max %llu; total %llu\n", (unsigned long long)v[SQZ_PARTS_HALO_MIN],
         (unsigned long long)v[SQZ_PARTS_HALO_MAX], (unsigned long long)v[SQZ_PARTS_HALO_TOTAL]);
  printf("halo bytes per step   1 B/cell: per part max %llu, total %llu; bits (1 bit/cell, a message per source): "
         "per part max %llu, total %llu\n",
         (unsigned long long)v[SQZ_PARTS_HALO_MAX], (unsigned long long)v[SQZ_PARTS_HALO_TOTAL],
         (unsigned long long)v[SQZ_PARTS_BIT_BYTES_MAX], (unsigned long long)v[SQZ_PARTS_BIT_BYTES_TOTAL]);
  if (r->layout)
    printf("layout %-14s parts of %s: largest part buffer %llu B, halo %llu B per step\n", r->layout, r->how,
           (unsigned long long)r->lay_part, (unsigned long long)r->lay_halo);
  printf("messages per step     %llu (a part receives from at most %llu others)\n",
         (unsigned long long)v[SQZ_PARTS_MESSAGES], (unsigned long long)v[SQZ_PARTS_SOURCES_MAX]);
  printf("halo / cells          total %.3g, largest halo / smallest part %.3g\n", r->ratio, r->worst);
}

/* How layout parts: its units. */
static const char *sqz__parts_how(const sqz_domain *dom, const char *layout) {
  if (strcmp(layout, "bits") == 0)
    return sqz_domain_get_kind(dom) == SQZ_DOMAIN_FRACTAL ? "whole bits tiles" : "bands of row words";
  if (strcmp(layout, "bb") == 0 || strcmp(layout, "lambda") == 0) return "bands of bounding-box rows (planes in 3D)";
  return "whole tiles";
}

int sqz_info_parts(sqz_domain *dom, uint64_t parts, const char *layout, int json) {
  sqz_parts_report r = {.dom = dom, .parts = parts, .layout = layout, .cells = sqz_domain_cells(dom)};
  int st = sqz_parts_info(dom, parts, r.v, SQZ_PARTS_VALUES);
  if (st != SQZ_OK) return sqz_cli_fail("info", NULL, st);
  r.mean = (double)r.cells / (double)parts;
  r.ratio = (double)r.v[SQZ_PARTS_HALO_TOTAL] / (double)r.cells;
  r.worst = (double)r.v[SQZ_PARTS_HALO_MAX] / (double)r.v[SQZ_PARTS_CELLS_MIN];
  /* --layout L: what a u8 field in layout L takes in P parts (its units: bits tiles, tiles, bands of rows) */
  if (layout && (st = sqz_field_parts_bytes(dom, SQZ_U8, layout, parts, &r.lay_part, &r.lay_halo)) != SQZ_OK)
    return sqz_cli_fail("info", NULL, st);
  r.bits = layout && strcmp(layout, "bits") == 0;
  r.how = layout ? sqz__parts_how(dom, layout) : "";
  if (json) sqz__parts_json(&r);
  else sqz__parts_text(&r);
  return 0;
}
