/* field_compact.c — a field's state in compact order (k^R or |D| values), whatever its layout, without a bounding-box array. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"

/* Compact order: for fractals the digit order of λ (cell c at λ(c)); for triangles and
 * tetrahedra the storage order of layout compact. view is f seen in layout compact. */
static void sqz__compact_view(const sqz_field *f, sqz_field *view) {
  *view = *f;
  view->layout = SQZ_LAYOUT_COMPACT;
  view->layout_rho = 0;
  view->elems = f->dom->cells;
}

int sqz__compact_open(sqz_field *f, int mode, const char *what, sqz_compact_io *io) {
  memset(io, 0, sizeof *io);
  sqz_context *ctx = f->ctx;
  int st = SQZ_OK;
  if (f->layout != SQZ_LAYOUT_COMPACT)
    st = sqz__host_alloc(ctx, SQZ_COMPACT_BAND * sizeof *io->idx, 0, (void **)&io->idx,
                         "%s: %s: a band of %llu storage indices", what, f->dom->spec,
                         (unsigned long long)SQZ_COMPACT_BAND);
  if (st != SQZ_OK) return st;
  io->f = f;
  io->mode = mode;
  io->what = what;
  sqz__compact_view(f, &io->view);
  sqz__op_begin(ctx); /* released by sqz__compact_close */
  io->locked = 1;
  if (mode == SQZ_COMPACT_LOAD) st = sqz__field_ensure_pair(f);
  io->which = mode == SQZ_COMPACT_LOAD ? f->cur ^ 1 : f->cur;
  if (st == SQZ_OK && mode != SQZ_COMPACT_READ && io->idx) /* holes and padding of the layout stay 0 */
    st = sqz__store_zero(f, io->which);
  if (st != SQZ_OK) sqz__compact_close(io);
  return st;
}

/* Band cell i (embedded (x, y, z)) holds value, which layout bits cannot: left out of the scatter
 * (index -1), and kept when it is the first of the embedded array so far. */
static void sqz__compact_refuse(sqz_compact_io *io, uint64_t i, uint64_t x, uint64_t y, uint64_t z, unsigned value) {
  uint64_t side = io->f->dom->side, e = (z * side + y) * side + x;
  io->idx[i] = -1;
  if (io->two_state && io->bad_e <= e) return;
  io->two_state = 1;
  io->bad_e = e;
  io->bad_x = x;
  io->bad_y = y;
  io->bad_z = z;
  io->bad_value = value;
}

int sqz__compact_band(sqz_compact_io *io, uint64_t c0, uint64_t n, void *values) {
  sqz_field *f = io->f;
  size_t ts = sqz_type_size(f->type);
  unsigned char *v = values;
  if (!io->idx) /* layout compact: the storage is the compact order */
    return io->mode == SQZ_COMPACT_READ ? sqz__store_read(f, io->which, c0, n, v) : sqz__store_write(f, io->which, c0, n, v);
  int st = SQZ_OK, bits_in = sqz__layout_of(f)->bit_cells && io->mode != SQZ_COMPACT_READ;
  for (uint64_t done = 0; st == SQZ_OK && done < n; done += SQZ_COMPACT_BAND) {
    uint64_t k = n - done < SQZ_COMPACT_BAND ? n - done : SQZ_COMPACT_BAND;
    for (uint64_t i = 0; i < k; i++) {
      uint64_t x, y, z;
      sqz__layout_coords(&io->view, c0 + done + i, &x, &y, &z);
      io->idx[i] = sqz__layout_index(f, x, y, z); /* every domain cell is stored */
      if (bits_in && v[done + i] > 1u) sqz__compact_refuse(io, i, x, y, z, v[done + i]);
    }
    st = io->mode == SQZ_COMPACT_READ ? sqz__field_gather(f, io->which, io->idx, k, v + done * ts)
                                      : sqz__field_scatter(f, io->which, io->idx, k, v + done * ts);
  }
  return st;
}

int sqz__compact_commit(sqz_compact_io *io) {
  if (io->two_state) return sqz__two_state_fail(io->f, io->what, io->bad_x, io->bad_y, io->bad_z, io->bad_value);
  int st = sqz__store_finish(io->f);
  if (st == SQZ_OK && io->mode == SQZ_COMPACT_LOAD) {
    io->f->cur ^= 1;
    st = sqz__field_settle(io->f, 1); /* over the caller's buffer: the state back in it */
  }
  return st;
}

void sqz__compact_close(sqz_compact_io *io) {
  if (io->locked) sqz__op_end(io->f->ctx);
  free(io->idx);
  memset(io, 0, sizeof *io);
}

/* The whole state between f and values (count checked) through one band call: host memory is the
 * caller's array and one band of indices, never a copy of the storage. */
static int sqz__compact_all(sqz_field *f, void *values, uint64_t count, int mode, const char *what) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "%s: the field is NULL", what);
  if (!values) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the array is NULL", what);
  if (count != f->dom->cells)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "%s has %llu cells in compact order, not %llu", f->dom->spec,
                     (unsigned long long)f->dom->cells, (unsigned long long)count);
  sqz_compact_io io;
  int st = sqz__compact_open(f, mode, what, &io);
  if (st == SQZ_OK) st = sqz__compact_band(&io, 0, count, values);
  if (st == SQZ_OK) st = sqz__compact_commit(&io);
  sqz__compact_close(&io);
  return st;
}

int sqz_field_read_compact(sqz_field *f, void *values, uint64_t count) {
  return sqz__compact_all(f, values, count, SQZ_COMPACT_READ, "sqz_field_read_compact");
}

int sqz_field_write_compact(sqz_field *f, const void *values, uint64_t count) {
  return sqz__compact_all(f, (void *)values, count, SQZ_COMPACT_WRITE, "sqz_field_write_compact");
}
