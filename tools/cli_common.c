/* cli_common.c — the sqz commands' basics: host allocations, usage and failure messages, option matching, strict numbers, file extensions, JSON strings. */
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


int sqz_cli_has_ext(const char *path, const char *ext) {
  size_t n = strlen(path), k = strlen(ext);
  if (n < k) return 0;
  for (size_t i = 0; i < k; i++)
    if ((path[n - k + i] | 32) != ext[i]) return 0;
  return 1;
}
