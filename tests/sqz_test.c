/* sqz_test.c — helpers shared by the Check test programs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sqz_internal.h"
#include "sqz_test.h"

sqz_context *sqz_test_context(const char *backend) {
  sqz_context *ctx = NULL;
  int st = sqz_context_create(backend, NULL, &ctx);
  ck_assert_msg(st == SQZ_OK, "cannot open the %s backend: %s: %s", backend, sqz_status_name(st), sqz_last_error(NULL));
  ck_assert_str_eq(sqz_context_backend(ctx), backend);
  return ctx;
}

int sqz_test_run(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

const char *sqz_test_data(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", SQZ_TEST_DATA, name);
  return path;
}

sqz_field *sqz_test_field(sqz_context *ctx, const char *spec, sqz_type type, const char *layout) {
  sqz_domain *d = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &d));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(d, type, layout, &f));
  return f;
}

void sqz_test_drop(sqz_field *f) {
  sqz_domain *d = f->dom;
  sqz_field_release(f);
  sqz_domain_release(d);
}

void sqz_test_remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (!S_ISDIR(st.st_mode)) {
    unlink(path);
    return;
  }
  DIR *d = opendir(path);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    sqz_test_remove_tree(sub);
  }
  if (d) closedir(d);
  rmdir(path);
}

void sqz_test_write(const char *path, const void *data, size_t len) {
  FILE *fp = fopen(path, "wb");
  ck_assert_msg(fp != NULL, "cannot create %s", path);
  ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
  ck_assert_int_eq(fclose(fp), 0);
}
