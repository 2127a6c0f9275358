/* fuzz_cells.c — Golly plaintext patterns (sqz__cells_parse, src/io/rle.h, the parser behind sqz_field_load_cells),
 * with the properties of fuzz_rle.c: parsed or refused with "line L, column C: ...", live runs inside W x H, rows
 * never going backwards, the same verdict without a callback. */
#define SQZ_FUZZ_PARSE sqz__cells_parse
#include "fuzz_rle.c"
