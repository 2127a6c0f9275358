/* simplex_stats.c — the public face of the simplex map analysis: default maps, map statistics, largest sides. */
#include <string.h>

#include "simplex/simplex_plan.h"

const char *sqz_simplex_default_map(int dims, uint64_t n) {
  return dims == 2 || dims == 3 ? sqz__simplex_default_map(dims, n) : NULL;
}

int sqz_domain_map_stats(const sqz_domain *dom, const char *map, uint32_t rho, uint32_t *rho_used,
                         uint64_t *launches, uint64_t *launched, uint64_t *useful) {
  if (!dom) return sqz__null_arg(NULL, "sqz_domain_map_stats");
  if (dom->kind == SQZ_DOMAIN_FRACTAL)
    return sqz__fail(dom->ctx, SQZ_ERR_INVALID_ARGUMENT, "map statistics exist for simplices, not for %s "
                     "(for fractals the layout is the method)", dom->spec);
  sqz_simplex_map_stats ms;
  int st = sqz__simplex_map_stats(dom->ctx, dom->dims, dom->side, map, rho, &ms);
  if (st != SQZ_OK) return st;
  if (rho_used) *rho_used = ms.rho;
  if (launches) *launches = ms.launches;
  if (launched) *launched = ms.launched;
  if (useful) *useful = ms.useful;
  return SQZ_OK;
}

int sqz_simplex_max_side(int dims, const char *layout, uint64_t cell_bytes, uint64_t buffers, uint64_t max_alloc,
                         uint64_t global_mem, uint64_t *side) {
  if (!side || (dims != 2 && dims != 3) || !layout)
    return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_simplex_max_side needs dims 2 or 3, a layout and *side");
  int bb = strcmp(layout, "bb") == 0;
  if (!bb && strcmp(layout, "compact") != 0)
    return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "layout '%s': simplices are stored in bb or compact", layout);
  *side = sqz__simplex_max_side(dims, bb ? SQZ_LAYOUT_BB : SQZ_LAYOUT_COMPACT, cell_bytes, buffers, max_alloc,
                                global_mem);
  return SQZ_OK;
}
