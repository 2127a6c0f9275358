/* labels: opencl */
/* ctest cases: cpu opencl devices auto split depth io bits bands errors */
/* test_field_parts.c — fields in parts: Life, heat and a user stencil on P parts bit-identical to one buffer, on the cpu and opencl backends, on two contexts, the automatic split under SQZ_MAX_ALLOC, every front-end operation, layout bits, bands of rows (bb, lambda), and the refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/field_parts.h"
#include "core/sqz_internal.h"
#include "sqz_common.h"
#include "sqz_parts.h"
#include "sqz_bits.h"
#include "sqz_hdf5.h"
#include "sqz_test.h"

/* A cyclic automaton on i32 cells, once in OpenCL C and once in C (the same arithmetic). */
static const char CYCLIC_CL[] =
    "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                      __constant const sqz_param_t *param) {\n"
    "  int next = ((int)self + 1) % 4, score = (int)(popcount(present) & 1u);\n"
    "  for (int i = 0; i < SQZ_NB; i++)\n"
    "    if (((present >> i) & 1u) && (int)nb[i] == next) score += 1 + i % 3;\n"
    "  return score >= 3 ? (sqz_cell_t)next : self;\n"
    "}\n";

static int nb_count = 8; /* SQZ_NB of the domain being stepped */
static void cyclic_fn(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  int32_t s, n, next, score;
  memcpy(&s, self, 4);
  next = (s + 1) % 4;
  score = __builtin_popcount(present) & 1;
  for (int i = 0; i < nb_count; i++) {
    memcpy(&n, (const char *)nb + 4 * i, 4);
    if (((present >> i) & 1u) && n == next) score += 1 + i % 3;
  }
  int32_t r = score >= 3 ? next : s;
  memcpy(out, &r, 4);
}

typedef enum { W_LIFE, W_HEAT, W_CYCLIC } workload;

/* A field of dom in layout, in `parts` parts (0: one buffer), or on n_ctx contexts. */
static sqz_field *make(sqz_domain *dom, sqz_context *const *ctxs, size_t n_ctx, sqz_type type, const char *layout,
                       uint64_t parts) {
  sqz_field *f = NULL;
  int st = n_ctx ? sqz_field_create_devices(dom, ctxs, n_ctx, type, layout, parts, &f)
           : parts ? sqz_field_create_parts(dom, type, layout, parts, &f)
                   : sqz_field_create(dom, type, layout, &f);
  ck_assert_msg(st == SQZ_OK, "%s %s in %llu parts: %s", sqz_domain_spec(dom), layout, (unsigned long long)parts,
                sqz_last_error((dom)->ctx));
  ck_assert_uint_eq(sqz_field_parts(f), parts ? parts : 1);
  return f;
}

/* A deterministic initial state in compact order (the same for every field of the domain). */
static void initial(sqz_field *f, sqz_type type, uint64_t seed) {
  sqz_domain *dom = sqz_field_domain(f);
  uint64_t n = sqz_domain_cells(dom);
  size_t ts = sqz_type_size(type);
  unsigned char *v = malloc(n * ts);
  ck_assert_ptr_nonnull(v);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t h = (i + seed) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    if (type == SQZ_U8) v[i] = (unsigned char)((h >> 7) % 3 == 0);
    else if (type == SQZ_I32) { int32_t x = (int32_t)((h >> 9) % 4); memcpy(v + 4 * i, &x, 4); }
    else { float x = (float)((h >> 11) % 1000) / 1000.0f; memcpy(v + 4 * i, &x, 4); }
  }
  ck_assert_msg(sqz_field_write_compact(f, v, n) == SQZ_OK, "%s", sqz_last_error((dom)->ctx));
  free(v);
}

static void step(sqz_field *f, workload w, uint64_t steps) {
  sqz_context *ctx = (sqz_field_domain(f))->ctx;
  int st = SQZ_OK;
  nb_count = sqz_domain_dims(sqz_field_domain(f)) == 3 ? 26 : 8;
  if (w == W_LIFE) st = sqz_life_step(f, NULL, steps);
  else if (w == W_HEAT) st = sqz_heat_step(f, 0.15, steps);
  else if (strcmp(sqz_context_backend(ctx), "cpu") == 0) st = sqz_stencil_step_fn(f, cyclic_fn, NULL, NULL, 0, steps);
  else st = sqz_stencil_step(f, CYCLIC_CL, "cyclic.cl", NULL, 0, steps);
  ck_assert_msg(st == SQZ_OK, "step: %s", sqz_last_error(ctx));
}

/* The state in compact order (caller frees). */
static unsigned char *state(sqz_field *f) {
  uint64_t n = sqz_domain_cells(sqz_field_domain(f));
  unsigned char *v = malloc(n * sqz_type_size(sqz_field_type(f)));
  ck_assert_ptr_nonnull(v);
  ck_assert_msg(sqz_field_read_compact(f, v, n) == SQZ_OK, "%s",
                sqz_last_error((sqz_field_domain(f))->ctx));
  return v;
}

/* Workload w for `steps` steps on a field in `parts` parts (or on n_ctx contexts) equals one buffer, bit for bit;
 * the two start from the same state and from the same random fill. */
static void same(sqz_domain *dom, sqz_context *const *ctxs, size_t n_ctx, const char *layout, workload w, uint64_t parts) {
  sqz_type type = w == W_LIFE ? SQZ_U8 : w == W_HEAT ? SQZ_F32 : SQZ_I32;
  sqz_field *one = make(dom, NULL, 0, type, layout, 0), *pf = make(dom, ctxs, n_ctx, type, layout, parts);
  uint64_t n = sqz_domain_cells(dom), steps = 6;
  size_t bytes = n * sqz_type_size(type);
  for (int fill = 0; fill < (w == W_LIFE ? 2 : 1); fill++) {
    if (fill) {
      ck_assert_int_eq(sqz_field_fill_random(one, 0.4, 11), SQZ_OK);
      ck_assert_int_eq(sqz_field_fill_random(pf, 0.4, 11), SQZ_OK);
    } else {
      initial(one, type, parts);
      initial(pf, type, parts);
    }
    unsigned char *a = state(one), *b = state(pf);
    ck_assert_msg(memcmp(a, b, bytes) == 0, "%s %s: the initial states differ", sqz_domain_spec(dom), layout);
    free(a);
    free(b);
    step(one, w, steps);
    step(pf, w, 2);
    step(pf, w, steps - 2);
    a = state(one);
    b = state(pf);
    uint64_t first = n;
    for (uint64_t i = 0; i < n && first == n; i++)
      if (memcmp(a + i * sqz_type_size(type), b + i * sqz_type_size(type), sqz_type_size(type))) first = i;
    ck_assert_msg(first == n, "%s %s on %s, workload %d, %llu parts%s: compact cell %llu of %llu differs",
                  sqz_domain_spec(dom), layout, sqz_context_backend((dom)->ctx), (int)w,
                  (unsigned long long)parts, n_ctx ? " on several contexts" : "", (unsigned long long)first,
                  (unsigned long long)n);
    free(a);
    free(b);
  }
  sqz_field_release(one);
  sqz_field_release(pf);
}

typedef struct {
  const char *spec, *layout;
  uint64_t k;
} family;

/* Fractals of scale 2 (k = 3) and 3 (k = 8) in compact and block tiles, triangles and tetrahedra in compact. */
static const family FAMILIES[] = {
    {"fractal:sierpinski-triangle:6", "compact", 3}, {"fractal:sierpinski-triangle:6", "block:4", 3},
    {"fractal:sierpinski-carpet:3", "compact", 8},   {"fractal:sierpinski-carpet:3", "block:3", 8},
    {"triangle:23", "compact", 4},                   {"tetrahedron:9", "compact", 4},
};
#define N_FAMILIES (sizeof FAMILIES / sizeof *FAMILIES)

/* The part counts: 1, 2, 3, k, k + 1, 7, more than the top level's k replicas, and 10 (divides none). */
static int counts(uint64_t k, uint64_t *out) {
  uint64_t list[] = {1, 2, 3, k, k + 1, 7, k + 3, 10};
  int n = 0;
  for (size_t i = 0; i < sizeof list / sizeof *list; i++) {
    int dup = 0;
    for (int j = 0; j < n; j++) dup |= out[j] == list[i];
    if (!dup) out[n++] = list[i];
  }
  return n;
}

static void backend_matrix(const char *backend) {
  sqz_context *ctx = sqz_test_context(backend);
  for (size_t i = 0; i < N_FAMILIES; i++) {
    sqz_domain *dom = NULL;
    ck_assert_int_eq(sqz_domain_parse(ctx, FAMILIES[i].spec, &dom), SQZ_OK);
    uint64_t ps[8];
    int n = counts(FAMILIES[i].k, ps);
    for (int j = 0; j < n; j++) same(dom, NULL, 0, FAMILIES[i].layout, W_LIFE, ps[j]);
    /* the stencil engine's two cell widths alternate over the families (each pair of (family, workload) is two
     * program builds on PoCL): f32 heat on both fractals' compact and the triangle, i32 on the block tiles and the
     * tetrahedron */
    workload w = i % 2 ? W_CYCLIC : W_HEAT;
    same(dom, NULL, 0, FAMILIES[i].layout, w, w == W_HEAT ? 3 : 2);
    same(dom, NULL, 0, FAMILIES[i].layout, w, w == W_HEAT ? FAMILIES[i].k + 1 : 7);
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
}

START_TEST(test_backend) { backend_matrix(_i ? "opencl" : "cpu"); } /* loop index 0: cpu, 1: opencl */
END_TEST

/* Parts on two contexts of the same device (the code path of two devices: halos through the host). */
START_TEST(test_devices) {
  sqz_context *ctxs[2] = {sqz_test_context("opencl"), sqz_test_context("opencl")};
  for (size_t i = 0; i < N_FAMILIES; i++) {
    sqz_domain *dom = NULL;
    ck_assert_int_eq(sqz_domain_parse(ctxs[0], FAMILIES[i].spec, &dom), SQZ_OK);
    same(dom, ctxs, 2, FAMILIES[i].layout, W_LIFE, 2);
    same(dom, ctxs, 2, FAMILIES[i].layout, W_LIFE, 5);
    same(dom, ctxs, 2, FAMILIES[i].layout, W_HEAT, 3);
    sqz_domain_release(dom);
  }
  sqz_context *cpus[2] = {sqz_test_context("cpu"), sqz_test_context("cpu")};
  sqz_domain *dom = NULL;
  ck_assert_int_eq(sqz_domain_parse(cpus[1], "fractal:sierpinski-triangle:6", &dom), SQZ_OK);
  same(dom, cpus, 2, "compact", W_CYCLIC, 4);
  sqz_domain_release(dom);
  for (int i = 0; i < 2; i++) {
    sqz_context_release(ctxs[i]);
    sqz_context_release(cpus[i]);
  }
}
END_TEST

/* Life on the parted field pf against one buffer, 6 steps from the random fill of seed 11. */
static void same_life(sqz_domain *dom, sqz_field *pf, const char *layout, uint64_t parts, const char *where) {
  sqz_field *one = make(dom, NULL, 0, SQZ_U8, layout, 0);
  uint64_t n = sqz_domain_cells(dom);
  ck_assert_int_eq(sqz_field_fill_random(one, 0.4, 11), SQZ_OK);
  ck_assert_int_eq(sqz_field_fill_random(pf, 0.4, 11), SQZ_OK);
  step(one, W_LIFE, 6);
  step(pf, W_LIFE, 6);
  unsigned char *a = state(one), *b = state(pf);
  ck_assert_msg(memcmp(a, b, n) == 0, "%s %s, %llu parts%s, every other unit a border unit: Life differs",
                sqz_domain_spec(dom), layout, (unsigned long long)parts, where);
  free(a);
  free(b);
  sqz_field_release(one);
}

/* Heat on pf against one buffer after 6 steps from the same state: 1 when equal bit for bit (heat:
 * every cell changes every step, so a halo read too early always shows). */
static int heat_equal(sqz_field *one, sqz_field *pf) {
  uint64_t n = sqz_domain_cells(sqz_field_domain(one));
  initial(one, SQZ_F32, 5);
  initial(pf, SQZ_F32, 5);
  step(one, W_HEAT, 6);
  step(pf, W_HEAT, 6);
  unsigned char *a = state(one), *b = state(pf);
  int eq = memcmp(a, b, n * 4) == 0;
  free(a);
  free(b);
  return eq;
}

/* Moves every other unit of part 0 (by index from its first) into its border set, or with none,
 * every border unit into its inner set. */
static void mutate_split(sqz_field *pf, int none) {
  const sqz_field_part *p0 = &pf->parts->part[0];
  uint64_t m = 0, *list = malloc((p0->u1 - p0->u0) * sizeof *list);
  ck_assert_ptr_nonnull(list);
  for (uint64_t g = p0->u0; !none && g < p0->u1; g++)
    if (sqz_units_has(g, p0->border.n_runs, p0->border.runs) || (g - p0->u0) % 2 == 0) list[m++] = g;
  SQZ_OK_OR_FAIL(sqz_field_domain(pf)->ctx, sqz__part_split(pf, 0, list, m));
  free(list);
}

/* The split of every part's own units into inner and border units (the step runs the inner ones
 * while the halo moves): the two cover the own units, a part of several has border units, and
 * the split matters (heat): moving part 0's border units into its inner set (stepped before the
 * halo arrives) changes the result, on one context (device copies) and on two (through the host);
 * moving every other inner unit to the border set (launches over many runs) does not, for heat
 * and for Life (the u8 Life kernels). */
static void split_case(sqz_domain *dom, sqz_context *const *ctxs, size_t n_ctx, const char *layout, uint64_t parts) {
  sqz_field *one = make(dom, NULL, 0, SQZ_F32, layout, 0);
  const char *where = n_ctx ? " on two contexts" : "";
  for (int mutate = 0; mutate < 3; mutate++) {
    sqz_field *pf = make(dom, ctxs, n_ctx, SQZ_F32, layout, parts);
    pf->parts->serial = 0; /* one context runs serially by default (one queue): split here too */
    for (uint64_t p = 0; p < parts; p++) {
      const sqz_field_part *pt = &pf->parts->part[p];
      ck_assert_uint_eq(pt->inner.n + pt->border.n, pt->u1 - pt->u0);
      ck_assert_msg(parts == 1 || pt->border.n > 0, "%s %s: part %llu of %llu has no border unit", sqz_domain_spec(dom),
                    layout, (unsigned long long)p, (unsigned long long)parts);
    }
    if (mutate) mutate_split(pf, mutate == 1);
    ck_assert_msg(heat_equal(one, pf) == (mutate != 1), "%s %s, %llu parts%s, split %d: %s", sqz_domain_spec(dom), layout,
                  (unsigned long long)parts, where, mutate,
                  mutate == 1 ? "a split without border units gave the right result" : "differs from one buffer");
    sqz_field_release(pf);
  }
  sqz_field_release(one);
  sqz_field *pf = make(dom, ctxs, n_ctx, SQZ_U8, layout, parts);
  pf->parts->serial = 0;
  mutate_split(pf, 0);
  same_life(dom, pf, layout, parts, where);
  sqz_field_release(pf);
}

START_TEST(test_split) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int b = 0; b < 2; b++) {
    sqz_context *ctxs[2] = {sqz_test_context(backends[b]), sqz_test_context(backends[b])};
    for (size_t i = 0; i < N_FAMILIES; i++) {
      sqz_domain *dom = NULL;
      ck_assert_int_eq(sqz_domain_parse(ctxs[0], FAMILIES[i].spec, &dom), SQZ_OK);
      split_case(dom, NULL, 0, FAMILIES[i].layout, FAMILIES[i].k + 1);
      split_case(dom, ctxs, 2, FAMILIES[i].layout, 3);
      sqz_domain_release(dom);
    }
    for (int c = 0; c < 2; c++) sqz_context_release(ctxs[c]);
  }
}
END_TEST

/* Steps per exchange (SQZ_EXCHANGE_STEPS=T at creation): on fractal tiles the halo is every tile
 * touching an own tile and Life steps T steps per launch on opencl (the temporal word kernel), so
 * 7 steps in two calls (2, then 5) take ceil(2/T) + ceil(5/T) exchanges and equal one buffer bit
 * for bit, serial and split; on the cpu backend, and for heat, the engine steps one at a time:
 * 7 exchanges, the same result. */
START_TEST(test_depth) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int b = 0; b < 2; b++) {
    sqz_context *ctx = sqz_test_context(backends[b]);
    for (size_t i = 0; i < N_FAMILIES; i++) {
      if (strncmp(FAMILIES[i].spec, "fractal:", 8) != 0) continue;
      sqz_domain *dom = NULL;
      ck_assert_int_eq(sqz_domain_parse(ctx, FAMILIES[i].spec, &dom), SQZ_OK);
      sqz_field *one = make(dom, NULL, 0, SQZ_U8, FAMILIES[i].layout, 0);
      for (unsigned t = 2; t <= 4; t += 2)
        for (int split = 0; split < 2; split++) {
          char tv[4];
          snprintf(tv, sizeof tv, "%u", t);
          sqz_test_option(ctx, "exchange_steps", tv);
          sqz_field *pf = make(dom, NULL, 0, SQZ_U8, FAMILIES[i].layout, FAMILIES[i].k + 1);
          sqz_test_option(ctx, "exchange_steps", NULL);
          pf->parts->serial = !split;
          uint64_t rho = 1, deep = 0; /* the tile side: T needs T <= it (carpet block:3 and T = 4: one step) */
          for (uint32_t j = 0; j < pf->parts->jt; j++) rho *= (uint64_t)dom->fr.s;
          deep = rho >= t ? t : 1;
          ck_assert_uint_eq(pf->parts->depth, deep);
          ck_assert_int_eq(sqz_field_fill_random(one, 0.4, 11), SQZ_OK);
          ck_assert_int_eq(sqz_field_fill_random(pf, 0.4, 11), SQZ_OK);
          step(one, W_LIFE, 7);
          step(pf, W_LIFE, 2);
          step(pf, W_LIFE, 5);
          unsigned char *a = state(one), *c = state(pf);
          ck_assert_msg(memcmp(a, c, sqz_domain_cells(dom)) == 0, "%s %s, T = %u%s on %s: differs from one buffer",
                        FAMILIES[i].spec, FAMILIES[i].layout, t, split ? " split" : "", backends[b]);
          free(a);
          free(c);
          sqz_parts_times tm;
          ck_assert_int_eq(sqz_field_parts_times(pf, &tm), SQZ_OK);
          uint64_t want = b ? (2 + deep - 1) / deep + (5 + deep - 1) / deep : 7;
          ck_assert_msg(tm.steps == 7 && tm.exchanges == want, "%s %s, T = %u on %s: %llu exchanges for %llu steps",
                        FAMILIES[i].spec, FAMILIES[i].layout, t, backends[b], (unsigned long long)tm.exchanges,
                        (unsigned long long)tm.steps);
          sqz_field_release(pf);
        }
      sqz_field_release(one);
      sqz_domain_release(dom);
    }
    sqz_context_release(ctx);
  }
}
END_TEST

/* SQZ_MAX_ALLOC below one buffer: sqz_field_create splits the field itself, each part within the
 * limit, and steps it as one buffer does. */
START_TEST(test_auto) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int b = 0; b < 2; b++) {
    sqz_context *plain = sqz_test_context(backends[b]);
    sqz_context *small = sqz_test_context(backends[b]);
    static const char *const cases[][2] = {{"fractal:sierpinski-triangle:9", "compact"},
                                           {"fractal:sierpinski-triangle:9", "block:8"},
                                           {"triangle:200", "compact"}};
    for (int c = 0; c < 3; c++) {
      sqz_domain *d1 = NULL, *d2 = NULL;
      sqz_field *one = NULL, *pf = NULL;
      ck_assert_int_eq(sqz_domain_parse(plain, cases[c][0], &d1), SQZ_OK);
      ck_assert_int_eq(sqz_domain_parse(small, cases[c][0], &d2), SQZ_OK);
      SQZ_OK_OR_FAIL(plain, sqz_field_create(d1, SQZ_U8, cases[c][1], &one));
      sqz_test_option(small, "max_alloc", "4096");
      SQZ_OK_OR_FAIL(small, sqz_field_create(d2, SQZ_U8, cases[c][1], &pf));
      sqz_test_option(small, "max_alloc", NULL);
      ck_assert_uint_eq(sqz_field_parts(one), 1);
      ck_assert_msg(sqz_field_parts(pf) > 1, "%s: %llu parts", cases[c][0], (unsigned long long)sqz_field_parts(pf));
      ck_assert_uint_le(sqz_field_bytes(pf) / sqz_field_parts(pf), 4096); /* one buffer per part so far */
      SQZ_OK_OR_FAIL(plain, sqz_field_fill_random(one, 0.35, 5));
      SQZ_OK_OR_FAIL(small, sqz_field_fill_random(pf, 0.35, 5));
      step(one, W_LIFE, 5);
      step(pf, W_LIFE, 5);
      unsigned char *a = state(one), *b2 = state(pf);
      ck_assert_msg(memcmp(a, b2, sqz_domain_cells(d1)) == 0, "%s %s on %s: the split field differs", cases[c][0],
                    cases[c][1], backends[b]);
      free(a);
      free(b2);
      sqz_field_release(one);
      sqz_field_release(pf);
      sqz_domain_release(d1);
      sqz_domain_release(d2);
    }
    sqz_context_release(plain);
    sqz_context_release(small);
  }
}
END_TEST

/* Every front-end operation on a field in parts: embedded write/read, compact I/O, counts and sums,
 * copies, files (npy, h5 checkpoints, pbm) written from parts and read into one buffer and back. */
START_TEST(test_io) {
  sqz_context *ctx = sqz_test_context("cpu");
  static const char *const cases[][2] = {{"fractal:sierpinski-carpet:3", "block:3"},
                                         {"fractal:sierpinski-triangle:6", "compact"},
                                         {"triangle:23", "compact"}};
  char dir[] = "/tmp/sqz-parts-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  for (int c = 0; c < 3; c++) {
    sqz_domain *dom = NULL;
    ck_assert_int_eq(sqz_domain_parse(ctx, cases[c][0], &dom), SQZ_OK);
    sqz_field *one = make(dom, NULL, 0, SQZ_U8, cases[c][1], 0), *pf = make(dom, NULL, 0, SQZ_U8, cases[c][1], 5);
    uint64_t side = sqz_domain_side(dom), cells = side * side, n1 = 0, n2 = 0;
    unsigned char *e1 = calloc(cells, 1), *e2 = calloc(cells, 1);
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(one, 0.5, 3));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(one, e1, cells));
    SQZ_OK_OR_FAIL(ctx, sqz_field_write(pf, e1, cells)); /* embedded write into parts, read back */
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(pf, e2, cells));
    ck_assert_int_eq(memcmp(e1, e2, cells), 0);
    SQZ_OK_OR_FAIL(ctx, sqz_field_count(one, &n1));
    SQZ_OK_OR_FAIL(ctx, sqz_field_count(pf, &n2));
    ck_assert_uint_eq(n1, n2);
    double s1 = 0, s2 = 0;
    SQZ_OK_OR_FAIL(ctx, sqz_field_sum(one, SQZ_SUM_PAIRWISE, &s1));
    SQZ_OK_OR_FAIL(ctx, sqz_field_sum(pf, SQZ_SUM_PAIRWISE, &s2));
    ck_assert(s1 == s2 && s1 == (double)n1);
    char npy[300], h5[300], pbm[300];
    snprintf(npy, sizeof npy, "%s/s%d.npy", dir, c);
    snprintf(h5, sizeof h5, "%s/s%d.h5", dir, c);
    snprintf(pbm, sizeof pbm, "%s/s%d.pbm", dir, c);
    step(pf, W_LIFE, 3);
    step(one, W_LIFE, 3);
    SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(pf, npy));
    SQZ_OK_OR_FAIL(ctx, sqz_field_save_pbm(pf, pbm));
    int h5ok = sqz_field_save_h5(pf, h5, "life", 3);
    ck_assert(h5ok == SQZ_OK || h5ok == SQZ_ERR_UNSUPPORTED); /* builds without HDF5 refuse */
    sqz_field *back = make(dom, NULL, 0, SQZ_U8, cases[c][1], 0), *back_p = make(dom, NULL, 0, SQZ_U8, cases[c][1], 3);
    SQZ_OK_OR_FAIL(ctx, sqz_field_load_npy(back, npy));
    SQZ_OK_OR_FAIL(ctx, sqz_field_load_pbm(back_p, pbm));
    unsigned char *a = state(one), *b = state(back), *bp = state(back_p);
    ck_assert_int_eq(memcmp(a, b, sqz_domain_cells(dom)), 0);
    ck_assert_int_eq(memcmp(a, bp, sqz_domain_cells(dom)), 0);
    free(b);
    if (h5ok == SQZ_OK) { /* a checkpoint of parts resumes into parts of another count */
      char wl[32];
      uint64_t at = 0;
      SQZ_OK_OR_FAIL(ctx, sqz_field_load_h5(back_p, h5, wl, sizeof wl, &at));
      ck_assert_uint_eq(at, 3);
      b = state(back_p);
      ck_assert_int_eq(memcmp(a, b, sqz_domain_cells(dom)), 0);
      free(b);
    }
    SQZ_OK_OR_FAIL(ctx, sqz_field_copy(back_p, one)); /* a copy into parts */
    b = state(back_p);
    ck_assert_int_eq(memcmp(a, b, sqz_domain_cells(dom)), 0);
    free(a);
    free(b);
    free(bp);
    free(e1);
    free(e2);
    sqz_field_release(one);
    sqz_field_release(pf);
    sqz_field_release(back);
    sqz_field_release(back_p);
    sqz_domain_release(dom);
  }
  sqz_test_remove_tree(dir);
  sqz_context_release(ctx);
}
END_TEST

/* Layout bits on fractals (a unit: one bits tile): Life on P parts (1, 2, 3, 7 and the largest,
 * a tile each) bit-identical to one buffer from the same state and the same random fill, with the
 * same count, at T = 1, 2 and 4 steps per exchange, serial and split, 7 steps in two calls (2, then
 * 5: ceil(2/T) + ceil(5/T) exchanges, both backends step a part's T steps in one pass); on opencl
 * once by the one-step kernel too (SQZ_ENGINE=generic, T = 1). sierpinski-triangle:10 holds 9
 * tiles of 3^8 cells; sierpinski-carpet:6 (cpu; 8 tiles of 8^5) in 8 parts at T = 4. */
static void bits_case(sqz_domain *dom, uint64_t parts, unsigned t, int split, int generic) {
  const char *backend = sqz_context_backend(dom->ctx);
  sqz_field *one = make(dom, NULL, 0, SQZ_U8, "bits", 0);
  char tv[4];
  snprintf(tv, sizeof tv, "%u", t);
  sqz_test_option(dom->ctx, "exchange_steps", tv);
  sqz_field *pf = make(dom, NULL, 0, SQZ_U8, "bits", parts);
  sqz_test_option(dom->ctx, "exchange_steps", NULL);
  pf->parts->serial = !split;
  ck_assert_uint_eq(pf->parts->depth, parts > 1 ? t : pf->parts->depth);
  if (t == 1) { /* sqz_field_parts_bytes (sqz info --parts) without a device: the field's own figures */
    uint64_t part_bytes = 0, halo_bytes = 0, largest = 0;
    SQZ_OK_OR_FAIL(dom->ctx, sqz_field_parts_bytes(dom, SQZ_U8, "bits", parts, &part_bytes, &halo_bytes));
    for (uint64_t p = 0; p < parts; p++) {
      const sqz_field_part *pt = &pf->parts->part[p];
      uint64_t b = (pt->u1 - pt->u0 + pt->n_halo) * pf->parts->unit / 8;
      largest = b > largest ? b : largest;
    }
    ck_assert_uint_eq(part_bytes, largest);
    ck_assert_uint_eq(halo_bytes, sqz_field_halo_bytes(pf));
  }
  uint64_t n = sqz_domain_cells(dom);
  for (int fill = 0; fill < 2; fill++) {
    if (fill) {
      ck_assert_int_eq(sqz_field_fill_random(one, 0.4, 11), SQZ_OK);
      ck_assert_int_eq(sqz_field_fill_random(pf, 0.4, 11), SQZ_OK);
    } else {
      initial(one, SQZ_U8, parts);
      initial(pf, SQZ_U8, parts);
    }
    uint64_t c1 = 0, c2 = 0;
    SQZ_OK_OR_FAIL(dom->ctx, sqz_field_count(one, &c1));
    SQZ_OK_OR_FAIL(dom->ctx, sqz_field_count(pf, &c2));
    ck_assert_msg(c1 == c2 && c1 > 0, "%s bits, %llu parts: counts %llu and %llu", sqz_domain_spec(dom),
                  (unsigned long long)parts, (unsigned long long)c1, (unsigned long long)c2);
    sqz_parts_times t0, t1;
    ck_assert_int_eq(sqz_field_parts_times(pf, &t0), SQZ_OK);
    step(one, W_LIFE, 7);
    if (generic) ck_assert_int_eq(sqz_field_set_option(pf, "engine", "generic"), SQZ_OK); /* the parts only: one buffer by boxes */
    step(pf, W_LIFE, 2);
    step(pf, W_LIFE, 5);
    ck_assert_int_eq(sqz_field_set_option(pf, "engine", NULL), SQZ_OK);
    unsigned char *a = state(one), *b = state(pf);
    uint64_t first = n;
    for (uint64_t i = 0; i < n && first == n; i++)
      if (a[i] != b[i]) first = i;
    ck_assert_msg(first == n, "%s bits on %s, %llu parts, T = %u%s, fill %d: compact cell %llu of %llu differs",
                  sqz_domain_spec(dom), backend, (unsigned long long)parts, t, split ? " split" : "", fill,
                  (unsigned long long)first, (unsigned long long)n);
    free(a);
    free(b);
    ck_assert_int_eq(sqz_field_parts_times(pf, &t1), SQZ_OK);
    uint64_t d = pf->parts->depth, want = parts > 1 ? (2 + d - 1) / d + (5 + d - 1) / d : t1.exchanges - t0.exchanges;
    ck_assert_msg(t1.steps - t0.steps == 7 && t1.exchanges - t0.exchanges == want,
                  "%s bits, %llu parts, T = %u on %s: %llu exchanges", sqz_domain_spec(dom), (unsigned long long)parts, t,
                  backend, (unsigned long long)(t1.exchanges - t0.exchanges));
  }
  sqz_field_release(pf);
  sqz_field_release(one);
}

START_TEST(test_bits) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int b = 0; b < 2; b++) {
    sqz_context *ctx = sqz_test_context(backends[b]);
    for (int f = 0; f < 2 - b; f++) { /* the carpet on the cpu only (a PoCL compile per box side) */
      sqz_domain *dom = NULL;
      ck_assert_int_eq(sqz_domain_parse(ctx, f ? "fractal:sierpinski-carpet:6" : "fractal:sierpinski-triangle:10", &dom),
                       SQZ_OK);
      uint64_t most = f ? 8 : 9, ps[] = {1, 2, 3, 7, most};
      for (int i = 0; !f && i < 5; i++) bits_case(dom, ps[i], 1, 0, 0);
      if (!f) bits_case(dom, 3, 1, 1, 0);
      if (!f) bits_case(dom, 3, 2, 0, 0);
      bits_case(dom, most, 4, 1, 0);
      if (b) bits_case(dom, 3, 1, 1, 1); /* the one-step kernel */
      sqz_field *f2 = NULL; /* one part more than tiles: refused */
      ck_assert_int_eq(sqz_field_create_parts(dom, SQZ_U8, "bits", most + 1, &f2), SQZ_ERR_INVALID_ARGUMENT);
      ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "one tile per part"));
      sqz_domain_release(dom);
    }
    /* SQZ_MAX_ALLOC below one buffer (9 tiles of 824 bytes, 7416): the automatic split (T = 4 by
     * default: halos of every touching tile) */
    sqz_domain *d1 = NULL;
    sqz_field *one = NULL, *pf = NULL;
    ck_assert_int_eq(sqz_domain_parse(ctx, "fractal:sierpinski-triangle:10", &d1), SQZ_OK);
    SQZ_OK_OR_FAIL(ctx, sqz_field_create(d1, SQZ_U8, "bits", &one));
    sqz_test_option(ctx, "max_alloc", "6000");
    SQZ_OK_OR_FAIL(ctx, sqz_field_create(d1, SQZ_U8, "bits", &pf));
    sqz_test_option(ctx, "max_alloc", NULL);
    ck_assert_msg(sqz_field_parts(pf) > 1, "bits: %llu parts", (unsigned long long)sqz_field_parts(pf));
    ck_assert_uint_le(sqz_field_bytes(pf) / sqz_field_parts(pf), 6000);
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(one, 0.35, 5));
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(pf, 0.35, 5));
    step(one, W_LIFE, 5);
    step(pf, W_LIFE, 5);
    unsigned char *a = state(one), *c = state(pf);
    ck_assert_msg(memcmp(a, c, sqz_domain_cells(d1)) == 0, "bits on %s: the split field differs", backends[b]);
    free(a);
    free(c);
    sqz_field_release(one);
    sqz_field_release(pf);
    sqz_domain_release(d1);
    sqz_context_release(ctx);
  }
}
END_TEST

/* Bands of rows (layouts bb and lambda: bounding-box rows, planes of a tetrahedron; bits on triangles and
 * tetrahedra: rows and planes of words): Life from a state and from a random fill, heat and the i32 stencil (not in
 * bits) in parts equal one buffer, for P that divides no row count and P = the rows; one row more is refused naming
 * the largest count; the halo is the row next to each band. The cpu backend takes every family, inner and border
 * rows apart; the second case (opencl, PoCL) a fractal in bb and lambda and a tetrahedron in bits (a program per
 * layout, one buffer and parted: few builds). */
START_TEST(test_bands) {
  sqz_context *ctx = sqz_test_context(_i ? "opencl" : "cpu");
  static const struct { const char *spec, *layout; uint64_t rows; int opencl; } B[] = {
      {"fractal:sierpinski-triangle:4", "bb", 16, 1}, {"fractal:sierpinski-triangle:4", "lambda", 16, 1},
      {"fractal:sierpinski-carpet:2", "lambda", 9, 0}, {"triangle:13", "bb", 13, 0}, {"tetrahedron:7", "bb", 7, 0},
      {"triangle:70", "bits", 70, 0}, {"tetrahedron:37", "bits", 37, 1}};
  if (!_i) sqz_test_option(ctx, "overlap", "1"); /* cpu: inner rows, then border rows, each step */
  for (size_t i = 0; i < sizeof B / sizeof *B; i++) {
    if (_i && !B[i].opencl) continue;
    sqz_domain *dom = NULL;
    ck_assert_int_eq(sqz_domain_parse(ctx, B[i].spec, &dom), SQZ_OK);
    same(dom, NULL, 0, B[i].layout, W_LIFE, 3);
    int bits = strcmp(B[i].layout, "bits") == 0;
    if (!_i) same(dom, NULL, 0, B[i].layout, W_LIFE, B[i].rows);
    if (!_i && !bits) same(dom, NULL, 0, B[i].layout, i % 2 ? W_CYCLIC : W_HEAT, 5);
    sqz_field *f = NULL;
    ck_assert_int_eq(sqz_field_create_parts(dom, SQZ_U8, B[i].layout, B[i].rows + 1, &f), SQZ_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_null(f);
    char want[48];
    snprintf(want, sizeof want, "1 .. %llu", (unsigned long long)B[i].rows);
    ck_assert_msg(strstr(sqz_last_error(ctx), want), "%s", sqz_last_error(ctx));
    f = make(dom, NULL, 0, SQZ_U8, B[i].layout, 2); /* the halo: the row (plane) next to each band */
    uint64_t cut = f->parts->part[0].u1, r = 0;
    if (!bits) ck_assert_uint_eq(sqz_field_halo_bytes(f), 2 * (f->elems / B[i].rows)); /* u8: a byte an element */
    else if (sqz_domain_dims(dom) == 2) { /* rows r - 1 and r of words, r the cut's row */
      while (sqz_bits_tri_row(r) < cut) r++;
      ck_assert_uint_eq(sqz_bits_tri_row(r), cut);
      ck_assert_uint_eq(sqz_field_halo_bytes(f), 4 * (sqz_bits_words(r) + sqz_bits_words(r + 1)));
      ck_assert_uint_ge(r, 70 / 2); /* the rows grow: the cut balances the words, past the middle row */
    }
    sqz_field_release(f);
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
}
END_TEST

/* Too many parts name the largest valid count, UINT64_MAX is refused (not automatic); the tile side of
 * a parted compact field is fixed. */
START_TEST(test_errors) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_domain *fr = NULL, *tri = NULL;
  sqz_field *f = NULL;
  ck_assert_int_eq(sqz_domain_parse(ctx, "fractal:sierpinski-triangle:4", &fr), SQZ_OK);
  ck_assert_int_eq(sqz_domain_parse(ctx, "triangle:5", &tri), SQZ_OK);
  ck_assert_int_eq(sqz_field_create_parts(fr, SQZ_U8, "compact", 82, &f), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(f);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "1 .. 81"));
  ck_assert_int_eq(sqz_field_create_parts(fr, SQZ_U8, "block:4", 10, &f), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "1 .. 9"));
  for (int devices = 0; devices < 2; devices++) { /* UINT64_MAX is no count (it once meant automatic, silently) */
    f = (sqz_field *)&f;
    ck_assert_int_eq(devices ? sqz_field_create_devices(fr, &ctx, 1, SQZ_U8, "compact", UINT64_MAX, &f)
                             : sqz_field_create_parts(fr, SQZ_U8, "compact", UINT64_MAX, &f),
                     SQZ_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_null(f);
    ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "18446744073709551615 parts"));
  }
  ck_assert_int_eq(sqz_field_create_parts(fr, SQZ_U8, "compact", 0, &f), SQZ_OK); /* 0: automatic, one part fits */
  ck_assert_uint_eq(sqz_field_parts(f), 1);
  sqz_field_release(f);
  ck_assert_int_eq(sqz_field_create_parts(tri, SQZ_U8, "compact", 16, &f), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "1 .. 15"));
  f = make(fr, NULL, 0, SQZ_U8, "compact", 2); /* the tile side is fixed by the parts */
  ck_assert_int_eq(sqz_field_set_block(f, 4), SQZ_ERR_UNSUPPORTED);
  sqz_field_release(f);
  sqz_domain_release(fr);
  sqz_domain_release(tri);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("field_parts");
  tcase_add_loop_test(sqz_test_tcase(s, "cpu", 900), test_backend, 0, 1);
  tcase_add_loop_test(sqz_test_tcase(s, "opencl", 900), test_backend, 1, 2);
  tcase_add_test(sqz_test_tcase(s, "devices", 900), test_devices);
  tcase_add_test(sqz_test_tcase(s, "auto", 900), test_auto);
  tcase_add_test(sqz_test_tcase(s, "split", 900), test_split);
  tcase_add_test(sqz_test_tcase(s, "depth", 900), test_depth);
  tcase_add_test(sqz_test_tcase(s, "io", 900), test_io);
  tcase_add_test(sqz_test_tcase(s, "bits", 900), test_bits);
  tcase_add_loop_test(sqz_test_tcase(s, "bands", 900), test_bands, 0, 2);
  tcase_add_test(sqz_test_tcase(s, "errors", 900), test_errors);
  return sqz_test_run(s);
}
