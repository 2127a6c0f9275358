/* labels: opencl */
/* test_fractal_life.c — Life on fractals: every layout, on the opencl and cpu backends, against the oracle's states. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sqz_internal.h"
#include "sqz_test.h"

/* ---- oracle states (tests/data/fractal_life.txt, from gen_fractal.py) --------------------- */
typedef struct {
  char pattern[300], rule[32];
  unsigned r, steps;
  unsigned long long seed, live;
  unsigned char *state; /* side x side embedded 0/1 */
} life_record;

static life_record *records;
static size_t n_records;

static void load_records(void) {
  FILE *f = fopen(sqz_test_data("fractal_life.txt"), "r");
  ck_assert_msg(f != NULL, "cannot open %s", sqz_test_data("fractal_life.txt"));
  static char line[1 << 16], hex[1 << 16];
  size_t cap = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "life ", 5) != 0) continue;
    if (n_records == cap) {
      cap = cap ? 2 * cap : 64;
      records = realloc(records, cap * sizeof *records);
      ck_assert_ptr_nonnull(records);
    }
    life_record *rec = &records[n_records++];
    ck_assert_int_eq(sscanf(line + 5, "%299s %u %31s %llu %u %llu %65535s", rec->pattern, &rec->r, rec->rule,
                            &rec->seed, &rec->steps, &rec->live, hex),
                     7);
    size_t bits = strlen(hex) * 4;
    rec->state = malloc(bits);
    ck_assert_ptr_nonnull(rec->state);
    for (size_t i = 0; i < bits; i++) {
      char c = hex[i / 4];
      unsigned v = (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
      rec->state[i] = (unsigned char)((v >> (3 - i % 4)) & 1u);
    }
  }
  fclose(f);
  ck_assert_uint_ge(n_records, 100);
}

static void free_records(void) {
  for (size_t i = 0; i < n_records; i++) free(records[i].state);
  free(records);
  records = NULL;
  n_records = 0;
}

static const life_record *find(const char *pattern, unsigned long long seed, const char *rule, unsigned steps) {
  for (size_t i = 0; i < n_records; i++) {
    const life_record *r = &records[i];
    if (strcmp(r->pattern, pattern) == 0 && r->seed == seed && r->steps == steps &&
        (steps == 0 || strcmp(r->rule, rule) == 0))
      return r;
  }
  ck_abort_msg("no oracle state for %s seed %llu %s after %u steps", pattern, seed, rule, steps);
  return NULL;
}

/* Reads the field as an embedded image and compares it with the oracle, naming the first
 * differing cell. */
static void expect_state(sqz_context *ctx, sqz_field *f, const life_record *want, const char *what) {
  uint64_t n = sqz_domain_side(f->dom), live = 0;
  unsigned char *got = malloc(n * n);
  ck_assert_ptr_nonnull(got);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, got, n * n));
  for (uint64_t i = 0; i < n * n; i++)
    ck_assert_msg(got[i] == want->state[i], "%s: %s %s seed %llu, %s after %u steps: cell (%llu, %llu) is %u, oracle %u",
                  sqz_context_backend(ctx), sqz_domain_spec(f->dom), sqz_field_layout(f), want->seed, want->rule,
                  want->steps, (unsigned long long)(i % n), (unsigned long long)(i / n), got[i], want->state[i]);
  SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &live));
  ck_assert_msg(live == want->live, "%s %s: count %llu, oracle %llu", what, sqz_field_layout(f),
                (unsigned long long)live, want->live);
  free(got);
}

static const char *const RULES[] = {"B3/S23", "B2/S23", "B036/S1245"};

/* The patterns whose bb and lambda layouts run on opencl: two of each scale s = 2, 3 and one of s = 4 (k from 2 to
 * 8). Those per-cell kernels see the pattern only through its tables, and each pattern is one more program build
 * per kernel (about a second of CPU each with PoCL); compact and block:RHO, the tile kernels, run on every pattern. */
static const char *const EMBEDDED_PATTERNS[] = {"#./##", "##/..", "###/#.#/###", ".#./###/.#.", "...#/.#../###./#.#."};

static int embedded_pattern(const char *pattern) {
  for (size_t i = 0; i < sizeof EMBEDDED_PATTERNS / sizeof EMBEDDED_PATTERNS[0]; i++)
    if (strcmp(pattern, EMBEDDED_PATTERNS[i]) == 0) return 1;
  return 0;
}

/* Every layout of every oracle domain on one backend (on opencl bb and lambda on EMBEDDED_PATTERNS): fill, 1 step,
 * 5 more steps. */
static void run_backend(const char *backend) {
  load_records();
  sqz_context *ctx = sqz_test_context(backend);
  for (size_t i = 0; i < n_records; i++) {
    const life_record *init = &records[i];
    if (init->steps != 0) continue;
    char spec[400];
    snprintf(spec, sizeof spec, "fractal:%s:%u", init->pattern, init->r);
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
    char layouts[16][32];
    uint32_t blocks[16];
    int nl = 0;
    const char *fixed[] = {"bb", "lambda", "compact", "lambda", "compact"};
    int embedded = strcmp(backend, "opencl") != 0 || embedded_pattern(init->pattern);
    for (int k = 0; k < 5; k++) {
      if (!embedded && (k == 0 || k == 1 || k == 3)) continue; /* bb, lambda, lambda with tiles */
      snprintf(layouts[nl], sizeof layouts[nl], "%s", fixed[k]);
      blocks[nl++] = k < 3 ? 0u : (k == 3 ? 1u : (uint32_t)dom->fr.s); /* tile levels 0 and 1 */
    }
    for (uint64_t rho = 1; rho <= dom->side; rho *= (uint64_t)dom->fr.s) {
      snprintf(layouts[nl], sizeof layouts[nl], "block:%llu", (unsigned long long)rho);
      blocks[nl++] = 0;
    }
    for (int l = 0; l < nl; l++) {
      for (size_t ru = 0; ru < sizeof RULES / sizeof RULES[0]; ru++) {
        sqz_field *f = NULL;
        SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layouts[l], &f));
        if (blocks[l]) SQZ_OK_OR_FAIL(ctx, sqz_field_set_block(f, blocks[l]));
        SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, init->seed));
        if (ru == 0) expect_state(ctx, f, init, "random fill");
        SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, RULES[ru], 1));
        expect_state(ctx, f, find(init->pattern, init->seed, RULES[ru], 1), "1 step");
        SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, RULES[ru], 5));
        expect_state(ctx, f, find(init->pattern, init->seed, RULES[ru], 6), "6 steps");
        sqz_field_release(f);
      }
    }
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
  free_records();
}

START_TEST(test_oracle_opencl) { run_backend("opencl"); }
END_TEST

START_TEST(test_oracle_cpu) { run_backend("cpu"); }
END_TEST

/* A custom OpenCL rule body equal to B3/S23 gives Conway's states in every layout. */
START_TEST(test_custom_rule) {
  load_records();
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-carpet:3", &dom));
  const char *layouts[] = {"bb", "lambda", "block:3", "compact"};
  for (int l = 0; l < 4; l++) {
    sqz_field *f = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layouts[l], &f));
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 42));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step_custom(f, "return (live == 3u || (self && live == 2u)) ? 1 : 0;", 6));
    expect_state(ctx, f, find("###/#.#/###", 42, "B3/S23", 6), "custom rule");
    sqz_field_release(f);
  }
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  free_records();
}
END_TEST

/* A mid-size level: every layout and both backends agree cell for cell after 3 steps. */
START_TEST(test_layouts_agree_level_10) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  const char *specs[] = {"fractal:sierpinski-triangle:10", "fractal:vicsek-cross:6", "fractal:...#/.#../###./#.#.:5",
                         "fractal:.#/..:7"};
  const char *layouts[] = {"bb", "lambda", "compact", "block:1", "block:4", "block:16", "block:27", "block:3", "block:64"};
  for (int d = 0; d < 4; d++) {
    unsigned char *ref = NULL;
    uint64_t n = 0, ref_live = 0;
    for (int b = 0; b < 2; b++) {
      sqz_context *ctx = b ? cpu : cl;
      sqz_domain *dom = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, specs[d], &dom));
      n = sqz_domain_side(dom);
      for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        sqz_field *f = NULL;
        if (sqz_field_create(dom, SQZ_U8, layouts[l], &f) != SQZ_OK) {
          ck_assert_ptr_null(f); /* block sizes that are not powers of this domain's scale */
          continue;
        }
        unsigned char *got = malloc(n * n);
        uint64_t live = 0;
        SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.4, 7));
        SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B2/S23", 3));
        SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, got, n * n));
        SQZ_OK_OR_FAIL(ctx, sqz_field_count(f, &live));
        if (!ref) {
          ref = got;
          ref_live = live;
          if (sqz_domain_cells(dom) > 1) ck_assert_uint_gt(live, 0); /* not a run that died out */
          continue;
        }
        ck_assert_msg(memcmp(ref, got, n * n) == 0 && live == ref_live, "%s %s on %s differs from bb on opencl",
                      specs[d], layouts[l], sqz_context_backend(ctx));
        free(got);
      }
      sqz_domain_release(dom);
    }
    free(ref);
  }
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* Tiles whose cache does not fit in local memory run the direct kernels (neighbours from
 * global memory): with the context's local memory lowered, block and compact layouts, both
 * tile λ maps, equal the cpu backend cell for cell. */
START_TEST(test_direct_tiles) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  const char *specs[] = {"fractal:sierpinski-triangle:9", "fractal:sierpinski-carpet:5", "fractal:...#/.#../###./#.#.:4"};
  const char *layouts[] = {"block:2", "block:4", "block:16", "block:3", "block:9", "block:27", "compact"};
  const struct { const char *map; uint64_t lmem; } runs[] = {{"seq", 100}, {"group", 400}};
  uint64_t saved = cl->local_mem;
  for (int d = 0; d < 3; d++) {
    sqz_domain *cd = NULL, *od = NULL;
    SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, specs[d], &cd));
    SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, specs[d], &od));
    uint64_t n = sqz_domain_side(cd), ref_live = 0, live = 0;
    unsigned char *ref = malloc(n * n), *got = malloc(n * n);
    sqz_field *f = NULL;
    SQZ_OK_OR_FAIL(cpu, sqz_field_create(cd, SQZ_U8, "bb", &f));
    SQZ_OK_OR_FAIL(cpu, sqz_field_fill_random(f, 0.45, 11));
    SQZ_OK_OR_FAIL(cpu, sqz_life_step(f, "B3/S23", 4));
    SQZ_OK_OR_FAIL(cpu, sqz_field_read(f, ref, n * n));
    SQZ_OK_OR_FAIL(cpu, sqz_field_count(f, &ref_live));
    sqz_field_release(f);
    ck_assert_uint_gt(ref_live, 0);
    for (size_t r = 0; r < 2; r++)
      for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
        for (uint32_t blk = 0; blk <= (l + 1 == sizeof layouts / sizeof layouts[0] ? 3u : 0u); blk++) {
          f = NULL;
          if (sqz_field_create(od, SQZ_U8, layouts[l], &f) != SQZ_OK) continue; /* not a power of this scale */
          uint32_t rho = 1;
          for (uint32_t b = 0; b < blk; b++) rho *= (uint32_t)od->fr.s;
          if (blk) SQZ_OK_OR_FAIL(cl, sqz_field_set_block(f, rho)); /* compact tiles of s^blk cells a side */
          SQZ_OK_OR_FAIL(cl, sqz_field_set_map(f, runs[r].map));
          SQZ_OK_OR_FAIL(cl, sqz_field_fill_random(f, 0.45, 11));
          cl->local_mem = runs[r].lmem;
          SQZ_OK_OR_FAIL(cl, sqz_life_step(f, "B3/S23", 4));
          cl->local_mem = saved;
          SQZ_OK_OR_FAIL(cl, sqz_field_read(f, got, n * n));
          SQZ_OK_OR_FAIL(cl, sqz_field_count(f, &live));
          uint64_t i = 0;
          while (i < n * n && got[i] == ref[i]) i++;
          ck_assert_msg(i == n * n && live == ref_live, "%s %s (block %u) map %s, %llu bytes of local memory: cell %llu differs",
                        specs[d], layouts[l], blk ? rho : 0u, runs[r].map, (unsigned long long)runs[r].lmem, (unsigned long long)i);
          sqz_field_release(f);
        }
    free(ref);
    free(got);
    sqz_domain_release(cd);
    sqz_domain_release(od);
  }
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* Levels whose buffers exceed the device's largest allocation are refused, never crash; a
 * level whose bb is too large still runs compact; a tile larger than local memory still runs. */
START_TEST(test_too_large_refused) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-triangle:30", &dom));
  const char *layouts[] = {"bb", "lambda", "compact", "block:1024"};
  for (int l = 0; l < 4; l++) {
    sqz_field *f = (sqz_field *)1;
    int st = sqz_field_create(dom, SQZ_U8, layouts[l], &f);
    ck_assert_msg(st == SQZ_ERR_TOO_LARGE, "%s: %s (%s)", layouts[l], sqz_status_name(st), sqz_last_error(ctx));
    ck_assert_ptr_null(f);
    ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "bytes"));
  }
  sqz_domain_release(dom);
  /* the smallest tile whose cache exceeds the device's own local memory (PoCL 3: 4 MiB, NVIDIA
   * 48 KiB) runs through the direct kernel and equals the cpu backend */
  int j = 1;
  while (j < 15 && ((1ull << j) + 2) * ((1ull << j) + 2) <= ctx->local_mem) j++;
  char spec[64], layout[32];
  snprintf(spec, sizeof spec, "fractal:#./##:%d", j);
  snprintf(layout, sizeof layout, "block:%llu", 1ull << j);
  uint64_t live[2] = {0, 0};
  for (int b = 0; b < 2; b++) {
    sqz_context *c = b ? sqz_test_context("cpu") : ctx;
    SQZ_OK_OR_FAIL(c, sqz_domain_parse(c, spec, &dom));
    sqz_field *f = NULL;
    SQZ_OK_OR_FAIL(c, sqz_field_create(dom, SQZ_U8, layout, &f));
    SQZ_OK_OR_FAIL(c, sqz_field_fill_random(f, 0.5, 3));
    SQZ_OK_OR_FAIL(c, sqz_life_step(f, "B3/S23", 2));
    SQZ_OK_OR_FAIL(c, sqz_field_count(f, &live[b]));
    sqz_field_release(f);
    sqz_domain_release(dom);
    if (b) sqz_context_release(c);
  }
  ck_assert_uint_gt(live[0], 0);
  ck_assert_uint_eq(live[0], live[1]);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("fractal_life");
  TCase *tc = tcase_create("life");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, test_oracle_opencl);
  tcase_add_test(tc, test_oracle_cpu);
  tcase_add_test(tc, test_custom_rule);
  tcase_add_test(tc, test_layouts_agree_level_10);
  tcase_add_test(tc, test_direct_tiles);
  tcase_add_test(tc, test_too_large_refused);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
