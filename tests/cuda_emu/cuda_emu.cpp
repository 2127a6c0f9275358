/* cuda_emu.cpp — runs every CUDA fractal kernel on host coroutines (tests/cuda_emu/cuda_emu.h) and compares with the CPU backend. */
/* No GPU needed: the kernel source of cuda/ is compiled as C++ and each lane is a coroutine.
 * Checks the tile maps (MMA and ALU) at every level against cl/sqz_fractal.h, and the Life
 * step and random fill of every kernel specialisation against the CPU reference backend.
 * Exit status 0 when everything matches. */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

extern "C" {
#include "backends/cuda/cuda_fractal.h"
#include "core/sqz_internal.h"
#include "fractal/fractal_internal.h"
}
#include "cuda_emu.h"
#include "life_fractal.cu"
#include "map_bench.cu"

/* Runs f on grid CTAs of `threads` lanes, the CTAs one after another (the kernels loop
 * over their work, so a small grid of one-warp CTAs covers everything). */
template <class F> static void sqz_emu_launch(unsigned grid, unsigned threads, F f) {
  sqz_emu_run(grid, threads, [](void *p) { (*(F *)p)(); }, &f);
}

typedef void (*sqz_emu_life_fn)(const sqz_cu_fractal *, const unsigned char *, unsigned char *,
                                const unsigned char *, sqz_u64);
typedef void (*sqz_emu_maps_fn)(const sqz_cu_fractal *, sqz_u64, sqz_u64, sqz_u64 *, unsigned long long *);

/* The kernel a launch on the GPU would look up by name (src/cuda/cuda_fractal.c). */
static sqz_emu_life_fn sqz_emu_life_kernel(const sqz_fractal *fr, int mma, unsigned unit, bool gens) {
  int sp = fr->s == 2 && fr->k == 3 ? 0 : fr->s == 3 && fr->k == 8 ? 1 : fr->s == 3 && fr->k == 5 ? 2 : 3;
  static const sqz_emu_life_fn w1[2][2][4] = {
      {{sqz_life_alu_s2k3_w1, sqz_life_alu_s3k8_w1, sqz_life_alu_s3k5_w1, sqz_life_alu_gen_w1},
       {sqz_life_mma_s2k3_w1, sqz_life_mma_s3k8_w1, sqz_life_mma_s3k5_w1, sqz_life_mma_gen_w1}},
      {{sqz_gens_alu_s2k3_w1, sqz_gens_alu_s3k8_w1, sqz_gens_alu_s3k5_w1, sqz_gens_alu_gen_w1},
       {sqz_gens_mma_s2k3_w1, sqz_gens_mma_s3k8_w1, sqz_gens_mma_s3k5_w1, sqz_gens_mma_gen_w1}}};
  static const sqz_emu_life_fn w4[2][2][4] = {
      {{sqz_life_alu_s2k3_w4, NULL, NULL, sqz_life_alu_gen_w4}, {sqz_life_mma_s2k3_w4, NULL, NULL, sqz_life_mma_gen_w4}},
      {{sqz_gens_alu_s2k3_w4, NULL, NULL, sqz_gens_alu_gen_w4}, {sqz_gens_mma_s2k3_w4, NULL, NULL, sqz_gens_mma_gen_w4}}};
  return unit == 4 ? w4[gens][mma][sp] : w1[gens][mma][sp];
}
static sqz_emu_maps_fn sqz_emu_maps_kernel(const sqz_fractal *fr, int mma) {
  int sp = fr->s == 2 && fr->k == 3 ? 0 : fr->s == 3 && fr->k == 8 ? 1 : fr->s == 3 && fr->k == 5 ? 2 : 3;
  static const sqz_emu_maps_fn k[2][4] = {{sqz_maps_alu_s2k3, sqz_maps_alu_s3k8, sqz_maps_alu_s3k5, sqz_maps_alu_gen},
                                          {sqz_maps_mma_s2k3, sqz_maps_mma_s3k8, sqz_maps_mma_s3k5, sqz_maps_mma_gen}};
  return k[mma][sp];
}

static int sqz_emu_failures = 0;
static void sqz_emu_report(bool ok, const std::string &what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  fflush(stdout);
  sqz_emu_failures += !ok;
}

/* Maps of the first and last `count` tiles of every level of the pattern, both methods. */
static void sqz_emu_maps(const char *pattern, uint64_t count) {
  sqz_fractal fr;
  uint64_t side, cells;
  memset(&fr, 0, sizeof fr);
  if (sqz__fractal_parse(NULL, pattern, "1", &fr, &side, &cells) != SQZ_OK) return sqz_emu_report(false, pattern);
  int bad = 0;
  uint32_t levels = 0;
  for (uint64_t p = (uint64_t)fr.s; p < ((uint64_t)1 << 31); p *= (uint64_t)fr.s) levels++;
  for (uint32_t rb = 0; rb <= levels; rb++) {
    sqz_cu_fractal T;
    sqz__cu_table(&fr, rb, 0, 0, &T);
    for (int mma = 0; mma < 2; mma++)
      for (uint64_t t0 : {(uint64_t)0, T.tiles > count ? T.tiles - count : (uint64_t)0}) {
        uint64_t n = std::min(count, T.tiles - t0);
        std::vector<sqz_u64> out(n * 10);
        unsigned long long sum = 0;
        sqz_emu_maps_fn fn = sqz_emu_maps_kernel(&fr, mma);
        sqz_emu_launch(2, 32, [&] { fn(&T, t0, n, out.data(), &sum); });
        for (uint64_t i = 0; i < n; i++) {
          sqz_u32 bx, by;
          sqz_fr_lambda((sqz_u32)fr.s, (sqz_u32)fr.k, fr.hl, rb, t0 + i, &bx, &by);
          bad += out[10 * i + 9] != (bx | (uint64_t)by << 32);
          for (sqz_u32 d = 0; d < 9; d++)
            bad += (int64_t)out[10 * i + d] !=
                   (d == 4 ? (int64_t)(t0 + i) : sqz_fr_tile_neighbour((sqz_u32)fr.s, (sqz_u32)fr.k, fr.hnu, rb, bx, by, d));
        }
      }
  }
  sqz_emu_report(bad == 0, std::string("maps ") + pattern + " levels 0.." + std::to_string(levels) + ", mma and alu");
}

/* The random fill and `steps` Life steps of block:rho against the CPU backend. A Generations rule
 * of C states starts from states 0 .. C - 1 on the domain's cells (a hash of the index). */
static void sqz_emu_life(const char *pattern, int r, unsigned rho, const char *rule, int steps) {
  char spec[320], layout[32];
  snprintf(spec, sizeof spec, "fractal:%s:%d", pattern, r);
  snprintf(layout, sizeof layout, "block:%u", rho);
  std::string what = std::string(spec) + " " + layout + " " + rule;
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  uint32_t birth = 0, survive = 0, states = 2;
  if (sqz_context_create("cpu", NULL, &ctx) != SQZ_OK || sqz_domain_parse(ctx, spec, &dom) != SQZ_OK ||
      sqz_field_create(dom, SQZ_U8, layout, &f) != SQZ_OK ||
      sqz_rule_parse_states(rule, 2, &birth, &survive, &states, NULL, 0))
    return sqz_emu_report(false, what + ": " + sqz_last_error(ctx));
  const sqz_fractal *fr = &dom->fr;
  uint32_t j = 0;
  for (uint64_t p = 1; p < rho; p *= (uint64_t)fr->s) j++;
  std::vector<unsigned char> mask(rho * rho);
  for (unsigned q = 0; q < rho * rho; q++)
    mask[q] = sqz_fr_contains((sqz_u32)fr->s, fr->hnu, j, q % rho, q / rho) ? 0xff : 0;
  std::vector<unsigned char> init(f->elems), ref(f->elems), fill(f->elems, 7);
  sqz_field_fill_random(f, 0.45, 77);
  sqz__field_download(f, init.data());
  if (states > 2) {
    for (uint64_t i = 0; i < f->elems; i++)
      init[i] = mask[i % (rho * rho)] ? (unsigned char)((i * 2654435761u >> 7) % states) : 0;
    sqz__field_upload(f, init.data());
  }
  sqz_life_step(f, rule, (uint64_t)steps);
  sqz__field_download(f, ref.data());
  sqz_cu_fractal T;
  sqz__cu_table(fr, (uint32_t)fr->r - j, j, birth | survive << 9, &T);
  T.states = states > 2 ? states : 2;
  uint64_t threshold = (uint64_t)ldexp(0.45, 32), n = f->elems;
  unsigned side = (unsigned)dom->side;
  sqz_emu_launch(2, 64, [&] { sqz_fill_block(&T, fill.data(), mask.data(), 77, threshold, side, n); });
  if (states == 2) sqz_emu_report(fill == init, what + ": random fill");
  for (int mma = 0; mma < 2; mma++) {
    std::vector<unsigned char> a = init, b(f->elems, 0);
    sqz_emu_life_fn fn = sqz_emu_life_kernel(fr, mma, T.unit, states > 2);
    uint64_t groups = (T.tiles + T.tpw - 1) / T.tpw;
    for (int i = 0; i < steps; i++, std::swap(a, b))
      sqz_emu_launch((unsigned)std::min<uint64_t>(groups, 3), 32, [&] { fn(&T, a.data(), b.data(), mask.data(), groups); });
    sqz_emu_report(a == ref, what + ": " + std::to_string(steps) + " steps, " + (mma ? "mma" : "alu"));
  }
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}

int main(void) {
  for (const char *p : {"sierpinski-triangle", "sierpinski-carpet", "vicsek-cross", "##./#.#/.##", "#..#/.##./.##./#..#",
                        "#./.."})
    sqz_emu_maps(p, 32);
  /* every specialisation, unit (1 or 4 cells per lane), tiles per warp 1..32, segmented rows */
  static const struct {
    const char *pattern;
    int r;
    unsigned rho;
    const char *rule;
    int steps;
  } cases[] = {{"sierpinski-triangle", 6, 1, "B2/S23", 2},  {"sierpinski-triangle", 7, 2, "B3/S23", 3},
               {"sierpinski-triangle", 8, 4, "B2/S23", 3},  {"sierpinski-triangle", 9, 16, "B3/S23", 2},
               {"sierpinski-triangle", 9, 256, "B2/S23", 2}, {"sierpinski-triangle", 5, 32, "B2/S23", 2},
               {"##/.#", 8, 8, "B36/S23", 3},               {"sierpinski-carpet", 3, 1, "B3/S23", 2},
               {"sierpinski-carpet", 5, 81, "B2/S23", 2},   {"vicsek-cross", 5, 9, "B3/S23", 3},
               {"vicsek-saltire", 5, 3, "B36/S23", 3},      {"#..#/.##./.##./#..#", 4, 16, "B1/S012345678", 2},
               {"#./..", 4, 2, "B0/S0", 2},
               /* Generations: Brian's Brain, Star Wars, a 25-state rule; units 1 and 4, segmented rows */
               {"sierpinski-triangle", 8, 4, "/2/3", 3},    {"sierpinski-carpet", 5, 9, "345/2/4", 4},
               {"sierpinski-triangle", 9, 256, "B2/S/C3", 2}, {"vicsek-cross", 5, 3, "B34/S23/C25", 5},
               {"##/.#", 8, 8, "B2/S34/C6", 3}};
  for (const auto &c : cases) sqz_emu_life(c.pattern, c.r, c.rho, c.rule, c.steps);
  printf("%d failure(s)\n", sqz_emu_failures);
  return sqz_emu_failures ? 1 : 0;
}
