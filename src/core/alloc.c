/* alloc.c — every host allocation of the library (sqz__malloc, sqz__calloc, sqz__realloc), with the SQZ_FAULT_ALLOC test hook; depends on nothing else of sqz but env.c. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/env.h"
#include "core/sqz_internal.h"

/* SQZ_FAULT_ALLOC=N (decimal, read once per process) makes the Nth call of sqz__malloc, sqz__calloc
 * and sqz__realloc fail as if the system were out of memory (counted over all threads; 0, unset or
 * not a number: never). tests/fault.sh raises N until a command succeeds. */
static pthread_once_t sqz_fault_once = PTHREAD_ONCE_INIT;
static uint64_t sqz_fault_at;
static _Atomic uint64_t sqz_fault_calls;

static void sqz__fault_read(void) {
  const char *v = sqz__env("fault_alloc"); /* the option fault_alloc, of scope process */
  uint64_t n = 0;
  for (; v && *v >= '0' && *v <= '9' && n <= (UINT64_MAX - 9) / 10; v++) n = n * 10 + (uint64_t)(*v - '0');
  sqz_fault_at = v && *v == 0 ? n : 0;
}

/* 1 when this allocation is the one SQZ_FAULT_ALLOC names. */
static int sqz__fault_now(void) {
  pthread_once(&sqz_fault_once, sqz__fault_read);
  return sqz_fault_at && atomic_fetch_add_explicit(&sqz_fault_calls, 1u, memory_order_relaxed) + 1u == sqz_fault_at;
}

void *sqz__malloc(size_t bytes) { return sqz__fault_now() ? NULL : malloc(bytes); }
void *sqz__calloc(size_t count, size_t size) { return sqz__fault_now() ? NULL : calloc(count, size); }
void *sqz__realloc(void *p, size_t bytes) { return sqz__fault_now() ? NULL : realloc(p, bytes); }
