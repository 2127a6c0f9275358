/* test_cache.c — the on-disk program cache: damaged, foreign and garbage files are detected, removed and rebuilt. */
/* labels: opencl */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/opencl/cl_internal.h"
#include "sqz_test.h"

static const char *const src_seven = "__kernel void k(__global int *a) { a[get_global_id(0)] = 7; }\n";
static const char *const src_nine = "__kernel void k(__global int *a) { a[get_global_id(0)] = 9; }\n";

/* A fresh cache directory in $SQZ_CACHE_DIR (set before any context exists). */
static void fresh_cache(char *dir) {
  ck_assert_ptr_nonnull(mkdtemp(dir));
  setenv("SQZ_CACHE_DIR", dir, 1);
  unsetenv("SQZ_NO_CACHE");
  unsetenv("SQZ_DUMP_KERNELS");
}

/* Builds src in a new context (from the disk cache when it holds it), runs kernel k over 16 ints and
 * returns what it wrote (asserting every element agrees). */
static int build_and_run(const char *src) {
  sqz_context *ctx = sqz_test_context("opencl");
  cl_program p = NULL;
  cl_kernel k = NULL;
  cl_mem m = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz__program_source(ctx, src, "", &p));
  SQZ_OK_OR_FAIL(ctx, sqz__kernel(ctx, p, "k", &k));
  SQZ_OK_OR_FAIL(ctx, sqz__buffer(ctx, 16 * sizeof(int), CL_MEM_READ_WRITE, &m));
  SQZ_OK_OR_FAIL(ctx, sqz__args(ctx, k, sizeof(cl_mem), &m, (size_t)0));
  size_t g = 16, l = 16;
  sqz__op_begin(ctx);
  SQZ_OK_OR_FAIL(ctx, sqz__run(ctx, k, 1, &g, &l));
  SQZ_OK_OR_FAIL(ctx, sqz__finish(ctx));
  sqz__op_end(ctx);
  int out[16];
  ck_assert_int_eq(clEnqueueReadBuffer(SQZ_CL(ctx)->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  for (int i = 1; i < 16; i++) ck_assert_int_eq(out[i], out[0]);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  sqz_context_release(ctx);
  return out[0];
}

/* The one .bin file in dir whose name is not `except` (NULL: none excluded), as a full path. */
static void cache_file(const char *dir, const char *except, char *path, size_t len) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int found = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 4, ".bin") != 0) continue;
    char full[4200];
    snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    if (except && strcmp(full, except) == 0) continue;
    snprintf(path, len, "%s", full);
    found++;
  }
  closedir(d);
  ck_assert_int_eq(found, 1);
}

/* Removes the cache directory and the files in it. */
static void drop_cache(const char *dir) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char full[4200];
    snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    ck_assert_int_eq(unlink(full), 0);
  }
  closedir(d);
  ck_assert_int_eq(rmdir(dir), 0);
}

static long file_size(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  ck_assert(in && out);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;) ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
  fclose(in);
  ck_assert_int_eq(fclose(out), 0);
}

/* A fresh cache holding the binary of src_seven: its directory, its file and the file's size. */
static long seven_cached(char *dir, char *path, size_t len) {
  fresh_cache(dir);
  ck_assert_int_eq(build_and_run(src_seven), 7);
  cache_file(dir, NULL, path, len);
  long size = file_size(path);
  ck_assert_int_gt(size, 64);
  return size;
}

/* One byte cut from a cached binary: the next build notices, rebuilds, and rewrites the file whole. */
START_TEST(truncated_file_is_rebuilt) {
  char dir[] = "/tmp/sqz_cache_truncXXXXXX", path[4200];
  long size = seven_cached(dir, path, sizeof path);
  ck_assert_int_eq(truncate(path, size - 1), 0);
  ck_assert_int_eq(build_and_run(src_seven), 7);
  long again = file_size(path); /* removed and written again whole (a driver may store more the second time) */
  ck_assert_msg(again != size - 1 && again > 64, "cache file is %ld bytes after the rebuild (was %ld, cut to %ld)", again,
                size, size - 1);
  ck_assert_int_eq(build_and_run(src_seven), 7); /* and the new file loads */
  drop_cache(dir);
}
END_TEST

/* A valid cache file of another key copied over this key's file: detected, not run. */
START_TEST(foreign_file_is_rebuilt) {
  char dir[] = "/tmp/sqz_cache_foreignXXXXXX", seven[4200], nine[4200];
  seven_cached(dir, seven, sizeof seven);
  ck_assert_int_eq(build_and_run(src_nine), 9);
  cache_file(dir, seven, nine, sizeof nine);
  copy_file(seven, nine);
  ck_assert_int_eq(build_and_run(src_nine), 9);
  ck_assert_int_eq(build_and_run(src_seven), 7);
  drop_cache(dir);
}
END_TEST

/* A file of garbage (no header, or a header with a corrupt payload) under the right name. */
START_TEST(garbage_file_is_rebuilt) {
  char dir[] = "/tmp/sqz_cache_garbageXXXXXX", path[4200];
  long size = seven_cached(dir, path, sizeof path);
  /* the file's first 64 bytes (what a driver recognises as its binary), then garbage of the same size */
  FILE *f = fopen(path, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, 64, SEEK_SET), 0);
  for (long i = 64; i < size; i++) fputc((int)((i * 131 + 17) & 0xff), f);
  ck_assert_int_eq(fclose(f), 0);
  ck_assert_int_eq(build_and_run(src_seven), 7);
  ck_assert_int_eq(file_size(path), size);
  /* the right length and header, one payload byte flipped */
  f = fopen(path, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, size - 10, SEEK_SET), 0);
  int c = fgetc(f);
  ck_assert_int_eq(fseek(f, size - 10, SEEK_SET), 0);
  fputc(c ^ 0x5a, f);
  ck_assert_int_eq(fclose(f), 0);
  ck_assert_int_eq(build_and_run(src_seven), 7);
  ck_assert_int_eq(build_and_run(src_seven), 7);
  drop_cache(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("cache");
  tcase_add_test(tc, truncated_file_is_rebuilt);
  tcase_add_test(tc, foreign_file_is_rebuilt);
  tcase_add_test(tc, garbage_file_is_rebuilt);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
