/* labels: opencl */
/* ctest cases: cyclic_simplex cyclic_fractal_i32 cyclic_fractal_u8 average_f64_simplex average_f64_fractal average_f32 heat bad_input life rows persistent */
/* test_stencil.c — the stencil engine: user updates written once in OpenCL C and once as a C function, on every
 * layout and map of the opencl backend against the cpu backend, the cpu backend against a plain embedded-array
 * oracle; heat diffusion (conservation, backends agree, bad alpha); bad kernels and parameters; Life on the engine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_internal.h"
#include "core/sqz_internal.h"
#include "sqz_test.h"

/* ---- the updates, in OpenCL C and in C ------------------------------------------------------------------------
 * Cyclic CA with k = param[0] states: a cell becomes next = (self + 1) % k when the present neighbours equal to
 * next weigh at least 3, neighbour i weighing 1 + i % 3, plus 1 when the number of present neighbours is odd. The
 * weights make the rule see the neighbour order (a mirrored or shifted gather changes the states) and the parity
 * term makes it see every bit of present, not only those of neighbours equal to next. */
static const char CYCLIC_CL[] =
    "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                      __constant const sqz_param_t *param) {\n"
    "  int k = (int)param[0], next = ((int)self + 1) % k, score = (int)(popcount(present) & 1u);\n"
    "  for (int i = 0; i < SQZ_NB; i++)\n"
    "    if (((present >> i) & 1u) && (int)nb[i] == next) score += 1 + i % 3;\n"
    "  return score >= 3 ? (sqz_cell_t)next : self;\n"
    "}\n";

/* What the C updates need to know about the field: cell type and neighbour count. */
typedef struct {
  sqz_type type;
  int nb;
} cell_info;

static int32_t int_at(sqz_type t, const void *base, int i) {
  if (t == SQZ_U8) return ((const uint8_t *)base)[i];
  int32_t v;
  memcpy(&v, (const char *)base + 4 * i, sizeof v);
  return v;
}

static int popcount32(uint32_t v) {
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

static void cyclic_fn(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  const cell_info *ci = user;
  float kf;
  memcpy(&kf, param, sizeof kf); /* sqz_param_t is float for u8 and i32 cells */
  int s = int_at(ci->type, self, 0), k = (int)kf, next = (s + 1) % k, score = popcount32(present) & 1;
  for (int i = 0; i < ci->nb; i++)
    if (((present >> i) & 1u) && int_at(ci->type, nb, i) == next) score += 1 + i % 3;
  int32_t r = score >= 3 ? next : s;
  if (ci->type == SQZ_U8) *(uint8_t *)out = (uint8_t)r;
  else memcpy(out, &r, sizeof r);
}

/* Weighted average over the present neighbours, u' = (1 - w) u + w * sum(w_i nb_i) / sum(w_i) with w = param[0] and
 * w_i = 1 + (i % 3) * param[1] (so the neighbour order matters); a cell with no present neighbour keeps its value.
 * The C twins below do the same operations in the same order: the engine compiles the update with FP_CONTRACT OFF
 * and this file is ISO C11 (-std=c11: GCC does not contract either), so only OpenCL's float division (2.5 ulp where
 * the device does not round it correctly) may differ from C; double division is correctly rounded in OpenCL. */
static const char AVERAGE_CL[] =
    "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                      __constant const sqz_param_t *param) {\n"
    "  sqz_cell_t sum = (sqz_cell_t)0, wsum = (sqz_cell_t)0;\n"
    "  for (int i = 0; i < SQZ_NB; i++)\n"
    "    if ((present >> i) & 1u) {\n"
    "      sqz_cell_t wi = (sqz_cell_t)1 + (sqz_cell_t)(i % 3) * (sqz_cell_t)param[1];\n"
    "      sum += wi * nb[i];\n"
    "      wsum += wi;\n"
    "    }\n"
    "  if (wsum == (sqz_cell_t)0) return self;\n"
    "  sqz_cell_t w = (sqz_cell_t)param[0];\n"
    "  return ((sqz_cell_t)1 - w) * self + w * (sum / wsum);\n"
    "}\n";

#define AVERAGE_FN(name, T)                                                                                            \
  static void name(const void *self_p, const void *nb_p, uint32_t present, const void *param_p, void *out,             \
                   void *user) {                                                                                       \
    const cell_info *ci = user;                                                                                        \
    T self, nb[26], param[2], sum = (T)0, wsum = (T)0;                                                                 \
    memcpy(&self, self_p, sizeof self);                                                                                \
    memcpy(nb, nb_p, (size_t)ci->nb * sizeof(T));                                                                     \
    memcpy(param, param_p, sizeof param);                                                                              \
    for (int i = 0; i < ci->nb; i++)                                                                                   \
      if ((present >> i) & 1u) {                                                                                       \
        T wi = (T)1 + (T)(i % 3) * param[1];                                                                           \
        sum += wi * nb[i];                                                                                             \
        wsum += wi;                                                                                                    \
      }                                                                                                                \
    T r = self;                                                                                                        \
    if (wsum != (T)0) r = ((T)1 - param[0]) * self + param[0] * (sum / wsum);                                          \
    memcpy(out, &r, sizeof r);                                                                                         \
  }
AVERAGE_FN(average_f32, float)
AVERAGE_FN(average_f64, double)

/* Heat as the header documents it, for the oracle: u' = u + alpha * d, d the sum of (u_n - u) over the present face
 * neighbours, added in raster order (2D N, W, E, S; 3D the six faces). */
#define HEAT_FN(name, T)                                                                                               \
  static void name(const void *self_p, const void *nb_p, uint32_t present, const void *param_p, void *out,             \
                   void *user) {                                                                                       \
    static const int faces2[] = {1, 3, 4, 6}, faces3[] = {4, 10, 12, 13, 15, 21};                                     \
    const cell_info *ci = user;                                                                                        \
    T self, nb[26], alpha, d = (T)0;                                                                                   \
    memcpy(&self, self_p, sizeof self);                                                                                \
    memcpy(nb, nb_p, (size_t)ci->nb * sizeof(T));                                                                      \
    memcpy(&alpha, param_p, sizeof alpha);                                                                             \
    for (int f = 0; f < (ci->nb == 8 ? 4 : 6); f++) {                                                                  \
      int i = ci->nb == 8 ? faces2[f] : faces3[f];                                                                     \
      if ((present >> i) & 1u) d += nb[i] - self;                                                                      \
    }                                                                                                                  \
    T step = alpha * d, r = self + step;                                                                               \
    memcpy(out, &r, sizeof r);                                                                                         \
  }
HEAT_FN(heat_f32, float)
HEAT_FN(heat_f64, double)

/* A workload: the update in both forms with its parameters, or heat (alpha > 0; fn is then the oracle's heat). */
typedef struct {
  const char *name, *source; /* source_name and OpenCL C text */
  sqz_update_fn fn;          /* the C form (cpu backend and oracle) */
  const double *param;
  size_t n_param;
  double alpha;
} workload;

/* ---- domains, configurations, embedded states --------------------------------------------------------------- */
static const char *const DOMAINS[] = {"triangle:37",
                                      "triangle:40",
                                      "tetrahedron:11",
                                      "fractal:sierpinski-triangle:5",
                                      "fractal:sierpinski-carpet:3",
                                      "fractal:vicsek-cross:3",
                                      "fractal:##./#.#/.##:3"};
enum { N_DOMAINS = sizeof DOMAINS / sizeof DOMAINS[0], MAX_CFG = 64 };

typedef struct {
  char layout[32];
  const char *map; /* NULL: the default */
  uint32_t block;  /* sqz_field_set_block, 0: automatic */
  uint64_t parts;  /* sqz_field_create_parts, 0: one buffer */
} run_cfg;

static const char *const MAPS2[] = {"bb", "ltm", "rb", "had", "had-above", "had-below", "rec"};
static const char *const MAPS3[] = {"bb", "ltm3", "had3", "rec3"};
static const char *const FRACTAL_MAPS[] = {"seq", "group"};

static void add_cfg(run_cfg *c, int *n, const char *layout, const char *map, uint32_t block) {
  ck_assert_int_lt(*n, MAX_CFG);
  snprintf(c[*n].layout, sizeof c[*n].layout, "%s", layout);
  c[*n].map = map;
  c[*n].block = block;
  (*n)++;
}

/* Every layout and map of the domain on the opencl backend: simplices bb and compact with each map of their
 * dimension; fractals bb, and lambda, compact (automatic tiles and tiles of s cells a side) and block:RHO for every
 * power RHO of the scale up to the side, each with the seq and the group λ. */
static int all_configs(const sqz_domain *dom, run_cfg *c) {
  int n = 0;
  if (sqz_domain_get_kind(dom) != SQZ_DOMAIN_FRACTAL) {
    int d3 = sqz_domain_dims(dom) == 3;
    for (int l = 0; l < 2; l++)
      for (int m = 0; m < (d3 ? 4 : 7); m++) add_cfg(c, &n, l ? "compact" : "bb", d3 ? MAPS3[m] : MAPS2[m], 0);
    return n;
  }
  int s = 0, k = 0, r = 0;
  ck_assert_int_eq(sqz_domain_fractal_params(dom, &s, &k, &r), SQZ_OK);
  add_cfg(c, &n, "bb", NULL, 0);
  for (int m = 0; m < 2; m++) {
    add_cfg(c, &n, "lambda", FRACTAL_MAPS[m], 0);
    add_cfg(c, &n, "compact", FRACTAL_MAPS[m], 0);
    add_cfg(c, &n, "compact", FRACTAL_MAPS[m], (uint32_t)s);
    for (uint64_t rho = 1; rho <= sqz_domain_side(dom); rho *= (uint64_t)s) {
      char layout[32];
      snprintf(layout, sizeof layout, "block:%llu", (unsigned long long)rho);
      add_cfg(c, &n, layout, FRACTAL_MAPS[m], 0);
    }
  }
  return n;
}

/* Configurations to run: all of them (few = 0), or `few` spread over the list from the first (bb) to the last. */
static int pick_configs(const sqz_domain *dom, int few, run_cfg *c) {
  int n = all_configs(dom, c);
  if (few <= 0 || few >= n) return n;
  for (int i = 0; i < few; i++) c[i] = c[few > 1 ? (i * (n - 1)) / (few - 1) : 0];
  return few;
}

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 11; /* 53 bits */
}

static size_t embedded_cells(const sqz_domain *dom) {
  size_t n = (size_t)sqz_domain_side(dom);
  return sqz_domain_dims(dom) == 3 ? n * n * n : n * n;
}

static int contains_index(const sqz_domain *dom, size_t e) {
  uint64_t n = sqz_domain_side(dom);
  return sqz_domain_contains(dom, e % n, (e / n) % n, e / (n * n));
}

/* The initial state from our own LCG: integers 0..k-1 (u8, i32) or uniform [0, 1) (f32, f64) on domain cells, 0
 * elsewhere. */
static void *initial_state(const sqz_domain *dom, sqz_type type, int k, uint64_t seed) {
  size_t cells = embedded_cells(dom), ts = sqz_type_size(type);
  unsigned char *buf = calloc(cells, ts);
  ck_assert_ptr_nonnull(buf);
  for (size_t e = 0; e < cells; e++) {
    uint64_t r = lcg(&seed);
    if (!contains_index(dom, e)) continue;
    int32_t i = (int32_t)(r % (uint64_t)k);
    float f = (float)(r >> 29) * 0x1p-24f;
    double d = (double)r * 0x1p-53;
    switch (type) {
    case SQZ_U8: buf[e] = (unsigned char)i; break;
    case SQZ_I32: memcpy(buf + 4 * e, &i, 4); break;
    case SQZ_F32: memcpy(buf + 4 * e, &f, 4); break;
    case SQZ_F64: memcpy(buf + 8 * e, &d, 8); break;
    }
  }
  return buf;
}

/* Parameters as the C update sees them: float, or double for f64 cells. */
static void params_as(sqz_type type, const double *p, size_t n, void *out) {
  for (size_t i = 0; i < n; i++) {
    float v = (float)p[i];
    if (type == SQZ_F64) memcpy((char *)out + 8 * i, &p[i], 8);
    else memcpy((char *)out + 4 * i, &v, 4);
  }
}

/* The oracle: one step of fn over the embedded array, neighbours gathered straight from the embedding in raster
 * order of (dz, dy, dx), the centre skipped; a neighbour off the array or not a domain cell is absent and reads 0. */
static void oracle_step(const sqz_domain *dom, sqz_type type, const workload *w, const unsigned char *src,
                        unsigned char *dst) {
  uint64_t n = sqz_domain_side(dom);
  int dims = sqz_domain_dims(dom), zlo = dims == 3 ? -1 : 0, zhi = dims == 3 ? 1 : 0;
  size_t ts = sqz_type_size(type);
  cell_info ci = {type, dims == 3 ? 26 : 8};
  unsigned char nb[26 * 8], param[16 * 8];
  ck_assert_uint_le(w->alpha > 0 ? 1 : w->n_param, 16);
  params_as(type, w->alpha > 0 ? &w->alpha : w->param, w->alpha > 0 ? 1 : w->n_param, param);
  for (size_t e = 0; e < embedded_cells(dom); e++) {
    uint64_t x = e % n, y = (e / n) % n, z = e / (n * n);
    memset(dst + e * ts, 0, ts);
    if (!sqz_domain_contains(dom, x, y, z)) continue;
    uint32_t present = 0;
    int i = 0;
    for (int dz = zlo; dz <= zhi; dz++)
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          if (!dz && !dy && !dx) continue;
          uint64_t xx = x + (uint64_t)(int64_t)dx, yy = y + (uint64_t)(int64_t)dy, zz = z + (uint64_t)(int64_t)dz;
          int in = xx < n && yy < n && (dims == 2 || zz < n) && sqz_domain_contains(dom, xx, yy, zz);
          memset(nb + (size_t)i * ts, 0, ts);
          if (in) {
            memcpy(nb + (size_t)i * ts, src + (((dims == 3 ? zz : 0) * n + yy) * n + xx) * ts, ts);
            present |= 1u << i;
          }
          i++;
        }
    w->fn(src + e * ts, nb, present, param, dst + e * ts, &ci);
  }
}

/* steps of w on a field of ctx in configuration c from init; the final embedded state into out. */
static void run_on(sqz_context *ctx, sqz_domain *dom, sqz_type type, const run_cfg *c, const workload *w,
                   uint64_t steps, const void *init, void *out) {
  size_t bytes = embedded_cells(dom) * sqz_type_size(type);
  cell_info ci = {type, sqz_domain_dims(dom) == 3 ? 26 : 8};
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, c->parts ? sqz_field_create_parts(dom, type, c->layout, c->parts, &f)
                                : sqz_field_create(dom, type, c->layout, &f));
  if (c->map) SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(f, c->map));
  if (c->block) SQZ_OK_OR_FAIL(ctx, sqz_field_set_block(f, c->block));
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, init, bytes));
  int st;
  if (w->alpha > 0) st = sqz_heat_step(f, w->alpha, steps);
  else if (strcmp(sqz_context_backend(ctx), "cpu") == 0)
    st = sqz_stencil_step_fn(f, w->fn, &ci, w->param, w->n_param, steps);
  else st = sqz_stencil_step(f, w->source, w->name, w->param, w->n_param, steps);
  ck_assert_msg(st == SQZ_OK, "%s on %s, %s layout %s map %s block %u: %s: %s", w->name, sqz_context_backend(ctx),
                sqz_domain_spec(dom), c->layout, c->map ? c->map : "default", c->block, sqz_status_name(st),
                sqz_last_error(ctx));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, out, bytes));
  sqz_field_release(f);
}

static double value_at(sqz_type t, const void *base, size_t i) {
  float f;
  double d;
  switch (t) {
  case SQZ_F32: memcpy(&f, (const char *)base + 4 * i, 4); return f;
  case SQZ_F64: memcpy(&d, (const char *)base + 8 * i, 8); return d;
  default: return int_at(t, base, (int)i);
  }
}

/* Compares two embedded states. Tolerance, per cell, of the larger magnitude: 1e-10 relative in f64, 1e-4 in f32
 * (cells below 1e-300 compare absolutely); within it, exact requires the same bits. Integers and f64 are always
 * exact (the engine's contract: FP_CONTRACT OFF, and OpenCL rounds double +, -, *, / correctly), so there the
 * tolerance only sizes the failure message; f32 between backends is held to the tolerance and the differences are
 * printed, since OpenCL lets a device's float division be off by 2.5 ulp. */
static void expect_same(const sqz_domain *dom, sqz_type type, const void *want, const void *got, int exact,
                        const char *what) {
  size_t cells = embedded_cells(dom), ts = sqz_type_size(type), differ = 0;
  uint64_t n = sqz_domain_side(dom);
  double tol = type == SQZ_F64 ? 1e-10 : 1e-4, worst = 0;
  for (size_t e = 0; e < cells; e++) {
    if (memcmp((const char *)want + e * ts, (const char *)got + e * ts, ts) == 0) continue;
    double a = value_at(type, want, e), b = value_at(type, got, e), scale = fmax(fmax(fabs(a), fabs(b)), 1e-300);
    double rel = fabs(a - b) / scale;
    ck_assert_msg(!exact && type == SQZ_F32 && rel <= tol,
                  "%s: %s cell (%llu, %llu, %llu) is %.17g, the reference %.17g (relative difference %.3g; %s)", what,
                  sqz_domain_spec(dom), (unsigned long long)(e % n), (unsigned long long)((e / n) % n),
                  (unsigned long long)(e / (n * n)), b, a, rel,
                  rel <= tol ? "within the tolerance, but the bits must match" : "beyond the tolerance");
    differ++;
    worst = fmax(worst, rel);
  }
  if (differ) printf("%s: %zu f32 cells differ from the reference, at most %.3g relative\n", what, differ, worst);
}

/* Asserts that the run changed the state: a rule that never fires would pass every comparison. */
static void expect_changed(const sqz_domain *dom, sqz_type type, const void *before, const void *after,
                           const char *what) {
  size_t cells = embedded_cells(dom), ts = sqz_type_size(type), changed = 0, domain = 0;
  for (size_t e = 0; e < cells; e++) {
    domain += (size_t)contains_index(dom, e);
    changed += memcmp((const char *)before + e * ts, (const char *)after + e * ts, ts) != 0;
  }
  ck_assert_msg(changed * 10 >= domain, "%s on %s: only %zu of %zu cells changed", what, sqz_domain_spec(dom), changed,
                domain);
}

/* The row step's variants: bb and compact, a work-item per cell (GPUs; triangles) and per row (CPU devices). */
static void vary_rows(sqz_context *cl, sqz_domain *dom, run_cfg *c, int v, int undo, char *what, size_t len) {
  static int was_gpu;
  (void)dom;
  if (undo) {
    cl->is_gpu = was_gpu;
    return;
  }
  snprintf(c->layout, sizeof c->layout, "%s", v % 2 ? "compact" : "bb");
  was_gpu = cl->is_gpu;
  cl->is_gpu = v / 2;
  snprintf(what, len, "opencl %s row step (%s) vs cpu", c->layout, v / 2 ? "cells" : "rows");
}

/* The whole matrix for one domain and type: the oracle's steps, the cpu backend (bb and compact) equal to them bit
 * for bit, then every configuration (or `few` of them) of the opencl backend against the cpu backend. */
static void matrix(const char *spec, sqz_type type, const workload *w, int k, uint64_t steps, int few) {
  sqz_context *cpu = sqz_test_context("cpu"), *cl = sqz_test_context("opencl");
  sqz_domain *dcpu = NULL, *dcl = NULL;
  SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, spec, &dcpu));
  SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, spec, &dcl));
  size_t bytes = embedded_cells(dcpu) * sqz_type_size(type);
  uint64_t seed = 0x5eed;
  for (const char *p = spec; *p; p++) seed = seed * 131 + (unsigned char)*p;
  unsigned char *init = initial_state(dcpu, type, k, seed), *want = malloc(bytes), *tmp = malloc(bytes),
                *got = malloc(bytes);
  ck_assert(want && tmp && got);
  memcpy(want, init, bytes);
  for (uint64_t s = 0; s < steps; s++) {
    oracle_step(dcpu, type, w, want, tmp);
    memcpy(want, tmp, bytes);
  }
  expect_changed(dcpu, type, init, want, w->name);
  char what[4096];
  for (int l = 0; l < 2; l++) {
    run_cfg c = {.map = NULL, .block = 0};
    snprintf(c.layout, sizeof c.layout, "%s", l ? "compact" : "bb");
    run_on(cpu, dcpu, type, &c, w, steps, init, got);
    snprintf(what, sizeof what, "%s %llu steps, cpu backend %s vs the oracle", w->name, (unsigned long long)steps,
             c.layout);
    expect_same(dcpu, type, want, got, 1, what); /* the same C function on the same neighbours: exact */
    if (l == 0) memcpy(want, got, bytes);
  }
  run_cfg cfgs[MAX_CFG];
  int n = pick_configs(dcl, few, cfgs), simplex = sqz_domain_get_kind(dcl) != SQZ_DOMAIN_FRACTAL;
  int rows = simplex ? (sqz_domain_dims(dcl) == 2 ? 4 : 2) : 0; /* the row step's variants (vary_rows) */
  if (simplex) sqz_test_option(cl, "engine", "generic"); /* simplices: each map's kernels, not the row step */
  for (int i = 0; i < n; i++) {
    run_on(cl, dcl, type, &cfgs[i], w, steps, init, got);
    snprintf(what, sizeof what, "%s %llu steps, opencl %s map %s block %u vs cpu", w->name, (unsigned long long)steps,
             cfgs[i].layout, cfgs[i].map ? cfgs[i].map : "default", cfgs[i].block);
    expect_same(dcl, type, want, got, type != SQZ_F32, what);
  }
  sqz_test_option(cl, "engine", NULL);
  for (int v = 0; v < rows; v++) { /* the row step (cl/engine_simplex_rows.cl): both layouts, both kernels */
    run_cfg c = {.map = NULL, .block = 0};
    vary_rows(cl, dcl, &c, v, 0, what, sizeof what);
    run_on(cl, dcl, type, &c, w, steps, init, got);
    vary_rows(cl, dcl, &c, v, 1, what, sizeof what);
    expect_same(dcl, type, want, got, type != SQZ_F32, what);
  }
  free(init);
  free(want);
  free(tmp);
  free(got);
  sqz_domain_release(dcpu);
  sqz_domain_release(dcl);
  sqz_context_release(cpu);
  sqz_context_release(cl);
}

/* ---- a. and b.: the matrix runs ---------------------------------------------------------------------------------
 * The matrix is covered pairwise, not as the full product of domain x configuration x cell type: each (fractal
 * pattern, cell type, update, kernel) is one program build (10-20 s of CPU with PoCL), while the traversals depend
 * on the cell type only through its size (1, 4 or 8 bytes: the tile caches' words and strides) and on the pattern
 * only through its tables.
 * a. The CA in i32: every configuration of the simplices and of one fractal per scale, the Sierpinski triangle (s = 2)
 * and the asymmetric custom pattern (s = 3), 7 steps (every layout and map; the carpet runs 4-byte cells in f32, the
 * Vicsek cross runs every layout in u8 Life in test_fractal_life). In u8: every
 * configuration of the simplices and of one fractal, the Sierpinski triangle (1-byte cells in every kernel; Life in
 * u8 runs every layout and λ map on 7 and more patterns in test_fractal_life and test_fractal_group).
 * b. The float average in f64: every configuration of the simplices and of one fractal, the asymmetric custom
 * pattern, for 20 steps, four of them for 1000 steps (8-byte cells in every kernel). f32 cells have the size of i32
 * ones, whose traversals the CA covers in every configuration: f32 runs four configurations of the simplices and of
 * the carpet, for 20 and for 1000 steps. */
static const double CYCLIC_K[] = {4.0}, AVERAGE_P[] = {0.3, 0.5};
static const workload CYCLIC = {"cyclic.cl", CYCLIC_CL, cyclic_fn, CYCLIC_K, 1, 0};
static const workload AVERAGE32 = {"average.cl", AVERAGE_CL, average_f32, AVERAGE_P, 2, 0};
static const workload AVERAGE64 = {"average.cl", AVERAGE_CL, average_f64, AVERAGE_P, 2, 0};

typedef struct {
  const workload *w;
  sqz_type type;
  int k; /* states of the integer initial state */
  uint64_t steps;
  int few;             /* configurations per domain, 0 = all */
  const char *fractal; /* of the fractals, only the one whose spec contains this (NULL: all) */
} matrix_run;

#define F64_PATTERN "##./#.#/.##"
#define CYCLIC_I32 {&CYCLIC, SQZ_I32, 4, 7, 0, "sierpinski-triangle"}
#define CYCLIC_I32_S3 {&CYCLIC, SQZ_I32, 4, 7, 0, F64_PATTERN}
#define CYCLIC_U8 {&CYCLIC, SQZ_U8, 4, 7, 0, "sierpinski-triangle"}
static const matrix_run CYCLIC_BOTH[] = {CYCLIC_I32, CYCLIC_U8, {NULL}},
                        CYCLIC_I32_ONLY[] = {CYCLIC_I32, CYCLIC_I32_S3, {NULL}}, CYCLIC_U8_ONLY[] = {CYCLIC_U8, {NULL}};
static const matrix_run AVERAGE_F64[] = {{&AVERAGE64, SQZ_F64, 0, 20, 0, F64_PATTERN},
                                         {&AVERAGE64, SQZ_F64, 0, 1000, 4, F64_PATTERN},
                                         {NULL}};
static const matrix_run AVERAGE_F32[] = {{&AVERAGE32, SQZ_F32, 0, 20, 4, "carpet"},
                                         {&AVERAGE32, SQZ_F32, 0, 1000, 4, "carpet"},
                                         {NULL}};

/* The parts, one Check case and ctest entry each, so that each stays well within its timeout when PoCL builds every
 * program afresh, and ctest -jN spreads them over the cores. */
enum { SIMPLICES = 1, FRACTALS = 2 };
static const struct {
  const char *name;
  const matrix_run *runs;
  int domains;
} PARTS[] = {
    {"cyclic_simplex", CYCLIC_BOTH, SIMPLICES},      {"cyclic_fractal_i32", CYCLIC_I32_ONLY, FRACTALS},
    {"cyclic_fractal_u8", CYCLIC_U8_ONLY, FRACTALS}, {"average_f64_simplex", AVERAGE_F64, SIMPLICES},
    {"average_f64_fractal", AVERAGE_F64, FRACTALS},  {"average_f32", AVERAGE_F32, SIMPLICES | FRACTALS},
};

/* Part _i: its runs on its domains (DOMAINS[0..2] are the simplices). */
START_TEST(test_matrix) {
  for (int d = 0; d < N_DOMAINS; d++) {
    int fractal = d >= 3;
    if (!(PARTS[_i].domains & (fractal ? FRACTALS : SIMPLICES))) continue;
    for (const matrix_run *r = PARTS[_i].runs; r->w; r++)
      if (!fractal || !r->fractal || strstr(DOMAINS[d], r->fractal))
        matrix(DOMAINS[d], r->type, r->w, r->k, r->steps, r->few);
  }
}
END_TEST

/* ---- c. heat ---------------------------------------------------------------------------------------------------- */
/* Heat on the oracle (the documented formula), the cpu backend and a few opencl configurations of a few domains
 * (the traversals are those of the user updates above; the update is the engine's own): f64 on three configurations
 * of each domain, f32 on one (4-byte cells take the traversals of the i32 CA). */
START_TEST(test_heat_backends_agree) {
  static const char *const specs[] = {"triangle:40", "tetrahedron:11", "fractal:sierpinski-carpet:3"};
  for (int d = 0; d < 3; d++) {
    double alpha = strncmp(specs[d], "tetra", 5) == 0 ? 1.0 / 6.0 : 0.2;
    workload h64 = {"heat", NULL, heat_f64, NULL, 0, alpha}, h32 = {"heat", NULL, heat_f32, NULL, 0, alpha};
    matrix(specs[d], SQZ_F64, &h64, 0, 50, 3);
    matrix(specs[d], SQZ_F32, &h32, 0, 50, 1);
  }
}
END_TEST

/* 10^4 steps of f64 heat conserve the total to 1e-12 relative and spread it (the range of values shrinks); the
 * uniform fill is the same on both backends. */
static void heat_conserves(const char *backend, const char *spec, double alpha) {
  sqz_context *ctx = sqz_test_context(backend);
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_F64, "compact", &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(f, 7));
  size_t cells = embedded_cells(dom);
  double *a = malloc(cells * sizeof *a), sum0 = 0, sum1 = 0, lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
  ck_assert_ptr_nonnull(a);
  for (int pass = 0; pass < 2; pass++) {
    if (pass) SQZ_OK_OR_FAIL(ctx, sqz_heat_step(f, alpha, 10000));
    SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_NEUMAIER, pass ? &sum1 : &sum0));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, a, cells * sizeof *a));
    for (size_t e = 0; e < cells; e++) {
      if (!contains_index(dom, e)) {
        ck_assert_msg(a[e] == 0.0, "%s: cell %zu outside the domain is %g", spec, e, a[e]);
        continue;
      }
      lo[pass] = fmin(lo[pass], a[e]);
      hi[pass] = fmax(hi[pass], a[e]);
    }
  }
  double rel = fabs(sum1 - sum0) / fabs(sum0);
  printf("heat %s %s: sum %.17g -> %.17g (relative change %.3g), range %.3g -> %.3g\n", backend, spec, sum0, sum1, rel,
         hi[0] - lo[0], hi[1] - lo[1]);
  ck_assert_msg(sum0 > 0.25 * (double)sqz_domain_cells(dom), "%s: the uniform fill sums to %g", spec, sum0);
  ck_assert_msg(rel <= 1e-12, "%s on %s: the total went from %.17g to %.17g (relative %.3g)", spec, backend, sum0, sum1,
                rel);
  ck_assert_msg(hi[1] - lo[1] < 0.5 * (hi[0] - lo[0]), "%s on %s: heat did not spread (range %g -> %g)", spec, backend,
                hi[0] - lo[0], hi[1] - lo[1]);
  free(a);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}

START_TEST(test_heat_conserves_cpu) {
  heat_conserves("cpu", "fractal:sierpinski-carpet:3", 0.25);
  heat_conserves("cpu", "triangle:30", 0.25);
}
END_TEST

START_TEST(test_heat_conserves_opencl) {
  heat_conserves("opencl", "triangle:30", 0.25);
  heat_conserves("opencl", "tetrahedron:10", 1.0 / 6.0);
  heat_conserves("opencl", "fractal:sierpinski-carpet:3", 0.2);
}
END_TEST

/* alpha outside (0, limit] and integer fields are refused on both backends, leaving the state as it was. */
START_TEST(test_heat_bad_input) {
  for (int b = 0; b < 2; b++) {
    sqz_context *ctx = sqz_test_context(b ? "cpu" : "opencl");
    ck_assert_double_eq(sqz_heat_alpha_max(2), 0.25);
    ck_assert_double_eq(sqz_heat_alpha_max(3), 1.0 / 6.0);
    for (int d = 0; d < 2; d++) {
      sqz_domain *dom = NULL;
      sqz_field *f = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, d ? "tetrahedron:6" : "triangle:8", &dom));
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_F64, "compact", &f));
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(f, 3));
      double before = 0, after = 0, amax = sqz_heat_alpha_max(d ? 3 : 2);
      SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_NEUMAIER, &before));
      const double bad[] = {nextafter(amax, 1.0), d ? 0.2 : 0.3, 0.0, -0.1, NAN, INFINITY};
      for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = sqz_heat_step(f, bad[i], 1);
        ck_assert_msg(st == SQZ_ERR_INVALID_ARGUMENT, "%s alpha %.17g: %s", sqz_domain_spec(dom), bad[i],
                      sqz_status_name(st));
        ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "stability limit"));
      }
      SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_NEUMAIER, &after));
      ck_assert_double_eq(before, after);
      SQZ_OK_OR_FAIL(ctx, sqz_heat_step(f, amax, 1)); /* the limit itself is allowed */
      sqz_field_release(f);
      for (int t = 0; t < 2; t++) {
        SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, t ? SQZ_I32 : SQZ_U8, "compact", &f));
        int st = sqz_heat_step(f, 0.1, 1);
        ck_assert_msg(st == SQZ_ERR_INVALID_ARGUMENT, "heat on %s cells: %s", t ? "i32" : "u8", sqz_status_name(st));
        ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "f32 or f64"));
        sqz_field_release(f);
      }
      sqz_domain_release(dom);
    }
    sqz_context_release(ctx);
  }
}
END_TEST

/* ---- d. bad input -------------------------------------------------------------------------------------------- */
/* A compact field on spec; the domain must outlive it (fields borrow their domain): released by free_field. */
static sqz_field *small_field(sqz_context *ctx, const char *spec, sqz_type type) {
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, type, "compact", &f));
  return f;
}

static void free_field(sqz_field *f) {
  sqz_domain *dom = f->dom;
  sqz_field_release(f);
  sqz_domain_release(dom);
}

/* A syntax error on line 3 of the user's file: SQZ_ERR_BUILD_FAILED, the log names "mine.cl:3", the state is
 * untouched; the same field then runs a good kernel. */
START_TEST(test_build_error_names_line) {
  static const char bad[] = "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
                            "                      __constant const sqz_param_t *param) {\n"
                            "  return self +* ;\n"
                            "}\n";
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_field *f = small_field(ctx, "triangle:9", SQZ_I32);
  int32_t state[81] = {0}, after[81];
  state[9 * 4 + 2] = 3;
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, state, sizeof state));
  int st = sqz_stencil_step(f, bad, "mine.cl", CYCLIC_K, 1, 2);
  ck_assert_msg(st == SQZ_ERR_BUILD_FAILED, "%s", sqz_status_name(st));
  ck_assert_msg(strstr(sqz_last_error(ctx), "mine.cl:3") != NULL, "the log does not name mine.cl:3: %s",
                sqz_last_error(ctx));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, after, sizeof after));
  ck_assert(memcmp(state, after, sizeof state) == 0);
  SQZ_OK_OR_FAIL(ctx, sqz_stencil_step(f, CYCLIC_CL, "cyclic.cl", CYCLIC_K, 1, 1));
  free_field(f);
  sqz_context_release(ctx);
}
END_TEST

/* Asserts st == want and, where detail is given, that sqz_last_error(ctx) contains it. */
static void expect_status(sqz_context *ctx, int st, int want, const char *detail, const char *what) {
  ck_assert_msg(st == want, "%s: %s, expected %s (%s)", what, sqz_status_name(st), sqz_status_name(want),
                sqz_last_error(ctx));
  if (detail)
    ck_assert_msg(strstr(sqz_last_error(ctx), detail) != NULL, "%s: the detail does not name '%s': %s", what, detail,
                  sqz_last_error(ctx));
}

/* Non-finite parameters are SQZ_ERR_NON_FINITE naming the parameter; a value beyond float for f32 cells is refused;
 * NULL and empty arguments are invalid; the C form needs the cpu backend, the OpenCL C form an OpenCL device. */
START_TEST(test_bad_params) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  const double nan_p[] = {1.0, NAN}, inf_p[] = {-INFINITY, 0.5}, huge[] = {0.5, 1e300};
  for (int t = 0; t < 2; t++) {
    sqz_type type = t ? SQZ_F32 : SQZ_F64;
    sqz_field *f = small_field(cl, "triangle:6", type), *g = small_field(cpu, "triangle:6", type);
    cell_info ci = {type, 8};
    sqz_update_fn fn = t ? average_f32 : average_f64;
    expect_status(cl, sqz_stencil_step(f, AVERAGE_CL, "a.cl", nan_p, 2, 1), SQZ_ERR_NON_FINITE, "parameter 2", "NaN");
    expect_status(cl, sqz_stencil_step(f, AVERAGE_CL, "a.cl", inf_p, 2, 1), SQZ_ERR_NON_FINITE, "parameter 1", "-inf");
    expect_status(cpu, sqz_stencil_step_fn(g, fn, &ci, nan_p, 2, 1), SQZ_ERR_NON_FINITE, "parameter 2", "NaN on cpu");
    expect_status(cl, sqz_stencil_step(f, AVERAGE_CL, "a.cl", huge, 2, 1), t ? SQZ_ERR_INVALID_ARGUMENT : SQZ_OK,
                  t ? "fit a float" : NULL, "1e300");
    expect_status(cl, sqz_stencil_step(f, AVERAGE_CL, "a.cl", NULL, 2, 1), SQZ_ERR_INVALID_ARGUMENT, NULL, "NULL");
    expect_status(cl, sqz_stencil_step(f, "", "a.cl", AVERAGE_P, 2, 1), SQZ_ERR_INVALID_ARGUMENT, NULL, "empty");
    expect_status(cl, sqz_stencil_step(f, NULL, "a.cl", AVERAGE_P, 2, 1), SQZ_ERR_INVALID_ARGUMENT, NULL, "no source");
    expect_status(cpu, sqz_stencil_step_fn(g, NULL, NULL, AVERAGE_P, 2, 1), SQZ_ERR_INVALID_ARGUMENT, NULL, "no fn");
    expect_status(NULL, sqz_stencil_step(NULL, AVERAGE_CL, "a.cl", AVERAGE_P, 2, 1), SQZ_ERR_INVALID_ARGUMENT, NULL,
                  "no field");
    expect_status(cl, sqz_stencil_step_fn(f, fn, &ci, AVERAGE_P, 2, 1), SQZ_ERR_UNSUPPORTED, "cpu backend",
                  "a C function on opencl");
    expect_status(cpu, sqz_stencil_step(g, AVERAGE_CL, "a.cl", AVERAGE_P, 2, 1), SQZ_ERR_UNSUPPORTED,
                  "sqz_stencil_step_fn", "OpenCL C on cpu");
    free_field(f);
    free_field(g);
  }
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* More parameters than the device's constant memory holds (at least 10^6 doubles) are SQZ_ERR_INVALID_ARGUMENT; as
 * many as fit run, and the last one reaches the kernel. */
START_TEST(test_too_many_params) {
  static const char last_param[] =
      "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
      "                      __constant const sqz_param_t *param) {\n"
      "  return param[(int)param[0]];\n"
      "}\n";
  sqz_context *ctx = sqz_test_context("opencl");
  cl_ulong limit = 0;
  ck_assert_int_eq(clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof limit, &limit, NULL),
                   CL_SUCCESS);
  for (int t = 0; t < 2; t++) {
    size_t ps = t ? sizeof(float) : sizeof(double), over = (size_t)limit / ps + 1;
    if (over < 1000000) over = 1000000;
    double *p = calloc(over, sizeof *p);
    ck_assert_ptr_nonnull(p);
    sqz_field *f = small_field(ctx, "triangle:5", t ? SQZ_F32 : SQZ_F64);
    int st = sqz_stencil_step(f, last_param, "last.cl", p, over, 1);
    ck_assert_msg(st == SQZ_ERR_INVALID_ARGUMENT, "%zu parameters of %zu bytes, %llu bytes of constant memory: %s", over,
                  ps, (unsigned long long)limit, sqz_status_name(st));
    ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "constant memory"));
    size_t fit = (size_t)limit / ps;
    p[0] = (double)(fit - 1);
    p[fit - 1] = 0.75;
    SQZ_OK_OR_FAIL(ctx, sqz_stencil_step(f, last_param, "last.cl", p, fit, 1));
    double sum = 0;
    SQZ_OK_OR_FAIL(ctx, sqz_field_sum(f, SQZ_SUM_NEUMAIER, &sum));
    ck_assert_double_eq(sum, 0.75 * 15);
    free_field(f);
    free(p);
  }
  sqz_context_release(ctx);
}
END_TEST

/* ---- e. Life through the engine: opencl equals cpu ------------------------------------------------------------ */
/* The larger runs pass 2^15 cells, so the cpu backend's vector Life runs on several threads and
 * tasks of rows or tiles (odd and even triangles fold differently; lambda is an embedded layout). */
START_TEST(test_life_backends_agree) {
  static const struct {
    const char *spec, *rule;
    double density;
    const char *layout;
  } runs[] = {{"tetrahedron:9", "B6/S5,6,7", 0.35, "compact"},
              {"triangle:33", "B3/S23", 0.4, "compact"},
              {"triangle:301", "B3/S23", 0.4, "compact"},
              {"triangle:300", "B3/S23", 0.4, "compact"},
              {"triangle:300", "B3/S23", 0.4, "bb"},
              {"tetrahedron:71", "B6/S5,6,7", 0.35, "compact"},
              {"fractal:sierpinski-triangle:11", "B3/S23", 0.5, "compact"},
              {"fractal:sierpinski-carpet:5", "B2/S23", 0.5, "lambda"}};
  for (int r = 0; r < (int)(sizeof runs / sizeof runs[0]); r++) {
    unsigned char *state[2] = {NULL, NULL}, *init = NULL;
    size_t cells = 0;
    for (int b = 0; b < 2; b++) {
      sqz_context *ctx = sqz_test_context(b ? "cpu" : "opencl");
      sqz_domain *dom = NULL;
      sqz_field *f = NULL;
      SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, runs[r].spec, &dom));
      cells = embedded_cells(dom);
      state[b] = malloc(cells);
      if (!init) init = malloc(cells);
      SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, runs[r].layout, &f));
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, runs[r].density, 5));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, init, cells));
      SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, runs[r].rule, 4));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, state[b], cells));
      if (b) expect_changed(dom, SQZ_U8, init, state[b], runs[r].rule);
      sqz_field_release(f);
      sqz_domain_release(dom);
      sqz_context_release(ctx);
    }
    size_t e = 0;
    while (e < cells && state[0][e] == state[1][e]) e++;
    ck_assert_msg(e == cells, "%s %s %s: embedded cell %zu is %u on opencl, %u on cpu", runs[r].spec, runs[r].layout,
                  runs[r].rule, e, state[0][e], state[1][e]);
    free(state[0]);
    free(state[1]);
    free(init);
  }
}
END_TEST

/* One domain against the cpu backend: the cpu's state after `steps` of w from a seeded state, then `variants` opencl
 * runs, each configured by vary(cl, c, v, 0, what) before and restored by vary(..., 1, ...) after. */
typedef void (*vary_fn)(sqz_context *cl, sqz_domain *dom, run_cfg *c, int v, int undo, char *what, size_t len);

static void against_cpu(const char *spec, sqz_type type, const workload *w, int k, uint64_t seed, uint64_t steps,
                        int variants, vary_fn vary) {
  sqz_context *cpu = sqz_test_context("cpu"), *cl = sqz_test_context("opencl");
  sqz_domain *dcpu = NULL, *dcl = NULL;
  SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, spec, &dcpu));
  SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, spec, &dcl));
  size_t bytes = embedded_cells(dcpu) * sqz_type_size(type);
  unsigned char *init = initial_state(dcpu, type, k, seed), *want = malloc(bytes), *got = malloc(bytes);
  ck_assert(want && got);
  run_cfg c = {.layout = "bb", .map = NULL, .block = 0};
  run_on(cpu, dcpu, type, &c, w, steps, init, want);
  for (int v = 0; v < variants; v++) {
    char what[256];
    vary(cl, dcl, &c, v, 0, what, sizeof what);
    run_on(cl, dcl, type, &c, w, steps, init, got);
    vary(cl, dcl, &c, v, 1, what, sizeof what);
    expect_same(dcl, type, want, got, type != SQZ_F32, what); /* f32: within the tolerance, as the matrix */
  }
  free(init);
  free(want);
  free(got);
  sqz_domain_release(dcpu);
  sqz_domain_release(dcl);
  sqz_context_release(cpu);
  sqz_context_release(cl);
}

/* The row step on the smallest triangles and tetrahedra, n = 1 .. 8 (no regular cell up to n = 5, the fold's seam at
 * every row), both layouts and both kernels (tetrahedra: the row walk), the i32 CA (tetrahedra: the f64 average,
 * whose weights see the neighbour order among 26) against the cpu backend. */
START_TEST(test_rows_small) {
  for (int n = 1; n <= 8; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "triangle:%d", n);
    against_cpu(spec, SQZ_I32, &CYCLIC, 4, 77 + (uint64_t)n, 5, 4, vary_rows);
    against_cpu(spec, SQZ_U8, &CYCLIC, 4, 66 + (uint64_t)n, 5, 4, vary_rows); /* 4 columns a work-item (GPUs) */
    snprintf(spec, sizeof spec, "tetrahedron:%d", n);
    against_cpu(spec, SQZ_F64, &AVERAGE64, 0, 88 + (uint64_t)n, 5, 2, vary_rows); /* weights see the order */
  }
}
END_TEST

/* The row step on a field in parts: bb and compact, 2 and 3 parts (rows read from the halo through their slot base,
 * rows split between a part and its halo cell by cell). */
static void vary_row_parts(sqz_context *cl, sqz_domain *dom, run_cfg *c, int v, int undo, char *what, size_t len) {
  (void)cl;
  (void)dom;
  if (undo) {
    c->parts = 0;
    return;
  }
  snprintf(c->layout, sizeof c->layout, "%s", v % 2 ? "compact" : "bb");
  c->parts = 2 + (uint64_t)(v / 2);
  snprintf(what, len, "opencl %s row step in %llu parts vs cpu", c->layout, (unsigned long long)c->parts);
}

/* The row step on triangles and tetrahedra wide enough that the CPU row walk's vectorised span loops run their vector
 * bodies (a span of 150 byte cells holds several 32-lane blocks, with a remainder), odd and even n (the fold's
 * seam), u8, f32 and f64, both layouts and both kernels, then fields in parts, against the cpu backend. */
START_TEST(test_rows_wide) {
  against_cpu("triangle:300", SQZ_U8, &CYCLIC, 4, 11, 5, 4, vary_rows);
  against_cpu("triangle:301", SQZ_F32, &AVERAGE32, 0, 12, 5, 4, vary_rows);
  against_cpu("triangle:300", SQZ_F64, &AVERAGE64, 0, 13, 5, 4, vary_rows);
  against_cpu("tetrahedron:70", SQZ_U8, &CYCLIC, 4, 14, 5, 2, vary_rows);
  against_cpu("tetrahedron:69", SQZ_F64, &AVERAGE64, 0, 15, 5, 2, vary_rows);
  against_cpu("triangle:200", SQZ_U8, &CYCLIC, 4, 16, 5, 4, vary_row_parts);
  against_cpu("tetrahedron:40", SQZ_F64, &AVERAGE64, 0, 17, 5, 4, vary_row_parts);
  against_cpu("tetrahedron:41", SQZ_U8, &CYCLIC, 4, 18, 5, 4, vary_row_parts);
}
END_TEST

/* The persistent tile steps' variants: compact tiles of side s and automatic ones, with one compute unit. */
static void vary_persistent(sqz_context *cl, sqz_domain *dom, run_cfg *c, int v, int undo, char *what, size_t len) {
  static unsigned units;
  if (undo) {
    cl->compute_units = units;
    return;
  }
  snprintf(c->layout, sizeof c->layout, "compact");
  c->block = v ? 0u : (uint32_t)dom->fr.s;
  units = cl->compute_units;
  cl->compute_units = 1;
  snprintf(what, len, "average, persistent tile steps (block %u) vs cpu", c->block);
}

/* The persistent tile steps (cl/engine_fractal.cl, fr_tile_step): with one compute unit the launch has 32 groups,
 * so each group steps many sets of tiles one after another, its cache zeroed once; the f64 average against the cpu
 * backend. */
START_TEST(test_persistent_tiles) {
  against_cpu("fractal:sierpinski-triangle:9", SQZ_F64, &AVERAGE64, 0, 99, 6, 2, vary_persistent);
  against_cpu("fractal:sierpinski-carpet:4", SQZ_F64, &AVERAGE64, 0, 100, 6, 2, vary_persistent);
}
END_TEST

int main(void) {
  Suite *s = suite_create("stencil");
  for (int p = 0; p < (int)(sizeof PARTS / sizeof PARTS[0]); p++)
    tcase_add_loop_test(sqz_test_tcase(s, PARTS[p].name, 900), test_matrix, p, p + 1);
  TCase *tc = sqz_test_tcase(s, "heat", 900);
  tcase_add_test(tc, test_heat_backends_agree);
  tcase_add_test(tc, test_heat_conserves_cpu);
  tcase_add_test(tc, test_heat_conserves_opencl);
  tcase_add_test(tc, test_heat_bad_input);
  tc = sqz_test_tcase(s, "bad_input", 900);
  tcase_add_test(tc, test_build_error_names_line);
  tcase_add_test(tc, test_bad_params);
  tcase_add_test(tc, test_too_many_params);
  tc = sqz_test_tcase(s, "life", 900);
  tcase_add_test(tc, test_life_backends_agree);
  tc = sqz_test_tcase(s, "rows", 900);
  tcase_add_test(tc, test_rows_small);
  tcase_add_test(tc, test_rows_wide);
  tc = sqz_test_tcase(s, "persistent", 900);
  tcase_add_test(tc, test_persistent_tiles);
  return sqz_test_run(s);
}
