/* fuzz_points.c — the points file of `sqz edm` (tools/cmd_edm.c, compiled in here to reach its static reader):
 * one "x y" pair of finite numbers per line, '#' comments, blank lines. An accepted file gives at least one
 * point, every coordinate finite and within float range; a refused one allocates nothing. */
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
  } else {
    SQZ_FUZZ_CHECK(xy == NULL);
  }
  free(xy);
  return 0;
}
