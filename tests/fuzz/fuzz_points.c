/* fuzz_points.c — the points file of `sqz edm` (tools/cmd_edm.c, compiled in here to reach its static reader):
 * one "x y" pair of finite numbers per line, '#' comments, blank lines. An accepted file gives at least one
 * point, every coordinate finite and within float range, and reads back the same from its points written with
 * %.9g; a refused one allocates nothing. */
#include <math.h>

#include "fuzz_util.h"

#include "cmd_edm.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = sqz_fuzz_file(data, size);
  float *xy = NULL;
  uint64_t n = 0;
  int rc = sqz__read_points(path, &xy, &n);
  SQZ_FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
  if (rc == 0) {
    SQZ_FUZZ_CHECK(n >= 1 && xy != NULL);
    for (uint64_t i = 0; i < 2 * n; i++) SQZ_FUZZ_CHECK(isfinite(xy[i]));
    /* the points written back with %.9g (exact for float) read as the same floats */
    char *text = malloc((size_t)n * 40 + 1), *at = text;
    if (!text) abort();
    for (uint64_t i = 0; i < n; i++) at += sprintf(at, "%.9g %.9g\n", xy[2 * i], xy[2 * i + 1]);
    float *again = NULL;
    uint64_t m = 0;
    SQZ_FUZZ_CHECK(sqz__read_points(sqz_fuzz_file((const uint8_t *)text, (size_t)(at - text)), &again, &m) == 0);
    SQZ_FUZZ_CHECK(m == n && memcmp(again, xy, (size_t)(2 * n) * sizeof *xy) == 0);
    free(again);
    free(text);
  } else {
    SQZ_FUZZ_CHECK(xy == NULL);
  }
  free(xy);
  return 0;
}
