/* cmd_bench.c — `sqz bench`: dispatches to the simplex and fractal benchmarks. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

int sqz_cmd_bench(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fprintf(argc < 2 ? stderr : stdout,
            "usage: sqz bench simplex --domain D [--workload life|heat|kernel FILE.cl|edm|map|accumulate] [options]\n"
            "       sqz bench fractal --domain D [--workload life|heat|kernel FILE.cl] [--layouts L1,L2,...] [options]\n"
            "Runs every map or layout side by side in one run (see 'sqz bench simplex --help'), each row with\n"
            "the engine path that ran and its share of the floor at 2 x sizeof(--type T) bytes a cell;\n"
            "--parts P adds rows of the field in P parts beside the one-buffer rows; --backend opencl,cpu runs\n"
            "it on each backend in turn and prints their speed ratios.\n");
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "simplex") == 0) return sqz_cmd_bench_simplex(argc - 1, argv + 1);
  if (strcmp(argv[1], "fractal") == 0) return sqz_cmd_bench_fractal(argc - 1, argv + 1);
  return sqz_cli_usage("bench", "unknown benchmark '%s' (expected simplex or fractal)", argv[1]);
}
