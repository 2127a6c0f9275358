/* labels: opencl slow */
/* test_simplex_huge.c — coverage proof on triangle:65536, whose T(N) > 2^31 cells need 64-bit indices. */
#include <string.h>

#include "backends/opencl/cl_simplex.h"
#include "sqz_test.h"

/* One bit per cell of the compact layout (256 MiB) and a counter of repeated visits, with the
 * kernels' 64-bit index arithmetic (the 32-bit path is covered by test_simplex_device). The maps
 * whose block arithmetic differs (bb is the identity with the same index function as rec;
 * had-above would launch 4x the cells at this side, which is 2^16 + 1: had takes approach B). */
START_TEST(test_cover_beyond_2_31) {
  sqz_context *ctx = sqz_test_context("opencl");
  setenv("SQZ_INDEX64", "1", 1);
  const uint32_t n = 65537;
  ck_assert_uint_gt(sqz_tri(n), (uint64_t)1 << 31);
  const char *maps[] = {"ltm", "rb", "had", "rec", NULL};
  for (int m = 0; maps[m]; m++) {
    sqz_simplex_cover_result r;
    int st = sqz__simplex_cover(ctx, 2, n, maps[m], 16, SQZ_SL_COMPACT, 1, &r);
    ck_assert_msg(st == SQZ_OK, "%s: %s: %s", maps[m], sqz_status_name(st), sqz_last_error(ctx));
    ck_assert_msg(r.once == sqz_tri(n) && r.missing == 0 && r.extra == 0 && r.outside == 0,
                  "map %s: %llu cells once, %llu missing, %llu extra, %llu outside", maps[m],
                  (unsigned long long)r.once, (unsigned long long)r.missing, (unsigned long long)r.extra,
                  (unsigned long long)r.outside);
  }
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("simplex_huge");
  TCase *tc = tcase_create("huge");
  tcase_set_timeout(tc, 3600);
  tcase_add_test(tc, test_cover_beyond_2_31);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
