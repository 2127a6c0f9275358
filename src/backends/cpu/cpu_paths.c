/* cpu_paths.c — the cpu backend's stencil entry and its engine paths as one table: layout bits, Life on whole rows and tiles, built-in updates and the user's C function cell by cell. */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_bits.h"
#include "backends/cpu/cpu_engine.h"
#include "backends/cpu/cpu_rules.h"
#include "core/engine_paths.h"
#include "simplex/simplex_plan.h"

int sqz__cpu_stencil(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq) {
  sqz_context *ctx = f->ctx;
  int st = sqz__enqueue_sync_only(ctx, enq);
  if (st != SQZ_OK || f->layout == SQZ_LAYOUT_BITS) /* engine_bits.c: parts' chunks too */
    return st == SQZ_OK ? sqz__engine_step(f, u, steps) : st;
  if (f->part && steps > 1) /* a part's steps between exchanges need one launch of all of them */
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the cpu backend steps a part one step per exchange");
  if (u->kind == SQZ_UPDATE_CL || u->kind == SQZ_UPDATE_LIFE_BODY)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                     "an OpenCL C update needs an OpenCL device; the cpu backend takes a C function (sqz_stencil_step_fn)");
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) { /* the map does not change the result here, but it must be valid */
    sqz_simplex_plan plan;
    st = sqz__simplex_plan(ctx, f->dom->dims, f->dom->side, f->map, f->block, 0, &plan);
    if (st != SQZ_OK) return st;
    sqz__simplex_plan_free(&plan);
  }
  return sqz__engine_step(f, u, steps);
}

/* The update as the cells of traversal `rule` (the row's plan) step it (Life: the rule inlined in whole rows
 * and tiles; built-in rules cell by cell in parallel; the user's function from one thread), its parameters as
 * sqz_param_t into *param (malloc'ed). */
static int cpu_update(sqz_field *f, const sqz_update *u, sqz_cpu_rule rule, sqz_cpu_life_rule *life, int *nbn,
                      sqz_cpu_update *cu, unsigned char **param) {
  *nbn = f->dom->dims == 2 ? 8 : 26;
  *life = (sqz_cpu_life_rule){u->birth, u->survive, *nbn, u->states};
  *cu = (sqz_cpu_update){sqz_type_size(f->type), u->fn, u->user, NULL, sqz__update_wants_present(u), rule};
  if (u->kind == SQZ_UPDATE_LIFE) {
    cu->fn = u->states > 2 ? sqz__cpu_generations : sqz__cpu_life;
    cu->user = life;
  } else if (u->kind == SQZ_UPDATE_HEAT) {
    cu->fn = f->type == SQZ_F64 ? sqz__cpu_heat_f64 : sqz__cpu_heat_f32;
    cu->user = nbn;
  }
  size_t ps = f->type == SQZ_F64 ? sizeof(double) : sizeof(float);
  if (!(*param = sqz__calloc(u->n_param ? u->n_param : 1, ps))) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  for (size_t i = 0; i < u->n_param; i++) {
    float v = (float)u->param[i];
    if (ps == sizeof(double)) memcpy(*param + i * ps, &u->param[i], ps);
    else memcpy(*param + i * ps, &v, ps);
  }
  cu->param = *param;
  return SQZ_OK;
}

/* cpu-life-rows, cpu-cells-builtin, cpu-cells-fn: `steps` steps of the update's cells. */
static int cpu_cells(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  sqz_cpu_life_rule life;
  sqz_cpu_update cu;
  unsigned char *param = NULL;
  int nbn, st = cpu_update(f, u, (sqz_cpu_rule)plan->flag, &life, &nbn, &cu, &param);
  if (st == SQZ_OK) st = sqz__field_ensure_pair(f);
  double t0 = sqz__now();
  if (st == SQZ_OK && f->dom->kind == SQZ_DOMAIN_FRACTAL) st = sqz__cpu_steps_fractal(f, &cu, steps);
  else
    for (uint64_t i = 0; st == SQZ_OK && i < steps; i++)
      if ((st = sqz__cpu_step_simplex(f, &cu, f->mem[f->cur], f->mem[1 - f->cur])) == SQZ_OK) f->cur = 1 - f->cur;
  f->ctx->kernel_s += sqz__now() - t0;
  free(param);
  return st;
}

static const char *cpu_life_rows(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  plan->flag = SQZ_CPU_LIFE;
  switch (u->kind) {
  case SQZ_UPDATE_LIFE:
    return u->states > 2 ? sqz__path_why("the rule has %u states (Generations), the row loops hold cells of 0 and 1",
                                         u->states)
                         : NULL;
  case SQZ_UPDATE_HEAT: return "the update is heat, the row loops run built-in Life rules";
  default: return "the update is the user's C function, the row loops run built-in Life rules";
  }
}

static const char *cpu_builtin(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  plan->flag = SQZ_CPU_BUILTIN;
  return u->kind == SQZ_UPDATE_FN ? "the update is the user's C function" : NULL;
}

static const char *cpu_fn(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan) {
  plan->flag = SQZ_CPU_USER;
  return u->kind == SQZ_UPDATE_FN ? NULL : "the update is built in";
}

static int cpu_bits_run(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  return sqz__cpu_bits_stencil(f, u, steps);
}

#define CPU_BYTES (SQZ_PATH_FAMILIES | SQZ_PATH_BYTES)

static const sqz_path_row sqz__cpu_rows[] = {
    {"cpu-bits", SQZ_PATH_FAMILIES | SQZ_PATH_BITS, "any Life-like rule", NULL, cpu_bits_run, NULL},
    {"cpu-life-rows", CPU_BYTES, "built-in two-state Life-like rules (whole rows and tiles in vector loops)",
     cpu_life_rows, cpu_cells, NULL},
    {"cpu-cells-builtin", CPU_BYTES, "built-in updates (heat, Generations rules), cell by cell in parallel",
     cpu_builtin, cpu_cells, NULL},
    {"cpu-cells-fn", CPU_BYTES, "the user's C function (sqz_stencil_step_fn), cell by cell on one thread", cpu_fn,
     cpu_cells, NULL},
};

const sqz_path_table sqz__cpu_paths = {sizeof sqz__cpu_rows / sizeof sqz__cpu_rows[0], sqz__cpu_rows};
