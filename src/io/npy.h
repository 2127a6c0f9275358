/* npy.h — NumPy .npy format 1.0 headers: a pure parser over a memory buffer, a writer, the dtypes. */
#ifndef SQZ_NPY_H
#define SQZ_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "core/sqz_internal.h"

#define SQZ_NPY_PREAMBLE 10 /* magic "\x93NUMPY", version 1.0, little-endian uint16 HEADER_LEN */
#define SQZ_NPY_MAX_DIMS 32 /* NumPy's limit */

typedef struct {
  char descr[16];     /* the dtype as written, e.g. "<f4" */
  sqz_type type;      /* the cell type it holds */
  int ndim;
  uint64_t shape[SQZ_NPY_MAX_DIMS];
  size_t data_offset; /* where the data starts: SQZ_NPY_PREAMBLE + HEADER_LEN */
} sqz_npy_header;

/* Parses the preamble and the header dict at the start of buf (len bytes, which must hold the
 * whole header; bytes past it are ignored). The dict is a Python literal with exactly the keys
 * 'descr', 'fortran_order' and 'shape' in any order, any whitespace, an optional trailing comma
 * (also in the shape tuple). Refused, with a message in err: a missing magic, a version other
 * than 1.0, a truncated header, a malformed dict, fortran_order True, a dtype other than
 * |u1 <u1 <i4 <f4 <f8 (big-endian ones by name). Returns SQZ_OK or SQZ_ERR_PARSE; never reads
 * outside buf[0, len). err may be NULL. */
SQZ_INTERNAL int sqz__npy_parse_header(const unsigned char *buf, size_t len, sqz_npy_header *out, char *err,
                                       size_t errlen);
/* SQZ_NPY_PREAMBLE + HEADER_LEN read from the first len bytes of a file, or 0 when they do not
 * start a version 1.0 file (sqz__npy_parse_header then says why). */
SQZ_INTERNAL size_t sqz__npy_header_size(const unsigned char *buf, size_t len);
/* Writes the preamble and header of a C-order array of cell type t and the given shape into buf:
 * padded with spaces and ended by '\n' so that its length is a multiple of 64. Returns the
 * length, or 0 when cap is too small. */
SQZ_INTERNAL size_t sqz__npy_format_header(sqz_type t, int ndim, const uint64_t *shape, unsigned char *buf,
                                           size_t cap);
/* The dtype written for a cell type ("|u1", "<i4", "<f4", "<f8") and sqz's name of the cell type
 * ("u8", "i32", "f32", "f64"). */
SQZ_INTERNAL const char *sqz__npy_descr(sqz_type t);
SQZ_INTERNAL const char *sqz__npy_cell_name(sqz_type t);
/* NumPy's name of a dtype descr ("<f4" -> "float32", "|b1" -> "bool"), into buf. */
SQZ_INTERNAL const char *sqz__npy_dtype_name(const char *descr, char *buf, size_t cap);

#endif /* SQZ_NPY_H */
