/* test_options.c — the table of tuning options: read from the environment once per context, set and read by the API per context and per field, bad values refused naming the option and its range, and docs/OPTIONS.md listing exactly the table's options. */
/* labels: host opencl */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_test.h"

/* The value of option name on ctx ("" for the default). */
static const char *get(sqz_context *ctx, const char *name) {
  static char buf[256];
  ck_assert_int_eq(sqz_context_get_option(ctx, name, buf, sizeof buf), SQZ_OK);
  return buf;
}

/* st is SQZ_ERR_INVALID_ARGUMENT and the detail holds both parts. */
static void refused(sqz_context *ctx, int st, const char *part1, const char *part2) {
  const char *detail = sqz_last_error(ctx);
  ck_assert_int_eq(st, SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(detail, part1) && strstr(detail, part2), "'%s' lacks '%s' or '%s'", detail, part1, part2);
}

START_TEST(test_table) {
  static const char *const scopes[] = {"field", "context", "creation", "process"};
  ck_assert_uint_ge(sqz_option_count(), 25);
  ck_assert_ptr_null(sqz_option_at(sqz_option_count()));
  for (size_t i = 0; i < sqz_option_count(); i++) {
    const sqz_option_info *o = sqz_option_at(i);
    ck_assert(*o->name && *o->type && *o->range && *o->def && *o->help && *o->layer);
    int scope = 0;
    for (size_t k = 0; k < 4; k++) scope |= strcmp(o->scope, scopes[k]) == 0;
    ck_assert_msg(scope, "%s: scope %s", o->name, o->scope);
    for (size_t k = 0; k < i; k++) ck_assert_str_ne(o->name, sqz_option_at(k)->name);
  }
  ck_assert_int_eq(sqz_option_check("temporal", "8"), SQZ_OK);
  refused(NULL, sqz_option_check("temporal", "9"), "option temporal='9'", "1..8");
  refused(NULL, sqz_option_check("swar_word", "16"), "swar_word", "8|32|64");
  refused(NULL, sqz_option_check("sync", "yes"), "sync", "0|1");
  refused(NULL, sqz_option_check("max_alloc", "2Gi"), "max_alloc", "powers of 1024");
  refused(NULL, sqz_option_check("tempora", "1"), "unknown option 'tempora'", "temporal");
}
END_TEST

/* SQZ_<NAME> is read when a context is created, not afterwards; a bad value refuses the context. */
START_TEST(test_environment) {
  setenv("SQZ_TEMPORAL", "3", 1);
  setenv("SQZ_MAX_ALLOC", "512K", 1);
  sqz_context *ctx = sqz_test_context("cpu");
  unsetenv("SQZ_TEMPORAL");
  unsetenv("SQZ_MAX_ALLOC");
  ck_assert_str_eq(get(ctx, "temporal"), "3");
  ck_assert_str_eq(get(ctx, "max_alloc"), "512K");
  ck_assert_str_eq(get(ctx, "engine"), "");
  sqz_context *fresh = sqz_test_context("cpu");
  ck_assert_str_eq(get(fresh, "temporal"), "");
  sqz_context_release(fresh);
  sqz_context_release(ctx);
  setenv("SQZ_TEMPORAL", "0", 1);
  sqz_context *bad = NULL;
  refused(NULL, sqz_context_create("cpu", NULL, &bad), "SQZ_TEMPORAL='0'", "1..8");
  ck_assert_ptr_null(bad);
  unsetenv("SQZ_TEMPORAL");
  setenv("SQZ_FAULT_ALLOC", "not a number", 1); /* process-wide, read by its own hook: not a context's */
  ck_assert_int_eq(sqz_context_create("cpu", NULL, &bad), SQZ_OK);
  unsetenv("SQZ_FAULT_ALLOC");
  ck_assert_str_eq(sqz_option_env("temporal") ? "set" : "unset", "unset");
  sqz_context_release(bad);
}
END_TEST

/* sqz_context_create_opts over the environment, then set and get; the scopes. */
START_TEST(test_api) {
  const char *const opts[] = {"backend=cpu", "temporal=2", "engine=generic", NULL};
  setenv("SQZ_TEMPORAL", "5", 1);
  sqz_context *ctx = NULL;
  ck_assert_int_eq(sqz_context_create_opts(NULL, NULL, opts, &ctx), SQZ_OK);
  unsetenv("SQZ_TEMPORAL");
  ck_assert_str_eq(sqz_context_backend(ctx), "cpu");
  ck_assert_str_eq(get(ctx, "temporal"), "2");
  ck_assert_str_eq(get(ctx, "engine"), "generic");
  ck_assert_int_eq(sqz_context_set_option(ctx, "temporal", "4"), SQZ_OK);
  ck_assert_str_eq(get(ctx, "temporal"), "4");
  ck_assert_int_eq(sqz_context_set_option(ctx, "temporal", NULL), SQZ_OK);
  ck_assert_str_eq(get(ctx, "temporal"), "");
  refused(ctx, sqz_context_set_option(ctx, "temporal", "4x"), "option temporal='4x'", "1..8");
  refused(ctx, sqz_context_set_option(ctx, "nope", "1"), "unknown option 'nope'", "exchange_steps");
  refused(ctx, sqz_context_set_option(ctx, "device", "0:0"), "device", "created");
  refused(ctx, sqz_context_set_option(ctx, "fault_alloc", "3"), "fault_alloc", "once per process");
  char small[4];
  refused(ctx, sqz_context_get_option(ctx, "engine", small, sizeof small), "engine", "8 bytes");
  refused(ctx, sqz_context_get_option(ctx, "nope", small, sizeof small), "unknown option 'nope'", "temporal");
  sqz_context_release(ctx);
  const char *const bad[] = {"temporal", NULL};
  refused(NULL, sqz_context_create_opts("cpu", NULL, bad, &ctx), "'temporal'", "NAME=VALUE");
  const char *const worse[] = {"overlap=2", NULL};
  refused(NULL, sqz_context_create_opts("cpu", NULL, worse, &ctx), "option overlap='2'", "0|1");
}
END_TEST

/* A field's override: engine=generic on one field runs the generic kernels there alone, with the same states. */
START_TEST(test_field_override) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_field *f[2] = {sqz_test_field(ctx, "fractal:sierpinski-triangle:6", SQZ_U8, "compact"),
                     sqz_test_field(ctx, "fractal:sierpinski-triangle:6", SQZ_U8, "compact")};
  refused(ctx, sqz_field_set_option(f[1], "swar_word", "8"), "swar_word", "scope context");
  ck_assert_int_eq(sqz_field_set_option(f[1], "engine", "generic"), SQZ_OK);
  unsigned char got[2][4096];
  for (int i = 0; i < 2; i++) {
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f[i], 0.4, 7));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(f[i], "B3/S23", 5));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(f[i], got[i], sizeof got[i])); /* the embedded 64 x 64 array */
  }
  ck_assert_mem_eq(got[0], got[1], sizeof got[0]);
  ck_assert_ptr_null(strstr(sqz_field_engine(f[0], NULL), "generic"));
  ck_assert_ptr_nonnull(strstr(sqz_field_engine(f[1], NULL), "generic"));
  ck_assert_int_eq(sqz_field_set_option(f[1], "engine", NULL), SQZ_OK); /* the context's again */
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f[1], "B3/S23", 1));
  ck_assert_ptr_null(strstr(sqz_field_engine(f[1], NULL), "generic"));
  sqz_test_option(ctx, "engine", "generic"); /* the context's: every field without an override */
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f[0], "B3/S23", 1));
  ck_assert_ptr_nonnull(strstr(sqz_field_engine(f[0], NULL), "generic"));
  sqz_test_drop(f[0]);
  sqz_test_drop(f[1]);
  sqz_context_release(ctx);
}
END_TEST

/* docs/OPTIONS.md has a table row "| `name` |" for every option of the table, and no other. */
START_TEST(test_documented) {
  FILE *fp = fopen(SQZ_TEST_DATA "/../../docs/OPTIONS.md", "r");
  ck_assert_ptr_nonnull(fp);
  char line[2048];
  size_t rows = 0;
  int seen[256] = {0};
  while (fgets(line, sizeof line, fp)) {
    if (strncmp(line, "| `", 3) != 0) continue;
    size_t len = strcspn(line + 3, "`"), i = 0;
    while (i < sqz_option_count() && !(strlen(sqz_option_at(i)->name) == len && !strncmp(line + 3, sqz_option_at(i)->name, len)))
      i++;
    ck_assert_msg(i < sqz_option_count(), "docs/OPTIONS.md documents '%.*s', which is not in the table", (int)len, line + 3);
    seen[i]++;
    rows++;
  }
  fclose(fp);
  for (size_t i = 0; i < sqz_option_count(); i++)
    ck_assert_msg(seen[i] == 1, "docs/OPTIONS.md has %d rows for option %s (sqz help options --markdown)", seen[i],
                  sqz_option_at(i)->name);
  ck_assert_uint_eq(rows, sqz_option_count());
}
END_TEST

int main(void) {
  Suite *s = suite_create("options");
  TCase *tc = sqz_test_tcase(s, "options", 300);
  tcase_add_test(tc, test_table);
  tcase_add_test(tc, test_environment);
  tcase_add_test(tc, test_api);
  tcase_add_test(tc, test_field_override);
  tcase_add_test(tc, test_documented);
  return sqz_test_run(s);
}
