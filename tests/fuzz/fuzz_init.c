/* fuzz_init.c — the CLI's --init random specs, through the parser the commands call: random:DENSITY:SEED for
 * `sqz life` and `sqz run`, random:SEED for `sqz heat`. Each spec is a random fill (1), a file name (0) or a usage
 * error (2); a random fill has a density in [0, 1]. Before the CLI's numbers moved to cli_common.c
 * (sqz_cli_random_init) each command had its own static parser (tools/cmd_life.c, tools/cmd_stencil.c): then
 * those files are compiled in here to reach them. */
#include "fuzz_util.h"

#include "cli_common.h"

#ifdef SQZ_CLI_STEPS_MAX /* cli_common.c's strict numbers: sqz_cli_random_init */
/* A file name unless exactly "random" or "random:...". */
static int is_file(const char *init) { return strcmp(init, "random") != 0 && strncmp(init, "random:", 7) != 0; }
static int parse(const char *cmd, const char *init, double *density, uint64_t *seed) {
  return sqz_cli_random_init(cmd, init, strcmp(cmd, "heat") == 0 ? NULL : density, seed);
}
#else
#include "cmd_life.c"
#include "cmd_stencil.c"
/* A file name unless it starts with "random". */
static int is_file(const char *init) { return strncmp(init, "random", 6) != 0; }
static int parse(const char *cmd, const char *init, double *density, uint64_t *seed) {
  if (strcmp(cmd, "life") == 0) return sqz__parse_init(init, density, seed);
  return sqz__stencil_init(cmd, init, strcmp(cmd, "heat") == 0, density, seed);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *init = sqz_fuzz_cstr(data, size);
  static const char *const cmds[] = {"life", "run", "heat"};
  for (int c = 0; c < 3; c++) {
    double density = 0.5;
    uint64_t seed = 1;
    int rc = parse(cmds[c], init, &density, &seed);
    SQZ_FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    SQZ_FUZZ_CHECK((rc == 0) == is_file(init));
    if (rc == 1) SQZ_FUZZ_CHECK(density >= 0.0 && density <= 1.0);
  }
  free(init);
  return 0;
}
