/* field_cells.c — one cell of a field by its coordinates (point sources, probes). */
#include <stdio.h>
#include <string.h>

#include "core/field_parts.h"
#include "core/observe_host.h"


/* The storage index of domain cell (x, y, z) of f, or a named SQZ_ERR_INVALID_ARGUMENT. */
static int sqz__cell_index(sqz_field *f, uint64_t x, uint64_t y, uint64_t z, int64_t *idx) {
  int64_t i = -1;
  if (x < f->dom->side && y < f->dom->side && (f->dom->dims == 3 ? z < f->dom->side : z == 0))
    i = sqz__layout_index(f, x, y, z);
  if (i < 0) {
    if (f->dom->dims == 3)
      return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "cell (z %llu, y %llu, x %llu) is not a cell of %s",
                       (unsigned long long)z, (unsigned long long)y, (unsigned long long)x, f->dom->spec);
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "cell (y %llu, x %llu) is not a cell of %s",
                     (unsigned long long)y, (unsigned long long)x, f->dom->spec);
  }
  *idx = i;
  return SQZ_OK;
}

/* Whether the part that owns storage index i is held by another process (an MPI field). */
static int sqz__cell_elsewhere(const sqz_field *f, int64_t i) {
  if (!f->parts) return 0;
  for (uint64_t p = 0; p < f->parts->parts; p++) {
    const sqz_field_part *pt = &f->parts->part[p];
    if ((uint64_t)i >= pt->u0 * f->parts->unit && (uint64_t)i < pt->u1 * f->parts->unit) return !pt->ctx;
  }
  return 0;
}

int sqz_field_set_cell(sqz_field *f, uint64_t x, uint64_t y, uint64_t z, double value) {
  if (!f) return sqz__null_arg(NULL, "sqz_field_set_cell");
  const char *why = sqz__type_value_check(f->type, value);
  if (why) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "cell value %g: %s", value, why);
  if (sqz__layout_of(f)->bit_cells && value != 0.0 && value != 1.0)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "cell value %g: layout %s holds 0 and 1", value,
                     sqz__layout_of(f)->name);
  int64_t i = 0;
  int st = sqz__cell_index(f, x, y, z, &i);
  if (st != SQZ_OK || sqz__cell_elsewhere(f, i)) return st; /* another rank's part: that rank writes it */
  uint64_t bits = sqz__type_bits(f->type, value);
  unsigned char cell[8];
  size_t ts = sqz_type_size(f->type);
  if (ts == 1) cell[0] = (unsigned char)bits;
  else if (ts == 4) {
    uint32_t v = (uint32_t)bits;
    memcpy(cell, &v, 4);
  } else memcpy(cell, &bits, 8);
  sqz__op_begin(f->ctx);
  st = sqz__field_scatter(f, f->cur, &i, 1, cell);
  if (st == SQZ_OK) st = sqz__store_finish(f);
  sqz__op_end(f->ctx);
  return st;
}

int sqz_field_get_cell(sqz_field *f, uint64_t x, uint64_t y, uint64_t z, double *value) {
  if (!f || !value) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_get_cell");
  int64_t i = 0;
  int st = sqz__cell_index(f, x, y, z, &i);
  if (st == SQZ_OK && sqz__cell_elsewhere(f, i))
    st = sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s: the part holding cell %lld is held by another process",
                   f->dom->spec, (long long)i);
  if (st != SQZ_OK) return st;
  unsigned char cell[8] = {0};
  sqz__op_begin(f->ctx);
  st = sqz__field_gather(f, f->cur, &i, 1, cell);
  if (st == SQZ_OK) st = sqz__store_finish(f);
  sqz__op_end(f->ctx);
  if (st != SQZ_OK) return st;
  switch (f->type) {
  case SQZ_U8: *value = cell[0]; break;
  case SQZ_I32: { int32_t v; memcpy(&v, cell, 4); *value = v; } break;
  case SQZ_F32: { float v; memcpy(&v, cell, 4); *value = v; } break;
  default: memcpy(value, cell, 8); break;
  }
  return SQZ_OK;
}

int sqz__field_probe(sqz_field *f, const sqz_observable *o, double *value, int *here) {
  int64_t i = 0;
  uint64_t x = (uint64_t)o->x, y = (uint64_t)o->y, z = (uint64_t)o->z;
  int st = sqz__cell_index(f, x, y, z, &i);
  *value = 0.0;
  *here = st == SQZ_OK && !sqz__cell_elsewhere(f, i);
  return st != SQZ_OK || !*here ? st : sqz_field_get_cell(f, x, y, z, value);
}
