/* reduce_acc.c — stage two of every reduction: the host accumulator that combines partials (Neumaier in long double). */
#include <math.h>

#include "core/reduce_acc.h"

void sqz__red_add(sqz_red_acc *acc, long double v) {
  const long double t = acc->s + v;
  acc->c += fabsl(acc->s) >= fabsl(v) ? (acc->s - t) + v : (v - t) + acc->s;
  acc->s = t;
}

void sqz__red_add_int(sqz_red_acc *acc, int64_t v) {
  if (__builtin_add_overflow(acc->isum, v, &acc->isum)) acc->overflow = 1;
}

uint64_t sqz__red_mask(sqz_red_op op, sqz_type type) {
  if (op == SQZ_RED_ABOVE1) return 0xfeu;
  switch (type) {
  case SQZ_U8: return 0xffu;
  case SQZ_I32: return 0xffffffffu;
  case SQZ_F32: return 0x7fffffffu;
  case SQZ_F64: return 0x7fffffffffffffffu;
  }
  return 0;
}
