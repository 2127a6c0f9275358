/* hdf5.c — checkpoints in HDF5: the compact state (chunked, compressed, checksummed) with its domain, type, workload, step and version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"
#include "io/atomic_file.h"
#include "sqz_hdf5.h"

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
/* The attribute name of obj, open, when it exists and holds a single element (a scalar or one value); else -1. */
static hid_t sqz__h5_attr_one(hid_t obj, const char *name) {
  if (H5Aexists(obj, name) <= 0) return -1;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT), sp = a >= 0 ? H5Aget_space(a) : -1;
  int one = sp >= 0 && H5Sget_simple_extent_npoints(sp) == 1;
  if (sp >= 0) H5Sclose(sp);
  if (!one && a >= 0) H5Aclose(a);
  return one ? a : -1;
}
/* A variable-length string attribute (h5py's str) into buf: 1 read, 0 not. */
static int sqz__h5_get_varstr(hid_t a, hid_t t, char *buf, size_t len) {
  hid_t m = H5Tcopy(H5T_C_S1);
  char *text = NULL;
  int ok = m >= 0 && H5Tset_size(m, H5T_VARIABLE) >= 0 && H5Tset_cset(m, H5Tget_cset(t)) >= 0 &&
           H5Aread(a, m, &text) >= 0 && text;
  if (ok) snprintf(buf, len, "%s", text);
  if (text) H5free_memory(text);
  if (m >= 0) H5Tclose(m);
  return ok;
}
/* A fixed-length string attribute into buf: all of its n bytes (h5py's np.bytes_ stores no NUL), read
 * null-padded and terminated here. 1 read, 0 not, -1 no host memory. */
static int sqz__h5_get_fixstr(hid_t a, hid_t t, char *buf, size_t len) {
  size_t n = H5Tget_size(t);
  char *tmp = n ? sqz__calloc(n + 1, 1) : NULL;
  if (!tmp) return n ? -1 : 0;
  hid_t m = H5Tcopy(H5T_C_S1);
  int ok = m >= 0 && H5Tset_size(m, n) >= 0 && H5Tset_strpad(m, H5T_STR_NULLPAD) >= 0 &&
           H5Tset_cset(m, H5Tget_cset(t)) >= 0 && H5Aread(a, m, tmp) >= 0;
  if (ok) snprintf(buf, len, "%s", tmp);
  if (m >= 0) H5Tclose(m);
  free(tmp);
  return ok;
}
/* A string attribute, fixed-length or variable-length, into buf (len bytes, truncated, always
 * terminated): 1, or 0 when absent, not a single string, or unreadable, or -1 when the host memory to
 * read it was refused. */
static int sqz__h5_get_str(hid_t obj, const char *name, char *buf, size_t len) {
  hid_t a = sqz__h5_attr_one(obj, name), t = a >= 0 ? H5Aget_type(a) : -1;
  int ok = 0;
  if (t >= 0 && H5Tget_class(t) == H5T_STRING)
    ok = H5Tis_variable_str(t) > 0 ? sqz__h5_get_varstr(a, t, buf, len) : sqz__h5_get_fixstr(a, t, buf, len);
  if (t >= 0) H5Tclose(t);
  if (a >= 0) H5Aclose(a);
  return ok;
}
/* The attribute 'step' of ds, exactly: an integer of at most 64 bits, not negative (HDF5 would clamp -1 to 0 and a
 * float or a larger integer to the nearest uint64, silently); absent, 0 (a checkpoint of an older sqz). SQZ_OK,
 * else SQZ_ERR_PARSE naming what the attribute holds. */
static int sqz__h5_step(sqz_context *ctx, const char *path, hid_t ds, uint64_t *step) {
  *step = 0;
  if (H5Aexists(ds, "step") <= 0) return SQZ_OK;
  hid_t a = sqz__h5_attr_one(ds, "step"), t = a >= 0 ? H5Aget_type(a) : -1;
  int integer = t >= 0 && H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) <= 8, sign = t >= 0 ? H5Tget_sign(t) : 0;
  int64_t v = 0;
  int ok = integer && (sign == H5T_SGN_2 ? H5Aread(a, H5T_NATIVE_INT64, &v) >= 0 && v >= 0
                                         : H5Aread(a, H5T_NATIVE_UINT64, step) >= 0);
  if (ok && sign == H5T_SGN_2) *step = (uint64_t)v;
  if (t >= 0) H5Tclose(t);
  if (a >= 0) H5Aclose(a);
  if (ok) return SQZ_OK;
  *step = 0;
  if (integer && v < 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: attribute 'step' of dataset 'state' is %lld: a step count is not "
                                         "negative", path, (long long)v);
  return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: attribute 'step' of dataset 'state' is not one integer of at most 64 bits "
                                       "(a step count; refused, not converted)", path);
}

/* The dataset 'state' of file, opened into *ds, when it is a dataset object of the file itself: the name a
 * hard link (an external link would read another file, a soft link another object), else SQZ_ERR_PARSE. */
static int sqz__h5_open_state(sqz_context *ctx, const char *path, hid_t file, hid_t *ds) {
  H5L_info_t li;
  if (H5Lexists(file, "state", H5P_DEFAULT) <= 0 || H5Lget_info(file, "state", &li, H5P_DEFAULT) < 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: not an sqz HDF5 checkpoint (no dataset 'state')", path);
  if (li.type != H5L_TYPE_HARD)
    return sqz__fail(ctx, SQZ_ERR_PARSE,
                     "%s: dataset 'state' is reached through %s link: refused (a checkpoint's state must be a "
                     "dataset of the file itself)",
                     path, li.type == H5L_TYPE_SOFT ? "a soft" : li.type == H5L_TYPE_EXTERNAL ? "an external" : "a user-defined");
  if ((*ds = H5Dopen2(file, "state", H5P_DEFAULT)) < 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: not an sqz HDF5 checkpoint ('state' is not a dataset)", path);
  return SQZ_OK;
}

/* The filters of dcpl are among those sqz writes (shuffle, deflate, fletcher32): others could need a plugin
 * loaded from disk or change the values. SQZ_OK, else SQZ_ERR_PARSE naming the filter. */
static int sqz__h5_filters(sqz_context *ctx, const char *path, hid_t dcpl) {
  int n = H5Pget_nfilters(dcpl);
  if (n < 0) return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state': its filters cannot be read", path);
  for (int i = 0; i < n; i++) {
    unsigned flags = 0, config = 0;
    size_t nv = 0;
    char name[64] = "";
    H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nv, NULL, sizeof name, name, &config);
    if (id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_FLETCHER32)
      return sqz__fail(ctx, SQZ_ERR_PARSE,
                       "%s: dataset 'state' uses HDF5 filter %d (%s), not one sqz writes (shuffle, deflate, "
                       "fletcher32): refused",
                       path, (int)id, name[0] ? name : "unnamed");
  }
  return SQZ_OK;
}

/* The values of ds lie in the file itself: contiguous, chunked or compact storage, no external storage
 * (H5Pset_external), no virtual dataset (both read other files), only sqz's filters. Else SQZ_ERR_PARSE. */
static int sqz__h5_storage(sqz_context *ctx, const char *path, hid_t ds) {
  hid_t dcpl = H5Dget_create_plist(ds);
  H5D_layout_t lay = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
  int ext = dcpl >= 0 ? H5Pget_external_count(dcpl) : -1, st = SQZ_OK;
  if (lay == H5D_VIRTUAL)
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state' is a virtual dataset (its values would come from "
                                       "other files): refused", path);
  else if (ext != 0)
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state' has external storage (its values would be read from "
                                       "other files): refused", path);
  else if (lay != H5D_CONTIGUOUS && lay != H5D_CHUNKED && lay != H5D_COMPACT)
    st = sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state' has a storage layout sqz does not read (%d)", path,
                   (int)lay);
  else st = sqz__h5_filters(ctx, path, dcpl);
  if (dcpl >= 0) H5Pclose(dcpl);
  return st;
}

/* What the values of HDF5 type t are, in words ("8-byte signed integers"). */
static void sqz__h5_type_text(hid_t t, char *buf, size_t len) {
  H5T_class_t c = H5Tget_class(t);
  size_t n = H5Tget_size(t);
  if (c == H5T_INTEGER)
    snprintf(buf, len, "%zu-byte %s integers", n, H5Tget_sign(t) == H5T_SGN_NONE ? "unsigned" : "signed");
  else if (c == H5T_FLOAT) snprintf(buf, len, "%zu-byte floats", n);
  else if (c == H5T_STRING) snprintf(buf, len, "strings");
  else snprintf(buf, len, "values of HDF5 class %d", (int)c);
}

/* The values of ds are of the field's cell type exactly (either byte order): HDF5 would convert any other
 * type, silently (2^40 to 2147483647, 0.7 to 0). Else SQZ_ERR_PARSE naming both types. */
static int sqz__h5_type(sqz_context *ctx, const char *path, hid_t ds, sqz_type type) {
  hid_t t = H5Dget_type(ds), big = H5Tcopy(sqz__h5_file_type(type));
  int same = t >= 0 && big >= 0 && H5Tset_order(big, H5T_ORDER_BE) >= 0 &&
             (H5Tequal(t, sqz__h5_file_type(type)) > 0 || H5Tequal(t, big) > 0);
  char have[64] = "unreadable values", want[64] = "";
  if (!same && t >= 0) sqz__h5_type_text(t, have, sizeof have);
  if (!same) sqz__h5_type_text(sqz__h5_file_type(type), want, sizeof want);
  if (big >= 0) H5Tclose(big);
  if (t >= 0) H5Tclose(t);
  if (same) return SQZ_OK;
  return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state' holds %s, but its cell_type is %s (%s): refused", path,
                   have, sqz__type_name(type), want);
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

/* The checkpoint's dataset ds fits field f: one dimension of |D| values, stored in the file itself, of the
 * field's domain and cell type (attributes and values). SQZ_OK, else SQZ_ERR_PARSE (or OUT_OF_MEMORY). */
static int sqz__h5_fits(sqz_field *f, const char *path, hid_t ds, hid_t space) {
  sqz_context *ctx = f->ctx;
  char dom[320] = "", type[16] = "";
  hsize_t dims[1] = {0};
  if (space < 0 || H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, dims, NULL) != 1)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: dataset 'state' is not one-dimensional", path);
  int st = sqz__h5_storage(ctx, path, ds);
  if (st != SQZ_OK) return st;
  int has_dom = sqz__h5_get_str(ds, "domain", dom, sizeof dom);
  int has_type = sqz__h5_get_str(ds, "cell_type", type, sizeof type);
  if (has_dom < 0 || has_type < 0)
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: no host memory to read the attributes", path);
  if (!has_dom || !has_type)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s: attribute 'domain' or 'cell_type' of dataset 'state' missing (or "
                                         "not a single string)", path);
  if (strcmp(dom, f->dom->spec) != 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s holds %s, but the field is on %s", path, dom, f->dom->spec);
  if (strcmp(type, sqz__type_name(f->type)) != 0)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s holds %s cells, but the field holds %s cells", path, type,
                     sqz__type_name(f->type));
  if (dims[0] != f->dom->cells)
    return sqz__fail(ctx, SQZ_ERR_PARSE, "%s holds %llu values, but %s has %llu cells", path,
                     (unsigned long long)dims[0], dom, (unsigned long long)f->dom->cells);
  return sqz__h5_type(ctx, path, ds, f->type);
}

/* Reads the values of ds chunk by chunk into the field's second buffer, then the workload and step, and
 * makes the state current only when all of it was good. */
static int sqz__h5_load_values(sqz_field *f, const char *path, hid_t ds, hid_t space, char *workload,
                               size_t workload_len, uint64_t *step) {
  sqz_context *ctx = f->ctx;
  uint64_t count = 0; /* the step count, checked before any value is read */
  int st0 = sqz__h5_step(ctx, path, ds, &count);
  if (st0 != SQZ_OK) return st0;
  uint64_t cells = f->dom->cells, band = cells < SQZ_H5_CHUNK ? (cells ? cells : 1) : SQZ_H5_CHUNK;
  void *values = NULL;
  sqz_compact_io io = {0};
  int st = sqz__host_alloc(ctx, band * sqz_type_size(f->type), 0, &values, "%s: a chunk of the compact state", path);
  if (st == SQZ_OK) st = sqz__compact_open(f, SQZ_COMPACT_LOAD, path, &io);
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
  if (st == SQZ_OK && step) *step = count;
  sqz__compact_close(&io);
  free(values);
  return st;
}

int sqz_field_load_h5(sqz_field *f, const char *path, char *workload, size_t workload_len, uint64_t *step) {
  if (!f || !path) return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_load_h5: NULL argument");
  sqz_context *ctx = f->ctx;
  FILE *probe = fopen(path, "rb");
  if (!probe) return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot open", path);
  fclose(probe);
  sqz_h5_quiet q;
  sqz__h5_quiet(&q);
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), ds = -1, space = -1;
  int st = file < 0 ? sqz__fail(ctx, SQZ_ERR_PARSE, "%s: not an sqz HDF5 checkpoint (no dataset 'state')", path)
                    : sqz__h5_open_state(ctx, path, file, &ds);
  if (st == SQZ_OK) space = H5Dget_space(ds);
  if (st == SQZ_OK) st = sqz__h5_fits(f, path, ds, space);
  if (st == SQZ_OK) st = sqz__h5_load_values(f, path, ds, space, workload, workload_len, step);
  if (space >= 0) H5Sclose(space);
  if (ds >= 0) H5Dclose(ds);
  if (file >= 0) H5Fclose(file);
  sqz__h5_loud(&q);
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
