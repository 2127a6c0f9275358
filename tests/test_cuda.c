/* test_cuda.c — the cuda backend: the exact MMA encoding (host emulation), the unavailable path, and with SQZ_TEST_CUDA=1 a GPU compared bit for bit with ALU, OpenCL and CPU. */
/* labels: host opencl */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_fractal.h"
#include "sqz_fractal.h"
#include "core/sqz_internal.h"
#include "fractal/fractal_internal.h"
#include "sqz_mma.h"
#include "sqz_test.h"

/* Patterns covering every kernel specialisation (s2k3 twice with different tables, s3k8,
 * s3k5, generic s = 3, 4 and 16) and the one-replica edge case. */
static const char *const sqz_t_patterns[] = {
    "sierpinski-triangle", "##/.#",   "sierpinski-carpet", "vicsek-cross", "vicsek-saltire", "##./#.#/.##",
    "#..#/.##./.##./#..#", "#./..",
    "################/#..............#/#.#.#.#.#.#.#.#./#..............#/#.#.#.#.#.#.#.#./#..............#/"
    "#.#.#.#.#.#.#.#./#..............#/#.#.#.#.#.#.#.#./#..............#/#.#.#.#.#.#.#.#./#..............#/"
    "#.#.#.#.#.#.#.#./#..............#/#.#.#.#.#.#.#.#./################",
};
#define SQZ_T_NPATTERNS (sizeof sqz_t_patterns / sizeof sqz_t_patterns[0])

static int sqz_t_gpu(void) {
  const char *v = getenv("SQZ_TEST_CUDA");
  return v && strcmp(v, "1") == 0;
}

static sqz_fractal sqz_t_fractal(const char *name, int r) {
  sqz_fractal fr;
  uint64_t side, cells;
  char level[8];
  snprintf(level, sizeof level, "%d", r);
  memset(&fr, 0, sizeof fr);
  int st = sqz__fractal_parse(NULL, name, level, &fr, &side, &cells);
  ck_assert_msg(st == SQZ_OK, "%s:%d: %s", name, r, sqz_last_error(NULL));
  return fr;
}

/* Largest tile-grid level the parser allows for fr (s^r < 2^31). */
static uint32_t sqz_t_max_level(const sqz_fractal *fr) {
  uint32_t r = 0;
  for (uint64_t p = (uint64_t)fr->s; p < ((uint64_t)1 << 31); p *= (uint64_t)fr->s) r++;
  return r;
}

/* ---- host emulation of the warp code of cuda/fractal_map.cuh -------------------------------- */

/* mma.sync m8n8k16 u8 with the documented fragments: d[lane][e] += (A B)[lane/4][2(lane%4)+e]. */
static void sqz_t_mma(const uint32_t a[32], const uint32_t b[32], int64_t d[32][2]) {
  int64_t A[8][16], B[16][8];
  for (unsigned l = 0; l < 32; l++)
    for (unsigned e = 0; e < 4; e++) {
      A[l / 4][4 * (l % 4) + e] = (a[l] >> (8 * e)) & 0xff;
      B[4 * (l % 4) + e][l / 4] = (b[l] >> (8 * e)) & 0xff;
    }
  for (unsigned l = 0; l < 32; l++)
    for (unsigned e = 0; e < 2; e++) {
      int64_t acc = 0;
      for (unsigned i = 0; i < 16; i++) acc += A[l / 4][i] * B[i][2 * (l % 4) + e];
      ck_assert_msg(acc <= INT32_MAX, "int32 accumulator overflow");
      d[l][e] += acc;
    }
}

/* Column c of D combined over the rows the shuffle reduction covers (span / 4 rows). */
static uint64_t sqz_t_combine(int64_t d[32][2], unsigned c, unsigned span, const uint64_t *scale) {
  uint64_t v = 0;
  for (unsigned m = 0; m < span / 4; m++) v += (uint64_t)d[4 * m + c / 2][c % 2] * scale[m];
  return v;
}

/* λ_b and the 8 ν_b of tile b through the emulated MMAs, exactly as sqz_cu_map_mma does. */
static void sqz_t_emulate(const sqz_cu_fractal *T, uint64_t b, uint64_t *lam, int64_t nb[9]) {
  uint32_t a[32], w[32], two = T->rb > SQZ_MMA_K, hole[32];
  int64_t d[32][2];
  uint64_t scale_s[8];
  for (unsigned m = 0; m < 8; m++) scale_s[m] = T->scale_s[m];
  memset(d, 0, sizeof d);
  for (unsigned h = 0; h <= two; h++) {
    for (unsigned l = 0; l < 32; l++) { /* tile b in the first column pair, nothing in the others */
      a[l] = T->a_s[h][l];
      w[l] = l / 4 < 2 ? sqz_mma_lambda_word(T->k, T->hl, T->pow_k, T->rb, b, (l / 4) & 1, sqz_mma_level(l, h, 0)) : 0;
    }
    sqz_t_mma(a, w, d);
  }
  uint32_t bx = (uint32_t)sqz_t_combine(d, 0, T->reduce_s, scale_s);
  uint32_t by = (uint32_t)sqz_t_combine(d, 1, T->reduce_s, scale_s);
  *lam = bx | (uint64_t)by << 32;
  memset(d, 0, sizeof d);
  memset(hole, 0, sizeof hole);
  for (unsigned h = 0; h <= two; h++) {
    for (unsigned l = 0; l < 32; l++) {
      unsigned dir = sqz_mma_direction(l / 4), nx = bx + dir % 3 - 1, ny = by + dir / 3 - 1;
      hole[l] |= nx >= T->pow_s[T->rb] || ny >= T->pow_s[T->rb];
      a[l] = T->a_k[h][l];
      w[l] = sqz_mma_nu_word(T->s, T->hnu, T->pow_s, T->rb, nx, ny, sqz_mma_level(l, h, 0), &hole[l]);
    }
    sqz_t_mma(a, w, d);
  }
  for (unsigned p = 0; p < 8; p++) {
    unsigned bad = hole[4 * p] | hole[4 * p + 1] | hole[4 * p + 2] | hole[4 * p + 3];
    nb[sqz_mma_direction(p)] = bad ? -1 : (int64_t)sqz_t_combine(d, p, T->reduce_k, T->scale_k);
  }
  nb[4] = (int64_t)b;
}

/* The reference: λ_b and ν_b of tile b by the digit loops of cl/sqz_fractal.h. */
static void sqz_t_reference(const sqz_fractal *fr, uint32_t rb, uint64_t b, uint64_t *lam, int64_t nb[9]) {
  sqz_u32 bx, by;
  sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, rb, b, &bx, &by);
  *lam = bx | (uint64_t)by << 32;
  for (sqz_u32 dir = 0; dir < 9; dir++)
    nb[dir] = dir == 4 ? (int64_t)b : sqz_fr_tile_neighbour((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hnu, rb, bx, by, dir);
}

/* Tiles to check at one level: the first and last `edge`, and `inner` pseudo-random ones. */
static uint64_t sqz_t_pick(uint64_t tiles, unsigned i, unsigned edge, uint64_t *seed) {
  if (tiles <= 2u * edge) return i < tiles ? i : tiles - 1;
  if (i < edge) return i;
  if (i < 2 * edge) return tiles - 2 * edge + i;
  *seed = sqz_mix64(*seed + 1);
  return *seed % tiles;
}

START_TEST(mma_encoding_fits_every_level) {
  /* every (s, k) the parser accepts, at every level with s^rb < 2^31: at most 8 rows of A,
   * every A entry a u8, every partial sum below 2^31 */
  for (uint32_t s = 2; s <= SQZ_CU_MAX_S; s++)
    for (uint32_t k = 1; k < s * s; k++) {
      uint32_t rb = 0;
      for (uint64_t p = s; p < ((uint64_t)1 << 31); p *= s) rb++;
      ck_assert_uint_le(sqz_mma_groups(s, rb), SQZ_MMA_ROWS);
      ck_assert_uint_le(sqz_mma_groups(k, rb), SQZ_MMA_ROWS);
      uint64_t top = 1;
      for (uint32_t i = 1; i < sqz_mma_group(k) && k > 1; i++) top *= k;
      ck_assert_uint_le(top, 255);
      ck_assert_uint_lt(top * k * 255, (uint64_t)1 << 31);
    }
}
END_TEST

START_TEST(mma_encoding_exact_on_host) {
  /* the MMA encoding, emulated on the host with the documented fragment layout, equals the
   * digit loops at every level up to the largest the parser allows (sierpinski: 30) */
  for (unsigned f = 0; f < SQZ_T_NPATTERNS; f++) {
    sqz_fractal fr = sqz_t_fractal(sqz_t_patterns[f], 1);
    uint32_t top = sqz_t_max_level(&fr);
    for (uint32_t rb = 0; rb <= top; rb++) {
      sqz_cu_fractal *T = malloc(sizeof *T);
      ck_assert_ptr_nonnull(T);
      sqz__cu_table(&fr, rb, 0, 0, T);
      uint64_t seed = rb * 7919u + f;
      for (unsigned i = 0; i < 96; i++) {
        uint64_t b = sqz_t_pick(T->tiles, i, 16, &seed), lam, ref_lam;
        int64_t nb[9], ref[9];
        sqz_t_emulate(T, b, &lam, nb);
        sqz_t_reference(&fr, rb, b, &ref_lam, ref);
        ck_assert_msg(lam == ref_lam, "%s rb %u tile %llu: λ %llx, expected %llx", fr.name, rb,
                      (unsigned long long)b, (unsigned long long)lam, (unsigned long long)ref_lam);
        for (int d = 0; d < 9; d++)
          ck_assert_msg(nb[d] == ref[d], "%s rb %u tile %llu dir %d: ν %lld, expected %lld", fr.name, rb,
                        (unsigned long long)b, d, (long long)nb[d], (long long)ref[d]);
      }
      free(T);
    }
  }
}
END_TEST

/* ---- the backend without a GPU ---------------------------------------------------------------- */

/* A small fractal step on a backend; returns the live count. */
static uint64_t sqz_t_small_run(const char *backend) {
  sqz_context *ctx = sqz_test_context(backend);
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  uint64_t live = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-triangle:7", &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "block:4", &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B2/S23", 3));
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &live));
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return live;
}

START_TEST(unavailable_path) {
  sqz_context *ctx = NULL;
  int st = sqz_context_create("cuda", NULL, &ctx);
  if (sqz_t_gpu()) { /* SQZ_TEST_CUDA=1 requires a working device */
    ck_assert_msg(st == SQZ_OK, "SQZ_TEST_CUDA=1 but the cuda backend failed: %s", sqz_last_error(NULL));
    ck_assert_str_eq(sqz_context_backend(ctx), "cuda");
    sqz_context_release(ctx);
  } else if (st == SQZ_OK) { /* a machine with a GPU, not asked to test it: the context must be real */
    ck_assert_str_eq(sqz_context_backend(ctx), "cuda");
    ck_assert(strlen(sqz_context_device_name(ctx)) > 0);
    sqz_context_release(ctx);
  } else {
    const char *why = sqz_last_error(NULL), *prefix = "CUDA backend unavailable: ";
    ck_assert_int_eq(st, SQZ_ERR_BACKEND_UNAVAILABLE);
    ck_assert_ptr_null(ctx);
    ck_assert_msg(strncmp(why, prefix, strlen(prefix)) == 0, "reason '%s'", why);
    ck_assert_msg(strlen(why) > strlen(prefix) + 4, "no reason after the prefix: '%s'", why);
  }
  /* the other backends keep working and agree */
  ck_assert_uint_eq(sqz_t_small_run("cpu"), sqz_t_small_run("opencl"));
}
END_TEST

/* ---- with a GPU (SQZ_TEST_CUDA=1) ------------------------------------------------------------- */

START_TEST(gpu_maps_exact) {
  /* the MMA and ALU map kernels equal the host digit loops at every level, on the first,
   * last and some middle tiles; levels past every fp16 limit included */
  sqz_context *ctx = sqz_test_context("cuda");
  const unsigned edge = 2048, n = 3 * edge;
  uint64_t *out = malloc(n * 10 * sizeof *out);
  ck_assert_ptr_nonnull(out);
  for (unsigned f = 0; f < SQZ_T_NPATTERNS; f++) {
    sqz_fractal fr = sqz_t_fractal(sqz_t_patterns[f], 1);
    for (uint32_t rb = 0; rb <= sqz_t_max_level(&fr); rb++) {
      sqz_cu_fractal T;
      sqz__cu_table(&fr, rb, 0, 0, &T);
      uint64_t starts[3] = {0, T.tiles > edge ? T.tiles - edge : 0, T.tiles / 3};
      for (int mma = 0; mma < 2; mma++)
        for (int w = 0; w < 3; w++) {
          uint64_t t0 = starts[w], count = T.tiles - t0 < edge ? T.tiles - t0 : edge, sum = 0;
          double secs = 0;
          SQZ_OK_OR_FAIL(ctx, sqz__cuda_maps(ctx, &fr, rb, mma, t0, count, out, &sum, &secs));
          for (uint64_t i = 0; i < count; i++) {
            uint64_t ref_lam;
            int64_t ref[9];
            sqz_t_reference(&fr, rb, t0 + i, &ref_lam, ref);
            ck_assert_msg(out[10 * i + 9] == ref_lam, "%s %s rb %u tile %llu: λ %llx, expected %llx",
                          mma ? "mma" : "alu", fr.name, rb, (unsigned long long)(t0 + i),
                          (unsigned long long)out[10 * i + 9], (unsigned long long)ref_lam);
            for (int d = 0; d < 9; d++)
              ck_assert_msg((int64_t)out[10 * i + d] == ref[d], "%s %s rb %u tile %llu dir %d: %lld, expected %lld",
                            mma ? "mma" : "alu", fr.name, rb, (unsigned long long)(t0 + i), d,
                            (long long)out[10 * i + d], (long long)ref[d]);
          }
        }
      /* the checksum mode (used by the benchmark) agrees between the two methods */
      uint64_t c[2];
      for (int mma = 0; mma < 2; mma++)
        SQZ_OK_OR_FAIL(ctx, sqz__cuda_maps(ctx, &fr, rb, mma, 0, T.tiles < 100000 ? T.tiles : 100000, NULL, &c[mma],
                                           NULL));
      ck_assert_msg(c[0] == c[1], "%s rb %u: checksums differ", fr.name, rb);
    }
  }
  free(out);
  sqz_context_release(ctx);
}
END_TEST

typedef struct {
  const char *fractal;
  int r, rho;
  const char *rule;
  int steps, cpu; /* cpu: also compare with the CPU reference */
} sqz_t_case;

static const sqz_t_case sqz_t_cases[] = {
    {"sierpinski-triangle", 10, 1, "B2/S23", 4, 1},  {"sierpinski-triangle", 10, 2, "B3/S23", 4, 1},
    {"sierpinski-triangle", 11, 4, "B2/S23", 4, 1},  {"sierpinski-triangle", 12, 16, "B3/S23", 4, 1},
    {"sierpinski-triangle", 12, 32, "B2/S23", 3, 1}, {"sierpinski-triangle", 13, 128, "B3/S23", 3, 1},
    {"sierpinski-triangle", 13, 256, "B2/S23", 3, 1}, {"sierpinski-triangle", 5, 32, "B2/S23", 3, 1},
    {"sierpinski-triangle", 14, 4, "B2/S23", 3, 1},  {"##/.#", 11, 8, "B36/S23", 4, 1},
    {"sierpinski-carpet", 6, 1, "B3/S23", 4, 1},     {"sierpinski-carpet", 6, 3, "B2/S23", 4, 1},
    {"sierpinski-carpet", 5, 27, "B3/S23", 4, 1},    {"sierpinski-carpet", 6, 81, "B2/S23", 3, 1},
    {"vicsek-cross", 7, 9, "B3/S23", 4, 1},          {"vicsek-saltire", 8, 3, "B36/S23", 4, 1},
    {"##./#.#/.##", 6, 3, "B3/S23", 4, 1},           {"#..#/.##./.##./#..#", 5, 4, "B2/S23", 4, 1},
    {"#..#/.##./.##./#..#", 5, 16, "B1/S012345678", 3, 1}, {"#./..", 4, 2, "B0/S0", 2, 1},
    /* Generations rules (the sqz_gens kernels), 1 and 4 cells a lane */
    {"sierpinski-triangle", 12, 16, "/2/3", 5, 1},   {"sierpinski-carpet", 6, 81, "345/2/4", 4, 1},
    {"sierpinski-triangle", 13, 1, "B2/S/C5", 4, 1}, {"vicsek-cross", 7, 3, "B34/S23/C25", 6, 1},
    /* GPU only: larger grids, past the fp16 limits of docs/MAPS.md 5.3 and past 16 levels (two
     * chained MMAs per map) */
    {"sierpinski-triangle", 17, 1, "B2/S23", 2, 0},  {"sierpinski-triangle", 18, 2, "B3/S23", 2, 0},
    {"sierpinski-triangle", 18, 4, "B2/S23", 2, 0},  {"vicsek-cross", 11, 1, "B3/S23", 2, 0},
    {"sierpinski-carpet", 9, 1, "B2/S23", 2, 0},
};

/* The storage of field f after it was filled and stepped like every other (malloc'ed). */
static unsigned char *sqz_t_state(sqz_context *ctx, const sqz_t_case *c, const char *map, int steps,
                                  uint64_t *elems, uint64_t *live) {
  char spec[256], layout[32];
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  snprintf(spec, sizeof spec, "fractal:%s:%d", c->fractal, c->r);
  snprintf(layout, sizeof layout, "block:%d", c->rho);
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layout, &f));
  if (map) SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(f, map));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.45, 77));
  if (steps) SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, c->rule, (uint64_t)steps));
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, live));
  unsigned char *data = malloc((size_t)f->elems);
  ck_assert_ptr_nonnull(data);
  SQZ_OK_OR_FAIL(ctx, sqz__field_download(f, data));
  *elems = f->elems;
  sqz_field_release(f);
  sqz_domain_release(dom);
  return data;
}

static void sqz_t_compare_case(const sqz_t_case *c, int steps) {
  static const char *const names[] = {"cuda mma", "cuda alu", "opencl", "cpu"};
  const char *backends[] = {"cuda", "cuda", "opencl", "cpu"}, *maps[] = {"mma", "alu", NULL, NULL};
  unsigned char *ref = NULL;
  uint64_t ref_elems = 0, ref_live = 0;
  for (int b = 0; b < (c->cpu ? 4 : 3); b++) {
    sqz_context *ctx = sqz_test_context(backends[b]);
    uint64_t elems, live;
    unsigned char *got = sqz_t_state(ctx, c, maps[b], steps, &elems, &live);
    sqz_context_release(ctx);
    if (!ref) {
      ref = got, ref_elems = elems, ref_live = live;
      continue;
    }
    ck_assert_uint_eq(elems, ref_elems);
    uint64_t i = 0;
    while (i < elems && got[i] == ref[i]) i++;
    ck_assert_msg(i == elems, "%s:%d block:%d %s after %d steps: %s differs from cuda mma at storage %llu (%u vs %u)",
                  c->fractal, c->r, c->rho, c->rule, steps, names[b], (unsigned long long)i, got[i], ref[i]);
    ck_assert_msg(live == ref_live, "%s:%d: %s counts %llu live cells, cuda mma %llu", c->fractal, c->r, names[b],
                  (unsigned long long)live, (unsigned long long)ref_live);
    free(got);
  }
  free(ref);
}

START_TEST(gpu_life_identical) {
  /* after the random fill and after the steps: CUDA MMA == CUDA ALU == OpenCL (== CPU) */
  const sqz_t_case *c = &sqz_t_cases[_i];
  sqz_t_compare_case(c, 0);
  sqz_t_compare_case(c, c->steps);
}
END_TEST

START_TEST(gpu_unsupported_layouts_and_maps) {
  sqz_context *ctx = sqz_test_context("cuda");
  sqz_domain *dom = NULL;
  sqz_field *f = NULL, *g = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:vicsek-cross:4", &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "compact", &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 5)); /* the host fill serves other layouts */
  ck_assert_int_eq(sqz_life_step(f, "B3/S23", 1), SQZ_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "compact"));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "block:3", &g));
  ck_assert_int_eq(sqz_field_set_map(g, "ltm"), SQZ_ERR_INVALID_ARGUMENT);
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(g, "alu"));
  ck_assert_str_eq(sqz_field_map(g), "alu");
  SQZ_OK_OR_FAIL(ctx, sqz_field_copy(g, f)); /* compact -> block through the host */
  uint64_t a = 0, b = 0;
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &a));
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(g, &b));
  ck_assert_uint_eq(a, b);
  ck_assert_uint_gt(a, 0);
  sqz_field_release(f);
  sqz_field_release(g);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cuda");
  TCase *host = tcase_create("host");
  tcase_add_test(host, mma_encoding_fits_every_level);
  tcase_add_test(host, mma_encoding_exact_on_host);
  tcase_add_test(host, unavailable_path);
  suite_add_tcase(s, host);
  if (sqz_t_gpu()) {
    TCase *gpu = tcase_create("gpu");
    tcase_add_test(gpu, gpu_maps_exact);
    tcase_add_loop_test(gpu, gpu_life_identical, 0, (int)(sizeof sqz_t_cases / sizeof sqz_t_cases[0]));
    tcase_add_test(gpu, gpu_unsupported_layouts_and_maps);
    suite_add_tcase(s, gpu);
  }
  return sqz_test_run(s);
}
