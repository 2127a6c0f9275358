/* rle.h — Golly patterns, RLE (multi-state too) and plaintext .cells (two states): pure parsers over memory buffers, shared by the loaders and fuzzers. */
#ifndef SQZ_RLE_H
#define SQZ_RLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/sqz_internal.h"
#include "io/image_rows.h"

typedef struct {
  uint64_t width, height; /* the header's x = W, y = H (each at most INT64_MAX) */
  int64_t pos_x, pos_y;   /* "#CXRLE Pos=X,Y" (.cells: "!Pos: X,Y"): where the top-left lies; (0, 0) when absent */
  char rule[SQZ_RLE_RULE_MAX]; /* the header's "rule = R" as written; "" when absent */
} sqz_rle_header;

/* One run of live cells of state `state` (1..255; 1 in two-state patterns): n cells from (x, y) to
 * (x + n - 1, y) of the pattern, all inside the declared W x H; h is complete (header and #CXRLE
 * offset). A non-zero return stops the parse, which returns that value. */
typedef int (*sqz_rle_run_fn)(void *user, const sqz_rle_header *h, uint64_t x, uint64_t y, uint64_t n,
                              unsigned state);

/* Parses the RLE text buf[0, len) (no terminator needed; never reads outside it): '#' comment
 * lines (the line "#CXRLE ... Pos=X,Y ..." sets pos_x, pos_y), the header line
 * "x = W, y = H[, rule = R]" (spaces optional), then runs "[count]TAG" and "[count]$" with
 * whitespace and newlines between them (and between a count and its tag), up to '!'; whatever
 * follows '!' is ignored. Tags as Golly writes them: b and '.' dead, o state 1, and for multi-state
 * (Generations) patterns A..X states 1..24, pA..pX 25..48, ... up to yO 255. Dead runs may pass
 * the declared width; live cells may not pass W x H.
 * Refused with SQZ_ERR_PARSE and err = "line L, column C: <what>": a missing or malformed header,
 * a malformed Pos, a count of 0 or one that overflows 64 bits, a count without a tag, a state
 * prefix p..y without its letter or above 255, any other byte, live cells beyond W x H, a missing '!'.
 * run may be NULL (header and syntax only); err may be NULL. */
SQZ_INTERNAL int sqz__rle_parse(const char *buf, size_t len, sqz_rle_header *h, sqz_rle_run_fn run, void *user,
                                char *err, size_t errlen);

/* Only the comment lines and the header line of buf[0, len), into h, as sqz__rle_parse reads them (the
 * readers bound a file by its header before they have all of it). */
SQZ_INTERNAL int sqz__rle_parse_head(const char *buf, size_t len, sqz_rle_header *h, char *err, size_t errlen);

/* Parses Golly's plaintext (.cells) text buf[0, len) with the contract of sqz__rle_parse: lines
 * starting with '!' are comments (the line "!Pos: X,Y", as sqz writes it, sets pos_x, pos_y),
 * every other line is a row of the pattern: '.' dead, 'O' or '*' alive, trailing dead cells left
 * out, blanks (' ', '\t', '\r') allowed after the last cell; an empty line is an empty row. The
 * header is computed: W the longest row, H the rows up to the last that is not empty; rule "".
 * run gets the live runs (h complete) in row order. Any other byte, or a malformed Pos, is
 * SQZ_ERR_PARSE with err = "line L, column C: <what>". */
SQZ_INTERNAL int sqz__cells_parse(const char *buf, size_t len, sqz_rle_header *h, sqz_rle_run_fn run, void *user,
                                  char *err, size_t errlen);

/* Either parser, for the loaders. */
typedef int (*sqz_pattern_parse_fn)(const char *buf, size_t len, sqz_rle_header *h, sqz_rle_run_fn run, void *user,
                                    char *err, size_t errlen);

/* ---- shared by rle.c and cells.c -------------------------------------------------------------- */
/* Loads the pattern file path through parse into f (2D, SQZ_U8; what: "RLE" or ".cells" for
 * messages) with its top-left at (at_x, at_y) + its Pos. clip 0: a live cell outside the domain or
 * on a hole is SQZ_ERR_OUTSIDE_DOMAIN; clip 1: such cells are dropped and counted in *clipped (may
 * be NULL), and SQZ_ERR_OUTSIDE_DOMAIN only when none is left. */
SQZ_INTERNAL int sqz__pattern_load(sqz_field *f, const char *path, const char *what, sqz_pattern_parse_fn parse,
                                   int64_t at_x, int64_t at_y, int clip, uint64_t *clipped);
/* Checks that f can hold a two-state pattern (SQZ_U8, 2D); what names the format. */
SQZ_INTERNAL int sqz__pattern_field(sqz_field *f, const char *path, const char *what);

/* Writers: the bounding box (x0, y0, x1, y1) of the live cells of the image; *any = 0 when none. */
SQZ_INTERNAL int sqz__pattern_bbox(sqz_image *im, uint64_t box[4], int *any);
/* Writers: image row y of a SQZ_U8 field as its cells' values into row (im->width bytes). */
SQZ_INTERNAL int sqz__pattern_row(sqz_image *im, uint64_t y, unsigned char *row);

#endif /* SQZ_RLE_H */
