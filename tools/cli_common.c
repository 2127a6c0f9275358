/* cli_common.c — shared helpers of the sqz commands: options, errors, contexts, JSON. */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_common.h"

static pthread_once_t sqz_cli_fault_once = PTHREAD_ONCE_INIT;
static unsigned long long sqz_cli_fault_at;
static atomic_ullong sqz_cli_fault_calls;

static void sqz__cli_fault_read(void) {
  const char *v = sqz_option_env("fault_alloc_cli");
  char *end = NULL;
  errno = 0;
  unsigned long long n = v && *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : 0;
  sqz_cli_fault_at = end && *end == 0 && errno == 0 ? n : 0;
}

/* 1 when this allocation is the one SQZ_FAULT_ALLOC_CLI names (ENOMEM set, as malloc would). */
static int sqz__cli_fault(void) {
  pthread_once(&sqz_cli_fault_once, sqz__cli_fault_read);
  int hit = sqz_cli_fault_at && atomic_fetch_add(&sqz_cli_fault_calls, 1u) + 1u == sqz_cli_fault_at;
  if (hit) errno = ENOMEM;
  return hit;
}

void *sqz_cli_malloc(size_t bytes) { return sqz__cli_fault() ? NULL : malloc(bytes); }
void *sqz_cli_calloc(size_t count, size_t size) { return sqz__cli_fault() ? NULL : calloc(count, size); }
void *sqz_cli_realloc(void *p, size_t bytes) { return sqz__cli_fault() ? NULL : realloc(p, bytes); }
FILE *sqz_cli_memstream(char **text, size_t *len) { return sqz__cli_fault() ? NULL : open_memstream(text, len); }

int sqz_cli_usage(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sqz %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(see 'sqz %s --help')\n", cmd);
  va_end(ap);
  return 2;
}

static int sqz__cli_report(const char *cmd, int st, const char *detail) {
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

int sqz_cli_fail(const char *cmd, sqz_context *ctx, int st) { return sqz__cli_report(cmd, st, sqz_last_error(ctx)); }

int sqz_cli_error(const char *cmd, int st, const char *fmt, ...) {
  char detail[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  return sqz__cli_report(cmd, st, detail);
}

double sqz_cli_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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

/* Digits only, within 64 bits: NULL, or why text is not such an integer. */
const char *sqz_cli_u64_text(const char *text, uint64_t *out) {
  if (!*text) return "is empty, not a non-negative integer";
  uint64_t v = 0;
  for (const char *p = text; *p; p++) {
    if (*p < '0' || *p > '9') return "is not a non-negative integer (decimal digits only)";
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return "does not fit in 64 bits (at most 18446744073709551615)";
    v = v * 10 + d;
  }
  *out = v;
  return NULL;
}

/* The whole text read by strtod, finite: NULL, or why it is not such a number. */
const char *sqz_cli_double_text(const char *text, double *out) {
  if (!*text || isspace((unsigned char)*text)) return "is not a number";
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end) return "is not a number";
  if (!isfinite(v)) return "is not a finite number";
  *out = v;
  return NULL;
}

int sqz_cli_u64_range(const char *cmd, const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out) {
  uint64_t v = 0;
  const char *why = sqz_cli_u64_text(text ? text : "", &v);
  if (why) return sqz_cli_usage(cmd, "%s '%s' %s", opt, text ? text : "", why);
  if (v > max && min == 0) return sqz_cli_usage(cmd, "%s %s is larger than %llu", opt, text, (unsigned long long)max);
  if (v < min || v > max)
    return sqz_cli_usage(cmd, "%s %s is outside %llu..%llu", opt, text, (unsigned long long)min, (unsigned long long)max);
  *out = v;
  return 0;
}

int sqz_cli_u64(const char *cmd, const char *opt, const char *text, uint64_t *out) {
  return sqz_cli_u64_range(cmd, opt, text, 0, UINT64_MAX, out);
}

int sqz_cli_double(const char *cmd, const char *opt, const char *text, double min, double max, double *out) {
  double v = 0;
  const char *why = sqz_cli_double_text(text ? text : "", &v);
  if (why) return sqz_cli_usage(cmd, "%s '%s' %s", opt, text ? text : "", why);
  if (!(v >= min && v <= max)) return sqz_cli_usage(cmd, "%s %s is outside [%g, %g]", opt, text, min, max);
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

int sqz_cli_device_entry(const char *cmd, const char *backend, const char *entry, char *id, size_t len,
                         const char **dev) {
  *dev = entry;
  if (!*entry || strspn(entry, "0123456789") != strlen(entry)) return 0;
  const char *want = backend ? backend : sqz_cli_option("backend") ? sqz_cli_option("backend") : "opencl";
  unsigned long long n = strtoull(entry, NULL, 10), seen = 0;
  sqz_device_list *l = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return 0;
  for (size_t i = 0; i < sqz_device_list_count(l) && *dev == entry; i++)
    if (strcmp(sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), want) == 0 && seen++ == n) {
      snprintf(id, len, "%s", sqz_device_list_str(l, i, SQZ_DEVICE_ID));
      *dev = id;
    }
  sqz_device_list_release(l);
  if (*dev != entry) return 0;
  return sqz_cli_usage(cmd, "device %s: the %s backend has %llu device%s in 'sqz devices'", entry, want, seen,
                       seen == 1 ? "" : "s");
}

int sqz_cli_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx) {
  char id[64]; /* --device N or SQZ_DEVICE=N: the backend's Nth device, as in a --devices list */
  const char *given = device && *device ? device : sqz_cli_option("device");
  int rc = given && *given ? sqz_cli_device_entry(cmd, backend, given, id, sizeof id, &device) : 0;
  if (rc) return rc;
  int st = sqz_context_create_opts(backend, device, sqz_cli_options(), ctx);
  if (st == SQZ_OK) sqz_cli_options_record(*ctx);
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
  sqz_json_str(j, "version", sqz_version_string()); /* every object says which sqz wrote it */
  sqz_cli_options_json(j);                            /* and with which options, where any were set */
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

char *sqz_json_rows(int n, void (*row)(FILE *out, int i, void *user), void *user) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = sqz_cli_memstream(&text, &len);
  if (!mem) return NULL;
  fputc('[', mem);
  for (int i = 0; i < n; i++) {
    if (i) fputc(',', mem);
    row(mem, i, user);
  }
  fputc(']', mem);
  fclose(mem);
  return text;
}

void sqz_cli_engine_json(sqz_json *j, const sqz_field *f) {
  const char *skipped = "", *engine = sqz_field_engine(f, &skipped);
  sqz_json_str(j, "engine", engine);
  sqz_json_str(j, "skipped", skipped);
}

void sqz_cli_engine_print(const sqz_field *f) {
  const char *skipped = "", *engine = sqz_field_engine(f, &skipped);
  if (*engine) printf("engine   %s\n", engine);
  if (*skipped) printf("skipped  %s\n", skipped);
}
