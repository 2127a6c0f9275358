/* rle.h — Golly RLE patterns (two states): a pure parser over a memory buffer, shared by the loader and fuzzers. */
#ifndef SQZ_RLE_H
#define SQZ_RLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/sqz_internal.h"

typedef struct {
  uint64_t width, height; /* the header's x = W, y = H (each at most INT64_MAX) */
  int64_t pos_x, pos_y;   /* "#CXRLE Pos=X,Y": where the pattern's top-left lies; (0, 0) when absent */
  char rule[SQZ_RLE_RULE_MAX]; /* the header's "rule = R" as written; "" when absent */
} sqz_rle_header;

/* One run of live cells: n cells from (x, y) to (x + n - 1, y) of the pattern, all inside the
 * declared W x H; h is complete (header and #CXRLE offset). A non-zero return stops the parse,
 * which returns that value. */
typedef int (*sqz_rle_run_fn)(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n);

/* Parses the RLE text buf[0, len) (no terminator needed; never reads outside it): '#' comment
 * lines (the line "#CXRLE ... Pos=X,Y ..." sets pos_x, pos_y), the header line
 * "x = W, y = H[, rule = R]" (spaces optional), then runs "[count]b", "[count]o", "[count]$" with
 * whitespace and newlines between them (and between a count and its tag), up to '!'; whatever
 * follows '!' is ignored. Dead runs may pass the declared width; live cells may not pass W x H.
 * Refused with SQZ_ERR_PARSE and err = "line L, column C: <what>": a missing or malformed header,
 * a malformed Pos, a count of 0 or one that overflows 64 bits, a count without a tag, a
 * multi-state cell (A..X, p..y, '.'), any other byte, live cells beyond W x H, a missing '!'.
 * run may be NULL (header and syntax only); err may be NULL. */
SQZ_INTERNAL int sqz__rle_parse(const char *buf, size_t len, sqz_rle_header *h, sqz_rle_run_fn run, void *user,
                                char *err, size_t errlen);

/* Only the comment lines and the header line of buf[0, len), into h, as sqz__rle_parse reads them (the
 * readers bound a file by its header before they have all of it). */
SQZ_INTERNAL int sqz__rle_parse_head(const char *buf, size_t len, sqz_rle_header *h, char *err, size_t errlen);

#endif /* SQZ_RLE_H */
