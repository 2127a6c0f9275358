/* sqz_hdf5.h — HDF5 checkpoints of fields: the library libsqz-hdf5 (CMake: find_package(sqz COMPONENTS hdf5), sqz::hdf5; pkg-config sqz-hdf5). */
#ifndef SQZ_HDF5_H
#define SQZ_HDF5_H
#include "sqz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libsqz itself never loads libhdf5: a program that does not checkpoint needs neither this library nor HDF5. */
/* HDF5 checkpoints (SQZ_ERR_UNSUPPORTED where libsqz-hdf5 was built without libhdf5): dataset "state" with the
 * compact state (sqz_field_read_compact's order; chunked, shuffled and deflated, Fletcher-32
 * checksummed) and attributes domain, cell_type ("u8", "i32", "f32", "f64"), workload (the rule
 * or kernel, free text), step, sqz_version and order. Loading checks domain, type and size
 * (SQZ_ERR_PARSE naming both sides) and the checksum; workload (may be NULL) and step (may be
 * NULL) get the file's. A run of K steps equals J steps, a checkpoint and K - J more, bit for bit.
 * The state moves one chunk (2^20 cells) at a time: host memory is a chunk, whatever the level. A
 * load fills the field's second buffer and makes it current only when every chunk was read and
 * passed its checksum, so a damaged file leaves the field as it was. */
SQZ_API int sqz_field_save_h5(sqz_field *field, const char *path, const char *workload, uint64_t step);
SQZ_API int sqz_field_load_h5(sqz_field *field, const char *path, char *workload, size_t workload_len, uint64_t *step);

#ifdef __cplusplus
}
#endif
#endif
