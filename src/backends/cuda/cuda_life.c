/* cuda_life.c — Life steps and random fills of block:RHO fractal fields on the cuda backend. */
#include <string.h>

#include "backends/cuda/cuda_fractal.h"

/* 1 for the MMA maps, 0 for the ALU maps, from the field's map ("" = mma). */
static int sqz__cu_variant(sqz_field *f, int *mma) {
  if (!f->map[0] || strcmp(f->map, "mma") == 0) *mma = 1;
  else if (strcmp(f->map, "alu") == 0) *mma = 0;
  else
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "map '%s' on the cuda backend: expected mma or alu", f->map);
  return SQZ_OK;
}

static uint32_t sqz__cu_tile_level(const sqz_field *f) {
  uint32_t j = 0;
  for (uint64_t p = 1; p < f->layout_rho; p *= (uint64_t)f->dom->fr.s) j++;
  return j;
}

int sqz__cuda_life_fractal(sqz_field *f, uint32_t birth, uint32_t survive, uint32_t states, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  const sqz_fractal *fr = &f->dom->fr;
  int mma = 1;
  if (f->layout != SQZ_LAYOUT_BLOCK)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                     "%s: the cuda backend steps fractals in layout block:RHO only, not in layout %s", f->dom->spec,
                     f->layout_str);
  int st = sqz__cu_variant(f, &mma);
  if (st != SQZ_OK || steps == 0) return st;
  if ((st = sqz__field_ensure_pair(f)) != SQZ_OK) return st;
  uint32_t j = sqz__cu_tile_level(f);
  sqz_cu_plan plan;
  CUfunction fn = NULL;
  if ((st = sqz__cu_plan(ctx, fr, (uint32_t)fr->r - j, j, birth | survive << 9, states, 1, &plan)) != SQZ_OK) return st;
  st = sqz__cu_kernel(ctx, states > 2 ? "sqz_gens" : "sqz_life", mma, fr, plan.tab.unit == 4 ? "_w4" : "_w1", &fn);
  sqz_cu_timer timer;
  if (st == SQZ_OK) st = sqz__cu_timer_begin(ctx, &timer);
  if (st == SQZ_OK) {
    uint64_t groups = (plan.tab.tiles + plan.tab.tpw - 1) / plan.tab.tpw;
    for (uint64_t i = 0; st == SQZ_OK && i < steps; i++) {
      CUdeviceptr src = SQZ_CU_PTR(f->mem[f->cur]), dst = SQZ_CU_PTR(f->mem[1 - f->cur]);
      void *params[] = {&plan.dtab, &src, &dst, &plan.dmask, &groups};
      st = sqz__cu_launch(ctx, fn, SQZ_CU_WARPS * 32, (groups + SQZ_CU_WARPS - 1) / SQZ_CU_WARPS, params);
      if (st == SQZ_OK) f->cur = 1 - f->cur;
    }
    st = sqz__cu_timer_end(ctx, &timer, st, &ctx->kernel_s);
  }
  sqz__cu_plan_free(ctx, &plan);
  return st;
}

int sqz__cuda_fill_random_fractal(sqz_field *f, uint64_t threshold, uint64_t seed) {
  sqz_context *ctx = f->ctx;
  if (f->layout != SQZ_LAYOUT_BLOCK || f->type != SQZ_U8) return SQZ_ERR_UNSUPPORTED;
  uint32_t j = sqz__cu_tile_level(f);
  sqz_cu_plan plan;
  CUfunction fn = NULL;
  int st = sqz__cu_plan(ctx, &f->dom->fr, (uint32_t)f->dom->fr.r - j, j, 0, 2, 1, &plan);
  if (st != SQZ_OK) return st;
  st = sqz__cuda_function(ctx, "sqz_fill_block", &fn);
  sqz_cu_timer timer;
  if (st == SQZ_OK) st = sqz__cu_timer_begin(ctx, &timer);
  if (st == SQZ_OK) {
    unsigned side = (unsigned)f->dom->side;
    uint64_t cells = f->elems;
    CUdeviceptr dst = SQZ_CU_PTR(f->mem[f->cur]);
    void *params[] = {&plan.dtab, &dst, &plan.dmask, &seed, &threshold, &side, &cells};
    st = sqz__cu_launch(ctx, fn, 256, (cells + 255) / 256, params);
    st = sqz__cu_timer_end(ctx, &timer, st, &ctx->kernel_s);
  }
  sqz__cu_plan_free(ctx, &plan);
  return st;
}
