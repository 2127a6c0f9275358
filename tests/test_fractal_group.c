/* labels: opencl */
/* test_fractal_group.c — the group-parallel tile λ (map "group") against the digit loop ("seq") and the cpu backend, bit for bit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fractal/fractal_internal.h"
#include "sqz_fractal.h"
#include "sqz_test.h"

/* Host check of the shared arithmetic: the packed terms of sqz_fr_lambda_term, summed in
 * 64-bit integers over all levels, equal sqz_fr_lambda, at the deepest level each fractal
 * allows (compact indices beyond 2^32 included, so the 64-bit digit path runs too). */
START_TEST(test_terms_sum_to_lambda) {
  sqz_context *ctx = sqz_test_context("cpu");
  const char *names[] = {"sierpinski-triangle", "sierpinski-carpet", "vicsek-cross", "vicsek-saltire",
                         "...#/.#../###./#.#.", "#./.#"};
  const char *levels[] = {"30", "19", "19", "19", "15", "30"};
  for (int d = 0; d < 6; d++) {
    char spec[128];
    snprintf(spec, sizeof spec, "fractal:%s:%s", names[d], levels[d]);
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, spec, &dom));
    const sqz_fractal *fr = &dom->fr;
    sqz_u32 s = (sqz_u32)fr->s, k = (sqz_u32)fr->k;
    uint64_t z = 12345u + (uint64_t)d, cells = sqz_domain_cells(dom);
    for (int n = 0; n < 4000; n++) {
      z = z * 6364136223846793005u + 1442695040888963407u;
      uint64_t c = n == 0 ? cells - 1 : (z >> 11) % cells;
      sqz_u32 x, y, sp = 1;
      sqz_u64 kp = 1, sum = 0;
      for (int i = 0; i < fr->r; i++, sp *= s, kp *= k) sum += sqz_fr_lambda_term(k, fr->hl, sp, kp, c);
      sqz_fr_lambda(s, k, fr->hl, (sqz_u32)fr->r, c, &x, &y);
      if (sum != ((uint64_t)x | (uint64_t)y << 32)) /* (Check records every assertion: only on a difference) */
        ck_abort_msg("%s: c = %llu: terms give (%llu, %llu), λ (%u, %u)", spec, (unsigned long long)c,
                     (unsigned long long)(sum & 0xffffffffu), (unsigned long long)(sum >> 32), x, y);
    }
    sqz_domain_release(dom);
  }
  sqz_context_release(ctx);
}
END_TEST

/* Which paths of fr_group_lambda (cl/life_fractal.cl, local-memory reduction) the device
 * cases of one test took (each test runs in its own process): lanes per tile fewer than the tile levels (each lane loops over several
 * levels), a reduction width that is not a power of two, and a tile level above 16. */
static int seen_loop, seen_odd_width, seen_deep;

/* One field of `layout` on ctx (launch block `block`, 0 = automatic; map NULL = the backend's
 * default): random fill, 1 step, 4 more. Returns the storage after 1 and after 5 steps
 * (2 * elems bytes, malloc'ed) and the field in *keep (caller releases), or NULL when the
 * device refuses the tile (local memory). */
static unsigned char *run(sqz_context *ctx, sqz_domain *dom, const char *layout, uint32_t block, const char *map,
                          const char *rule, sqz_field **keep) {
  sqz_field *f = NULL;
  *keep = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, layout, &f));
  if (block) SQZ_OK_OR_FAIL(ctx, sqz_field_set_block(f, block));
  if (map) {
    SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(f, map));
    ck_assert_str_eq(sqz_field_map(f), strcmp(map, "seq") == 0 ? "" : map);
  }
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 11));
  int st = sqz_life_step(f, rule, 1);
  if (st == SQZ_ERR_UNSUPPORTED && strstr(sqz_last_error(ctx), "local memory")) {
    sqz_field_release(f);
    return NULL;
  }
  SQZ_OK_OR_FAIL(ctx, st);
  unsigned char *out = malloc(2 * f->elems);
  ck_assert_ptr_nonnull(out);
  SQZ_OK_OR_FAIL(ctx, sqz__field_download(f, out));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, rule, 4));
  SQZ_OK_OR_FAIL(ctx, sqz__field_download(f, out + f->elems));
  if (map && strcmp(map, "group") == 0) { /* record the reduction shape (lanes as planned for 256-item groups) */
    sqz_fractal_tiling t;
    SQZ_OK_OR_FAIL(ctx, sqz__fractal_tiling(f, &t));
    uint32_t rb = (uint32_t)dom->fr.r - t.j, lanes = t.tile_elems < 256 ? t.tile_elems : 256;
    uint32_t w = rb < lanes ? rb : lanes;
    seen_loop |= lanes < rb;
    seen_odd_width |= w > 2 && (w & (w - 1)) != 0;
    seen_deep |= rb > 16;
  }
  *keep = f;
  return out;
}

/* opencl seq and opencl group agree, byte for byte, with the cpu backend for every layout
 * with a tile λ: lambda (with_lambda) and compact with automatic tiles and tiles of side s,
 * block:RHO for RHO up to max_rho and the side (RHO = side: one tile, λ at level 0). With
 * ends_only, only compact with automatic tiles, block:1 and block:max_rho (deep levels: the
 * layouts in between take the same paths as at the shallow levels of test_named_and_custom).
 * The cpu reference runs once per rule in layout block:1; each stored cell of a layout is
 * compared with the reference's cell at the same embedded coordinates (holes and non-fractal
 * cells with 0), through the layouts' own index maps. */
static void agree(sqz_context *cl, sqz_context *cpu, const char *spec, const char *const *rules, int n_rules,
                  uint64_t max_rho, int with_lambda, int ends_only) {
  sqz_domain *dcl = NULL, *dcpu = NULL;
  SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, spec, &dcl));
  SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, spec, &dcpu));
  uint32_t s = (uint32_t)dcl->fr.s;
  char layouts[40][32];
  uint32_t blocks[40];
  int n = 0;
  for (int l = with_lambda ? 0 : 1; l < 2; l++)
    for (int b = 0; b < (ends_only ? 1 : 2); b++) {
      snprintf(layouts[n], sizeof layouts[n], "%s", l == 0 ? "lambda" : "compact");
      blocks[n++] = b ? s : 0u;
    }
  for (uint64_t rho = 1; rho <= dcl->side && rho <= max_rho; rho *= s) {
    if (ends_only && rho != 1 && (rho * s <= dcl->side && rho * s <= max_rho)) continue;
    snprintf(layouts[n], sizeof layouts[n], "block:%llu", (unsigned long long)rho);
    blocks[n++] = 0;
  }
  for (int ru = 0; ru < n_rules; ru++) {
    sqz_field *rf = NULL;
    unsigned char *ref = run(cpu, dcpu, "block:1", 0, NULL, rules[ru], &rf);
    uint64_t cells = rf->elems, live = 0;
    for (uint64_t i = 0; i < cells; i++) live += ref[i];
    ck_assert_msg(live > 0, "%s %s: every cell died in one step, so the comparison shows nothing", spec, rules[ru]);
    for (int l = 0; l < n; l++) {
      sqz_field *fs = NULL, *fg = NULL;
      unsigned char *seq = run(cl, dcl, layouts[l], blocks[l], "seq", rules[ru], &fs);
      unsigned char *group = run(cl, dcl, layouts[l], blocks[l], "group", rules[ru], &fg);
      ck_assert_msg((seq == NULL) == (group == NULL), "%s %s: only one map refused the tile", spec, layouts[l]);
      if (!seq) continue; /* a tile cache larger than the device's local memory */
      uint64_t e = fs->elems;
      for (uint64_t i = 0; i < 2 * e; i++) {
        uint64_t x, y, z;
        unsigned char want = 0;
        if (sqz__layout_coords(fs, i % e, &x, &y, &z)) want = ref[(i < e ? 0 : cells) + sqz__layout_index(rf, x, y, 0)];
        if (seq[i] != want || group[i] != want) /* (Check records every assertion: only on a difference) */
          ck_abort_msg("%s %s (block %u) %s after %d steps, cell (%llu, %llu): seq %u, group %u, cpu %u", spec,
                       layouts[l], blocks[l], rules[ru], i < e ? 1 : 5, (unsigned long long)x, (unsigned long long)y,
                       seq[i], group[i], want);
      }
      free(seq);
      free(group);
      sqz_field_release(fs);
      sqz_field_release(fg);
    }
    free(ref);
    sqz_field_release(rf);
  }
  sqz_domain_release(dcl);
  sqz_domain_release(dcpu);
}

static const char *const LIFE[] = {"B3/S23", "B2/S23"};
static const char *const SPARSE[] = {"B1/S", "B2/S23"}; /* B1/S keeps states alive on thin fractals */

/* Every layout with a tile λ on the Sierpinski triangle (s = 2) and the asymmetric custom pattern (s = 4); on the
 * carpet and the Vicsek fractals (s = 3, k = 8 and 5) the ends only: compact, block:1 (every level in the tile λ)
 * and one tile. Each pattern and kernel is one program build; the λ arithmetic sees the pattern only through its
 * tables, which the ends exercise at every level, and test_stencil runs seq and group on every layout of the
 * triangle, the carpet, the Vicsek cross and a custom pattern (i32 cells). */
START_TEST(test_named_and_custom) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  const char *specs[] = {"fractal:sierpinski-triangle:9", "fractal:sierpinski-carpet:5", "fractal:vicsek-cross:6",
                         "fractal:vicsek-saltire:6", "fractal:...#/.#../###./#.#.:5"};
  seen_loop = seen_odd_width = 0;
  for (int d = 0; d < 5; d++) {
    int all = d == 0 || d == 4;
    agree(cl, cpu, specs[d], LIFE, 2, UINT64_MAX, all, !all);
  }
  ck_assert_msg(seen_loop, "no case had fewer lanes per tile than tile levels"); /* block:1, lambda at block s */
  ck_assert_msg(seen_odd_width, "no case reduced a width that is not a power of two"); /* lambda: 3 tile levels */
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* Deep levels with tiny states: tile levels above 16 (18 and 19), one lane per tile at
 * block:1 (every level in one work-item's loop), reductions 15 wide at block:8 (64 lanes) and
 * 17 wide at block:9 (81 lanes: more partial sums than a power of two below the lanes; s = 3
 * at level 19 also puts coordinates above 2^30), compact with automatic tiles. One rule: the
 * tile λ does not depend on it. */
START_TEST(test_deep_levels) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  agree(cl, cpu, "fractal:#./.#:18", SPARSE, 1, 8, 0, 1);      /* s = 2, k = 2: the diagonal, 2^18 cells */
  agree(cl, cpu, "fractal:.#./.#./...:19", SPARSE, 1, 9, 0, 1); /* s = 3, k = 2: 2^19 cells in vertical pairs */
  ck_assert_msg(seen_deep, "no case had a tile level above 16");
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

/* "group" and "seq" need the opencl backend and a layout with a tile λ. */
START_TEST(test_map_names) {
  sqz_context *cl = sqz_test_context("opencl"), *cpu = sqz_test_context("cpu");
  sqz_domain *dom = NULL, *dcpu = NULL;
  SQZ_OK_OR_FAIL(cl, sqz_domain_parse(cl, "fractal:sierpinski-triangle:4", &dom));
  SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, "fractal:sierpinski-triangle:4", &dcpu));
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(cl, sqz_field_create(dom, SQZ_U8, "bb", &f));
  ck_assert_int_eq(sqz_field_set_map(f, "group"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(cl), "layout lambda, block:RHO, compact or bits, not bb"));
  sqz_field_release(f);
  SQZ_OK_OR_FAIL(cpu, sqz_field_create(dcpu, SQZ_U8, "lambda", &f));
  ck_assert_int_eq(sqz_field_set_map(f, "group"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(cpu), "needs the opencl backend"));
  sqz_field_release(f);
  SQZ_OK_OR_FAIL(cl, sqz_field_create(dom, SQZ_U8, "block:4", &f));
  SQZ_OK_OR_FAIL(cl, sqz_field_set_map(f, "group"));
  ck_assert_str_eq(sqz_field_map(f), "group");
  SQZ_OK_OR_FAIL(cl, sqz_field_set_map(f, "seq"));
  ck_assert_str_eq(sqz_field_map(f), "");
  ck_assert_int_eq(sqz_field_set_map(f, "ltm"), SQZ_ERR_INVALID_ARGUMENT);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_domain_release(dcpu);
  sqz_context_release(cl);
  sqz_context_release(cpu);
}
END_TEST

int main(void) {
  Suite *s = suite_create("fractal_group");
  TCase *tc = tcase_create("group");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, test_terms_sum_to_lambda);
  tcase_add_test(tc, test_named_and_custom);
  tcase_add_test(tc, test_deep_levels);
  tcase_add_test(tc, test_map_names);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
