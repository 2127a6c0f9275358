/* atomic_file.h — outputs written whole or not at all: a temporary beside the target, renamed over it. */
#ifndef SQZ_ATOMIC_FILE_H
#define SQZ_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "core/sqz_internal.h"

typedef struct {
  FILE *fp;         /* the open temporary; NULL when the handle is empty */
  char *tmp;        /* its path "<path>.XXXXXX" (malloc'ed) */
  const char *path; /* the target (the caller's string, which must outlive the handle) */
} sqz_atomic_file;

/* Creates a unique temporary "<path>.XXXXXX" in the target's directory (mkstemp) and opens it
 * for binary writing, with the permissions the target would get from fopen (an existing regular
 * target's mode, else 0666 less the umask). On failure returns SQZ_ERR_IO with strerror(errno)
 * in the detail, creates nothing and leaves *af empty. */
SQZ_INTERNAL int sqz__atomic_open(sqz_context *ctx, const char *path, sqz_atomic_file *af);
/* Writes n bytes to the temporary; SQZ_ERR_IO with strerror(errno) on a short write (the handle
 * stays open: the caller aborts it). */
SQZ_INTERNAL int sqz__atomic_write(sqz_context *ctx, sqz_atomic_file *af, const void *data, size_t n);
/* fflush, fsync, fclose, then rename over the target. On any failure the temporary is removed,
 * an existing target is left untouched, and SQZ_ERR_IO carries strerror(errno). The handle is
 * empty afterwards either way. */
SQZ_INTERNAL int sqz__atomic_commit(sqz_context *ctx, sqz_atomic_file *af);
/* Closes and removes the temporary; a no-op on an empty handle. */
SQZ_INTERNAL void sqz__atomic_abort(sqz_atomic_file *af);

#endif /* SQZ_ATOMIC_FILE_H */
