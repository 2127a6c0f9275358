/* labels: opencl */
/* ctest cases: cover life api */
/* test_simplex_device.c — simplex maps on an OpenCL device: per-cell visit counts, Life equal to the cpu backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_simplex.h"
#include "sqz_test.h"

/* ---- coverage: every domain cell exactly once, nothing else ------------------------------- */
static void check_cover(sqz_context *ctx, int dims, uint32_t n, const char *map, uint32_t rho, int slayout,
                        int bitmap, int index64) {
  sqz_simplex_cover_result r;
  if (index64) sqz_test_option(ctx, "index64", "1"); /* 64-bit index arithmetic even where 32 bits do */
  int st = sqz__simplex_cover(ctx, dims, n, map, rho, slayout, bitmap, &r);
  sqz_test_option(ctx, "index64", NULL);
  uint64_t group = dims == 2 ? (uint64_t)rho * rho : (uint64_t)rho * rho * rho;
  if (st == SQZ_ERR_INVALID_ARGUMENT && group > 256) {
    /* a device may allow fewer work-items for this kernel (NVIDIA: 256 for the 3D counter
     * kernel): then the refusal must say so, naming rho and the limit */
    ck_assert_msg(strstr(sqz_last_error(ctx), "work-items per group") != NULL, "%s", sqz_last_error(ctx));
    return;
  }
  ck_assert_msg(st == SQZ_OK, "%s: %s", sqz_status_name(st), sqz_last_error(ctx));
  uint64_t cells = dims == 2 ? sqz_tri(n) : sqz_tet(n);
  ck_assert_msg(r.once == cells && r.missing == 0 && r.extra == 0 && r.outside == 0,
                "%dD n=%u map %s rho=%u layout %s%s%s: %llu of %llu cells once, %llu missing, %llu extra visits, "
                "%llu outside",
                dims, n, map, rho, slayout == SQZ_SL_BB ? "bb" : "compact", bitmap ? " (bitmap)" : "",
                index64 ? " (64-bit indices)" : "",
                (unsigned long long)r.once, (unsigned long long)cells, (unsigned long long)r.missing,
                (unsigned long long)r.extra, (unsigned long long)r.outside);
  ck_assert_uint_ge(r.launched, cells);
}

/* Every map and layout on every size: with 32-bit indices (even positions of sizes) at every block side of rhos,
 * with 64-bit indices (odd positions) at the first and the last block side only. PoCL compiles a kernel once per
 * program and block side (its local size), and the block side does not enter the index width: the pairs (map,
 * block side) and (map, index width) are all covered with a quarter fewer compilations. */
static void cover_all(sqz_context *ctx, int dims, const uint32_t *sizes, size_t ns, const uint32_t *rhos, size_t nr) {
  const char *const *maps = sqz__simplex_maps(dims);
  for (size_t i = 0; i < ns; i++)
    for (size_t r = 0; r < nr; r++)
      for (int m = 0; maps[m]; m++)
        for (int lay = 0; lay < 2; lay++) {
          if (strncmp(maps[m], "had", 3) == 0 && (rhos[r] & (rhos[r] - 1u))) continue;
          if ((i & 1) && r != 0 && r + 1 != nr) continue;
          check_cover(ctx, dims, sizes[i], maps[m], rhos[r], lay ? SQZ_SL_COMPACT : SQZ_SL_BB, 0, (int)(i & 1));
        }
}

START_TEST(test_cover_2d) {
  sqz_context *ctx = sqz_test_context("opencl");
  static const uint32_t sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 257};
  static const uint32_t rhos[] = {1, 3, 4, 16};
  cover_all(ctx, 2, sizes, sizeof sizes / sizeof sizes[0], rhos, sizeof rhos / sizeof rhos[0]);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(test_cover_3d) {
  sqz_context *ctx = sqz_test_context("opencl");
  static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 47};
  static const uint32_t rhos[] = {1, 2, 3, 6, 8};
  cover_all(ctx, 3, sizes, sizeof sizes / sizeof sizes[0], rhos, sizeof rhos / sizeof rhos[0]);
  sqz_context_release(ctx);
}
END_TEST

/* The bitmap mode gives the same verdict as the counts (checked on a size where both run). */
START_TEST(test_cover_bitmap) {
  sqz_context *ctx = sqz_test_context("opencl");
  const char *maps[] = {"bb", "ltm", "rb", "had", "had-below", "rec"};
  for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
    check_cover(ctx, 2, 1000, maps[m], 16, SQZ_SL_COMPACT, 1, 0);
    check_cover(ctx, 2, 999, maps[m], 8, SQZ_SL_BB, 1, 1);
  }
  sqz_context_release(ctx);
}
END_TEST

/* ---- Life: every map and layout equals the cpu backend ---------------------------------- */
/* One context per backend for a whole Check test (a process of its own), so that its in-memory program cache serves
 * every run instead of each run loading its programs from the disk cache again; released at the end of the test. */
static sqz_context *life_ctx[2];

static sqz_context *life_context(const char *backend) {
  int i = strcmp(backend, "cpu") == 0;
  if (!life_ctx[i]) life_ctx[i] = sqz_test_context(backend);
  return life_ctx[i];
}

static void life_contexts_release(void) {
  for (int i = 0; i < 2; i++) {
    sqz_context_release(life_ctx[i]);
    life_ctx[i] = NULL;
  }
}

static unsigned char *life_run(const char *backend, const char *spec, const char *layout, const char *map,
                               uint32_t rho, const char *rule, uint64_t steps, uint64_t *live) {
  sqz_context *ctx = life_context(backend);
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layout, &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(f, map));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_block(f, rho));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 42));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, rule, steps));
  uint64_t n = dom->side, cells = dom->dims == 2 ? n * n : n * n * n;
  unsigned char *img = malloc(cells);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, img, cells));
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, live));
  sqz_field_release(f);
  sqz_domain_release(dom);
  return img;
}

/* Every map on spec against the cpu backend: in layout compact at every block side of rhos, in layout bb at the first
 * one (the layout enters only the storage index, the block side only the traversal; PoCL compiles a kernel once per
 * program and block side, so the pairs (map, block side) and (map, layout) are covered with 40 % fewer builds). */
static void life_all_maps(const char *spec, const char *rule, uint64_t steps, const uint32_t *rhos, size_t nr) {
  uint64_t live_ref = 0, live = 0;
  unsigned char *ref = life_run("cpu", spec, "compact", NULL, 0, rule, steps, &live_ref);
  sqz_domain *dom = NULL;
  ck_assert_int_eq(sqz_domain_parse(NULL, spec, &dom), SQZ_OK);
  uint64_t n = dom->side, cells = dom->dims == 2 ? n * n : n * n * n;
  const char *const *maps = sqz__simplex_maps(dom->dims);
  for (int lay = 0; lay < 2; lay++) {
    const char *layout = lay ? "compact" : "bb";
    unsigned char *cpu_bb = life_run("cpu", spec, layout, NULL, 0, rule, steps, &live);
    ck_assert_msg(memcmp(cpu_bb, ref, cells) == 0, "%s cpu layout %s differs from cpu compact", spec, layout);
    free(cpu_bb);
    for (int m = 0; maps[m]; m++)
      for (size_t r = 0; r < (lay ? nr : 1); r++) {
        if (strncmp(maps[m], "had", 3) == 0 && (rhos[r] & (rhos[r] - 1u))) continue; /* had needs 2^j */
        unsigned char *got = life_run("opencl", spec, layout, maps[m], rhos[r], rule, steps, &live);
        ck_assert_msg(memcmp(got, ref, cells) == 0 && live == live_ref,
                      "%s rule %s: map %s rho %u layout %s differs from the cpu backend", spec, rule, maps[m], rhos[r],
                      layout);
        free(got);
      }
  }
  sqz_domain_release(dom);
  free(ref);
}

/* rho 0 is the default; odd block sides (1, 3) give tiles of 3 x 3 and 5 x 5 cells, RB blocks
 * across the fold line of odd and even sides. */
START_TEST(test_life_2d) {
  static const uint32_t rhos[] = {0, 4, 3, 1};
  life_all_maps("triangle:1", "B3/S23", 2, rhos, 1);
  life_all_maps("triangle:37", "B3/S23", 5, rhos, 3);
  life_all_maps("triangle:20", "B3/S23", 3, rhos, 4);
  life_all_maps("triangle:64", "B2/S23", 4, rhos, 2);
  life_all_maps("triangle:129", "B36/S23", 3, rhos, 1);
  /* blocks larger than half the triangle: most work-groups own no cell (rb: past the
   * rectangle), and they must leave without writing */
  static const uint32_t big[] = {7, 8, 16};
  for (uint32_t n = 1; n <= 9; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "triangle:%u", n);
    life_all_maps(spec, "B2/S23", 2, big, 3);
  }
  life_contexts_release();
}
END_TEST

/* 3D block sides: the default, 3 and 1 here, 4 and 6 on the small tetrahedra; 2 and 8 in test_cover_3d. */
START_TEST(test_life_3d) {
  static const uint32_t rhos[] = {0, 3, 1};
  life_all_maps("tetrahedron:1", "B6/S5,6,7", 2, rhos, 1);
  life_all_maps("tetrahedron:13", "B5,6,7,8/S5,6,7,8,9,10", 3, rhos, 4);
  life_all_maps("tetrahedron:32", "B6/S5,6,7", 2, rhos, 2);
  static const uint32_t big[] = {4, 6};
  for (int n = 1; n <= 5; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "tetrahedron:%d", n);
    life_all_maps(spec, "B4/S3,4", 2, big, 2);
  }
  life_contexts_release();
}
END_TEST

/* The kernels' 64-bit index arithmetic (used above 2^32 storage cells) gives the same states. */
START_TEST(test_life_index64) {
  static const uint32_t rhos[] = {0};
  sqz_test_option(life_context("opencl"), "index64", "1");
  static const uint32_t big[] = {0, 7, 8};
  life_all_maps("triangle:45", "B3/S23", 3, rhos, 1);
  life_all_maps("triangle:6", "B2/S23", 2, big, 3);
  life_all_maps("triangle:9", "B3/S23", 2, big, 3);
  life_all_maps("tetrahedron:14", "B6/S5,6,7", 2, rhos, 1);
  static const uint32_t big3[] = {5, 6};
  life_all_maps("tetrahedron:5", "B4/S3,4", 2, big3, 2);
  sqz_test_option(life_context("opencl"), "index64", NULL);
  life_contexts_release();
}
END_TEST

/* The device fill equals the host fill of the cpu backend. */
START_TEST(test_fill_random) {
  const char *specs[] = {"triangle:50", "triangle:33", "tetrahedron:20"};
  for (size_t s = 0; s < 3; s++)
    for (int lay = 0; lay < 2; lay++) {
      uint64_t a = 0, b = 0;
      /* NULL: the default rule of the dimension (B3/S23 is ambiguous in 3D) */
      unsigned char *x = life_run("cpu", specs[s], lay ? "compact" : "bb", NULL, 0, NULL, 0, &a);
      unsigned char *y = life_run("opencl", specs[s], lay ? "compact" : "bb", NULL, 0, NULL, 0, &b);
      sqz_domain *dom = NULL;
      ck_assert_int_eq(sqz_domain_parse(NULL, specs[s], &dom), SQZ_OK);
      uint64_t n = dom->side, cells = dom->dims == 2 ? n * n : n * n * n;
      ck_assert_msg(a == b && memcmp(x, y, cells) == 0, "%s fill differs between backends", specs[s]);
      ck_assert_uint_gt(a, dom->cells / 3);
      ck_assert_uint_lt(a, dom->cells * 2 / 3);
      sqz_domain_release(dom);
      free(x);
      free(y);
    }
  life_contexts_release();
}
END_TEST

/* A user rule written in OpenCL C gives the same states as the equivalent mask rule. */
START_TEST(test_custom_rule) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  sqz_field *a = NULL, *b = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "triangle:90", &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "compact", &a));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "compact", &b));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.4, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.4, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(a, "B3/S23", 6));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step_custom(b, "return (live == 3u || (self && live == 2u)) ? 1 : 0;", 6));
  unsigned char *x = malloc(90 * 90), *y = malloc(90 * 90);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, x, 90 * 90));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, y, 90 * 90));
  ck_assert(memcmp(x, y, 90 * 90) == 0);
  free(x);
  free(y);
  sqz_field_release(a);
  sqz_field_release(b);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}
END_TEST

/* A user rule sees the cell's own byte, not only whether it is alive: an aging rule (the byte
 * counts the generations a cell has lived) follows the mask rule step by step. */
static void check_aging(const char *spec, const char *layout, const char *map, const char *mask, const char *aging) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  sqz_field *a = NULL, *b = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layout, &a));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layout, &b));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(a, map));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(b, map));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.4, 5));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.4, 5));
  size_t cells = dom->dims == 2 ? (size_t)dom->side * dom->side : (size_t)dom->side * dom->side * dom->side;
  unsigned char *alive = malloc(cells), *age = malloc(cells), *want = malloc(cells);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, want, cells));
  unsigned oldest = 0;
  for (int step = 0; step < 8; step++) {
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(a, mask, 1));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step_custom(b, aging, 1));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, alive, cells));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, age, cells));
    for (size_t i = 0; i < cells; i++) {
      want[i] = alive[i] ? (unsigned char)(want[i] + 1u) : 0u;
      ck_assert_msg(age[i] == want[i], "%s %s map %s step %d cell %zu: age %u, expected %u", spec, layout, map,
                    step + 1, i, age[i], want[i]);
      if (age[i] > oldest) oldest = age[i];
    }
  }
  ck_assert_uint_gt(oldest, 2); /* some cell lived long enough for its byte to matter */
  free(alive);
  free(age);
  free(want);
  sqz_field_release(a);
  sqz_field_release(b);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}

START_TEST(test_custom_rule_bytes) {
  const char *age2 = "if (self) return (live == 2u || live == 3u) ? (uchar)(self + 1u) : 0; return live == 3u ? 1 : 0;";
  const char *age3 = "if (self) return (live >= 5u && live <= 7u) ? (uchar)(self + 1u) : 0; return live == 6u ? 1 : 0;";
  check_aging("triangle:60", "compact", "rb", "B3/S23", age2);
  check_aging("triangle:61", "bb", "had", "B3/S23", age2);
  check_aging("tetrahedron:20", "compact", "ltm3", "B6/S5,6,7", age3);
  check_aging("tetrahedron:21", "bb", "rec3", "B6/S5,6,7", age3);
}
END_TEST

/* rho that a map does not allow, a map of the wrong dimension. */
START_TEST(test_bad_arguments) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "triangle:100", &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "compact", &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(f, "had"));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_block(f, 6));
  ck_assert_int_eq(sqz_life_step(f, "B3/S23", 1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "rho = 6"));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "had"));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_block(f, 1000));
  ck_assert_int_eq(sqz_life_step(f, "B3/S23", 1), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_field_set_map(f, "had3"), SQZ_ERR_INVALID_ARGUMENT);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("simplex_device");
  TCase *tc = sqz_test_tcase(s, "cover", 1200);
  tcase_add_test(tc, test_cover_2d);
  tcase_add_test(tc, test_cover_3d);
  tcase_add_test(tc, test_cover_bitmap);
  tc = sqz_test_tcase(s, "life", 1200);
  tcase_add_test(tc, test_life_2d);
  tcase_add_test(tc, test_life_3d);
  tcase_add_test(tc, test_life_index64);
  tc = sqz_test_tcase(s, "api", 1200);
  tcase_add_test(tc, test_fill_random);
  tcase_add_test(tc, test_custom_rule);
  tcase_add_test(tc, test_custom_rule_bytes);
  tcase_add_test(tc, test_bad_arguments);
  return sqz_test_run(s);
}
