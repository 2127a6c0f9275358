/* fuzz_rule.c — Life rules (sqz_rule_parse, sqz_rule_parse_states): the first byte picks 2D or 3D, the rest is
 * the rule text. An accepted rule has counts within the neighbourhood (8 in 2D, 26 in 3D) and nothing else in the
 * masks, 2 to 256 states, and sqz_rule_parse takes exactly the rules of 2 states; a refusal says why. */
#include "fuzz_util.h"
#include "sqz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int dims = (data[0] & 1) ? 3 : 2;
  char *rule = sqz_fuzz_cstr(data + 1, size - 1);
  uint32_t birth = 0xdeadbeefu, survive = 0xdeadbeefu;
  char err[256] = "";
  int st = sqz_rule_parse(rule, dims, &birth, &survive, err, sizeof err);
  if (st == SQZ_OK) {
    uint32_t allowed = dims == 2 ? 0x1ffu : 0x7ffffffu; /* counts 0..8 or 0..26 */
    SQZ_FUZZ_CHECK((birth & ~allowed) == 0 && (survive & ~allowed) == 0);
  } else {
    SQZ_FUZZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof err) != NULL);
  }
  /* a NULL error buffer is allowed */
  SQZ_FUZZ_CHECK(sqz_rule_parse(rule, dims, &birth, &survive, NULL, 0) == st);
  uint32_t b2 = 0, s2 = 0, states = 0;
  int gst = sqz_rule_parse_states(rule, dims, &b2, &s2, &states, NULL, 0);
  SQZ_FUZZ_CHECK(gst == SQZ_OK ? states >= 2 && states <= 256 && (st == SQZ_OK) == (states == 2) : st == gst);
  SQZ_FUZZ_CHECK(st != SQZ_OK || (b2 == birth && s2 == survive));
  free(rule);
  return 0;
}
