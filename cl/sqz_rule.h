/* sqz_rule.h — the cell rule of Life-like kernels: birth/survive bit masks or a user function. */
#ifndef SQZ_RULE_H
#define SQZ_RULE_H
/* SQZ_APPLY_RULE(self, live, birth, survive) -> next state (0 or 1 for mask rules). */
#ifdef SQZ_USER_RULE
#define SQZ_APPLY_RULE(self, live, birth, survive) sqz_user_rule((uchar)(self), (uint)(live))
#else
#define SQZ_APPLY_RULE(self, live, birth, survive) \
  ((((self) ? (survive) : (birth)) >> (live)) & 1u)
#endif
/* Golly's Generations rules of `states` > 2 states, live counting the neighbours in state 1 only:
 * 0 is born (1) on a birth count; 1 stays on a survive count, else starts dying (2); a dying state
 * 2..states-1 advances by one and returns to 0 after states-1. */
#define SQZ_APPLY_GENERATIONS(self, live, birth, survive, states)                                         \
  ((self) == 0u   ? ((birth) >> (live)) & 1u                                                             \
   : (self) == 1u ? 2u - (((survive) >> (live)) & 1u)                                                    \
                  : ((self) + 1u) % (states))
#endif
