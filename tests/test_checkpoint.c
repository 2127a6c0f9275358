/* labels: host */
/* test_checkpoint.c — compact-order state I/O in every layout, and HDF5 checkpoints: round trips, resume bit for bit, refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(void) {
  Suite *s = suite_create("checkpoint");
  TCase *tc = tcase_create("checkpoint");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_compact_io);
  tcase_add_test(tc, test_h5_resume);
  tcase_add_test(tc, test_h5_refusals);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
