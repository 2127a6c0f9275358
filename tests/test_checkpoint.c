/* labels: host */
/* test_checkpoint.c — compact-order state I/O in every layout, and HDF5 checkpoints: round trips, resume bit for bit, refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqz_hdf5.h"
#include "sqz_test.h"

static const char *const specs[] = {"fractal:sierpinski-carpet:3", "fractal:#./##:4", "triangle:23", "tetrahedron:9"};

static uint64_t embedded_cells(const sqz_domain *dom) {
  uint64_t n = sqz_domain_side(dom);
  return sqz_domain_dims(dom) == 3 ? n * n * n : n * n;
}

/* The layouts of a domain: bb and compact, for fractals also lambda and block:s. */
static int layouts_of(const sqz_domain *dom, const char **out) {
  static char block[32];
  int s = 0, k = 0, r = 0, n = 0;
  out[n++] = "compact";
  out[n++] = "bb";
  if (sqz_domain_fractal_params(dom, &s, &k, &r) == SQZ_OK) {
    snprintf(block, sizeof block, "block:%d", s);
    out[n++] = "lambda";
    out[n++] = block;
  }
  return n;
}

/* Compact order is one order whatever the layout: a state written in compact order into one
 * layout reads back the same from every other, and the embedded images agree. */
START_TEST(test_compact_io) {
  sqz_context *ctx = sqz_test_context("cpu");
  for (size_t d = 0; d < sizeof specs / sizeof specs[0]; d++) {
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, specs[d], &dom));
    uint64_t cells = sqz_domain_cells(dom), emb = embedded_cells(dom);
    int32_t *vals = malloc(cells * sizeof *vals), *back = malloc(cells * sizeof *back);
    int32_t *img0 = malloc(emb * sizeof *img0), *img = malloc(emb * sizeof *img);
    for (uint64_t c = 0; c < cells; c++) vals[c] = (int32_t)(c * 2654435761u % 1000003u) + 1;
    const char *lays[4];
    int nl = layouts_of(dom, lays);
    for (int l = 0; l < nl; l++) {
      sqz_field *f = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_I32, lays[l], &f));
      SQZ_OK_OR_FAIL(ctx, sqz_field_write_compact(f, vals, cells));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(f, back, cells));
      ck_assert_msg(memcmp(vals, back, cells * sizeof *vals) == 0, "%s %s: compact round trip", specs[d], lays[l]);
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, l ? img : img0, emb * sizeof *img));
      if (l) ck_assert_msg(memcmp(img0, img, emb * sizeof *img) == 0, "%s: %s places cells unlike compact", specs[d], lays[l]);
      ck_assert_int_eq(sqz_field_read_compact(f, back, cells - 1), SQZ_ERR_INVALID_ARGUMENT);
      sqz_field_release(f);
    }
    uint64_t nonzero = 0; /* every domain cell got a value: the embedded image holds |D| non-zero cells */
    for (uint64_t e = 0; e < emb; e++) nonzero += img0[e] != 0;
    ck_assert_uint_eq(nonzero, cells);
    free(vals);
    free(back);
    free(img0);
    free(img);
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
}
END_TEST

static char tmpdir[64];
static void make_tmpdir(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/sqz_ckpt_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* K steps in one run equal J steps, a checkpoint in another layout, a fresh field and K - J more. */
START_TEST(test_h5_resume) {
  sqz_context *ctx = sqz_test_context("cpu");
  make_tmpdir();
  char path[128];
  snprintf(path, sizeof path, "%s/c.h5", tmpdir);
  for (size_t d = 0; d < sizeof specs / sizeof specs[0]; d++) {
    for (int heat = 0; heat < 2; heat++) {
      sqz_type t = heat ? SQZ_F64 : SQZ_U8;
      const char *rule = strncmp(specs[d], "tetra", 5) == 0 ? "B6/S5,6,7" : "B3/S23";
      sqz_field *a = sqz_test_field(ctx, specs[d], t, "compact"), *b = sqz_test_field(ctx, specs[d], t, "bb");
      uint64_t emb = embedded_cells(sqz_field_domain(a));
      SQZ_OK_OR_FAIL(ctx, heat ? sqz_field_fill_uniform(a, 9) : sqz_field_fill_random(a, 0.4, 9));
      SQZ_OK_OR_FAIL(ctx, heat ? sqz_heat_step(a, 0.1, 5) : sqz_life_step(a, rule, 5));
      SQZ_OK_OR_FAIL(ctx, sqz_field_save_h5(a, path, heat ? "heat alpha 0.1" : rule, 5));
      SQZ_OK_OR_FAIL(ctx, heat ? sqz_heat_step(a, 0.1, 7) : sqz_life_step(a, rule, 7));
      char work[64] = "";
      uint64_t step = 0;
      SQZ_OK_OR_FAIL(ctx, sqz_field_load_h5(b, path, work, sizeof work, &step));
      ck_assert_uint_eq(step, 5);
      ck_assert_str_eq(work, heat ? "heat alpha 0.1" : rule);
      SQZ_OK_OR_FAIL(ctx, heat ? sqz_heat_step(b, 0.1, 7) : sqz_life_step(b, rule, 7));
      size_t bytes = (size_t)emb * (heat ? 8 : 1);
      unsigned char *x = malloc(bytes), *y = malloc(bytes);
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, x, bytes));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, y, bytes));
      ck_assert_msg(memcmp(x, y, bytes) == 0, "%s %s: resumed run differs", specs[d], heat ? "heat" : "life");
      free(x);
      free(y);
      sqz_test_drop(a);
      sqz_test_drop(b);
    }
  }
  unlink(path);
  rmdir(tmpdir);
  sqz_context_release(ctx);
}
END_TEST

/* Another domain or type is refused naming both; a damaged byte fails the checksum; nothing is loaded. */
START_TEST(test_h5_refusals) {
  sqz_context *ctx = sqz_test_context("cpu");
  make_tmpdir();
  char path[128];
  snprintf(path, sizeof path, "%s/r.h5", tmpdir);
  sqz_field *a = sqz_test_field(ctx, "fractal:sierpinski-carpet:4", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.5, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_h5(a, path, "B3/S23", 0));
  sqz_field *other = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_U8, "compact");
  ck_assert_int_eq(sqz_field_load_h5(other, path, NULL, 0, NULL), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "fractal:sierpinski-carpet:3"));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "fractal:sierpinski-carpet:4"));
  sqz_field *wrong = sqz_test_field(ctx, "fractal:sierpinski-carpet:4", SQZ_F32, "compact");
  ck_assert_int_eq(sqz_field_load_h5(wrong, path, NULL, 0, NULL), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "f32"));
  /* damage: flip a byte of the (compressed, checksummed) chunk near the end of the file's data */
  FILE *fp = fopen(path, "r+b");
  ck_assert_ptr_nonnull(fp);
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp), at = -1;
  unsigned char *buf = malloc((size_t)size);
  fseek(fp, 0, SEEK_SET);
  ck_assert_int_eq((long)fread(buf, 1, (size_t)size, fp), size);
  sqz_field *b = sqz_test_field(ctx, "fractal:sierpinski-carpet:4", SQZ_U8, "compact");
  uint64_t live_a = 0, expect = 0; /* b's count: 0 until a load succeeds, then a's */
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(a, &live_a));
  for (long tries = 0; tries < 64 && at < 0; tries++) { /* find a byte whose change makes the load fail */
    long pos = size / 2 + tries * 37 % (size / 2);
    buf[pos] ^= 0x5a;
    fseek(fp, 0, SEEK_SET);
    fwrite(buf, 1, (size_t)size, fp);
    fflush(fp);
    if (sqz_field_load_h5(b, path, NULL, 0, NULL) != SQZ_OK) {
      at = pos;
    } else {
      buf[pos] ^= 0x5a; /* a byte the format does not read: the state loaded whole */
      expect = live_a;
    }
  }
  fclose(fp);
  free(buf);
  ck_assert_msg(at >= 0, "no damaged byte was detected");
  uint64_t live = 1;
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(b, &live));
  ck_assert_uint_eq(live, expect); /* a failed load leaves the field as it was */
  ck_assert_int_eq(sqz_field_load_h5(b, "/nonexistent/x.h5", NULL, 0, NULL), SQZ_ERR_IO);
  /* a u8 checkpoint holding a 2 (cell (5, 1) of the carpet): layout bits refuses it naming the cell,
   * layout compact loads it and sqz_life_check names the same cell */
  unsigned char *img = calloc(81 * 81, 1);
  img[1 * 81 + 5] = 2;
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(a, img, 81 * 81));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_h5(a, path, "B3/S23", 0));
  const char *cell = "fractal:sierpinski-carpet:4: cell 86 (x 5, y 1) holds 2; Life cells are 0 or 1";
  sqz_field *bits = sqz_test_field(ctx, "fractal:sierpinski-carpet:4", SQZ_U8, "bits");
  ck_assert_int_eq(sqz_field_load_h5(bits, path, NULL, 0, NULL), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(sqz_last_error(ctx), path) && strstr(sqz_last_error(ctx), cell), "detail: %s",
                sqz_last_error(ctx));
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_h5(b, path, NULL, 0, NULL));
  ck_assert_int_eq(sqz_life_check(b), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(sqz_last_error(ctx), cell), "detail: %s", sqz_last_error(ctx));
  free(img);
  sqz_test_drop(bits);
  sqz_test_drop(a);
  sqz_test_drop(other);
  sqz_test_drop(wrong);
  sqz_test_drop(b);
  unlink(path);
  rmdir(tmpdir);
  sqz_context_release(ctx);
}
END_TEST

#ifdef SQZ_HAVE_HDF5
#include <hdf5.h>

/* Hostile checkpoints of triangle:6 (21 cells) for an i32 field, each made with the HDF5 API. */
#define H_CELLS 21
enum { K_EXTERNAL, K_VIRTUAL, K_EXTLINK, K_SOFTLINK, K_NBIT, K_WIDE, K_FLOAT, K_ATTR_ARRAY, K_BIGENDIAN, K_GZIP, K_PLAIN };
static char secret[160], source[160], good[160];

static void put_str_attr(hid_t obj, const char *name, const char *value, hsize_t count) {
  hid_t t = H5Tcopy(H5T_C_S1), sp = count ? H5Screate_simple(1, &count, NULL) : H5Screate(H5S_SCALAR);
  H5Tset_size(t, strlen(value) + 1);
  char both[2][32] = {{0}};
  snprintf(both[0], sizeof both[0], "%s", value);
  snprintf(both[1], sizeof both[1], "%s", value);
  hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  ck_assert(a >= 0 && H5Awrite(a, t, count ? (const void *)both : value) >= 0); /* both: the count is 2 */
  H5Aclose(a);
  H5Sclose(sp);
  H5Tclose(t);
}

/* The storage of the dataset: external (the secret file), virtual (source.h5's /data), filters. */
static hid_t craft_dcpl(int kind) {
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  hsize_t chunk = 7, n = H_CELLS;
  if (kind == K_EXTERNAL) ck_assert(H5Pset_external(dcpl, secret, 0, H_CELLS * 4) >= 0);
  if (kind == K_NBIT || kind == K_GZIP) ck_assert(H5Pset_chunk(dcpl, 1, &chunk) >= 0);
  if (kind == K_NBIT) ck_assert(H5Pset_nbit(dcpl) >= 0);
  if (kind == K_GZIP) ck_assert(H5Pset_deflate(dcpl, 1) >= 0);
  if (kind == K_VIRTUAL) {
    hid_t sp = H5Screate_simple(1, &n, NULL);
    ck_assert(H5Pset_virtual(dcpl, sp, source, "/data", sp) >= 0);
    H5Sclose(sp);
  }
  return dcpl;
}

/* The checkpoint at path: dataset 'state' (or a link of that name) with sqz's attributes, values c + 1. */
static void craft(const char *path, int kind) {
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ck_assert(file >= 0);
  if (kind == K_EXTLINK) {
    ck_assert(H5Lcreate_external(good, "/state", file, "state", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    H5Fclose(file);
    return;
  }
  hid_t ftype = kind == K_WIDE ? H5T_STD_I64LE : kind == K_FLOAT ? H5T_IEEE_F64LE
                : kind == K_BIGENDIAN ? H5T_STD_I32BE : H5T_STD_I32LE;
  hid_t dcpl = craft_dcpl(kind), mtype = kind == K_WIDE ? H5T_NATIVE_INT64 : kind == K_FLOAT ? H5T_NATIVE_DOUBLE
                                                                           : H5T_NATIVE_INT32;
  hsize_t n = H_CELLS;
  hid_t sp = H5Screate_simple(1, &n, NULL);
  hid_t ds = H5Dcreate2(file, kind == K_SOFTLINK ? "hidden" : "state", ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ck_assert(ds >= 0);
  int64_t wide[H_CELLS];
  double frac[H_CELLS];
  int32_t narrow[H_CELLS];
  for (int c = 0; c < H_CELLS; c++) wide[c] = ((int64_t)1 << 40) + c, frac[c] = 0.7, narrow[c] = c + 1;
  const void *vals = kind == K_WIDE ? (const void *)wide : kind == K_FLOAT ? (const void *)frac : narrow;
  if (kind != K_EXTERNAL && kind != K_VIRTUAL) ck_assert(H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals) >= 0);
  put_str_attr(ds, "domain", "triangle:6", kind == K_ATTR_ARRAY ? 2 : 0);
  put_str_attr(ds, "cell_type", "i32", 0);
  if (kind == K_SOFTLINK) ck_assert(H5Lcreate_soft("/hidden", file, "state", H5P_DEFAULT, H5P_DEFAULT) >= 0);
  H5Dclose(ds);
  H5Sclose(sp);
  H5Pclose(dcpl);
  H5Fclose(file);
}

/* The files the hostile checkpoints point at: a secret (external storage), a source (virtual), a good checkpoint. */
static void craft_targets(sqz_context *ctx) {
  snprintf(secret, sizeof secret, "%s/secret", tmpdir);
  snprintf(source, sizeof source, "%s/source.h5", tmpdir);
  snprintf(good, sizeof good, "%s/good.h5", tmpdir);
  FILE *fp = fopen(secret, "wb");
  ck_assert_ptr_nonnull(fp);
  for (int i = 0; i < H_CELLS * 4; i++) fputc('A', fp);
  fclose(fp);
  hsize_t n = H_CELLS;
  int32_t v[H_CELLS];
  for (int c = 0; c < H_CELLS; c++) v[c] = 77;
  hid_t file = H5Fcreate(source, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), sp = H5Screate_simple(1, &n, NULL);
  hid_t ds = H5Dcreate2(file, "data", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ck_assert(ds >= 0 && H5Dwrite(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
  H5Dclose(ds);
  H5Sclose(sp);
  H5Fclose(file);
  sqz_field *g = sqz_test_field(ctx, "triangle:6", SQZ_I32, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_write_compact(g, v, H_CELLS));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_h5(g, good, "", 0));
  sqz_test_drop(g);
}

/* A checkpoint reads only itself, in the type it names: external storage, virtual datasets, links, filters sqz
 * does not write and values of another type are refused naming the dataset and the reason, the field untouched;
 * big-endian values, gzip alone and contiguous storage load. */
START_TEST(test_h5_hostile) {
  sqz_context *ctx = sqz_test_context("cpu");
  make_tmpdir();
  craft_targets(ctx);
  char path[160];
  snprintf(path, sizeof path, "%s/hostile.h5", tmpdir);
  sqz_field *f = sqz_test_field(ctx, "triangle:6", SQZ_I32, "compact");
  int32_t base[H_CELLS], back[H_CELLS];
  for (int c = 0; c < H_CELLS; c++) base[c] = 3 * c;
  SQZ_OK_OR_FAIL(ctx, sqz_field_write_compact(f, base, H_CELLS));
  static const struct { int kind; const char *why; } refused[] = {
      {K_EXTERNAL, "external storage"}, {K_VIRTUAL, "virtual"}, {K_EXTLINK, "external link"},
      {K_SOFTLINK, "soft link"}, {K_NBIT, "filter"}, {K_WIDE, "8-byte signed integer"},
      {K_FLOAT, "8-byte float"}, {K_ATTR_ARRAY, "'domain'"}};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    craft(path, refused[i].kind);
    int st = sqz_field_load_h5(f, path, NULL, 0, NULL);
    const char *e = sqz_last_error(ctx);
    ck_assert_msg(st == SQZ_ERR_PARSE && strstr(e, refused[i].why) && strstr(e, "state"), "case %zu: %d %s", i, st,
                  st ? e : "loaded");
    SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(f, back, H_CELLS));
    ck_assert_msg(memcmp(base, back, sizeof base) == 0, "case %zu changed the field", i);
  }
  static const int loads[] = {K_BIGENDIAN, K_GZIP, K_PLAIN};
  for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
    craft(path, loads[i]);
    SQZ_OK_OR_FAIL(ctx, sqz_field_load_h5(f, path, NULL, 0, NULL));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(f, back, H_CELLS));
    for (int c = 0; c < H_CELLS; c++) ck_assert_int_eq(back[c], c + 1);
  }
  sqz_test_drop(f);
  const char *made[] = {path, secret, source, good};
  for (size_t i = 0; i < 4; i++) unlink(made[i]);
  rmdir(tmpdir);
  sqz_context_release(ctx);
}
END_TEST
#endif

int main(void) {
  Suite *s = suite_create("checkpoint");
  TCase *tc = tcase_create("checkpoint");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_compact_io);
  tcase_add_test(tc, test_h5_resume);
  tcase_add_test(tc, test_h5_refusals);
#ifdef SQZ_HAVE_HDF5
  tcase_add_test(tc, test_h5_hostile);
#endif
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
