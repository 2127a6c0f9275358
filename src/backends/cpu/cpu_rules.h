/* cpu_rules.h — the built-in updates as C functions for the cpu engine: the rule arithmetic of cl/sqz_rule.h and cl/sqz_heat.h. */
#ifndef SQZ_CPU_RULES_H
#define SQZ_CPU_RULES_H
#include <stdint.h>
#include <string.h>

#include "sqz_common.h"
#include "sqz_heat.h"
#include "sqz_rule.h"

typedef struct {
  uint32_t birth, survive;
  int nb;
  uint32_t states; /* a Generations rule's states when above 2 (sqz__cpu_generations) */
} sqz_cpu_life_rule;

/* Life on u8 cells, user = sqz_cpu_life_rule (inlined where the engine is specialised for it). */
static inline void sqz__cpu_life(const void *self, const void *nb, uint32_t present, const void *param, void *out,
                                 void *user) {
  const sqz_cpu_life_rule *r = user;
  const unsigned char *v = nb;
  uint32_t live = 0;
  for (int i = 0; i < r->nb; i++) live += v[i]; /* Life states are 0 and 1: the sum counts (cl/rule_life.cl) */
  *(unsigned char *)out = (unsigned char)SQZ_APPLY_RULE(*(const unsigned char *)self, live, r->birth, r->survive);
}

/* A Generations rule on u8 cells, user = sqz_cpu_life_rule: only state 1 counts (cl/rule_life.cl). */
static inline void sqz__cpu_generations(const void *self, const void *nb, uint32_t present, const void *param,
                                        void *out, void *user) {
  const sqz_cpu_life_rule *r = user;
  const unsigned char *v = nb;
  uint32_t live = 0, s = *(const unsigned char *)self;
  for (int i = 0; i < r->nb; i++) live += v[i] == 1;
  *(unsigned char *)out = (unsigned char)SQZ_APPLY_GENERATIONS(s, live, r->birth, r->survive, r->states);
}

SQZ_HEAT_DEFINE(sqz__cpu_heat_f32_fn, float)
SQZ_HEAT_DEFINE(sqz__cpu_heat_f64_fn, double)

/* Heat, user = the number of neighbours (8 or 26). */
static inline void sqz__cpu_heat_f32(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  float s, a, v[26], r;
  memcpy(&s, self, sizeof s);
  memcpy(&a, param, sizeof a);
  memcpy(v, nb, (size_t)*(const int *)user * sizeof *v);
  r = sqz__cpu_heat_f32_fn(s, v, present, a, *(const int *)user == 8 ? 2 : 3);
  memcpy(out, &r, sizeof r);
}

static inline void sqz__cpu_heat_f64(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  double s, a, v[26], r;
  memcpy(&s, self, sizeof s);
  memcpy(&a, param, sizeof a);
  memcpy(v, nb, (size_t)*(const int *)user * sizeof *v);
  r = sqz__cpu_heat_f64_fn(s, v, present, a, *(const int *)user == 8 ? 2 : 3);
  memcpy(out, &r, sizeof r);
}
#endif
