/* labels: host */
/* test_simplex_maps.c — simplex maps, launch plans, compact storage and analysis against the oracle's vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simplex/simplex.h"
#include "simplex/simplex_plan.h"
#include "sqz_bench.h"
#include "sqz_test.h"

/* ---- oracle vectors (tests/data/simplex_maps.txt, from gen_simplex.py) -------------------- */
static FILE *open_vectors(void) {
  FILE *f = fopen(sqz_test_data("simplex_maps.txt"), "r");
  ck_assert_msg(f != NULL, "cannot open %s", sqz_test_data("simplex_maps.txt"));
  return f;
}

/* Calls fn on every record of the given kind; returns the number of records. */
static long each_record(const char *kind, void (*fn)(const char *rest)) {
  FILE *f = open_vectors();
  static char line[65536];
  long count = 0;
  size_t k = strlen(kind);
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, kind, k) == 0 && line[k] == ' ') {
      fn(line + k + 1);
      count++;
    }
  }
  fclose(f);
  return count;
}

static void rec_ltm2(const char *s) {
  unsigned long long bc;
  unsigned x, y, gx, gy;
  ck_assert_int_eq(sscanf(s, "%llu %u %u", &bc, &x, &y), 3);
  sqz_ltm2(bc, &gx, &gy);
  ck_assert_msg(gx == x && gy == y, "ltm2(%llu) = (%u, %u), oracle (%u, %u)", bc, gx, gy, x, y);
}

static void rec_ltm3(const char *s) {
  unsigned long long w;
  unsigned a, b, c, x, y, z, nb;
  ck_assert_int_eq(sscanf(s, "%llu %u %u %u", &w, &a, &b, &c), 4);
  nb = c + 5u;
  sqz_ltm3(nb, w, &x, &y, &z);
  ck_assert_msg(x == a && x + y == b && nb - 1u - z == c, "ltm3(%llu) gives (%u, %u, %u), oracle a<=b<=c (%u, %u, %u)",
                w, x, y, z, a, b, c);
}

static void rec_rb(const char *s) {
  unsigned n, u, v, x, y, gx, gy;
  ck_assert_int_eq(sscanf(s, "%u %u %u %u %u", &n, &u, &v, &x, &y), 5);
  sqz_fold(n, u, v, &gx, &gy);
  ck_assert_msg(gx == x && gy == y, "fold n=%u (%u, %u)", n, u, v);
  sqz_unfold(n, x, y, &gx, &gy);
  ck_assert_msg(gx == u && gy == v, "unfold n=%u (%u, %u)", n, x, y);
}

static void rec_had2(const char *s) {
  unsigned nb, wx, wy, x, y, gx, gy;
  ck_assert_int_eq(sscanf(s, "%u %u %u %u %u", &nb, &wx, &wy, &x, &y), 5);
  sqz_had2(nb - 1u, nb / 2u, 1u, wx, wy, &gx, &gy);
  ck_assert_msg(gx == x && gy == y, "had2 N=%u (%u, %u) -> (%u, %u), oracle (%u, %u)", nb, wx, wy, gx, gy, x, y);
  sqz_had2_inverse(nb, x, y, &gx, &gy);
  ck_assert_msg(gx == wx && gy == wy, "had2 inverse N=%u (%u, %u)", nb, x, y);
}

static void rec_had2low(const char *s) {
  unsigned lb, mb, wx, wy, x, y, gx, gy;
  ck_assert_int_eq(sscanf(s, "%u %u %u %u %u %u", &lb, &mb, &wx, &wy, &x, &y), 6);
  sqz_had2(mb - 1u, lb / 2u, mb - lb + 1u, wx, wy, &gx, &gy);
  ck_assert_msg(gx == x && gy == y, "had2 lower Lb=%u Mb=%u (%u, %u)", lb, mb, wx, wy);
}

static void rec_had3(const char *s) {
  unsigned nb, gx, gy, gz, x, y, z, bx, by, bz;
  int k = sscanf(s, "%u %u %u %u %u %u %u", &nb, &gx, &gy, &gz, &x, &y, &z);
  int got = sqz_had3_main(nb, gx, gy, gz, &bx, &by, &bz);
  if (k == 4) {
    ck_assert_msg(!got, "had3 N=%u (%u, %u, %u) should be wasted", nb, gx, gy, gz);
    return;
  }
  ck_assert_int_eq(k, 7);
  ck_assert_msg(got && bx == x && by == y && bz == z, "had3 N=%u (%u, %u, %u)", nb, gx, gy, gz);
}

static void rec_had3s(const char *s) {
  unsigned nb, wx, wy, x, y, z, bx, by, bz;
  ck_assert_int_eq(sscanf(s, "%u %u %u %u %u %u", &nb, &wx, &wy, &x, &y, &z), 6);
  sqz_had3_strip(nb, wx, wy, &bx, &by, &bz);
  ck_assert_msg(bx == x && by == y && bz == z, "had3 strip N=%u (%u, %u)", nb, wx, wy);
}

/* Reads the next launch of an oracle plan record into l; returns chars consumed. */
static int parse_had_launch(const char *s, sqz_simplex_launch *l) {
  char k;
  unsigned off, a, b = 0;
  int used = 0;
  ck_assert_int_ge(sscanf(s, " %c %u %u%n", &k, &off, &a, &used), 3);
  if (k == 'L') {
    int more = 0;
    ck_assert_int_ge(sscanf(s + used, " %u%n", &b, &more), 1);
    used += more;
  }
  memset(l, 0, sizeof *l);
  l->kind = SQZ_SK_HAD;
  l->o[0] = l->o[1] = off;
  l->grid[2] = 1;
  if (k == 'U') {
    l->p[0] = a - 1u, l->p[1] = a / 2u, l->p[2] = 1u;
    l->grid[0] = a == 1 ? 1 : a / 2u, l->grid[1] = a == 1 ? 1 : a + 1u;
  } else {
    l->p[0] = b - 1u, l->p[1] = a / 2u, l->p[2] = b - a + 1u;
    l->grid[0] = a == 1 ? 1 : a / 2u, l->grid[1] = a == 1 ? b : 2u * b - a + 1u;
  }
  return used;
}

static int same_launch(const sqz_simplex_launch *a, const sqz_simplex_launch *b) {
  return a->kind == b->kind && !memcmp(a->p, b->p, sizeof a->p) && !memcmp(a->o, b->o, sizeof a->o) &&
         !memcmp(a->grid, b->grid, sizeof a->grid);
}

static void rec_had2plan(const char *s) {
  unsigned n, rho, count;
  int tol, used = 0;
  ck_assert_int_eq(sscanf(s, "%u %u %d %u%n", &n, &rho, &tol, &count, &used), 4);
  if (tol != -1 && tol != (int)rho) return; /* had-above and had-below only */
  sqz_simplex_plan plan;
  ck_assert_int_eq(sqz__simplex_plan(NULL, 2, n, tol < 0 ? "had-above" : "had-below", rho, 0, &plan), SQZ_OK);
  ck_assert_msg(plan.count == count, "n=%u rho=%u tol=%d: %zu launches, oracle %u", n, rho, tol, plan.count, count);
  s += used;
  for (unsigned i = 0; i < count; i++) {
    sqz_simplex_launch want;
    s += parse_had_launch(s, &want);
    ck_assert_msg(same_launch(&plan.launch[i], &want), "n=%u rho=%u tol=%d: launch %u differs", n, rho, tol, i);
  }
  sqz__simplex_plan_free(&plan);
}

static void rec_recplan(const char *s, int dims) {
  unsigned nb, mins, count;
  int used = 0;
  ck_assert_int_eq(sscanf(s, "%u %u %u%n", &nb, &mins, &count, &used), 3);
  sqz_simplex_plan plan;
  ck_assert_int_eq(sqz__simplex_plan(NULL, dims, nb, dims == 2 ? "rec" : "rec3", 1, mins, &plan), SQZ_OK);
  ck_assert_msg(plan.count == count, "rec%d nb=%u min=%u: %zu launches, oracle %u", dims, nb, mins, plan.count, count);
  s += used;
  for (unsigned i = 0; i < count; i++) {
    unsigned c[3] = {0, 0, 0}, side;
    char k;
    int u = 0;
    if (dims == 2) ck_assert_int_eq(sscanf(s, " %c %u %u %u%n", &k, &c[0], &c[1], &side, &u), 4);
    else ck_assert_int_eq(sscanf(s, " %u %u %u %u%n", &c[0], &c[1], &c[2], &side, &u), 4);
    s += u;
    const sqz_simplex_launch *l = &plan.launch[i];
    ck_assert_uint_eq(l->kind, dims == 2 ? SQZ_SK_BOX : SQZ_SK_BOX3);
    for (int d = 0; d < dims; d++) {
      ck_assert_msg(l->o[d] == c[d] && l->p[d] == side, "rec%d nb=%u min=%u launch %u axis %d", dims, nb, mins, i, d);
    }
  }
  sqz__simplex_plan_free(&plan);
}
static void rec_rec2plan(const char *s) { rec_recplan(s, 2); }
static void rec_rec3plan(const char *s) { rec_recplan(s, 3); }

static void rec_had3extra(const char *s) {
  unsigned nb;
  double want;
  ck_assert_int_eq(sscanf(s, "%u %lf", &nb, &want), 2);
  sqz_simplex_plan plan;
  ck_assert_int_eq(sqz__simplex_plan(NULL, 3, nb, "had3", 1, 0, &plan), SQZ_OK);
  ck_assert_uint_eq(plan.launch[0].kind, SQZ_SK_HAD3);
  const uint32_t *g = plan.launch[0].grid;
  double used = (double)sqz_tet(nb - 1u);
  ck_assert_double_eq_tol(((double)g[0] * g[1] * g[2] - used) / used, want, 1e-9);
  sqz__simplex_plan_free(&plan);
}

static void rec_msimplex(const char *s) {
  int m, beta;
  double r, lim, vs;
  unsigned long long n, vd;
  ck_assert_int_eq(sscanf(s, "%d %lf %d %llu %lf %lf %llu", &m, &r, &beta, &n, &lim, &vs, &vd), 7);
  sqz_msimplex_volume st;
  ck_assert_int_eq(sqz_bench_msimplex(m, r, beta, n, &st), SQZ_OK);
  ck_assert_double_eq_tol(st.limit_extra, lim, 1e-9 * (1 + lim));
  ck_assert_double_eq_tol(st.volume_set, vs, 1e-7 * vs);
  ck_assert_double_eq_tol(st.volume_simplex, (double)vd, 1e-9 * (double)vd);
}

START_TEST(test_oracle_vectors) {
  struct {
    const char *kind;
    void (*fn)(const char *);
    long min;
  } kinds[] = {{"ltm2", rec_ltm2, 500},       {"ltm3", rec_ltm3, 300},         {"rb", rec_rb, 2000},
               {"had2", rec_had2, 700},      {"had2low", rec_had2low, 500},   {"had3", rec_had3, 500},
               {"had3s", rec_had3s, 30},      {"had2plan", rec_had2plan, 500}, {"rec2plan", rec_rec2plan, 100},
               {"rec3plan", rec_rec3plan, 15}, {"had3extra", rec_had3extra, 5}, {"msimplex", rec_msimplex, 15}};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    long c = each_record(kinds[i].kind, kinds[i].fn);
    ck_assert_msg(c >= kinds[i].min, "only %ld %s records", c, kinds[i].kind);
  }
}
END_TEST

/* ---- thread-level coverage of every plan on the host ------------------------------------ */
/* Runs every thread of every launch; counts visits per cell of the bounding box. */
static void cover(int dims, uint32_t n, const char *map, uint32_t rho, uint32_t rec_min) {
  sqz_simplex_plan plan;
  int st = sqz__simplex_plan(NULL, dims, n, map, rho, rec_min, &plan);
  ck_assert_msg(st == SQZ_OK, "plan %s n=%u rho=%u: %s", map, n, rho, sqz_last_error(NULL));
  uint64_t cells = dims == 2 ? (uint64_t)n * n : (uint64_t)n * n * n, launched = 0, hits = 0;
  unsigned char *cnt = calloc(cells, 1);
  ck_assert_ptr_nonnull(cnt);
  for (size_t i = 0; i < plan.count; i++) {
    const sqz_simplex_launch *l = &plan.launch[i];
    for (uint32_t wz = 0; wz < l->grid[2]; wz++)
      for (uint32_t wy = 0; wy < l->grid[1]; wy++)
        for (uint32_t wx = 0; wx < l->grid[0]; wx++)
          for (uint32_t tz = 0; tz < (dims == 3 ? rho : 1u); tz++)
            for (uint32_t ty = 0; ty < rho; ty++)
              for (uint32_t tx = 0; tx < rho; tx++) {
                uint32_t x, y, z = 0;
                int ok = dims == 2 ? sqz_smap2(l->kind, l->p[0], l->p[1], l->p[2], l->o[0], l->o[1], wx, wy, tx, ty,
                                               rho, n, &x, &y)
                                   : sqz_smap3(l->kind, l->p[0], l->p[1], l->p[2], l->o[0], l->o[1], l->o[2], wx, wy,
                                               wz, tx, ty, tz, rho, n, &x, &y, &z);
                launched++;
                if (!ok) continue;
                int inside = dims == 2 ? (x <= y && y < n) : (x < n && y < n && z < n && x + y + z < n);
                ck_assert_msg(inside, "%s n=%u rho=%u: (%u, %u, %u) is outside", map, n, rho, x, y, z);
                uint64_t e = dims == 2 ? (uint64_t)y * n + x : ((uint64_t)z * n + y) * n + x;
                ck_assert_msg(cnt[e] == 0, "%s n=%u rho=%u: (%u, %u, %u) visited twice", map, n, rho, x, y, z);
                cnt[e] = 1;
                hits++;
              }
  }
  ck_assert_msg(hits == (dims == 2 ? sqz_tri(n) : sqz_tet(n)), "%s n=%u rho=%u: %llu cells of %llu", map, n, rho,
                (unsigned long long)hits, (unsigned long long)(dims == 2 ? sqz_tri(n) : sqz_tet(n)));
  ck_assert_uint_eq(launched, sqz__simplex_plan_threads(&plan));
  free(cnt);
  sqz__simplex_plan_free(&plan);
}

static const uint32_t sizes2[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 97, 127, 128, 129};
static const uint32_t sizes3[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 15, 16, 17, 23, 31, 32, 33};

START_TEST(test_cover_2d) {
  const char *const *maps = sqz__simplex_maps(2);
  uint32_t rhos[] = {1, 2, 3, 4, 8, 16};
  for (size_t i = 0; i < sizeof sizes2 / sizeof sizes2[0]; i++)
    for (size_t r = 0; r < sizeof rhos / sizeof rhos[0]; r++)
      for (int m = 0; maps[m]; m++) {
        if (strncmp(maps[m], "had", 3) == 0 && rhos[r] == 3) continue;
        cover(2, sizes2[i], maps[m], rhos[r], 0);
        if (strcmp(maps[m], "rec") == 0) cover(2, sizes2[i], "rec", rhos[r], 1);
      }
}
END_TEST

START_TEST(test_cover_3d) {
  const char *const *maps = sqz__simplex_maps(3);
  uint32_t rhos[] = {1, 2, 3, 4, 8};
  for (size_t i = 0; i < sizeof sizes3 / sizeof sizes3[0]; i++)
    for (size_t r = 0; r < sizeof rhos / sizeof rhos[0]; r++)
      for (int m = 0; maps[m]; m++) {
        if (strcmp(maps[m], "had3") == 0 && rhos[r] == 3) continue;
        cover(3, sizes3[i], maps[m], rhos[r], 0);
        if (strcmp(maps[m], "rec3") == 0) cover(3, sizes3[i], "rec3", rhos[r], 1);
      }
}
END_TEST

/* ---- compact storage: a bijection onto 0..|D|-1, both ways ------------------------------- */
START_TEST(test_compact_bijection) {
  for (uint32_t n = 1; n <= 70; n++) {
    uint64_t cells = sqz_tri(n);
    unsigned char *seen = calloc(cells, 1);
    for (uint32_t y = 0; y < n; y++)
      for (uint32_t x = 0; x <= y; x++) {
        uint64_t i = sqz_tri_index(SQZ_SL_COMPACT, n, x, y);
        ck_assert_msg(i < cells && !seen[i], "triangle:%u (%u, %u) -> %llu", n, x, y, (unsigned long long)i);
        seen[i] = 1;
        uint32_t a, b;
        sqz_tri_coords(n, i, &a, &b);
        ck_assert_msg(a == x && b == y, "triangle:%u index %llu", n, (unsigned long long)i);
      }
    free(seen);
  }
  for (uint32_t n = 1; n <= 40; n++) {
    uint64_t cells = sqz_tet(n);
    unsigned char *seen = calloc(cells, 1);
    for (uint32_t z = 0; z < n; z++)
      for (uint32_t y = 0; y + z < n; y++)
        for (uint32_t x = 0; x + y + z < n; x++) {
          uint64_t i = sqz_tet_index(SQZ_SL_COMPACT, n, x, y, z);
          ck_assert_msg(i < cells && !seen[i], "tetrahedron:%u (%u, %u, %u) -> %llu", n, x, y, z, (unsigned long long)i);
          seen[i] = 1;
          uint32_t a, b, c;
          sqz_tet_coords(n, i, &a, &b, &c);
          ck_assert_msg(a == x && b == y && c == z, "tetrahedron:%u index %llu", n, (unsigned long long)i);
        }
    free(seen);
  }
}
END_TEST

/* sqz_tet_rows9 (the word step's rows around a row): every row of tetrahedron:n in both layouts,
 * starts equal to the storage index of cell 0 where the row exists, lengths n - y - z there and 0
 * elsewhere, and one sqz_tet_rowstep from row y - 1 to y to y + 1 in each plane (also before row 0). */
START_TEST(test_tet_rows9) {
  for (uint32_t n = 1; n <= 12; n++)
    for (int lay = 0; lay < 2; lay++)
      for (uint32_t z = 0; z < n; z++)
        for (uint32_t y = 0; y + z < n; y++) {
          sqz_sidx start[9];
          uint32_t len[9];
          sqz_tet_rows9(lay, n, y, z, start, len);
          for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++) {
              int i = 3 * (dz + 1) + dy + 1;
              int64_t yy = (int64_t)y + dy, zz = (int64_t)z + dz;
              int in = yy >= 0 && zz >= 0 && yy + zz < (int64_t)n;
              ck_assert_uint_eq(len[i], in ? n - (uint32_t)(yy + zz) : 0u);
              if (in) ck_assert_uint_eq(start[i], sqz_tet_index(lay, n, 0, (uint32_t)yy, (uint32_t)zz));
              if (zz >= 0 && zz < (int64_t)n && dy < 1)
                ck_assert_uint_eq(start[i] + sqz_tet_rowstep(lay, n, (uint32_t)yy, (uint32_t)zz), start[i + 1]);
            }
        }
}
END_TEST

/* The largest sides: 64-bit indices, exact roots near the ends and at layer boundaries. */
START_TEST(test_compact_large) {
  for (uint64_t k = 0; k <= 2100000; k += k < 5000 ? 1 : 997) ck_assert_uint_eq(sqz_te(k), sqz_tet(k));
  ck_assert_uint_eq(sqz_te(2097152), sqz_tet(2097152));
  uint32_t tn[] = {65536, 65537, 92682, 2147483647u, 2147483648u};
  for (size_t k = 0; k < sizeof tn / sizeof tn[0]; k++) {
    uint32_t n = tn[k];
    uint64_t cells = sqz_tri(n);
    uint64_t probe[] = {0, 1, cells / 2, cells / 3 + 7, cells - sqz_fold_w(n), cells - 2, cells - 1};
    for (size_t p = 0; p < sizeof probe / sizeof probe[0]; p++) {
      uint32_t x, y;
      sqz_tri_coords(n, probe[p], &x, &y);
      ck_assert(x <= y && y < n);
      ck_assert_uint_eq(sqz_tri_index(SQZ_SL_COMPACT, n, x, y), probe[p]);
    }
  }
  uint32_t qn[] = {1000, 1861, 2048, 65535, 2097152};
  for (size_t k = 0; k < sizeof qn / sizeof qn[0]; k++) {
    uint32_t n = qn[k];
    uint64_t cells = sqz_tet(n);
    for (uint32_t m = 1; m <= n; m += (n / 37u) + 1u) { /* first and last cell of layer z = n - m */
      uint64_t first = cells - sqz_tet(m), last = cells - sqz_tet(m - 1u) - 1u;
      uint64_t probe[] = {first, last, first + sqz_tri(m) / 2u};
      for (size_t p = 0; p < 3; p++) {
        uint32_t x, y, z;
        sqz_tet_coords(n, probe[p], &x, &y, &z);
        ck_assert_msg(z == n - m && x + y + z < n, "tetrahedron:%u index %llu -> layer %u", n,
                      (unsigned long long)probe[p], z);
        ck_assert_uint_eq(sqz_tet_index(SQZ_SL_COMPACT, n, x, y, z), probe[p]);
      }
    }
  }
}
END_TEST

/* ---- the layout functions of the library ---------------------------------------------------- */
START_TEST(test_layout_functions) {
  const char *specs[] = {"triangle:1", "triangle:6", "triangle:9", "tetrahedron:1", "tetrahedron:5", "tetrahedron:8"};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    sqz_domain *dom = NULL;
    ck_assert_int_eq(sqz_domain_parse(NULL, specs[s], &dom), SQZ_OK);
    for (int lay = 0; lay < 2; lay++) {
      sqz_field f;
      memset(&f, 0, sizeof f);
      f.dom = dom;
      f.layout = lay ? SQZ_LAYOUT_COMPACT : SQZ_LAYOUT_BB;
      ck_assert_int_eq(sqz__simplex_geometry(dom, f.layout, 0, &f.elems, &f.width, &f.height), SQZ_OK);
      ck_assert_uint_eq(f.width * f.height, f.elems);
      uint64_t n = dom->side, box = dom->dims == 2 ? n * n : n * n * n, domain_cells = 0;
      ck_assert_uint_eq(f.elems, lay ? dom->cells : box);
      for (uint64_t i = 0; i < f.elems; i++) {
        uint64_t x, y, z;
        if (!sqz__simplex_coords(&f, i, &x, &y, &z)) continue;
        domain_cells++;
        ck_assert(sqz_domain_contains(dom, x, y, z));
        ck_assert_int_eq(sqz__simplex_index(&f, x, y, z), (int64_t)i);
      }
      ck_assert_uint_eq(domain_cells, dom->cells);
      ck_assert_int_eq(sqz__simplex_index(&f, n, n, 0), -1);
      ck_assert_int_eq(sqz__simplex_index(&f, 1, 0, dom->dims == 3 ? n - 1 : 0), -1);
    }
    sqz_domain_release(dom);
  }
}
END_TEST

/* ---- plan errors and the analysis --------------------------------------------------------- */
START_TEST(test_plan_errors) {
  sqz_simplex_plan p;
  ck_assert_int_eq(sqz__simplex_plan(NULL, 2, 100, "ltm3", 16, 0, &p), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "3D map"));
  ck_assert_int_eq(sqz__simplex_plan(NULL, 3, 100, "rb", 8, 0, &p), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz__simplex_plan(NULL, 2, 100, "hadamard", 16, 0, &p), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "hadamard"));
  ck_assert_int_eq(sqz__simplex_plan(NULL, 2, 100, "had", 12, 0, &p), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "12"));
  ck_assert_int_eq(sqz__simplex_plan(NULL, 3, 100, "had3", 6, 0, &p), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz__simplex_plan(NULL, 2, 0, "bb", 16, 0, &p), SQZ_ERR_TOO_LARGE);
  ck_assert_int_eq(sqz__simplex_plan(NULL, 3, 1u << 22, "bb", 8, 0, &p), SQZ_ERR_TOO_LARGE);
  ck_assert_int_eq(sqz__simplex_plan(NULL, 2, 100, "ltm", 12, 0, &p), SQZ_OK);
  sqz__simplex_plan_free(&p);
}
END_TEST

START_TEST(test_map_stats) {
  sqz_simplex_map_stats s;
  for (uint32_t n = 64; n <= 4096; n *= 4) {
    ck_assert_int_eq(sqz__simplex_map_stats(NULL, 2, n, "bb", 16, &s), SQZ_OK);
    ck_assert_double_eq_tol(s.waste, (double)(n - 1) / (n + 1), 1e-12); /* docs/MAPS.md 1.2 */
    ck_assert_int_eq(sqz__simplex_map_stats(NULL, 2, n, "had", 16, &s), SQZ_OK);
    ck_assert_double_eq_tol(s.waste, 15.0 / (n + 1), 1e-12); /* docs/MAPS.md 1.5: (rho-1)/(n+1) */
    ck_assert_uint_eq(s.launches, 1);
  }
  ck_assert_int_eq(sqz__simplex_map_stats(NULL, 2, 1000, "had-below", 16, &s), SQZ_OK);
  ck_assert_uint_gt(s.launches, 1);
  ck_assert_double_lt(s.waste, 0.05);
  ck_assert_int_eq(sqz__simplex_map_stats(NULL, 2, 1000, NULL, 16, &s), SQZ_OK);
  ck_assert_str_eq(s.map, "had");
  ck_assert_int_eq(sqz__simplex_map_stats(NULL, 3, 1024, "bb", 8, &s), SQZ_OK);
  ck_assert_double_gt(s.waste, 4.9); /* -> 5 */
  ck_assert_int_eq(sqz__simplex_map_stats(NULL, 3, 1024, "had3", 8, &s), SQZ_OK);
  ck_assert_double_lt(s.waste, 0.2);
  ck_assert_int_eq(sqz__simplex_map_stats(NULL, 3, 1024, "rec3", 8, &s), SQZ_OK);
  ck_assert_double_lt(s.waste, 0.6);
  ck_assert_int_eq(sqz__simplex_map_stats(NULL, 3, 1025, "ltm3", 8, &s), SQZ_OK);
  ck_assert_double_lt(s.waste, 0.1);
}
END_TEST

START_TEST(test_max_side) {
  uint64_t gib = 1ull << 30;
  uint64_t t_bb = sqz__simplex_max_side(2, SQZ_LAYOUT_BB, 1, 2, 35 * gib, 140 * gib);
  uint64_t t_c = sqz__simplex_max_side(2, SQZ_LAYOUT_COMPACT, 1, 2, 35 * gib, 140 * gib);
  ck_assert_uint_le(t_bb * t_bb, 35 * gib);
  ck_assert_uint_gt((t_bb + 1) * (t_bb + 1), 35 * gib);
  ck_assert_uint_le(sqz_tri(t_c), 35 * gib);
  ck_assert_uint_gt(sqz_tri(t_c + 1), 35 * gib);
  ck_assert_double_ge((double)t_c / (double)t_bb, 1.4);
  uint64_t q_bb = sqz__simplex_max_side(3, SQZ_LAYOUT_BB, 1, 2, 35 * gib, 140 * gib);
  uint64_t q_c = sqz__simplex_max_side(3, SQZ_LAYOUT_COMPACT, 1, 2, 35 * gib, 140 * gib);
  ck_assert_uint_le(sqz_tet(q_c), 35 * gib);
  ck_assert_uint_gt(sqz_tet(q_c + 1), 35 * gib);
  ck_assert_double_ge((double)q_c / (double)q_bb, 1.8);
}
END_TEST

START_TEST(test_msimplex_errors) {
  sqz_msimplex_volume s;
  ck_assert_int_eq(sqz_bench_msimplex(1, 0.5, 2, 0, &s), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_bench_msimplex(3, 1.5, 2, 0, &s), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_bench_msimplex(2, 0.5, 4, 0, &s), SQZ_ERR_INVALID_ARGUMENT); /* beta r^m = 1 */
  ck_assert_int_eq(sqz_bench_msimplex(4, 0.5, 2, 0, &s), SQZ_OK);
  ck_assert_double_eq_tol(s.limit_extra, 5.0 / 7.0, 1e-12);
  ck_assert_uint_eq(s.n, 16);
}
END_TEST

int main(void) {
  Suite *s = suite_create("simplex_maps");
  TCase *tc = tcase_create("maps");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_oracle_vectors);
  tcase_add_test(tc, test_cover_2d);
  tcase_add_test(tc, test_cover_3d);
  tcase_add_test(tc, test_compact_bijection);
  tcase_add_test(tc, test_tet_rows9);
  tcase_add_test(tc, test_compact_large);
  tcase_add_test(tc, test_layout_functions);
  tcase_add_test(tc, test_plan_errors);
  tcase_add_test(tc, test_map_stats);
  tcase_add_test(tc, test_max_side);
  tcase_add_test(tc, test_msimplex_errors);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
