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
  int slot;         /* its entry among the live temporaries (sqz_remove_temporaries), -1 when none */
  int direct;       /* 1: fp is the target itself (sqz_path_in_place: a device, FIFO, socket), tmp NULL */
} sqz_atomic_file;

/* A target that sqz_path_in_place (include/sqz.h) names, a device, a FIFO, a socket or a descriptor's
 * link, is opened for writing as it is (no temporary, no rename; a FIFO waits for its reader) and
 * the handle is direct: commit flushes and closes it, abort closes it, neither removes anything.
 * Otherwise: creates a unique temporary "<path>.XXXXXX" in the target's directory (mkstemp: O_CREAT|O_EXCL, so
 * neither an existing file nor a link there is ever opened), registers it among the live
 * temporaries that sqz_remove_temporaries unlinks, and opens it
 * for binary writing, with the permissions the target would get from fopen (an existing regular
 * target's mode, else 0666 less the umask). On failure returns SQZ_ERR_IO with strerror(errno)
 * in the detail, creates nothing and leaves *af empty. */
SQZ_COMPONENT int sqz__atomic_open(sqz_context *ctx, const char *path, sqz_atomic_file *af);
/* Writes n bytes to the temporary; SQZ_ERR_IO with strerror(errno) on a short write (the handle
 * stays open: the caller aborts it). */
SQZ_COMPONENT int sqz__atomic_write(sqz_context *ctx, sqz_atomic_file *af, const void *data, size_t n);
/* fflush, fsync (of a regular file), fclose, then rename over the target (not for a direct handle). On any failure the temporary is removed,
 * an existing target is left untouched, and SQZ_ERR_IO carries strerror(errno). The handle is
 * empty afterwards either way. */
SQZ_COMPONENT int sqz__atomic_commit(sqz_context *ctx, sqz_atomic_file *af);
/* Closes and removes the temporary; a no-op on an empty handle. */
SQZ_COMPONENT void sqz__atomic_abort(sqz_atomic_file *af);

/* The table of live temporaries behind sqz_remove_temporaries (include/sqz.h): creates the temporary
 * "<path>.XXXXXX" with mkstemp in a live slot (a signal at any moment removes it), *name its
 * malloc'ed name (NULL: out of memory), *fd the open descriptor or -1 with errno; returns the slot,
 * or -1 when the name does not fit one or the table is full (the temporary then goes unregistered).
 * sqz__temp_unregister frees a slot (-1 is a no-op). */
SQZ_INTERNAL int sqz__temp_mkstemp(const char *path, int *fd, char **name);
SQZ_INTERNAL void sqz__temp_unregister(int slot);

#endif /* SQZ_ATOMIC_FILE_H */
