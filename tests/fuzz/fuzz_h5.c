/* fuzz_h5.c — HDF5 checkpoints as `--init FILE.h5` reads them (sqz_field_load_h5): the input builds, in memory
 * (HDF5's core driver), a checkpoint whose attributes (domain, cell_type, workload, step: present or not, string
 * (NUL-terminated, or h5py's np.bytes_ without a NUL), variable-length string or integer), dataset shape, type
 * (the field's in either byte order, another one, a wider or a signed byte), storage (contiguous, chunked with
 * sqz's filters, compact, external storage, the nbit filter, a soft link, an external link, a virtual dataset)
 * and values it chooses, for one of four fields (cpu backend). Only sqz's reading of what HDF5 hands it is
 * fuzzed, not HDF5's own file parser. A checkpoint is loaded or refused with a message; a refused one leaves the
 * field as it was; one that matches the field (domain, type exactly, one dimension of |D| values, stored in the
 * file itself) loads, and gives back exactly its values, workload and step; no other loads.
 * Input: byte 0 = field (bits 0-1), dataset type (2-3), 2D (4), fixed strings without a NUL (5); byte 1 = how
 * domain, cell_type, workload, step are stored (2 bits each); byte 2 = count delta (bits 0-2), storage (3-5),
 * type variant (6-7); then the domain, cell_type, workload and step lines, then the values. */
#include <hdf5.h>

#include "fuzz_util.h"
#include "sqz.h"
#include "sqz_hdf5.h"

#define FIELDS 4
static sqz_context *ctx;
static sqz_field *fields[FIELDS];
static const char *const specs[FIELDS] = {"triangle:6", "tetrahedron:3", "fractal:sierpinski-carpet:1", "triangle:4"};
static const sqz_type types[FIELDS] = {SQZ_U8, SQZ_F64, SQZ_I32, SQZ_F32};
static const char *const type_names[FIELDS] = {"u8", "f64", "i32", "f32"};
static hid_t file_types[FIELDS], mem_types[FIELDS];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  if (sqz_context_create("cpu", NULL, &ctx) != SQZ_OK) abort();
  for (int i = 0; i < FIELDS; i++) {
    sqz_domain *d = NULL;
    if (sqz_domain_parse(ctx, specs[i], &d) != SQZ_OK || sqz_field_create(d, types[i], "compact", &fields[i]) != SQZ_OK)
      abort();
    sqz_domain_release(d);
  }
  hid_t ft[FIELDS] = {H5T_STD_U8LE, H5T_IEEE_F64LE, H5T_STD_I32LE, H5T_IEEE_F32LE};
  hid_t mt[FIELDS] = {H5T_NATIVE_UINT8, H5T_NATIVE_DOUBLE, H5T_NATIVE_INT32, H5T_NATIVE_FLOAT};
  memcpy(file_types, ft, sizeof ft);
  memcpy(mem_types, mt, sizeof mt);
  return 0;
}

/* The checkpoint as a file: a real one (HDF5 resolves the name, and a memory file's /proc/self/fd/N
 * link does not resolve), in TMPDIR, rewritten for each input and removed at exit; beside it the secret, a
 * file of 256 'A's that external storage points at (a loader that followed it would load 0x41 bytes). */
static char h5_path[4096], secret_path[4096];
static void h5_remove(void) {
  unlink(h5_path);
  unlink(secret_path);
}
static int temp_file(char *path, size_t cap, const char *name) {
  const char *dir = getenv("TMPDIR");
  snprintf(path, cap, "%s/%s.XXXXXX", dir && *dir ? dir : "/tmp", name);
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("fuzz_h5: mkstemp");
    abort();
  }
  return fd;
}
static const char *h5_file(const void *image, size_t len) {
  static int fd = -1;
  if (fd < 0) {
    fd = temp_file(h5_path, sizeof h5_path, "sqz_fuzz_h5");
    int s = temp_file(secret_path, sizeof secret_path, "sqz_fuzz_h5_secret");
    char a[256];
    memset(a, 'A', sizeof a);
    if (write(s, a, sizeof a) != (ssize_t)sizeof a) abort();
    close(s);
    atexit(h5_remove);
  }
  if (ftruncate(fd, 0) != 0 || pwrite(fd, image, len, 0) != (ssize_t)len) {
    perror("fuzz_h5: writing the checkpoint");
    abort();
  }
  return h5_path;
}

/* How an attribute is stored: absent, a fixed-length string, a variable-length string, a 64-bit integer. */
enum { ABSENT, FIXED, VARLEN, INTEGER };

static void put_attr(hid_t obj, const char *name, int how, const char *text, uint64_t number, int nullpad) {
  if (how == ABSENT) return;
  hid_t sp = H5Screate(H5S_SCALAR), t = how == INTEGER ? H5Tcopy(H5T_STD_U64LE) : H5Tcopy(H5T_C_S1), a = -1;
  size_t len = strlen(text);
  if (how == FIXED && nullpad) H5Tset_strpad(t, H5T_STR_NULLPAD); /* h5py's np.bytes_: exactly the characters */
  if (how == FIXED) H5Tset_size(t, nullpad ? (len ? len : 1) : len + 1);
  if (how == VARLEN) H5Tset_size(t, H5T_VARIABLE);
  if ((a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0) {
    if (how == INTEGER) H5Awrite(a, H5T_NATIVE_UINT64, &number);
    else if (how == VARLEN) H5Awrite(a, t, &text);
    else H5Awrite(a, t, text);
    H5Aclose(a);
  }
  H5Tclose(t);
  H5Sclose(sp);
}

/* How the dataset is stored; only the first three keep its values in the file itself, as the loader requires. */
enum { CONTIGUOUS, CHUNKED, COMPACT, EXTERNAL, NBIT, SOFT_LINK, EXTERNAL_LINK, VIRTUAL };

static hid_t storage_dcpl(int storage, int rank, const hsize_t *dims, size_t bytes) {
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  hsize_t chunk[2] = {1, dims[rank - 1] ? dims[rank - 1] : 1};
  if (rank == 1) chunk[0] = chunk[1];
  if (storage == CHUNKED || storage == NBIT) H5Pset_chunk(dcpl, rank, chunk);
  if (storage == CHUNKED) {
    H5Pset_shuffle(dcpl);
    H5Pset_deflate(dcpl, 1);
    H5Pset_fletcher32(dcpl);
  }
  if (storage == NBIT) H5Pset_nbit(dcpl);
  if (storage == COMPACT) H5Pset_layout(dcpl, H5D_COMPACT);
  if (storage == EXTERNAL) H5Pset_external(dcpl, secret_path, 0, bytes ? bytes : 1);
  return dcpl;
}

/* The dataset the name 'state' leads to, in file: itself, or 'hidden' behind a soft or external link (to this
 * very file, path), or a virtual dataset over 'hidden'. *values: where the values go, *attrs: where the attributes
 * go (the same, but for the virtual dataset). Aborts where HDF5 refuses to make it. */
static void make_state(hid_t file, const char *path, int storage, hid_t ftype, int rank, const hsize_t *dims,
                       size_t bytes, hid_t *values, hid_t *attrs) {
  hsize_t maxdims[2] = {H5S_UNLIMITED, H5S_UNLIMITED}; /* a chunk may exceed a dimension of 0 */
  int chunked = storage == CHUNKED || storage == NBIT, behind = storage >= SOFT_LINK;
  hid_t space = H5Screate_simple(rank, dims, chunked ? maxdims : NULL);
  hid_t dcpl = storage_dcpl(behind ? CONTIGUOUS : storage, rank, dims, bytes);
  *values = *attrs = H5Dcreate2(file, behind ? "hidden" : "state", ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (*values < 0) abort();
  if (storage == SOFT_LINK && H5Lcreate_soft("/hidden", file, "state", H5P_DEFAULT, H5P_DEFAULT) < 0) abort();
  if (storage == EXTERNAL_LINK && H5Lcreate_external(path, "/hidden", file, "state", H5P_DEFAULT, H5P_DEFAULT) < 0)
    abort();
  if (storage == VIRTUAL) { /* 'state' maps all of 'hidden' of this file (".") */
    hid_t v = H5Pcreate(H5P_DATASET_CREATE);
    if (H5Pset_virtual(v, space, ".", "/hidden", space) < 0 ||
        (*attrs = H5Dcreate2(file, "state", ftype, space, H5P_DEFAULT, v, H5P_DEFAULT)) < 0)
      abort();
    H5Pclose(v);
  }
  H5Pclose(dcpl);
  H5Sclose(space);
}

/* The dataset's file type: the chosen type (variant 0), big-endian (1), a 64-bit integer (2), a signed byte (3);
 * *mem: the memory type of its values. Only variants 0 and 1 of the field's own type load. */
static hid_t file_type(int dtype, int variant, hid_t *mem) {
  *mem = variant == 2 ? H5T_NATIVE_INT64 : variant == 3 ? H5T_NATIVE_INT8 : mem_types[dtype];
  hid_t t = H5Tcopy(variant == 2 ? H5T_STD_I64LE : variant == 3 ? H5T_STD_I8LE : file_types[dtype]);
  if (variant == 1) H5Tset_order(t, H5T_ORDER_BE);
  return t;
}

/* The next '\n'-terminated piece of the input as a C string (at most cap - 1 bytes kept). */
static void piece(const uint8_t **p, const uint8_t *end, char *out, size_t cap) {
  const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
  size_t n = (size_t)((nl ? nl : end) - *p);
  size_t keep = n < cap - 1 ? n : cap - 1;
  memcpy(out, *p, keep);
  out[keep] = 0; /* a NUL inside ends the string earlier, as in a C argument */
  *p = nl ? nl + 1 : end;
}

/* What an input chooses (see the top of the file). */
typedef struct {
  int which, dtype, two_d, nullpad, how_dom, how_type, how_work, how_step, storage, variant;
  int64_t count; /* values in the dataset: |D| - 3 .. |D| + 4, at least 0 */
  char dom[400], type[64], work[400], step_text[32];
  uint64_t step;
  const uint8_t *rest, *end; /* the bytes the values are made of */
} choice;

static void choose(const uint8_t *data, size_t size, choice *c) {
  c->which = data[0] % FIELDS, c->dtype = (data[0] >> 2) % FIELDS, c->two_d = (data[0] >> 4) & 1;
  c->nullpad = (data[0] >> 5) & 1;
  c->how_dom = data[1] & 3, c->how_type = (data[1] >> 2) & 3, c->how_work = (data[1] >> 4) & 3;
  c->how_step = (data[1] >> 6) & 3;
  c->storage = (data[2] >> 3) & 7, c->variant = (data[2] >> 6) & 3;
  c->count = (int64_t)sqz_domain_cells(sqz_field_domain(fields[c->which])) + (int)(data[2] & 7) - 3;
  if (c->count < 0) c->count = 0;
  c->rest = data + 3, c->end = data + size;
  piece(&c->rest, c->end, c->dom, sizeof c->dom);
  piece(&c->rest, c->end, c->type, sizeof c->type);
  piece(&c->rest, c->end, c->work, sizeof c->work);
  piece(&c->rest, c->end, c->step_text, sizeof c->step_text);
  c->step = strtoull(c->step_text, NULL, 10);
  /* the shorthand "=" names the field's own domain or type, so matching checkpoints are common */
  if (strcmp(c->dom, "=") == 0) snprintf(c->dom, sizeof c->dom, "%s", specs[c->which]);
  if (strcmp(c->type, "=") == 0) snprintf(c->type, sizeof c->type, "%s", type_names[c->which]);
}

/* The checkpoint c chooses with these values, built in memory (HDF5's core driver), written to path. */
static void write_checkpoint(const choice *c, const char *path, const void *values) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), mem = -1, ftype = file_type(c->dtype, c->variant, &mem), ds = -1, obj = -1;
  H5Pset_fapl_core(fapl, 4096, 0);
  hid_t file = H5Fcreate("fuzz.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  hsize_t dims[2] = {c->two_d ? 1 : (hsize_t)c->count, (hsize_t)c->count};
  if (file < 0) abort(); /* HDF5 makes any such file */
  make_state(file, path, c->storage, ftype, c->two_d ? 2 : 1, dims, (size_t)c->count * H5Tget_size(ftype), &ds, &obj);
  if (c->count && c->storage != EXTERNAL) H5Dwrite(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  put_attr(obj, "domain", c->how_dom, c->dom, 7, c->nullpad);
  put_attr(obj, "cell_type", c->how_type, c->type, 7, c->nullpad);
  put_attr(obj, "workload", c->how_work, c->work, 7, c->nullpad);
  /* integers, and strings too */
  put_attr(obj, "step", c->how_step == VARLEN ? INTEGER : c->how_step, c->step_text, c->step, c->nullpad);
  if (obj != ds) H5Dclose(obj);
  H5Dclose(ds);
  H5Tclose(ftype);
  H5Fflush(file, H5F_SCOPE_GLOBAL);
  ssize_t len = H5Fget_file_image(file, NULL, 0);
  unsigned char *image = len > 0 ? malloc((size_t)len) : NULL;
  if (!image || H5Fget_file_image(file, image, (size_t)len) != len) abort();
  H5Fclose(file);
  H5Pclose(fapl);
  h5_file(image, (size_t)len);
  free(image);
}

/* Only a checkpoint of the field's domain and exact type (either byte order), one dimension of |D| values stored
 * in the file itself, its domain and cell_type fixed or variable-length strings, its step absent or an integer (a
 * string is refused, not read as 0), loads. */
static int loads(const choice *c) {
  int strings = (c->how_dom == FIXED || c->how_dom == VARLEN) && (c->how_type == FIXED || c->how_type == VARLEN);
  return strings && c->how_step != FIXED && strcmp(c->dom, specs[c->which]) == 0 && strcmp(c->type, type_names[c->which]) == 0 &&
         !c->two_d && (uint64_t)c->count == sqz_domain_cells(sqz_field_domain(fields[c->which])) &&
         c->dtype == c->which && c->variant <= 1 && c->storage <= COMPACT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  choice c;
  choose(data, size, &c);
  sqz_field *f = fields[c.which];
  uint64_t cells = sqz_domain_cells(sqz_field_domain(f));
  hid_t mem = -1;
  H5Tclose(file_type(c.dtype, c.variant, &mem));
  size_t esize = H5Tget_size(mem), fsize = H5Tget_size(mem_types[c.which]);
  unsigned char values[32 * 8], before[32 * 8], after[32 * 8]; /* |D| <= 21, 8-byte values */
  for (size_t i = 0; i < (size_t)c.count * esize; i++) values[i] = c.rest < c.end ? c.rest[i % (size_t)(c.end - c.rest)] : 0;
  const char *path = h5_file(NULL, 0);
  write_checkpoint(&c, path, values);

  SQZ_FUZZ_CHECK(sqz_field_read_compact(f, before, cells) == SQZ_OK);
  char got_work[32];
  memset(got_work, 'x', sizeof got_work);
  uint64_t got_step = 12345;
  int st = sqz_field_load_h5(f, path, got_work, sizeof got_work, &got_step), matches = loads(&c);
  SQZ_FUZZ_CHECK(sqz_field_read_compact(f, after, cells) == SQZ_OK);
  if (st != SQZ_OK) {
    SQZ_FUZZ_CHECK(st == SQZ_ERR_PARSE);
    SQZ_FUZZ_CHECK(*sqz_last_error(ctx) != 0);
    SQZ_FUZZ_CHECK(memcmp(before, after, cells * fsize) == 0); /* a refused checkpoint changes nothing */
    if (matches) dprintf(sqz_fuzz_report_fd, "refused: %s\n", sqz_last_error(ctx));
    SQZ_FUZZ_CHECK(!matches);
    return 0;
  }
  SQZ_FUZZ_CHECK(matches); /* only a checkpoint of this domain and exact type, in the file itself, loads */
  SQZ_FUZZ_CHECK(memchr(got_work, 0, sizeof got_work) != NULL);
  if (c.how_work == FIXED || c.how_work == VARLEN) SQZ_FUZZ_CHECK(strncmp(got_work, c.work, sizeof got_work - 1) == 0);
  else SQZ_FUZZ_CHECK(got_work[0] == 0);
  SQZ_FUZZ_CHECK(got_step == (c.how_step == INTEGER || c.how_step == VARLEN ? c.step : 0)); /* absent: 0 */
  SQZ_FUZZ_CHECK(memcmp(after, values, cells * fsize) == 0); /* bit for bit */
  return 0;
}
