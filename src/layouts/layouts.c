/* layouts.c — the registry's rows: the two domain families and every layout, each with its operations per family (storage, parts, I/O, fast paths); a new layout is one row here plus its storage and its kernels. */
#include "fractal/fractal_internal.h"
#include "layouts/bits/bits.h"
#include "simplex/simplex.h"

/* In the order of sqz_domain's family index (sqz__family_index). */
const sqz_family_ops *const sqz__families[2] = {&sqz__simplex_family, &sqz__fractal_family};

#define SQZ_SIMPLEX(parts, fast) {&sqz__simplex_storage, parts, fast}
#define SQZ_FRACTAL(parts, fast) {&sqz__fractal_storage, parts, fast}
#define SQZ_NONE {NULL, SQZ_PARTS_NONE, 0}

/* In the order of sqz_layout_id: the order the API and the CLI list them. */
const sqz_layout_row sqz__layouts[SQZ_LAYOUT_COUNT] = {
    [SQZ_LAYOUT_BB] = {.name = "bb",
                       .help = "bounding-box array, holes stored (the baseline)",
                       .on = {SQZ_SIMPLEX(SQZ_PARTS_BANDS, SQZ_FAST_ROWS), SQZ_FRACTAL(SQZ_PARTS_BANDS, 0)}},
    [SQZ_LAYOUT_LAMBDA] = {.name = "lambda",
                           .help = "embedded storage, launched over compact space through lambda",
                           .on = {SQZ_NONE, SQZ_FRACTAL(SQZ_PARTS_BANDS, 0)}},
    [SQZ_LAYOUT_BLOCK] = {.name = "block:RHO",
                          .help = "compact grid of RHO x RHO embedded tiles, RHO = s^j (Squeeze)",
                          .parse = sqz__fractal_block_parse,
                          .on = {SQZ_NONE, SQZ_FRACTAL(SQZ_PARTS_TILES, SQZ_FAST_TILES)}},
    [SQZ_LAYOUT_COMPACT] = {.name = "compact",
                            .help = "exactly |D| cells stored (element-level compact)",
                            .on = {SQZ_SIMPLEX(SQZ_PARTS_CELLS, SQZ_FAST_ROWS),
                                   SQZ_FRACTAL(SQZ_PARTS_DIGITS, SQZ_FAST_TILES)}},
    [SQZ_LAYOUT_BITS] = {.name = "bits",
                         .help = "1 bit per cell in 32-bit words, rows or tiles padded to words (two-state rules)",
                         .bit_cells = 1,
                         .io = &sqz__bits_io,
                         .on = {{&sqz__bits_storage, SQZ_PARTS_BANDS, 0},
                                {&sqz__bits_storage, SQZ_PARTS_TILES, SQZ_FAST_BOXES}}},
};
