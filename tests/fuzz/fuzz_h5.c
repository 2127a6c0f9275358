/* fuzz_h5.c — HDF5 checkpoints as `--init FILE.h5` reads them (sqz_field_load_h5): the input builds, in memory
 * (HDF5's core driver), a checkpoint whose attributes (domain, cell_type, workload, step: present or not, string,
 * variable-length string or integer), dataset shape, type and values it chooses, for one of four fields (cpu
 * backend). Only sqz's reading of what HDF5 hands it is fuzzed, not HDF5's own file parser. A checkpoint is loaded
 * or refused with a message; a refused one leaves the field as it was; one that matches the field (domain, type,
 * one dimension of |D| values) loads, and gives back exactly its values, workload and step. */
#include <hdf5.h>

#include "fuzz_util.h"
#include "sqz.h"

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
 * link does not resolve), in TMPDIR, rewritten for each input and removed at exit. */
static char h5_path[4096];
static void h5_remove(void) { unlink(h5_path); }
static const char *h5_file(const void *image, size_t len) {
  static int fd = -1;
  if (fd < 0) {
    const char *dir = getenv("TMPDIR");
    snprintf(h5_path, sizeof h5_path, "%s/sqz_fuzz_h5.XXXXXX", dir && *dir ? dir : "/tmp");
    if ((fd = mkstemp(h5_path)) < 0) {
      perror("fuzz_h5: mkstemp");
      abort();
    }
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

static void put_attr(hid_t obj, const char *name, int how, const char *text, uint64_t number) {
  if (how == ABSENT) return;
  hid_t sp = H5Screate(H5S_SCALAR), t = how == INTEGER ? H5Tcopy(H5T_STD_U64LE) : H5Tcopy(H5T_C_S1), a = -1;
  if (how == FIXED) H5Tset_size(t, strlen(text) + 1);
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

/* The next '\n'-terminated piece of the input as a C string (at most cap - 1 bytes kept). */
static void piece(const uint8_t **p, const uint8_t *end, char *out, size_t cap) {
  const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
  size_t n = (size_t)((nl ? nl : end) - *p);
  size_t keep = n < cap - 1 ? n : cap - 1;
  memcpy(out, *p, keep);
  out[keep] = 0; /* a NUL inside ends the string earlier, as in a C argument */
  *p = nl ? nl + 1 : end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  int which = data[0] % FIELDS, dtype = (data[0] >> 2) % FIELDS, two_d = (data[0] >> 4) & 1;
  int how_dom = (data[1] >> 0) & 3, how_type = (data[1] >> 2) & 3, how_work = (data[1] >> 4) & 3,
      how_step = (data[1] >> 6) & 3;
  int delta = (int)(data[2] & 7) - 3; /* values in the dataset: |D| - 3 .. |D| + 4 */
  sqz_field *f = fields[which];
  const uint8_t *p = data + 3, *end = data + size;
  char dom[400], type[64], work[400], step_text[32];
  piece(&p, end, dom, sizeof dom);
  piece(&p, end, type, sizeof type);
  piece(&p, end, work, sizeof work);
  piece(&p, end, step_text, sizeof step_text);
  uint64_t step = strtoull(step_text, NULL, 10);
  /* the shorthand "=" names the field's own domain or type, so matching checkpoints are common */
  if (strcmp(dom, "=") == 0) snprintf(dom, sizeof dom, "%s", specs[which]);
  if (strcmp(type, "=") == 0) snprintf(type, sizeof type, "%s", type_names[which]);

  uint64_t cells = sqz_domain_cells(sqz_field_domain(f));
  int64_t count = (int64_t)cells + delta;
  if (count < 0) count = 0;
  size_t esize = H5Tget_size(mem_types[dtype]), fsize = H5Tget_size(mem_types[which]);
  unsigned char values[32 * 8], before[32 * 8], after[32 * 8]; /* |D| <= 21, 8-byte values */
  for (size_t i = 0; i < (size_t)count * esize; i++) values[i] = p < end ? p[i % (size_t)(end - p)] : 0;

  /* the checkpoint, in memory */
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_core(fapl, 4096, 0);
  hid_t file = H5Fcreate("fuzz.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  hsize_t dims[2] = {two_d ? 1 : (hsize_t)count, (hsize_t)count};
  hid_t space = H5Screate_simple(two_d ? 2 : 1, dims, NULL);
  hid_t ds = file >= 0 && space >= 0
                ? H5Dcreate2(file, "state", file_types[dtype], space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                : -1;
  if (file < 0 || space < 0 || ds < 0) abort(); /* HDF5 makes any such file */
  if (count) H5Dwrite(ds, mem_types[dtype], H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  put_attr(ds, "domain", how_dom, dom, 7);
  put_attr(ds, "cell_type", how_type, type, 7);
  put_attr(ds, "workload", how_work, work, 7);
  put_attr(ds, "step", how_step == VARLEN ? INTEGER : how_step, step_text, step); /* integers, and strings too */
  H5Dclose(ds);
  H5Sclose(space);
  H5Fflush(file, H5F_SCOPE_GLOBAL);
  ssize_t len = H5Fget_file_image(file, NULL, 0);
  unsigned char *image = len > 0 ? malloc((size_t)len) : NULL;
  if (!image || H5Fget_file_image(file, image, (size_t)len) != len) abort();
  H5Fclose(file);
  H5Pclose(fapl);
  const char *path = h5_file(image, (size_t)len);
  free(image);

  /* load it */
  SQZ_FUZZ_CHECK(sqz_field_read_compact(f, before, cells) == SQZ_OK);
  char got_work[32];
  memset(got_work, 'x', sizeof got_work);
  uint64_t got_step = 12345;
  int st = sqz_field_load_h5(f, path, got_work, sizeof got_work, &got_step);
  SQZ_FUZZ_CHECK(sqz_field_read_compact(f, after, cells) == SQZ_OK);
  int matches = how_dom == FIXED && strcmp(dom, specs[which]) == 0 && how_type == FIXED &&
                strcmp(type, type_names[which]) == 0 && !two_d && (uint64_t)count == cells;
  if (st != SQZ_OK) {
    SQZ_FUZZ_CHECK(st == SQZ_ERR_PARSE);
    SQZ_FUZZ_CHECK(*sqz_last_error(ctx) != 0);
    SQZ_FUZZ_CHECK(memcmp(before, after, cells * fsize) == 0); /* a refused checkpoint changes nothing */
    if (matches && dtype == which) dprintf(sqz_fuzz_report_fd, "refused: %s\n", sqz_last_error(ctx));
    SQZ_FUZZ_CHECK(!(matches && dtype == which));
    return 0;
  }
  SQZ_FUZZ_CHECK(matches); /* only a checkpoint of this domain and type loads (HDF5 may convert the values) */
  SQZ_FUZZ_CHECK(memchr(got_work, 0, sizeof got_work) != NULL);
  if (how_work == FIXED) SQZ_FUZZ_CHECK(strncmp(got_work, work, sizeof got_work - 1) == 0);
  else SQZ_FUZZ_CHECK(got_work[0] == 0);
  SQZ_FUZZ_CHECK(got_step == (how_step == INTEGER || how_step == VARLEN ? step : 0)); /* a string is no step */
  if (dtype == which) SQZ_FUZZ_CHECK(memcmp(after, values, cells * fsize) == 0); /* bit for bit */
  return 0;
}
