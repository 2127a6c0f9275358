/* fuzz_params.c — the user kernel's --param list of `sqz run` and `sqz bench` (sqz_cli_parse_params,
 * tools/cli_kernel.c): comma-separated finite numbers. An accepted list has one value per comma-separated item,
 * all finite, and the list written back with %.17g parses to the same values; a refused one allocates nothing. */
#include <math.h>

#include "fuzz_util.h"

#include "cli_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = sqz_fuzz_cstr(data, size);
  double *v = (double *)1;
  size_t n = 12345;
  int rc = sqz_cli_parse_params("run", text, &v, &n);
  SQZ_FUZZ_CHECK(rc == 0 || rc == 2); /* 1 (out of memory) only under SQZ_FAULT_ALLOC_CLI */
  if (rc == 0) {
    size_t items = 1;
    for (const char *p = text; *p; p++) items += *p == ',';
    SQZ_FUZZ_CHECK(n == items && v != NULL);
    for (size_t i = 0; i < n; i++) SQZ_FUZZ_CHECK(isfinite(v[i]));
    /* the values written back with %.17g parse to the same doubles */
    char *again = malloc(n * 32 + 1), *at = again;
    if (!again) abort();
    for (size_t i = 0; i < n; i++) at += sprintf(at, "%s%.17g", i ? "," : "", v[i]);
    double *w = NULL;
    size_t m = 0;
    SQZ_FUZZ_CHECK(sqz_cli_parse_params("run", again, &w, &m) == 0 && m == n);
    for (size_t i = 0; i < n; i++) SQZ_FUZZ_CHECK(w[i] == v[i]);
    free(w);
    free(again);
  } else {
    SQZ_FUZZ_CHECK(v == NULL && n == 0);
  }
  free(v);
  free(text);
  return 0;
}
