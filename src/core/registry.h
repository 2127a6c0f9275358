/* registry.h — the library's lookups in the layout and map registries (src/core/registry.c). */
#ifndef SQZ_REGISTRY_H
#define SQZ_REGISTRY_H
#include "core/sqz_internal.h"

typedef struct {
  const char *name;
  unsigned families; /* SQZ_FAMILY_* bits */
  const char *help;
} sqz_layout_info;

typedef struct {
  const char *name;
  unsigned families;   /* SQZ_FAMILY_* bits */
  int dims;            /* 2, 3, or 0 = any */
  const char *backend; /* NULL = any backend */
  int is_default;
  const char *help;
} sqz_map_info;

/* The entry named `name`, or NULL. A layout pattern "block:RHO" matches any "block:..." text. */
SQZ_INTERNAL const sqz_layout_info *sqz__layout_find(const char *name);
SQZ_INTERNAL const sqz_map_info *sqz__map_find(const char *name);

/* Joins names for messages: the layouts of `families` (0: all) other than `skip` (may be
 * NULL), or the maps that sqz_map_matches keeps (with only_backend: those restricted to
 * exactly `backend`), separated by sep and, before the last one, by last ("a, b or c").
 * Returns the count, or SQZ_ERR_TOO_LARGE with the names that fit. */
SQZ_INTERNAL int sqz__layout_names(unsigned families, const char *skip, const char *sep, const char *last, char *buf,
                                   size_t len);
SQZ_INTERNAL int sqz__map_names(unsigned family, int dims, const char *backend, int only_backend, const char *sep,
                                const char *last, char *buf, size_t len);

/* The simplex maps of dims (2 or 3) in registry order, NULL-terminated; static. */
SQZ_INTERNAL const char *const *sqz__simplex_maps(int dims);
/* SQZ_OK when `map` is a simplex map of dims; else SQZ_ERR_INVALID_ARGUMENT saying whether it
 * belongs to the other dimension, to fractals, or is unknown, with the valid maps. */
SQZ_INTERNAL int sqz__simplex_map_check(sqz_context *ctx, int dims, const char *map);
#endif
