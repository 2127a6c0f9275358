/* test_core.c — status table, rule, domain and layout parsing, the cpu context, the PBM reader and the backend tables (no OpenCL). */
/* labels: host */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/backend.h"
#include "backends/opencl/cl_internal.h"
#include "core/engine_paths.h"
#include "sqz_test.h"

START_TEST(status_names) {
  ck_assert_str_eq(sqz_status_name(SQZ_OK), "SQZ_OK");
  ck_assert_str_eq(sqz_status_name(SQZ_ERR_PARSE), "SQZ_ERR_PARSE");
  ck_assert_str_eq(sqz_status_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
  ck_assert_str_eq(sqz_status_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
  ck_assert_str_eq(sqz_status_name(12345), "SQZ_UNKNOWN_STATUS");
  ck_assert_str_eq(sqz_status_message(SQZ_ERR_BUILD_FAILED), "kernel build failed");
  ck_assert_int_eq(sqz_version_number(), SQZ_VERSION_NUMBER);
  ck_assert_str_eq(sqz_version_string(), SQZ_VERSION_STRING);
}
END_TEST

START_TEST(rule_parsing) {
  uint32_t b = 0, s = 0;
  char err[256];
  ck_assert_int_eq(sqz_rule_parse("B3/S23", 2, &b, &s, err, sizeof err), SQZ_OK);
  ck_assert_uint_eq(b, 1u << 3);
  ck_assert_uint_eq(s, (1u << 2) | (1u << 3));
  ck_assert_int_eq(sqz_rule_parse("b2/s23", 2, &b, &s, err, sizeof err), SQZ_OK);
  ck_assert_uint_eq(b, 1u << 2);
  ck_assert_int_eq(sqz_rule_parse("B6/S5,6,7", 3, &b, &s, err, sizeof err), SQZ_OK);
  ck_assert_uint_eq(b, 1u << 6);
  ck_assert_uint_eq(s, (1u << 5) | (1u << 6) | (1u << 7));
  ck_assert_int_eq(sqz_rule_parse("B14,26/S", 3, &b, &s, err, sizeof err), SQZ_OK);
  ck_assert_uint_eq(b, (1u << 14) | (1u << 26));
  ck_assert_uint_eq(s, 0u);
  ck_assert_int_eq(sqz_rule_parse("B9/S23", 2, &b, &s, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "count 9"));
  ck_assert_int_eq(sqz_rule_parse("B6/S5,27", 3, &b, &s, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "27"));
  ck_assert_int_eq(sqz_rule_parse("B3/B3", 2, &b, &s, err, sizeof err), SQZ_ERR_PARSE); /* Golly forms: test_rle.c */
  ck_assert_int_eq(sqz_rule_parse("X3/S23", 2, &b, &s, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_int_eq(sqz_rule_parse("B3/S2x", 2, &b, &s, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "position 6"));
  ck_assert_int_eq(sqz_rule_parse("", 2, &b, &s, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_int_eq(sqz_rule_parse("B3/S23,", 2, &b, &s, err, sizeof err), SQZ_ERR_PARSE);
}
END_TEST

START_TEST(domain_parsing) {
  sqz_domain *d = NULL;
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:10", &d), SQZ_OK);
  ck_assert_uint_eq(sqz_domain_cells(d), 55);
  ck_assert_int_eq(sqz_domain_dims(d), 2);
  ck_assert(sqz_domain_contains(d, 3, 3, 0));
  ck_assert(!sqz_domain_contains(d, 4, 3, 0));
  sqz_domain_release(d);
  ck_assert_int_eq(sqz_domain_parse(NULL, "tetrahedron:10", &d), SQZ_OK);
  ck_assert_uint_eq(sqz_domain_cells(d), 220);
  ck_assert(sqz_domain_contains(d, 3, 3, 3));
  ck_assert(!sqz_domain_contains(d, 3, 3, 4));
  sqz_domain_release(d);
  ck_assert_int_eq(sqz_domain_parse(NULL, "tetrahedron:2097152", &d), SQZ_OK);
  ck_assert_uint_eq(sqz_domain_cells(d), 1537230871833083904ULL); /* Te(2^21) exact in 64 bits */
  sqz_domain_release(d);
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:0", &d), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "at least 1"));
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:-3", &d), SQZ_ERR_PARSE);
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:12x", &d), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "12x"));
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:99999999999999999999999", &d), SQZ_ERR_PARSE);
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle:4294967296", &d), SQZ_ERR_TOO_LARGE);
  ck_assert_int_eq(sqz_domain_parse(NULL, "square:4", &d), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "square"));
  ck_assert_int_eq(sqz_domain_parse(NULL, "triangle", &d), SQZ_ERR_PARSE);
  ck_assert_ptr_null(d);
}
END_TEST

START_TEST(cpu_context) {
  sqz_context *ctx = sqz_test_context("cpu");
  ck_assert_uint_gt(sqz_context_global_mem(ctx), 0);
  sqz_context_release(ctx);
  sqz_context_release(NULL);
  ck_assert_int_eq(sqz_context_create("vulkan", NULL, &ctx), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(ctx);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "vulkan"));
}
END_TEST

/* A block:RHO layout beyond what the domain allows names the largest RHO it does allow. */
START_TEST(block_layout_limits) {
  static const struct {
    const char *domain, *layout, *want;
  } cases[] = {
      {"fractal:sierpinski-triangle:14", "block:8192", "the largest on fractal:sierpinski-triangle:14 is 4096"},
      {"fractal:sierpinski-carpet:9", "block:6561", "the largest on fractal:sierpinski-carpet:9 is 2187"},
      {"fractal:sierpinski-triangle:3", "block:16", "the largest block side here is 8"},
      {"fractal:sierpinski-triangle:14", "block:4x", "RHO '4x' is not a positive integer"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqz_domain *d = NULL;
    uint64_t cells = 0;
    ck_assert_int_eq(sqz_domain_parse(NULL, cases[i].domain, &d), SQZ_OK);
    ck_assert_int_ne(sqz_domain_layout_cells(d, cases[i].layout, &cells), SQZ_OK);
    ck_assert_msg(strstr(sqz_last_error(NULL), cases[i].want) != NULL, "%s on %s: '%s' lacks '%s'", cases[i].layout,
                  cases[i].domain, sqz_last_error(NULL), cases[i].want);
    sqz_domain_release(d);
  }
}
END_TEST

static void write_bytes(const char *path, const char *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
  ck_assert_int_eq(fclose(f), 0);
}

/* The PBM reader: bytes after a P4 image are an error that counts them; a file that cannot be opened
 * or read is SQZ_ERR_IO with the system's reason. */
START_TEST(pbm_reader) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *f = sqz_test_field(ctx, "triangle:3", SQZ_U8, NULL);
  char dir[] = "/tmp/sqz_pbm_testXXXXXX", path[64];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/t.pbm", dir);
  static const char image[] = "P4\n3 3\n\x80\xc0\xe0xyz";
  write_bytes(path, image, sizeof image - 4); /* the image alone */
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_pbm(f, path));
  write_bytes(path, image, sizeof image - 1); /* and three bytes more */
  ck_assert_int_eq(sqz_field_load_pbm(f, path), SQZ_ERR_PARSE);
  ck_assert_msg(strstr(sqz_last_error(ctx), "3 trailing bytes") != NULL, "%s", sqz_last_error(ctx));
  ck_assert_int_eq(unlink(path), 0);
  ck_assert_int_eq(sqz_field_load_pbm(f, path), SQZ_ERR_IO);
  ck_assert_msg(strstr(sqz_last_error(ctx), "No such file or directory") != NULL, "%s", sqz_last_error(ctx));
  ck_assert_int_eq(sqz_field_load_pbm(f, dir), SQZ_ERR_IO); /* opens, but cannot be read */
  ck_assert_msg(strstr(sqz_last_error(ctx), "Is a directory") != NULL, "%s", sqz_last_error(ctx));
  ck_assert_int_eq(rmdir(dir), 0);
  sqz_test_drop(f);
  sqz_context_release(ctx);
}
END_TEST

/* Every backend compiled in has every entry of its operations table (backend.h): a name, no NULL
 * function and a table of engine paths with a row. `paths` must be the table's last member, so an
 * entry added after it fails here until the list below names it too. */
_Static_assert(sizeof(sqz_backend_ops) == offsetof(sqz_backend_ops, paths) + sizeof(void *),
               "a new entry of sqz_backend_ops: add it to backend_tables_complete");
START_TEST(backend_tables_complete) {
  int n = 0;
  for (const sqz_backend_ops *const *b = sqz__backends; *b; b++, n++) {
    const sqz_backend_ops *o = *b;
    ck_assert_msg(o->name && *o->name, "backend %d has no name", n);
    const struct {
      const char *entry;
      int set;
    } e[] = {{"open", !!o->open},           {"close", !!o->close},         {"list", !!o->list},
             {"accepts", !!o->accepts},     {"alloc", !!o->alloc},         {"free", !!o->free},
             {"upload", !!o->upload},       {"download", !!o->download},   {"zero", !!o->zero},
             {"finish", !!o->finish},       {"gather", !!o->gather},       {"scatter", !!o->scatter},
             {"stencil", !!o->stencil},     {"fill", !!o->fill},           {"reduce", !!o->reduce},
             {"edm", !!o->edm},             {"copy_rate", !!o->copy_rate}, {"touch", !!o->touch},
             {"tile_maps", !!o->tile_maps}, {"copy", !!o->copy},           {"stencil_part", !!o->stencil_part},
             {"observe", !!o->observe},     {"prepare", !!o->prepare},     {"paths", o->paths && o->paths->n}};
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
      ck_assert_msg(e[i].set, "backend %s: entry %s is NULL", o->name, e[i].entry);
  }
  ck_assert_int_ge(n, 2); /* opencl and cpu at least; cuda when compiled in */
}
END_TEST

int main(void) {
  Suite *s = suite_create("core");
  TCase *host = tcase_create("host");
  tcase_add_test(host, status_names);
  tcase_add_test(host, rule_parsing);
  tcase_add_test(host, domain_parsing);
  tcase_add_test(host, cpu_context);
  tcase_add_test(host, block_layout_limits);
  tcase_add_test(host, pbm_reader);
  tcase_add_test(host, backend_tables_complete);
  suite_add_tcase(s, host);
  return sqz_test_run(s);
}
