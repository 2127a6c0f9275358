/* cmd_stencil.c — `sqz run` (a user stencil from an OpenCL C file) and `sqz heat` (built-in diffusion): their option tables and one pipeline. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_exec.h"
#include "cmds.h"

enum { SQZ_RUN = 1, SQZ_HEAT = 2 };
typedef struct {
  sqz_cli_set s;
  const char *kernel, *type, *params, *alpha;
  /* derived */
  int which;
  double alpha_v, sum0, sum1; /* heat: alpha, the sums before and after */
  double *pv;                 /* run: the --param values and the kernel's text */
  size_t n_params;
  char *source;
} sqz_stencil_opts;

#define SQZ_SOPT(name, arg, field, parse, help) {name, arg, help, parse, offsetof(sqz_stencil_opts, field), 0, 0}
static const sqz_cli_optdef sqz_run_kernel = SQZ_SOPT(
    "--kernel", "FILE.cl", kernel, sqz_cli_p_text, "the cell update in OpenCL C (above; at most 16 MiB; required)");
static const sqz_cli_optdef sqz_run_type =
    SQZ_SOPT("--type", "T", type, sqz_cli_p_text, "the cell type: u8, i32, f32 or f64 (required)");
static const sqz_cli_optdef sqz_run_param =
    SQZ_SOPT("--param", "V1,V2,...", params, sqz_cli_p_text, "finite numbers for param[0..] (comma-separated)");
/* --init of run and heat: what random: makes, then the states both take. */
#define SQZ_STENCIL_INIT(random)                                                                                     \
  SQZ_CLI_TEXT("--init", "STATE", init,                                                                              \
               random ", const:V\n(every cell V), point:Y,X[:V] (3D point:Z,Y,X[:V]: one cell V, default 1, the "   \
                      "others 0),\na .npy state or an .h5 checkpoint of sqz (--out FILE.h5 writes one: resume a "    \
                      "long run bit\nfor bit)")
static const sqz_cli_optdef sqz_run_init =
    SQZ_STENCIL_INIT("random:DENSITY:SEED (cells 1 with that probability; default random:0.5:1)");
static const sqz_cli_optdef sqz_run_backend = SQZ_CLI_TEXT(
    "--backend", "B", backend, "opencl (the kernel is OpenCL C; the cpu backend takes C updates through the API,\n"
                               "sqz_stencil_step_fn)");
static const sqz_cli_optdef sqz_heat_alpha =
    SQZ_SOPT("--alpha", "A", alpha, sqz_cli_p_number_text,
             "the diffusion coefficient, default 0.2 in 2D and 0.1 in 3D; at most 1/4 (2D) or 1/6 (3D),\n"
             "the stability limit");
static const sqz_cli_optdef sqz_heat_type =
    SQZ_SOPT("--type", "T", type, sqz_cli_p_text, "the cell type: f32 or f64 (default f64)");
static const sqz_cli_optdef sqz_heat_init =
    SQZ_STENCIL_INIT("random:SEED (uniform values in [0, 1); default random:1)");
static const sqz_cli_optdef sqz_stencil_out = SQZ_CLI_TEXT(
    "--out", "FILE", out, "the final state: FILE.npy (shape (side, side) [y][x], tetrahedra (N, N, N) [z][y][x])\n"
                          "or FILE.h5 (an HDF5 checkpoint)");
#define SQZ_STENCIL_SHARED                                                                                           \
  &sqz_stencil_out, &sqz_cli_opt_png, &sqz_cli_opt_png_size, &sqz_cli_opt_frames, &sqz_cli_opt_every,               \
      &sqz_cli_opt_observe, &sqz_cli_opt_observe_out, &sqz_cli_opt_layout, &sqz_cli_opt_map, &sqz_cli_opt_block
static const sqz_cli_optdef *const sqz_run_opts[] = {
    &sqz_run_kernel,     &sqz_run_type,       &sqz_cli_opt_steps,   &sqz_run_param,       &sqz_run_init,
    SQZ_STENCIL_SHARED,  &sqz_run_backend,    &sqz_cli_opt_device,  &sqz_cli_opt_parts,   &sqz_cli_opt_devices,
    &sqz_cli_opt_timeout, &sqz_cli_opt_quiet, &sqz_cli_opt_json,    &sqz_cli_opt_option,  NULL};
static const sqz_cli_optdef *const sqz_heat_opts[] = {
    &sqz_cli_opt_steps,   &sqz_heat_alpha,     &sqz_heat_type,      &sqz_heat_init,       SQZ_STENCIL_SHARED,
    &sqz_cli_opt_backend, &sqz_cli_opt_device, &sqz_cli_opt_parts,  &sqz_cli_opt_devices, &sqz_cli_opt_timeout,
    &sqz_cli_opt_quiet,   &sqz_cli_opt_json,   &sqz_cli_opt_option, NULL};

/* The layouts and maps of the OpenCL and cpu steps of any update: layout bits holds Life only. */
#define SQZ_STENCIL_LISTS {"--layout", 0, "bits"}, {"--map", 0, 0, "opencl", 0}
static const sqz_cli_cmd sqz_run_cmd = {
    "run", "DOMAIN --kernel FILE.cl --type T --steps K [options]",
    "Runs your cell update on every cell of DOMAIN, K times. FILE.cl defines\n"
    "  sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                        __constant const sqz_param_t *param);\n"
    "sqz_cell_t is the --type; sqz_param_t is double for f64, float otherwise; SQZ_NB is 8 (2D) or 26 (3D)\n"
    "and SQZ_DIMS 2 or 3. nb holds the Moore neighbours in raster order of their offsets, centre skipped\n"
    "(2D (dy,dx) = (-1,-1),(-1,0),(-1,1),(0,-1),(0,1),(1,-1),(1,0),(1,1), y down); bit i of present is 1\n"
    "when neighbour i is a domain cell, absent ones read 0. --param values arrive in param[0..]. A trial\n"
    "step in a child process comes first: a kernel that crashes the OpenCL compiler or the device is exit 1.\n",
    sqz_run_opts, 1, SQZ_STENCIL_LISTS};
static const sqz_cli_cmd sqz_heat_cmd = {
    "heat", "DOMAIN --steps K [options]",
    "Explicit heat diffusion with insulated holes and borders: u' = u + A * sum over the face neighbours\n"
    "that are domain cells (2D: N, W, E, S; 3D: the 6 faces) of (u_n - u). The total heat is conserved:\n"
    "--json gives sum_initial and sum_final, with --png the range its colours map (png_min, png_max).\n",
    sqz_heat_opts, 1, SQZ_STENCIL_LISTS};

/* What one chunk of steps runs: heat with alpha, or the user's kernel with its parameters. */
static int sqz__stencil_steps(sqz_field *f, uint64_t steps, void *user) {
  const sqz_stencil_opts *o = user;
  return o->which == SQZ_HEAT ? sqz_heat_step(f, o->alpha_v, steps)
                              : sqz_stencil_step(f, o->source, o->kernel, o->pv, o->n_params, steps);
}

/* After the options: what they require of each other, the type, the --init sqz makes (e->gen) or reads. */
static int sqz__stencil_check(sqz_stencil_opts *o, sqz_cli_exec *e) {
  const char *cmd = e->cmd, *out = o->s.out;
  if (o->s.steps == SQZ_CLI_UNSET) return sqz_cli_usage(cmd, "missing --steps K");
  if (o->which == SQZ_RUN && !o->kernel) return sqz_cli_usage(cmd, "missing --kernel FILE.cl");
  if (o->which == SQZ_RUN && !o->type) return sqz_cli_usage(cmd, "missing --type u8|i32|f32|f64");
  if (o->s.png_size && !o->s.png && !o->s.frames) return sqz_cli_usage(cmd, "--png-size applies to --png or --frames");
  if (out && !sqz_cli_has_ext(out, ".npy") && !sqz_cli_has_ext(out, ".h5"))
    return sqz_cli_usage(cmd, "--out %s: expected a .npy state or an .h5 checkpoint", out);
  int rc = sqz_cli_every_check(cmd, &o->s.obs, o->s.frames, o->s.every);
  if (rc == 0 && o->type && sqz_cli_parse_type(cmd, o->type, o->which == SQZ_HEAT, &e->type)) rc = 2;
  if (rc) return rc;
  e->init = o->s.init ? o->s.init : o->which == SQZ_HEAT ? "random:1" : "random:0.5:1";
  e->random = sqz_cli_gen_parse(cmd, e->init, o->which == SQZ_HEAT, &e->gen); /* 1: a state sqz makes, 0: a file */
  if (o->alpha) o->alpha_v = strtod(o->alpha, NULL); /* a finite number (sqz_cli_p_number_text) */
  return e->random == 2 ? 2 : 0;
}

/* sqz run before the device: the kernel's backend, its parameters and text, then its trial (sqz_cli_trial): in the
 * child, the command becomes one step of a made state with no output. */
static int sqz__run_kernel(sqz_stencil_opts *o, sqz_cli_exec *e) {
  if (o->s.backend && strcmp(o->s.backend, "cpu") == 0)
    return sqz_cli_usage("run", "--backend cpu cannot run --kernel %s: the kernel is OpenCL C, which needs an OpenCL "
                                "device (the cpu backend takes C updates through the API, sqz_stencil_step_fn)", o->kernel);
  if (sqz_cli_parse_params("run", o->params, &o->pv, &o->n_params)) return 2;
  int rc = sqz_cli_read_kernel("run", "--kernel", o->kernel, &o->source);
  if (rc || sqz_cli_mpi_started()) return rc; /* no fork() beside MPI */
  if ((rc = sqz_cli_trial("run", o->kernel)) >= 0) return rc;
  o->s.steps = 1;
  o->s.out = o->s.png = o->s.frames = NULL;
  o->s.every = o->s.png_size = 0;
  o->s.json = 0;
  o->s.quiet = 1;
  e->init = "random:0.5:1";
  e->random = sqz_cli_gen_parse("run", e->init, 0, &e->gen);
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
  else snprintf(at, sizeof at, "within steps 1 .. %llu", (unsigned long long)o->s.steps);
  fprintf(stderr,
          "sqz heat: overflow %s of %llu: a value became infinite or NaN from a finite state (--init %s; %s holds "
          "magnitudes up to %g); nothing written\n",
          at, (unsigned long long)o->s.steps, o->s.init ? o->s.init : "random:1", type == SQZ_F32 ? "f32" : "f64",
          type == SQZ_F32 ? FLT_MAX : DBL_MAX);
  return 1;
}

/* Heat's alpha on the domain: the dimension's default, within the stability limit. */
static int sqz__heat_alpha(sqz_stencil_opts *o, const sqz_cli_exec *e) {
  int dims = sqz_domain_dims(e->dom);
  double amax = sqz_heat_alpha_max(dims);
  if (!o->alpha) o->alpha_v = dims == 2 ? 0.2 : 0.1;
  if (o->alpha_v > 0 && o->alpha_v <= amax) return 0;
  return sqz_cli_usage("heat", "--alpha %s is outside (0, %g], the stability limit in %dD", o->alpha, amax, dims);
}

/* The --init file into e->f: a .npy state or an .h5 checkpoint (its step count into e->step0). */
static int sqz__stencil_load(sqz_cli_exec *e, void *user) {
  char workload[512];
  (void)user;
  return sqz_cli_load_state(e->f, e->init, workload, sizeof workload, &e->step0);
}

/* On ranks, what every rank must agree on: the options as given and the kernel's text (its 64-bit FNV-1a hash: one
 * path may hold another file on another node). */
static int sqz__stencil_agree(const sqz_stencil_opts *o, sqz_cli_exec *e) {
  char steps[24], size[24], parts[24], hash[24];
  uint64_t h = 14695981039346656037ull;
  for (const char *p = o->source ? o->source : ""; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  snprintf(steps, sizeof steps, "%llu", (unsigned long long)o->s.steps);
  snprintf(size, sizeof size, "%llu", (unsigned long long)o->s.png_size);
  snprintf(parts, sizeof parts, "%llu", (unsigned long long)o->s.parts.parts);
  snprintf(hash, sizeof hash, "%016llx", (unsigned long long)h);
  const sqz_cli_kv kv[] = {{"DOMAIN", o->s.domain},  {"--layout", o->s.layout}, {"--type", o->type},
                           {"--steps", steps},        {"--init", o->s.init},     {"--alpha", o->alpha},
                           {"--kernel", o->kernel},   {"the --kernel text (hash)", o->source ? hash : NULL},
                           {"--param", o->params},    {"--out", o->s.out},       {"--png", o->s.png},
                           {"--png-size", size},      {"--parts", parts}};
  return sqz_cli_exec_agree(e, kv, sizeof kv / sizeof kv[0], NULL, 0);
}

/* The initial state, heat's initial sum, the ranks' agreement and the steps; on ranks, heat that overflowed. */
static int sqz__stencil_steps_run(sqz_stencil_opts *o, sqz_cli_exec *e) {
  int rc = sqz_cli_exec_init(e, sqz__stencil_load, NULL);
  if (rc == 0 && e->ranks == 1 && o->which == SQZ_HEAT &&
      (e->st = sqz_cli_sum_ok(sqz_field_sum(e->f, SQZ_SUM_NEUMAIER, &o->sum0), &o->sum0)) != SQZ_OK)
    rc = sqz_cli_fail(e->cmd, e->ctx, e->st);
  if (rc == 0) rc = sqz__stencil_agree(o, e);
  if (rc) return rc;
  sqz_cli_mpi_job job = {.kind = o->which == SQZ_HEAT ? SQZ_CLI_MPI_HEAT : SQZ_CLI_MPI_RUN, .alpha = o->alpha_v,
                         .source = o->source, .source_name = o->kernel, .params = o->pv, .n_params = o->n_params};
  if ((rc = sqz_cli_exec_steps(e, &job, sqz__stencil_steps, o)) != 0) return rc;
  o->sum0 = e->mf ? job.sum0 : o->sum0;
  o->sum1 = job.sum1;
  return e->mf && e->root && job.overflowed ? sqz__heat_overflow(o, 0, e->type) : 0;
}

/* Rank 0 after the steps in one process: heat's final sum, or the step it overflowed at (the initial sum was
 * finite: the steps overflowed). */
static int sqz__heat_final(sqz_stencil_opts *o, sqz_cli_exec *e) {
  if (o->which != SQZ_HEAT || e->mf) return 0;
  e->st = sqz_cli_sum_ok(sqz_field_sum(e->f, SQZ_SUM_NEUMAIER, &o->sum1), &o->sum1);
  if (e->st == SQZ_ERR_NON_FINITE)
    return sqz__heat_overflow(
        o, sqz__heat_overflow_step(e->f, e->init, e->random ? &e->gen : NULL, o->alpha_v, o->s.steps), e->type);
  return e->st == SQZ_OK ? 0 : sqz_cli_fail(e->cmd, e->ctx, e->st);
}

static void sqz__stencil_json(const sqz_stencil_opts *o, const sqz_cli_exec *e) {
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_cli_exec_json_head(e, &j);
  sqz_cli_gen_json(&j, e->init, e->random ? &e->gen : NULL);
  sqz_json_str(&j, "type", o->type ? o->type : "f64");
  if (o->which == SQZ_RUN) sqz_json_str(&j, "kernel", o->kernel);
  else sqz_json_num(&j, "alpha", o->alpha_v);
  sqz_cli_exec_json_counts(e, &j, "nonzero");
  if (o->which == SQZ_HEAT) {
    sqz_json_num(&j, "sum_initial", o->sum0);
    sqz_json_num(&j, "sum_final", o->sum1);
  }
  if (o->s.png && e->type != SQZ_U8) {
    sqz_json_num(&j, "png_min", e->png_min);
    sqz_json_num(&j, "png_max", e->png_max);
  }
  sqz_cli_exec_json_tail(e, &j);
  sqz_json_end(&j);
}

static void sqz__stencil_report(const sqz_stencil_opts *o, const sqz_cli_exec *e) {
  char what[64];
  if (o->s.json) {
    sqz__stencil_json(o, e);
    return;
  }
  snprintf(what, sizeof what, "type %s", o->type ? o->type : "f64");
  sqz_cli_exec_text_head(e, what, "nonzero");
  if (o->which == SQZ_HEAT) printf("heat     %.17g -> %.17g (alpha %g)\n", o->sum0, o->sum1, o->alpha_v);
  sqz_cli_exec_text_tail(e, 0);
}

static int sqz__stencil_run(sqz_stencil_opts *o, sqz_cli_exec *e) {
  char workload[512];
  int rc = sqz_cli_exec_open(e);
  if (rc == 0 && o->which == SQZ_HEAT) rc = sqz__heat_alpha(o, e);
  if (rc == 0) rc = sqz_cli_exec_field(e);
  if (rc == 0 && !e->random && !sqz_cli_has_ext(e->init, ".npy") && !sqz_cli_has_ext(e->init, ".h5"))
    rc = sqz_cli_usage(e->cmd, "--init %s: expected random:..., const:V, point:..., a .npy state or an .h5 checkpoint",
                       e->init);
  if (rc == 0) rc = sqz__stencil_steps_run(o, e);
  if (rc == 0 && e->root) rc = sqz__heat_final(o, e);
  if (rc || !e->root) return rc;
  if (o->which == SQZ_HEAT) snprintf(workload, sizeof workload, "heat alpha %.17g", o->alpha_v);
  else snprintf(workload, sizeof workload, "kernel %s", o->kernel);
  if ((rc = sqz_cli_exec_outputs(e, workload)) == 0) sqz__stencil_report(o, e);
  return rc;
}

static int sqz__stencil(int argc, char **argv, const sqz_cli_cmd *c, int which) {
  sqz_stencil_opts o = {.s = {.layout = "compact", .steps = SQZ_CLI_UNSET}, .which = which};
  int rc = sqz_cli_parse(c, argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  sqz_cli_exec e = {.cmd = c->name, .o = &o.s, .type = SQZ_F64, .gen = {.density = 0.5, .seed = 1}};
  if ((rc = sqz__stencil_check(&o, &e)) != 0) return rc;
  rc = sqz_cli_exec_prepare(&e);
  if (rc == 0 && which == SQZ_RUN) rc = sqz__run_kernel(&o, &e);
  if (rc == 0) rc = sqz__stencil_run(&o, &e);
  rc = sqz_cli_exec_end(&e, rc);
  free(o.source);
  free(o.pv);
  return rc;
}

int sqz_cmd_run(int argc, char **argv) { return sqz__stencil(argc, argv, &sqz_run_cmd, SQZ_RUN); }
int sqz_cmd_heat(int argc, char **argv) { return sqz__stencil(argc, argv, &sqz_heat_cmd, SQZ_HEAT); }
