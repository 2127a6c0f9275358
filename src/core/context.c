/* context.c — context creation: backend choice, device selection, reference counting and context queries. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"

static int sqz__ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

sqz_context *sqz__context_new(const sqz_backend_ops *ops) {
  sqz_context *ctx = sqz__calloc(1, sizeof *ctx);
  if (!ctx) return NULL;
  pthread_mutexattr_t attr;
  int ok = pthread_mutexattr_init(&attr) == 0;
  ok = ok && pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) == 0;
  ok = ok && pthread_mutex_init(&ctx->lock, &attr) == 0;
  if (ok && pthread_mutex_init(&ctx->detail_lock, NULL) != 0) {
    pthread_mutex_destroy(&ctx->lock);
    ok = 0;
  }
  pthread_mutexattr_destroy(&attr);
  if (!ok) {
    free(ctx);
    return NULL;
  }
  ctx->ops = ops;
  atomic_init(&ctx->refs, 1u);
  return ctx;
}

void sqz__context_free(sqz_context *ctx) {
  if (!ctx) return;
  for (sqz_thread_slot *s = ctx->slots, *next; s; s = next) {
    next = s->next;
    free(s->detail);
    free(s);
  }
  sqz__opt_free(&ctx->opts);
  pthread_mutex_destroy(&ctx->detail_lock);
  pthread_mutex_destroy(&ctx->lock);
  free(ctx);
}
/* Applies the "name=value" entries of options over v (the environment's). */
static int sqz__opt_list(sqz_opt_values *v, const char *const *options) {
  for (; options && *options; options++) {
    const char *eq = strchr(*options, '=');
    char name[64];
    if (!eq || (size_t)(eq - *options) >= sizeof name)
      return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "option '%s': expected NAME=VALUE", *options);
    snprintf(name, sizeof name, "%.*s", (int)(eq - *options), *options);
    int st = sqz__opt_set(NULL, v, name, eq + 1, SQZ_OPT_WHERE_CREATION);
    if (st != SQZ_OK) return st;
  }
  return SQZ_OK;
}

/* The backend named (NULL: the default, whose fallback *fallback may replace it); NULL after a failure. */
static const sqz_backend_ops *sqz__backend_named(const char *backend, const sqz_backend_ops **fallback) {
  const sqz_backend_ops *ops = NULL;
  for (const sqz_backend_ops *const *b = sqz__backends; *b; b++) {
    if (sqz__ieq(backend ? backend : sqz__backends[0]->name, (*b)->name)) ops = *b;
    if ((*b)->fallback) *fallback = *b;
  }
  if (ops) return ops;
  char names[128] = "";
  for (const sqz_backend_ops *const *b = sqz__backends; *b; b++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", b == sqz__backends ? "" : ", ", (*b)->name);
  sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "unknown backend '%s' (expected %s)", backend, names);
  return NULL;
}

/* Opens ctx (its options set) on backend ops or, where the default backend has no device, its fallback. */
static int sqz__context_open(sqz_context *ctx, int explicit_backend, const sqz_backend_ops *fallback, const char *device) {
  const sqz_backend_ops *ops = ctx->ops;
  int st = ops->open(ctx, device);
  if (st == SQZ_ERR_BACKEND_UNAVAILABLE && !explicit_backend && fallback && fallback != ops &&
      !sqz__opt_num(ctx, NULL, SQZ_OPT_REQUIRE_OPENCL, 0)) { /* no device for the default backend: the fallback */
    ops->close(ctx);
    sqz__clear_error(ctx);
    ctx->ops = fallback;
    st = fallback->open(ctx, device);
  }
  return st;
}

int sqz_context_create_opts(const char *backend, const char *device, const char *const *options, sqz_context **out) {
  if (!out) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_create: out is NULL");
  *out = NULL;
  sqz__clear_error(NULL);
  sqz_opt_values v = {{0}, {0}, 0};
  int st = sqz__opt_from_env(NULL, &v);
  if (st == SQZ_OK) st = sqz__opt_list(&v, options);
  if (!backend || !*backend) backend = v.text[SQZ_OPT_BACKEND];
  if (!device || !*device) device = v.text[SQZ_OPT_DEVICE];
  const sqz_backend_ops *fallback = NULL, *ops = st == SQZ_OK ? sqz__backend_named(backend, &fallback) : NULL;
  sqz_context *ctx = ops ? sqz__context_new(ops) : NULL;
  if (ops && !ctx) sqz__fail(NULL, SQZ_ERR_OUT_OF_MEMORY, "cannot allocate a context");
  if (!ctx) {
    sqz__opt_free(&v);
    return st != SQZ_OK ? st : ops ? SQZ_ERR_OUT_OF_MEMORY : SQZ_ERR_INVALID_ARGUMENT;
  }
  ctx->opts = v; /* the context's from now on: device and backend point into it */
  st = sqz__context_open(ctx, backend != NULL, fallback, device);
  if (st != SQZ_OK) {
    sqz__fail(NULL, st, "%s", sqz_last_error(ctx));
    sqz_context_release(ctx);
    return st;
  }
  *out = ctx;
  return SQZ_OK;
}

int sqz_context_create(const char *backend, const char *device, sqz_context **out) {
  return sqz_context_create_opts(backend, device, NULL, out);
}

void sqz_context_retain(sqz_context *ctx) {
  if (ctx) atomic_fetch_add_explicit(&ctx->refs, 1u, memory_order_relaxed);
}

void sqz_context_release(sqz_context *ctx) {
  if (!ctx || atomic_fetch_sub_explicit(&ctx->refs, 1u, memory_order_acq_rel) != 1u) return;
  ctx->ops->close(ctx); /* the last reference: no domain or field of ctx is left */
  sqz__context_free(ctx);
}

const char *sqz_context_backend(const sqz_context *ctx) { return ctx ? ctx->ops->name : ""; }
const char *sqz_context_device_name(const sqz_context *ctx) { return ctx ? ctx->device_name : ""; }
uint64_t sqz_context_global_mem(const sqz_context *ctx) { return ctx ? ctx->global_mem : 0; }
uint64_t sqz_context_max_alloc(const sqz_context *ctx) { return ctx ? ctx->max_alloc : 0; }
