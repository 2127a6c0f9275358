/* layout.c — layout strings, the dispatch of storage geometry/index maps to each domain family, and the public index rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bits.h"
#include "core/registry.h"
#include "core/sqz_internal.h"

int sqz__parse_layout(sqz_context *ctx, const sqz_domain *dom, const char *layout, sqz_layout_id *id,
                      uint32_t *rho) {
  *rho = 0;
  if (!layout || !*layout) layout = "compact";
  unsigned family = dom->kind == SQZ_DOMAIN_FRACTAL ? SQZ_FAMILY_FRACTAL : SQZ_FAMILY_SIMPLEX;
  const sqz_layout_info *info = sqz__layout_find(layout);
  if (!info || !(info->families & family)) { /* the registry says which layouts the family has */
    char list[128];
    sqz__layout_names(family, NULL, ", ", " or ", list, sizeof list);
    if (!info) return sqz__fail(ctx, SQZ_ERR_PARSE, "unknown layout '%s' (expected %s)", layout, list);
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "layout '%s' exists only for %s (%s takes %s)", layout,
                     family == SQZ_FAMILY_SIMPLEX ? "fractals" : "simplices", dom->spec, list);
  }
  if (strcmp(layout, "compact") == 0) { *id = SQZ_LAYOUT_COMPACT; return SQZ_OK; }
  if (strcmp(layout, "bb") == 0) { *id = SQZ_LAYOUT_BB; return SQZ_OK; }
  if (strcmp(layout, "lambda") == 0) { *id = SQZ_LAYOUT_LAMBDA; return SQZ_OK; }
  if (strcmp(layout, "bits") == 0) { *id = SQZ_LAYOUT_BITS; return SQZ_OK; }
  const char *p = strchr(layout, ':'); /* block:RHO */
  if (!p) return sqz__fail(ctx, SQZ_ERR_INTERNAL, "layout '%s' is registered but has no storage", layout);
  p++;
  uint64_t largest = sqz__fractal_block_max(dom), v = 0;
  const char *q = p;
  for (; *q >= '0' && *q <= '9' && v <= SQZ_BLOCK_RHO_MAX; q++) v = v * 10 + (uint64_t)(*q - '0');
  while (*q >= '0' && *q <= '9') q++; /* digits past the limit */
  if (q == p || *q || v == 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE,
                     "layout '%s': RHO '%s' is not a positive integer (block:RHO takes a power of the scale %d, "
                     "at most %llu on %s)", layout, p, dom->fr.s, (unsigned long long)largest, dom->spec);
  if (v > SQZ_BLOCK_RHO_MAX)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "layout '%s': RHO = %s is larger than %u, the largest block side of layout block:RHO; the "
                     "largest on %s is %llu (a power of the scale %d, at most the side %llu)", layout, p,
                     SQZ_BLOCK_RHO_MAX, dom->spec, (unsigned long long)largest, dom->fr.s,
                     (unsigned long long)dom->side);
  *id = SQZ_LAYOUT_BLOCK;
  *rho = (uint32_t)v;
  return SQZ_OK;
}

int sqz__layout_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems,
                         uint64_t *width, uint64_t *height) {
  if (layout == SQZ_LAYOUT_BITS) return sqz__bits_geometry(dom, elems, width, height);
  if (dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_geometry(dom, layout, rho, elems, width, height);
  return sqz__simplex_geometry(dom, layout, rho, elems, width, height);
}

int sqz__layout_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z) {
  if (f->layout == SQZ_LAYOUT_BITS) return sqz__bits_coords(f, index, x, y, z);
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_coords(f, index, x, y, z);
  return sqz__simplex_coords(f, index, x, y, z);
}

int64_t sqz__layout_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z) {
  if (f->layout == SQZ_LAYOUT_BITS) return sqz__bits_index(f, x, y, z);
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_index(f, x, y, z);
  return sqz__simplex_index(f, x, y, z);
}

uint64_t sqz__layout_row(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index) {
  if (f->layout == SQZ_LAYOUT_BITS) return sqz__bits_row(f, y, z, xs, index);
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_row(f, y, z, xs, index);
  return sqz__simplex_row(f, y, z, xs, index);
}

const char *sqz__layout_rule(const sqz_field *f) {
  if (f->layout == SQZ_LAYOUT_BITS) return sqz__bits_rule(f);
  if (f->dom->kind == SQZ_DOMAIN_FRACTAL) return sqz__fractal_rule(f);
  return sqz__simplex_rule(f);
}

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
  if (st == SQZ_OK && layout && strcmp(layout, "bits") == 0) *bytes /= 8u; /* whole 32-bit words */
  return st;
}
