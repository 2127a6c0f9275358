/* util.c — error details and parser messages, locks and timing, and the integer helpers (checked products, powers) used across the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/backend.h"
#include "core/env.h"

static _Thread_local char sqz_thread_detail[4096];

/* The option debug of ctx, as set on it (the values of options.c; without a context, SQZ_DEBUG of the
 * environment): the detail to stderr too. */
static void sqz__debug_print(const sqz_context *ctx, const char *text) {
  const char *d = ctx ? NULL : sqz__env("debug");
  if (ctx ? ctx->opts.text[SQZ_OPT_DEBUG] && ctx->opts.num[SQZ_OPT_DEBUG] : d && strcmp(d, "0") != 0)
    fprintf(stderr, "sqz: %s\n", text);
}

/* The calling thread's slot in ctx (created when `create`); NULL when absent or out of
 * memory. Called with ctx->detail_lock held. */
static sqz_thread_slot *sqz__slot(sqz_context *ctx, int create) {
  pthread_t self = pthread_self();
  for (sqz_thread_slot *s = ctx->slots; s; s = s->next)
    if (pthread_equal(s->thread, self)) return s;
  if (!create) return NULL;
  sqz_thread_slot *s = sqz__calloc(1, sizeof *s);
  if (!s) return NULL;
  s->thread = self;
  s->next = ctx->slots;
  ctx->slots = s;
  return s;
}

static void sqz__set_detail(sqz_context *ctx, const char *text) {
  if (!ctx) {
    snprintf(sqz_thread_detail, sizeof sqz_thread_detail, "%s", text);
    return;
  }
  size_t need = strlen(text) + 1;
  pthread_mutex_lock(&ctx->detail_lock);
  sqz_thread_slot *s = sqz__slot(ctx, 1);
  if (s && need > s->cap) {
    char *p = sqz__realloc(s->detail, need);
    if (p) { /* else keep the old detail rather than lose the status */
      s->detail = p;
      s->cap = need;
    }
  }
  if (s && need <= s->cap) memcpy(s->detail, text, need);
  pthread_mutex_unlock(&ctx->detail_lock);
}

int sqz__fail(sqz_context *ctx, int status, const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sqz__set_detail(ctx, buf);
  sqz__debug_print(ctx, buf);
  return status;
}

void sqz__append_detail(sqz_context *ctx, const char *text) {
  if (!text || !*text) return;
  const char *old = sqz_last_error(ctx); /* the calling thread's: only this thread changes it */
  size_t a = strlen(old), b = strlen(text);
  char *joined = sqz__malloc(a + b + 2);
  if (!joined) return;
  memcpy(joined, old, a);
  joined[a] = '\n';
  memcpy(joined + a + 1, text, b + 1);
  sqz__set_detail(ctx, joined);
  free(joined);
}

int sqz__null_arg(sqz_context *ctx, const char *fn) {
  return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: NULL or empty argument", fn);
}

void sqz__clear_error(sqz_context *ctx) {
  if (!ctx) {
    sqz_thread_detail[0] = 0;
    return;
  }
  pthread_mutex_lock(&ctx->detail_lock);
  sqz_thread_slot *s = sqz__slot(ctx, 0);
  if (s && s->detail) s->detail[0] = 0;
  pthread_mutex_unlock(&ctx->detail_lock);
}

const char *sqz_last_error(const sqz_context *ctx) {
  if (!ctx) return sqz_thread_detail;
  sqz_context *c = (sqz_context *)ctx; /* the slot list, not the context, changes */
  pthread_mutex_lock(&c->detail_lock);
  sqz_thread_slot *s = sqz__slot(c, 0);
  const char *d = s && s->detail ? s->detail : "";
  pthread_mutex_unlock(&c->detail_lock);
  return d;
}

double sqz__now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sqz__finish(sqz_context *ctx) { return ctx->ops->finish(ctx); }

void sqz__lock(sqz_context *ctx) {
  if (ctx) pthread_mutex_lock(&ctx->lock);
}

void sqz__unlock(sqz_context *ctx) {
  if (ctx) pthread_mutex_unlock(&ctx->lock);
}

void sqz__op_begin(sqz_context *ctx) {
  if (!ctx) return;
  sqz__lock(ctx);
  ctx->kernel_s = 0.0;
  ctx->wall_s = 0.0;
  ctx->op_start = sqz__now();
}

void sqz__op_end(sqz_context *ctx) {
  if (!ctx) return;
  ctx->wall_s = sqz__now() - ctx->op_start;
  pthread_mutex_lock(&ctx->detail_lock);
  sqz_thread_slot *s = sqz__slot(ctx, 1);
  if (s) {
    s->kernel_s = ctx->kernel_s;
    s->wall_s = ctx->wall_s;
  }
  pthread_mutex_unlock(&ctx->detail_lock);
  sqz__unlock(ctx);
}

int sqz_context_timing(const sqz_context *ctx, double *kernel_s, double *wall_s) {
  if (!ctx) return SQZ_ERR_INVALID_ARGUMENT;
  sqz_context *c = (sqz_context *)ctx; /* the slot list, not the context, changes */
  pthread_mutex_lock(&c->detail_lock);
  sqz_thread_slot *s = sqz__slot(c, 0);
  if (kernel_s) *kernel_s = s ? s->kernel_s : 0.0;
  if (wall_s) *wall_s = s ? s->wall_s : 0.0;
  pthread_mutex_unlock(&c->detail_lock);
  return SQZ_OK;
}

void sqz__vappend(char *buf, size_t len, int at, const char *fmt, va_list ap) {
  if (at >= 0 && (size_t)at < len) vsnprintf(buf + at, len - (size_t)at, fmt, ap);
}

uint64_t sqz__ipow(uint64_t b, int e) {
  uint64_t p = 1;
  while (e-- > 0) p *= b;
  return p;
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
