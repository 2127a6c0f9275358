/* part_view.h — a part of a parted field as its step sees it: the part's units, halo runs and buffers, and the units one launch covers (engines include this, not field_parts.h). */
#ifndef SQZ_PART_VIEW_H
#define SQZ_PART_VIEW_H
#include "core/registry.h"

/* The parts of a field (sqz_field.parts; not sqz_field_parts, the public count function). */
typedef struct sqz_field_split sqz_field_split;

/* A run of halo units [g0, g0 + n) that one owner holds: they land at local slots slot0 .. */
typedef struct {
  uint64_t g0, n, slot0, owner;
} sqz_halo_run;

/* A subset of a part's own units, as runs of consecutive units: what one launch of a part's step
 * covers (sqz_field.units of its view). Positions 0 .. n - 1 number the units in increasing order;
 * runs holds 2 (n_runs + 1) values, per run its first unit and that unit's position, then (0, n);
 * kernels read it through cl/sqz_parts.h (sqz_units_at: position -> unit, sqz_units_has). */
typedef struct sqz_unit_set {
  uint64_t n, n_runs;
  uint64_t *runs;
  sqz_mem dev; /* runs on the part's device (NULL when n = 0) */
} sqz_unit_set;

typedef struct sqz_field_part {
  sqz_context *ctx;   /* the part's device (retained); NULL: held by another MPI rank */
  uint64_t u0, u1;    /* own storage units */
  uint64_t n_halo;    /* halo units, after the own ones in mem[] */
  uint64_t *halo;     /* n_halo sorted global unit indices */
  uint64_t *owner;    /* their owning parts */
  uint64_t n_runs;    /* the halo as runs of consecutive units of one owner */
  sqz_halo_run *runs;
  sqz_mem mem[2];     /* (u1 - u0 + n_halo) * unit elements each; mem[1] made on the first step */
  sqz_mem halo_dev;   /* `halo` on the device for the kernels' remap (NULL when n_halo = 0) */
  uint64_t unit;      /* the field's storage elements per unit (sqz_field_split.unit) */
  /* The own units split once at build: border units hold a cell that reads a halo unit (the units
   * of this part in other parts' halos), inner units the rest. A step runs the inner units while
   * the halo moves, then the border units (sqz__field_parts_step). */
  sqz_unit_set inner, border;
} sqz_field_part;

/* Bytes of n storage elements of f: n / 8 where they are bit cells (layout bits; n a multiple of 8:
 * whole units or words), else n times the cell type's size. */
static inline uint64_t sqz__elems_bytes(const sqz_field *f, uint64_t n) {
  return sqz__layout_of(f)->bit_cells ? n / 8u : n * sqz_type_size(f->type);
}

/* The storage elements that f's own units hold, [*e0, *e0 + *n) of the whole field: a part's when
 * f is a part's view, else all of them. */
static inline void sqz__own_elems(const sqz_field *f, uint64_t *e0, uint64_t *n) {
  *e0 = f->part ? f->part->u0 * f->part->unit : 0;
  *n = f->part ? (f->part->u1 - f->part->u0) * f->part->unit : f->elems;
}

/* The launch of a step of f (a field, or a part's view) over its tiles or units: positions
 * [*first, *end), position i being unit sqz_units_at(i, *n_runs, *runs) (cl/sqz_parts.h): a
 * field's units 0 .. all - 1 or a part's own units as themselves (n_runs 0), or the positions of
 * the view's unit set (f->units) through its runs (dev: their device copy). */
static inline void sqz__step_units(const sqz_field *f, uint64_t all, uint64_t *first, uint64_t *end, uint64_t *n_runs,
                                   const uint64_t **runs, sqz_mem *dev) {
  const sqz_unit_set *u = f->part ? f->units : NULL;
  *first = u ? 0 : f->part ? f->part->u0 : 0;
  *end = u ? u->n : f->part ? f->part->u1 : all;
  *n_runs = u ? u->n_runs : 0;
  *runs = u ? u->runs : NULL;
  *dev = u ? u->dev : NULL;
}

/* The halo units before a band part's own ones (its row above; 0 for the first part): the `before`
 * of sqz_band_slot (cl/sqz_parts.h). */
static inline uint64_t sqz__band_before(const sqz_field_part *pt) {
  return pt->n_runs && pt->runs[0].g0 < pt->u0 ? pt->runs[0].n : 0;
}

/* The rows a step of f in a band layout covers (bb, lambda: rows of `row` storage elements,
 * src/core/parts_bands.c), as runs: run r of the returned count is rows [*y0, *y1). A field: one
 * run of every row; a part's view: its own rows, or the runs of its unit set (whole rows). row 1:
 * a part's runs of units (simplex bits: words). */
static inline uint64_t sqz__band_run(const sqz_field *f, uint64_t row, uint64_t r, uint64_t *y0, uint64_t *y1) {
  uint64_t first, end, n_runs;
  const uint64_t *runs;
  sqz_mem dev;
  sqz__step_units(f, f->elems, &first, &end, &n_runs, &runs, &dev);
  if (n_runs == 0) {
    *y0 = first / row;
    *y1 = end / row;
    return 1;
  }
  *y0 = runs[2 * r] / row;
  *y1 = (runs[2 * r] + runs[2 * r + 3] - runs[2 * r + 1]) / row;
  return n_runs;
}

#endif
