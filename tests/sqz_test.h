/* sqz_test.h — helpers shared by the Check test programs (contexts, fixtures, data files). */
#ifndef SQZ_TEST_H
#define SQZ_TEST_H
#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "sqz.h"

/* Opens a context on the backend ("opencl" or "cpu"), failing the test (never skipping) when it
 * cannot: OpenCL tests must really run on a device. */
sqz_context *sqz_test_context(const char *backend);
/* Sets option name of ctx (value NULL: back to its default; sqz_context_set_option), failing the test when refused. */
void sqz_test_option(sqz_context *ctx, const char *name, const char *value);
/* A new case of s with a timeout in seconds: with a "ctest cases" line naming it, its own ctest
 * entry (CK_RUN_CASE=name runs it alone). */
TCase *sqz_test_tcase(Suite *s, const char *name, int timeout_s);
/* Runs a suite with CK_NORMAL output and returns the process exit status. */
int sqz_test_run(Suite *s);
/* Path of a data file under tests/data (static buffer). */
const char *sqz_test_data(const char *name);
/* A SQZ_U8/I32/F32/F64 field on a new domain of spec, in layout (asserting success);
 * sqz_test_drop releases the field and then its domain. */
sqz_field *sqz_test_field(sqz_context *ctx, const char *spec, sqz_type type, const char *layout);
void sqz_test_drop(sqz_field *field);
/* Removes a file, or a folder with everything in it (links are removed, not followed). */
void sqz_test_remove_tree(const char *path);
/* Writes len bytes to path (created or truncated), asserting success. */
void sqz_test_write(const char *path, const void *data, size_t len);
/* The field's domain (the API has no getter: the caller made it). */
sqz_domain *sqz_test_domain(const sqz_field *field);
/* Creates a context of backend, a domain and a field on them, steps Life, and releases the three
 * in each of the 6 orders, stepping and counting the field after every release that leaves it
 * (a use after free shows under ASan and valgrind); the counts must match a reference run. */
void sqz_test_release_orders(const char *backend, const char *spec, const char *layout);
/* Asserts st == SQZ_OK and prints the context's detail when not. */
#define SQZ_OK_OR_FAIL(ctx, expr)                                                                  \
  do {                                                                                             \
    int sqz_t_st_ = (expr);                                                                        \
    ck_assert_msg(sqz_t_st_ == SQZ_OK, "%s -> %s: %s", #expr, sqz_status_name(sqz_t_st_),          \
                  sqz_last_error(ctx));                                                            \
  } while (0)
#endif
