/* labels: host */
/* test_parts.c — fields in parts: the plan's ranges, its exact halos against a brute-force oracle in embedded space, its counts, and the parted host run against the unparted cpu backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parts.h"
#include "sqz_test.h"

/* Every family: fractals s = 2 and 3, a custom s = 3 pattern, triangles and tetrahedra of odd and even side. */
static const char *const domains[] = {
    "fractal:sierpinski-triangle:6", "fractal:sierpinski-carpet:3", "fractal:vicsek-cross:4",
    "fractal:vicsek-saltire:3",      "fractal:##./#.#/.##:3",        "fractal:#.##/.#../##.#/#..#:3",
    "triangle:37",                   "triangle:36",                  "tetrahedron:13",
    "tetrahedron:12",
};
#define N_DOMAINS (sizeof domains / sizeof *domains)

static sqz_domain *parse(const char *spec) {
  sqz_domain *dom = NULL;
  int st = sqz_domain_parse(NULL, spec, &dom);
  ck_assert_msg(st == SQZ_OK, "%s: %s", spec, sqz_last_error(NULL));
  return dom;
}

/* The part counts of a domain: 1, 2, 3, k^j and k^j + 1 (fractals; j = 1, 2), more than the top
 * level's replicas, counts that divide nothing, and one cell per part on small domains. */
static int part_counts(const sqz_domain *dom, uint64_t *out) {
  int n = 0;
  uint64_t k = dom->kind == SQZ_DOMAIN_FRACTAL ? (uint64_t)dom->fr.k : 4;
  uint64_t list[] = {1, 2, 3, k, k + 1, k * k, k * k + 1, 7, 31, 97, dom->cells - 1, dom->cells};
  for (size_t i = 0; i < sizeof list / sizeof *list; i++) {
    uint64_t p = list[i];
    int dup = p < 1 || p > dom->cells || (p >= dom->cells - 1 && dom->cells > 800);
    for (int j = 0; j < n; j++) dup |= out[j] == p;
    if (!dup) out[n++] = p;
  }
  return n;
}

/* ---- the oracle: every cell and every offset in embedded space ------------------------------- */
typedef struct {
  sqz_domain *dom;
  int64_t side, planes;
  int64_t *index; /* embedded (z, y, x) -> compact index or -1, from the layout's own index map */
} oracle;

static oracle oracle_make(sqz_domain *dom) {
  oracle o = {dom, (int64_t)dom->side, dom->dims == 3 ? (int64_t)dom->side : 1, NULL};
  sqz_field f;
  memset(&f, 0, sizeof f);
  f.dom = dom;
  f.layout = SQZ_LAYOUT_COMPACT;
  ck_assert_int_eq(sqz__layout_geometry(dom, f.layout, 0, &f.elems, &f.width, &f.height), SQZ_OK);
  o.index = malloc((size_t)(o.side * o.side * o.planes) * sizeof *o.index);
  ck_assert_ptr_nonnull(o.index);
  uint64_t found = 0;
  for (int64_t z = 0; z < o.planes; z++)
    for (int64_t y = 0; y < o.side; y++)
      for (int64_t x = 0; x < o.side; x++) {
        int in = sqz_domain_contains(dom, (uint64_t)x, (uint64_t)y, (uint64_t)z);
        int64_t i = sqz__layout_index(&f, (uint64_t)x, (uint64_t)y, (uint64_t)z);
        ck_assert_int_eq(in, i >= 0);
        o.index[(z * o.side + y) * o.side + x] = i;
        found += in;
      }
  ck_assert_uint_eq(found, dom->cells);
  return o;
}

static int64_t oracle_at(const oracle *o, int64_t x, int64_t y, int64_t z) {
  if (x < 0 || y < 0 || z < 0 || x >= o->side || y >= o->side || z >= o->planes) return -1;
  return o->index[(z * o->side + y) * o->side + x];
}

/* The width-T halo of every part: halo[p] is a 0/1 array over the compact cells, depth the least ring. */
static void oracle_halos(const oracle *o, const sqz_parts_plan *plan, int t, unsigned char **halo) {
  int tz = o->dom->dims == 3 ? t : 0;
  for (uint64_t p = 0; p < plan->parts; p++) halo[p] = calloc((size_t)o->dom->cells, 1);
  for (int64_t z = 0; z < o->planes; z++)
    for (int64_t y = 0; y < o->side; y++)
      for (int64_t x = 0; x < o->side; x++) {
        int64_t i = oracle_at(o, x, y, z);
        if (i < 0) continue;
        uint64_t p = 0;
        while (plan->start[p + 1] <= (uint64_t)i) p++;
        for (int dz = -tz; dz <= tz; dz++)
          for (int dy = -t; dy <= t; dy++)
            for (int dx = -t; dx <= t; dx++) {
              int64_t j = oracle_at(o, x + dx, y + dy, z + dz);
              if (j < 0 || ((uint64_t)j >= plan->start[p] && (uint64_t)j < plan->start[p + 1])) continue;
              int ring = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
              ring = ring > abs(dz) ? ring : abs(dz);
              if (!halo[p][j] || ring < halo[p][j]) halo[p][j] = (unsigned char)ring;
            }
      }
}

/* The plan's ranges: a partition of the compact order, balanced (fractals: whole replicas at the
 * smallest level j with k^j >= P, to one replica; simplices: to one cell). */
static void check_ranges(const sqz_domain *dom, const sqz_parts_plan *plan) {
  uint64_t lo = UINT64_MAX, hi = 0, unit = plan->replica_cells;
  ck_assert_uint_eq(plan->start[0], 0);
  ck_assert_uint_eq(plan->start[plan->parts], dom->cells);
  if (dom->kind == SQZ_DOMAIN_FRACTAL) {
    ck_assert_uint_ge(plan->replicas, plan->parts);
    uint64_t coarser = plan->replicas / (uint64_t)dom->fr.k; /* level j - 1: too few replicas or unbalanced */
    ck_assert(plan->level == 0 || coarser < plan->parts || 32 * ((coarser + plan->parts - 1) / plan->parts) * plan->parts > 33 * coarser);
    ck_assert(plan->level == dom->fr.r || 32 * ((plan->replicas + plan->parts - 1) / plan->parts) * plan->parts <= 33 * plan->replicas ||
              plan->replicas * (uint64_t)dom->fr.k > SQZ_PARTS_REPLICAS_MAX);
    ck_assert_uint_eq(plan->replicas * plan->replica_cells, dom->cells);
  }
  for (uint64_t p = 0; p < plan->parts; p++) {
    uint64_t n = plan->start[p + 1] - plan->start[p];
    ck_assert_uint_eq(plan->start[p] % unit, 0);
    lo = n < lo ? n : lo;
    hi = n > hi ? n : hi;
  }
  ck_assert_uint_ge(lo, unit);
  ck_assert_uint_le(hi - lo, unit);
  for (uint64_t i = 0; i < dom->cells; i += 1 + dom->cells / 97) {
    uint64_t p = sqz__parts_owner(plan, i);
    ck_assert(plan->start[p] <= i && i < plan->start[p + 1]);
  }
}

/* One (domain, P): the structural halos (listed and counted) and the enumerated width-T halos
 * against the oracle. */
static void check_plan(const oracle *o, uint64_t parts) {
  sqz_parts_plan *plan = NULL;
  int st = sqz__parts_plan(o->dom, parts, &plan);
  ck_assert_msg(st == SQZ_OK, "%s P=%llu: %s", o->dom->spec, (unsigned long long)parts, sqz_last_error(NULL));
  check_ranges(o->dom, plan);
  uint64_t total = 0, bits = 0, messages = 0, vals[SQZ_PARTS_VALUES];
  for (int t = 1; t <= (o->dom->cells < 800 && parts < 40 ? 3 : 1); t++) {
    unsigned char **want = calloc((size_t)parts, sizeof *want);
    oracle_halos(o, plan, t, want);
    for (uint64_t p = 0; p < parts; p++) {
      sqz_halo h;
      uint64_t n = 0, *per = calloc((size_t)parts, sizeof *per);
      ck_assert_int_eq(t == 1 ? sqz__parts_halo(plan, p, &h) : sqz__parts_halo_wide(plan, p, (unsigned)t, &h), SQZ_OK);
      for (uint64_t i = 0; i < o->dom->cells; i++) n += want[p][i] != 0;
      ck_assert_msg(h.n == n, "%s P=%llu T=%d part %llu: %llu halo cells, the oracle %llu", o->dom->spec,
                    (unsigned long long)parts, t, (unsigned long long)p, (unsigned long long)h.n, (unsigned long long)n);
      for (uint64_t i = 0; i < h.n; i++) {
        ck_assert(i == 0 || h.index[i - 1] < h.index[i]);
        ck_assert_msg(want[p][h.index[i]] == h.depth[i], "%s P=%llu T=%d part %llu: cell %llu depth %u, oracle %u",
                      o->dom->spec, (unsigned long long)parts, t, (unsigned long long)p,
                      (unsigned long long)h.index[i], h.depth[i], want[p][h.index[i]]);
        ck_assert(plan->start[h.owner[i]] <= h.index[i] && h.index[i] < plan->start[h.owner[i] + 1]);
        per[h.owner[i]]++;
      }
      if (t == 1) { /* the count from the structure alone */
        sqz_part_stats ps;
        uint64_t b = 0, s = 0;
        for (uint64_t q = 0; q < parts; q++) b += (per[q] + 7) / 8, s += per[q] != 0;
        ck_assert_int_eq(sqz__parts_stats(plan, p, &ps), SQZ_OK);
        ck_assert_uint_eq(ps.cells, plan->start[p + 1] - plan->start[p]);
        ck_assert_msg(ps.halo == n, "%s P=%llu part %llu: counted %llu, oracle %llu", o->dom->spec,
                      (unsigned long long)parts, (unsigned long long)p, (unsigned long long)ps.halo, (unsigned long long)n);
        ck_assert_uint_eq(ps.bit_bytes, b);
        ck_assert_uint_eq(ps.sources, s);
        total += n, bits += b, messages += s;
      }
      free(per);
      sqz__halo_free(&h);
      free(want[p]);
    }
    free(want);
  }
  ck_assert_int_eq(sqz_parts_info(o->dom, parts, vals, SQZ_PARTS_VALUES), SQZ_OK);
  ck_assert_uint_eq(vals[SQZ_PARTS_HALO_TOTAL], total);
  ck_assert_uint_eq(vals[SQZ_PARTS_BIT_BYTES_TOTAL], bits);
  ck_assert_uint_eq(vals[SQZ_PARTS_MESSAGES], messages);
  ck_assert_uint_eq(vals[SQZ_PARTS_LEVEL], (uint64_t)plan->level);
  ck_assert_uint_eq(vals[SQZ_PARTS_CELLS_MAX] - vals[SQZ_PARTS_CELLS_MIN] <= plan->replica_cells, 1);
  ck_assert(vals[SQZ_PARTS_HALO_MAX] <= total && vals[SQZ_PARTS_HALO_MAX] * parts >= total);
  ck_assert(vals[SQZ_PARTS_HALO_MIN] <= vals[SQZ_PARTS_HALO_MAX]);
  if (parts == 1) ck_assert_uint_eq(total, 0); /* one part reads no other */
  else ck_assert_uint_gt(total, 0);
  sqz__parts_plan_free(plan);
}

START_TEST(test_halos_against_oracle) {
  sqz_domain *dom = parse(domains[_i]);
  oracle o = oracle_make(dom);
  uint64_t counts[16];
  int n = part_counts(dom, counts);
  for (int i = 0; i < n; i++) check_plan(&o, counts[i]);
  free(o.index);
  sqz_domain_release(dom);
}
END_TEST

/* Larger domains, where edges span many replicas and bands many rows: counts and lists (width 1). */
START_TEST(test_halos_larger) {
  static const char *const specs[] = {"fractal:sierpinski-triangle:9", "fractal:sierpinski-carpet:4",
                                      "fractal:vicsek-saltire:5", "triangle:301", "tetrahedron:41"};
  static const uint64_t parts[] = {5, 100, 9};
  for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
    sqz_domain *dom = parse(specs[s]);
    oracle o = oracle_make(dom);
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++) check_plan(&o, parts[p]);
    free(o.index);
    sqz_domain_release(dom);
  }
}
END_TEST

/* Long edges (s^(R-j) up to 2^15): the digit automaton's count against the listed cells. */
START_TEST(test_counts_long_edges) {
  static const char *const specs[] = {"fractal:sierpinski-triangle:16", "fractal:sierpinski-carpet:9",
                                      "fractal:vicsek-cross:9", "fractal:#.##/.#../##.#/#..#:7",
                                      "fractal:##./#.#/.##:9"};
  static const uint64_t parts[] = {2, 10, 77};
  for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
    sqz_domain *dom = parse(specs[s]);
    for (size_t c = 0; c < sizeof parts / sizeof *parts; c++) {
      sqz_parts_plan *plan = NULL;
      ck_assert_int_eq(sqz__parts_plan(dom, parts[c], &plan), SQZ_OK);
      for (uint64_t p = 0; p < plan->parts; p += 1 + plan->parts / 7) {
        sqz_halo h;
        sqz_part_stats ps;
        ck_assert_int_eq(sqz__parts_halo(plan, p, &h), SQZ_OK);
        ck_assert_int_eq(sqz__parts_stats(plan, p, &ps), SQZ_OK);
        ck_assert_msg(ps.halo == h.n && h.n > 0, "%s P=%llu part %llu: counted %llu, listed %llu", specs[s],
                      (unsigned long long)parts[c], (unsigned long long)p, (unsigned long long)ps.halo,
                      (unsigned long long)h.n);
        sqz__halo_free(&h);
      }
      sqz__parts_plan_free(plan);
    }
    sqz_domain_release(dom);
  }
}
END_TEST

/* ---- the parted run against the unparted cpu backend ---------------------------------------- */
typedef struct {
  uint32_t birth, survive;
  int nb;
} life_rule;

static void life_fn(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  const life_rule *r = user;
  const unsigned char *v = nb;
  unsigned live = 0;
  for (int i = 0; i < r->nb; i++) live += v[i] != 0;
  unsigned s = *(const unsigned char *)self;
  *(unsigned char *)out = (unsigned char)(((s ? r->survive : r->birth) >> live) & 1u);
}

/* An integer stencil that sees every neighbour's position, value and presence. */
static void mix_fn(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user) {
  int32_t s, v;
  memcpy(&s, self, sizeof s);
  uint32_t acc = (uint32_t)s * 3u + present;
  for (int i = 0; i < *(const int *)user; i++) {
    memcpy(&v, (const unsigned char *)nb + 4 * i, sizeof v);
    acc = acc * 31u + (uint32_t)v * (uint32_t)(i + 1);
  }
  int32_t r = (int32_t)(acc & 0xFFFFFu);
  memcpy(out, &r, sizeof r);
}

/* steps of the parted run (P parts, halo width t) against the cpu backend from the same state. */
static void check_run(sqz_context *ctx, const char *spec, uint64_t parts, unsigned t, sqz_type type, uint64_t steps) {
  sqz_field *f = sqz_test_field(ctx, spec, type, "compact");
  sqz_domain *dom = sqz_test_domain(f);
  uint64_t cells = sqz_domain_cells(dom);
  size_t ts = sqz_type_size(type);
  unsigned char *init = malloc((size_t)cells * ts), *want = malloc((size_t)cells * ts), *got = malloc((size_t)cells * ts);
  uint64_t lcg = 0x9E3779B97F4A7C15ull ^ parts;
  for (uint64_t i = 0; i < cells; i++) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    if (type == SQZ_U8) init[i] = (unsigned char)((lcg >> 62) != 0); /* density 3/4: both rules stay busy */
    else {
      int32_t v = (int32_t)(lcg >> 40);
      memcpy(init + 4 * i, &v, 4);
    }
  }
  SQZ_OK_OR_FAIL(ctx, sqz_field_write_compact(f, init, cells));
  int dims = sqz_domain_dims(dom), nb = dims == 2 ? 8 : 26;
  life_rule rule = {0, 0, nb};
  const char *rule_text = dims == 2 ? "B3/S23" : "B6/S5,6,7";
  ck_assert_int_eq(sqz_rule_parse(rule_text, dims, &rule.birth, &rule.survive, NULL, 0), SQZ_OK);
  if (type == SQZ_U8) SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, rule_text, steps));
  else SQZ_OK_OR_FAIL(ctx, sqz_stencil_step_fn(f, mix_fn, &nb, NULL, 0, steps));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(f, want, cells));

  sqz_parted *pf = NULL;
  int st = sqz__parted_create(dom, parts, t, ts, init, &pf);
  ck_assert_msg(st == SQZ_OK, "%s P=%llu: %s", spec, (unsigned long long)parts, sqz_last_error(NULL));
  ck_assert_int_eq(sqz__parted_step(pf, type == SQZ_U8 ? life_fn : mix_fn, type == SQZ_U8 ? (void *)&rule : &nb,
                                    NULL, steps),
                   SQZ_OK);
  sqz__parted_gather(pf, got);
  uint64_t changed = 0;
  for (uint64_t i = 0; i < cells * ts; i++) changed += init[i] != want[i];
  ck_assert_msg(changed > 0, "%s: the run changed nothing (a test that cannot fail)", spec);
  for (uint64_t i = 0; i < cells; i++)
    ck_assert_msg(memcmp(got + i * ts, want + i * ts, ts) == 0, "%s P=%llu T=%u %s: cell %llu differs after %llu steps",
                  spec, (unsigned long long)parts, t, type == SQZ_U8 ? "life" : "i32", (unsigned long long)i,
                  (unsigned long long)steps);
  sqz__parted_free(pf);
  free(init);
  free(want);
  free(got);
  sqz_test_drop(f);
}

START_TEST(test_parted_run) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_domain *dom = parse(domains[_i]);
  uint64_t counts[16];
  int n = part_counts(dom, counts);
  sqz_domain_release(dom);
  for (int i = 0; i < n; i++) {
    check_run(ctx, domains[_i], counts[i], 1, SQZ_U8, 5);
    check_run(ctx, domains[_i], counts[i], 1, SQZ_I32, 3);
  }
  /* T-wide halos: one exchange per T steps, steps not a multiple of T */
  check_run(ctx, domains[_i], 3, 2, SQZ_U8, 5);
  check_run(ctx, domains[_i], counts[n > 5 ? 5 : n - 1], 3, SQZ_U8, 7);
  check_run(ctx, domains[_i], 2, 2, SQZ_I32, 3);
  sqz_context_release(ctx);
}
END_TEST

/* The halo in tiles (sqz__parts_halo_tiles, listed from edge tiles) equals the cell halo's tiles (cell index / k^jt),
 * with the same owners, for every tile level the plan allows: patterns whose edges have holes, edge tiles whose cells
 * read across a tile's end only, tiles of one cell. */
START_TEST(test_halo_tiles) {
  static const char *const specs[] = {"fractal:sierpinski-triangle:9", "fractal:sierpinski-carpet:5",
                                      "fractal:vicsek-cross:5", "fractal:vicsek-saltire:5", "fractal:#.##/.#../##.#/#..#:5",
                                      "fractal:##./#.#/.##:6", "fractal:#./.#:8"};
  static const uint64_t parts[] = {2, 7, 30};
  for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
    sqz_domain *dom = parse(specs[s]);
    for (size_t c = 0; c < sizeof parts / sizeof *parts; c++) {
      sqz_parts_plan *plan = NULL;
      if (parts[c] > sqz_domain_cells(dom)) continue;
      ck_assert_int_eq(sqz__parts_plan(dom, parts[c], &plan), SQZ_OK);
      for (int jt = 0; jt <= dom->fr.r - plan->level; jt++) {
        uint64_t per = 1;
        for (int i = 0; i < jt; i++) per *= (uint64_t)dom->fr.k;
        for (uint64_t p = 0; p < parts[c]; p++) {
          sqz_halo h, t;
          ck_assert_int_eq(sqz__parts_halo(plan, p, &h), SQZ_OK);
          ck_assert_int_eq(sqz__parts_halo_tiles(plan, p, jt, &t), SQZ_OK);
          uint64_t n = 0;
          for (uint64_t i = 0; i < h.n; i++) {
            if (n && t.index[n - 1] == h.index[i] / per) continue;
            ck_assert_msg(n < t.n && t.index[n] == h.index[i] / per, "%s P=%llu part %llu level %d: tile %llu of cell %llu",
                          specs[s], (unsigned long long)parts[c], (unsigned long long)p, jt,
                          (unsigned long long)(h.index[i] / per), (unsigned long long)h.index[i]);
            ck_assert_uint_eq(t.owner[n], h.owner[i]);
            n++;
          }
          ck_assert_uint_eq(n, t.n);
          sqz__halo_free(&h);
          sqz__halo_free(&t);
        }
      }
      sqz__parts_plan_free(plan);
    }
    sqz_domain_release(dom);
  }
}
END_TEST

START_TEST(test_bad_counts) {
  sqz_domain *dom = parse("triangle:5");
  uint64_t v[SQZ_PARTS_VALUES];
  ck_assert_int_eq(sqz_parts_info(dom, 0, v, SQZ_PARTS_VALUES), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "1 .. 15"));
  ck_assert_int_eq(sqz_parts_info(dom, 16, v, SQZ_PARTS_VALUES), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "16 parts"));
  ck_assert_int_eq(sqz_parts_info(dom, 15, v, SQZ_PARTS_VALUES), SQZ_OK);
  ck_assert_uint_eq(v[SQZ_PARTS_CELLS_MAX], 1);
  ck_assert_uint_eq(v[SQZ_PARTS_MAX_COUNT], 15);
  ck_assert_int_eq(sqz_parts_info(NULL, 1, v, SQZ_PARTS_VALUES), SQZ_ERR_INVALID_ARGUMENT);
  sqz_domain_release(dom);
  dom = parse("fractal:sierpinski-triangle:24"); /* 2.8e11 cells: the count cap, then a count from the structure */
  ck_assert_int_eq(sqz_parts_info(dom, SQZ_PARTS_MAX + 1, v, SQZ_PARTS_VALUES), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_parts_info(dom, 1024, v, SQZ_PARTS_VALUES), SQZ_OK);
  ck_assert_uint_eq(v[SQZ_PARTS_LEVEL], 10); /* 3^7 = 2187 >= 1024, refined to 3^10 for balance */
  ck_assert_uint_eq(v[SQZ_PARTS_REPLICA_COUNT], 59049);
  ck_assert_uint_le(32 * v[SQZ_PARTS_CELLS_MAX] * 1024, 33 * sqz_domain_cells(dom));
  sqz_domain_release(dom);
}
END_TEST

int main(void) {
  Suite *s = suite_create("parts");
  TCase *tc = tcase_create("parts");
  tcase_add_loop_test(tc, test_halos_against_oracle, 0, (int)N_DOMAINS);
  tcase_add_test(tc, test_halos_larger);
  tcase_add_test(tc, test_counts_long_edges);
  tcase_add_loop_test(tc, test_parted_run, 0, (int)N_DOMAINS);
  tcase_add_test(tc, test_halo_tiles);
  tcase_add_test(tc, test_bad_counts);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
