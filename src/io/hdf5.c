/* hdf5.c — checkpoints in HDF5: the compact state (chunked, compressed, checksummed) with its domain, type, workload, step and version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"
#include "io/atomic_file.h"

#ifdef SQZ_HAVE_HDF5
#include <hdf5.h>

#define SQZ_H5_CHUNK ((hsize_t)1 << 20) /* cells per chunk */

static hid_t sqz__h5_file_type(sqz_type t) {
  switch (t) {
  case SQZ_U8: return H5T_STD_U8LE;
  case SQZ_I32: return H5T_STD_I32LE;
  case SQZ_F32: return H5T_IEEE_F32LE;
  case SQZ_F64: return H5T_IEEE_F64LE;
  }
  return H5T_STD_U8LE;
}
static hid_t sqz__h5_mem_type(sqz_type t) {
  switch (t) {
  case SQZ_U8: return H5T_NATIVE_UINT8;
  case SQZ_I32: return H5T_NATIVE_INT32;
  case SQZ_F32: return H5T_NATIVE_FLOAT;
  case SQZ_F64: return H5T_NATIVE_DOUBLE;
  }
  return H5T_NATIVE_UINT8;
}
static const char *sqz__type_name(sqz_type t) {
  switch (t) {
  case SQZ_U8: return "u8";
  case SQZ_I32: return "i32";
  case SQZ_F32: return "f32";
  case SQZ_F64: return "f64";
  }
  return "?";
}

/* HDF5 prints its error stack unless told not to; the library never prints. */
typedef struct {
  H5E_auto2_t fn;
  void *data;
} sqz_h5_quiet;
static void sqz__h5_quiet(sqz_h5_quiet *q) {
  H5Eget_auto2(H5E_DEFAULT, &q->fn, &q->data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}
static void sqz__h5_loud(const sqz_h5_quiet *q) { H5Eset_auto2(H5E_DEFAULT, q->fn, q->data); }

static int sqz__h5_put_str(hid_t obj, const char *name, const char *value) {
  hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR), a = -1;
  int ok = t >= 0 && sp >= 0 && H5Tset_size(t, strlen(value) + 1) >= 0 && H5Tset_strpad(t, H5T_STR_NULLTERM) >= 0 &&
           (a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0 && H5Awrite(a, t, value) >= 0;
  if (a >= 0) H5Aclose(a);
  if (sp >= 0) H5Sclose(sp);
  if (t >= 0) H5Tclose(t);
  return ok;
}
static int sqz__h5_put_u64(hid_t obj, const char *name, uint64_t value) {
  hid_t sp = H5Screate(H5S_SCALAR), a = -1;
  int ok = sp >= 0 && (a = H5Acreate2(obj, name, H5T_STD_U64LE, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
           H5Awrite(a, H5T_NATIVE_UINT64, &value) >= 0;
  if (a >= 0) H5Aclose(a);
  if (sp >= 0) H5Sclose(sp);
  return ok;
}
/* A string attribute into buf (len bytes, truncated, always terminated): 1, or 0 when absent or not a
 * fixed-length string, or -1 when the host memory to read it was refused. */
static int sqz__h5_get_str(hid_t obj, const char *name, char *buf, size_t len) {
  if (H5Aexists(obj, name) <= 0) return 0;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT), t = a >= 0 ? H5Aget_type(a) : -1, m = -1;
  int ok = 0;
  if (t >= 0 && H5Tget_class(t) == H5T_STRING && !H5Tis_variable_str(t)) {
    size_t n = H5Tget_size(t);
    char *tmp = sqz__calloc(n + 1, 1);
    m = H5Tcopy(H5T_C_S1);
    if (!tmp) ok = -1;
    else if (m >= 0 && H5Tset_size(m, n) >= 0 && H5Aread(a, m, tmp) >= 0) {
      snprintf(buf, len, "%s", tmp);
      ok = 1;
    }
    free(tmp);
  }
  if (m >= 0) H5Tclose(m);
  if (t >= 0) H5Tclose(t);
  if (a >= 0) H5Aclose(a);
  return ok;
}
static int sqz__h5_get_u64(hid_t obj, const char *name, uint64_t *value) {
  if (H5Aexists(obj, name) <= 0) return 0;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  int ok = a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, value) >= 0;
  if (a >= 0) H5Aclose(a);
  return ok;
}

/* One band of the dataset: cells c0 .. c0 + n - 1 between the file and values (read = 1: into values). */
static int sqz__h5_band(hid_t ds, hid_t space, sqz_type t, hsize_t c0, hsize_t n, void *values, int read) {
  hid_t mem = H5Screate_simple(1, &n, NULL);
  int ok = mem >= 0 && H5Sselect_hyperslab(space, H5S_SELECT_SET, &c0, NULL, &n, NULL) >= 0 &&
           (read ? H5Dread(ds, sqz__h5_mem_type(t), mem, space, H5P_DEFAULT, values)
                 : H5Dwrite(ds, sqz__h5_mem_type(t), mem, space, H5P_DEFAULT, values)) >= 0;
  if (mem >= 0) H5Sclose(mem);
  return ok;
}

/* The checkpoint as an HDF5 file image in memory (the core driver: HDF5 never touches the disk, so a full disk or a
 * failing write is the atomic file's error, with the system's reason, and never a half-closed HDF5 file). The state
 * moves into it one chunk at a time (sqz__compact_band): host memory is the compressed image plus one chunk, never
 * the raw compact state or a copy of the storage. *image is malloc'ed; 0 on an HDF5 failure (st stays SQZ_OK). */
static int sqz__h5_image(sqz_field *f, sqz_compact_io *io, void *values, uint64_t band, const char *workload,
                         uint64_t step, void **image, size_t *len, int *st) {
  uint64_t cells = f->dom->cells;
  hsize_t dims[1] = {cells}, chunk[1] = {band};
  /* the image grows by an eighth of the raw state at a time (1 MiB to 256 MiB): few reallocations */
  uint64_t raw = cells * sqz_type_size(f->type), grow = raw / 8;
  grow = grow < ((uint64_t)1 << 20) ? (uint64_t)1 << 20 : grow > ((uint64_t)1 << 28) ? (uint64_t)1 << 28 : grow;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file = -1;
  if (fapl >= 0 && H5Pset_fapl_core(fapl, (size_t)grow, 0) >= 0)
    file = H5Fcreate("sqz-checkpoint", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  hid_t space = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE), ds = -1;
  int ok = file >= 0 && space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 && H5Pset_shuffle(dcpl) >= 0 &&
           H5Pset_deflate(dcpl, 4) >= 0 && H5Pset_fletcher32(dcpl) >= 0 &&
           (ds = H5Dcreate2(file, "state", sqz__h5_file_type(f->type), space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) >= 0;
  for (uint64_t c0 = 0; ok && *st == SQZ_OK && c0 < cells; c0 += band) {
    uint64_t n = cells - c0 < band ? cells - c0 : band;
    *st = sqz__compact_band(io, c0, n, values);
    if (*st == SQZ_OK) *st = sqz__finish(f->ctx);
    ok = *st != SQZ_OK || sqz__h5_band(ds, space, f->type, c0, n, values, 0);
  }
  ok = ok && *st == SQZ_OK && sqz__h5_put_str(ds, "domain", f->dom->spec) &&
       sqz__h5_put_str(ds, "cell_type", sqz__type_name(f->type)) &&
       sqz__h5_put_str(ds, "workload", workload ? workload : "") && sqz__h5_put_u64(ds, "step", step) &&
       sqz__h5_put_str(ds, "sqz_version", SQZ_VERSION_STRING) &&
       sqz__h5_put_str(ds, "order", f->dom->kind == SQZ_DOMAIN_FRACTAL
                                        ? "compact: value c is embedded cell lambda(c), digit order (cl/sqz_fractal.h)"
                                        : "compact: the storage order of layout compact");
  if (ds >= 0) H5Dclose(ds);
  if (dcpl >= 0) H5Pclose(dcpl);
  if (space >= 0) H5Sclose(space);
  ssize_t n = ok && H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0 ? H5Fget_file_image(file, NULL, 0) : -1;
  *image = n > 0 ? sqz__malloc((size_t)n) : NULL;
  ok = *image && H5Fget_file_image(file, *image, (size_t)n) == n;
  if (file >= 0 && H5Fclose(file) < 0) ok = 0;
  if (fapl >= 0) H5Pclose(fapl);
  *len = ok ? (size_t)n : 0;
  return ok;
}

int sqz_field_save_h5(sqz_field *f, const char *path, const char *workload, uint64_t step) {
  if (!f || !path) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_save_h5: NULL argument");
  sqz_context *ctx = f->ctx;
  uint64_t cells = f->dom->cells, band = cells < SQZ_H5_CHUNK ? (cells ? cells : 1) : SQZ_H5_CHUNK;
  void *values = NULL, *image = NULL;
  size_t len = 0;
  sqz_compact_io io;
  int st = sqz__host_alloc(ctx, band * sqz_type_size(f->type), 0, &values, "%s: a chunk of the compact state", path);
  if (st == SQZ_OK && (st = sqz__compact_open(f, SQZ_COMPACT_READ, path, &io)) == SQZ_OK) {
    sqz_h5_quiet q;
    sqz__h5_quiet(&q);
    int ok = sqz__h5_image(f, &io, values, band, workload, step, &image, &len, &st);
    sqz__h5_loud(&q);
    sqz__compact_close(&io);
    if (st == SQZ_OK && !ok)
      st = sqz__fail(ctx, SQZ_ERR_IO, "%s: building the HDF5 checkpoint failed (out of memory?)", path);
  }
  free(values);
  sqz_atomic_file af = {0};
  if (st == SQZ_OK) st = sqz__atomic_open(ctx, path, &af);
  if (st == SQZ_OK) st = sqz__atomic_write(ctx, &af, image, len);
  free(image);
  if (st != SQZ_OK) {
    sqz__atomic_abort(&af);
    return st;
  }
  return sqz__atomic_commit(ctx, &af);
}

int sqz_field_load_h5(sqz_field *f, const char *path, char *workload, size_t workload_len, uint64_t *step) {
  if (!f || !path) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_load_h5: NULL argument");
  sqz_context *ctx = f->ctx;
  FILE *probe = fopen(path, "rb");
  if (!probe) return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot open", path);
  fclose(probe);
  sqz_h5_quiet q;
  sqz__h5_quiet(&q);
  int st = SQZ_OK;
  char dom[320] = "", type[16] = "";
  void *values = NULL;
  sqz_compact_io io = {0};
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), ds = -1, space = -1;
  hsize_t dims[1] = {0};
  if (file < 0 || (ds = H5Dopen2(file, "state", H5P_DEFAULT)) < 0) {
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: not an sqz HDF5 checkpoint (no dataset 'state')", path);
    goto done;
  }
  space = H5Dget_space(ds);
  if (space < 0 || H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, dims, NULL) != 1) {
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state' is not one-dimensional", path);
    goto done;
  }
  int has_dom = sqz__h5_get_str(ds, "domain", dom, sizeof dom);
  int has_type = sqz__h5_get_str(ds, "cell_type", type, sizeof type);
  if (has_dom < 0 || has_type < 0) {
    st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: no host memory to read the attributes", path);
    goto done;
  }
  if (!has_dom || !has_type) {
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: attribute 'domain' or 'cell_type' missing", path);
    goto done;
  }
  if (strcmp(dom, f->dom->spec) != 0) {
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s holds %s, but the field is on %s", path, dom, f->dom->spec);
    goto done;
  }
  if (strcmp(type, sqz__type_name(f->type)) != 0) {
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s holds %s cells, but the field holds %s cells", path, type,
                   sqz__type_name(f->type));
    goto done;
  }
  if (dims[0] != f->dom->cells) {
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s holds %llu values, but %s has %llu cells", path,
                   (unsigned long long)dims[0], dom, (unsigned long long)f->dom->cells);
    goto done;
  }
  uint64_t cells = dims[0], band = cells < SQZ_H5_CHUNK ? (cells ? cells : 1) : SQZ_H5_CHUNK;
  if ((st = sqz__host_alloc(ctx, band * sqz_type_size(f->type), 0, &values, "%s: a chunk of the compact state",
                            path)) != SQZ_OK ||
      (st = sqz__compact_open(f, SQZ_COMPACT_LOAD, path, &io)) != SQZ_OK)
    goto done;
  for (uint64_t c0 = 0; st == SQZ_OK && c0 < cells; c0 += band) { /* into the second buffer */
    uint64_t n = cells - c0 < band ? cells - c0 : band;
    if (!sqz__h5_band(ds, space, f->type, c0, n, values, 1))
      st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: reading the state failed (damaged data or checksum mismatch)", path);
    else st = sqz__compact_band(&io, c0, n, values);
    if (st == SQZ_OK) st = sqz__finish(ctx); /* values is reused by the next band */
  }
  int has_work = st == SQZ_OK && workload && workload_len ? sqz__h5_get_str(ds, "workload", workload, workload_len) : 1;
  if (has_work < 0)
    st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: no host memory to read the attribute 'workload'", path);
  if (st == SQZ_OK) st = sqz__compact_commit(&io); /* the whole file was good: its state becomes current */
  if (st == SQZ_OK && !has_work) workload[0] = 0;
  if (st == SQZ_OK && step && !sqz__h5_get_u64(ds, "step", step)) *step = 0;
done:
  sqz__compact_close(&io);
  if (space >= 0) H5Sclose(space);
  if (ds >= 0) H5Dclose(ds);
  if (file >= 0) H5Fclose(file);
  sqz__h5_loud(&q);
  free(values);
  return st;
}
#else
int sqz_field_save_h5(sqz_field *f, const char *path, const char *workload, uint64_t step) {
  (void)path, (void)workload, (void)step;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no HDF5: checkpoints are unavailable");
}
int sqz_field_load_h5(sqz_field *f, const char *path, char *workload, size_t workload_len, uint64_t *step) {
  (void)path, (void)workload, (void)workload_len, (void)step;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no HDF5: checkpoints are unavailable");
}
#endif
