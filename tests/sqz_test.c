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

void sqz_test_option(sqz_context *ctx, const char *name, const char *value) {
  int st = sqz_context_set_option(ctx, name, value);
  ck_assert_msg(st == SQZ_OK, "option %s=%s: %s", name, value ? value : "(default)", sqz_last_error(ctx));
}

TCase *sqz_test_tcase(Suite *s, const char *name, int timeout_s) {
  TCase *tc = tcase_create(name);
  tcase_set_timeout(tc, timeout_s);
  suite_add_tcase(s, tc);
  return tc;
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

sqz_domain *sqz_test_domain(const sqz_field *f) { return f->dom; }

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

/* A context, domain and field of spec/layout with a random u8 state (seed 11). */
static void sqz_test_make(const char *backend, const char *spec, const char *layout, sqz_context **ctx,
                          sqz_domain **dom, sqz_field **f) {
  *ctx = sqz_test_context(backend);
  SQZ_OK_OR_FAIL(*ctx, sqz_domain_parse(*ctx, spec, dom));
  SQZ_OK_OR_FAIL(*ctx, sqz_field_create(*dom, SQZ_U8, layout, f));
  SQZ_OK_OR_FAIL(*ctx, sqz_field_fill_random(*f, 0.4, 11));
}

void sqz_test_release_orders(const char *backend, const char *spec, const char *layout) {
  static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  uint64_t want[2] = {0, 0}; /* live cells after 3 and 6 steps */
  sqz_test_make(backend, spec, layout, &ctx, &dom, &f);
  for (int k = 0; k < 2; k++) {
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B3/S23", 3));
    SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &want[k]));
  }
  sqz_test_drop(f);
  sqz_context_release(ctx);
  for (int p = 0; p < 6; p++) { /* perms[p][i]: 0 the context, 1 the domain, 2 the field */
    sqz_test_make(backend, spec, layout, &ctx, &dom, &f);
    int stepped = 0;
    for (int i = 0; i < 3; i++) {
      if (perms[p][i] == 0) sqz_context_release(ctx);
      else if (perms[p][i] == 1) sqz_domain_release(dom);
      else sqz_field_release(f);
      if (perms[p][i] == 2) f = NULL;
      if (!f) continue;
      uint64_t live = 0; /* the field still works on what it holds */
      ck_assert_int_eq(sqz_life_step(f, "B3/S23", 3), SQZ_OK);
      ck_assert_int_eq(sqz_field_count(f, &live), SQZ_OK);
      ck_assert_msg(live == want[stepped], "order %d%d%d: %llu live cells after %d steps, expected %llu", perms[p][0],
                    perms[p][1], perms[p][2], (unsigned long long)live, 3 * (stepped + 1),
                    (unsigned long long)want[stepped]);
      stepped++;
    }
  }
}
