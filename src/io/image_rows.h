/* image_rows.h — a field's embedded image taken and given row by row, through one host copy of its storage. */
#ifndef SQZ_IMAGE_ROWS_H
#define SQZ_IMAGE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "core/sqz_internal.h"

/* The embedded image of a field: width = side and height = side (2D) or N * N (3D: slice z in rows
 * z*N .. z*N+N-1), the geometry of PBM, PNG and, row for row, of .npy. Its memory is one host copy
 * of the field's storage (f->elems cells, the compact size, never the bounding box) plus one row's
 * cell list; the rows are produced through the layout's index map (sqz__layout_row). */
typedef struct {
  sqz_field *f;
  const char *path;     /* the file, for messages */
  unsigned char *store; /* f->elems cells of ts bytes */
  int owned;            /* 1: store is a copy this handle frees; 0: the backend's own host buffer */
  size_t ts;
  uint64_t width, height;
  uint64_t *xs, *index; /* the current row's domain cells: columns and storage indices */
  uint64_t count;
  int outside;          /* readers: a set cell that is no domain cell was given; the first is kept */
  uint64_t out_x, out_y, out_z;
} sqz_image;

enum { SQZ_IMAGE_SAVE = 0, SQZ_IMAGE_LOAD = 1 };

/* Opens the image of f for a writer (SQZ_IMAGE_SAVE: the field's state, read where a host-memory
 * backend keeps it, else downloaded once) or for a reader (SQZ_IMAGE_LOAD: zeros to fill). Every
 * buffer is checked against the host's memory first (SQZ_ERR_OUT_OF_MEMORY naming bytes needed and
 * available). On failure *im is empty (closing it is a no-op). */
SQZ_INTERNAL int sqz__image_open(sqz_field *f, const char *path, int mode, sqz_image *im);
/* The domain cells of image row `row` (< height) into xs, index and count, in increasing x. */
SQZ_INTERNAL void sqz__image_row(sqz_image *im, uint64_t row);
/* Readers: takes image row `row` (after sqz__image_row), `data` holding width cells of ts bytes:
 * the domain cells go to the storage copy; the first non-zero cell elsewhere is remembered. */
SQZ_INTERNAL void sqz__image_take_row(sqz_image *im, uint64_t row, const unsigned char *data);
/* Readers, once the whole file was read and found well formed: SQZ_ERR_OUTSIDE_DOMAIN naming the
 * file and the first set cell outside the domain, else the state is uploaded into the field. */
SQZ_INTERNAL int sqz__image_commit(sqz_image *im);
/* 1 when storage cell i holds a non-zero value. */
SQZ_INTERNAL int sqz__image_set(const sqz_image *im, uint64_t i);
SQZ_INTERNAL void sqz__image_close(sqz_image *im);

#endif /* SQZ_IMAGE_ROWS_H */
