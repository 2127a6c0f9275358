/* sqz.c — the sqz command-line tool: dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cli_mpi.h"
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
          "  help CMD                     the options of a command (sqz help bench fractal)\n"
          "  help options                 the tuning options (--option NAME=VALUE, SQZ_<NAME>)\n"
          "\n"
          "domains: triangle:N  tetrahedron:N  fractal:NAME:R  (NAME: sierpinski-triangle, sierpinski-carpet,\n"
          "         vicsek-cross, vicsek-saltire, or a pattern such as '#./##')\n"
          "options: --version, --help\n");
}

/* The commands: each takes argc/argv with argv[0] = its name and parses its options by its table (cli_table.h). */
static const struct {
  const char *name;
  int (*fn)(int, char **);
} sqz_commands[] = {{"devices", sqz_cmd_devices}, {"info", sqz_cmd_info}, {"life", sqz_cmd_life}, {"run", sqz_cmd_run},
                    {"heat", sqz_cmd_heat},       {"edm", sqz_cmd_edm},   {"bench", sqz_cmd_bench}};

static int sqz_dispatch(const char *cmd, int argc, char **argv) {
  for (size_t i = 0; i < sizeof sqz_commands / sizeof sqz_commands[0]; i++)
    if (strcmp(cmd, sqz_commands[i].name) == 0) return sqz_commands[i].fn(argc, argv);
  fprintf(stderr, "sqz: unknown command '%s'\n", cmd);
  sqz_usage(stderr);
  return 2;
}

static int sqz_main(int argc, char **argv) {
  if (argc < 2) {
    sqz_usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "help") == 0 && argc > 2 && strcmp(argv[2], "options") == 0) return sqz_cli_help_options(argc - 2, argv + 2);
  if (strcmp(cmd, "help") == 0 && argc > 2) { /* sqz help CMD [SUB]: the command's --help */
    char *args[4] = {argv[2], argc > 3 ? argv[3] : "--help", argc > 3 ? "--help" : NULL, NULL};
    return sqz_dispatch(argv[2], argc > 3 ? 3 : 2, args);
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    sqz_usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("sqz %s\n", sqz_version_string());
    return 0;
  }
  return sqz_dispatch(cmd, argc - 1, argv + 1);
}

int main(int argc, char **argv) {
  sqz_cli_outputs_init();
  sqz_cli_guard_init();
  sqz_cli_mpi_init(&argc, &argv); /* under mpirun: every rank ends through sqz_cli_mpi_finalize */
  return sqz_cli_mpi_finalize(sqz_main(argc, argv));
}
