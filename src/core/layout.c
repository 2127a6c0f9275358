/* layout.c — layout strings and the dispatch of storage geometry/index maps to each domain family. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"

int sqz__parse_layout(sqz_context *ctx, const sqz_domain *dom, const char *layout, sqz_layout_id *id,
                      uint32_t *rho) {
  *rho = 0;
  if (!layout || !*layout || strcmp(layout, "compact") == 0) { *id = SQZ_LAYOUT_COMPACT; return SQZ_OK; }
  if (strcmp(layout, "bb") == 0) { *id = SQZ_LAYOUT_BB; return SQZ_OK; }
  int fractal = dom->kind == SQZ_DOMAIN_FRACTAL;
  if (strcmp(layout, "lambda") == 0 || strncmp(layout, "block:", 6) == 0) {
    if (!fractal)
      return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "layout '%s' exists only for fractals (%s takes bb or compact)",
                       layout, dom->spec);
    if (layout[0] == 'l') { *id = SQZ_LAYOUT_LAMBDA; return SQZ_OK; }
    const char *p = layout + 6;
    char *end = NULL;
    unsigned long v = (*p >= '0' && *p <= '9') ? strtoul(p, &end, 10) : 0;
    if (!end || *end || v == 0 || v > 4096)
      return sqz__fail(ctx, SQZ_ERR_PARSE, "layout '%s': RHO must be a positive integer power of the scale", layout);
    *id = SQZ_LAYOUT_BLOCK;
    *rho = (uint32_t)v;
    return SQZ_OK;
  }
  return sqz__fail(ctx, SQZ_ERR_PARSE, "unknown layout '%s' (expected bb, compact%s)", layout,
                   fractal ? ", lambda or block:RHO" : "");
}

int sqz__layout_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems,
                         uint64_t *width, uint64_t *height) {
  if (dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_geometry(dom, layout, rho, elems, width, height);
  return sqz__simplex_geometry(dom, layout, rho, elems, width, height);
}

int sqz__layout_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z) {
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_coords(f, index, x, y, z);
  return sqz__simplex_coords(f, index, x, y, z);
}

int64_t sqz__layout_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z) {
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_index(f, x, y, z);
  return sqz__simplex_index(f, x, y, z);
}

int sqz_domain_layout_cells(const sqz_domain *dom, const char *layout, uint64_t *cells) {
  if (!dom || !cells) return SQZ_ERR_INVALID_ARGUMENT;
  sqz_layout_id id = SQZ_LAYOUT_BB;
  uint32_t rho = 0;
  int st = sqz__parse_layout(dom->ctx, dom, layout, &id, &rho);
  if (st != SQZ_OK) return st;
  uint64_t w = 0, h = 0;
  return sqz__layout_geometry(dom, id, rho, cells, &w, &h);
}
