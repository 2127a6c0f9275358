/* fuzz_npy_header.c — .npy headers (sqz__npy_parse_header, src/io/npy.h). An input starting with 0x93 is a whole
 * file; any other input is the header dict, given a version 1.0 preamble with its length here (so text seeds
 * reach the dict parser). An accepted header has a known dtype, at most 32 dimensions and its data after the
 * header; formatting it again gives a header that parses to the same. */
#include "fuzz_util.h"
#include "io/npy.h"

static void check(const unsigned char *buf, size_t len) {
  sqz_npy_header h;
  char err[256];
  err[0] = 0;
  int st = sqz__npy_parse_header(buf, len, &h, err, sizeof err);
  SQZ_FUZZ_CHECK(st == SQZ_OK || st == SQZ_ERR_PARSE);
  SQZ_FUZZ_CHECK(memchr(err, 0, sizeof err) != NULL);
  SQZ_FUZZ_CHECK(sqz__npy_parse_header(buf, len, &h, NULL, 0) == st);
  if (st != SQZ_OK) {
    SQZ_FUZZ_CHECK(err[0] != 0);
    return;
  }
  SQZ_FUZZ_CHECK(h.type == SQZ_U8 || h.type == SQZ_I32 || h.type == SQZ_F32 || h.type == SQZ_F64);
  SQZ_FUZZ_CHECK(h.ndim >= 0 && h.ndim <= SQZ_NPY_MAX_DIMS);
  SQZ_FUZZ_CHECK(memchr(h.descr, 0, sizeof h.descr) != NULL);
  SQZ_FUZZ_CHECK(h.data_offset == sqz__npy_header_size(buf, len) && h.data_offset <= len);
  unsigned char again[65536 + SQZ_NPY_PREAMBLE + 64];
  size_t n = sqz__npy_format_header(h.type, h.ndim, h.shape, again, sizeof again);
  if (n) {
    sqz_npy_header h2;
    SQZ_FUZZ_CHECK(n % 64 == 0);
    SQZ_FUZZ_CHECK(sqz__npy_parse_header(again, n, &h2, NULL, 0) == SQZ_OK);
    SQZ_FUZZ_CHECK(h2.type == h.type && h2.ndim == h.ndim && h2.data_offset == n);
    SQZ_FUZZ_CHECK(memcmp(h2.shape, h.shape, sizeof h.shape) == 0);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 0 && data[0] == 0x93) {
    unsigned char *copy = malloc(size); /* exactly size bytes: ASan sees any read past the end */
    if (!copy) abort();
    memcpy(copy, data, size);
    check(copy, size);
    free(copy);
    return 0;
  }
  if (size > 65535) return 0;
  unsigned char *buf = malloc(SQZ_NPY_PREAMBLE + size);
  if (!buf) abort();
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)(size & 0xff);
  buf[9] = (unsigned char)(size >> 8);
  if (size) memcpy(buf + SQZ_NPY_PREAMBLE, data, size);
  check(buf, SQZ_NPY_PREAMBLE + size);
  free(buf);
  return 0;
}
