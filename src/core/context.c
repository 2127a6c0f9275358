/* context.c — context creation: backend choice, device selection, reference counting and context queries. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
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
  pthread_mutex_destroy(&ctx->detail_lock);
  pthread_mutex_destroy(&ctx->lock);
  free(ctx);
}
int sqz__max_alloc_env(uint64_t *bytes) {
  static const char units[] = "kmgt";
  const char *v = getenv("SQZ_MAX_ALLOC"), *p = v;
  uint64_t n = 0;
  *bytes = 0;
  if (!v || !*v) return 1;
  if (*p < '0' || *p > '9') return 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return 0;
    n = n * 10 + (uint64_t)(*p - '0');
  }
  const char *u = *p ? strchr(units, tolower((unsigned char)*p)) : NULL;
  int shift = u ? 10 * (int)(u - units + 1) : 0;
  if (u && tolower((unsigned char)*++p) == 'i' && tolower((unsigned char)*++p) != 'b') return 0; /* iB, not i */
  if (tolower((unsigned char)*p) == 'b') p++;
  if (*p || (shift && n > UINT64_MAX >> shift)) return 0;
  *bytes = n << shift;
  return 1;
}


int sqz_context_create(const char *backend, const char *device, sqz_context **out) {
  if (!out) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_create: out is NULL");
  *out = NULL;
  sqz__clear_error(NULL);
  int explicit_backend = backend && *backend;
  if (!explicit_backend) {
    backend = getenv("SQZ_BACKEND");
    explicit_backend = backend && *backend;
  }
  if (!device || !*device) device = getenv("SQZ_DEVICE");
  uint64_t cap = 0;
  if (!sqz__max_alloc_env(&cap))
    return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT,
                     "SQZ_MAX_ALLOC='%s': expected bytes with an optional unit K, M, G or T (powers of 1024, "
                     "B or iB may follow, any case: 4096, 512K, 2GiB)", getenv("SQZ_MAX_ALLOC"));
  if (!explicit_backend) backend = sqz__backends[0]->name; /* the default backend */

  const sqz_backend_ops *ops = NULL, *fallback = NULL;
  for (const sqz_backend_ops *const *b = sqz__backends; *b; b++) {
    if (sqz__ieq(backend, (*b)->name)) ops = *b;
    if ((*b)->fallback) fallback = *b;
  }
  if (!ops) {
    char names[128] = "";
    for (const sqz_backend_ops *const *b = sqz__backends; *b; b++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", b == sqz__backends ? "" : ", ", (*b)->name);
    return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "unknown backend '%s' (expected %s)", backend, names);
  }
  sqz_context *ctx = sqz__context_new(ops);
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_OUT_OF_MEMORY, "cannot allocate a context");
  int st = ops->open(ctx, device);
  const char *req = getenv("SQZ_REQUIRE_OPENCL");
  if (st == SQZ_ERR_BACKEND_UNAVAILABLE && !explicit_backend && fallback && fallback != ops &&
      !(req && *req && strcmp(req, "0") != 0)) { /* no device for the default backend: the fallback */
    ops->close(ctx);
    sqz__clear_error(ctx);
    ctx->ops = fallback;
    st = fallback->open(ctx, device);
  }
  if (st != SQZ_OK) {
    sqz__fail(NULL, st, "%s", sqz_last_error(ctx));
    sqz_context_release(ctx);
    return st;
  }
  *out = ctx;
  return SQZ_OK;
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
