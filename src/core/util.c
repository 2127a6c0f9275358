/* util.c — error details, timing and overflow-checked arithmetic used across the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"

static _Thread_local char sqz_thread_detail[4096];

static void sqz__debug_print(const char *text) {
  const char *d = getenv("SQZ_DEBUG");
  if (d && *d && strcmp(d, "0") != 0) fprintf(stderr, "sqz: %s\n", text);
}

static void sqz__set_detail(sqz_context *ctx, const char *text) {
  if (!ctx) {
    snprintf(sqz_thread_detail, sizeof sqz_thread_detail, "%s", text);
    return;
  }
  size_t need = strlen(text) + 1;
  if (need > ctx->detail_cap) {
    char *p = realloc(ctx->detail, need);
    if (!p) return; /* keep the old detail rather than lose the status */
    ctx->detail = p;
    ctx->detail_cap = need;
  }
  memcpy(ctx->detail, text, need);
}

int sqz__fail(sqz_context *ctx, int status, const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sqz__set_detail(ctx, buf);
  sqz__debug_print(buf);
  return status;
}

void sqz__append_detail(sqz_context *ctx, const char *text) {
  if (!text || !*text) return;
  const char *old = ctx ? (ctx->detail ? ctx->detail : "") : sqz_thread_detail;
  size_t a = strlen(old), b = strlen(text);
  char *joined = malloc(a + b + 2);
  if (!joined) return;
  memcpy(joined, old, a);
  joined[a] = '\n';
  memcpy(joined + a + 1, text, b + 1);
  sqz__set_detail(ctx, joined);
  free(joined);
}

void sqz__clear_error(sqz_context *ctx) {
  if (!ctx) sqz_thread_detail[0] = 0;
  else if (ctx->detail) ctx->detail[0] = 0;
}

const char *sqz_last_error(const sqz_context *ctx) {
  if (!ctx) return sqz_thread_detail;
  return ctx->detail ? ctx->detail : "";
}

double sqz__now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sqz__finish(sqz_context *ctx) { return ctx->ops->finish(ctx); }

void sqz__op_begin(sqz_context *ctx) {
  if (!ctx) return;
  ctx->kernel_s = 0.0;
  ctx->wall_s = 0.0;
  ctx->op_start = sqz__now();
}

void sqz__op_end(sqz_context *ctx) {
  if (ctx) ctx->wall_s = sqz__now() - ctx->op_start;
}

int sqz_context_timing(const sqz_context *ctx, double *kernel_s, double *wall_s) {
  if (!ctx) return SQZ_ERR_INVALID_ARGUMENT;
  if (kernel_s) *kernel_s = ctx->kernel_s;
  if (wall_s) *wall_s = ctx->wall_s;
  return SQZ_OK;
}

int sqz__checked_mul(uint64_t a, uint64_t b, uint64_t *out) {
  if (a != 0 && b > UINT64_MAX / a) return 0;
  *out = a * b;
  return 1;
}

size_t sqz_type_size(sqz_type type) {
  switch (type) {
  case SQZ_U8: return 1;
  case SQZ_I32: return 4;
  case SQZ_F32: return 4;
  case SQZ_F64: return 8;
  }
  return 0;
}
