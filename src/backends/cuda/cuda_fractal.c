/* cuda_fractal.c — parameter blocks, kernel lookup, launches and timing of the CUDA fractal kernels; the map runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_fractal.h"
#include "sqz_fractal.h"
#include "sqz_mma.h"

static uint32_t sqz__cu_span(uint32_t groups) { /* 4 * next power of two >= groups */
  uint32_t p = 1;
  while (p < groups) p *= 2;
  return 4 * p;
}

void sqz__cu_table(const sqz_fractal *fr, uint32_t rb, uint32_t j, uint32_t rule, sqz_cu_fractal *t) {
  memset(t, 0, sizeof *t);
  t->s = (sqz_u32)fr->s;
  t->k = (sqz_u32)fr->k;
  t->rb = rb;
  t->j = j;
  t->rho = 1;
  for (uint32_t i = 0; i < j; i++) t->rho *= t->s;
  t->tiles = 1;
  t->pow_s[0] = 1;
  for (uint32_t i = 0; i < rb; i++) {
    t->pow_k[i] = t->tiles;
    t->tiles *= t->k;
    t->pow_s[i + 1] = t->pow_s[i] * t->s;
  }
  for (uint32_t m = 0; m < SQZ_MMA_ROWS; m++) {
    t->scale_s[m] = (sqz_u32)sqz_mma_scale(t->s, rb, m);
    t->scale_k[m] = sqz_mma_scale(t->k, rb, m);
  }
  for (uint32_t h = 0; h < 2; h++)
    for (uint32_t lane = 0; lane < 32; lane++) {
      t->a_s[h][lane] = sqz_mma_a_word(t->s, rb, lane, h);
      t->a_k[h][lane] = sqz_mma_a_word(t->k, rb, lane, h);
    }
  t->unit = t->rho % 4 == 0 ? 4 : 1;
  t->units = t->rho / t->unit;
  t->tpw = t->units <= 32 ? 32 / t->units : 1;
  t->rule = rule;
  t->states = 2;
  t->reduce_s = sqz__cu_span(sqz_mma_groups(t->s, rb));
  t->reduce_k = sqz__cu_span(sqz_mma_groups(t->k, rb));
  for (int i = 0; i < 2 * fr->k; i++) t->hl[i] = fr->hl[i];
  for (int i = 0; i < fr->s * fr->s; i++) t->hnu[i] = fr->hnu[i];
}

int sqz__cu_plan(sqz_context *ctx, const sqz_fractal *fr, uint32_t rb, uint32_t j, uint32_t rule, uint32_t states,
                 int with_mask, sqz_cu_plan *plan) {
  memset(plan, 0, sizeof *plan);
  if (rb > 2 * SQZ_MMA_K || sqz_mma_groups((sqz_u32)fr->s, rb) > SQZ_MMA_ROWS ||
      sqz_mma_groups((sqz_u32)fr->k, rb) > SQZ_MMA_ROWS)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "fractal %s: a %u-level tile grid does not fit the MMA encoding",
                     fr->name, rb);
  sqz__cu_table(fr, rb, j, rule, &plan->tab);
  if (states > 2) plan->tab.states = states;
  int st = sqz__cu_alloc(ctx, sizeof plan->tab, &plan->dtab);
  if (st == SQZ_OK) st = sqz__cu_upload(ctx, plan->dtab, &plan->tab, sizeof plan->tab);
  if (st == SQZ_OK && with_mask) {
    uint32_t rho = plan->tab.rho;
    unsigned char *mask = sqz__malloc((size_t)rho * rho);
    if (!mask) st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory for a %u x %u tile mask", rho, rho);
    for (uint32_t q = 0; mask && q < rho * rho; q++)
      mask[q] = sqz_fr_contains((sqz_u32)fr->s, fr->hnu, j, q % rho, q / rho) ? 0xff : 0;
    if (st == SQZ_OK) st = sqz__cu_alloc(ctx, (uint64_t)rho * rho, &plan->dmask);
    if (st == SQZ_OK) st = sqz__cu_upload(ctx, plan->dmask, mask, (uint64_t)rho * rho);
    free(mask);
  }
  if (st != SQZ_OK) sqz__cu_plan_free(ctx, plan);
  return st;
}

void sqz__cu_plan_free(sqz_context *ctx, sqz_cu_plan *plan) {
  sqz__cu_free(ctx, plan->dtab);
  sqz__cu_free(ctx, plan->dmask);
  plan->dtab = plan->dmask = 0;
}

int sqz__cu_kernel(sqz_context *ctx, const char *prefix, int mma, const sqz_fractal *fr, const char *suffix,
                   CUfunction *out) {
  const char *spec = fr->s == 2 && fr->k == 3   ? "s2k3"
                     : fr->s == 3 && fr->k == 8 ? "s3k8"
                     : fr->s == 3 && fr->k == 5 ? "s3k5"
                                                : "gen";
  char name[96];
  snprintf(name, sizeof name, "%s_%s_%s%s", prefix, mma ? "mma" : "alu", spec, suffix);
  return sqz__cuda_function(ctx, name, out);
}

int sqz__cu_launch(sqz_context *ctx, CUfunction fn, unsigned threads, uint64_t blocks, void **params) {
  sqz_cuda *cu = SQZ_CU(ctx);
  int per_sm = 0;
  CUresult r = cu->api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)threads, 0);
  if (r != 0) return sqz__cuda_fail(ctx, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  uint64_t resident = (uint64_t)(per_sm > 0 ? per_sm : 1) * (ctx->compute_units ? ctx->compute_units : 1);
  uint64_t grid = blocks < resident ? blocks : resident;
  if (grid == 0) return SQZ_OK;
  r = cu->api.cuLaunchKernel(fn, (unsigned)grid, 1, 1, threads, 1, 1, 0, NULL, params, NULL);
  return r ? sqz__cuda_fail(ctx, r, "cuLaunchKernel") : SQZ_OK;
}

int sqz__cu_timer_begin(sqz_context *ctx, sqz_cu_timer *t) {
  sqz_cuda *cu = SQZ_CU(ctx);
  t->a = t->b = NULL;
  CUresult r = cu->api.cuEventCreate(&t->a, 0);
  if (r == 0) r = cu->api.cuEventCreate(&t->b, 0);
  if (r == 0) r = cu->api.cuEventRecord(t->a, NULL);
  if (r == 0) return SQZ_OK;
  double unused = 0.0;
  sqz__cu_timer_end(ctx, t, SQZ_ERR_INTERNAL, &unused);
  return sqz__cuda_fail(ctx, r, "cuEventCreate/cuEventRecord");
}

int sqz__cu_timer_end(sqz_context *ctx, sqz_cu_timer *t, int st, double *seconds) {
  sqz_cuda *cu = SQZ_CU(ctx);
  float ms = 0.0f;
  CUresult r = t->a && t->b ? 0 : 1;
  if (r == 0) r = cu->api.cuEventRecord(t->b, NULL);
  if (r == 0) r = cu->api.cuEventSynchronize(t->b);
  if (r == 0) r = cu->api.cuEventElapsedTime(&ms, t->a, t->b);
  if (t->a) cu->api.cuEventDestroy(t->a);
  if (t->b) cu->api.cuEventDestroy(t->b);
  t->a = t->b = NULL;
  *seconds += ms * 1e-3;
  if (st != SQZ_OK) return st;
  return r ? sqz__cuda_fail(ctx, r, "running the kernels (cuEventSynchronize)") : SQZ_OK;
}

int sqz__cuda_maps(sqz_context *ctx, const sqz_fractal *fr, uint32_t rb, int mma, uint64_t tile0, uint64_t count,
                   uint64_t *out, uint64_t *checksum, double *kernel_s) {
  if (ctx->ops != &sqz__cuda_ops)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the tile map kernels run on the cuda backend only");
  sqz_cu_plan plan;
  CUfunction fn = NULL;
  unsigned long long dout = 0, dsum = 0;
  int st = sqz__cu_plan(ctx, fr, rb, 0, 0, 2, 0, &plan);
  if (st != SQZ_OK) return st;
  if (tile0 > plan.tab.tiles || count > plan.tab.tiles - tile0)
    st = sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "tiles %llu + %llu exceed the %llu tiles of level %u",
                   (unsigned long long)tile0, (unsigned long long)count, (unsigned long long)plan.tab.tiles, rb);
  if (st == SQZ_OK) st = sqz__cu_kernel(ctx, "sqz_maps", mma, fr, "", &fn);
  if (st == SQZ_OK && out) st = sqz__cu_alloc(ctx, count * 10 * sizeof(uint64_t), &dout);
  if (st == SQZ_OK) st = sqz__cu_alloc(ctx, sizeof(uint64_t), &dsum);
  sqz_cu_timer timer;
  if (st == SQZ_OK) st = sqz__cu_timer_begin(ctx, &timer);
  if (st == SQZ_OK) {
    void *params[] = {&plan.dtab, &tile0, &count, &dout, &dsum};
    uint64_t per_block = 32 * SQZ_CU_WARPS;
    double secs = 0.0;
    st = sqz__cu_launch(ctx, fn, SQZ_CU_WARPS * 32, (count + per_block - 1) / per_block, params);
    st = sqz__cu_timer_end(ctx, &timer, st, &secs);
    if (kernel_s) *kernel_s = secs;
  }
  if (st == SQZ_OK && out) st = sqz__cu_download(ctx, out, dout, count * 10 * sizeof(uint64_t));
  if (st == SQZ_OK && checksum) st = sqz__cu_download(ctx, checksum, dsum, sizeof(uint64_t));
  sqz__cu_free(ctx, dout);
  sqz__cu_free(ctx, dsum);
  sqz__cu_plan_free(ctx, &plan);
  return st;
}
