/* cli_common.c — shared helpers of the sqz commands: options, errors, contexts, JSON. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"

int sqz_cli_usage(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sqz %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(see 'sqz %s --help')\n", cmd);
  va_end(ap);
  return 2;
}

int sqz_cli_fail(const char *cmd, sqz_context *ctx, int st) {
  const char *detail = sqz_last_error(ctx);
  fprintf(stderr, "sqz %s: %s (%s)%s%s\n", cmd, sqz_status_message(st), sqz_status_name(st), *detail ? ": " : "",
          detail);
  switch (st) {
  case SQZ_ERR_PARSE:
  case SQZ_ERR_INVALID_ARGUMENT:
  case SQZ_ERR_OUTSIDE_DOMAIN:
  case SQZ_ERR_TOO_LARGE:
  case SQZ_ERR_DEVICE_NOT_FOUND:
  case SQZ_ERR_NON_FINITE: return 2;
  default: return 1;
  }
}

int sqz_cli_opt(int argc, char **argv, int *i, const char *name, int takes_value, const char **value) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0) return 0;
  if (a[n] == 0) {
    if (!takes_value) { *value = NULL; return 1; }
    if (*i + 1 >= argc) return -1;
    *value = argv[++*i];
    return 1;
  }
  if (a[n] == '=' && takes_value) { *value = a + n + 1; return 1; }
  return 0;
}

int sqz_cli_u64(const char *cmd, const char *opt, const char *text, uint64_t *out) {
  char *end = NULL;
  if (!text || !*text || *text == '-' || *text == '+')
    return sqz_cli_usage(cmd, "%s: '%s' is not a non-negative integer", opt, text ? text : "");
  unsigned long long v = strtoull(text, &end, 10);
  if (!end || *end) return sqz_cli_usage(cmd, "%s: '%s' is not a non-negative integer", opt, text);
  *out = v;
  return 0;
}

int sqz_cli_progress(void) { return isatty(2); }

void sqz_cli_print_devices(FILE *out) {
  sqz_device_list *l = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return;
  fprintf(out, "%-7s %-5s %-11s %-4s %5s %10s %10s %-14s %s\n", "backend", "id", "platform", "type", "CUs",
          "mem MiB", "alloc MiB", "C version", "device");
  for (size_t i = 0; i < sqz_device_list_count(l); i++) {
    fprintf(out, "%-7s %-5s %-11.11s %-4.4s %5llu %10llu %10llu %-14.14s %s\n",
            sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), sqz_device_list_str(l, i, SQZ_DEVICE_ID),
            sqz_device_list_str(l, i, SQZ_DEVICE_PLATFORM), sqz_device_list_str(l, i, SQZ_DEVICE_TYPE),
            (unsigned long long)sqz_device_list_u64(l, i, SQZ_DEVICE_COMPUTE_UNITS),
            (unsigned long long)(sqz_device_list_u64(l, i, SQZ_DEVICE_GLOBAL_MEM) >> 20),
            (unsigned long long)(sqz_device_list_u64(l, i, SQZ_DEVICE_MAX_ALLOC) >> 20),
            sqz_device_list_str(l, i, SQZ_DEVICE_C_VERSION), sqz_device_list_str(l, i, SQZ_DEVICE_NAME));
  }
  sqz_device_list_release(l);
}

int sqz_cli_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx) {
  int st = sqz_context_create(backend, device, ctx);
  if (st == SQZ_OK) return 0;
  fprintf(stderr, "sqz %s: %s (%s): %s\n", cmd, sqz_status_message(st), sqz_status_name(st), sqz_last_error(NULL));
  if (st == SQZ_ERR_DEVICE_NOT_FOUND) {
    fprintf(stderr, "available devices:\n");
    sqz_cli_print_devices(stderr);
    return 2;
  }
  return st == SQZ_ERR_INVALID_ARGUMENT ? 2 : 1;
}

void sqz_json_escape(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
    else if (c < 0x20) fprintf(out, "\\u%04x", c);
    else fputc(c, out);
  }
  fputc('"', out);
}

void sqz_json_begin(sqz_json *j, FILE *out) {
  j->out = out;
  j->n = 0;
  fputc('{', out);
}
static void sqz__json_key(sqz_json *j, const char *key) {
  if (j->n++) fputc(',', j->out);
  sqz_json_escape(j->out, key);
  fputc(':', j->out);
}
void sqz_json_str(sqz_json *j, const char *key, const char *value) {
  sqz__json_key(j, key);
  sqz_json_escape(j->out, value);
}
void sqz_json_u64(sqz_json *j, const char *key, uint64_t value) {
  sqz__json_key(j, key);
  fprintf(j->out, "%llu", (unsigned long long)value);
}
void sqz_json_num(sqz_json *j, const char *key, double value) {
  sqz__json_key(j, key);
  if (value != value || value > 1e308 || value < -1e308) {
    fputs("null", j->out);
    return;
  }
  char text[32]; /* the shortest of 15 or 17 digits that reads back as the same double (sums are compared to 1e-12) */
  snprintf(text, sizeof text, "%.15g", value);
  if (strtod(text, NULL) != value) snprintf(text, sizeof text, "%.17g", value);
  fputs(text, j->out);
}
void sqz_json_raw(sqz_json *j, const char *key, const char *json) {
  sqz__json_key(j, key);
  fputs(json, j->out);
}
void sqz_json_end(sqz_json *j) { fputs("}\n", j->out); }
