/* sqz.c — the sqz command-line tool: dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

static void sqz_usage(FILE *out) {
  fprintf(out,
          "usage: sqz COMMAND [options]   (sqz COMMAND --help for each command)\n"
          "\n"
          "Compute on non-rectangular discrete domains (triangles, tetrahedra, NBB fractals) in compact space.\n"
          "\n"
          "commands:\n"
          "  devices                      list OpenCL, CPU and CUDA devices\n"
          "  info DOMAIN [--layout L]     cells, bytes per layout, memory reduction, map waste, device fit\n"
          "  life DOMAIN --steps K ...    run a Life-like cellular automaton\n"
          "  run DOMAIN --kernel F.cl ... run your own stencil (OpenCL C cell update) on any cell type\n"
          "  heat DOMAIN --steps K ...    explicit heat diffusion with insulated holes and borders\n"
          "  edm --points FILE --out F    Euclidean distance matrix into packed lower-triangle storage\n"
          "  bench simplex|fractal ...    side-by-side benchmarks (table or --json)\n"
          "\n"
          "domains: triangle:N  tetrahedron:N  fractal:NAME:R  (NAME: sierpinski-triangle, sierpinski-carpet,\n"
          "         vicsek-cross, vicsek-saltire, or a pattern such as '#./##')\n"
          "options: --version, --help\n"
          "environment: SQZ_BACKEND, SQZ_DEVICE, SQZ_CACHE_DIR, SQZ_NO_CACHE, SQZ_DUMP_KERNELS, SQZ_BUILD_OPTIONS,\n"
          "             SQZ_DEBUG, SQZ_REQUIRE_OPENCL\n");
}

int main(int argc, char **argv) {
  sqz_cli_outputs_init();
  if (argc < 2) {
    sqz_usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    sqz_usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("sqz %s\n", sqz_version_string());
    return 0;
  }
  static const struct {
    const char *name;
    int (*fn)(int, char **);
  } table[] = {{"devices", sqz_cmd_devices}, {"info", sqz_cmd_info},   {"life", sqz_cmd_life},
               {"run", sqz_cmd_run},         {"heat", sqz_cmd_heat},
               {"edm", sqz_cmd_edm},         {"bench", sqz_cmd_bench}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(cmd, table[i].name) == 0) return table[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "sqz: unknown command '%s'\n", cmd);
  sqz_usage(stderr);
  return 2;
}
