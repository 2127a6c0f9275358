/* cmd_life.c — `sqz life`: runs a Life-like cellular automaton on any domain and layout. */
#include <stdlib.h>
#include <string.h>

#include "cli_exec.h"
#include "cmds.h"
#include "sqz_hdf5.h"

typedef struct {
  sqz_cli_set s; /* the shared options; s.rule: --rule, then the rule that runs */
  const char *at;
  int clip;
  /* derived */
  const char *given_rule; /* --rule as given */
  int pattern_init;       /* --init is an .rle or .cells pattern */
  int64_t at_x, at_y;
  uint64_t clipped; /* the live cells --clip dropped */
  char file_rule[SQZ_RLE_RULE_MAX], rule_buf[SQZ_RLE_RULE_MAX];
} sqz_life_opts;

static const sqz_cli_optdef sqz_life_rule = SQZ_CLI_TEXT(
    "--rule", "R",
    rule, "B<counts>/S<counts>, any case, '/' optional (b3s23), or Golly's S/B digits 23/3 (2D only);\n"
          "3D counts comma-separated (B6/S5,6,7; a lone count of 10 or more as B14,); default B3/S23\n"
          "in 2D and B6/S5,6,7 in 3D, or the rule an .rle or .h5 --init records. Golly's Generations\n"
          "with C states: B2/S/C3 or S/B/C /2/3 (Brian's Brain), 345/2/4 (Star Wars): cells 0..C-1,\n"
          "1 alive, 2.. dying (not in layout bits)");
static const sqz_cli_optdef sqz_life_init = SQZ_CLI_TEXT(
    "--init", "STATE",
    init, "random:DENSITY:SEED (cells 1 with that probability; default random:0.5:1), const:V (V 0\n"
          "or 1), point:Y,X (3D point:Z,Y,X: one live cell), or a file of the embedding's cells:\n"
          "FILE.npy (NumPy uint8, shape (side, side) [y][x] or (N, N, N) [z][y][x]; 0 and 1, or the\n"
          "rule's states 0..C-1), FILE.rle or FILE.cells (Golly patterns, 2D), FILE.h5 (a checkpoint\n"
          "of sqz: its rule, unless --rule, and its step count carry on), else PBM");
static const sqz_cli_optdef sqz_life_at = {
    "--at", "X,Y", "where an .rle or .cells --init pattern's top-left cell goes in the embedding (default 0,0)",
    sqz_cli_p_text, offsetof(sqz_life_opts, at), 0, 0};
static const sqz_cli_optdef sqz_life_clip = {
    "--clip", NULL,
    "drop the live cells of a pattern or image --init that land outside the domain or on its\n"
    "holes (counted on stderr and in --json as clipped) instead of refusing the file",
    sqz_cli_p_flag, offsetof(sqz_life_opts, clip), 0, 0};
static const sqz_cli_optdef sqz_life_out = SQZ_CLI_TEXT(
    "--out", "FILE", out, "the final state: FILE.npy (NumPy uint8), FILE.rle or FILE.cells (Golly, the live cells'\n"
                          "bounding box), FILE.h5 (an HDF5 checkpoint to resume from), else PBM (P4)");
static const sqz_cli_optdef *const sqz_life_opt_list[] = {
    &sqz_cli_opt_steps,   &sqz_life_rule,     &sqz_life_init,          &sqz_life_at,          &sqz_life_clip,
    &sqz_life_out,        &sqz_cli_opt_png,   &sqz_cli_opt_png_size,   &sqz_cli_opt_frames,   &sqz_cli_opt_every,
    &sqz_cli_opt_observe, &sqz_cli_opt_observe_out, &sqz_cli_opt_layout, &sqz_cli_opt_map,     &sqz_cli_opt_block,
    &sqz_cli_opt_backend_cuda, &sqz_cli_opt_device, &sqz_cli_opt_parts,     &sqz_cli_opt_devices,  &sqz_cli_opt_timeout,
    &sqz_cli_opt_quiet,   &sqz_cli_opt_json,   &sqz_cli_opt_option,    NULL};


static const sqz_cli_cmd sqz_life_cmd = {
    "life", "DOMAIN --steps K [options]",
    "Runs a Life-like cellular automaton (B/S rules, Golly's Generations) on every cell of DOMAIN, K steps.\n",
    sqz_life_opt_list, 1, {"--layout", 0, NULL}, {"--map", 0, 0, NULL, 0}};

/* Parses --at X,Y: two non-negative decimal integers below 2^63, nothing else; 0, or 2 after a
 * usage error naming the value. */
static int sqz__parse_at(const char *at, int64_t *x, int64_t *y) {
  const char *p = at;
  int64_t v[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    if (*p < '0' || *p > '9') return sqz_cli_usage("life", "--at '%s': expected X,Y (two non-negative integers)", at);
    for (; *p >= '0' && *p <= '9'; p++) {
      if (v[k] > (INT64_MAX - (*p - '0')) / 10) return sqz_cli_usage("life", "--at '%s': coordinate too large", at);
      v[k] = v[k] * 10 + (*p - '0');
    }
    if (*p != (k == 0 ? ',' : 0))
      return sqz_cli_usage("life", "--at '%s': expected X,Y (two non-negative integers)", at);
    p++;
  }
  *x = v[0];
  *y = v[1];
  return 0;
}

static int sqz__life_steps(sqz_field *f, uint64_t steps, void *rule) { return sqz_life_step(f, rule, steps); }

/* 1 when path is a Golly pattern (.rle, .cells). */
static int sqz__life_pattern(const char *path) {
  return path && (sqz_cli_has_ext(path, ".rle") || sqz_cli_has_ext(path, ".cells"));
}

/* The --init file into e->f: a pattern at --at, a checkpoint (its rule into file_rule, its step count into
 * e->step0) or an image; with --clip the live cells off the domain are dropped, counted on stderr (unless quiet)
 * and in o->clipped. */
static int sqz__life_load(sqz_cli_exec *e, void *user) {
  sqz_life_opts *o = user;
  const char *init = o->s.init;
  if (o->clip) {
    int st = sqz_field_load_clipped(e->f, init, o->at_x, o->at_y, &o->clipped);
    if (st == SQZ_OK && !o->s.quiet && o->clipped)
      fprintf(stderr, "sqz life: %s: %llu live cell%s clipped (outside %s%s)\n", init, (unsigned long long)o->clipped,
              o->clipped == 1 ? "" : "s", sqz_domain_spec(e->dom),
              sqz_domain_get_kind(e->dom) == SQZ_DOMAIN_FRACTAL ? " or on its holes" : "");
    return st;
  }
  if (sqz_cli_has_ext(init, ".rle")) return sqz_field_load_rle(e->f, init, o->at_x, o->at_y);
  if (sqz_cli_has_ext(init, ".cells")) return sqz_field_load_cells(e->f, init, o->at_x, o->at_y);
  if (sqz_cli_has_ext(init, ".h5"))
    return sqz_field_load_h5(e->f, init, o->file_rule, sizeof o->file_rule, &e->step0);
  return sqz_cli_load_state(e->f, init, NULL, 0, NULL);
}

/* After the options: what they require of each other, and the --init sqz makes (e->gen) or reads. */
static int sqz__life_check(sqz_life_opts *o, sqz_cli_exec *e) {
  const char *init = o->s.init;
  if (o->s.steps == SQZ_CLI_UNSET) return sqz_cli_usage("life", "missing --steps K");
  if (o->s.png_size && !o->s.png && !o->s.frames) return sqz_cli_usage("life", "--png-size applies to --png or --frames");
  int rc = sqz_cli_every_check("life", &o->s.obs, o->s.frames, o->s.every);
  if (rc) return rc;
  if ((e->random = sqz_cli_gen_parse("life", init, 0, &e->gen)) == 2) return 2; /* 1: a state sqz makes, 0: a file */
  if (e->random && (e->gen.kind == SQZ_CLI_GEN_CONST || e->gen.kind == SQZ_CLI_GEN_POINT) && e->gen.value != 0.0 &&
      e->gen.value != 1.0)
    return sqz_cli_usage("life", "--init '%s': Life cells are 0 (dead) or 1 (alive)", init);
  o->pattern_init = !e->random && sqz__life_pattern(init);
  if (o->at && !o->pattern_init)
    return sqz_cli_usage("life", "--at %s places an .rle or .cells --init pattern, and --init is '%s'", o->at, init);
  if (o->clip && (e->random || sqz_cli_has_ext(init, ".h5")))
    return sqz_cli_usage("life", "--clip places a pattern or image --init (.rle, .cells, .npy, PBM), and --init is '%s'",
                         init);
  o->given_rule = o->s.rule;
  return o->at && sqz__parse_at(o->at, &o->at_x, &o->at_y) ? 2 : 0;
}

/* On the domain, before the field: patterns are 2D; an .rle --init's own rule (its header's, unless --rule); layout
 * bits holds no Generations rule. */
static int sqz__life_domain(sqz_life_opts *o, sqz_cli_exec *e) {
  int dims = sqz_domain_dims(e->dom);
  uint32_t states = 2;
  const char *rle_path = o->pattern_init ? o->s.init : sqz__life_pattern(o->s.out) ? o->s.out : NULL;
  if (rle_path && dims != 2)
    return sqz_cli_usage("life", "%s: %s patterns are 2D and %s is 3D", rle_path,
                         sqz_cli_has_ext(rle_path, ".rle") ? "RLE" : ".cells", sqz_domain_spec(e->dom));
  if (!e->random && sqz_cli_has_ext(o->s.init, ".rle") && !o->s.rule) {
    int st = sqz_rle_info(e->ctx, o->s.init, NULL, NULL, o->file_rule, sizeof o->file_rule);
    if (st != SQZ_OK) { /* an unreadable --init file is bad input */
      int rc = sqz_cli_fail("life", e->ctx, st);
      return st == SQZ_ERR_IO ? 2 : rc;
    }
  }
  const char *known = o->s.rule ? o->s.rule : o->file_rule; /* before a file's cells of 2.. meet one bit a cell */
  if (!*known || strcmp(o->s.layout, "bits") != 0 ||
      sqz_rule_parse_states(known, dims, NULL, NULL, &states, NULL, 0) != SQZ_OK || states <= 2)
    return 0;
  return sqz_cli_usage("life", "%s %s%s%s has %u states and --layout bits holds one bit a cell (0 or 1): a "
                       "Generations rule needs a layout of u8 cells", o->s.rule ? "--rule" : "rule", known,
                       o->s.rule ? "" : " of ", o->s.rule ? "" : o->s.init, states);
}

/* After the initial state: the rule that runs (--rule, the file's, or the dimension's default), the cells against
 * its states, an --out that holds them. */
static int sqz__life_rule(sqz_life_opts *o, sqz_cli_exec *e) {
  int dims = sqz_domain_dims(e->dom), from_file = !o->s.rule && *o->file_rule;
  uint32_t b, s, states = 2;
  char err[256];
  if (!o->s.rule) o->s.rule = from_file ? o->file_rule : dims == 3 ? "B6/S5,6,7" : "B3/S23";
  int rule_st = sqz_rule_parse_states(o->s.rule, dims, &b, &s, &states, err, sizeof err);
  /* a file's cells below the rule's states (2, 255, ... in a Life state: bad input, named before an unreadable
   * rule); bits holds no Generations rule */
  if (e->f && (!e->random || states > 2) &&
      (e->st = sqz_life_check_rule(e->f, rule_st == SQZ_OK ? o->s.rule : NULL)) != SQZ_OK)
    return e->random ? sqz_cli_fail("life", e->ctx, e->st)
                     : sqz_cli_error("life", e->st, "%s: %s", o->s.init, sqz_last_error(e->ctx));
  if (rule_st != SQZ_OK)
    return from_file ? sqz_cli_usage("life", "--init %s, the rule it records: %s", o->s.init, err)
                     : sqz_cli_usage("life", "--rule: %s", err);
  const char *out = o->s.out;
  if (states > 2 && out && !sqz_cli_has_ext(out, ".npy") && !sqz_cli_has_ext(out, ".rle") && !sqz_cli_has_ext(out, ".h5"))
    return sqz_cli_usage("life", "--out %s: rule %s has %u states, and %s holds two; write .npy, .rle or .h5", out,
                         o->s.rule, states, sqz_cli_has_ext(out, ".cells") ? ".cells" : "PBM"); /* PBM, .cells: two */
  return 0;
}

/* The steps, on ranks after every rank agreed on the options and the rule (a file's, read on rank 0). */
static int sqz__life_steps_run(sqz_life_opts *o, sqz_cli_exec *e) {
  char steps[24], size[24], parts[24];
  snprintf(steps, sizeof steps, "%llu", (unsigned long long)o->s.steps);
  snprintf(size, sizeof size, "%llu", (unsigned long long)o->s.png_size);
  snprintf(parts, sizeof parts, "%llu", (unsigned long long)o->s.parts.parts);
  const sqz_cli_kv kv[] = {{"DOMAIN", o->s.domain}, {"--layout", o->s.layout}, {"--steps", steps},
                           {"--rule", o->given_rule}, {"--init", o->s.init},  {"--at", o->at},
                           {"--clip", o->clip ? "on" : NULL}, {"--out", o->s.out}, {"--png", o->s.png},
                           {"--png-size", size},     {"--parts", parts}};
  if (e->ranks > 1) { /* rank 0's rule to every rank */
    snprintf(o->rule_buf, sizeof o->rule_buf, "%s", o->s.rule);
    o->s.rule = o->rule_buf;
  }
  int rc = sqz_cli_exec_agree(e, kv, sizeof kv / sizeof kv[0], o->rule_buf, sizeof o->rule_buf);
  if (rc) return rc;
  sqz_cli_mpi_job job = {.kind = SQZ_CLI_MPI_LIFE, .rule = o->s.rule};
  return sqz_cli_exec_steps(e, &job, sqz__life_steps, (void *)o->s.rule);
}

static void sqz__life_report(const sqz_life_opts *o, const sqz_cli_exec *e) {
  if (!o->s.json) {
    char what[SQZ_RLE_RULE_MAX + 8];
    snprintf(what, sizeof what, "rule %s", o->s.rule);
    sqz_cli_exec_text_head(e, what, "live");
    sqz_cli_exec_text_tail(e, 1);
    return;
  }
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_cli_exec_json_head(e, &j);
  sqz_json_str(&j, "rule", o->s.rule);
  sqz_cli_gen_json(&j, o->s.init, e->random ? &e->gen : NULL);
  if (o->clip) sqz_json_u64(&j, "clipped", o->clipped);
  sqz_cli_exec_json_counts(e, &j, "live");
  sqz_cli_exec_json_tail(e, &j);
  sqz_json_end(&j);
}

static int sqz__life_run(sqz_life_opts *o, sqz_cli_exec *e) {
  int rc = sqz_cli_exec_open(e);
  if (rc == 0) rc = sqz__life_domain(o, e);
  if (rc == 0) rc = sqz_cli_exec_field(e);
  if (rc == 0) rc = sqz_cli_exec_init(e, sqz__life_load, o);
  if (rc == 0) rc = sqz__life_rule(o, e);
  if (rc == 0) rc = sqz__life_steps_run(o, e);
  if (rc || !e->root) return rc;
  if ((rc = sqz_cli_exec_outputs(e, o->s.rule)) == 0) sqz__life_report(o, e);
  return rc;
}

int sqz_cmd_life(int argc, char **argv) {
  sqz_life_opts o = {.s = {.layout = "compact", .init = "random:0.5:1", .steps = SQZ_CLI_UNSET}};
  int rc = sqz_cli_parse(&sqz_life_cmd, argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  sqz_cli_exec e = {.cmd = "life", .o = &o.s, .type = SQZ_U8, .init = o.s.init, .gen = {.density = 0.5, .seed = 1}};
  if ((rc = sqz__life_check(&o, &e)) != 0) return rc;
  if ((rc = sqz_cli_exec_prepare(&e)) == 0) rc = sqz__life_run(&o, &e);
  return sqz_cli_exec_end(&e, rc);
}
