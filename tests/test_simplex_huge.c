/* labels: opencl */
/* test_simplex_huge.c — coverage proof on triangle:65537, whose T(N) > 2^31 cells need 64-bit indices. */
#include <stdio.h>
#include <string.h>

#include "backends/opencl/cl_simplex.h"
#include "sqz_test.h"

/* One bit per cell of the compact layout (256 MiB) and a counter of repeated visits, with the kernels' 64-bit index
 * arithmetic (the 32-bit path, and every map on the whole domain, are covered by test_simplex_device). Each map whose
 * block arithmetic differs (bb is the identity with the same index function as rec; had takes approach B here:
 * had-above would launch 4x the cells at this side, which is 2^16 + 1) runs the work-groups of its plan that reach
 * the last 64 rows, picked on the host with the kernels' sqz_sblock2: these rows hold every storage index from
 * 2^31 - 1,998,911 to the end (T(N) = 2^31 + 98,305), and each of their cells must be visited once, with no cell of
 * the domain visited twice and no index beyond it. About 5 million work-items a map instead of 2^31: 5 s of one core
 * on PoCL (kernel build included) instead of 124 s for the four whole plans, with the same index paths. */
START_TEST(test_cover_beyond_2_31) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_test_option(ctx, "index64", "1");
  const uint32_t n = 65537, y0 = n - 64;
  ck_assert_uint_gt(sqz_tri(n), (uint64_t)1 << 31);
  /* the band crosses index 2^31: its first row starts below, its last cells lie beyond */
  ck_assert_uint_lt(sqz_tri_index(SQZ_SL_COMPACT, n, 0, y0), ((uint64_t)1 << 31) - 1900000u);
  ck_assert_uint_gt(sqz_tri_index(SQZ_SL_COMPACT, n, 0, n - 1), (uint64_t)1 << 31);
  sqz_simplex_cover_result r;
  uint64_t band = sqz_tri(n) - sqz_tri(y0);
  const char *maps[] = {"ltm", "rb", "had", "rec", NULL};
  for (int m = 0; maps[m]; m++) {
    int st = sqz__simplex_cover_band(ctx, n, maps[m], 16, y0, &r);
    ck_assert_msg(st == SQZ_OK, "%s: %s: %s", maps[m], sqz_status_name(st), sqz_last_error(ctx));
    /* `once` counts every cell visited: the band's and the rest of the blocks that reach into it */
    ck_assert_msg(r.missing == 0 && r.extra == 0 && r.outside == 0 && r.once >= band && r.launched >= band &&
                      r.launched < sqz_tri(n) / 8u,
                  "map %s: %llu band cells missing, %llu extra visits, %llu outside, %llu cells once, %llu launched "
                  "for a band of %llu",
                  maps[m], (unsigned long long)r.missing, (unsigned long long)r.extra, (unsigned long long)r.outside,
                  (unsigned long long)r.once, (unsigned long long)r.launched, (unsigned long long)band);
    printf("%s: band of %llu cells, %llu launched, %llu visited\n", maps[m], (unsigned long long)band,
           (unsigned long long)r.launched, (unsigned long long)r.once);
  }
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("simplex_huge");
  TCase *tc = tcase_create("huge");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_cover_beyond_2_31);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
