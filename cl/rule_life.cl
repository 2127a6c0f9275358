/* rule_life.cl — Life-like rules as an engine update: the next state from the number of non-zero neighbours. */
/* The birth and survive masks are the integer rule parameters ip.x and ip.y (kernel arguments);
 * with SQZ_USER_RULE the prelude's sqz_user_rule(self, live) decides instead (sqz_rule.h). */
static inline sqz_cell_t sqz_life_update(sqz_cell_t self, const sqz_cell_t *nb, uint2 ip) {
  uint live = 0u;
  for (int i = 0; i < SQZ_NB; i++) live += nb[i] != (sqz_cell_t)0;
  return (sqz_cell_t)SQZ_APPLY_RULE(self, live, ip.x, ip.y);
}
#define SQZ_APPLY(self, nb, present) sqz_life_update((self), (nb), ip)
