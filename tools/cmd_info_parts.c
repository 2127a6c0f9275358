/* cmd_info_parts.c — `sqz info DOMAIN --parts P`: the decomposition into parts, cells per part and halo bytes per step. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

int sqz_info_parts(sqz_domain *dom, uint64_t parts, const char *layout, int json) {
  uint64_t v[SQZ_PARTS_VALUES];
  int st = sqz_parts_info(dom, parts, v, SQZ_PARTS_VALUES);
  if (st != SQZ_OK) return sqz_cli_fail("info", NULL, st);
  uint64_t cells = sqz_domain_cells(dom);
  double mean = (double)cells / (double)parts, ratio = (double)v[SQZ_PARTS_HALO_TOTAL] / (double)cells;
  double worst = (double)v[SQZ_PARTS_HALO_MAX] / (double)v[SQZ_PARTS_CELLS_MIN];
  const char *kind = v[SQZ_PARTS_KIND] == 1 ? "replicas" : "bands";
  /* --layout L: what a u8 field in layout L takes in P parts (its units: bits tiles, tiles, bands of rows) */
  uint64_t lay_part = 0, lay_halo = 0;
  if (layout && (st = sqz_field_parts_bytes(dom, SQZ_U8, layout, parts, &lay_part, &lay_halo)) != SQZ_OK)
    return sqz_cli_fail("info", NULL, st);
  int bits = layout && strcmp(layout, "bits") == 0;
  const char *how = !layout ? "" : bits ? (sqz_domain_get_kind(dom) == SQZ_DOMAIN_FRACTAL ? "whole bits tiles" : "bands of row words")
                    : strcmp(layout, "bb") == 0 || strcmp(layout, "lambda") == 0 ? "bands of bounding-box rows (planes in 3D)"
                                                                                     : "whole tiles";
  if (json) {
    sqz_json j;
    sqz_json_begin(&j, stdout);
    sqz_json_str(&j, "domain", sqz_domain_spec(dom));
    sqz_json_u64(&j, "cells", cells);
    sqz_json_str(&j, "layout", "compact");
    sqz_json_u64(&j, "parts", parts);
    sqz_json_str(&j, "kind", kind);
    sqz_json_u64(&j, "level", v[SQZ_PARTS_LEVEL]);
    sqz_json_u64(&j, "replicas", v[SQZ_PARTS_REPLICA_COUNT]);
    sqz_json_u64(&j, "cells_min", v[SQZ_PARTS_CELLS_MIN]);
    sqz_json_u64(&j, "cells_max", v[SQZ_PARTS_CELLS_MAX]);
    sqz_json_num(&j, "cells_mean", mean);
    sqz_json_u64(&j, "halo_min", v[SQZ_PARTS_HALO_MIN]);
    sqz_json_u64(&j, "halo_max", v[SQZ_PARTS_HALO_MAX]);
    sqz_json_u64(&j, "halo_total", v[SQZ_PARTS_HALO_TOTAL]);
    sqz_json_u64(&j, "halo_bytes_max", v[SQZ_PARTS_HALO_MAX]); /* 1 byte per cell */
    sqz_json_u64(&j, "halo_bytes_total", v[SQZ_PARTS_HALO_TOTAL]);
    sqz_json_u64(&j, "halo_bit_bytes_max", v[SQZ_PARTS_BIT_BYTES_MAX]);
    sqz_json_u64(&j, "halo_bit_bytes_total", v[SQZ_PARTS_BIT_BYTES_TOTAL]);
    if (layout) {
      sqz_json_str(&j, "parts_layout", layout);
      sqz_json_u64(&j, bits ? "bits_part_bytes_max" : "layout_part_bytes_max", lay_part);
      sqz_json_u64(&j, bits ? "bits_halo_bytes_per_step" : "layout_halo_bytes_per_step", lay_halo);
    }
    sqz_json_u64(&j, "sources_max", v[SQZ_PARTS_SOURCES_MAX]);
    sqz_json_u64(&j, "messages", v[SQZ_PARTS_MESSAGES]);
    sqz_json_num(&j, "halo_ratio", ratio);
    sqz_json_num(&j, "halo_ratio_max", worst);
    sqz_json_end(&j);
    return 0;
  }
  printf("domain   %s\n", sqz_domain_spec(dom));
  printf("cells    %llu\n", (unsigned long long)cells);
  if (v[SQZ_PARTS_KIND] == 1)
    printf("parts    %llu of layout compact: replicas at level %llu (%llu replicas of %llu cells, %llu to %llu per part)\n",
           (unsigned long long)parts, (unsigned long long)v[SQZ_PARTS_LEVEL],
           (unsigned long long)v[SQZ_PARTS_REPLICA_COUNT], (unsigned long long)(cells / v[SQZ_PARTS_REPLICA_COUNT]),
           (unsigned long long)(v[SQZ_PARTS_CELLS_MIN] / (cells / v[SQZ_PARTS_REPLICA_COUNT])),
           (unsigned long long)(v[SQZ_PARTS_CELLS_MAX] / (cells / v[SQZ_PARTS_REPLICA_COUNT])));
  else
    printf("parts    %llu of layout compact: bands of the storage order\n", (unsigned long long)parts);
  printf("\ncells per part        min %llu, max %llu, mean %.1f\n", (unsigned long long)v[SQZ_PARTS_CELLS_MIN],
         (unsigned long long)v[SQZ_PARTS_CELLS_MAX], mean);
  printf("halo cells per step   per part min %llu, max %llu; total %llu\n", (unsigned long long)v[SQZ_PARTS_HALO_MIN],
         (unsigned long long)v[SQZ_PARTS_HALO_MAX], (unsigned long long)v[SQZ_PARTS_HALO_TOTAL]);
  printf("halo bytes per step   1 B/cell: per part max %llu, total %llu; bits (1 bit/cell, a message per source): "
         "per part max %llu, total %llu\n",
         (unsigned long long)v[SQZ_PARTS_HALO_MAX], (unsigned long long)v[SQZ_PARTS_HALO_TOTAL],
         (unsigned long long)v[SQZ_PARTS_BIT_BYTES_MAX], (unsigned long long)v[SQZ_PARTS_BIT_BYTES_TOTAL]);
  if (layout)
    printf("layout %-14s parts of %s: largest part buffer %llu B, halo %llu B per step\n", layout, how,
           (unsigned long long)lay_part, (unsigned long long)lay_halo);
  printf("messages per step     %llu (a part receives from at most %llu others)\n",
         (unsigned long long)v[SQZ_PARTS_MESSAGES], (unsigned long long)v[SQZ_PARTS_SOURCES_MAX]);
  printf("halo / cells          total %.3g, largest halo / smallest part %.3g\n", ratio, worst);
  return 0;
}
