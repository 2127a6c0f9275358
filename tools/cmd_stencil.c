/* cmd_stencil.c — `sqz run` (a user stencil from an OpenCL C file) and `sqz heat` (built-in diffusion): one option table and one pipeline. */
#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_init.h"
#include "cli_mpi.h"
#include "cli_observe.h"
#include "cmds.h"

static const char *sqz_run_help =
    "usage: sqz run DOMAIN --kernel FILE.cl --type u8|i32|f32|f64 --steps K [--param v1,v2,...]\n"
    "               [--init random:DENSITY:SEED | const:V | point:Y,X[:V] | FILE.npy|FILE.h5] [--out FILE.npy|FILE.h5]\n"
    "               [--layout L]\n"
    "               [--map M] [--png FILE.png [--png-size S]] [--frames DIR --every K] [--quiet]\n"
    "               [--observe ITEM ... --every K --observe-out FILE.csv|FILE.jsonl]\n"
    "               [--block RHO] [--backend B] [--device D] [--parts P] [--devices LIST] [--timeout S] [--json]\n"
    "\n"
    "Runs your cell update on every cell of DOMAIN, K times. FILE.cl defines\n"
    "  sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                        __constant const sqz_param_t *param);\n"
    "sqz_cell_t is the --type; sqz_param_t is double for f64, float otherwise; SQZ_NB is 8 (2D) or 26 (3D)\n"
    "and SQZ_DIMS 2 or 3. nb holds the Moore neighbours in raster order of their offsets, centre skipped\n"
    "(2D (dy,dx) = (-1,-1),(-1,0),(-1,1),(0,-1),(0,1),(1,-1),(1,0),(1,1), y down); bit i of present is 1\n"
    "when neighbour i is a domain cell, absent ones read 0. --param values arrive in param[0..].\n"
    "  --init     random:DENSITY:SEED (cells 1 with that probability; default random:0.5:1), const:V (every cell\n"
    "             V), point:Y,X[:V] (3D point:Z,Y,X[:V]: one cell V, default 1, the others 0), a .npy state or\n"
    "             an .h5 checkpoint of sqz (--out FILE.h5 writes one: resume a long run bit for bit)\n"
    "  --out      the final state as .npy (shape (side, side) [y][x], tetrahedra (N, N, N) [z][y][x])\n"
    "  --backend  an OpenCL device (the cpu backend takes C updates through the API, sqz_stencil_step_fn)\n"
    "  --timeout  S seconds (a kernel that never ends): then the run stops, exit 1, no output written. A trial\n"
    "             step in a child process first: a kernel that crashes the OpenCL compiler or the device is exit 1\n"
    "  --parts    P parts (--devices LIST: on several devices), as for sqz life\n"
    SQZ_CLI_OBSERVE_HELP
    "  --layout   storage, default compact:\n";

static const char *sqz_heat_help =
    "usage: sqz heat DOMAIN --steps K [--alpha A] [--type f32|f64]\n"
    "                [--init random:SEED | const:V | point:Y,X[:V] | FILE.npy|FILE.h5]\n"
    "                [--out FILE.npy|FILE.h5] [--png FILE.png [--png-size S]] [--frames DIR --every K] [--quiet]\n"
    "                [--observe ITEM ... --every K --observe-out FILE.csv|FILE.jsonl]\n"
    "                [--layout L] [--map M] [--block RHO] [--backend B]\n"
    "                [--device D] [--parts P] [--devices LIST] [--timeout S] [--json]\n"
    "\n"
    "Explicit heat diffusion with insulated holes and borders: u' = u + A * sum over the face neighbours\n"
    "that are domain cells (2D: N, W, E, S; 3D: the 6 faces) of (u_n - u). The total heat is conserved.\n"
    "  --alpha    A, default 0.2 in 2D and 0.1 in 3D; at most 1/4 (2D) or 1/6 (3D), the stability limit\n"
    "  --type     f32 or f64 (default f64)\n"
    "  --init     random:SEED (uniform values in [0, 1), default random:1), const:V, point:Y,X[:V] (3D\n"
    "             point:Z,Y,X[:V]: a point source V, default 1, the others 0), a .npy state or an .h5 checkpoint\n"
    "  --frames   DIR: a PNG every --every K steps (frame_<step>.png, step 0 too; DIR made when missing);\n"
    "             --quiet: no progress bar; pictures map the values' range onto viridis\n"
    "  --parts    P parts (--devices LIST: on several devices), as for sqz life\n"
    SQZ_CLI_OBSERVE_HELP
    "  --timeout  S seconds: then the run stops, exit 1, no output written\n"
    "  --json     adds sum_initial and sum_final, with --png the range it maps (png_min, png_max), and\n"
    "             setup_s = total_s - wall_s (all but the steps)\n"
    "  --layout   storage, default compact:\n";

typedef struct {
  const char *cmd, *domain, *kernel, *type, *params, *init, *out, *png, *layout, *map, *backend, *device, *alpha,
      *frames, *timeout;
  uint64_t steps, block, every, png_size;
  int have_steps, json, quiet;
  sqz_cli_parts parts;
  sqz_cli_obs obs;
} sqz_stencil_opts;

/* The option table of both commands: name, where the value goes, which commands take it. */
enum { SQZ_RUN = 1, SQZ_HEAT = 2 };
typedef struct {
  const char *name;
  size_t offset; /* of the const char * in sqz_stencil_opts */
  int cmds;
} sqz_stencil_opt;
#define SQZ_SOPT(name, field, cmds) {name, offsetof(sqz_stencil_opts, field), cmds}
static const sqz_stencil_opt sqz_stencil_table[] = {
    SQZ_SOPT("--kernel", kernel, SQZ_RUN),         SQZ_SOPT("--type", type, SQZ_RUN | SQZ_HEAT),
    SQZ_SOPT("--param", params, SQZ_RUN),          SQZ_SOPT("--alpha", alpha, SQZ_HEAT),
    SQZ_SOPT("--init", init, SQZ_RUN | SQZ_HEAT),  SQZ_SOPT("--out", out, SQZ_RUN | SQZ_HEAT),
    SQZ_SOPT("--png", png, SQZ_RUN | SQZ_HEAT),   SQZ_SOPT("--frames", frames, SQZ_RUN | SQZ_HEAT),              SQZ_SOPT("--layout", layout, SQZ_RUN | SQZ_HEAT),
    SQZ_SOPT("--map", map, SQZ_RUN | SQZ_HEAT),    SQZ_SOPT("--backend", backend, SQZ_RUN | SQZ_HEAT),
    SQZ_SOPT("--device", device, SQZ_RUN | SQZ_HEAT),      SQZ_SOPT("--timeout", timeout, SQZ_RUN | SQZ_HEAT),
};

static int sqz__stencil_args(int argc, char **argv, int which, sqz_stencil_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int m = 0;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(which == SQZ_RUN ? sqz_run_help : sqz_heat_help, stdout);
      sqz_cli_help_layouts(stdout, "             ");
      puts("  --map      thread map of the domain's family and dimension (default: the fastest for the domain):");
      sqz_cli_help_maps(stdout, "             ", 0, 0);
      return -1;
    }
    size_t t = 0;
    for (; t < sizeof sqz_stencil_table / sizeof sqz_stencil_table[0]; t++)
      if ((sqz_stencil_table[t].cmds & which) && (m = sqz_cli_opt(argc, argv, &i, sqz_stencil_table[t].name, 1, &v)))
        break;
    if (m < 0) return sqz_cli_usage(o->cmd, "%s needs a value", argv[i]);
    if (m > 0) {
      *(const char **)((char *)o + sqz_stencil_table[t].offset) = v;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--steps", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage(o->cmd, "--steps needs a value");
      if (sqz_cli_u64_range(o->cmd, "--steps", v, 0, SQZ_CLI_STEPS_MAX, &o->steps)) return 2;
      o->have_steps = 1;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--block", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage(o->cmd, "--block needs a value");
      if (sqz_cli_u64_range(o->cmd, "--block", v, 0, SQZ_CLI_BLOCK_MAX, &o->block)) return 2;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--every", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage(o->cmd, "--every needs a value");
      if (sqz_cli_u64_range(o->cmd, "--every", v, 1, SQZ_CLI_STEPS_MAX, &o->every)) return 2;
      continue;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--png-size", 1, &v)) != 0) {
      if (m < 0) return sqz_cli_usage(o->cmd, "--png-size needs a value");
      if (sqz_cli_u64_range(o->cmd, "--png-size", v, 1, 1u << 30, &o->png_size)) return 2;
      continue;
    }
    if ((m = sqz_cli_parts_opt(o->cmd, argc, argv, &i, &o->parts)) != 0) {
      if (m == 2) return 2;
      continue;
    }
    if ((m = sqz_cli_observe_opt(o->cmd, argc, argv, &i, &o->obs)) != 0) {
      if (m == 2) return 2;
      continue;
    }
    if (strcmp(argv[i], "--json") == 0) { o->json = 1; continue; }
    if (strcmp(argv[i], "--quiet") == 0) { o->quiet = 1; continue; }
    if (argv[i][0] == '-') return sqz_cli_usage(o->cmd, "unknown option '%s'", argv[i]);
    if (o->domain) return sqz_cli_usage(o->cmd, "unexpected argument '%s' (domain already given: %s)", argv[i], o->domain);
    o->domain = argv[i];
  }
  if (!o->domain) return sqz_cli_usage(o->cmd, "missing DOMAIN (e.g. triangle:1024 or fractal:sierpinski-carpet:5)");
  if (!o->have_steps) return sqz_cli_usage(o->cmd, "missing --steps K");
  if (which == SQZ_RUN && !o->kernel) return sqz_cli_usage(o->cmd, "missing --kernel FILE.cl");
  if (which == SQZ_RUN && !o->type) return sqz_cli_usage(o->cmd, "missing --type u8|i32|f32|f64");
  if (o->png_size && !o->png && !o->frames) return sqz_cli_usage(o->cmd, "--png-size applies to --png or --frames");
  if (o->out && !sqz_cli_has_ext(o->out, ".npy") && !sqz_cli_has_ext(o->out, ".h5"))
    return sqz_cli_usage(o->cmd, "--out %s: expected a .npy state or an .h5 checkpoint", o->out);
  return sqz_cli_every_check(o->cmd, &o->obs, o->frames, o->every);
}

/* What one chunk of steps runs: heat with alpha, or the user's kernel with its parameters. */
typedef struct {
  int which;
  double alpha;
  const char *source, *name;
  const double *params;
  size_t n_params;
} sqz_stencil_job;

static int sqz__stencil_steps(sqz_field *f, uint64_t steps, void *user) {
  const sqz_stencil_job *j = user;
  return j->which == SQZ_HEAT ? sqz_heat_step(f, j->alpha, steps)
                              : sqz_stencil_step(f, j->source, j->name, j->params, j->n_params, steps);
}

/* The trial of the user's kernel (sqz_cli_trial): in the child, the command becomes one step of a made state
 * with no output; 0 there and where the trial passed, else the exit status. */
static int sqz__stencil_trial(sqz_stencil_opts *o, const char **init, int *random, sqz_cli_gen *gen) {
  if (sqz_cli_mpi_started()) return 0; /* no fork() beside MPI */
  int rc = sqz_cli_trial(o->cmd, o->kernel);
  if (rc >= 0) return rc;
  o->steps = 1;
  o->out = o->png = o->frames = NULL;
  o->every = o->png_size = 0;
  o->json = 0;
  o->quiet = 1;
  *init = "random:0.5:1";
  *random = sqz_cli_gen_parse(o->cmd, *init, 0, gen);
  return 0;
}

/* Heat from a finite state overflowed (the final state holds an infinity or a NaN): the first step after which it
 * did, replayed from the initial state (gen, else the file init) a step at a time; 0 when not found. */
static uint64_t sqz__heat_overflow_step(sqz_field *f, const char *init, const sqz_cli_gen *gen, double alpha,
                                        uint64_t steps) {
  int st = gen ? sqz_cli_gen_apply(f, gen) : sqz_cli_load_state(f, init, NULL, 0, NULL);
  double sum = 0;
  for (uint64_t k = 1; st == SQZ_OK && k <= steps; k++) {
    st = sqz_heat_step(f, alpha, 1);
    if (st == SQZ_OK && (st = sqz_cli_sum_ok(sqz_field_sum(f, SQZ_SUM_NEUMAIER, &sum), &sum)) == SQZ_ERR_NON_FINITE)
      return k;
  }
  return 0;
}

/* The message of heat that overflowed at step (0: within the run, on MPI ranks); exit status 1. */
static int sqz__heat_overflow(const sqz_stencil_opts *o, uint64_t step, sqz_type type) {
  char at[64];
  if (step) snprintf(at, sizeof at, "at step %llu", (unsigned long long)step);
  else snprintf(at, sizeof at, "within steps 1 .. %llu", (unsigned long long)o->steps);
  fprintf(stderr,
          "sqz heat: overflow %s of %llu: a value became infinite or NaN from a finite state (--init %s; %s holds "
          "magnitudes up to %g); nothing written\n",
          at, (unsigned long long)o->steps, o->init ? o->init : "random:1", type == SQZ_F32 ? "f32" : "f64",
          type == SQZ_F32 ? FLT_MAX : DBL_MAX);
  return 1;
}

/* What the ranks of a run must agree on (sqz_cli_mpi_config): the options as given and the kernel's text (its
 * 64-bit FNV-1a hash: one path may hold another file on another node). */
static void sqz__stencil_config(const sqz_stencil_opts *o, const char *source) {
  char steps[24], size[24], parts[24], hash[24];
  uint64_t h = 14695981039346656037ull;
  for (const char *p = source ? source : ""; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  snprintf(steps, sizeof steps, "%llu", (unsigned long long)o->steps);
  snprintf(size, sizeof size, "%llu", (unsigned long long)o->png_size);
  snprintf(parts, sizeof parts, "%llu", (unsigned long long)o->parts.parts);
  snprintf(hash, sizeof hash, "%016llx", (unsigned long long)h);
  const sqz_cli_kv kv[] = {{"DOMAIN", o->domain}, {"--layout", o->layout}, {"--type", o->type},
                           {"--steps", steps},    {"--init", o->init},     {"--alpha", o->alpha},
                           {"--kernel", o->kernel}, {"the --kernel text (hash)", source ? hash : NULL},
                           {"--param", o->params}, {"--out", o->out},     {"--png", o->png},
                           {"--png-size", size},  {"--parts", parts}};
  sqz_cli_mpi_config(o->cmd, kv, sizeof kv / sizeof kv[0]);
}

static int sqz__stencil(int argc, char **argv, int which) {
  sqz_stencil_opts o = {.cmd = which == SQZ_RUN ? "run" : "heat", .layout = "compact"};
  int rc = sqz__stencil_args(argc, argv, which, &o);
  if (rc) return rc < 0 ? 0 : rc;
  sqz_type type = SQZ_F64;
  double alpha = 0, *params = NULL;
  sqz_cli_gen gen = {.density = 0.5, .seed = 1};
  size_t n_params = 0;
  char *source = NULL;
  if (o.type && sqz_cli_parse_type(o.cmd, o.type, which == SQZ_HEAT, &type)) return 2;
  const char *init = o.init ? o.init : which == SQZ_HEAT ? "random:1" : "random:0.5:1";
  int random = sqz_cli_gen_parse(o.cmd, init, which == SQZ_HEAT, &gen); /* 1: a state sqz makes, 0: a file */
  if (random == 2) return 2;
  if (o.alpha && sqz_cli_double(o.cmd, "--alpha", o.alpha, -HUGE_VAL, HUGE_VAL, &alpha)) return 2;
  if ((rc = sqz_cli_timeout(o.cmd, o.timeout)) != 0) return rc;
  int ranks = sqz_cli_mpi_ranks(), root = sqz_cli_mpi_rank() == 0; /* mpirun: parts on the ranks, files on rank 0 */
  if (ranks > 1 && (rc = sqz_cli_mpi_options(o.cmd, o.parts.parts, o.map, o.block, o.frames)) != 0) return rc;
  const sqz_cli_path outs[] = {{"--out", o.out}, {"--png", o.png}, {"--observe-out", o.obs.out}}; /* before the steps */
  if (root && (rc = sqz_cli_outputs_check(o.cmd, outs, 3)) != 0) return rc;
  if (which == SQZ_RUN) {
    if (o.backend && strcmp(o.backend, "cpu") == 0)
      return sqz_cli_usage(o.cmd, "--backend cpu cannot run --kernel %s: the kernel is OpenCL C, which needs an OpenCL "
                                  "device (the cpu backend takes C updates through the API, sqz_stencil_step_fn)", o.kernel);
    if (sqz_cli_parse_params(o.cmd, o.params, &params, &n_params)) return 2;
    if ((rc = sqz_cli_read_kernel(o.cmd, "--kernel", o.kernel, &source)) != 0 ||
        (rc = sqz__stencil_trial(&o, &init, &random, &gen)) != 0) {
      free(params);
      free(source);
      return rc;
    }
  }

  double t0 = sqz_cli_clock(), kernel_s = 0, wall_s = 0, sum0 = 0, sum1 = 0;
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL, *mf = NULL; /* mf: the field on the ranks (mpirun) */
  uint64_t nonzero = 0;
  char *ranks_json = NULL;
  if (ranks > 1) /* one device per rank: --device or --devices LIST picked by node-local rank */
    rc = sqz_cli_mpi_open(o.cmd, o.backend, o.parts.devices ? o.parts.devices : o.device, &ctx);
  else
    rc = sqz_cli_parts_open(o.cmd, &o.parts, o.backend, o.device, &ctx);
  if (rc != 0) goto done;
  int st = sqz_domain_parse(ctx, o.domain, &dom);
  if (st == SQZ_OK && random && (rc = sqz_cli_gen_check(o.cmd, init, &gen, sqz_domain_dims(dom))) != 0) goto done;
  if (st == SQZ_OK && (rc = sqz_cli_observe_begin(o.cmd, ctx, &o.obs, dom, o.layout, root)) != 0) goto done;
  if (st == SQZ_OK && which == SQZ_HEAT) {
    double amax = sqz_heat_alpha_max(sqz_domain_dims(dom));
    if (!o.alpha) alpha = sqz_domain_dims(dom) == 2 ? 0.2 : 0.1;
    if (!(alpha > 0 && alpha <= amax)) {
      rc = sqz_cli_usage(o.cmd, "--alpha %s is outside (0, %g], the stability limit in %dD", o.alpha, amax,
                         sqz_domain_dims(dom));
      goto done;
    }
  }
  /* on ranks, rank 0's field holds the state for files only: random states are made on the parts */
  int whole = ranks == 1 || (root && (!random || o.out || o.png));
  if (st == SQZ_OK && whole) st = sqz_cli_parts_field(&o.parts, dom, type, o.layout, &f);
  if (st == SQZ_OK && o.map) st = sqz_field_set_map(f, o.map);
  if (st == SQZ_OK && o.block) st = sqz_field_set_block(f, (uint32_t)o.block);
  char workload[512] = "";
  uint64_t step0 = 0; /* the step count of a checkpoint --init */
  if (st == SQZ_OK && !random && !sqz_cli_has_ext(init, ".npy") && !sqz_cli_has_ext(init, ".h5")) {
    rc = sqz_cli_usage(o.cmd, "--init %s: expected random:..., const:V, point:..., a .npy state or an .h5 checkpoint", init);
    goto done;
  }
  if (st == SQZ_OK && f && (ranks == 1 || !random)) {
    if (!random) st = sqz_cli_load_state(f, init, workload, sizeof workload, &step0);
    else st = sqz_cli_gen_apply(f, &gen);
    if (st == (random ? SQZ_ERR_INVALID_ARGUMENT : SQZ_ERR_IO)) { /* an unreadable file, a point off the domain: bad input */
      sqz_cli_fail(o.cmd, ctx, st);
      rc = 2;
      goto done;
    }
  }
  if (st == SQZ_OK && (rc = sqz_cli_step_count(o.cmd, init, step0, o.steps)) != 0) goto done;
  if (st == SQZ_OK && ranks == 1 && which == SQZ_HEAT) st = sqz_cli_sum_ok(sqz_field_sum(f, SQZ_SUM_NEUMAIER, &sum0), &sum0);
  if (ranks > 1) sqz__stencil_config(&o, source);
  if (ranks > 1) { /* every rank learns rank 0's outcome so far */
    if (st != SQZ_OK) rc = sqz_cli_fail(o.cmd, ctx, st);
    if ((rc = sqz_cli_mpi_agree(SQZ_CLI_MPI_BEGIN, rc, NULL, 0)) != 0) goto done;
  }
  sqz_stencil_job job = {which, alpha, source, o.kernel, params, n_params};
  sqz_cli_progress_start(ctx, o.cmd, o.quiet || o.json);
#ifdef SQZ_HAVE_MPI
  sqz_cli_mpi_job mjob = {.kind = which == SQZ_HEAT ? SQZ_CLI_MPI_HEAT : SQZ_CLI_MPI_RUN, .alpha = alpha,
                          .source = source, .source_name = o.kernel, .params = params, .n_params = n_params,
                          .gen = random ? &gen : NULL, .gather = o.out || o.png,
                          .parts = o.parts.parts, .obs = &o.obs, .every = o.every};
  if (st == SQZ_OK && ranks > 1) {
    st = sqz_cli_mpi_run(ctx, dom, type, o.layout, f, &mjob, o.steps, &mf);
    kernel_s = mjob.kernel_s;
    wall_s = mjob.wall_s;
    ranks_json = mjob.ranks_json;
    nonzero = mjob.nonzero;
    sum0 = mjob.sum0;
    sum1 = mjob.sum1;
    if (root && mjob.overflowed) {
      rc = sqz__heat_overflow(&o, 0, type);
      goto done;
    }
  } else
#endif
  if (st == SQZ_OK && (st = sqz_cli_observe_start(&o.obs, ctx, f, step0, o.every)) == SQZ_OK)
    st = sqz_cli_steps(ctx, f, o.steps, sqz__stencil_steps, &job, o.frames, o.every, o.png_size, &kernel_s, &wall_s);
  if (!root) goto done;
  if (st == SQZ_OK && !mf && which == SQZ_HEAT) st = sqz_cli_sum_ok(sqz_field_sum(f, SQZ_SUM_NEUMAIER, &sum1), &sum1);
  if (st == SQZ_ERR_NON_FINITE && !mf && which == SQZ_HEAT) { /* the initial sum was finite: the steps overflowed */
    rc = sqz__heat_overflow(&o, sqz__heat_overflow_step(f, init, random ? &gen : NULL, alpha, o.steps), type);
    goto done;
  }
  if (st == SQZ_OK && !mf) st = sqz_field_count(f, &nonzero);
  sqz_field *shown = mf ? mf : f; /* layout, map and bytes (on ranks: rank 0's part) */
  const char *out_tmp = NULL, *png_tmp = NULL; /* every output to a temporary, renamed together at the end */
  if (st == SQZ_OK && ((o.out && (rc = sqz_cli_output(o.cmd, o.out, &out_tmp, NULL)) != 0) ||
                       (o.png && (rc = sqz_cli_output(o.cmd, o.png, &png_tmp, NULL)) != 0)))
    goto done;
  if (which == SQZ_HEAT) snprintf(workload, sizeof workload, "heat alpha %.17g", alpha);
  else snprintf(workload, sizeof workload, "kernel %s", o.kernel);
  if (st == SQZ_OK && o.out) st = sqz_cli_save_state(f, o.out, out_tmp, workload, step0 + o.steps);
  double png_min = 0, png_max = 0; /* the range the picture's colour map spans */
  if (st == SQZ_OK && o.png) st = sqz_field_save_png_range(f, png_tmp, o.png_size, &png_min, &png_max);
  if (st == SQZ_OK && (rc = sqz_cli_commit(o.cmd)) != 0) goto done;
  if (st != SQZ_OK) {
    rc = sqz_cli_fail(o.cmd, ctx, st);
    goto done;
  }
  uint64_t cells = sqz_domain_cells(dom);
  double rate = kernel_s > 0 ? (double)cells * (double)o.steps / kernel_s : 0.0, total_s = sqz_cli_clock() - t0;
  const char *map = *sqz_field_map(shown) ? sqz_field_map(shown) : "default";
  if (o.json) {
    sqz_json j;
    sqz_json_begin(&j, stdout);
    sqz_json_str(&j, "domain", sqz_domain_spec(dom));
    sqz_json_str(&j, "layout", sqz_field_layout(shown));
    sqz_json_str(&j, "map", sqz_field_map_resolved(shown));
    sqz_cli_gen_json(&j, init, random ? &gen : NULL);
    sqz_json_str(&j, "type", o.type ? o.type : "f64");
    if (which == SQZ_RUN) sqz_json_str(&j, "kernel", o.kernel);
    else sqz_json_num(&j, "alpha", alpha);
    sqz_json_u64(&j, "cells", cells);
    sqz_json_u64(&j, "steps", o.steps);
    sqz_json_u64(&j, "nonzero", nonzero);
    if (which == SQZ_HEAT) {
      sqz_json_num(&j, "sum_initial", sum0);
      sqz_json_num(&j, "sum_final", sum1);
    }
    if (o.png && type != SQZ_U8) {
      sqz_json_num(&j, "png_min", png_min);
      sqz_json_num(&j, "png_max", png_max);
    }
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
    printf("domain   %s (%llu cells)\nlayout   %s, map %s, type %s\n", sqz_domain_spec(dom), (unsigned long long)cells,
           sqz_field_layout(shown), map, o.type ? o.type : "f64");
    printf("steps    %llu\nnonzero  %llu\n", (unsigned long long)o.steps, (unsigned long long)nonzero);
    if (which == SQZ_HEAT) printf("heat     %.17g -> %.17g (alpha %g)\n", sum0, sum1, alpha);
    printf("kernel   %.6f s (%.3g cells/s)\nwall     %.6f s for the steps, %.6f s in all\ndevice   %s (%s)\n", kernel_s,
           rate, wall_s, total_s, sqz_context_device_name(ctx), sqz_context_backend(ctx));
    sqz_cli_engine_print(shown);
    sqz_cli_parts_print(mf ? mf : shown, &o.parts, mf ? ranks : 0);
  }
done:
  if (rc == 0 && !root && st != SQZ_OK) rc = sqz_cli_fail(o.cmd, ctx, st);
  rc = sqz_cli_mpi_agree(SQZ_CLI_MPI_END, rc, NULL, 0);
  free(ranks_json);
  sqz_cli_outputs_abort();
  sqz_field_release(mf);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  sqz_cli_parts_close(&o.parts);
  free(source);
  free(params);
  return rc;
}

int sqz_cmd_run(int argc, char **argv) { return sqz__stencil(argc, argv, SQZ_RUN); }
int sqz_cmd_heat(int argc, char **argv) { return sqz__stencil(argc, argv, SQZ_HEAT); }
