/* test_null.c — every public getter and handle call of the installed headers given NULL: no crash, the neutral value or SQZ_ERR_INVALID_ARGUMENT. */
/* labels: host */
#include <stdio.h>
#include <string.h>

#include "sqz_bench.h"
#include "sqz_hdf5.h"
#include "sqz_opencl.h"
#include "sqz_test.h"

#define INVALID SQZ_ERR_INVALID_ARGUMENT

/* Getters: 0 for numbers, kinds and types, "" for strings, NULL for handles. */
START_TEST(getters) {
  ck_assert_str_eq(sqz_context_backend(NULL), "");
  ck_assert_str_eq(sqz_context_device_name(NULL), "");
  ck_assert_uint_eq(sqz_context_global_mem(NULL), 0);
  ck_assert_uint_eq(sqz_context_max_alloc(NULL), 0);
  ck_assert_uint_eq(sqz_device_list_count(NULL), 0);
  ck_assert_str_eq(sqz_device_list_str(NULL, 0, SQZ_DEVICE_NAME), "");
  ck_assert_uint_eq(sqz_device_list_u64(NULL, 0, SQZ_DEVICE_GLOBAL_MEM), 0);
  ck_assert_int_eq((int)sqz_domain_get_kind(NULL), 0);
  ck_assert_int_eq(sqz_domain_dims(NULL), 0);
  ck_assert_uint_eq(sqz_domain_cells(NULL), 0);
  ck_assert_uint_eq(sqz_domain_side(NULL), 0);
  ck_assert_str_eq(sqz_domain_spec(NULL), "");
  ck_assert_int_eq(sqz_domain_contains(NULL, 0, 0, 0), 0);
  ck_assert_uint_eq(sqz_field_parts(NULL), 0);
  ck_assert_uint_eq(sqz_field_halo_bytes(NULL), 0);
  ck_assert_int_eq((int)sqz_field_type(NULL), 0);
  ck_assert_ptr_null(sqz_field_domain(NULL));
  ck_assert_str_eq(sqz_field_layout(NULL), "");
  ck_assert_uint_eq(sqz_field_bytes(NULL), 0);
  ck_assert_str_eq(sqz_field_map(NULL), "");
  ck_assert_str_eq(sqz_field_map_resolved(NULL), "");
  ck_assert_str_eq(sqz_field_layout_rule(NULL), "");
  const char *skipped = NULL;
  ck_assert_str_eq(sqz_field_engine(NULL, &skipped), "");
  ck_assert_str_eq(skipped, "");
  ck_assert_uint_eq(sqz_observable_width(NULL, 2), 0);
  ck_assert_int_eq(sqz_path_in_place(NULL), 0);
  ck_assert_uint_eq(sqz_type_size((sqz_type)0), 0);
  ck_assert_ptr_nonnull(sqz_last_error(NULL)); /* the thread's detail without a context: a string */
}
END_TEST

/* Calls that return a status: SQZ_ERR_INVALID_ARGUMENT for a NULL handle; releases are no-ops. */
START_TEST(status_calls) {
  double d = 0;
  uint64_t u = 0, values[SQZ_PARTS_VALUES];
  int64_t index = 0;
  int i = 0;
  uint32_t r = 0;
  sqz_parts_times t;
  unsigned char cell = 0;
  char text[64];
  ck_assert_int_eq(sqz_context_timing(NULL, &d, &d), INVALID);
  ck_assert_int_eq(sqz_context_set_progress(NULL, NULL, NULL, 0), INVALID);
  ck_assert_int_eq(sqz_domain_fractal_params(NULL, &i, &i, &i), INVALID);
  ck_assert_int_eq(sqz_domain_layout_cells(NULL, "compact", &u), INVALID);
  ck_assert_int_eq(sqz_domain_layout_bytes(NULL, "compact", &u), INVALID);
  ck_assert_int_eq(sqz_domain_map_stats(NULL, NULL, 0, &r, &u, &u, &u), INVALID);
  ck_assert_int_eq(sqz_parts_info(NULL, 1, values, SQZ_PARTS_VALUES), INVALID);
  ck_assert_int_eq(sqz_field_parts_times(NULL, &t), INVALID);
  ck_assert_int_eq(sqz_field_set_map(NULL, "bb"), INVALID);
  ck_assert_int_eq(sqz_field_set_block(NULL, 8), INVALID);
  ck_assert_int_eq(sqz_field_index(NULL, 0, 0, 0, &index), INVALID);
  ck_assert_int_eq(sqz_field_write(NULL, &cell, 1), INVALID);
  ck_assert_int_eq(sqz_field_read(NULL, &cell, 1), INVALID);
  ck_assert_int_eq(sqz_field_read_compact(NULL, &cell, 1), INVALID);
  ck_assert_int_eq(sqz_field_write_compact(NULL, &cell, 1), INVALID);
  ck_assert_int_eq(sqz_field_fill_random(NULL, 0.5, 1), INVALID);
  ck_assert_int_eq(sqz_field_fill_uniform(NULL, 1), INVALID);
  ck_assert_int_eq(sqz_field_copy(NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_field_count(NULL, &u), INVALID);
  ck_assert_int_eq(sqz_field_sum(NULL, SQZ_SUM_PAIRWISE, &d), INVALID);
  ck_assert_int_eq(sqz_life_step(NULL, NULL, 1), INVALID);
  ck_assert_int_eq(sqz_life_check(NULL), INVALID);
  ck_assert_int_eq(sqz_heat_step(NULL, 0.1, 1), INVALID);
  ck_assert_int_eq(sqz_field_load_pbm(NULL, "x.pbm"), INVALID);
  ck_assert_int_eq(sqz_field_save_npy(NULL, "x.npy"), INVALID);
  ck_assert_int_eq(sqz_field_load_rle(NULL, "x.rle", 0, 0), INVALID);
  ck_assert_int_eq(sqz_field_save_rle(NULL, "x.rle", NULL), INVALID);
  ck_assert_int_eq(sqz_field_load_cells(NULL, "x.cells", 0, 0), INVALID);
  ck_assert_int_eq(sqz_field_save_cells(NULL, "x.cells", NULL), INVALID);
  ck_assert_int_eq(sqz_field_load_clipped(NULL, "x.rle", 0, 0, &u), INVALID);
  ck_assert_int_eq(sqz_field_load_h5(NULL, "x.h5", text, sizeof text, &u) != SQZ_OK, 1);
  ck_assert_int_eq(sqz_field_save_png_sized(NULL, "x.png", 0) != SQZ_OK, 1); /* UNSUPPORTED without libpng */
  d = 1;
  ck_assert_int_eq(sqz_field_save_png_range(NULL, "x.png", 0, &d, NULL) != SQZ_OK, 1);
  ck_assert(d == 0);
  sqz_context_release(NULL);
  sqz_domain_release(NULL);
  sqz_field_release(NULL);
  sqz_device_list_release(NULL);
}
END_TEST

/* A failing call with good handles sets the detail of its own failure: sqz_last_error never still shows an older
 * one (issue 28: NULL paths, a NULL cell body and NULL out-pointers returned SQZ_ERR_INVALID_ARGUMENT and left it). */
#define FRESH(call)                                                                                              \
  do {                                                                                                           \
    sqz_domain *none = NULL;                                                                                     \
    ck_assert_int_ne(sqz_domain_parse(ctx, "nosuch:1", &none), SQZ_OK);                                         \
    char old[512];                                                                                               \
    snprintf(old, sizeof old, "%s", sqz_last_error(ctx));                                                       \
    int st_ = (call);                                                                                            \
    if (st_ == SQZ_OK || strcmp(sqz_last_error(ctx), old) == 0 || !*sqz_last_error(ctx)) {                     \
      fprintf(stderr, "stale: %s: status %d, detail '%s'\n", #call, st_, sqz_last_error(ctx));                  \
      stale++;                                                                                                   \
    }                                                                                                            \
  } while (0)

START_TEST(fresh_detail) {
  sqz_context *ctx;
  sqz_domain *dom;
  sqz_field *f;
  ck_assert_int_eq(sqz_context_create("cpu", NULL, &ctx), SQZ_OK);
  ck_assert_int_eq(sqz_domain_parse(ctx, "triangle:8", &dom), SQZ_OK);
  ck_assert_int_eq(sqz_field_create(dom, SQZ_U8, "compact", &f), SQZ_OK);
  uint64_t u = 0;
  char text[64];
  int stale = 0; /* the calls that kept the older detail (each named on stderr) */
  FRESH(sqz_field_load_pbm(f, NULL));
  FRESH(sqz_field_save_pbm(f, NULL));
  FRESH(sqz_field_load_npy(f, NULL));
  FRESH(sqz_field_save_npy(f, NULL));
  FRESH(sqz_field_load_rle(f, NULL, 0, 0));
  FRESH(sqz_field_save_rle(f, NULL, NULL));
  FRESH(sqz_field_load_cells(f, NULL, 0, 0));
  FRESH(sqz_field_save_cells(f, NULL, NULL));
  FRESH(sqz_field_load_clipped(f, NULL, 0, 0, &u));
  FRESH(sqz_field_load_h5(f, NULL, text, sizeof text, &u));
  FRESH(sqz_field_save_h5(f, NULL, NULL, 0));
  FRESH(sqz_field_save_png(f, NULL));
  FRESH(sqz_field_save_png_sized(f, NULL, 0));
  FRESH(sqz_rle_info(ctx, NULL, &u, &u, text, sizeof text));
  FRESH(sqz_life_step_custom(f, NULL, 1));
  FRESH(sqz_life_step_custom(f, "", 1));
  FRESH(sqz_stencil_step(f, NULL, "x.cl", NULL, 0, 1));
  FRESH(sqz_field_index(f, 0, 0, 0, NULL));
  FRESH(sqz_field_read(f, NULL, 1));
  FRESH(sqz_field_write(f, NULL, 1));
  FRESH(sqz_field_read_compact(f, NULL, 1));
  FRESH(sqz_field_write_compact(f, NULL, 1));
  FRESH(sqz_field_count(f, NULL));
  FRESH(sqz_field_sum(f, SQZ_SUM_PAIRWISE, NULL));
  FRESH(sqz_field_get_cell(f, 0, 0, 0, NULL));
  FRESH(sqz_field_copy(f, NULL));
  FRESH(sqz_field_fill_random(f, 2.0, 1));
  FRESH(sqz_count(ctx, SQZ_U8, NULL, 1, &u));
  FRESH(sqz_parts_info(dom, 1, NULL, 1));
  FRESH(sqz_domain_layout_bytes(dom, "compact", NULL));
  ck_assert_int_eq(stale, 0);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}
END_TEST

/* The rest of the handle calls of include/sqz.h, sqz_opencl.h and sqz_bench.h; retains are no-ops. */
START_TEST(more_status_calls) {
  double d = 0;
  uint64_t u = 0;
  uint32_t b = 0;
  float xy[2] = {0, 0};
  char text[64];
  sqz_field *f = (sqz_field *)&d; /* must come back NULL */
  sqz_domain *dom = (sqz_domain *)&d;
  sqz_observable item;
  cl_mem m = (cl_mem)&d;
  cl_event done = (cl_event)&d;
  sqz_context_retain(NULL);
  sqz_domain_retain(NULL);
  sqz_field_retain(NULL);
  ck_assert_int_eq(sqz_context_create(NULL, NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_device_list_create(NULL), INVALID);
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:4", NULL), INVALID);
  ck_assert_int_eq(sqz_domain_parse(NULL, NULL, &dom) != SQZ_OK, 1);
  ck_assert_ptr_null(dom);
  ck_assert_int_eq(sqz_context_set_observer(NULL, 1, NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_field_create(NULL, SQZ_U8, NULL, &f), INVALID);
  ck_assert_ptr_null(f);
  ck_assert_int_eq(sqz_field_create_parts(NULL, SQZ_U8, NULL, 2, &f), INVALID);
  ck_assert_int_eq(sqz_field_create_devices(NULL, NULL, 0, SQZ_U8, NULL, 0, &f), INVALID);
  ck_assert_int_eq(sqz_field_parts_auto(NULL, NULL, SQZ_U8, NULL, &u, &u), INVALID);
  ck_assert_int_eq(sqz_field_parts_bytes(NULL, SQZ_U8, NULL, 2, &u, &u), INVALID);
  ck_assert_int_eq(sqz_field_fill_const(NULL, 0), INVALID);
  ck_assert_int_eq(sqz_field_set_cell(NULL, 0, 0, 0, 1), INVALID);
  ck_assert_int_eq(sqz_field_get_cell(NULL, 0, 0, 0, &d), INVALID);
  ck_assert_int_eq(sqz_field_observe(NULL, NULL, 0, NULL), INVALID);
  ck_assert_int_eq(sqz_observable_parse(NULL, "sum", &item), INVALID);
  ck_assert_int_eq(sqz_life_check_rule(NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_life_step_custom(NULL, "return 0;", 1), INVALID);
  ck_assert_int_eq(sqz_stencil_step(NULL, "x", "x.cl", NULL, 0, 1), INVALID);
  ck_assert_int_eq(sqz_stencil_step_fn(NULL, NULL, NULL, NULL, 0, 1), INVALID);
  ck_assert_int_eq(sqz_field_load_npy(NULL, "x.npy"), INVALID);
  ck_assert_int_eq(sqz_field_save_pbm(NULL, "x.pbm"), INVALID);
  ck_assert_int_eq(sqz_field_save_png(NULL, "x.png") != SQZ_OK, 1);
  ck_assert_int_eq(sqz_field_save_h5(NULL, "x.h5", "life", 0) != SQZ_OK, 1);
  ck_assert_int_eq(sqz_rle_info(NULL, NULL, &u, &u, text, sizeof text), INVALID);
  ck_assert_int_eq(sqz_rule_parse(NULL, 2, &b, &b, text, sizeof text), SQZ_ERR_PARSE); /* an empty rule */
  ck_assert_int_eq(sqz_simplex_max_side(2, NULL, 1, 2, 1024, 4096, &u), INVALID);
  ck_assert_int_eq(sqz_count(NULL, SQZ_U8, NULL, 0, &u), INVALID);
  ck_assert_int_eq(sqz_sum(NULL, SQZ_F32, NULL, 0, SQZ_SUM_PAIRWISE, &d), INVALID);
  ck_assert_int_eq(sqz_edm(NULL, xy, 1, NULL, xy), INVALID);
  ck_assert_int_eq(sqz_bench_copy_bandwidth(NULL, 0, &d, &u), INVALID);
  ck_assert_int_eq(sqz_bench_simplex_touch(NULL, 0, 1), INVALID);
  ck_assert_int_eq(sqz_bench_fractal_maps(NULL, NULL, 0, "mma", 0, 1, &u, &d), INVALID);
  ck_assert_int_eq(sqz_bench_random_points(1, 0, NULL), INVALID);
  ck_assert_int_eq(sqz_bench_msimplex(2, 1, 1, 4, NULL), INVALID);
  /* sqz_opencl.h */
  ck_assert_int_eq(sqz_context_create_opencl(NULL, NULL, NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_context_opencl(NULL, NULL, NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_field_cl_mem(NULL, &m), INVALID);
  ck_assert_ptr_null(m);
  ck_assert_int_eq(sqz_field_create_opencl(NULL, SQZ_U8, NULL, NULL, 0, &f), INVALID);
  ck_assert_ptr_null(f);
  ck_assert_int_eq(sqz_life_enqueue(NULL, NULL, 1, 0, NULL, &done), INVALID);
  ck_assert_ptr_null(done);
  ck_assert_int_eq(sqz_stencil_enqueue(NULL, "x", "x.cl", NULL, 0, 1, 0, NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_life_prepare(NULL, NULL), INVALID);
  ck_assert_int_eq(sqz_stencil_prepare(NULL, "x", "x.cl", NULL, 0), INVALID);
  ck_assert_int_eq(sqz_heat_prepare(NULL, 0.1), INVALID);
}
END_TEST

int main(void) {
  Suite *s = suite_create("null");
  TCase *tc = tcase_create("null");
  tcase_add_test(tc, getters);
  tcase_add_test(tc, status_calls);
  tcase_add_test(tc, fresh_detail);
  tcase_add_test(tc, more_status_calls);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
