/* sqz_test.c — helpers shared by the Check test programs. */
#include <stdio.h>
#include <stdlib.h>

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
