/* cli_table.c — parsing and help from the commands' option tables, the parsers of plain values, and the options several commands share. */
#include "cli_table.h"

#include <math.h>
#include <string.h>

void *sqz_cli_value(const sqz_cli_args *a, const sqz_cli_optdef *d) { return (char *)a->set + d->offset; }

int sqz_cli_p_text(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  *(const char **)sqz_cli_value(a, d) = value;
  return 0;
}

int sqz_cli_p_flag(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  (void)value;
  *(int *)sqz_cli_value(a, d) = 1;
  return 0;
}

int sqz_cli_p_u64(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  return sqz_cli_u64_range(a->cmd, d->name, value, d->min, d->max, sqz_cli_value(a, d)) ? 2 : 0;
}

int sqz_cli_p_fraction(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  return sqz_cli_double(a->cmd, d->name, value, 0.0, 1.0, sqz_cli_value(a, d)) ? 2 : 0;
}

int sqz_cli_p_number(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  return sqz_cli_double(a->cmd, d->name, value, -HUGE_VAL, HUGE_VAL, sqz_cli_value(a, d)) ? 2 : 0;
}

int sqz_cli_p_number_text(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  double v = 0;
  if (sqz_cli_double(a->cmd, d->name, value, -HUGE_VAL, HUGE_VAL, &v)) return 2;
  return sqz_cli_p_text(a, d, value);
}

/* ---- the options several commands take -------------------------------------------------------------------- */
const sqz_cli_optdef sqz_cli_opt_steps =
    SQZ_CLI_COUNT("--steps", "K", steps, 0, SQZ_CLI_STEPS_MAX, "the steps (generations) to run, at most 2^62; required");
const sqz_cli_optdef sqz_cli_opt_layout =
    SQZ_CLI_TEXT("--layout", "L", layout, "how the field is stored: one of the layouts below (default compact)");
const sqz_cli_optdef sqz_cli_opt_map = SQZ_CLI_TEXT(
    "--map", "M", map, "the thread map: one of the maps below (default: the fastest for the domain and backend)");
const sqz_cli_optdef sqz_cli_opt_block =
    SQZ_CLI_COUNT("--block", "RHO", block, 0, SQZ_CLI_BLOCK_MAX, "launch block side (0 = automatic, at most 1024)");
const sqz_cli_optdef sqz_cli_opt_png = SQZ_CLI_TEXT(
    "--png", "FILE.png", png, "a picture of the final state (Life: the states' colours; other cells: their range\n"
                              "through viridis)");
const sqz_cli_optdef sqz_cli_opt_png_size = SQZ_CLI_COUNT(
    "--png-size", "S", png_size, 1, (uint64_t)1 << 30,
    "pictures of S pixels a side (--png, --frames; down: a pixel per block of cells, up: whole\npixels per cell)");
const sqz_cli_optdef sqz_cli_opt_frames = SQZ_CLI_TEXT(
    "--frames", "DIR", frames, "a picture every --every K steps into DIR (frame_<step>.png, step 0 too; DIR is made\n"
                               "when missing)");
const sqz_cli_optdef sqz_cli_opt_every = SQZ_CLI_COUNT("--every", "K", every, 1, SQZ_CLI_STEPS_MAX,
                                                       "the steps between two --frames pictures or --observe rows");
const sqz_cli_optdef sqz_cli_opt_backend =
    SQZ_CLI_TEXT("--backend", "B", backend, "opencl (default) or cpu (SQZ_BACKEND too)");
const sqz_cli_optdef sqz_cli_opt_backend_cuda = SQZ_CLI_TEXT(
    "--backend", "B", backend, "opencl (default), cpu or cuda (fractals in layout block:RHO; SQZ_BACKEND too)");
const sqz_cli_optdef sqz_cli_opt_device = SQZ_CLI_TEXT(
    "--device", "D", device, "the device: N (the backend's Nth in 'sqz devices'), PLATFORM:DEVICE or a name\n"
                             "(SQZ_DEVICE too)");
const sqz_cli_optdef sqz_cli_opt_timeout = {"--timeout", "S",
                                            "stop the run after S seconds, whatever it is doing: exit 1, no output "
                                            "written or\nreplaced",
                                            sqz_cli_p_number_text, offsetof(sqz_cli_set, timeout), 0, 0};
const sqz_cli_optdef sqz_cli_opt_json = SQZ_CLI_FLAG("--json", json, "one JSON object instead of the text summary");
const sqz_cli_optdef sqz_cli_opt_quiet =
    SQZ_CLI_FLAG("--quiet", quiet, "no progress bar (else shown on a terminal for runs over a second)");

/* ---- parsing -------------------------------------------------------------------------------------------------- */
/* Matches argv[*i] against --name (flag) or --name VALUE / --name=VALUE: 1 with *value (NULL for a flag), 0 when
 * it is another argument, -1 when the value is missing. */
static int sqz__opt(int argc, char **argv, int *i, const char *name, int takes_value, const char **value) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0) return 0;
  if (a[n] == 0) {
    if (!takes_value) { *value = NULL; return 1; }
    if (*i + 1 >= argc) return -1;
    *value = argv[++*i];
    return 1;
  }
  if (a[n] == '=' && takes_value) { *value = a + n + 1; return 1; }
  return 0;
}

/* The option of the table at argv[*i] (its value, or *missing when none follows), NULL when none matches. */
static const sqz_cli_optdef *sqz__match(const sqz_cli_cmd *c, int argc, char **argv, int *i, const char **value,
                                        int *missing) {
  for (const sqz_cli_optdef *const *d = c->opts; *d; d++) {
    int m = sqz__opt(argc, argv, i, (*d)->name, (*d)->arg != NULL, value);
    *missing = m < 0;
    if (m) return *d;
  }
  return NULL;
}

/* One argument at argv[*i]: 0, -1 after the help, 2 after a usage error. */
static int sqz__parse_one(const sqz_cli_cmd *c, int argc, char **argv, int *i, void *set) {
  const char *arg = argv[*i], *value = NULL;
  sqz_cli_set *s = set;
  int missing = 0;
  if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
    sqz_cli_help(c, stdout);
    return -1;
  }
  const sqz_cli_optdef *d = sqz__match(c, argc, argv, i, &value, &missing);
  if (d && missing) return sqz_cli_usage(c->name, "%s needs %s", d->name, d->arg);
  if (d) {
    const sqz_cli_args a = {c->name, argc, argv, i, set};
    return d->parse(&a, d, value);
  }
  if (arg[0] == '-') return sqz_cli_usage(c->name, "unknown option '%s'", arg);
  if (!c->domain) return sqz_cli_usage(c->name, "unexpected argument '%s'", arg);
  if (s->domain) return sqz_cli_usage(c->name, "unexpected argument '%s' (domain already given: %s)", arg, s->domain);
  s->domain = arg;
  return 0;
}

int sqz_cli_parse(const sqz_cli_cmd *c, int argc, char **argv, void *set) {
  for (int i = 1; i < argc; i++) {
    int rc = sqz__parse_one(c, argc, argv, &i, set);
    if (rc) return rc;
  }
  if (c->domain && !((sqz_cli_set *)set)->domain)
    return sqz_cli_usage(c->name, "missing DOMAIN (e.g. triangle:1024 or fractal:sierpinski-triangle:10)");
  return 0;
}

/* ---- help ----------------------------------------------------------------------------------------------------- */
#define SQZ_CLI_HELP_COLUMN 24

/* "  --name ARG" and the help, its lines from the column on (on the next line when the name reaches it). */
static void sqz__help_line(FILE *out, const char *name, const char *arg, const char *help) {
  int n = fprintf(out, "  %s%s%s", name, arg ? " " : "", arg ? arg : "");
  if (n >= SQZ_CLI_HELP_COLUMN) n = fprintf(out, "\n") - 1;
  for (const char *p = help; *p;) {
    size_t len = strcspn(p, "\n");
    fprintf(out, "%*s%.*s\n", SQZ_CLI_HELP_COLUMN - n, "", (int)len, p);
    p += len + (p[len] == '\n');
    n = 0;
  }
}

void sqz_cli_help(const sqz_cli_cmd *c, FILE *out) {
  fprintf(out, "usage: sqz %s %s\n", c->name, c->usage);
  if (c->about) fprintf(out, "\n%s", c->about);
  fputs("\noptions:\n", out);
  if (c->domain) sqz__help_line(out, "DOMAIN", NULL, "triangle:N, tetrahedron:N or fractal:NAME:R (docs/CLI.md)");
  for (const sqz_cli_optdef *const *d = c->opts; *d; d++) sqz__help_line(out, (*d)->name, (*d)->arg, (*d)->help);
  sqz__help_line(out, "-h, --help", NULL, "this help");
  char title[64];
  snprintf(title, sizeof title, "\nlayouts (%s):", c->layouts.opt);
  if (c->layouts.opt) sqz_cli_help_layouts(out, title, c->layouts.families, c->layouts.except);
  snprintf(title, sizeof title, "%smaps (%s):", c->layouts.opt ? "" : "\n", c->maps.opt);
  if (c->maps.opt) sqz_cli_help_maps(out, title, c->maps.family, c->maps.dims, c->maps.backend, c->maps.only_backend);
}
