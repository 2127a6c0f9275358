/* cli_init.c — the states sqz makes for --init (random, uniform, const:V, point:Y,X[:V]), parsed once and applied to a field. */
#include "cli_init.h"

#include <stdio.h>
#include <string.h>

#include "cli_common.h"

/* random[:DENSITY][:SEED] or random[:SEED] after "random" (p: the text after it). */
static int sqz__gen_random(const char *cmd, const char *init, const char *p, int uniform, sqz_cli_gen *g) {
  g->kind = uniform ? SQZ_CLI_GEN_UNIFORM : SQZ_CLI_GEN_RANDOM;
  if (!*p) return 1;
  p++; /* the colon */
  const char *form = uniform ? "random:SEED" : "random:DENSITY[:SEED]", *colon = strchr(p, ':'), *why = NULL;
  if (!*p || (colon && (uniform || strchr(colon + 1, ':')))) return sqz_cli_usage(cmd, "--init '%s': expected %s", init, form);
  if (!uniform) { /* DENSITY, up to the colon */
    char part[128];
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    if (n >= sizeof part) return sqz_cli_usage(cmd, "--init '%s': density '%.*s' is not a number", init, (int)n, p);
    memcpy(part, p, n);
    part[n] = 0;
    double d = 0;
    if ((why = sqz_cli_double_text(part, &d)) != NULL || !(d >= 0.0 && d <= 1.0))
      return sqz_cli_usage(cmd, "--init '%s': density '%s' %s", init, part, why ? why : "is outside [0, 1]");
    g->density = d;
    if (!colon) return 1;
    p = colon + 1;
  }
  if ((why = sqz_cli_u64_text(p, &g->seed)) != NULL) return sqz_cli_usage(cmd, "--init '%s': seed '%s' %s", init, p, why);
  return 1;
}

/* point:C,C[,C][:V] (p: the text after "point:"). */
static int sqz__gen_point(const char *cmd, const char *init, const char *p, sqz_cli_gen *g) {
  char buf[256];
  if (strlen(p) >= sizeof buf) return sqz_cli_usage(cmd, "--init '%.40s...': too long", init);
  strcpy(buf, p);
  char *colon = strchr(buf, ':'), *save = NULL, *tok;
  const char *why = NULL;
  g->kind = SQZ_CLI_GEN_POINT;
  g->value = 1.0;
  g->n_at = 0;
  if (colon) {
    *colon = 0;
    if ((why = sqz_cli_double_text(colon + 1, &g->value)) != NULL)
      return sqz_cli_usage(cmd, "--init '%s': value '%s' %s", init, colon + 1, why);
  }
  for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (g->n_at == 3) return sqz_cli_usage(cmd, "--init '%s': a point has 2 (Y,X) or 3 (Z,Y,X) coordinates", init);
    if ((why = sqz_cli_u64_text(tok, &g->at[g->n_at])) != NULL)
      return sqz_cli_usage(cmd, "--init '%s': coordinate '%s' %s", init, tok, why);
    g->n_at++;
  }
  if (g->n_at < 2 || buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
    return sqz_cli_usage(cmd, "--init '%s': expected point:Y,X[:V] or point:Z,Y,X[:V]", init);
  return 1;
}

int sqz_cli_gen_parse(const char *cmd, const char *init, int uniform, sqz_cli_gen *g) {
  if (strcmp(init, "random") == 0 || strncmp(init, "random:", 7) == 0) return sqz__gen_random(cmd, init, init + 6, uniform, g);
  if (strncmp(init, "point:", 6) == 0) return sqz__gen_point(cmd, init, init + 6, g);
  if (strncmp(init, "const:", 6) != 0) return 0;
  const char *why = sqz_cli_double_text(init + 6, &g->value);
  if (why) return sqz_cli_usage(cmd, "--init '%s': value '%s' %s", init, init + 6, why);
  g->kind = SQZ_CLI_GEN_CONST;
  return 1;
}

int sqz_cli_gen_apply(sqz_field *f, const sqz_cli_gen *g) {
  switch (g->kind) {
  case SQZ_CLI_GEN_RANDOM: return sqz_field_fill_random(f, g->density, g->seed);
  case SQZ_CLI_GEN_UNIFORM: return sqz_field_fill_uniform(f, g->seed);
  case SQZ_CLI_GEN_CONST: return sqz_field_fill_const(f, g->value);
  default: break;
  }
  int dims = sqz_domain_dims(sqz_field_domain(f));
  int st = sqz_field_fill_const(f, 0.0);
  if (st != SQZ_OK) return st;
  return dims == 3 ? sqz_field_set_cell(f, g->at[2], g->at[1], g->at[0], g->value)
                   : sqz_field_set_cell(f, g->at[1], g->at[0], 0, g->value);
}

int sqz_cli_gen_check(const char *cmd, const char *init, const sqz_cli_gen *g, int dims) {
  if (g->kind != SQZ_CLI_GEN_POINT || g->n_at == dims) return 0;
  return sqz_cli_usage(cmd, "--init '%s': a point of a %dD domain has %d coordinates (%s)", init, dims, dims,
                       dims == 3 ? "point:Z,Y,X[:V]" : "point:Y,X[:V]");
}

void sqz_cli_gen_json(sqz_json *j, const char *init, const sqz_cli_gen *g) {
  sqz_json_str(j, "init", init);
  if (g && (g->kind == SQZ_CLI_GEN_RANDOM || g->kind == SQZ_CLI_GEN_UNIFORM)) sqz_json_u64(j, "seed", g->seed);
  if (g && g->kind == SQZ_CLI_GEN_RANDOM) sqz_json_num(j, "density", g->density);
}
