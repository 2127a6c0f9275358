/* cli_options.c — the library's tuning options in the CLI: --option NAME=VALUE, `sqz help options`, and "options" in --json. */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cli_table.h"

#define SQZ_CLI_MAX_OPTIONS 64
static const char *sqz_cli_opts[SQZ_CLI_MAX_OPTIONS + 1]; /* "NAME=VALUE", in argv's storage, NULL-terminated */
static size_t sqz_cli_n_opts;
static char sqz_cli_opts_json[4096]; /* the first context's options that differ from their defaults, as JSON */

/* Checks "NAME=VALUE" against the library's table: 0, or 2 after a message naming the option and its range. */
static int sqz__cli_option_check(const char *cmd, const char *text) {
  const char *eq = strchr(text, '=');
  char name[64];
  if (!eq || eq == text || (size_t)(eq - text) >= sizeof name)
    return sqz_cli_usage(cmd, "--option %s: expected NAME=VALUE (sqz help options)", text);
  snprintf(name, sizeof name, "%.*s", (int)(eq - text), text);
  if (sqz_option_check(name, eq + 1) != SQZ_OK) return sqz_cli_usage(cmd, "--option %s: %s", text, sqz_last_error(NULL));
  if (sqz_cli_n_opts == SQZ_CLI_MAX_OPTIONS) return sqz_cli_usage(cmd, "more than %d --option", SQZ_CLI_MAX_OPTIONS);
  sqz_cli_opts[sqz_cli_n_opts++] = text;
  return 0;
}

static int sqz__cli_option_parse(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value) {
  (void)d;
  return sqz__cli_option_check(a->cmd, value);
}

const sqz_cli_optdef sqz_cli_opt_option = {"--option", "NAME=VALUE",
                                           "a tuning option of the library, repeatable (sqz help options)",
                                           sqz__cli_option_parse, 0, 0, 0};

const char *const *sqz_cli_options(void) { return sqz_cli_opts; }

const char *sqz_cli_option(const char *name) {
  size_t len = strlen(name);
  for (size_t i = sqz_cli_n_opts; i-- > 0;)
    if (strncmp(sqz_cli_opts[i], name, len) == 0 && sqz_cli_opts[i][len] == '=')
      return sqz_cli_opts[i][len + 1] ? sqz_cli_opts[i] + len + 1 : NULL;
  return sqz_option_env(name);
}

void sqz_cli_options_record(const sqz_context *ctx) {
  if (sqz_cli_opts_json[0]) return; /* the run's first context: every one takes the same options */
  FILE *mem = fmemopen(sqz_cli_opts_json, sizeof sqz_cli_opts_json - 1, "w");
  int n = 0;
  for (size_t i = 0; mem && i < sqz_option_count(); i++) {
    char value[1024];
    const char *name = sqz_option_at(i)->name;
    if (sqz_context_get_option(ctx, name, value, sizeof value) != SQZ_OK || !*value) continue;
    fputs(n++ ? "," : "{", mem);
    sqz_json_escape(mem, name);
    fputc(':', mem);
    sqz_json_escape(mem, value);
  }
  if (mem) fputs(n ? "}" : "", mem);
  if (mem) fclose(mem);
}

const char *sqz_cli_options_recorded(void) { return sqz_cli_opts_json; }

/* `sqz help options [--markdown]`: the table, as text or as the Markdown table of docs/OPTIONS.md. */
int sqz_cli_help_options(int argc, char **argv) {
  int md = argc > 1 && strcmp(argv[1], "--markdown") == 0;
  if (argc > 1 + md) return sqz_cli_usage("help options", "unexpected argument '%s'", argv[1 + md]);
  if (md) printf("| option | type | range | default | layer | scope | description |\n|---|---|---|---|---|---|---|\n");
  else
    printf("Tuning options: environment SQZ_<NAME> (read when a context is created), --option NAME=VALUE,\n"
           "sqz_context_set_option / sqz_field_set_option (scope field). See docs/OPTIONS.md.\n\n");
  for (size_t i = 0; i < sqz_option_count(); i++) {
    const sqz_option_info *o = sqz_option_at(i);
    if (md) {
      printf("| `%s` | %s | `", o->name, o->type);
      for (const char *r = o->range; *r; r++) printf("%s%c", *r == '|' ? "\\" : "", *r); /* a | in a cell */
      printf("` | %s | %s | %s | %s |\n", o->def, o->layer, o->scope, o->help);
    } else
      printf("%-15s %-6s %-18s layer %-12s scope %s\n  %s\n  default: %s\n", o->name, o->type, o->range, o->layer,
             o->scope, o->help, o->def);
  }
  return 0;
}
