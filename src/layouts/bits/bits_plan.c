/* bits_plan.c — which plan steps a fractal (lanes, or boxes in a list or a window) and how many steps a launch. */
#include <stdlib.h>
#include <string.h>

#include "layouts/bits/bits.h"

int sqz__bits_list_wanted(const sqz_domain *dom, uint32_t q) {
  uint32_t bs, kq;
  sqz__bits_box_dims(dom, q, &bs, &kq);
  return sqz__opt_is(dom->ctx, NULL, SQZ_OPT_BITS_STEP, "list")     ? 1
         : sqz__opt_is(dom->ctx, NULL, SQZ_OPT_BITS_STEP, "window") ? 0
                                                                    : bs == 8;
}

int sqz__bits_lanes_wanted(const sqz_field *f) {
  return sqz__opt_is(NULL, f, SQZ_OPT_BITS_STEP, "lanes") && !sqz__opt_is(NULL, f, SQZ_OPT_ENGINE, "generic");
}

int sqz__bits_step_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q, uint32_t depth,
                        uint32_t lanes, uint64_t local_words, sqz_bits_box *p) {
  if (sqz__bits_list_wanted(dom, q)) {
    int st = sqz__bits_list_plan(ctx, dom, bt, q, depth, p);
    if (st != SQZ_ERR_UNSUPPORTED) return st; /* else (entries past 16-bit indices) the window */
  }
  return sqz__bits_box_plan(ctx, dom, bt, q, depth, lanes, local_words, p);
}

uint32_t sqz__bits_depth(const sqz_field *f, uint64_t steps) {
  uint64_t v = sqz__opt_num(NULL, f, SQZ_OPT_TEMPORAL, SQZ_BITS_DEPTH);
  return steps < v ? (uint32_t)(steps > 0 ? steps : 1) : (uint32_t)v;
}
