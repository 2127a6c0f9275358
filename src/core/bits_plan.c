/* bits_plan.c — which plan steps a fractal (lanes, or boxes in a list or a window) and how many steps a launch. */
#include <stdlib.h>
#include <string.h>

#include "core/bits.h"

int sqz__bits_list_wanted(const sqz_domain *dom, uint32_t q) {
  const char *how = getenv("SQZ_BITS_STEP");
  uint32_t bs, kq;
  sqz__bits_box_dims(dom, q, &bs, &kq);
  return how && strcmp(how, "list") == 0 ? 1 : how && strcmp(how, "window") == 0 ? 0 : bs == 8;
}

int sqz__bits_lanes_wanted(void) {
  const char *how = getenv("SQZ_BITS_STEP"), *engine = getenv("SQZ_ENGINE");
  return how && strcmp(how, "lanes") == 0 && !(engine && strcmp(engine, "generic") == 0);
}

int sqz__bits_step_plan(sqz_context *ctx, const sqz_domain *dom, const sqz_bits_tiling *bt, uint32_t q, uint32_t depth,
                        uint32_t lanes, uint64_t local_words, sqz_bits_box *p) {
  if (sqz__bits_list_wanted(dom, q)) {
    int st = sqz__bits_list_plan(ctx, dom, bt, q, depth, p);
    if (st != SQZ_ERR_UNSUPPORTED) return st; /* else (entries past 16-bit indices) the window */
  }
  return sqz__bits_box_plan(ctx, dom, bt, q, depth, lanes, local_words, p);
}

uint32_t sqz__bits_depth(uint64_t steps) {
  unsigned long v = sqz__env_uint("SQZ_TEMPORAL", 1, 8, SQZ_BITS_DEPTH);
  return steps < v ? (uint32_t)(steps > 0 ? steps : 1) : (uint32_t)v;
}
