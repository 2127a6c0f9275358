/* update.h — the cell update the stencil engine applies: a built-in rule (Life, heat) or the user's, as data. */
#ifndef SQZ_UPDATE_H
#define SQZ_UPDATE_H
#include "core/sqz_internal.h"

typedef enum {
  SQZ_UPDATE_LIFE = 0,  /* Life-like rule: birth/survive masks over the count of non-zero neighbours */
  SQZ_UPDATE_LIFE_BODY, /* Life-like user body `uchar f(uchar self, uint live)` (sqz_life_step_custom) */
  SQZ_UPDATE_HEAT,      /* explicit diffusion over the face neighbours that are domain cells, param[0] = alpha */
  SQZ_UPDATE_CL,        /* the user's OpenCL C file defining sqz_update (docs/CONTRACTS.md, the cell update) */
  SQZ_UPDATE_FN         /* the user's C function (cpu backend) */
} sqz_update_kind;

typedef struct {
  sqz_update_kind kind;
  uint32_t birth, survive; /* SQZ_UPDATE_LIFE */
  uint32_t states;         /* SQZ_UPDATE_LIFE: a Generations rule's number of states when above 2 (else 0 or 2) */
  const char *source;      /* SQZ_UPDATE_CL: the whole file; SQZ_UPDATE_LIFE_BODY: the function body */
  const char *source_name; /* SQZ_UPDATE_CL: the name build logs give the user's lines */
  sqz_update_fn fn;        /* SQZ_UPDATE_FN */
  void *user;              /* SQZ_UPDATE_FN: passed back to fn */
  const double *param;     /* parameters (heat: alpha), converted to sqz_param_t by the backend */
  size_t n_param;
} sqz_update;

/* 1 when the update reads `present` (heat and user updates): engines then compute it. */
static inline int sqz__update_wants_present(const sqz_update *u) {
  return u->kind == SQZ_UPDATE_HEAT || u->kind == SQZ_UPDATE_CL || u->kind == SQZ_UPDATE_FN;
}
#endif
