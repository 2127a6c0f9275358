/* layout.c — layout strings, the storage geometry and index maps of a field through its layout's row (core/registry.h) on its family, and the public index rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"

int sqz__parse_layout(sqz_context *ctx, const sqz_domain *dom, const char *layout, sqz_layout_id *id,
                      uint32_t *rho) {
  *rho = 0;
  if (!layout || !*layout) layout = "compact";
  unsigned family = dom->kind == SQZ_DOMAIN_FRACTAL ? SQZ_FAMILY_FRACTAL : SQZ_FAMILY_SIMPLEX;
  const sqz_layout_row *row = sqz__layout_find(layout);
  if (!row || !(sqz__layout_families(row) & family)) { /* the registry says which layouts the family has */
    char list[128];
    sqz__layout_names(family, NULL, ", ", " or ", list, sizeof list);
    if (!row) return sqz__fail(ctx, SQZ_ERR_PARSE, "unknown layout '%s' (expected %s)", layout, list);
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "layout '%s' exists only for %s (%s takes %s)", layout,
                     family == SQZ_FAMILY_SIMPLEX ? "fractals" : "simplices", dom->spec, list);
  }
  *id = (sqz_layout_id)(row - sqz__layouts);
  return row->parse ? row->parse(ctx, dom, layout, strchr(layout, ':') + 1, rho) : SQZ_OK; /* block:RHO */
}

int sqz__layout_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems,
                         uint64_t *width, uint64_t *height) {
  return sqz__layouts[layout].on[sqz__family_index(dom)].storage->geometry(dom, layout, rho, elems, width, height);
}

int sqz__layout_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z) {
  return sqz__layout_on(f)->storage->coords(f, index, x, y, z);
}

int64_t sqz__layout_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z) {
  return sqz__layout_on(f)->storage->index(f, x, y, z);
}

uint64_t sqz__layout_row(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index) {
  return sqz__layout_on(f)->storage->row(f, y, z, xs, index);
}

const char *sqz__layout_rule(const sqz_field *f) { return sqz__layout_on(f)->storage->rule(f); }

int sqz_field_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z, int64_t *index) {
  if (!f || !index) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_index");
  *index = sqz__layout_index(f, x, y, f->dom->dims == 2 ? 0 : z); /* z is ignored in 2D */
  return SQZ_OK;
}

const char *sqz_field_layout_rule(const sqz_field *f) { return f ? sqz__layout_rule(f) : ""; }

int sqz_domain_layout_cells(const sqz_domain *dom, const char *layout, uint64_t *cells) {
  if (!dom || !cells) return sqz__null_arg(dom ? dom->ctx : NULL, "sqz_domain_layout_cells");
  sqz_layout_id id = SQZ_LAYOUT_BB;
  uint32_t rho = 0;
  int st = sqz__parse_layout(dom->ctx, dom, layout, &id, &rho);
  if (st != SQZ_OK) return st;
  uint64_t w = 0, h = 0;
  return sqz__layout_geometry(dom, id, rho, cells, &w, &h);
}

int sqz_domain_layout_bytes(const sqz_domain *dom, const char *layout, uint64_t *bytes) {
  int st = sqz_domain_layout_cells(dom, layout, bytes);
  if (st == SQZ_OK && layout && *layout && sqz__layout_find(layout)->bit_cells) *bytes /= 8u; /* whole 32-bit words */
  return st;
}
