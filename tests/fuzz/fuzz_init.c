/* fuzz_init.c — the CLI's --init specs through the parser every command calls (sqz_cli_gen_parse, tools/cli_init.c):
 * random:DENSITY:SEED for `sqz life` and `sqz run`, random:SEED for `sqz heat`, const:V and point:Y,X[:V] or
 * point:Z,Y,X[:V] for all three. Each spec is a state sqz makes (1), a file name (0: anything that does not start
 * with exactly "random" or "random:", "const:" or "point:", so random.pbm is a file) or a usage error (2); a made
 * state has a density in [0, 1], a finite value, 2 or 3 coordinates, and reads back from its canonical spec. */
#include "fuzz_util.h"

#include <math.h>

#include "cli_init.h"

static int is_file(const char *init) {
  return strcmp(init, "random") != 0 && strncmp(init, "random:", 7) != 0 && strncmp(init, "const:", 6) != 0 &&
         strncmp(init, "point:", 6) != 0;
}

/* The canonical spec of g into buf. */
static void canonical(const sqz_cli_gen *g, char *buf, size_t len) {
  switch (g->kind) {
  case SQZ_CLI_GEN_UNIFORM: snprintf(buf, len, "random:%llu", (unsigned long long)g->seed); break;
  case SQZ_CLI_GEN_RANDOM: snprintf(buf, len, "random:%.17g:%llu", g->density, (unsigned long long)g->seed); break;
  case SQZ_CLI_GEN_CONST: snprintf(buf, len, "const:%.17g", g->value); break;
  default:
    if (g->n_at == 3)
      snprintf(buf, len, "point:%llu,%llu,%llu:%.17g", (unsigned long long)g->at[0], (unsigned long long)g->at[1],
               (unsigned long long)g->at[2], g->value);
    else
      snprintf(buf, len, "point:%llu,%llu:%.17g", (unsigned long long)g->at[0], (unsigned long long)g->at[1], g->value);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *init = sqz_fuzz_cstr(data, size);
  static const char *const cmds[] = {"life", "run", "heat"};
  for (int c = 0; c < 3; c++) {
    sqz_cli_gen g = {.density = 0.5, .seed = 1};
    int rc = sqz_cli_gen_parse(cmds[c], init, c == 2, &g);
    SQZ_FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    SQZ_FUZZ_CHECK((rc == 0) == is_file(init));
    if (rc != 1) continue;
    SQZ_FUZZ_CHECK(g.kind != SQZ_CLI_GEN_UNIFORM || c == 2);
    SQZ_FUZZ_CHECK(g.kind != SQZ_CLI_GEN_RANDOM || (c != 2 && g.density >= 0.0 && g.density <= 1.0));
    SQZ_FUZZ_CHECK(g.kind < SQZ_CLI_GEN_CONST || isfinite(g.value));
    SQZ_FUZZ_CHECK(g.kind != SQZ_CLI_GEN_POINT || g.n_at == 2 || g.n_at == 3);
    /* the state written back as a canonical spec is the same state */
    char again[160];
    canonical(&g, again, sizeof again);
    sqz_cli_gen h = {.density = -1.0, .seed = g.seed + 1, .value = NAN};
    SQZ_FUZZ_CHECK(sqz_cli_gen_parse(cmds[c], again, c == 2, &h) == 1 && h.kind == g.kind);
    SQZ_FUZZ_CHECK(g.kind == SQZ_CLI_GEN_CONST || g.kind == SQZ_CLI_GEN_POINT || h.seed == g.seed);
    SQZ_FUZZ_CHECK(g.kind != SQZ_CLI_GEN_RANDOM || h.density == g.density);
    SQZ_FUZZ_CHECK(g.kind < SQZ_CLI_GEN_CONST || h.value == g.value);
    SQZ_FUZZ_CHECK(g.kind != SQZ_CLI_GEN_POINT ||
                   (h.n_at == g.n_at && memcmp(h.at, g.at, sizeof(uint64_t) * (size_t)g.n_at) == 0));
  }
  free(init);
  return 0;
}
