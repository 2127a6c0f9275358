/* test_runtime.c — OpenCL runtime: device selection, build failures, program cache, buffers, devices. */
/* labels: opencl */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/opencl/cl_internal.h"
#include "sqz_test.h"

START_TEST(opencl_device_selection) {
  sqz_context *ctx = sqz_test_context("opencl");
  char name[256];
  snprintf(name, sizeof name, "%s", sqz_context_device_name(ctx));
  sqz_context_release(ctx);
  /* by index, and by a lower-cased substring of the name */
  ck_assert_int_eq(sqz_context_create("opencl", "0:0", &ctx), SQZ_OK);
  sqz_context_release(ctx);
  char sub[4] = {0};
  for (int i = 0; i < 3 && name[i]; i++) sub[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
  ck_assert_int_eq(sqz_context_create("opencl", sub, &ctx), SQZ_OK);
  sqz_context_release(ctx);
  ck_assert_int_eq(sqz_context_create("opencl", "no-such-device-xyz", &ctx), SQZ_ERR_DEVICE_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "no-such-device-xyz"));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), name)); /* the list of devices */
  ck_assert_int_eq(sqz_context_create("opencl", "7:9", &ctx), SQZ_ERR_DEVICE_NOT_FOUND);
}
END_TEST

START_TEST(build_failure_keeps_log) {
  sqz_context *ctx = sqz_test_context("opencl");
  cl_program p = NULL;
  int st = sqz__program_source(ctx, "__kernel void broken(__global int *a) { a[0] = undefined_symbol_q; }\n",
                               "-DSQZ_TEST_OPTION=1", &p);
  ck_assert_int_eq(st, SQZ_ERR_BUILD_FAILED);
  const char *d = sqz_last_error(ctx);
  ck_assert_ptr_nonnull(strstr(d, "undefined_symbol_q")); /* the compiler's log */
  ck_assert_ptr_nonnull(strstr(d, "SQZ_TEST_OPTION"));    /* the options */
  ck_assert_ptr_nonnull(strstr(d, sqz_context_device_name(ctx)));
  sqz_context_release(ctx);
}
END_TEST

static int sqz__count_files(const char *dir, const char *suffix) {
  char cmd[4300];
  snprintf(cmd, sizeof cmd, "ls %s 2>/dev/null | grep -c '%s$'", dir, suffix);
  FILE *p = popen(cmd, "r");
  int n = 0;
  if (p) {
    if (fscanf(p, "%d", &n) != 1) n = 0;
    pclose(p);
  }
  return n;
}

START_TEST(program_cache_and_dump) {
  char dir[] = "/tmp/sqz_cache_testXXXXXX", dump[] = "/tmp/sqz_dump_testXXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  ck_assert_ptr_nonnull(mkdtemp(dump));
  setenv("SQZ_CACHE_DIR", dir, 1);
  setenv("SQZ_DUMP_KERNELS", dump, 1);
  unsetenv("SQZ_NO_CACHE");
  const char *src = "__kernel void k(__global int *a) { a[get_global_id(0)] = 7; }\n";
  sqz_context *ctx = sqz_test_context("opencl");
  cl_program p1 = NULL, p2 = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz__program_source(ctx, src, "", &p1));
  SQZ_OK_OR_FAIL(ctx, sqz__program_source(ctx, src, "", &p2));
  ck_assert_ptr_eq(p1, p2); /* memory cache */
  ck_assert_int_eq(sqz__count_files(dir, ".bin"), 1);
  ck_assert_int_eq(sqz__count_files(dump, ".cl"), 1);
  sqz_context_release(ctx);
  /* a new context loads the binary from disk and the kernel still runs */
  ctx = sqz_test_context("opencl");
  SQZ_OK_OR_FAIL(ctx, sqz__program_source(ctx, src, "", &p1));
  cl_kernel k = NULL;
  cl_mem m = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz__kernel(ctx, p1, "k", &k));
  SQZ_OK_OR_FAIL(ctx, sqz__buffer(ctx, 64 * sizeof(int), CL_MEM_READ_WRITE, &m));
  SQZ_OK_OR_FAIL(ctx, sqz__args(ctx, k, sizeof(cl_mem), &m, (size_t)0));
  size_t g = 64, l = 16;
  sqz__op_begin(ctx);
  SQZ_OK_OR_FAIL(ctx, sqz__run(ctx, k, 1, &g, &l));
  SQZ_OK_OR_FAIL(ctx, sqz__finish(ctx));
  sqz__op_end(ctx);
  double ks = -1, ws = -1;
  sqz_context_timing(ctx, &ks, &ws);
  ck_assert(ks > 0 && ws >= ks);
  int out[64];
  ck_assert_int_eq(clEnqueueReadBuffer(SQZ_CL(ctx)->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 0; i < 64; i++) ck_assert_int_eq(out[i], 7);
  /* different options: a second cache entry */
  SQZ_OK_OR_FAIL(ctx, sqz__program_source(ctx, src, "-DOTHER=1", &p2));
  ck_assert_int_eq(sqz__count_files(dir, ".bin"), 2);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  sqz_context_release(ctx);
  /* SQZ_NO_CACHE: nothing new written */
  setenv("SQZ_NO_CACHE", "1", 1);
  ctx = sqz_test_context("opencl");
  SQZ_OK_OR_FAIL(ctx, sqz__program_source(ctx, src, "-DTHIRD=1", &p1));
  ck_assert_int_eq(sqz__count_files(dir, ".bin"), 2);
  sqz_context_release(ctx);
  unsetenv("SQZ_NO_CACHE");
  unsetenv("SQZ_DUMP_KERNELS");
}
END_TEST

START_TEST(allocation_beyond_max) {
  sqz_context *ctx = sqz_test_context("opencl");
  cl_mem m = NULL;
  uint64_t want = sqz_context_max_alloc(ctx) + 1;
  ck_assert_int_eq(sqz__buffer(ctx, want, CL_MEM_READ_WRITE, &m), SQZ_ERR_TOO_LARGE);
  ck_assert_ptr_null(m);
  char needed[64];
  snprintf(needed, sizeof needed, "%llu", (unsigned long long)want);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), needed));
  snprintf(needed, sizeof needed, "%llu", (unsigned long long)sqz_context_max_alloc(ctx));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), needed));
  sqz_context_release(ctx);
}
END_TEST

/* Zeroing: a fill of the first 2^30 bytes, the rest copied from it (NVIDIA's fills fail past
 * byte 2^31). Buffers of odd sizes, below and past one piece, with every byte set beforehand. The
 * bytes go through a host buffer of 64 MiB: a host copy of the whole buffer doubled the test's
 * memory (4.3 GB resident for the buffer of 2^31 + 12345 bytes, beside a concurrent test). */
START_TEST(zero_buffer_pieces) {
  sqz_context *ctx = sqz_test_context("opencl");
  const uint64_t sizes[] = {1, 4099, ((uint64_t)1 << 30) + 4097, ((uint64_t)1 << 31) + 12345};
  const uint64_t chunk = (uint64_t)64 << 20;
  unsigned char *h = malloc((size_t)chunk);
  ck_assert_ptr_nonnull(h);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    uint64_t bytes = sizes[s];
    if (bytes > sqz_context_max_alloc(ctx) || 2 * bytes > sqz_context_global_mem(ctx)) continue;
    cl_mem m = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz__buffer(ctx, bytes, CL_MEM_READ_WRITE, &m));
    memset(h, 0xa5, (size_t)chunk);
    for (uint64_t at = 0; at < bytes; at += chunk) {
      size_t len = (size_t)(bytes - at < chunk ? bytes - at : chunk);
      ck_assert_int_eq(clEnqueueWriteBuffer(SQZ_CL(ctx)->queue, m, CL_TRUE, (size_t)at, len, h, 0, NULL, NULL), CL_SUCCESS);
    }
    SQZ_OK_OR_FAIL(ctx, sqz__zero_buffer(ctx, m, bytes));
    for (uint64_t at = 0; at < bytes; at += chunk) {
      size_t len = (size_t)(bytes - at < chunk ? bytes - at : chunk), i = 0;
      ck_assert_int_eq(clEnqueueReadBuffer(SQZ_CL(ctx)->queue, m, CL_TRUE, (size_t)at, len, h, 0, NULL, NULL), CL_SUCCESS);
      while (i < len && h[i] == 0) i++;
      ck_assert_msg(i == len, "buffer of %llu bytes: byte %llu is %u after zeroing", (unsigned long long)bytes,
                    (unsigned long long)(at + i), h[i]);
    }
    clReleaseMemObject(m);
  }
  free(h);
  sqz_context_release(ctx);
}
END_TEST

START_TEST(device_list) {
  sqz_device_list *l = NULL;
  ck_assert_int_eq(sqz_device_list_create(&l), SQZ_OK);
  size_t n = sqz_device_list_count(l), opencl = 0, cpu = 0;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), "opencl") == 0) {
      opencl++;
      ck_assert_uint_gt(sqz_device_list_u64(l, i, SQZ_DEVICE_MAX_ALLOC), 0);
      ck_assert_ptr_nonnull(strstr(sqz_device_list_str(l, i, SQZ_DEVICE_C_VERSION), "OpenCL C"));
    }
    if (strcmp(sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), "cpu") == 0) cpu++;
  }
  ck_assert_uint_ge(opencl, 1);
  ck_assert_uint_eq(cpu, 1);
  sqz_device_list_release(l);
}
END_TEST

int main(void) {
  Suite *s = suite_create("runtime");
  TCase *dev = tcase_create("opencl");
  tcase_add_test(dev, opencl_device_selection);
  tcase_add_test(dev, build_failure_keeps_log);
  tcase_add_test(dev, program_cache_and_dump);
  tcase_add_test(dev, allocation_beyond_max);
  tcase_add_test(dev, zero_buffer_pieces);
  tcase_add_test(dev, device_list);
  suite_add_tcase(s, dev);
  return sqz_test_run(s);
}
