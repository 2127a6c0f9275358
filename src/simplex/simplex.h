/* simplex.h — the simplex family (triangles, tetrahedra) as the registry's rows see it: its row of domain and parts operations, and the storage of its layouts bb and compact. */
#ifndef SQZ_SIMPLEX_FAMILY_H
#define SQZ_SIMPLEX_FAMILY_H
#include "core/registry.h"

/* The family's row (simplex_domain.c) and the storage of its layouts (simplex_layout.c), for src/layouts/layouts.c. */
SQZ_INTERNAL extern const sqz_family_ops sqz__simplex_family;
SQZ_INTERNAL extern const sqz_layout_storage sqz__simplex_storage;

/* The row's operations (contracts: core/registry.h). */
SQZ_INTERNAL int sqz__simplex_contains(const sqz_domain *dom, uint64_t x, uint64_t y, uint64_t z);
SQZ_INTERNAL int sqz__simplex_geometry(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho,
                                       uint64_t *elems, uint64_t *width, uint64_t *height);
SQZ_INTERNAL int sqz__simplex_coords(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y,
                                     uint64_t *z);
SQZ_INTERNAL int64_t sqz__simplex_index(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);
/* The halo of part p of a plan in bands (simplex_parts.c). */
SQZ_INTERNAL int sqz__simplex_parts_halo(const sqz_parts_plan *plan, uint64_t p, sqz_halo_sink *sink);
#endif
