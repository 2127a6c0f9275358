/* cli_common.h — option parsing, context opening, error reporting and JSON output for the sqz CLI. */
#ifndef SQZ_CLI_COMMON_H
#define SQZ_CLI_COMMON_H
#include <stdint.h>
#include <stdio.h>

#include "sqz.h"

/* Prints "sqz CMD: <message>" and a hint to stderr; returns 2 (usage error). */
int sqz_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reports a failed library call: message, detail; returns 2 for bad input, 1 otherwise. */
int sqz_cli_fail(const char *cmd, sqz_context *ctx, int status);
/* Matches argv[*i] against --name (flag) or --name VALUE / --name=VALUE.
 * Returns 1 and sets *value (NULL for flags) when matched, 0 when not, -1 when a value is missing. */
int sqz_cli_opt(int argc, char **argv, int *i, const char *name, int takes_value, const char **value);
/* Strict unsigned integer option value; returns 0 or prints a usage error and returns 2. */
int sqz_cli_u64(const char *cmd, const char *opt, const char *text, uint64_t *out);
/* Opens a context for --backend/--device; on failure prints why (and the device list for an
 * unknown device) and returns the exit status; 0 on success. */
int sqz_cli_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx);
/* 1 when stderr is a terminal (progress goes there only then). */
int sqz_cli_progress(void);
/* Prints the device list (used by `sqz devices` and on an unknown --device). */
void sqz_cli_print_devices(FILE *out);

/* Minimal JSON writer: one object on one line. */
typedef struct {
  FILE *out;
  int n;
} sqz_json;
void sqz_json_begin(sqz_json *j, FILE *out);
void sqz_json_str(sqz_json *j, const char *key, const char *value);
void sqz_json_u64(sqz_json *j, const char *key, uint64_t value);
void sqz_json_num(sqz_json *j, const char *key, double value);
/* Raw value (already JSON: a nested object or array). */
void sqz_json_raw(sqz_json *j, const char *key, const char *json);
void sqz_json_end(sqz_json *j);
/* Writes s as a JSON string literal. */
void sqz_json_escape(FILE *out, const char *s);
#endif
