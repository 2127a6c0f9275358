/* rule_life.cl — Life-like rules as an engine update: the next state from the number of live neighbours. */
/* Life states are 0 (dead) and 1 (alive): live is the sum of the neighbours (a three-input add per
 * two neighbours on GPUs, where counting non-zero cells costs a comparison more each); a user's
 * Life body sees the number of non-zero neighbours instead. The birth
 * and survive masks are the integer rule parameters ip.x and ip.y (kernel arguments); with
 * SQZ_USER_RULE the prelude's sqz_user_rule(self, live) decides instead (sqz_rule.h); SQZ_LIFE_STATES
 * (a Generations rule's number of states, in the prelude) counts state 1 only and lets dying cells age. */
static inline sqz_cell_t sqz_life_update(sqz_cell_t self, const sqz_cell_t *nb, uint2 ip) {
  sqz_cell_t count = 0; /* in the cell's type: 32 byte lanes of a CPU vector, not 8 of 32 bits */
#pragma unroll
  for (int i = 0; i < SQZ_NB; i++)
#if defined(SQZ_USER_RULE)
    count += min(nb[i], (sqz_cell_t)1); /* a user's body may keep other values (ages): it gets the non-zero count */
#elif defined(SQZ_LIFE_STATES)
    count += (sqz_cell_t)(nb[i] == 1); /* Generations: only state 1 is alive, dying states 2.. are not counted */
#else
    count += nb[i];
#endif
  /* a byte sum wraps at 256, where OpenCL's shift below reads it mod 32: the same rule bit as a 32-bit sum, so
   * any byte state steps as before (and as the cpu backend's key count mod 32 + 32 alive) */
  uint live = (uint)count;
#ifdef SQZ_LIFE_STATES
  return (sqz_cell_t)SQZ_APPLY_GENERATIONS((uint)self, live, ip.x, ip.y, SQZ_LIFE_STATES);
#else
  return (sqz_cell_t)SQZ_APPLY_RULE(self, live, ip.x, ip.y);
#endif
}
#define SQZ_APPLY(self, nb, present) sqz_life_update((self), (nb), ip)
