/* fuzz_layout_map.c — layout and map names on small domains of every family (cpu backend): the first byte picks
 * the domain, then "LAYOUT\nMAP" (no newline: no map). A layout name is parsed or refused; an accepted layout
 * stores every domain cell exactly once (storage index -> cell -> the same index); a map name is taken or refused
 * and a taken one reads back. */
#include "core/sqz_internal.h"
#include "fuzz_util.h"

static sqz_context *ctx;
static sqz_domain *doms[6];
static const char *const specs[] = {"triangle:7", "tetrahedron:5", "fractal:sierpinski-carpet:2",
                                    "fractal:sierpinski-triangle:3", "fractal:#./.#:4", "fractal:...#/.#../###./#.#.:1"};

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (sqz_context_create("cpu", NULL, &ctx) != SQZ_OK) abort();
  for (int i = 0; i < 6; i++)
    if (sqz_domain_parse(ctx, specs[i], &doms[i]) != SQZ_OK) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  sqz_domain *dom = doms[data[0] % 6];
  char *text = sqz_fuzz_cstr(data + 1, size - 1);
  char *map = strchr(text, '\n');
  if (map) *map++ = 0;
  uint64_t cells = 0;
  int st = sqz_domain_layout_cells(dom, text, &cells);
  sqz_field *f = NULL;
  int fst = sqz_field_create(dom, SQZ_U8, text, &f);
  SQZ_FUZZ_CHECK((fst == SQZ_OK) == (f != NULL));
  SQZ_FUZZ_CHECK(fst != SQZ_OK || st == SQZ_OK); /* a layout a field takes has a size */
  if (f) {
    SQZ_FUZZ_CHECK(f->elems == cells && cells >= sqz_domain_cells(dom) && f->width * f->height == f->elems);
    /* the canonical layout string names the same layout */
    uint64_t again = 0;
    SQZ_FUZZ_CHECK(sqz_domain_layout_cells(dom, sqz_field_layout(f), &again) == SQZ_OK && again == cells);
    /* storage index -> embedded cell -> storage index, and every domain cell once */
    uint64_t found = 0;
    for (uint64_t i = 0; i < f->elems; i++) {
      uint64_t x = 0, y = 0, z = 0;
      if (!sqz__layout_coords(f, i, &x, &y, &z)) continue;
      SQZ_FUZZ_CHECK(sqz_domain_contains(dom, x, y, z));
      SQZ_FUZZ_CHECK(sqz__layout_index(f, x, y, z) == (int64_t)i);
      found++;
    }
    SQZ_FUZZ_CHECK(found == sqz_domain_cells(dom));
    if (map) {
      int ms = sqz_field_set_map(f, map);
      if (ms == SQZ_OK) SQZ_FUZZ_CHECK(strlen(sqz_field_map(f)) < sizeof f->map);
      else SQZ_FUZZ_CHECK(*sqz_last_error(ctx) != 0);
      SQZ_FUZZ_CHECK(sqz_field_set_map(f, NULL) == SQZ_OK); /* NULL restores the default */
    }
    sqz_field_release(f);
  }
  free(text);
  return 0;
}
