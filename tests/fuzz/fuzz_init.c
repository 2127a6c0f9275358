/* fuzz_init.c — the CLI's --init specs through the parser every command calls (sqz_cli_random_init,
 * tools/cli_common.c): random:DENSITY:SEED for `sqz life` and `sqz run`, random:SEED for `sqz heat`. Each spec
 * is a random fill (1), a file name (0: anything but exactly "random" or "random:...", so random.pbm is a file)
 * or a usage error (2); a random fill has a density in [0, 1] and reads back from its canonical spec. */
#include "fuzz_util.h"

#include "cli_common.h"

static int is_file(const char *init) { return strcmp(init, "random") != 0 && strncmp(init, "random:", 7) != 0; }
static int parse(const char *cmd, const char *init, double *density, uint64_t *seed) {
  return sqz_cli_random_init(cmd, init, strcmp(cmd, "heat") == 0 ? NULL : density, seed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *init = sqz_fuzz_cstr(data, size);
  static const char *const cmds[] = {"life", "run", "heat"};
  for (int c = 0; c < 3; c++) {
    double density = 0.5;
    uint64_t seed = 1;
    int rc = parse(cmds[c], init, &density, &seed);
    SQZ_FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    SQZ_FUZZ_CHECK((rc == 0) == is_file(init));
    if (rc != 1) continue;
    SQZ_FUZZ_CHECK(density >= 0.0 && density <= 1.0);
    /* the fill written back as a canonical spec is the same fill */
    char again[96];
    if (c == 2) snprintf(again, sizeof again, "random:%llu", (unsigned long long)seed);
    else snprintf(again, sizeof again, "random:%.17g:%llu", density, (unsigned long long)seed);
    double d2 = -1.0;
    uint64_t s2 = seed + 1;
    SQZ_FUZZ_CHECK(parse(cmds[c], again, &d2, &s2) == 1 && s2 == seed && (c == 2 || d2 == density));
  }
  free(init);
  return 0;
}
