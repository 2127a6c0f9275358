/* labels: opencl */
/* ctest cases: geometry box cpu opencl temporal io window8 */
/* test_bits.c — layout bits against layout compact, bit for bit, on every domain family, 2D and 3D rules, both backends and every steps-per-launch depth; its geometry, box tables, I/O and refusals. */
#include <stdlib.h>
#include <string.h>

#include "layouts/bits/bits.h"
#include "core/sqz_internal.h"
#include "sqz_common.h"
#include "sqz_bits.h"
#include "sqz_bits_box.h"
#include "sqz_bits_list.h"
#include "sqz_fractal.h"
#include "sqz_test.h"

/* The domains: fractals (a user pattern of scale 3 among them), triangles and tetrahedra of odd
 * sides and sides that are not multiples of 32, some longer than one word per row. */
static const char *const bits_domains[] = {
    "fractal:sierpinski-triangle:9", "fractal:sierpinski-carpet:6", "fractal:vicsek-cross:3",
    "fractal:##./#.#/.##:6",         "fractal:sierpinski-triangle:1", "triangle:1",
    "triangle:37",                   "triangle:100",                  "tetrahedron:1",
    "tetrahedron:13",                "tetrahedron:41",
};
/* 2D rules (B0-less odd ones, and one with B0: holes and padding must stay 0) and 3D rules. */
static const char *const rules2[] = {"B3/S23", "B1357/S1357", "B36/S125", "B0123478/S34678"};
static const char *const rules3[] = {"B6/S5,6,7", "B5/S4,5,6,7", "B1/S0,1,2,3,4,5,6,7,8,9", "B0/S1,3"};

/* S and T in closed form against their sums. */
START_TEST(test_geometry) {
  uint64_t s = 0, t = 0;
  for (uint64_t m = 0; m < 3000; m++) {
    ck_assert_uint_eq(sqz_bits_S(m), s);
    ck_assert_uint_eq(sqz_bits_T(m), t);
    s += (m + 1 + 31) / 32;
    t += s;
  }
  /* every storage bit maps to a cell and back, padding bits to none */
  sqz_context *ctx = sqz_test_context("cpu");
  for (size_t d = 0; d < sizeof bits_domains / sizeof *bits_domains; d++) {
    sqz_field *f = sqz_test_field(ctx, bits_domains[d], SQZ_U8, "bits");
    uint64_t elems = 0, cells = 0;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_layout_cells(sqz_test_domain(f), "bits", &elems));
    ck_assert_uint_eq(sqz_field_bytes(f), elems / 8);
    for (uint64_t i = 0; i < elems; i++) {
      uint64_t x, y, z;
      if (!sqz__layout_coords(f, i, &x, &y, &z)) continue;
      cells++;
      ck_assert_int_eq(sqz__layout_index(f, x, y, z), (int64_t)i);
    }
    ck_assert_uint_eq(cells, sqz_domain_cells(sqz_test_domain(f)));
    sqz_domain *dom = sqz_test_domain(f);
    uint64_t n = sqz_domain_side(dom), units = n; /* rows of a triangle, of a tetrahedron, tiles of a fractal */
    sqz_bits_tiling bt;
    if (sqz_domain_get_kind(dom) == SQZ_DOMAIN_FRACTAL) {
      sqz__bits_tiling(dom, &bt);
      units = bt.tiles;
    } else if (sqz_domain_dims(dom) == 3) {
      units = n * (n + 1) / 2;
    }
    ck_assert_uint_lt(elems - cells, 32 * units); /* padding: less than one word a row or tile */
    sqz_test_drop(f);
  }
  sqz_context_release(ctx);
}
END_TEST

/* The window's box plan of every fractal family at every box level: U places each of the k^q bits at
 * its cell's box bit (λ at level q, computed here cell by cell), P takes every box row back to
 * the same bits (a round trip of random patterns), lam is λ of the sub-tiles, and the fill
 * entries name every sub-tile of the tile itself once, at its box's place. */
static const char *const box_domains[] = {"fractal:sierpinski-triangle:9", "fractal:sierpinski-carpet:5",
                                          "fractal:vicsek-cross:5",        "fractal:##./#.#/.##:5",
                                          "fractal:#..#/.##./.##./#..#:3", "fractal:sierpinski-triangle:1"};

static void check_box_plan(sqz_context *ctx, sqz_domain *dom, uint32_t q, uint32_t depth) {
  const sqz_fractal *fr = &dom->fr;
  sqz_bits_tiling bt;
  sqz__bits_tiling(dom, &bt);
  sqz_bits_box p;
  SQZ_OK_OR_FAIL(ctx, sqz__bits_box_plan(ctx, dom, &bt, q, depth, 64, 12288, &p));
  ck_assert_uint_eq(p.depth, depth < bt.side ? depth : bt.side); /* the window within the 8 neighbour tiles */
  depth = p.depth;
  const uint32_t *tab = p.tab, *pt = tab + tab[SQZ_BB_P], *lam = tab + tab[SQZ_BB_LAM];
  uint32_t kq = tab[SQZ_BB_KQ], bs = p.bs, nsub = tab[SQZ_BB_NSUB];
  ck_assert_uint_eq(kq * nsub, bt.kt);
  ck_assert_uint_le(bs, SQZ_BB_MAX_SIDE);
  uint64_t u[4 * 256];
  memcpy(u, tab + tab[SQZ_BB_U], 256 * ((kq + 7) / 8) * sizeof *u);
  for (uint32_t c = 0; c < kq; c++) {
    sqz_u32 x = 0, y = 0, rest = c;
    for (uint32_t i = 0, sp = 1; i < q; i++, sp *= (uint32_t)fr->s, rest /= (uint32_t)fr->k) {
      x += sp * (uint32_t)fr->hl[2 * (rest % (uint32_t)fr->k)];
      y += sp * (uint32_t)fr->hl[2 * (rest % (uint32_t)fr->k) + 1];
    }
    ck_assert_uint_eq(u[256 * (c / 8) + (1u << (c % 8))], (uint64_t)1 << (y * bs + x));
    ck_assert_uint_eq(pt[(y << bs) + (1u << x)], 1u << c);
  }
  uint64_t seed = 12345;
  for (int trial = 0; trial < 200; trial++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t bits = (uint32_t)(seed >> 32) & (kq == 32 ? 0xffffffffu : (1u << kq) - 1u), back = 0;
    uint64_t box = 0;
    for (uint32_t b = 0; 8 * b < kq; b++) box |= u[256 * b + ((bits >> (8 * b)) & 255u)];
    for (uint32_t r = 0; r < bs; r++) back |= pt[(r << bs) + (uint32_t)((box >> (r * bs)) & ((1u << bs) - 1u))];
    ck_assert_uint_eq(back, bits);
  }
  unsigned char *seen = calloc(nsub, 1);
  const uint32_t *head = tab + tab[SQZ_BB_FILL], *ent = tab + tab[SQZ_BB_ENT];
  for (uint32_t i = 0; i < p.n_fill; i++)
    for (uint32_t e = head[p.n_fill + i]; e < head[p.n_fill + i + 1]; e++) {
      uint32_t sub = ent[e] & 0xfffffu, d = (ent[e] >> 20) & 15u;
      int32_t sh = (int32_t)(ent[e] >> 24) - 32, x = 32 * ((int32_t)(head[i] & 0xffu) - 2) + sh,
              y = (int32_t)(head[i] >> 8) - SQZ_BB_YBIAS - (int32_t)depth;
      ck_assert_uint_lt(sub, nsub);
      if (d != 4) continue;
      ck_assert_uint_eq(lam[sub], (uint32_t)x | (uint32_t)y << 16); /* the box of the tile itself at its place */
      if (x >= 32 * ((int32_t)(head[i] & 0xffu) - 2)) seen[sub]++; /* counted in the word where it starts */
    }
  for (uint32_t v = 0; v < nsub; v++) {
    sqz_u32 x, y;
    sqz_fr_lambda((sqz_u32)fr->s, (sqz_u32)fr->k, fr->hl, bt.t - q, v, &x, &y);
    ck_assert_uint_eq(lam[v], x * bs | (y * bs) << 16);
    ck_assert_uint_eq(seen[v], 1);
  }
  free(seen);
  free(p.tab);
}

/* Box (x, y) of a tile's grid (box coordinates, -1 .. n: the ring in the 8 neighbour tiles):
 * the tile direction << 20 | its sub-tile there, by ν cell by cell (cells x bs, y bs), or
 * UINT32_MAX where the pattern has no box. */
static uint32_t list_box_at(const sqz_fractal *fr, uint32_t levels, uint32_t n, int64_t x, int64_t y) {
  int64_t dx = x < 0 ? -1 : x >= n ? 1 : 0, dy = y < 0 ? -1 : y >= n ? 1 : 0, lx = x - dx * n, ly = y - dy * n;
  int64_t sub = 0;
  for (uint32_t i = 0, div = n; i < levels; i++) { /* digits from the top level */
    div /= (uint32_t)fr->s;
    int32_t digit = fr->hnu[(ly / div % fr->s) * fr->s + lx / div % fr->s];
    if (digit < 0) return UINT32_MAX;
    sub = sub * fr->k + digit;
  }
  return (uint32_t)sub | (uint32_t)((dy + 1) * 3 + dx + 1) << 20;
}

/* The list plan (cl/sqz_bits_list.h): U and P round trips at row stride 8, every sub-tile of the
 * tile an own entry once (own[] finds it), the ring exactly the boxes of the neighbour tiles next
 * to an own box, and every entry's 8 neighbours the entries at the boxes around it (ne where the
 * pattern has none or the box is past the ring). */
static void check_list_plan(sqz_context *ctx, sqz_domain *dom, uint32_t q, uint32_t depth) {
  const sqz_fractal *fr = &dom->fr;
  sqz_bits_tiling bt;
  sqz__bits_tiling(dom, &bt);
  sqz_bits_box p;
  SQZ_OK_OR_FAIL(ctx, sqz__bits_list_plan(ctx, dom, &bt, q, depth, &p));
  ck_assert_uint_eq(p.list, 1);
  ck_assert_uint_eq(p.depth, depth < p.bs ? depth : p.bs); /* the ring is one box deep */
  const uint32_t *tab = p.tab, *pt = tab + tab[SQZ_BL_P], *ent = tab + tab[SQZ_BL_ENT], *nbt = tab + tab[SQZ_BL_NB];
  uint32_t kq = p.kq, bs = p.bs, nsub = tab[SQZ_BL_NSUB], ne = p.ne, n = bt.side / bs;
  ck_assert_uint_eq(kq * nsub, bt.kt);
  uint64_t u[4 * 256], full = tab[SQZ_BL_FULL] | (uint64_t)tab[SQZ_BL_FULL + 1] << 32, seed = 99;
  memcpy(u, tab + tab[SQZ_BL_U], 256 * ((kq + 7) / 8) * sizeof *u);
  for (int trial = 0; trial < 200; trial++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t bits = (uint32_t)(seed >> 32) & (kq == 32 ? 0xffffffffu : (1u << kq) - 1u), back = 0;
    uint64_t box = 0;
    for (uint32_t b = 0; 8 * b < kq; b++) box |= u[256 * b + ((bits >> (8 * b)) & 255u)];
    ck_assert_uint_eq(box & ~full, 0);
    for (uint32_t r = 0; r < bs; r++) back |= pt[(r << bs) + (uint32_t)((box >> (8 * r)) & ((1u << bs) - 1u))];
    ck_assert_uint_eq(back, bits);
  }
  size_t gn = (size_t)n + 2, cells = gn * gn;
  uint32_t *grid = malloc(cells * sizeof *grid), *id = malloc(cells * sizeof *id);
  int64_t *where = malloc(9 * (size_t)nsub * sizeof *where), *at = malloc(ne * sizeof *at);
  for (size_t i = 0; i < 9 * (size_t)nsub; i++) where[i] = -1;
  for (size_t i = 0; i < cells; i++) { /* the grid by ν, and where each (tile, sub-tile) lies */
    grid[i] = list_box_at(fr, bt.t - q, n, (int64_t)(i % gn) - 1, (int64_t)(i / gn) - 1);
    id[i] = ne;
    if (grid[i] != UINT32_MAX) where[(grid[i] >> 20) * nsub + (grid[i] & 0xfffffu)] = (int64_t)i;
  }
  for (uint32_t e = 0; e < ne; e++) { /* each entry's box: its tile and sub-tile */
    ck_assert_uint_lt(ent[e] & 0xfffffu, nsub);
    at[e] = where[(ent[e] >> 20) * nsub + (ent[e] & 0xfffffu)];
    ck_assert_int_ge(at[e], 0);
    ck_assert_uint_eq(id[at[e]], ne); /* once */
    id[at[e]] = e;
    ck_assert(e < nsub ? ent[e] >> 20 == 4 : ent[e] >> 20 != 4); /* own entries first */
    if (e < nsub) ck_assert_uint_eq(tab[tab[SQZ_BL_OWN] + (ent[e] & 0xfffffu)], e);
  }
  for (int64_t y = 0; y < (int64_t)gn; y++) /* the ring: every box with cells next to an own box */
    for (int64_t x = 0; x < (int64_t)gn; x++) {
      int near = 0;
      for (int64_t j = y - 1; j <= y + 1; j++)
        for (int64_t i = x - 1; i <= x + 1; i++)
          near |= i >= 1 && j >= 1 && i <= n && j <= n && grid[j * gn + i] != UINT32_MAX;
      ck_assert_uint_eq(id[y * gn + x] != ne, grid[y * gn + x] != UINT32_MAX && near);
    }
  static const int dxy[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  for (uint32_t e = 0; e < ne; e++)
    for (uint32_t d = 0; d < 8; d++) {
      uint32_t o = (nbt[4 * e + d / 2] >> (16 * (d % 2))) & 0xffffu;
      int64_t x = at[e] % (int64_t)gn + dxy[d][0], y = at[e] / (int64_t)gn + dxy[d][1];
      ck_assert_uint_eq(o, x >= 0 && y >= 0 && x < (int64_t)gn && y < (int64_t)gn ? id[y * gn + x] : ne);
    }
  free(grid);
  free(id);
  free(where);
  free(at);
  free(p.tab);
}

/* The list's step of one box (sqz_bits_list_step: the 3-sums of the boxes above and below from
 * their edge rows only) against Life counted cell by cell on the 3 x 3 boxes around it, every box
 * side 1 .. 8, random boxes (cells only in rows and columns < S, as the fill and the masks leave
 * them) and rules. */
static void check_list_life(void) {
  uint64_t x = 88172645463325252u;
  for (uint32_t bs = 1; bs <= 8; bs++) {
    uint64_t shape = 0;
    for (uint32_t c = 0; c < bs * 8u; c++) shape |= (c % 8u < bs ? (uint64_t)1 : 0u) << c;
    for (int it = 0; it < 20000; it++) {
      uint64_t in[10] = {0}; /* NW, N, NE, W, the box, E, SW, S, SE; entry 9: the empty box */
      for (int i = 0; i < 9; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        in[i] = (it % 2 ? x : x & (x >> 11)) & shape;
      }
      uint32_t birth = (uint32_t)(x >> 20) & 511u, survive = (uint32_t)(x >> 40) & 511u;
      uint64_t got = sqz_bits_list_step(in, 0u | 1u << 16, 2u | 3u << 16, 5u | 6u << 16, 7u | 8u << 16, 4u, bs, birth, survive);
      for (uint32_t c = 0; c < 64; c++) {
        int cx = (int)(c % 8u), cy = (int)(c / 8u), sum = 0, b = (int)bs;
        if (cx >= b || cy >= b) continue;
        for (int d = 0; d < 9; d++) {
          int gx = cx + d % 3 - 1 + b, gy = cy + d / 3 - 1 + b; /* in the 3 x 3 boxes */
          sum += d != 4 && (in[3 * (gy / b) + gx / b] >> (gx % b + 8 * (gy % b)) & 1u);
        }
        uint32_t want = (in[4] >> c & 1u ? survive : birth) >> sum & 1u;
        ck_assert_msg((got >> c & 1u) == want, "box side %u, cell (%d, %d): %u, Life %u", bs, cx, cy,
                      (unsigned)(got >> c & 1u), want);
      }
    }
  }
}

START_TEST(test_box) {
  sqz_context *ctx = sqz_test_context("cpu");
  for (size_t d = 0; d < sizeof box_domains / sizeof *box_domains; d++) {
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, box_domains[d], &dom));
    sqz_bits_tiling bt;
    sqz__bits_tiling(dom, &bt);
    uint32_t top = sqz__bits_box_level(dom, &bt);
    ck_assert_uint_ge(top, 1);
    for (uint32_t q = 0; q <= top; q++)
      for (uint32_t depth = 1; depth <= 8; depth = depth == 1 ? 4 : 2 * depth) {
        check_box_plan(ctx, dom, q, depth);
        check_list_plan(ctx, dom, q, depth);
      }
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
  check_list_life();
}
END_TEST

/* Steps `rule` on spec in layout bits on ctx and in layout compact on the cpu backend (compact on
 * opencl equals the cpu backend in test_fractal_life, test_simplex_device and test_swar; a
 * reference on opencl would build its own programs for every rule, pattern and depth) from the
 * same random state, comparing the compact-order states after every run of steps: runs of 1, 2
 * and 3 steps, or with `longer` of 4, 5 and 7 (whole launches of up to 4 steps and what remains). */
static void check_runs(sqz_context *ctx, const char *spec, const char *rule, double density, int longer) {
  sqz_context *cpu = sqz_test_context("cpu");
  sqz_field *c = sqz_test_field(cpu, spec, SQZ_U8, "compact"), *b = sqz_test_field(ctx, spec, SQZ_U8, "bits");
  uint64_t n = sqz_domain_cells(sqz_test_domain(c));
  unsigned char *vc = malloc(n), *vb = malloc(n);
  SQZ_OK_OR_FAIL(cpu, sqz_field_fill_random(c, density, 11));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, density, 11));
  for (int run = 0; run < 4; run++) { /* compared after 0, 1, 3 and 6 steps */
    SQZ_OK_OR_FAIL(cpu, sqz_field_read_compact(c, vc, n));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(b, vb, n));
    ck_assert_msg(memcmp(vc, vb, n) == 0, "%s %s %s: bits and compact differ after run %d", sqz_context_backend(ctx),
                  spec, rule, run);
    uint64_t lc = 0, lb = 0;
    SQZ_OK_OR_FAIL(cpu, sqz_field_count(c, &lc));
    SQZ_OK_OR_FAIL(ctx, sqz_field_count(b, &lb));
    ck_assert_uint_eq(lc, lb);
    if (run == 3) break;
    uint64_t steps = longer ? (uint64_t)(run == 2 ? 7 : run + 4) : (uint64_t)run + 1;
    SQZ_OK_OR_FAIL(cpu, sqz_life_step(c, rule, steps));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(b, rule, steps));
  }
  free(vc);
  free(vb);
  sqz_test_drop(c);
  sqz_test_drop(b);
  sqz_context_release(cpu);
}

static void check_same(sqz_context *ctx, const char *spec, const char *rule, double density) {
  check_runs(ctx, spec, rule, density, 0);
}

/* Every rule on every domain on the cpu. On opencl, where each (pattern, rule) is a program to
 * build, the default rule everywhere and the odd and B0 rules on a user fractal of scale 3, a
 * triangle and a tetrahedron. */
static void check_backend(const char *backend) {
  sqz_context *ctx = sqz_test_context(backend);
  int all = strcmp(backend, "cpu") == 0;
  for (size_t d = 0; d < sizeof bits_domains / sizeof *bits_domains; d++) {
    int dims = strncmp(bits_domains[d], "tetrahedron", 11) == 0 ? 3 : 2;
    int more = all || strchr(bits_domains[d], '#') || strcmp(bits_domains[d], "triangle:100") == 0 ||
               strcmp(bits_domains[d], "tetrahedron:41") == 0;
    for (int r = 0; r < 4; r++)
      if (r == 0 || (more && (all || r != 2)))
        check_same(ctx, bits_domains[d], dims == 2 ? rules2[r] : rules3[r], r == 1 ? 0.2 : 0.5);
  }
  sqz_context_release(ctx);
}

START_TEST(test_cpu) { check_backend("cpu"); }
END_TEST

START_TEST(test_opencl) { check_backend("opencl"); }
END_TEST

/* Every fractal family at odd levels, several steps per launch (SQZ_TEMPORAL = 1 .. 4, runs of
 * 4, 5 and 7 steps), on both backends: the default rule and a B0 rule (holes, absent tiles and
 * what lies past the halo must stay 0 between the steps of a launch), and one cell a box
 * (SQZ_BITS_Q=0, the general path); on the cpu more rules and every smaller box; both box plans
 * (SQZ_BITS_STEP=list on every family, the window where the list is the default). */
START_TEST(test_temporal) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int bk = 0; bk < 2; bk++) {
    sqz_context *ctx = sqz_test_context(backends[bk]);
    int all = bk == 0;
    for (int t = 1; t <= 4; t++) {
      char v[2] = {(char)('0' + t), 0};
      sqz_test_option(ctx, "temporal", v);
      for (size_t d = 0; d < sizeof box_domains / sizeof *box_domains; d++)
        for (int r = 0; r < 4; r++) /* opencl: a program per rule and box; B0 on the user pattern */
          if (r == 0 || (r == 3 && (all || d == 3)) || (all && t % 2 == 0))
            check_runs(ctx, box_domains[d], rules2[r], r == 1 ? 0.2 : 0.5, 1);
      for (int q = 0; q < (all ? 3 : 1) && (all || t % 2 == 0); q++) {
        char qv[2] = {(char)('0' + q), 0};
        sqz_test_option(ctx, "bits_q", qv);
        check_runs(ctx, "fractal:sierpinski-triangle:7", rules2[0], 0.5, 1);
        if (q == 0) check_runs(ctx, "fractal:sierpinski-carpet:3", rules2[3], 0.5, 1);
        sqz_test_option(ctx, "bits_q", NULL);
      }
    }
    for (int t = 1; t <= 8; t = t == 1 ? 4 : 2 * t) { /* the plan the default does not take: the list on every box, the window on side 8 */
      char v[2] = {(char)('0' + t), 0};
      sqz_test_option(ctx, "temporal", v);
      sqz_test_option(ctx, "bits_step", "list");
      for (size_t d = 0; d < sizeof box_domains / sizeof *box_domains; d++)
        for (int r = 0; r < 4; r++)
          if (r == 0 || (all && (r == 3 || t == 4))) check_runs(ctx, box_domains[d], rules2[r], r == 1 ? 0.2 : 0.5, 1);
      sqz_test_option(ctx, "bits_step", "window");
      check_runs(ctx, box_domains[0], rules2[0], 0.5, 1);
      sqz_test_option(ctx, "bits_step", NULL);
      sqz_test_option(ctx, "bits_hoist", "1"); /* the GPUs' list step: entries in registers, 1, 2 or 4 a work-item, */
      for (const char *const *l = (const char *const[]){"", "128", "64", "32", NULL}; *l; l++) { /* or 8: not held */
        if (**l) sqz_test_option(ctx, "bits_lanes", *l);
        check_runs(ctx, box_domains[0], rules2[0], 0.5, 1);
        if (!**l || t == 4) check_runs(ctx, box_domains[0], rules2[3], 0.5, 1);
      }
      sqz_test_option(ctx, "bits_lanes", NULL);
      sqz_test_option(ctx, "bits_hoist", NULL);
    }
    sqz_test_option(ctx, "temporal", NULL);
    if (!all) { /* a local memory that holds only the one-step window of the triangle: T = 8 falls back to 1 */
      uint64_t saved = ctx->local_mem;
      ctx->local_mem = 30000;
      sqz_test_option(ctx, "bits_step", "window");
      check_runs(ctx, "fractal:sierpinski-triangle:9", rules2[0], 0.5, 1);
      sqz_test_option(ctx, "bits_step", NULL);
      ctx->local_mem = saved;
    }
    sqz_context_release(ctx);
  }
}
END_TEST

/* The window at T = 8 steps a launch (the default) on a pattern whose tile side (121 = 11^2) puts
 * the halo's last column in a word of its own (floor((side + H - 1) / 32) > floor((side + bs - 1)
 * / 32), bs = 1 here): 8 steps at once in bits on both backends, and in compact by the window on
 * bytes (OpenCL, SQZ_FRACTAL_STEP=boxes), against compact on the cpu. A window of words up to
 * side + bs only lost that column (so did the first window at 8 steps). */
START_TEST(test_window8) {
  static const char *const backends[] = {"cpu", "opencl"};
  const char *spec = "fractal:###########/###########/###########/###########/###########/#####.#####/"
                     "###########/###########/###########/###########/###########:3";
  for (int bk = 0; bk < 2; bk++) {
    sqz_context *ctx = sqz_test_context(backends[bk]), *cpu = sqz_test_context("cpu");
    sqz_field *c = sqz_test_field(cpu, spec, SQZ_U8, "compact"), *b = sqz_test_field(ctx, spec, SQZ_U8, "bits");
    uint64_t n = sqz_domain_cells(sqz_test_domain(c));
    unsigned char *vc = malloc(n), *vb = malloc(n);
    SQZ_OK_OR_FAIL(cpu, sqz_field_fill_random(c, 0.4, 11));
    SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.4, 11));
    SQZ_OK_OR_FAIL(cpu, sqz_life_step(c, "B3/S23", 8));
    SQZ_OK_OR_FAIL(ctx, sqz_life_step(b, "B3/S23", 8));
    SQZ_OK_OR_FAIL(cpu, sqz_field_read_compact(c, vc, n));
    SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(b, vb, n));
    ck_assert_msg(memcmp(vc, vb, n) == 0, "%s: bits (8 steps a launch) and compact differ", backends[bk]);
    if (bk == 1) { /* compact by the window on bytes */
      sqz_test_option(ctx, "fractal_step", "boxes");
      sqz_field *x = sqz_test_field(ctx, spec, SQZ_U8, "compact");
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(x, 0.4, 11));
      SQZ_OK_OR_FAIL(ctx, sqz_life_step(x, "B3/S23", 8));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(x, vb, n));
      ck_assert_msg(memcmp(vc, vb, n) == 0, "compact by boxes (8 steps a launch) and the cpu differ");
      sqz_test_drop(x);
      sqz_test_option(ctx, "fractal_step", NULL);
    }
    free(vc);
    free(vb);
    sqz_test_drop(c);
    sqz_test_drop(b);
    sqz_context_release(cpu);
    sqz_context_release(ctx);
  }
}
END_TEST

/* Embedded reads and writes, compact writes, bands, and what bits refuses. */
START_TEST(test_io) {
  static const char *const backends[] = {"cpu", "opencl"};
  for (int k = 0; k < 2; k++) {
    sqz_context *ctx = sqz_test_context(backends[k]);
    static const char *const specs[] = {"fractal:sierpinski-carpet:3", "triangle:45", "tetrahedron:11"};
    for (int d = 0; d < 3; d++) {
      sqz_field *c = sqz_test_field(ctx, specs[d], SQZ_U8, "compact"), *b = sqz_test_field(ctx, specs[d], SQZ_U8, "bits");
      sqz_domain *dom = sqz_test_domain(c);
      uint64_t side = sqz_domain_side(dom), e = side * side * (d == 2 ? side : 1), n = sqz_domain_cells(dom);
      unsigned char *a = malloc(e), *x = malloc(e), *v = malloc(n);
      SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(c, 0.5, 3));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(c, a, e));
      SQZ_OK_OR_FAIL(ctx, sqz_field_write(b, a, e));
      memset(x, 7, e);
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, x, e));
      ck_assert(memcmp(a, x, e) == 0);
      uint64_t half = e / 2; /* the second half of the embedding through its bit indices */
      int64_t *idx = malloc((e - half) * sizeof *idx);
      for (uint64_t i = half; i < e; i++)
        idx[i - half] = sqz__layout_index(b, i % side, i / side % side, d == 2 ? i / (side * side) : 0);
      SQZ_OK_OR_FAIL(ctx, sqz__field_gather(b, b->cur, idx, e - half, x));
      ck_assert(memcmp(a + half, x, e - half) == 0);
      memset(x, 0, e - half);
      SQZ_OK_OR_FAIL(ctx, sqz__field_scatter(b, b->cur, idx, e - half, x)); /* clears that half */
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, x, e));
      ck_assert(memcmp(a, x, half) == 0);
      for (uint64_t i = half; i < e; i++) ck_assert_uint_eq(x[i], 0);
      free(idx);
      SQZ_OK_OR_FAIL(ctx, sqz_field_read_compact(c, v, n));
      SQZ_OK_OR_FAIL(ctx, sqz_field_write_compact(b, v, n));
      SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, x, e));
      ck_assert(memcmp(a, x, e) == 0);
      v[n / 2] = 2; /* two-state cells only */
      ck_assert_int_eq(sqz_field_write_compact(b, v, n), SQZ_ERR_INVALID_ARGUMENT);
      ck_assert_msg(strstr(sqz_last_error(ctx), "sqz_field_write_compact: ") &&
                        strstr(sqz_last_error(ctx), ") holds 2; Life cells are 0 or 1"),
                    "detail: %s", sqz_last_error(ctx)); /* names the cell */
      a[0] = 3; /* (0, 0, 0) is a cell of every domain here */
      ck_assert_int_eq(sqz_field_write(b, a, e), SQZ_ERR_INVALID_ARGUMENT);
      ck_assert_msg(strstr(sqz_last_error(ctx), ": cell 0 (x 0, y 0") &&
                        strstr(sqz_last_error(ctx), ") holds 3; Life cells are 0 or 1"),
                    "detail: %s", sqz_last_error(ctx));
      ck_assert_int_eq(sqz_life_step_custom(b, "return (uchar)(live == 3u);", 1), SQZ_ERR_INVALID_ARGUMENT);
      ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "layout bits"));
      free(a);
      free(x);
      free(v);
      sqz_test_drop(c);
      sqz_test_drop(b);
    }
    sqz_domain *dom = NULL;
    sqz_field *f = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "triangle:20", &dom));
    ck_assert_int_eq(sqz_field_create(dom, SQZ_F32, "bits", &f), SQZ_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "f32"));
    sqz_domain_release(dom);
    sqz_context_release(ctx);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("bits");
  static const char *const names[] = {"geometry", "box", "cpu", "opencl", "temporal", "io", "window8"};
  const TTest *tests[] = {test_geometry, test_box, test_cpu, test_opencl, test_temporal, test_io, test_window8};
  for (int i = 0; i < 7; i++) {
    TCase *tc = tcase_create(names[i]); /* timeout: CK_DEFAULT_TIMEOUT (ctest sets it) */
    tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
  }
  return sqz_test_run(s);
}
