/* fuzz_rle.c — Golly RLE patterns (sqz__rle_parse, src/io/rle.h, the parser behind sqz_field_load_rle and
 * sqz_rle_info). A pattern is parsed or refused with "line L, column C: ..."; every live run it reports lies
 * inside the declared W x H, rows never go backwards, and parsing without a callback agrees. */
#include "fuzz_util.h"
#include "io/rle.h"

#ifndef SQZ_FUZZ_PARSE /* fuzz_cells.c includes this file with the .cells parser */
#define SQZ_FUZZ_PARSE sqz__rle_parse
#endif

typedef struct {
  uint64_t last_y, live;
  int any;
} runs_seen;

static int on_run(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n, unsigned state) {
  runs_seen *r = user;
  SQZ_FUZZ_CHECK(n >= 1 && state >= 1 && state <= 255);
  SQZ_FUZZ_CHECK(y < h->height && x < h->width && n <= h->width - x);
  SQZ_FUZZ_CHECK(!r->any || y >= r->last_y);
  r->any = 1;
  r->last_y = y;
  r->live += n;
  return 0;
}

static int stop_at_first(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n, unsigned state) {
  (void)user, (void)h, (void)x, (void)y, (void)n, (void)state;
  return 77;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size ? size : 1); /* exactly the input, no terminator: ASan sees any read past the end */
  if (!buf) abort();
  if (size) memcpy(buf, data, size);
  sqz_rle_header h, h2;
  runs_seen seen = {0, 0, 0};
  char err[256];
  int st = SQZ_FUZZ_PARSE(buf, size, &h, on_run, &seen, err, sizeof err);
  SQZ_FUZZ_CHECK(st == SQZ_OK || st == SQZ_ERR_PARSE);
  if (st != SQZ_OK) SQZ_FUZZ_CHECK(strncmp(err, "line ", 5) == 0);
  else {
    SQZ_FUZZ_CHECK(h.width <= INT64_MAX && h.height <= INT64_MAX);
    SQZ_FUZZ_CHECK(memchr(h.rule, 0, sizeof h.rule) != NULL);
    if (h.width && h.height && h.height <= UINT64_MAX / h.width) SQZ_FUZZ_CHECK(seen.live <= h.width * h.height);
  }
  /* header and syntax only: the same verdict */
  SQZ_FUZZ_CHECK(SQZ_FUZZ_PARSE(buf, size, &h2, NULL, NULL, NULL, 0) == st);
  /* a callback's non-zero return stops the parse with that value */
  int st3 = SQZ_FUZZ_PARSE(buf, size, &h2, stop_at_first, NULL, NULL, 0);
  if (st == SQZ_OK) SQZ_FUZZ_CHECK(st3 == (seen.any ? 77 : SQZ_OK));
  free(buf);
  return 0;
}
