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
#endif
