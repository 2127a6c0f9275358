/* labels: opencl */
/* ctest cases: tiles temporal simplex boxes */
/* test_swar.c — the fast u8 Life steps (cl/engine_fractal_swar.cl at every tile level, the list of boxes on bytes, cl/engine_simplex_swar.cl, cl/engine_tetra_swar.cl) against the generic kernels and the cpu backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_bits.h"
#include "backends/opencl/cl_engine.h"
#include "sqz_test.h"

/* Bytes of the embedded image of dom (side^dims). */
static uint64_t image_bytes(const sqz_domain *dom) {
  uint64_t n = sqz_domain_side(dom);
  return dom->dims == 3 ? n * n * n : n * n;
}

/* The cpu backend's embedded state after `steps` steps of rule from a random fill. */
static unsigned char *cpu_state(const char *spec, const char *rule, unsigned steps, uint64_t *live) {
  sqz_context *cpu = sqz_test_context("cpu");
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, spec, &dom));
  uint64_t bytes = image_bytes(dom);
  unsigned char *ref = malloc(bytes);
  ck_assert_ptr_nonnull(ref);
  SQZ_OK_OR_FAIL(cpu, sqz_field_create(dom, SQZ_U8, "bb", &f));
  SQZ_OK_OR_FAIL(cpu, sqz_field_fill_random(f, 0.45, 5));
  SQZ_OK_OR_FAIL(cpu, sqz_life_step(f, rule, steps));
  SQZ_OK_OR_FAIL(cpu, sqz_field_read(f, ref, bytes));
  SQZ_OK_OR_FAIL(cpu, sqz_field_count(f, live));
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(cpu);
  return ref;
}

/* Runs layout (compact: tile side `block`, 0 = automatic) on opencl with the fast step on or
 * off and compares with ref cell for cell. */
static void expect_opencl(sqz_context *cl, sqz_domain *dom, const char *layout, uint32_t block, int fast,
                          const char *rule, unsigned steps, const unsigned char *ref, uint64_t ref_live) {
  uint64_t n = sqz_domain_side(dom), bytes = image_bytes(dom), live = 0;
  unsigned char *got = malloc(bytes);
  ck_assert_ptr_nonnull(got);
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(cl, sqz_field_create(dom, SQZ_U8, layout, &f));
  if (block) SQZ_OK_OR_FAIL(cl, sqz_field_set_block(f, block));
  sqz_update life = {.kind = SQZ_UPDATE_LIFE};
  int applies = dom->kind == SQZ_DOMAIN_FRACTAL ? sqz__cl_fractal_swar_applies(f, &life) : sqz__cl_simplex_swar_applies(f, &life);
  ck_assert_int_eq(applies, fast); /* the path under test is the one that runs */
  SQZ_OK_OR_FAIL(cl, sqz_field_fill_random(f, 0.45, 5));
  SQZ_OK_OR_FAIL(cl, sqz_life_step(f, rule, 1));
  SQZ_OK_OR_FAIL(cl, sqz_life_step(f, rule, steps - 1));
  SQZ_OK_OR_FAIL(cl, sqz_field_read(f, got, bytes));
  SQZ_OK_OR_FAIL(cl, sqz_field_count(f, &live));
  uint64_t i = 0;
  while (i < bytes && got[i] == ref[i]) i++;
  ck_assert_msg(i == bytes && live == ref_live, "%s %s (tile side %u, %s step) %s: image cell (%llu, %llu) is %u, cpu %u; live %llu, cpu %llu",
                sqz_domain_spec(dom), layout, block, fast ? "fast" : "generic", rule, (unsigned long long)(i % n),
                (unsigned long long)(i / n), i < bytes ? got[i] : 0u, i < bytes ? ref[i] : 0u,
                (unsigned long long)live, (unsigned long long)ref_live);
  sqz_field_release(f);
  free(got);
}

/* Every tile level of block:RHO and compact with both word widths of the one-step kernel, from a one-cell tile (rho = 1: every storage word
 * spans tiles) to one tile holding the whole fractal; scales 2, 3 and 4 (rows of rho % 4 != 0
 * cells, tile sizes k^j that are odd, storage sizes that are not whole words); a rule with
 * birth on 0 neighbours (block holes must stay 0); fast and generic steps equal the cpu. */
START_TEST(test_every_tile_level) {
  const char *specs[] = {"fractal:sierpinski-triangle:6", "fractal:sierpinski-carpet:3", "fractal:vicsek-cross:3",
                         "fractal:...#/.#../###./#.#.:3", "fractal:#./.#:6", "fractal:sierpinski-triangle:1"};
  const char *rules[] = {"B3/S23", "B036/S1245"};
  sqz_context *cl = sqz_test_context("opencl");
  sqz_test_option(cl, "fractal_step", "words"); /* the word step, not the boxes, on compact */
  for (size_t d = 0; d < sizeof specs / sizeof specs[0]; d++)
    for (size_t r = 0; r < 2; r++) {
      uint64_t ref_live = 0;
      unsigned char *ref = cpu_state(specs[d], rules[r], 4, &ref_live);
      sqz_domain *dom = NULL;
      SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, specs[d], &dom));
      for (size_t w = 0; w < 2; w++) { /* both steps whatever the device: 1-byte words (CPUs), 32-bit (GPUs) */
        sqz_test_option(cl, "swar_word", w ? "32" : "8");
        for (uint64_t rho = 1; rho <= sqz_domain_side(dom); rho *= (uint64_t)dom->fr.s) {
          char layout[32];
          snprintf(layout, sizeof layout, "block:%llu", (unsigned long long)rho);
          expect_opencl(cl, dom, layout, 0, 1, rules[r], 4, ref, ref_live);
          expect_opencl(cl, dom, "compact", (uint32_t)rho, 1, rules[r], 4, ref, ref_live);
        }
        expect_opencl(cl, dom, "compact", 0, 1, rules[r], 4, ref, ref_live);
      }
      sqz_test_option(cl, "swar_word", NULL);
      sqz_test_option(cl, "engine", "generic");
      expect_opencl(cl, dom, "compact", 0, 0, rules[r], 4, ref, ref_live);
      expect_opencl(cl, dom, "block:1", 0, 0, rules[r], 4, ref, ref_live);
      sqz_test_option(cl, "engine", NULL);
      sqz_domain_release(dom);
      free(ref);
    }
  sqz_test_option(cl, "fractal_step", NULL);
  sqz_context_release(cl);
}
END_TEST

/* Several steps per launch (SQZ_TEMPORAL = 2 and 4: engine_fractal_swar_t) at every tile level of
 * block:RHO and compact and every scale, over 7 steps (launches of depth steps and a shorter
 * last one), equal to the cpu; with the local memory lowered, several tiles per iteration and
 * several iterations per group. Tiles smaller than the depth run one step per launch. */
START_TEST(test_temporal) {
  const char *specs[] = {"fractal:sierpinski-triangle:6", "fractal:sierpinski-carpet:3", "fractal:vicsek-cross:3",
                         "fractal:...#/.#../###./#.#.:3", "fractal:#./.#:6", "fractal:sierpinski-triangle:10"};
  const char *rules[] = {"B3/S23", "B036/S1245"};
  sqz_context *cl = sqz_test_context("opencl");
  sqz_test_option(cl, "fractal_step", "words"); /* the word step, not the boxes, on compact */
  uint64_t saved = cl->local_mem;
  for (size_t d = 0; d < sizeof specs / sizeof specs[0]; d++)
    for (size_t r = 0; r < 2; r++) {
      uint64_t ref_live = 0;
      unsigned char *ref = cpu_state(specs[d], rules[r], 7, &ref_live);
      sqz_domain *dom = NULL;
      SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, specs[d], &dom));
      for (unsigned depth = 2; depth <= 4; depth += 2) { /* 7 steps: 2+2+2+1 and 4+3, both parities of the last launch */
        char env[4];
        snprintf(env, sizeof env, "%u", depth);
        sqz_test_option(cl, "temporal", env);
        for (uint64_t rho = 1; rho <= sqz_domain_side(dom) && rho <= 32; rho *= (uint64_t)dom->fr.s) {
          char layout[32];
          snprintf(layout, sizeof layout, "block:%llu", (unsigned long long)rho);
          expect_opencl(cl, dom, layout, 0, 1, rules[r], 7, ref, ref_live);
          expect_opencl(cl, dom, "compact", (uint32_t)rho, 1, rules[r], 7, ref, ref_live);
        }
        cl->local_mem = 8192; /* a few tiles per iteration */
        expect_opencl(cl, dom, "compact", 0, 1, rules[r], 7, ref, ref_live);
        cl->local_mem = saved;
      }
      sqz_test_option(cl, "temporal", NULL);
      sqz_domain_release(dom);
      free(ref);
    }
  sqz_test_option(cl, "fractal_step", NULL);
  sqz_context_release(cl);
}
END_TEST

/* Larger levels, several tiles per iteration and several iterations per group, with the
 * local memory lowered so that the automatic level is small, and at the device's own. */
START_TEST(test_many_tiles) {
  const char *specs[] = {"fractal:sierpinski-triangle:11", "fractal:sierpinski-carpet:6"};
  sqz_context *cl = sqz_test_context("opencl");
  sqz_test_option(cl, "fractal_step", "words"); /* the word step, not the boxes, on compact */
  uint64_t saved = cl->local_mem, lmems[] = {600, 3000, saved};
  for (size_t d = 0; d < 2; d++) {
    uint64_t ref_live = 0;
    unsigned char *ref = cpu_state(specs[d], "B3/S23", 3, &ref_live);
    ck_assert_uint_gt(ref_live, 0);
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, specs[d], &dom));
    for (size_t m = 0; m < 6; m++) { /* each local memory size with 1-byte and 32-bit words */
      cl->local_mem = lmems[m / 2];
      sqz_test_option(cl, "swar_word", m % 2 ? "32" : "8");
      expect_opencl(cl, dom, "compact", 0, 1, "B3/S23", 3, ref, ref_live);
      expect_opencl(cl, dom, dom->fr.s == 2 ? "block:8" : "block:9", 0, 1, "B3/S23", 3, ref, ref_live);
    }
    sqz_test_option(cl, "swar_word", NULL);
    cl->local_mem = saved;
    sqz_domain_release(dom);
    free(ref);
  }
  sqz_test_option(cl, "fractal_step", NULL);
  sqz_context_release(cl);
}
END_TEST

/* Simplices in both layouts with the fast step (and the generic one, compact) against the cpu,
 * with every word width (8 bits: the CPU devices' row walk; 32: the GPUs'; 64, triangles: scalar
 * 64-bit SWAR) and in 64-bit index arithmetic (32 bits where they suffice by default): sides whose
 * rows are shorter than a word, cross the fold's seam (2D) or the faces at every position, and
 * start at every byte of a word; tetrahedra also with 3 rows per work-item (chunk ends inside the
 * planes, both words), with the one-plane 32-bit step (SQZ_TETRA_VARIANT=0; the default takes two
 * planes a work-item, fast rows from side 13 on, masked rows near the row ends and the storage's
 * end) and SQZ_ENGINE=fast (a no-op now); rules: B6/S5,6,7 (runs of counts: the range test), one
 * with birth on 0 neighbours (the table lookups; bb cells outside the domain must stay 0; 3D 8-bit
 * words: 5 runs of keys, past the two held in registers). */
static void check_simplices(const char *family, const unsigned *sides, size_t n_sides, const char *const rules[2],
                            unsigned steps) {
  sqz_context *cl = sqz_test_context("opencl");
  int tet = strcmp(family, "tetrahedron") == 0;
  for (size_t d = 0; d < n_sides; d++)
    for (size_t r = 0; r < 2; r++) {
      char spec[48];
      snprintf(spec, sizeof spec, "%s:%u", family, sides[d]);
      uint64_t ref_live = 0;
      unsigned char *ref = cpu_state(spec, rules[r], steps, &ref_live);
      sqz_domain *dom = NULL;
      SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, spec, &dom));
      expect_opencl(cl, dom, "compact", 0, 1, rules[r], steps, ref, ref_live);
      sqz_test_option(cl, "index64", "1");
      expect_opencl(cl, dom, "compact", 0, 1, rules[r], steps, ref, ref_live);
      sqz_test_option(cl, "index64", NULL);
      for (size_t w = 0; w < (tet ? 2u : 3u); w++) { /* every word width, whatever the device's default (SQZ_SWAR_WORD) */
        sqz_test_option(cl, "swar_word", (const char *[]){"8", "32", "64"}[w]);
        expect_opencl(cl, dom, "compact", 0, 1, rules[r], steps, ref, ref_live);
        expect_opencl(cl, dom, "bb", 0, 1, rules[r], steps, ref, ref_live);
        if (w == 1) { /* 32-bit words in 64-bit index arithmetic (the GPUs' path above 2^32 bytes) */
          sqz_test_option(cl, "index64", "1");
          expect_opencl(cl, dom, "compact", 0, 1, rules[r], steps, ref, ref_live);
          expect_opencl(cl, dom, "bb", 0, 1, rules[r], steps, ref, ref_live);
          sqz_test_option(cl, "index64", NULL);
        }
        if (tet) { /* both words: 3 rows per work-item (a plane's last chunk short) */
          sqz_test_option(cl, "tetra_chunk", "3");
          expect_opencl(cl, dom, "compact", 0, 1, rules[r], steps, ref, ref_live);
          expect_opencl(cl, dom, "bb", 0, 1, rules[r], steps, ref, ref_live);
          sqz_test_option(cl, "tetra_chunk", NULL);
        }
        if (tet && w == 1) { /* 32-bit words: the one-plane step (variant 0) */
          sqz_test_option(cl, "tetra_variant", "0");
          expect_opencl(cl, dom, "compact", 0, 1, rules[r], steps, ref, ref_live);
          expect_opencl(cl, dom, "bb", 0, 1, rules[r], steps, ref, ref_live);
          sqz_test_option(cl, "tetra_variant", NULL);
        }
      }
      sqz_test_option(cl, "swar_word", NULL);
      sqz_test_option(cl, "engine", "fast");
      expect_opencl(cl, dom, "bb", 0, 1, rules[r], steps, ref, ref_live);
      sqz_test_option(cl, "engine", "generic");
      expect_opencl(cl, dom, "compact", 0, 0, rules[r], steps, ref, ref_live);
      sqz_test_option(cl, "engine", NULL);
      sqz_domain_release(dom);
      free(ref);
    }
  sqz_context_release(cl);
}

START_TEST(test_triangles) {
  const unsigned sides[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 37, 38, 39, 64, 101, 258, 1500}; /* 1500: more words than one launch of the grid covers, so work-items take several chunks */
  const char *const rules[2] = {"B3/S23", "B036/S1245"};
  check_simplices("triangle", sides, sizeof sides / sizeof sides[0], rules, 4);
  /* the 32-bit words' range test of the rule (sqz_swar_rule_r) with an empty birth or survive set */
  const unsigned more_sides[] = {37, 101};
  const char *const more_rules[2] = {"B/S23", "B2345678/S"};
  check_simplices("triangle", more_sides, 2, more_rules, 4);
}
END_TEST

START_TEST(test_tetrahedra) {
  const unsigned sides[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 21, 40, 67, 131}; /* 67: bb rows at every byte of a word */
  const char *const rules[2] = {"B6/S5,6,7", "B0,6,26/S5,6,7,26"};
  check_simplices("tetrahedron", sides, sizeof sides / sizeof sides[0], rules, 3);
}
END_TEST

/* Cells other than 0 and 1 (outside sqz_life_step's contract, but a loaded .npy may hold them): the
 * CPU devices' tetrahedron step counts any non-zero cell as alive and neighbour values mod 32, as the
 * cpu backend and the generic kernels do. (The 32-bit word steps of GPUs add cells as bytes of a
 * word and assume the contract's 0 and 1.) */
START_TEST(test_tetra_values) {
  const unsigned sides[] = {12, 67};
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  sqz_test_option(cl, "swar_word", "8");
  for (size_t d = 0; d < 2; d++) {
    uint64_t n = sides[d], cells = n * (n + 1) * (n + 2) / 6, live[2] = {0, 0};
    unsigned char *vals = malloc(cells), *got[2] = {malloc(n * n * n), malloc(n * n * n)};
    ck_assert(vals && got[0] && got[1]);
    for (uint64_t i = 0; i < cells; i++) vals[i] = (unsigned char)((i * 2654435761u >> 7) % 3 ? 0 : (i * 40503u >> 3) % 5 == 0 ? 255 : 1 + i % 3);
    char spec[32];
    snprintf(spec, sizeof spec, "tetrahedron:%llu", (unsigned long long)n);
    for (int b = 0; b < 2; b++) {
      sqz_context *ctx = b ? cpu : cl;
      sqz_domain *dom = NULL;
      sqz_field *f = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "compact", &f));
      SQZ_OK_OR_FAIL(ctx, sqz_field_write_compact(f, vals, cells));
      SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B6/S5,6,7", 3));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, got[b], n * n * n));
      SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &live[b]));
      sqz_field_release(f);
      sqz_domain_release(dom);
    }
    ck_assert_msg(memcmp(got[0], got[1], n * n * n) == 0 && live[0] == live[1],
                  "tetrahedron:%llu, 1-byte words: cells of 2, 3 and 255 give other states than the cpu backend",
                  (unsigned long long)n);
    free(vals);
    free(got[0]);
    free(got[1]);
  }
  sqz_test_option(cl, "swar_word", NULL);
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* The boxes on compact u8 states (cl/engine_bits_fractal.cl with SQZ_BITS_BYTES): the list, the
 * default where boxes have side 8, and forced (SQZ_BITS_STEP=list) on scales 3 and 4 and on
 * smaller boxes; the window (the GPUs' default elsewhere, SQZ_FRACTAL_STEP=boxes here) on every
 * scale; one tile, three, and 27 (several a work-group), holes and patterns of 2 and 3 cells, a
 * rule with birth on 0 neighbours (holes and absent tiles stay 0), 1, 2, 4 and 8 steps a launch
 * over 7 steps, the list also as built for GPUs (SQZ_BITS_HOIST=1, groups of 256 and 128); equal to the cpu. A launch
 * block set or SQZ_FRACTAL_STEP=words keeps the word step. */
START_TEST(test_boxes) {
  struct { const char *spec; const char *step, *q; } runs[] = {
      {"fractal:sierpinski-triangle:6", NULL, NULL}, {"fractal:sierpinski-triangle:9", NULL, NULL},
      {"fractal:sierpinski-triangle:11", NULL, NULL}, {"fractal:#./.#:10", NULL, NULL},
      {"fractal:.#/##:9", NULL, NULL},                {"fractal:sierpinski-carpet:4", "list", NULL},
      {"fractal:vicsek-cross:4", "list", NULL},       {"fractal:...#/.#../###./#.#.:3", "list", NULL},
      {"fractal:sierpinski-triangle:8", "list", "1"}, {"fractal:sierpinski-triangle:2", "list", NULL},
      {"fractal:sierpinski-carpet:4", "window", NULL}, {"fractal:vicsek-cross:5", "window", NULL},
      {"fractal:...#/.#../###./#.#.:3", "window", NULL}, {"fractal:sierpinski-triangle:11", "window", NULL},
      {"fractal:#./.#:9", "window", NULL}, {"fractal:sierpinski-carpet:2", "window", "0"}};
  const char *rules[] = {"B3/S23", "B036/S1245"};
  sqz_context *cl = sqz_test_context("opencl");
  for (size_t d = 0; d < sizeof runs / sizeof runs[0]; d++)
    for (size_t r = 0; r < 2; r++) {
      uint64_t ref_live = 0;
      unsigned char *ref = cpu_state(runs[d].spec, rules[r], 7, &ref_live);
      sqz_domain *dom = NULL;
      SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, runs[d].spec, &dom));
      if (runs[d].step) sqz_test_option(cl, "bits_step", runs[d].step);
      if (runs[d].q) sqz_test_option(cl, "bits_q", runs[d].q);
      int window = runs[d].step && strcmp(runs[d].step, "window") == 0;
      if (window) sqz_test_option(cl, "fractal_step", "boxes");
      sqz_field *f = NULL;
      SQZ_OK_OR_FAIL(cl, sqz_field_create(dom, SQZ_U8, "compact", &f));
      ck_assert_msg(sqz__cl_fractal_boxes_applies(f), "%s: the boxes apply", runs[d].spec);
      sqz_test_option(cl, "fractal_step", "words");
      ck_assert(!sqz__cl_fractal_boxes_applies(f));
      if (window) sqz_test_option(cl, "fractal_step", "boxes");
      else sqz_test_option(cl, "fractal_step", NULL);
      SQZ_OK_OR_FAIL(cl, sqz_field_set_block(f, 2));
      ck_assert(!sqz__cl_fractal_boxes_applies(f));
      sqz_field_release(f);
      for (unsigned depth = 1; depth <= 8; depth *= 2) {
        char env[4];
        snprintf(env, sizeof env, "%u", depth);
        sqz_test_option(cl, "temporal", env);
        expect_opencl(cl, dom, "compact", 0, 1, rules[r], 7, ref, ref_live);
        sqz_test_option(cl, "bits_hoist", "1"); /* the GPUs' list step (entries in registers, 1 or 2 a work-item) */
        if (depth % 4 == 0) expect_opencl(cl, dom, "compact", 0, 1, rules[r], 7, ref, ref_live);
        sqz_test_option(cl, "bits_lanes", "128");
        if (depth == 8) expect_opencl(cl, dom, "compact", 0, 1, rules[r], 7, ref, ref_live);
        sqz_test_option(cl, "bits_lanes", NULL);
        sqz_test_option(cl, "bits_hoist", NULL);
      }
      sqz_test_option(cl, "temporal", NULL);
      sqz_test_option(cl, "bits_step", NULL);
      sqz_test_option(cl, "bits_q", NULL);
      sqz_test_option(cl, "fractal_step", NULL);
      sqz_domain_release(dom);
      free(ref);
    }
  sqz_context_release(cl);
}
END_TEST

/* Four cases, each a ctest entry (the "ctest cases" line names them), so that ctest -jN runs them side by side. */
static TCase *tcase(Suite *s, const char *name) {
  TCase *tc = tcase_create(name);
  tcase_set_timeout(tc, 900);
  suite_add_tcase(s, tc);
  return tc;
}

int main(void) {
  Suite *s = suite_create("swar");
  TCase *tc = tcase(s, "tiles");
  tcase_add_test(tc, test_every_tile_level);
  tcase_add_test(tc, test_many_tiles);
  tc = tcase(s, "temporal");
  tcase_add_test(tc, test_temporal);
  tc = tcase(s, "simplex");
  tcase_add_test(tc, test_triangles);
  tcase_add_test(tc, test_tetrahedra);
  tcase_add_test(tc, test_tetra_values);
  tc = tcase(s, "boxes");
  tcase_add_test(tc, test_boxes);
  return sqz_test_run(s);
}
