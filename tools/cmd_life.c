/* cmd_life.c — `sqz life`: runs a Life-like cellular automaton on any domain and layout. */
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_init.h"
#include "cli_mpi.h"
#include "cli_observe.h"
#include "cmds.h"
#include "sqz_hdf5.h"

static const char *sqz_life_help =
    "usage: sqz life DOMAIN --steps K [--rule R] [--layout L] [--map M] [--block RHO]\n"
    "                [--init random:DENSITY:SEED | const:V | point:Y,X | FILE.pbm|FILE.npy|FILE.h5 |\n"
    "                 FILE.rle|FILE.cells [--at X,Y]] [--clip] [--out FILE.pbm|FILE.npy|FILE.rle|FILE.cells|FILE.h5]\n"
    "                [--png FILE.png [--png-size S]]\n"
    "                [--frames DIR --every K] [--backend B] [--device D] [--parts P] [--devices LIST]\n"
    "                [--observe ITEM ... --every K --observe-out FILE.csv|FILE.jsonl]\n"
    "                [--timeout S] [--quiet] [--json]\n"
    "\n"
    "  DOMAIN     triangle:N, tetrahedron:N or fractal:NAME:R\n"
    "  --steps    number of generations (required, at most 2^62)\n"
    "  --rule     B<counts>/S<counts>, any case, '/' optional (b3s23), or Golly's S/B digits 23/3 (2D only);\n"
    "             3D counts comma-separated (B6/S5,6,7; a lone count of 10 or more as B14,); default\n"
    "             B3/S23 in 2D and B6/S5,6,7 in 3D, or the rule an .rle or .h5 --init records;\n"
    "             Golly's Generations with C states: B2/S/C3 or S/B/C /2/3 (Brian's Brain), 345/2/4 (Star\n"
    "             Wars): cells 0..C-1, 1 alive, 2.. dying (not layout bits)\n"
    "  --block    launch block side (0 = automatic, at most 1024)\n"
    "  --init     random:DENSITY:SEED (default random:0.5:1), const:V (V 0 or 1), point:Y,X (3D point:Z,Y,X:\n"
    "             one live cell), or a state of the embedding: FILE.npy (NumPy, dtype uint8, cells 0 and 1\n"
    "             or the rule's states 0..C-1,\n"
    "             shape (side, side) [y][x] or (N, N, N) [z][y][x]), FILE.rle or FILE.cells (Golly patterns,\n"
    "             2D), FILE.h5 (a checkpoint of sqz: its rule, unless --rule, and its step count carry on),\n"
    "             else PBM\n"
    "  --at       X,Y: where an .rle or .cells --init pattern's top-left goes in the embedding (default 0,0)\n"
    "  --clip     drop the live cells of a pattern or image --init that land outside the domain or on its\n"
    "             holes (counted on stderr and in --json as clipped) instead of refusing the file\n"
    "  --out      write the final state: FILE.npy as NumPy uint8, FILE.rle or FILE.cells (Golly, the live\n"
    "             cells' bounding box), FILE.h5 (an HDF5 checkpoint to resume from), else PBM (P4); --png\n"
    "             writes a picture, --png-size S pixels a side (down: a pixel per block of cells; up: whole\n"
    "             pixels per cell)\n"
    "  --frames   DIR: a PNG every --every K steps (frame_<step>.png, step 0 too), for an animation;\n"
    "             DIR is created when missing\n"
    "  --parts    store the field in P parts (buffers with halos; results identical to one buffer); a field\n"
    "             above the device's single-allocation limit is split automatically\n"
    "  --devices  LIST: the parts on several devices (comma-separated --device values, 0:0,0:1; SQZ_DEVICE=0,1\n"
    "             too), one context each, halos through the host\n"
    SQZ_CLI_OBSERVE_HELP
    "  --timeout  S seconds: then the run stops, exit 1, no output written or replaced\n"
    "  --quiet    no progress bar (shown on a terminal for runs over a second)\n"
    "  --json     print one JSON object instead of the text summary\n"
    "  --layout   storage, default compact:\n";


static void sqz__life_usage(void) {
  fputs(sqz_life_help, stdout);
  sqz_cli_help_layouts(stdout, "             ");
  puts("  --map      thread map of the domain's family and dimension; for fractals the tile lambda of the\n"
       "             backend (the layout is the method); default: the fastest for the domain and backend");
  sqz_cli_help_maps(stdout, "             ", 0, 0);
  puts("             (3D: ltm3 or had3, whichever suits N)");
}

typedef struct {
  const char *domain, *rule, *given_rule, *layout, *map, *init, *out, *png, *backend, *device, *at, *frames, *timeout;
  uint64_t steps, block, every, png_size;
  int have_steps, json, quiet, clip;
  sqz_cli_gen gen; /* a random, const or point --init */
  sqz_cli_parts parts;
  sqz_cli_obs obs;
} sqz_life_opts;

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

/* The options without a value: --json, --quiet, --clip; 1 when arg is one of them. */
static int sqz__life_flag(const char *arg, sqz_life_opts *o) {
  int *flag = strcmp(arg, "--json") == 0    ? &o->json
              : strcmp(arg, "--quiet") == 0 ? &o->quiet
              : strcmp(arg, "--clip") == 0  ? &o->clip
                                            : NULL;
  if (flag) *flag = 1;
  return flag != NULL;
}

static int sqz__life_args(int argc, char **argv, sqz_life_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int m;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      sqz__life_usage();
      return -1;
    }
#define SQZ_OPT(name, dst)                                                         \
  if ((m = sqz_cli_opt(argc, argv, &i, name, 1, &v)) != 0) {                       \
    if (m < 0) return sqz_cli_usage("life", "%s needs a value", name);             \
    dst = v;                                                                       \
    continue;                                                                      \
  }
    SQZ_OPT("--rule", o->rule)
    SQZ_OPT("--layout", o->layout)
    SQZ_OPT("--map", o->map)
    SQZ_OPT("--init", o->init)
    SQZ_OPT("--at", o->at)
    SQZ_OPT("--out", o->out)
    SQZ_OPT("--png", o->png)
    SQZ_OPT("--backend", o->backend)
    SQZ_OPT("--device", o->device)
    SQZ_OPT("--frames", o->frames)
    SQZ_OPT("--timeout", o->timeout)
#undef SQZ_OPT
    if ((m = sqz_cli_opt(argc, argv, &i, "--steps", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("life", "--steps needs a value");
      if (sqz_cli_u64_range("life", "--steps", v, 0, SQZ_CLI_STEPS_MAX, &o->steps)) return 2;
      o->have_steps = 1;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--block", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("life", "--block needs a value");
      if (sqz_cli_u64_range("life", "--block", v, 0, SQZ_CLI_BLOCK_MAX, &o->block)) return 2;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--every", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("life", "--every needs a value");
      if (sqz_cli_u64_range("life", "--every", v, 1, SQZ_CLI_STEPS_MAX, &o->every)) return 2;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--png-size", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage("life", "--png-size needs a value");
      if (sqz_cli_u64_range("life", "--png-size", v, 1, 1u << 30, &o->png_size)) return 2;
      continue;
    }
    if ((m = sqz_cli_parts_opt("life", argc, argv, &i, &o->parts)) != 0) {
      if (m == 2) return 2;
      continue;
    }
    if ((m = sqz_cli_observe_opt("life", argc, argv, &i, &o->obs)) != 0) {
      if (m == 2) return 2;
      continue;
    }
    if (sqz__life_flag(argv[i], o)) continue;
    if (argv[i][0] == '-') return sqz_cli_usage("life", "unknown option '%s'", argv[i]);
    if (o->domain) return sqz_cli_usage("life", "unexpected argument '%s' (domain already given: %s)", argv[i], o->domain);
    o->domain = argv[i];
  }
  if (!o->domain) return sqz_cli_usage("life", "missing DOMAIN (e.g. triangle:1024 or fractal:sierpinski-triangle:10)");
  if (!o->have_steps) return sqz_cli_usage("life", "missing --steps K");
  if (o->png_size && !o->png && !o->frames) return sqz_cli_usage("life", "--png-size applies to --png or --frames");
  return sqz_cli_every_check("life", &o->obs, o->frames, o->every);
}

static int sqz__life_steps(sqz_field *f, uint64_t steps, void *rule) { return sqz_life_step(f, rule, steps); }

/* 1 when path is a Golly pattern (.rle, .cells). */
static int sqz__life_pattern(const char *path) {
  return path && (sqz_cli_has_ext(path, ".rle") || sqz_cli_has_ext(path, ".cells"));
}

/* The --init file into f: a pattern at (at_x, at_y), a checkpoint (its rule into file_rule, its step
 * count into *step0) or an image; with --clip the live cells off the domain are dropped, counted on
 * stderr (unless quiet) and in *clipped. */
static int sqz__life_load(sqz_field *f, const sqz_life_opts *o, int64_t at_x, int64_t at_y, char *file_rule,
                          size_t rule_len, uint64_t *step0, uint64_t *clipped) {
  if (o->clip) {
    int st = sqz_field_load_clipped(f, o->init, at_x, at_y, clipped);
    const sqz_domain *dom = sqz_field_domain(f);
    if (st == SQZ_OK && !o->quiet && *clipped)
      fprintf(stderr, "sqz life: %s: %llu live cell%s clipped (outside %s%s)\n", o->init, (unsigned long long)*clipped,
              *clipped == 1 ? "" : "s", sqz_domain_spec(dom),
              sqz_domain_get_kind(dom) == SQZ_DOMAIN_FRACTAL ? " or on its holes" : "");
    return st;
  }
  if (sqz_cli_has_ext(o->init, ".rle")) return sqz_field_load_rle(f, o->init, at_x, at_y);
  if (sqz_cli_has_ext(o->init, ".cells")) return sqz_field_load_cells(f, o->init, at_x, at_y);
  if (sqz_cli_has_ext(o->init, ".h5")) return sqz_field_load_h5(f, o->init, file_rule, rule_len, step0);
  return sqz_cli_load_state(f, o->init, NULL, 0, NULL);
}

/* What the ranks of a run must agree on (sqz_cli_mpi_config): the options as given, --rule before a file's. */
static void sqz__life_config(const sqz_life_opts *o) {
  char steps[24], size[24], parts[24];
  snprintf(steps, sizeof steps, "%llu", (unsigned long long)o->steps);
  snprintf(size, sizeof size, "%llu", (unsigned long long)o->png_size);
  snprintf(parts, sizeof parts, "%llu", (unsigned long long)o->parts.parts);
  const sqz_cli_kv kv[] = {{"DOMAIN", o->domain}, {"--layout", o->layout}, {"--steps", steps}, {"--rule", o->given_rule},
                           {"--init", o->init},   {"--at", o->at},         {"--clip", o->clip ? "on" : NULL},
                           {"--out", o->out},     {"--png", o->png},       {"--png-size", size}, {"--parts", parts}};
  sqz_cli_mpi_config("life", kv, sizeof kv / sizeof kv[0]);
}

int sqz_cmd_life(int argc, char **argv) {
  sqz_life_opts o = {.layout = "compact", .init = "random:0.5:1", .gen = {.density = 0.5, .seed = 1}};
  int rc = sqz__life_args(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  if ((rc = sqz_cli_timeout("life", o.timeout)) != 0) return rc;
  o.given_rule = o.rule;
  int random = sqz_cli_gen_parse("life", o.init, 0, &o.gen); /* 1: a state sqz makes, 0: a file */
  if (random == 2) return 2;
  if (random && (o.gen.kind == SQZ_CLI_GEN_CONST || o.gen.kind == SQZ_CLI_GEN_POINT) && o.gen.value != 0.0 &&
      o.gen.value != 1.0)
    return sqz_cli_usage("life", "--init '%s': Life cells are 0 (dead) or 1 (alive)", o.init);
  int rle_init = !random && sqz_cli_has_ext(o.init, ".rle"), pattern_init = !random && sqz__life_pattern(o.init);
  int64_t at_x = 0, at_y = 0;
  if (o.at && !pattern_init)
    return sqz_cli_usage("life", "--at %s places an .rle or .cells --init pattern, and --init is '%s'", o.at, o.init);
  if (o.clip && (random || sqz_cli_has_ext(o.init, ".h5")))
    return sqz_cli_usage("life", "--clip places a pattern or image --init (.rle, .cells, .npy, PBM), and --init is '%s'",
                         o.init);
  if (o.at && sqz__parse_at(o.at, &at_x, &at_y)) return 2;
  int ranks = sqz_cli_mpi_ranks(), root = sqz_cli_mpi_rank() == 0; /* mpirun: parts on the ranks, files on rank 0 */
  if (ranks > 1 && (rc = sqz_cli_mpi_options("life", o.parts.parts, o.map, o.block, o.frames)) != 0) return rc;
  const sqz_cli_path outs[] = {{"--out", o.out}, {"--png", o.png}, {"--observe-out", o.obs.out}}; /* before the steps */
  if (root && (rc = sqz_cli_outputs_check("life", outs, 3)) != 0) return rc;

  double t0 = sqz_cli_clock();
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL, *mf = NULL; /* mf: the field on the ranks (mpirun) */
  char *ranks_json = NULL, rule_buf[SQZ_RLE_RULE_MAX];
  if (ranks > 1) /* one device per rank: --device or --devices LIST picked by node-local rank */
    rc = sqz_cli_mpi_open("life", o.backend, o.parts.devices ? o.parts.devices : o.device, &ctx);
  else
    rc = sqz_cli_parts_open("life", &o.parts, o.backend, o.device, &ctx);
  if (rc != 0) goto done;
  int st = sqz_domain_parse(ctx, o.domain, &dom);
  if (st == SQZ_OK && random && (rc = sqz_cli_gen_check("life", o.init, &o.gen, sqz_domain_dims(dom))) != 0) goto done;
  if (st == SQZ_OK && (rc = sqz_cli_observe_begin("life", ctx, &o.obs, dom, o.layout, root)) != 0) goto done;
  uint32_t b, s, states = 2;
  char err[256], file_rule[SQZ_RLE_RULE_MAX] = "";
  const char *rle_path = pattern_init ? o.init : sqz__life_pattern(o.out) ? o.out : NULL;
  if (st == SQZ_OK && rle_path && sqz_domain_dims(dom) != 2) {
    rc = sqz_cli_usage("life", "%s: %s patterns are 2D and %s is 3D", rle_path,
                       sqz_cli_has_ext(rle_path, ".rle") ? "RLE" : ".cells", sqz_domain_spec(dom));
    goto done;
  }
  if (st == SQZ_OK && rle_init && !o.rule) { /* no --rule: the pattern's own rule, if its header has one */
    int fst = sqz_rle_info(ctx, o.init, NULL, NULL, file_rule, sizeof file_rule);
    if (fst != SQZ_OK) {
      rc = sqz_cli_fail("life", ctx, fst);
      if (fst == SQZ_ERR_IO) rc = 2; /* an unreadable --init file is bad input */
      goto done;
    }
  }
  const char *known = o.rule ? o.rule : file_rule; /* before a file's cells of 2.. meet one bit a cell */
  if (st == SQZ_OK && *known && strcmp(o.layout, "bits") == 0 &&
      sqz_rule_parse_states(known, sqz_domain_dims(dom), NULL, NULL, &states, NULL, 0) == SQZ_OK && states > 2) {
    rc = sqz_cli_usage("life", "%s %s%s%s has %u states and --layout bits holds one bit a cell (0 or 1): a "
                       "Generations rule needs a layout of u8 cells", o.rule ? "--rule" : "rule", known,
                       o.rule ? "" : " of ", o.rule ? "" : o.init, states);
    goto done;
  }
  /* on ranks, rank 0's field holds the state for files only: random states are made on the parts */
  int whole = ranks == 1 || (root && (!random || o.out || o.png));
  if (st == SQZ_OK && whole) st = sqz_cli_parts_field(&o.parts, dom, SQZ_U8, o.layout, &f);
  if (st == SQZ_OK && o.map) st = sqz_field_set_map(f, o.map);
  if (st == SQZ_OK && o.block) st = sqz_field_set_block(f, (uint32_t)o.block);
  uint64_t step0 = 0, clipped = 0; /* the step count a checkpoint --init carries; the cells --clip dropped */
  if (st == SQZ_OK && f && (ranks == 1 || !random)) {
    if (random) st = sqz_cli_gen_apply(f, &o.gen);
    else st = sqz__life_load(f, &o, at_x, at_y, file_rule, sizeof file_rule, &step0, &clipped);
  }
  if (st == (random ? SQZ_ERR_INVALID_ARGUMENT : SQZ_ERR_IO)) { /* an unreadable file, a point off the domain: bad input */
    sqz_cli_fail("life", ctx, st);
    rc = 2;
    goto done;
  }
  if (st == SQZ_OK && (rc = sqz_cli_step_count("life", o.init, step0, o.steps)) != 0) goto done;
  int rule_from_file = !o.rule && *file_rule;
  if (!o.rule) o.rule = rule_from_file ? file_rule : dom && sqz_domain_dims(dom) == 3 ? "B6/S5,6,7" : "B3/S23";
  int rule_st = st == SQZ_OK ? sqz_rule_parse_states(o.rule, sqz_domain_dims(dom), &b, &s, &states, err, sizeof err)
                             : SQZ_OK;
  /* a file's cells below the rule's states (2, 255, ... in a Life state: bad input, named before an unreadable
   * rule); bits holds no Generations rule */
  if (st == SQZ_OK && f && (!random || states > 2) &&
      (st = sqz_life_check_rule(f, rule_st == SQZ_OK ? o.rule : NULL)) != SQZ_OK) {
    rc = random ? sqz_cli_fail("life", ctx, st) : sqz_cli_error("life", st, "%s: %s", o.init, sqz_last_error(ctx));
    goto done;
  }
  if (st == SQZ_OK && rule_st != SQZ_OK) {
    rc = rule_from_file ? sqz_cli_usage("life", "--init %s, the rule it records: %s", o.init, err)
                        : sqz_cli_usage("life", "--rule: %s", err);
    goto done;
  }
  if (st == SQZ_OK && states > 2 && o.out && !sqz_cli_has_ext(o.out, ".npy") && !sqz_cli_has_ext(o.out, ".rle") &&
      !sqz_cli_has_ext(o.out, ".h5")) { /* PBM and .cells hold two states */
    rc = sqz_cli_usage("life", "--out %s: rule %s has %u states, and %s holds two; write .npy, .rle or .h5", o.out,
                       o.rule, states, sqz_cli_has_ext(o.out, ".cells") ? ".cells" : "PBM");
    goto done;
  }
  double kernel_s = 0, wall_s = 0;
  if (ranks > 1) sqz__life_config(&o);
  if (ranks > 1) { /* every rank learns rank 0's outcome so far and the rule (a file's, read there) */
    if (st != SQZ_OK) rc = sqz_cli_fail("life", ctx, st);
    snprintf(rule_buf, sizeof rule_buf, "%s", o.rule);
    if ((rc = sqz_cli_mpi_agree(SQZ_CLI_MPI_BEGIN, rc, rule_buf, sizeof rule_buf)) != 0) goto done;
    o.rule = rule_buf;
  }
  sqz_cli_progress_start(ctx, "life", o.quiet || o.json);
  sqz_cli_mpi_job job = {.rule = o.rule, .gen = random ? &o.gen : NULL,
                         .gather = o.out || o.png, .parts = o.parts.parts, .obs = &o.obs, .every = o.every};
#ifdef SQZ_HAVE_MPI
  if (st == SQZ_OK && ranks > 1) {
    st = sqz_cli_mpi_run(ctx, dom, SQZ_U8, o.layout, f, &job, o.steps, &mf);
    kernel_s = job.kernel_s;
    wall_s = job.wall_s;
    ranks_json = job.ranks_json;
  } else
#endif
  if (st == SQZ_OK && (st = sqz_cli_observe_start(&o.obs, ctx, f, step0, o.every)) == SQZ_OK)
    st = sqz_cli_steps(ctx, f, o.steps, sqz__life_steps, (void *)o.rule, o.frames, o.every, o.png_size, &kernel_s,
                       &wall_s);
  if (!root) goto done;
  uint64_t live = 0;
  if (st == SQZ_OK && mf) live = job.nonzero;
  else if (st == SQZ_OK) st = sqz_field_count(f, &live);
  sqz_field *shown = mf ? mf : f; /* layout, map and bytes (on ranks: rank 0's part) */
  const char *out_tmp = NULL, *png_tmp = NULL; /* every output to a temporary, renamed together at the end */
  if (st == SQZ_OK && ((o.out && (rc = sqz_cli_output("life", o.out, &out_tmp, NULL)) != 0) ||
                       (o.png && (rc = sqz_cli_output("life", o.png, &png_tmp, NULL)) != 0)))
    goto done;
  if (st == SQZ_OK && o.out) st = sqz_cli_save_state(f, o.out, out_tmp, o.rule, step0 + o.steps);
  if (st == SQZ_OK && o.png) st = sqz_field_save_png_sized(f, png_tmp, o.png_size);
  if (st == SQZ_OK && (rc = sqz_cli_commit("life")) != 0) goto done;
  if (st != SQZ_OK) {
    rc = sqz_cli_fail("life", ctx, st);
    goto done;
  }
  double total_s = sqz_cli_clock() - t0;
  uint64_t cells = sqz_domain_cells(dom);
  double rate = kernel_s > 0 ? (double)cells * (double)o.steps / kernel_s : 0.0;
  if (o.json) {
    sqz_json j;
    sqz_json_begin(&j, stdout);
    sqz_json_str(&j, "domain", sqz_domain_spec(dom));
    sqz_json_str(&j, "layout", sqz_field_layout(shown));
    sqz_json_str(&j, "map", sqz_field_map_resolved(shown));
    sqz_json_str(&j, "rule", o.rule);
    sqz_cli_gen_json(&j, o.init, random ? &o.gen : NULL);
    if (o.clip) sqz_json_u64(&j, "clipped", clipped);
    sqz_json_u64(&j, "cells", cells);
    sqz_json_u64(&j, "steps", o.steps);
    sqz_json_u64(&j, "live", live);
    sqz_json_num(&j, "kernel_s", kernel_s);
    sqz_json_num(&j, "wall_s", wall_s);
    sqz_json_num(&j, "total_s", total_s);
    sqz_json_num(&j, "setup_s", total_s - wall_s);
    sqz_json_num(&j, "cells_per_s", rate);
    sqz_json_u64(&j, "bytes", sqz_field_bytes(shown));
    sqz_cli_parts_json(&j, shown, &o.parts);
    sqz_json_str(&j, "backend", sqz_context_backend(ctx));
    sqz_json_str(&j, "device", sqz_context_device_name(ctx));
    sqz_cli_engine_json(&j, shown);
    if (ranks_json) {
      sqz_json_u64(&j, "mpi_ranks", (uint64_t)ranks);
      sqz_json_raw(&j, "ranks", ranks_json);
    }
    sqz_json_end(&j);
  } else {
    printf("domain   %s (%llu cells)\nlayout   %s, map %s, rule %s\n", sqz_domain_spec(dom), (unsigned long long)cells,
           sqz_field_layout(shown), *sqz_field_map(shown) ? sqz_field_map(shown) : "default", o.rule);
    printf("steps    %llu\nlive     %llu\n", (unsigned long long)o.steps, (unsigned long long)live);
    printf("kernel   %.6f s (%.3g cells/s)\nwall     %.6f s for the steps, %.6f s in all\n", kernel_s, rate, wall_s,
           total_s);
    printf("memory   %llu bytes\ndevice   %s (%s)\n", (unsigned long long)sqz_field_bytes(shown), sqz_context_device_name(ctx),
           sqz_context_backend(ctx));
    sqz_cli_engine_print(shown);
    sqz_cli_parts_print(mf ? mf : shown, &o.parts, mf ? ranks : 0);
  }
  rc = 0;
done:
  if (rc == 0 && st != SQZ_OK) rc = sqz_cli_fail("life", ctx, st);
  rc = sqz_cli_mpi_agree(SQZ_CLI_MPI_END, rc, NULL, 0);
  free(ranks_json);
  sqz_cli_outputs_abort();
  sqz_field_release(mf);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  sqz_cli_parts_close(&o.parts);
  return rc;
}
