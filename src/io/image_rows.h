/* image_rows.h — a field's embedded image taken and given in bands of rows gathered from / scattered to the backend: host memory bounded, whatever the level. */
#ifndef SQZ_IMAGE_ROWS_H
#define SQZ_IMAGE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "core/sqz_internal.h"

/* Domain cells a band holds by default (more when one image row has more): with their columns,
 * storage indices, row starts and values, at most 2^17 * (24 + 8) bytes = 4 MiB of host memory. */
#define SQZ_IMAGE_BAND ((uint64_t)1 << 17)

/* The embedded image of a field: width = side and height = side (2D) or N * N (3D: slice z in rows
 * z*N .. z*N+N-1), the geometry of PBM, PNG, RLE and, row for row, of .npy. Only domain cells move:
 * writers gather a band of consecutive rows from the field's current buffer (ops->gather), readers
 * scatter the cells they were given into the second buffer (ops->scatter), which becomes the
 * current one when the whole file was read and found good (sqz__image_commit), so a bad file leaves
 * the field as it was. Host memory: cap cells of a band, never the storage or the bounding box. The
 * context stays locked from open to close (no step may flip the buffers in between). */
typedef struct {
  sqz_field *f;
  const char *path;     /* the file, for messages */
  int mode;             /* SQZ_IMAGE_SAVE or SQZ_IMAGE_LOAD */
  size_t ts;
  uint64_t width, height;
  uint64_t cap;         /* cells the band holds: max(band, width) */
  uint64_t *xs, *index; /* the band's domain cells, row after row in increasing x: column and storage index */
  uint64_t *start;      /* writers: cells of band row r at start[r] .. start[r + 1] - 1 */
  unsigned char *vals;  /* their values, ts bytes each */
  uint64_t r0, rows;    /* writers: the band holds image rows r0 .. r0 + rows - 1 */
  uint64_t used;        /* cells in the band */
  /* Writers, after sqz__image_row: the row's domain cells (xs[j], value at vals + j * ts). */
  const uint64_t *row_xs;
  const unsigned char *row_vals;
  uint64_t count;
  int outside;          /* readers: a set cell that is no domain cell was given; the first is kept */
  uint64_t out_x, out_y, out_z;
  int clip;             /* readers: set cells that are no domain cells are dropped and counted, not refused */
  uint64_t clipped, kept; /* readers: set cells dropped (clip) and set domain cells taken */
  int two_state;        /* readers, layout bits: a domain cell other than 0 or 1 was given (kept as 0); the first */
  uint64_t bad_x, bad_y, bad_z;
  unsigned bad_value;
  int locked;
} sqz_image;

enum { SQZ_IMAGE_SAVE = 0, SQZ_IMAGE_LOAD = 1 };

/* Opens the image of f for a writer (SQZ_IMAGE_SAVE: the field's state) or a reader
 * (SQZ_IMAGE_LOAD: a zero state to fill, in the second buffer), with bands of `band` cells
 * (SQZ_IMAGE_BAND; tests give small ones). Every buffer is checked against the host's memory first
 * (SQZ_ERR_OUT_OF_MEMORY naming bytes needed and available). On failure *im is closed. */
SQZ_INTERNAL int sqz__image_open_band(sqz_field *f, const char *path, int mode, uint64_t band, sqz_image *im);
SQZ_INTERNAL int sqz__image_open(sqz_field *f, const char *path, int mode, sqz_image *im);
/* Writers: the domain cells of image row y (< height) into row_xs, row_vals and count, in
 * increasing x; a new band is gathered from y on when y is not in the current one. */
SQZ_INTERNAL int sqz__image_row(sqz_image *im, uint64_t y);
/* Writers, after sqz__image_row: 1 when the row's cell j holds a non-zero value. */
SQZ_INTERNAL int sqz__image_set(const sqz_image *im, uint64_t j);
/* Readers, rows in increasing order: image row y, `data` holding width cells of ts bytes; its domain
 * cells join the band (scattered when full), the first non-zero cell elsewhere is remembered, and so
 * is, in layout bits (one bit a cell), the first domain cell other than 0 or 1. */
SQZ_INTERNAL int sqz__image_take_row(sqz_image *im, uint64_t y, const unsigned char *data);
/* Readers: one cell by storage index (a domain cell), `value` of ts bytes. */
SQZ_INTERNAL int sqz__image_put(sqz_image *im, uint64_t index, const void *value);
/* Readers, once the whole file was read and found well formed: SQZ_ERR_OUTSIDE_DOMAIN naming the
 * file and the first set cell outside the domain (clip: only when every set cell was dropped,
 * naming how many), SQZ_ERR_INVALID_ARGUMENT naming the first cell a
 * bits field cannot hold, else the last band is scattered and the state becomes the field's current
 * one. */
SQZ_INTERNAL int sqz__image_commit(sqz_image *im);
/* Writers: the first domain cell in image order (the .npy order) whose u8 value exceeds max: 1 and
 * *x, *y, *z, *value, or 0 when there is none; *st gets the status of the gathers. */
SQZ_INTERNAL int sqz__image_find_above(sqz_image *im, unsigned max, uint64_t *x, uint64_t *y, uint64_t *z,
                                       unsigned *value, int *st);
/* The loads of PBM and .npy images behind sqz_field_load_pbm / _npy and sqz_field_load_clipped:
 * clip as in sqz_image, *clipped (may be NULL) the set cells dropped. */
SQZ_INTERNAL int sqz__field_load_pbm(sqz_field *f, const char *path, int clip, uint64_t *clipped);
SQZ_INTERNAL int sqz__field_load_npy(sqz_field *f, const char *path, int clip, uint64_t *clipped);
/* Frees the bands and unlocks the context; a no-op on a closed image. */
SQZ_INTERNAL void sqz__image_close(sqz_image *im);

#endif /* SQZ_IMAGE_ROWS_H */
