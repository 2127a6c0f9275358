/* registry.h — the registry: the rows of the domain families and of the layouts (what the library asks of each: storage per family, bytes, parts, I/O, fast paths; filled by each family's and layout's own folder, listed in src/layouts/layouts.c), the table of maps, and the lookups in both (registry.c). */
#ifndef SQZ_REGISTRY_H
#define SQZ_REGISTRY_H
#include "core/parts.h"
#include "core/reduce_acc.h"

/* ---- a domain family (simplices, fractals) ------------------------------------------------ */
/* Its domains, and the halves of the parts plan (core/parts.h) that follow its geometry. */
typedef struct sqz_family_ops {
  /* Fills d (kind set by the caller) from arg, the text after "KIND:" of spec: dims, side, cells and spec;
   * SQZ_ERR_PARSE or SQZ_ERR_TOO_LARGE naming the bad part. */
  int (*parse)(sqz_context *ctx, const char *spec, const char *arg, sqz_domain *d);
  /* 1 when embedded (x, y, z) is a cell of dom (sqz_domain_contains). */
  int (*contains)(const sqz_domain *dom, uint64_t x, uint64_t y, uint64_t z);
  /* Fills the plan's per-direction tables (replicas); NULL where the family parts by bands. */
  void (*parts_tables)(sqz_parts_plan *plan);
  /* The halo ranges of part p to sink (core/parts.h, sqz_halo_sink). */
  int (*parts_halo)(const sqz_parts_plan *plan, uint64_t p, sqz_halo_sink *sink);
  /* Replicas: the cells, or the level-jt tiles, of replica b in the directions of mask to add(); NULL on bands. */
  int (*parts_cells)(const sqz_parts_plan *plan, uint64_t b, unsigned mask, int (*add)(void *user, uint64_t i),
                     void *user);
  int (*parts_tiles)(const sqz_parts_plan *plan, uint64_t b, unsigned mask, int jt,
                     int (*add)(void *user, uint64_t i), void *user);
} sqz_family_ops;

/* ---- a layout's storage on one family ------------------------------------------------------ */
/* The shape and the index maps, with the contracts of sqz_internal.h's sqz__layout_* (a family's
 * functions take every layout it stores and tell them apart by layout id), and what its parts need. */
typedef struct sqz_layout_storage {
  int (*geometry)(const sqz_domain *dom, sqz_layout_id layout, uint32_t rho, uint64_t *elems, uint64_t *width,
                  uint64_t *height);
  int (*coords)(const sqz_field *f, uint64_t index, uint64_t *x, uint64_t *y, uint64_t *z);
  int64_t (*index)(const sqz_field *f, uint64_t x, uint64_t y, uint64_t z);
  uint64_t (*row)(const sqz_field *f, uint64_t y, uint64_t z, uint64_t *xs, uint64_t *index);
  const char *(*rule)(const sqz_field *f);
  /* Parts by tiles (SQZ_PARTS_DIGITS, SQZ_PARTS_TILES): a tile's storage elements (the unit), its cells
   * and its level; the tiles of a fixed level (SQZ_PARTS_TILES: the most parts). NULL where the family's
   * layouts part otherwise. */
  int (*tiles)(const sqz_field *f, uint64_t *unit, uint64_t *unit_cells, uint32_t *jt);
  uint64_t (*tile_count)(const sqz_field *f);
  /* Parts by bands of rows of unequal length: the rows (planes), and the first unit of row r (r = rows:
   * every unit); NULL: the equal rows of a bounding box (field_parts.h, parts_bands.c). */
  uint64_t (*band_rows)(const sqz_field *f);
  uint64_t (*band_start)(const sqz_field *f, uint64_t r);
} sqz_layout_storage;

/* How a layout on a family splits into parts (core/field_parts.h): not at all; by cells of the
 * compact order; by tiles of the digit order at any level (refined until each part has one); by
 * tiles of a fixed level; by bands of whole rows (planes). */
enum { SQZ_PARTS_NONE = 0, SQZ_PARTS_CELLS, SQZ_PARTS_DIGITS, SQZ_PARTS_TILES, SQZ_PARTS_BANDS };
/* The engines' fast paths that a layout's storage admits on a family (docs/ARCHITECTURE.md, "The
 * layouts as rows"): ROWS, simplex rows stored whole and in order (the cpu backend's Life rows);
 * TILES, fractal tiles stored whole (the cpu backend's tile caches); BOXES, bit boxes stepped several
 * steps a launch on every device (so parts exchange every 4 steps in one process). OpenCL's row and
 * word steps apply to the same layouts (and test them by id). */
enum { SQZ_FAST_ROWS = 1u, SQZ_FAST_TILES = 2u, SQZ_FAST_BOXES = 4u };

typedef struct {
  const sqz_layout_storage *storage; /* NULL: the family has no such layout */
  unsigned parts;                    /* SQZ_PARTS_* */
  unsigned fast;                     /* SQZ_FAST_* bits */
} sqz_layout_on;

/* ---- a layout's host I/O where storage elements are not cells of the field's type ---------- */
typedef struct sqz_layout_io {
  /* n cells through storage indices idx (-1: none) between buffer `which` of f (one buffer or parts) and
   * bytes: out (read; 0 for -1) or in (write); SQZ_ERR_INVALID_ARGUMENT naming a value it cannot hold. */
  int (*band)(sqz_field *f, int which, const int64_t *idx, uint64_t n, unsigned char *out, const unsigned char *in);
  /* The current buffer to and from a host view of one byte per storage element (f->elems bytes). */
  int (*download)(sqz_field *f, unsigned char *host);
  int (*upload)(sqz_field *f, const unsigned char *host);
  /* A reduction of the cells by the layout itself, in place of the backends' reduce and observe (which
   * read storage elements of the field's type): the count and sums only, no cell positions. */
  int (*reduce)(sqz_field *f, sqz_red_op op, sqz_red_acc *acc);
} sqz_layout_io;

/* ---- the row ------------------------------------------------------------------------------- */
typedef struct sqz_layout_row {
  const char *name; /* as the API and the CLI write it; "block:RHO" is a pattern: its prefix names it */
  const char *help;
  /* The argument of a pattern (arg: the text after the colon of layout) on dom into *rho; NULL: a plain name. */
  int (*parse)(sqz_context *ctx, const sqz_domain *dom, const char *layout, const char *arg, uint32_t *rho);
  /* 1: a storage element is one bit, 32 to a word, of two-state cells (u8 0 or 1); 0: a cell of the type. */
  unsigned bit_cells;
  const sqz_layout_io *io; /* NULL: storage elements are cells of the field's type */
  sqz_layout_on on[2];     /* per family: [0] simplices, [1] fractals (sqz__family_index) */
} sqz_layout_row;

/* The rows, by sqz_layout_id (the order the registry lists them), and the families (src/layouts/layouts.c);
 * the components read them through the inline functions below. */
SQZ_COMPONENT extern const sqz_layout_row sqz__layouts[SQZ_LAYOUT_COUNT];
SQZ_COMPONENT extern const sqz_family_ops *const sqz__families[2];

/* 0 for simplices, 1 for fractals: the index of dom's family in sqz__families and in a row's on[]. */
static inline int sqz__family_index(const sqz_domain *dom) { return dom->kind == SQZ_DOMAIN_FRACTAL; }
static inline const sqz_family_ops *sqz__family_of(const sqz_domain *dom) {
  return sqz__families[sqz__family_index(dom)];
}
/* f's layout row, and its entry for f's family. */
static inline const sqz_layout_row *sqz__layout_of(const sqz_field *f) { return &sqz__layouts[f->layout]; }
static inline const sqz_layout_on *sqz__layout_on(const sqz_field *f) {
  return &sqz__layouts[f->layout].on[sqz__family_index(f->dom)];
}
/* The SQZ_FAMILY_* bits of the families that store row r. */
static inline unsigned sqz__layout_families(const sqz_layout_row *r) {
  unsigned simplex = SQZ_FAMILY_SIMPLEX, fractal = SQZ_FAMILY_FRACTAL;
  return (r->on[0].storage ? simplex : 0u) | (r->on[1].storage ? fractal : 0u);
}
/* 1 when the fast path `fast` (SQZ_FAST_*) applies to f's layout on f's family. */
static inline int sqz__layout_fast(const sqz_field *f, unsigned fast) { return (sqz__layout_on(f)->fast & fast) != 0; }

/* ---- the maps, and the lookups --------------------------------------------------------------- */

typedef struct {
  const char *name;
  unsigned families;   /* SQZ_FAMILY_* bits */
  int dims;            /* 2, 3, or 0 = any */
  const char *backend; /* NULL = any backend */
  int is_default;
  const char *help;
} sqz_map_info;

/* The entry named `name`, or NULL. A layout pattern "block:RHO" matches any "block:..." text. */
SQZ_INTERNAL const sqz_layout_row *sqz__layout_find(const char *name);
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
