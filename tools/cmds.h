/* cmds.h — the sqz subcommands; each takes argc/argv with argv[0] = the subcommand name. */
#ifndef SQZ_CMDS_H
#define SQZ_CMDS_H
#include <stdint.h>
int sqz_cmd_devices(int argc, char **argv);
int sqz_cmd_info(int argc, char **argv);
/* `sqz info DOMAIN --parts P` (cmd_info_parts.c). */
struct sqz_domain;
int sqz_info_parts(struct sqz_domain *dom, uint64_t parts, const char *layout, int json);
int sqz_cmd_life(int argc, char **argv);
int sqz_cmd_run(int argc, char **argv);
int sqz_cmd_heat(int argc, char **argv);
int sqz_cmd_edm(int argc, char **argv);
int sqz_cmd_bench(int argc, char **argv);
int sqz_cmd_bench_simplex(int argc, char **argv);
int sqz_cmd_bench_fractal(int argc, char **argv);
#endif
