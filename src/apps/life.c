/* life.c — simplex map names, the dispatch of life steps to families, and the check of a state's cells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/stencil.h"
#include "core/reduce_acc.h"
#include "core/registry.h"
#include "core/sqz_internal.h"
#include "io/image_rows.h"

static int sqz__set_map(sqz_field *f, const char *map) {
  if (!map || !*map) { f->map[0] = 0; return SQZ_OK; }
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) {
    int st = sqz__simplex_map_check(f->ctx, f->dom->dims, map);
    if (st == SQZ_OK) snprintf(f->map, sizeof f->map, "%s", map);
    return st;
  }
  if (strcmp(map, "bb") == 0 && f->layout == SQZ_LAYOUT_BB) { f->map[0] = 0; return SQZ_OK; }
  const sqz_map_info *m = sqz__map_find(map); /* the tile λ maps are those of one backend */
  const char *backend = sqz_context_backend(f->ctx);
  char maps[128], layouts[128];
  if (!m || !(m->families & SQZ_FAMILY_FRACTAL) || !m->backend) {
    sqz__layout_names(SQZ_FAMILY_FRACTAL, NULL, "|", "|", layouts, sizeof layouts);
    sqz__map_names(SQZ_FAMILY_FRACTAL, 2, backend, 1, ", ", " or ", maps, sizeof maps);
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT,
                     "map '%s' does not apply to fractals: the layout (--layout %s) is the method; the tile lambda "
                     "maps on %s: %s", map, layouts, backend, *maps ? maps : "none");
  }
  if (strcmp(m->backend, backend) != 0 || f->layout == SQZ_LAYOUT_BB) {
    sqz__layout_names(SQZ_FAMILY_FRACTAL, "bb", ", ", " or ", layouts, sizeof layouts);
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "map '%s' (%s) needs the %s backend and layout %s, not %s on %s",
                     map, m->help, m->backend, layouts, f->layout_str, backend);
  }
  snprintf(f->map, sizeof f->map, "%s", m->is_default ? "" : map); /* the backend's default reads "" */
  return SQZ_OK;
}

int sqz_field_set_map(sqz_field *f, const char *map) {
  if (!f) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_set_map");
  sqz__lock(f->ctx); /* a step on another thread reads the map */
  int st = sqz__set_map(f, map);
  sqz__unlock(f->ctx);
  return st;
}

const char *sqz_field_map(const sqz_field *f) { return f ? f->map : ""; }

const char *sqz_field_map_resolved(const sqz_field *f) {
  if (!f) return "";
  if (f->map[0]) return f->map;
  if (f->dom->kind != SQZ_DOMAIN_FRACTAL) return sqz_simplex_default_map(f->dom->dims, f->dom->side);
  if (f->layout == SQZ_LAYOUT_BB) return "bb"; /* the bounding-box launch: no tile map */
  const char *backend = sqz_context_backend(f->ctx);
  for (size_t i = 0; i < sqz_map_count(); i++) /* the backend's default tile map */
    if (sqz_map_is_default(i) && sqz_map_matches(i, SQZ_FAMILY_FRACTAL, 2, backend) && sqz_map_backend(i))
      return sqz_map_name(i);
  return "none";
}

static int sqz__life_type(sqz_field *f) {
  if (f->type != SQZ_U8)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "life needs a SQZ_U8 field (this one has %zu-byte cells)",
                     sqz_type_size(f->type));
  return SQZ_OK;
}

int sqz__life_update(sqz_field *f, const char *rule, sqz_update *u) {
  if (!f) return sqz__null_arg(f ? f->ctx : NULL, "sqz_life_step");
  memset(u, 0, sizeof *u);
  u->kind = SQZ_UPDATE_LIFE;
  char err[256];
  if (!rule) rule = f->dom->dims == 3 ? "B6/S5,6,7" : "B3/S23"; /* the default rule of each dimension */
  int st = sqz_rule_parse_states(rule, f->dom->dims, &u->birth, &u->survive, &u->states, err, sizeof err);
  if (st != SQZ_OK) return sqz__fail(f->ctx, st, "%s", err);
  if ((st = sqz__life_type(f)) != SQZ_OK) return st;
  if (u->states > 2 && sqz__layout_of(f)->bit_cells)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "rule '%s' has %u states and layout %s holds one bit a cell "
                     "(0 or 1): a Generations rule needs a layout of u8 cells",
                     rule, u->states, sqz__layout_of(f)->name);
  return SQZ_OK;
}

int sqz_life_step(sqz_field *f, const char *rule, uint64_t steps) {
  sqz_update u;
  int st = sqz__life_update(f, rule, &u);
  return st == SQZ_OK ? sqz__stencil_run(f, &u, steps, NULL) : st;
}

int sqz_life_step_custom(sqz_field *f, const char *cell_body, uint64_t steps) {
  if (!f || !cell_body || !*cell_body) return sqz__null_arg(f ? f->ctx : NULL, "sqz_life_step_custom");
  sqz_update u = {.kind = SQZ_UPDATE_LIFE_BODY};
  u.source = cell_body;
  int st = sqz__life_type(f);
  return st == SQZ_OK ? sqz__stencil_run(f, &u, steps, NULL) : st;
}

/* Checked once (after a load), never in a step: one device reduction counts the cells above 1; only
 * a state that has some is read back, in bands of image rows, to name the first above the rule's
 * last state. */
int sqz_life_check_rule(sqz_field *f, const char *rule) {
  if (!f) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_life_check: the field is NULL");
  sqz_update u;
  int st = sqz__life_update(f, rule, &u);
  if (st != SQZ_OK || sqz__layout_of(f)->bit_cells) return st; /* bits: one bit a cell */
  uint64_t above = 0;
  if ((st = sqz__field_count_op(f, SQZ_RED_ABOVE1, &above)) != SQZ_OK || above == 0) return st;
  sqz_image im;
  uint64_t x = 0, y = 0, z = 0;
  unsigned value = 0, states = u.states > 2 ? u.states : 2;
  if ((st = sqz__image_open(f, "sqz_life_check", SQZ_IMAGE_SAVE, &im)) != SQZ_OK) return st;
  int found = sqz__image_find_above(&im, states - 1, &x, &y, &z, &value, &st);
  sqz__image_close(&im);
  return st == SQZ_OK && found ? sqz__states_fail(f, NULL, x, y, z, value, rule, states) : st;
}

int sqz_life_check(sqz_field *f) { return sqz_life_check_rule(f, NULL); }
