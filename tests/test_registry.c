/* test_registry.c — the layout and map registries agree with the plans, the layout parser and the messages; every row of a family and of a layout is complete. */
/* labels: host */
#include <stdio.h>
#include <string.h>

#include "simplex/simplex_plan.h"
#include "sqz_test.h"

static const unsigned sqz_t_families[2] = {SQZ_FAMILY_SIMPLEX, SQZ_FAMILY_FRACTAL};

START_TEST(entries_well_formed) {
  for (size_t i = 0; i < sqz_layout_count(); i++) {
    ck_assert_ptr_nonnull(sqz_layout_name(i));
    ck_assert(*sqz_layout_help(i));
    ck_assert(sqz_layout_families(i) != 0 && (sqz_layout_families(i) & ~3u) == 0);
    for (size_t j = 0; j < i; j++) ck_assert_str_ne(sqz_layout_name(i), sqz_layout_name(j));
  }
  for (size_t i = 0; i < sqz_map_count(); i++) {
    const char *b = sqz_map_backend(i);
    ck_assert_ptr_nonnull(sqz_map_name(i));
    ck_assert(*sqz_map_help(i));
    ck_assert(sqz_map_family(i) != 0 && (sqz_map_family(i) & ~3u) == 0);
    ck_assert(sqz_map_dims(i) == 0 || sqz_map_dims(i) == 2 || sqz_map_dims(i) == 3);
    ck_assert(!b || strcmp(b, "opencl") == 0 || strcmp(b, "cuda") == 0 || strcmp(b, "cpu") == 0);
    ck_assert(!b || sqz_map_family(i) == SQZ_FAMILY_FRACTAL); /* backend-bound maps are tile maps */
    for (size_t j = 0; j < i; j++) ck_assert_str_ne(sqz_map_name(i), sqz_map_name(j));
  }
  size_t nl = sqz_layout_count(), nm = sqz_map_count();
  ck_assert_ptr_null(sqz_layout_name(nl));
  ck_assert_ptr_null(sqz_layout_help(nl));
  ck_assert_uint_eq(sqz_layout_families(nl), 0);
  ck_assert_ptr_null(sqz_map_name(nm));
  ck_assert_int_eq(sqz_map_dims(nm), -1);
  ck_assert_int_eq(sqz_map_is_default(nm), 0);
  ck_assert_int_eq(sqz_map_matches(nm, 0, 0, NULL), 0);
}
END_TEST

/* Each layout's row has what the library calls for every family that stores it (core/registry.h): the storage's
 * shape and index maps, tiles where it parts by tiles, both band operations or neither; a pattern name
 * (block:RHO) a parse and a plain one none; I/O of its own where its elements are bits. Each family's row
 * has its domain and parts operations, fractals their replicas'. */
START_TEST(rows_complete) {
  ck_assert_uint_eq(sqz_layout_count(), SQZ_LAYOUT_COUNT);
  for (size_t i = 0; i < SQZ_LAYOUT_COUNT; i++) {
    const sqz_layout_row *r = &sqz__layouts[i];
    ck_assert_ptr_eq(sqz__layout_find(sqz_layout_name(i)), r);
    ck_assert_msg(!strchr(r->name, ':') == !r->parse, "layout %s: a parse exactly for a pattern name", r->name);
    ck_assert_msg(!r->bit_cells || (r->io && r->io->band && r->io->download && r->io->upload && r->io->reduce),
                  "layout %s: bit cells without the I/O of its own", r->name);
    for (int fam = 0; fam < 2; fam++) {
      const sqz_layout_on *on = &r->on[fam];
      const sqz_layout_storage *st = on->storage;
      ck_assert_msg(!st == (on->parts == SQZ_PARTS_NONE && on->fast == 0), "layout %s, family %d", r->name, fam);
      if (!st) continue;
      ck_assert_msg(st->geometry && st->coords && st->index && st->row && st->rule, "layout %s: storage", r->name);
      ck_assert_msg(on->parts != SQZ_PARTS_DIGITS || st->tiles, "layout %s: digits without tiles", r->name);
      ck_assert_msg(on->parts != SQZ_PARTS_TILES || (st->tiles && st->tile_count), "layout %s: tiles", r->name);
      ck_assert_msg(!st->band_rows == !st->band_start, "layout %s: half of the band operations", r->name);
    }
  }
  for (int fam = 0; fam < 2; fam++) {
    const sqz_family_ops *f = sqz__families[fam];
    ck_assert(f->parse && f->contains && f->parts_halo);
    ck_assert(!f->parts_tables == (fam == 0) && !f->parts_cells == (fam == 0) && !f->parts_tiles == (fam == 0));
  }
}
END_TEST

/* Every simplex map of the registry plans on its dimension(s) and is refused, by name, on the other. */
START_TEST(simplex_maps_plan) {
  static const uint64_t sides[] = {1, 7, 37, 64, 100};
  for (int d = 2; d <= 3; d++) {
    const char *const *list = sqz__simplex_maps(d);
    size_t k = 0;
    for (size_t i = 0; i < sqz_map_count(); i++) {
      const char *name = sqz_map_name(i);
      sqz_simplex_plan plan;
      if (!sqz_map_matches(i, SQZ_FAMILY_SIMPLEX, d, NULL)) {
        ck_assert_int_eq(sqz__simplex_plan(NULL, d, 16, name, 0, 0, &plan), SQZ_ERR_INVALID_ARGUMENT);
        ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), name));
        const char *why = sqz_map_family(i) & SQZ_FAMILY_SIMPLEX ? (d == 2 ? "is a 3D map" : "is a 2D map")
                                                                  : "is a fractal map";
        ck_assert_msg(strstr(sqz_last_error(NULL), why), "%s: %s", name, sqz_last_error(NULL));
        continue;
      }
      ck_assert_ptr_nonnull(list[k]); /* sqz__simplex_maps lists the same maps in the same order */
      ck_assert_str_eq(list[k++], name);
      for (size_t s = 0; s < sizeof sides / sizeof sides[0]; s++) {
        SQZ_OK_OR_FAIL(NULL, sqz__simplex_plan(NULL, d, sides[s], name, 0, 0, &plan));
        ck_assert_uint_gt(plan.count, 0);
        sqz__simplex_plan_free(&plan);
      }
    }
    ck_assert_ptr_null(list[k]);
  }
}
END_TEST

/* Every layout name parses on a domain of each family it claims, and is refused on the others. */
START_TEST(layouts_parse) {
  static const char *const domains[] = {"triangle:8", "tetrahedron:5", "fractal:sierpinski-triangle:4",
                                        "fractal:sierpinski-carpet:2"};
  for (size_t d = 0; d < sizeof domains / sizeof domains[0]; d++) {
    sqz_domain *dom = NULL;
    SQZ_OK_OR_FAIL(NULL, sqz_domain_parse(NULL, domains[d], &dom));
    int s = 0, k = 0, r = 0, fractal = sqz_domain_fractal_params(dom, &s, &k, &r) == SQZ_OK;
    unsigned family = sqz_t_families[fractal];
    for (size_t i = 0; i < sqz_layout_count(); i++) {
      char name[64];
      const char *colon = strchr(sqz_layout_name(i), ':'); /* a pattern: its parameter is a tile side s */
      if (colon) snprintf(name, sizeof name, "%.*s%d", (int)(colon - sqz_layout_name(i) + 1), sqz_layout_name(i), s);
      else snprintf(name, sizeof name, "%s", sqz_layout_name(i));
      uint64_t cells = 0;
      int st = sqz_domain_layout_cells(dom, name, &cells);
      if (sqz_layout_families(i) & family) {
        ck_assert_msg(st == SQZ_OK, "%s on %s: %s", name, domains[d], sqz_last_error(NULL));
        ck_assert_uint_ge(cells, sqz_domain_cells(dom));
      } else {
        ck_assert_int_eq(st, SQZ_ERR_INVALID_ARGUMENT);
        ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), name));
      }
    }
    uint64_t cells = 0; /* an unknown name: the message lists the family's layouts */
    ck_assert_int_eq(sqz_domain_layout_cells(dom, "diagonal", &cells), SQZ_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "unknown layout 'diagonal' (expected "));
    for (size_t i = 0; i < sqz_layout_count(); i++)
      ck_assert(!(sqz_layout_families(i) & family) || strstr(sqz_last_error(NULL), sqz_layout_name(i)));
    sqz_domain_release(dom);
  }
}
END_TEST

START_TEST(lists) {
  char buf[256];
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_SIMPLEX, 2, NULL, buf, sizeof buf), 7);
  ck_assert_str_eq(buf, "bb, ltm, rb, had, had-above, had-below, rec");
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_SIMPLEX, 3, "opencl", buf, sizeof buf), 4);
  ck_assert_str_eq(buf, "bb, ltm3, had3, rec3");
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_FRACTAL, 2, "opencl", buf, sizeof buf), 3);
  ck_assert_str_eq(buf, "bb, seq, group");
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_FRACTAL, 0, "cuda", buf, sizeof buf), 3);
  ck_assert_str_eq(buf, "bb, mma, alu");
  ck_assert_int_eq(sqz_map_list(0, 0, NULL, buf, sizeof buf), (int)sqz_map_count());
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_SIMPLEX, 2, NULL, NULL, 0), 7); /* counting only */
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_SIMPLEX, 2, NULL, NULL, 5), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_SIMPLEX, 2, NULL, buf, 10), SQZ_ERR_TOO_LARGE);
  ck_assert_str_eq(buf, "bb, ltm"); /* whole names only */
  ck_assert_int_eq(sqz_map_list(SQZ_FAMILY_SIMPLEX, 2, NULL, buf, 1), SQZ_ERR_TOO_LARGE);
  ck_assert_str_eq(buf, "");
  ck_assert_int_eq(sqz_layout_list(0, buf, sizeof buf), 5);
  ck_assert_str_eq(buf, "bb, lambda, block:RHO, compact, bits");
  ck_assert_int_eq(sqz_layout_list(SQZ_FAMILY_SIMPLEX, buf, sizeof buf), 3);
  ck_assert_str_eq(buf, "bb, compact, bits");
}
END_TEST

/* The defaults the library picks are the ones the registry marks: per dimension, per backend. */
START_TEST(defaults) {
  for (int d = 2; d <= 3; d++)
    for (uint64_t n = 1; n < 3000; n += 37) {
      const char *m = sqz_simplex_default_map(d, n);
      ck_assert_ptr_nonnull(m);
      size_t i = 0;
      while (i < sqz_map_count() && strcmp(sqz_map_name(i), m) != 0) i++;
      ck_assert_uint_lt(i, sqz_map_count());
      ck_assert(sqz_map_is_default(i) && sqz_map_matches(i, SQZ_FAMILY_SIMPLEX, d, NULL));
    }
  ck_assert_ptr_null(sqz_simplex_default_map(4, 10));
  static const char *const backends[] = {"opencl", "cuda"};
  for (int b = 0; b < 2; b++) {
    int n = 0;
    for (size_t i = 0; i < sqz_map_count(); i++)
      n += sqz_map_backend(i) && strcmp(sqz_map_backend(i), backends[b]) == 0 && sqz_map_is_default(i);
    ck_assert_int_eq(n, 1);
  }
}
END_TEST

/* sqz_field_set_map checks against the registry (cpu backend: no device needed). */
START_TEST(set_map_messages) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_domain *tri = NULL, *tet = NULL, *fr = NULL;
  sqz_field *f = NULL, *g = NULL, *h = NULL, *hb = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "triangle:8", &tri));
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "tetrahedron:6", &tet));
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-triangle:3", &fr));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(tri, SQZ_U8, "compact", &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(tet, SQZ_U8, "bb", &g));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(fr, SQZ_U8, "block:2", &h));
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(fr, SQZ_U8, "bb", &hb));
  ck_assert_int_eq(sqz_field_set_map(f, "ltm3"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "'ltm3' is a 3D map and the domain is 2D"));
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "(2D maps: bb, ltm, rb, had, had-above, had-below, rec)"));
  ck_assert_int_eq(sqz_field_set_map(g, "had"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "'had' is a 2D map"));
  ck_assert_int_eq(sqz_field_set_map(g, "zigzag"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "is unknown (3D maps: bb, ltm3, had3, rec3)"));
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(g, "rec3"));
  ck_assert_str_eq(sqz_field_map(g), "rec3");
  ck_assert_int_eq(sqz_field_set_map(h, "ltm"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "does not apply to fractals"));
  ck_assert_int_eq(sqz_field_set_map(h, "group"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "needs the opencl backend"));
  ck_assert_int_eq(sqz_field_set_map(h, "mma"), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "needs the cuda backend"));
  ck_assert_int_eq(sqz_field_set_map(h, "bb"), SQZ_ERR_INVALID_ARGUMENT);
  SQZ_OK_OR_FAIL(ctx, sqz_field_set_map(hb, "bb"));
  ck_assert_str_eq(sqz_field_map(hb), "");
  sqz_field_release(f);
  sqz_field_release(g);
  sqz_field_release(h);
  sqz_field_release(hb);
  sqz_domain_release(tri);
  sqz_domain_release(tet);
  sqz_domain_release(fr);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("registry");
  TCase *host = tcase_create("host");
  tcase_add_test(host, entries_well_formed);
  tcase_add_test(host, rows_complete);
  tcase_add_test(host, simplex_maps_plan);
  tcase_add_test(host, layouts_parse);
  tcase_add_test(host, lists);
  tcase_add_test(host, defaults);
  tcase_add_test(host, set_map_messages);
  suite_add_tcase(s, host);
  return sqz_test_run(s);
}
