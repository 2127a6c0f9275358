/* cli_table.h — the commands' options as tables: each option declared once (name, argument, help, parser), each command the list of those it takes; parsing, help and usage errors come from one place. */
#ifndef SQZ_CLI_TABLE_H
#define SQZ_CLI_TABLE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_common.h"
#include "cli_observe.h"

/* A count no option was given for (--steps of life, run and heat: at most 2^62). */
#define SQZ_CLI_UNSET UINT64_MAX

/* What the options several commands share write. Every command's settings struct starts with one, so an
 * option's offset is the same in each. */
typedef struct {
  const char *domain; /* DOMAIN, the positional argument */
  const char *layout, *map, *rule, *init, *out, *png, *frames, *backend, *device, *timeout;
  uint64_t steps, block, every, png_size;
  int json, quiet;
  sqz_cli_parts parts;
  sqz_cli_obs obs;
} sqz_cli_set;

typedef struct sqz_cli_optdef sqz_cli_optdef;
/* What a parser sees: the command (for messages), the arguments and the position of the option's value (a
 * parser may take more arguments, advancing *i), and the command's settings. */
typedef struct {
  const char *cmd;
  int argc;
  char **argv;
  int *i;
  void *set;
} sqz_cli_args;
/* Parses value (NULL for a flag) into the settings: 0, or 2 after a usage error naming the option and value. */
typedef int (*sqz_cli_parse_fn)(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);

struct sqz_cli_optdef {
  const char *name;       /* "--steps" */
  const char *arg;        /* its argument as the help shows it ("K"); NULL: a flag */
  const char *help;       /* what it does, '\n' between lines */
  sqz_cli_parse_fn parse; /* where the value goes: at offset, in the parser's type */
  size_t offset;          /* of the value in the command's settings (a shared option's: in its sqz_cli_set) */
  uint64_t min, max;      /* the range of sqz_cli_p_u64 */
};
/* The address of d's value in the settings of a. */
void *sqz_cli_value(const sqz_cli_args *a, const sqz_cli_optdef *d);

/* The parsers of plain values. text: the value as given; flag: int 1; u64: an integer in [min, max]; fraction: a
 * double in [0, 1]; number: a finite double; number_text: the text of a finite number (read again where used). */
int sqz_cli_p_text(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
int sqz_cli_p_flag(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
int sqz_cli_p_u64(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
int sqz_cli_p_fraction(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
int sqz_cli_p_number(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
int sqz_cli_p_number_text(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
/* A text option of the shared settings, a flag of them, a count of them in [min, max]. */
#define SQZ_CLI_TEXT(name, arg, field, help) {name, arg, help, sqz_cli_p_text, offsetof(sqz_cli_set, field), 0, 0}
#define SQZ_CLI_FLAG(name, field, help) {name, NULL, help, sqz_cli_p_flag, offsetof(sqz_cli_set, field), 0, 0}
#define SQZ_CLI_COUNT(name, arg, field, lo, hi, help) \
  {name, arg, help, sqz_cli_p_u64, offsetof(sqz_cli_set, field), lo, hi}

/* The options several commands take (cli_table.c), each declared once (--backend: opencl or cpu, or with cuda). */
extern const sqz_cli_optdef sqz_cli_opt_steps, sqz_cli_opt_layout, sqz_cli_opt_map, sqz_cli_opt_block,
    sqz_cli_opt_png, sqz_cli_opt_png_size, sqz_cli_opt_frames, sqz_cli_opt_every, sqz_cli_opt_backend,
    sqz_cli_opt_backend_cuda, sqz_cli_opt_device, sqz_cli_opt_timeout, sqz_cli_opt_json, sqz_cli_opt_quiet;
/* --option NAME=VALUE (cli_options.c), --parts P and --devices LIST (cli_parts.c), --observe ITEM and
 * --observe-out FILE (cli_observe.c). */
extern const sqz_cli_optdef sqz_cli_opt_option, sqz_cli_opt_parts, sqz_cli_opt_devices, sqz_cli_opt_observe,
    sqz_cli_opt_observe_out;

/* The layouts and the maps a command takes, which its help lists under the option that picks them (opt NULL: no
 * list): the layouts of `families` (0: all) but `except`; the maps sqz_map_matches keeps for family, dims and
 * backend (0, 0, NULL: all), only_backend: only those restricted to one backend (the fractal tile maps). */
typedef struct {
  const char *opt;
  unsigned families;
  const char *except;
} sqz_cli_layout_list;
typedef struct {
  const char *opt;
  unsigned family;
  int dims;
  const char *backend;
  int only_backend;
} sqz_cli_map_list;

/* A command: its name as typed ("life", "bench fractal"), the rest of its usage line(s), the text under them,
 * the options it takes (NULL-terminated, in the help's order), whether it takes DOMAIN, the layouts and maps
 * it takes. */
typedef struct {
  const char *name, *usage, *about;
  const sqz_cli_optdef *const *opts;
  int domain;
  sqz_cli_layout_list layouts;
  sqz_cli_map_list maps;
} sqz_cli_cmd;

/* Parses argv[1..] into set (which starts with a sqz_cli_set): each option of the table, DOMAIN where the command
 * takes it. Returns 0; -1 after printing the help (--help, -h); 2 after a usage error naming the option or
 * argument: unknown, a value missing or bad, an argument too many, DOMAIN missing. */
int sqz_cli_parse(const sqz_cli_cmd *c, int argc, char **argv, void *set);
/* The command's help, made from its table, to out. */
void sqz_cli_help(const sqz_cli_cmd *c, FILE *out);
#endif
