/* test_npy.c — .npy state files on the cpu backend: round trips, refused inputs, atomic writes. */
/* labels: host */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/npy.h"
#include "sqz_test.h"

static const sqz_type all_types[4] = {SQZ_U8, SQZ_I32, SQZ_F32, SQZ_F64};

/* Each test runs with a cpu context and an empty folder of its own (a checked fixture: it runs in
 * the forked child, as contexts must). */
static sqz_context *ctx;
static char dir[64];

/* ---- files and folders ------------------------------------------------------------------- */

static int dir_entries(const char *folder) {
  DIR *d = opendir(folder);
  ck_assert_ptr_nonnull(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

/* dir/name in buf. */
static const char *in_dir(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "%s/%s", dir, name);
  return buf;
}

static void setup(void) {
  ctx = sqz_test_context("cpu");
  strcpy(dir, "/tmp/sqz_npy_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) {
  sqz_test_remove_tree(dir);
  sqz_context_release(ctx);
}

static unsigned char *read_all(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  ck_assert_msg(fp != NULL, "%s: %s", path, strerror(errno));
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)n + 1);
  ck_assert_uint_eq(fread(b, 1, (size_t)n, fp), (size_t)n);
  fclose(fp);
  *len = (size_t)n;
  return b;
}

/* ---- fields ------------------------------------------------------------------------------- */
/* A field owning nothing: drop() releases it and then its domain. */
static sqz_field *make_field(const char *spec, sqz_type t, const char *layout) {
  return sqz_test_field(ctx, spec, t, layout);
}

static void drop(sqz_field *f) { sqz_test_drop(f); }

static size_t embedded_bytes(const sqz_field *f) {
  uint64_t n = sqz_domain_side(f->dom), cells = sqz_domain_dims(f->dom) == 3 ? n * n * n : n * n;
  return (size_t)cells * sqz_type_size(f->type);
}

/* Distinct values on the domain cells (negative ones, NaN, inf and -0.0 among the floats), 0 elsewhere. */
static unsigned char *pattern(const sqz_field *f, size_t *bytes) {
  *bytes = embedded_bytes(f);
  size_t ts = sqz_type_size(f->type);
  unsigned char *a = calloc(*bytes, 1);
  uint64_t n = sqz_domain_side(f->dom), k = 0;
  for (uint64_t e = 0; e < *bytes / ts; e++) {
    if (!sqz_domain_contains(f->dom, e % n, (e / n) % n, e / (n * n))) continue;
    unsigned char *p = a + e * ts;
    k++;
    if (f->type == SQZ_U8) *p = (unsigned char)(k % 255 + 1);
    if (f->type == SQZ_I32) {
      int32_t v = (int32_t)(uint32_t)(k * 2654435761u);
      memcpy(p, &v, 4);
    }
    if (f->type == SQZ_F32) {
      float v = k == 1 ? NAN : k == 2 ? INFINITY : k == 3 ? -0.0f : (float)k * 0.75f - 11.5f;
      memcpy(p, &v, 4);
    }
    if (f->type == SQZ_F64) {
      double v = k == 1 ? -INFINITY : k == 2 ? NAN : (double)k * 1e-3 - 7.25;
      memcpy(p, &v, 8);
    }
  }
  return a;
}

static int little_endian_host(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* Every type on a triangle, a tetrahedron and two fractals, saved from one layout and loaded into
 * the other: the file is NumPy's layout of the embedded array and comes back bit for bit. */
START_TEST(round_trips) {
  static const char *const domains[] = {"triangle:9", "tetrahedron:6", "fractal:sierpinski-carpet:2",
                                        "fractal:sierpinski-triangle:3"};
  static const char *const layouts[2] = {"compact", "bb"};
  char path[128];
  in_dir(path, sizeof path, "state.npy");
  for (int di = 0; di < 4; di++)
    for (int li = 0; li < 2; li++)
      for (int ti = 0; ti < 4; ti++) {
        sqz_field *a = make_field(domains[di], all_types[ti], layouts[li]);
        sqz_field *b = make_field(domains[di], all_types[ti], layouts[1 - li]);
        size_t bytes, len;
        unsigned char *ref = pattern(a, &bytes), *back = calloc(bytes, 1);
        SQZ_OK_OR_FAIL(ctx, sqz_field_write(a, ref, bytes));
        SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(a, path));
        unsigned char *file = read_all(path, &len);
        sqz_npy_header h;
        char err[320];
        ck_assert_int_eq(sqz__npy_parse_header(file, len, &h, err, sizeof err), SQZ_OK);
        ck_assert_uint_eq(h.data_offset % 64, 0);
        ck_assert_uint_eq(len, h.data_offset + bytes);
        ck_assert_int_eq(h.type, all_types[ti]);
        ck_assert_int_eq(h.ndim, sqz_domain_dims(a->dom));
        for (int k = 0; k < h.ndim; k++) ck_assert_uint_eq(h.shape[k], sqz_domain_side(a->dom));
        if (little_endian_host()) ck_assert_int_eq(memcmp(file + h.data_offset, ref, bytes), 0);
        SQZ_OK_OR_FAIL(ctx, sqz_field_load_npy(b, path));
        SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, back, bytes));
        ck_assert_msg(memcmp(back, ref, bytes) == 0, "%s %s type %d differs after the round trip", domains[di],
                      layouts[li], (int)all_types[ti]);
        free(file);
        free(ref);
        free(back);
        drop(a);
        drop(b);
      }
}
END_TEST

/* Saves a field of (spec, type) holding the pattern to path. */
static void save_pattern(const char *spec, sqz_type t, const char *path) {
  sqz_field *f = make_field(spec, t, "compact");
  size_t bytes;
  unsigned char *ref = pattern(f, &bytes);
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, ref, bytes));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(f, path));
  free(ref);
  drop(f);
}

/* Loads path into a new (spec, type) field: expects the status and text in the detail. */
static void expect_load(const char *spec, sqz_type t, const char *path, int status, const char *text) {
  sqz_field *f = make_field(spec, t, "compact");
  int st = sqz_field_load_npy(f, path);
  const char *detail = sqz_last_error(ctx);
  ck_assert_msg(st == status, "%s into %s: %s, detail '%s'", path, spec, sqz_status_name(st), detail);
  ck_assert_msg(strstr(detail, text) != NULL, "%s into %s: detail '%s' lacks '%s'", path, spec, detail, text);
  drop(f);
}

START_TEST(refused_inputs) {
  char u8[128], f32[128], tet[128], tmp[128];
  in_dir(u8, sizeof u8, "u8.npy");
  in_dir(f32, sizeof f32, "f32.npy");
  in_dir(tet, sizeof tet, "tet.npy");
  in_dir(tmp, sizeof tmp, "edited.npy");
  save_pattern("triangle:5", SQZ_U8, u8);
  save_pattern("triangle:5", SQZ_F32, f32);
  save_pattern("tetrahedron:5", SQZ_I32, tet);
  /* dtype and shape mismatches name both sides */
  expect_load("triangle:5", SQZ_U8, f32, SQZ_ERR_PARSE,
              "f32.npy has dtype '<f4' (float32) but the field holds u8 cells");
  expect_load("triangle:5", SQZ_I32, f32, SQZ_ERR_PARSE, "'<f4' (float32) but the field holds i32 cells");
  expect_load("triangle:5", SQZ_F64, u8, SQZ_ERR_PARSE,
              "'|u1' (uint8) but the field holds f64 cells (dtype '<f8')");
  expect_load("triangle:6", SQZ_U8, u8, SQZ_ERR_PARSE, "has shape (5, 5) but triangle:6 needs (6, 6)");
  expect_load("triangle:5", SQZ_I32, tet, SQZ_ERR_PARSE, "has shape (5, 5, 5) but triangle:5 needs (5, 5)");
  expect_load("tetrahedron:5", SQZ_I32, tet, SQZ_OK, "");
  /* a full triangle:4 is not a Sierpinski triangle: (1, 2) is a hole */
  save_pattern("triangle:4", SQZ_U8, u8);
  expect_load("fractal:sierpinski-triangle:2", SQZ_U8, u8, SQZ_ERR_OUTSIDE_DOMAIN, "(1, 2) is set but is a hole");
  expect_load("fractal:sierpinski-triangle:2", SQZ_U8, u8, SQZ_ERR_OUTSIDE_DOMAIN, "u8.npy: ");
  /* truncated data, trailing bytes, cut header, empty file */
  size_t len;
  unsigned char *file = read_all(tet, &len);
  sqz_test_write(tmp, file, len - 1);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "truncated data: 499 of 500 bytes");
  unsigned char *longer = calloc(len + 3, 1);
  memcpy(longer, file, len);
  sqz_test_write(tmp, longer, len + 3);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "3 trailing bytes after the 500 data bytes");
  sqz_test_write(tmp, file, 40);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "truncated header: 30 of 118 header bytes");
  sqz_test_write(tmp, file, 0);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "not a NumPy .npy file");
  /* the same file edited: big-endian dtype, Fortran order, version 2.0 */
  char *lt = memchr(file, '<', 64);
  ck_assert_ptr_nonnull(lt);
  *lt = '>';
  sqz_test_write(tmp, file, len);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "big-endian dtype '>i4' (int32) is not supported");
  *lt = '<';
  char *fo = strstr((char *)file + SQZ_NPY_PREAMBLE, "False");
  ck_assert_ptr_nonnull(fo);
  memcpy(fo, "True ", 5);
  sqz_test_write(tmp, file, len);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "fortran_order True");
  memcpy(fo, "False", 5);
  file[6] = 2;
  sqz_test_write(tmp, file, len);
  expect_load("tetrahedron:5", SQZ_I32, tmp, SQZ_ERR_PARSE, "version 2.0 is not supported");
  /* what the system says when the file cannot be read */
  expect_load("tetrahedron:5", SQZ_I32, "/nonexistent/x.npy", SQZ_ERR_IO, "No such file or directory");
  expect_load("tetrahedron:5", SQZ_I32, dir, SQZ_ERR_IO, "Is a directory");
  free(longer);
  free(file);
}
END_TEST

/* Hand-made files with a non-zero value outside the domain name the cell. */
static void expect_outside(const char *spec, sqz_type t, uint64_t x, uint64_t y, uint64_t z,
                           const char *path, const char *text) {
  sqz_field *f = make_field(spec, t, "bb");
  size_t bytes = embedded_bytes(f), ts = sqz_type_size(t);
  uint64_t n = sqz_domain_side(f->dom), shape[3] = {n, n, n};
  unsigned char hdr[256], *data = calloc(bytes, 1);
  size_t hn = sqz__npy_format_header(t, sqz_domain_dims(f->dom), shape, hdr, sizeof hdr);
  data[((z * n + y) * n + x) * ts + ts - 1] = 0x3f; /* non-zero in any byte order */
  unsigned char *file = malloc(hn + bytes);
  memcpy(file, hdr, hn);
  memcpy(file + hn, data, bytes);
  sqz_test_write(path, file, hn + bytes);
  ck_assert_int_eq(sqz_field_load_npy(f, path), SQZ_ERR_OUTSIDE_DOMAIN);
  ck_assert_msg(strstr(sqz_last_error(ctx), text) && strstr(sqz_last_error(ctx), path), "detail: %s",
                sqz_last_error(ctx));
  free(file);
  free(data);
  drop(f);
}

START_TEST(outside_cells) {
  char path[128];
  in_dir(path, sizeof path, "outside.npy");
  expect_outside("triangle:5", SQZ_U8, 3, 1, 0, path, "cell (3, 1) is set but lies outside the domain");
  expect_outside("fractal:sierpinski-carpet:2", SQZ_F64, 4, 1, 0, path, "cell (4, 1) is set but is a hole");
  expect_outside("tetrahedron:4", SQZ_I32, 2, 2, 0, path, "cell (2, 2, 0) is set but lies outside");
  expect_outside("tetrahedron:4", SQZ_F32, 1, 0, 3, path, "cell (1, 0, 3) is set but lies outside");
}
END_TEST

/* Embedded arrays beyond 2^64 bytes or the address space are refused by size, before any
 * allocation or file access (fields that large cannot be created: a stand-in holds the domain). */
START_TEST(too_large) {
  static const struct {
    const char *spec;
    sqz_type t;
    const char *text;
  } cases[] = {
      {"tetrahedron:2097152", SQZ_F64, "the embedded array of 2097152^3 cells of 8 bytes exceeds 2^64"},
      {"triangle:2147483647", SQZ_I32, "the embedded array of 18446744056529682436 bytes exceeds the host's"},
  };
  for (int i = 0; i < 2; i++) {
    struct sqz_field stand_in = {.ctx = ctx, .type = cases[i].t};
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, cases[i].spec, &stand_in.dom));
    ck_assert_int_eq(sqz_field_save_npy(&stand_in, "/nonexistent/x.npy"), SQZ_ERR_TOO_LARGE);
    ck_assert_msg(strstr(sqz_last_error(ctx), cases[i].text), "detail: %s", sqz_last_error(ctx));
    ck_assert_int_eq(sqz_field_load_npy(&stand_in, "/nonexistent/x.npy"), SQZ_ERR_TOO_LARGE);
    sqz_domain_release(stand_in.dom);
  }
  ck_assert_int_eq(sqz_field_save_npy(NULL, "x.npy"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_load_npy(NULL, "x.npy"), SQZ_ERR_INVALID_ARGUMENT);
}
END_TEST

/* ---- atomic writes ------------------------------------------------------------------------- */
/* An existing target, longer than the new file, is replaced whole and keeps its mode; a symlink
 * is replaced, not written through; a new file gets 0666 less the umask. */
START_TEST(atomic_replace) {
  char path[128], other[128], link[128];
  in_dir(path, sizeof path, "x.npy");
  in_dir(other, sizeof other, "other");
  in_dir(link, sizeof link, "link.npy");
  unsigned char junk[10000];
  memset(junk, 'j', sizeof junk);
  sqz_test_write(path, junk, sizeof junk);
  ck_assert_int_eq(chmod(path, 0640), 0);
  sqz_field *f = make_field("triangle:5", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 7));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(f, path));
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_eq((int)st.st_size, 128 + 25);
  ck_assert_int_eq((int)(st.st_mode & 07777), 0640);
  ck_assert_int_eq(dir_entries(dir), 1);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_npy(f, path));
  /* through a link: the link becomes the file, its old target is untouched */
  sqz_test_write(other, junk, 100);
  ck_assert_int_eq(symlink("other", link), 0);
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(f, link));
  ck_assert_int_eq(lstat(link, &st), 0);
  ck_assert(S_ISREG(st.st_mode));
  mode_t mask = umask(022);
  umask(mask);
  ck_assert_int_eq((int)(st.st_mode & 07777), (int)(0666 & ~mask));
  ck_assert_int_eq(stat(other, &st), 0);
  ck_assert_int_eq((int)st.st_size, 100);
  ck_assert_int_eq(dir_entries(dir), 3);
  drop(f);
}
END_TEST

/* A folder that does not exist fails with the system's reason and creates nothing; a write that
 * fails midway (the file-size limit) or a rename that fails (the target is a folder) leaves the
 * old target intact and no temporary behind. */
START_TEST(atomic_failures) {
  char path[128], sub[128], inner[160];
  in_dir(path, sizeof path, "no/such/dir/x.npy");
  sqz_field *f = make_field("triangle:100", SQZ_U8, "compact"); /* 10128 bytes as .npy */
  ck_assert_int_eq(sqz_field_save_npy(f, path), SQZ_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "No such file or directory"));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), path));
  ck_assert_int_eq(dir_entries(dir), 0);
  in_dir(path, sizeof path, "x.npy");
  unsigned char old[6000];
  for (size_t i = 0; i < sizeof old; i++) old[i] = (unsigned char)(i * 7);
  sqz_test_write(path, old, sizeof old);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  struct rlimit saved, small;
  ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved), 0);
  small = saved;
  small.rlim_cur = 4096;
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
  int st = sqz_field_save_npy(f, path);
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &saved), 0);
  signal(SIGXFSZ, prev);
  ck_assert_int_eq(st, SQZ_ERR_IO);
  ck_assert_msg(strstr(sqz_last_error(ctx), "File too large"), "detail: %s", sqz_last_error(ctx));
  size_t len;
  unsigned char *now = read_all(path, &len);
  ck_assert_uint_eq(len, sizeof old);
  ck_assert_int_eq(memcmp(now, old, len), 0);
  free(now);
  ck_assert_int_eq(dir_entries(dir), 1);
  /* rename over a non-empty folder fails: the folder and its file stay, no temporary remains */
  in_dir(sub, sizeof sub, "sub.npy");
  snprintf(inner, sizeof inner, "%s/keep", sub);
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  sqz_test_write(inner, old, 10);
  ck_assert_int_eq(sqz_field_save_npy(f, sub), SQZ_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "rename over the target failed"));
  ck_assert_int_eq(dir_entries(dir), 2);
  ck_assert_int_eq(dir_entries(sub), 1);
  drop(f);
}
END_TEST

/* A u8 state of 0s and 1s with `value` at (x, y, z) and 3 at the domain's last cell: layout bits
 * refuses the file naming the first other cell (and keeps its state), the other layouts load it and
 * sqz_life_check names the same cell; the state of 0s and 1s alone passes both. */
static void expect_two_state(const char *spec, const char *layout, uint64_t parts, uint64_t x, uint64_t y,
                             uint64_t z, unsigned char value, const char *path, const char *text) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create_parts(dom, SQZ_U8, layout, parts, &f));
  size_t bytes = embedded_bytes(f);
  uint64_t n = sqz_domain_side(dom), shape[3] = {n, n, n}, last = 0, live = 0, after = 0;
  unsigned char hdr[256], *file = malloc(sizeof hdr + bytes);
  size_t hn = sqz__npy_format_header(SQZ_U8, sqz_domain_dims(dom), shape, hdr, sizeof hdr);
  unsigned char *data = memcpy(file, hdr, hn) + hn;
  for (uint64_t e = 0; e < bytes; e++) {
    int in = sqz_domain_contains(dom, e % n, (e / n) % n, e / (n * n));
    data[e] = in && e % 3 == 0;
    last = in ? e : last;
  }
  sqz_test_write(path, file, hn + bytes);
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_npy(f, path));
  SQZ_OK_OR_FAIL(ctx, sqz_life_check(f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &live));
  data[(z * n + y) * n + x] = value;
  data[last] = 3;
  sqz_test_write(path, file, hn + bytes);
  int st = sqz_field_load_npy(f, path);
  if (strcmp(layout, "bits") == 0) {
    ck_assert_msg(st == SQZ_ERR_INVALID_ARGUMENT && strstr(sqz_last_error(ctx), path), "%s: %s", layout,
                  sqz_last_error(ctx));
    SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &after));
    ck_assert_uint_eq(after, live); /* the state as it was */
  } else {
    SQZ_OK_OR_FAIL(ctx, st);
    ck_assert_int_eq(sqz_life_check(f), SQZ_ERR_INVALID_ARGUMENT);
  }
  ck_assert_msg(strstr(sqz_last_error(ctx), text), "%s %s: detail: %s", spec, layout, sqz_last_error(ctx));
  free(file);
  drop(f);
}

START_TEST(two_state_cells) {
  char path[128];
  in_dir(path, sizeof path, "two.npy");
  const char *tri = "triangle:7: cell 24 (x 3, y 3) holds 2; Life cells are 0 or 1";
  const char *tet = "tetrahedron:5: cell 36 (x 1, y 2, z 1) holds 255; Life cells are 0 or 1";
  const char *car = "fractal:sierpinski-carpet:3: cell 83 (x 2, y 3) holds 7; Life cells are 0 or 1";
  const char *layouts[] = {"compact", "bb", "bits"};
  for (int l = 0; l < 3; l++)
    for (uint64_t parts = 1; parts <= 2; parts++) {
      expect_two_state("triangle:7", layouts[l], parts, 3, 3, 0, 2, path, tri);
      expect_two_state("tetrahedron:5", layouts[l], parts, 1, 2, 1, 255, path, tet);
      expect_two_state("fractal:sierpinski-carpet:3", layouts[l], l == 2 ? 1 : parts, 2, 3, 0, 7, path, car); /* bits: a tile a part */
    }
  expect_two_state("fractal:sierpinski-carpet:3", "block:3", 1, 2, 3, 0, 7, path, car);
  expect_two_state("fractal:sierpinski-carpet:3", "lambda", 1, 2, 3, 0, 7, path, car);
  sqz_field *f = make_field("triangle:4", SQZ_I32, "compact");
  ck_assert_int_eq(sqz_life_check(f), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "SQZ_U8"));
  drop(f);
  ck_assert_int_eq(sqz_life_check(NULL), SQZ_ERR_INVALID_ARGUMENT);
}
END_TEST

int main(void) {
  Suite *s = suite_create("npy");
  TCase *files = tcase_create("files");
  tcase_add_checked_fixture(files, setup, teardown);
  tcase_add_test(files, round_trips);
  tcase_add_test(files, refused_inputs);
  tcase_add_test(files, outside_cells);
  tcase_add_test(files, two_state_cells);
  tcase_add_test(files, too_large);
  suite_add_tcase(s, files);
  TCase *atomic = tcase_create("atomic");
  tcase_add_checked_fixture(atomic, setup, teardown);
  tcase_add_test(atomic, atomic_replace);
  tcase_add_test(atomic, atomic_failures);
  suite_add_tcase(s, atomic);
  return sqz_test_run(s);
}
