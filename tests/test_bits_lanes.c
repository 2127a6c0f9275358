/* labels: opencl */
/* ctest cases: plan steps */
/* test_bits_lanes.c — the bits fractal step by lanes (SQZ_BITS_STEP=lanes): the transpose, the plan's positions and neighbours against λ, and the steps against layout compact on the cpu backend, bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "layouts/bits/bits.h"
#include "core/sqz_internal.h"
#include "sqz_common.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_lanes.h"
#include "sqz_fractal.h"
#include "sqz_test.h"

/* Fractals with one tile and with many (groups of lanes over several tiles, the last one partly
 * empty), scale 2, 3 and 4, user patterns. */
static const char *const lanes_domains[] = {
    "fractal:sierpinski-triangle:1", "fractal:sierpinski-triangle:9", "fractal:sierpinski-triangle:12",
    "fractal:sierpinski-carpet:5",   "fractal:sierpinski-carpet:7",   "fractal:vicsek-cross:6",
    "fractal:##./#.#/.##:6",         "fractal:#..#/.##./.##./#..#:5",
};
/* B3/S23, an odd rule, and a B0 rule (absent neighbours and holes must stay 0 between steps). */
static const char *const rules[] = {"B3/S23", "B36/S125", "B0123478/S34678"};
/* A GPU's local memory (NVIDIA OpenCL: 48 KiB), a small one that leaves only small lanes, and a
 * large one (the plans of the carpet's 4 KiB tiles). */
static const uint64_t local_sizes[] = {49152, 12000, 1u << 20};

static uint64_t next_random(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 11;
}

START_TEST(test_transpose) {
  uint64_t seed = 7;
  for (int trial = 0; trial < 100; trial++) {
    sqz_u32 a[32], t[32];
    for (int i = 0; i < 32; i++) a[i] = t[i] = (sqz_u32)next_random(&seed);
    sqz_bits_transpose32(t);
    for (int i = 0; i < 32; i++)
      for (int j = 0; j < 32; j++) ck_assert_uint_eq((t[j] >> i) & 1u, (a[i] >> j) & 1u);
  }
}
END_TEST

/* Cell (x, y) of the 3 x 3 sub-tiles of side S around a lane's (its own at (S, S)): the position
 * that holds it, or npos; pos[d K + l]: the position of cell l (by ν) of the sub-tile in direction d. */
static uint32_t position_of(const sqz_fractal *fr, uint32_t u, uint32_t S, uint32_t K, const uint32_t *pos,
                            uint32_t npos, int64_t x, int64_t y) {
  if (x < 0 || y < 0 || x >= 3 * (int64_t)S || y >= 3 * (int64_t)S) return npos;
  uint32_t d = (uint32_t)(y / S) * 3 + (uint32_t)(x / S);
  sqz_i64 l = sqz_fr_nu((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hnu, u, (sqz_u32)(x % S), (sqz_u32)(y % S));
  return l < 0 ? npos : pos[(size_t)d * K + (size_t)l];
}

/* The plan of dom at depth and local memory: sizes within it; every own block present once, in
 * order; the blocks hold every cell within `depth` of an own cell; every cell's 8
 * neighbour positions are those that hold its neighbours (npos where none does), past K none. */
static void check_plan(sqz_context *ctx, const sqz_domain *dom, uint32_t depth, uint64_t local) {
  const sqz_fractal *fr = &dom->fr;
  sqz_bits_tiling bt;
  sqz__bits_tiling(dom, &bt);
  sqz_bits_lanes p;
  int st = sqz__bits_lanes_plan(ctx, dom, &bt, depth, local, &p);
  if (st == SQZ_ERR_UNSUPPORTED) return; /* nothing fits: the engine falls back to the boxes */
  SQZ_OK_OR_FAIL(ctx, st);
  const uint32_t *tab = p.tab;
  ck_assert_uint_le(sqz__bits_lanes_local(&p, bt.wt, NULL) + SQZ_BITS_LANES_SLACK, local);
  ck_assert_uint_le(p.depth, depth);
  ck_assert_uint_le(p.per_tile * p.tiles, 32);
  ck_assert_uint_eq(p.tiles, 32 / p.per_tile);
  uint32_t S = 1, K = 1;
  for (uint32_t i = 0; i < p.u; i++, S *= (uint32_t)fr->s, K *= (uint32_t)fr->k) {}
  ck_assert_uint_eq(K * p.per_tile, bt.kt);
  ck_assert_uint_eq(tab[SQZ_BLN_K], K);
  ck_assert_uint_ge(S, p.depth);
  uint32_t nw = (K + 31) / 32, npos = p.npos;
  ck_assert_uint_eq(p.nown, 32 * nw);
  for (uint32_t w = 0; w < nw; w++) ck_assert_uint_eq(tab[tab[SQZ_BLN_BLK] + w], (4u | (w << 4)));
  uint32_t *pos = malloc((size_t)9 * K * sizeof *pos); /* decoded from the blocks */
  for (size_t i = 0; i < (size_t)9 * K; i++) pos[i] = npos;
  for (uint32_t b = 0; b < npos / 32; b++) {
    uint32_t e = tab[tab[SQZ_BLN_BLK] + b];
    ck_assert_uint_lt(e & 15u, 9);
    for (uint32_t j = 0; j < 32 && 32 * (e >> 4) + j < K; j++) {
      ck_assert_uint_eq(pos[(size_t)(e & 15u) * K + 32 * (e >> 4) + j], npos); /* each cell once */
      pos[(size_t)(e & 15u) * K + 32 * (e >> 4) + j] = 32 * b + j;
    }
  }
  static const int dxy[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  for (uint32_t l = 0; l < K; l++) { /* the ring: every cell within depth of an own cell is a position */
    uint32_t x, y;
    sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, p.u, l, &x, &y);
    for (int64_t gy = (int64_t)S + y - p.depth; gy <= (int64_t)S + y + p.depth; gy++)
      for (int64_t gx = (int64_t)S + x - p.depth; gx <= (int64_t)S + x + p.depth; gx++)
        if (sqz_fr_nu((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hnu, p.u, (sqz_u32)(gx % S), (sqz_u32)(gy % S)) >= 0)
          ck_assert_uint_lt(position_of(fr, p.u, S, K, pos, npos, gx, gy), npos);
  }
  for (uint32_t b = 0; b < npos / 32; b++) {
    uint32_t e = tab[tab[SQZ_BLN_BLK] + b], d = e & 15u;
    for (uint32_t j = 0; j < 32; j++) {
      uint32_t l = 32 * (e >> 4) + j, x = 0, y = 0;
      const uint32_t *nb = tab + tab[SQZ_BLN_NB] + 4 * (32 * b + j);
      if (l < K) sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, p.u, l, &x, &y);
      for (uint32_t n = 0; n < 8; n++) {
        uint32_t got = (nb[n / 2] >> (16 * (n % 2))) & 0xffffu; /* a byte offset */
        ck_assert_uint_eq(got % 4, 0);
        got /= 4;
        uint32_t want = l >= K ? npos
                               : position_of(fr, p.u, S, K, pos, npos, (int64_t)(d % 3) * S + x + dxy[n][0],
                                             (int64_t)(d / 3) * S + y + dxy[n][1]);
        ck_assert_uint_eq(got, want);
      }
    }
  }
  free(pos);
  free(p.tab);
}

START_TEST(test_plan) {
  sqz_context *ctx = sqz_test_context("cpu");
  for (size_t i = 0; i < sizeof lanes_domains / sizeof *lanes_domains; i++) {
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, lanes_domains[i], &dom));
    for (uint32_t depth = 1; depth <= 8; depth *= 2)
      for (size_t m = 0; m < sizeof local_sizes / sizeof *local_sizes; m++)
        check_plan(ctx, dom, depth, local_sizes[m]);
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
}
END_TEST

/* Steps `rule` on spec in bits by lanes (with the local memory `local`: the plan must fit; with
 * groups of at most `group` work-items, 0: the device's) and in compact on the cpu backend from the
 * same random state; runs of 1, 7 and 9 steps (whole launches of up to SQZ_TEMPORAL steps and what
 * remains), the states compared after each. */
static void check_steps(sqz_context *ctx, const char *spec, const char *rule, uint64_t local, size_t group) {
  sqz_context *cpu = sqz_test_context("cpu");
  sqz_field *c = sqz_test_field(cpu, spec, SQZ_U8, "compact"), *b = sqz_test_field(ctx, spec, SQZ_U8, "bits");
  sqz_bits_tiling bt;
  sqz_bits_lanes p;
  sqz__bits_tiling(sqz_test_domain(b), &bt);
  ck_assert_msg(sqz__bits_lanes_plan(ctx, sqz_test_domain(b), &bt, 1, local, &p) == SQZ_OK, "%s: no lanes plan fits",
                spec);
  free(p.tab);
  uint64_t saved = ctx->local_mem;
  size_t saved_group = ctx->max_work_group;
  ctx->local_mem = local;
  if (group) ctx->max_work_group = group;
  uint64_t n = sqz_domain_cells(sqz_test_domain(c));
  unsigned char *vc = malloc(n), *vb = malloc(n);
  SQZ_OK_OR_FAIL(cpu, sqz_field_fill_random(c, 0.4, 5));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.4, 5));
  static const uint64_t runs[] = {1, 7, 9};
  for (int r = 0; r < 3; r++) {
    SQZ_OK_OR_FAIL(cpu, sqz_life_step(c, rule, runs[r]));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(b, rule, runs[r]));
    SQZ_OK_OR_FAIL(cpu, sqz_field_read_compact(c, vc, n));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(b, vb, n));
    ck_assert_msg(memcmp(vc, vb, n) == 0, "%s %s (local %llu): lanes and compact differ after run %d", spec, rule,
                  (unsigned long long)local, r);
  }
  ctx->local_mem = saved;
  ctx->max_work_group = saved_group;
  free(vc);
  free(vb);
  sqz_test_drop(c);
  sqz_test_drop(b);
  sqz_context_release(cpu);
}

/* The domains whose lanes fit a GPU's local memory with B3/S23 at 8 steps a launch (the default);
 * the odd and B0 rules at 3 steps a launch; a small local memory (small lanes) and one step a
 * launch; groups of 1 and 5 work-items (fewer than the 9 direction masks, and an odd count). */
START_TEST(test_steps) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_test_option(ctx, "bits_step", "lanes");
  for (size_t i = 0; i < sizeof lanes_domains / sizeof *lanes_domains; i++)
    if (!strstr(lanes_domains[i], "carpet")) check_steps(ctx, lanes_domains[i], rules[0], local_sizes[0], 0);
  sqz_test_option(ctx, "temporal", "3");
  check_steps(ctx, "fractal:sierpinski-triangle:12", rules[1], local_sizes[0], 0);
  check_steps(ctx, "fractal:##./#.#/.##:6", rules[2], local_sizes[0], 0);
  check_steps(ctx, "fractal:sierpinski-triangle:9", rules[2], local_sizes[1], 0);
  check_steps(ctx, "fractal:sierpinski-triangle:9", rules[2], local_sizes[1], 1);
  check_steps(ctx, "fractal:#..#/.##./.##./#..#:3", rules[0], local_sizes[0], 5);
  sqz_test_option(ctx, "temporal", "1");
  check_steps(ctx, "fractal:vicsek-cross:6", rules[0], local_sizes[1], 0);
  sqz_test_option(ctx, "temporal", NULL);
  sqz_test_option(ctx, "bits_step", NULL);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bits_lanes");
  TCase *plan = tcase_create("plan"), *steps = tcase_create("steps"); /* timeout: CK_DEFAULT_TIMEOUT (ctest sets it) */
  tcase_add_test(plan, test_transpose);
  tcase_add_test(plan, test_plan);
  tcase_add_test(steps, test_steps);
  suite_add_tcase(s, plan);
  suite_add_tcase(s, steps);
  return sqz_test_run(s);
}
