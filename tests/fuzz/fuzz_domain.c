/* fuzz_domain.c — domain specs (sqz_domain_parse without a context, as `sqz info` and the CLI's checks use it):
 * any string is parsed or refused; an accepted domain has a canonical spec that parses to the same domain, sane
 * sizes, and answers its layout and (small simplices) map queries. */
#include "fuzz_util.h"
#include "sqz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *spec = sqz_fuzz_cstr(data, size);
  sqz_domain *d = NULL;
  int st = sqz_domain_parse(NULL, spec, &d);
  SQZ_FUZZ_CHECK((st == SQZ_OK) == (d != NULL));
  if (st != SQZ_OK) SQZ_FUZZ_CHECK(sqz_last_error(NULL) != NULL && *sqz_last_error(NULL));
  if (d) {
    int dims = sqz_domain_dims(d);
    uint64_t side = sqz_domain_side(d), cells = sqz_domain_cells(d);
    SQZ_FUZZ_CHECK(dims == 2 || dims == 3);
    SQZ_FUZZ_CHECK(side >= 1 && cells >= 1);
    SQZ_FUZZ_CHECK(dims == 3 || cells / side <= side); /* cells <= side^2 */
    /* the canonical spec names the same domain */
    sqz_domain *again = NULL;
    SQZ_FUZZ_CHECK(sqz_domain_parse(NULL, sqz_domain_spec(d), &again) == SQZ_OK);
    SQZ_FUZZ_CHECK(sqz_domain_cells(again) == cells && sqz_domain_side(again) == side);
    SQZ_FUZZ_CHECK(strcmp(sqz_domain_spec(again), sqz_domain_spec(d)) == 0);
    sqz_domain_release(again);
    /* corners and the origin: the origin is always a cell for simplices */
    int origin = sqz_domain_contains(d, 0, 0, 0);
    (void)sqz_domain_contains(d, side - 1, side - 1, side - 1);
    (void)sqz_domain_contains(d, side, 0, 0);
    int s = 0, k = 0, r = 0;
    int fractal = sqz_domain_fractal_params(d, &s, &k, &r) == SQZ_OK;
    if (!fractal) SQZ_FUZZ_CHECK(origin);
    if (fractal) SQZ_FUZZ_CHECK(s >= 1 && k >= 1 && k <= s * s && r >= 0);
    /* storage sizes of every layout (block sides 1, s, s^2 and an odd one) */
    const char *layouts[] = {"bb", "compact", "lambda", "block:1", "block:2", "block:3", "block:4", "block:9", "block:7"};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
      uint64_t n = 0;
      if (sqz_domain_layout_cells(d, layouts[i], &n) == SQZ_OK) SQZ_FUZZ_CHECK(n >= cells); /* every cell has a place */
    }
    uint64_t bb = 0;
    if (sqz_domain_layout_cells(d, "bb", &bb) == SQZ_OK) SQZ_FUZZ_CHECK(bb >= cells);
    /* launch statistics of every map on small simplices (a plan is built per call) */
    if (!fractal && side <= 4096)
      for (size_t m = 0; m < sqz_map_count(); m++) {
        uint32_t rho = 0;
        uint64_t launches = 0, launched = 0, useful = 0;
        if (sqz_domain_map_stats(d, sqz_map_name(m), 0, &rho, &launches, &launched, &useful) == SQZ_OK) {
          SQZ_FUZZ_CHECK(useful == cells);
          SQZ_FUZZ_CHECK(launched >= useful);
        }
      }
    sqz_domain_release(d);
  }
  free(spec);
  return 0;
}
