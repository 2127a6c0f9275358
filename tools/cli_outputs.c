/* cli_outputs.c — a command's output files committed together: unique temporaries beside the targets, renamed all at once or all removed; devices and FIFOs written in place. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"

/* One output of the running command. The signal handler reads `live` and the two paths, so an
 * entry's paths are set before live becomes 1 and freed only after it is 0 again (the CLI is one
 * thread; the library's threads never touch this table). */
typedef struct {
  const char *target;
  char *tmp; /* "<target>.XXXXXX", made by mkstemp; NULL for a target written in place */
  FILE *fp;  /* the stream the command writes (sqz_cli_output with fp), else NULL */
  volatile sig_atomic_t live;
} sqz_cli_out;

static sqz_cli_out sqz_cli_outs[SQZ_CLI_MAX_OUTPUTS];
static volatile sig_atomic_t sqz_cli_nouts;
static mode_t sqz_cli_umask = 022;

/* Removes every temporary still registered, the library's too (the signal handler of cli_guard.c calls it).
 * Async-signal-safe: unlink and sqz_remove_temporaries only. */
void sqz_cli_outputs_remove(void) {
  for (int i = 0; i < sqz_cli_nouts; i++) {
    if (sqz_cli_outs[i].live) unlink(sqz_cli_outs[i].tmp);
  }
  sqz_remove_temporaries();
}

void sqz_cli_outputs_init(void) {
  sqz_cli_umask = umask(0); /* read once, before any thread exists, and put back */
  umask(sqz_cli_umask);
}

/* The mode the target would get from fopen (an existing regular file's mode, else 0666 less the
 * umask) for the temporary fd. */
static void sqz__cli_temp_mode(int fd, const char *path) {
  struct stat st;
  (void)fchmod(fd, lstat(path, &st) == 0 && S_ISREG(st.st_mode) ? st.st_mode & 07777 : 0666 & ~sqz_cli_umask);
}

/* A device, FIFO, socket or /dev/fd/N target (sqz_path_in_place): no temporary, never renamed over or
 * removed; the library's save opens it as it is, and a stream for the command is opened now (a FIFO
 * waits for its reader, as a shell's > does). */
static int sqz__cli_in_place(const char *cmd, sqz_cli_out *o, const char **tmp, FILE **fp) {
  if (access(o->target, W_OK) != 0 || (fp && !(o->fp = fopen(o->target, "wb"))))
    return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: cannot open for writing: %s", o->target, strerror(errno));
  sqz_cli_nouts++;
  *tmp = o->target;
  if (fp) *fp = o->fp;
  return 0;
}

int sqz_cli_output(const char *cmd, const char *target, const char **tmp, FILE **fp) {
  struct stat st;
  if (sqz_cli_nouts == SQZ_CLI_MAX_OUTPUTS)
    return sqz_cli_error(cmd, SQZ_ERR_INTERNAL, "more than %d outputs", SQZ_CLI_MAX_OUTPUTS);
  if (lstat(target, &st) == 0 && S_ISDIR(st.st_mode)) /* rename would fail at the end: say so now */
    return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: cannot write: is a directory", target);
  sqz_cli_out *o = &sqz_cli_outs[sqz_cli_nouts];
  memset(o, 0, sizeof *o);
  o->target = target;
  if (sqz_path_in_place(target)) return sqz__cli_in_place(cmd, o, tmp, fp);
  /* "<target>.XXXXXX" made unique by mkstemp (O_EXCL: never an existing name or a link), in place in
   * a name the signal handler already removes: a signal at any moment finds the file's name (at
   * worst one that does not exist yet), never a file it does not know */
  size_t n = strlen(target);
  if (!(o->tmp = sqz_cli_malloc(n + 8)))
    return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: cannot create a temporary file beside it: %s", target, strerror(ENOMEM));
  memcpy(o->tmp, target, n);
  memcpy(o->tmp + n, ".XXXXXX", 8);
  atomic_signal_fence(memory_order_seq_cst); /* the handler sees the name before `live` */
  o->live = 1;
  sqz_cli_nouts++;
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    o->live = 0;
    sqz_cli_nouts--;
    atomic_signal_fence(memory_order_seq_cst); /* the handler stops looking before the name goes */
    free(o->tmp);
    o->tmp = NULL;
    return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: cannot create a temporary file beside it: %s", target, strerror(e));
  }
  sqz__cli_temp_mode(fd, target);
  if (fp && !(o->fp = fdopen(fd, "wb"))) {
    int e = errno;
    close(fd);
    return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: cannot open the temporary file: %s", target, strerror(e));
  }
  if (!fp) close(fd); /* the library's save replaces it whole (a temporary of its own, renamed over it) */
  *tmp = o->tmp;
  if (fp) *fp = o->fp;
  return 0;
}

/* Flushes, fsyncs and closes an output the command wrote itself; 0 or errno. */
static int sqz__cli_close(sqz_cli_out *o) {
  if (!o->fp) return 0;
  int e = 0;
  struct stat st; /* a FIFO or a device written in place refuses fsync (EINVAL) */
  int sync = !o->tmp && (fstat(fileno(o->fp), &st) != 0 || !S_ISREG(st.st_mode)) ? 0 : 1;
  errno = 0;
  if (fflush(o->fp) != 0 || (sync && fsync(fileno(o->fp)) != 0)) e = errno ? errno : EIO;
  if (fclose(o->fp) != 0 && !e) e = errno ? errno : EIO;
  o->fp = NULL;
  return e;
}

int sqz_cli_outputs_close(const char *cmd) {
  int n = sqz_cli_nouts, e = 0, i = 0;
  for (; i < n && !e; i++) e = sqz__cli_close(&sqz_cli_outs[i]);
  if (!e) return 0;
  const char *bad = sqz_cli_outs[i - 1].target;
  sqz_cli_outputs_abort();
  return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: write failed: %s; no output was written", bad, strerror(e));
}

int sqz_cli_outputs_rename(const char *cmd) {
  /* Every output is complete and on disk: the renames follow back to back. sqz_cli_output refused
   * targets that are folders, the one case where rename fails in a folder we could create files in. */
  int n = sqz_cli_nouts, e = 0, i = 0;
  for (; i < n && !e; i++)
    if (sqz_cli_outs[i].tmp && rename(sqz_cli_outs[i].tmp, sqz_cli_outs[i].target) != 0) e = errno;
    else sqz_cli_outs[i].live = 0;
  if (e) {
    const char *bad = sqz_cli_outs[i - 1].target;
    sqz_cli_outputs_abort();
    return sqz_cli_error(cmd, SQZ_ERR_IO, "%s: rename over the target failed: %s (%d of %d outputs were replaced)", bad,
                         strerror(e), i - 1, n);
  }
  sqz_cli_outputs_abort(); /* frees the names */
  return 0;
}

void sqz_cli_outputs_abort(void) {
  for (int i = sqz_cli_nouts - 1; i >= 0; i--) {
    sqz_cli_out *o = &sqz_cli_outs[i];
    if (o->fp) fclose(o->fp);
    o->fp = NULL;
    if (o->live) unlink(o->tmp);
    o->live = 0;
    sqz_cli_nouts = i;
    atomic_signal_fence(memory_order_seq_cst); /* ... and stops looking before the name goes */
    free(o->tmp);
    o->tmp = NULL;
  }
}

/* "<the real path of path's folder>/<its name>" into buf: two spellings of one output (x.npy, ./x.npy,
 * a folder reached through a link) come out the same. 0 when the folder cannot be resolved. */
static int sqz__cli_where(const char *path, char *buf, size_t cap) {
  const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
  char dir[PATH_MAX], real[PATH_MAX];
  size_t n = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
  if (n >= sizeof dir) return 0;
  memcpy(dir, slash ? path : ".", n);
  dir[n] = 0;
  return realpath(dir, real) && (size_t)snprintf(buf, cap, "%s/%s", real, name) < cap;
}

int sqz_cli_outputs_check(const char *cmd, const sqz_cli_path *outs, size_t n) {
  static char where[SQZ_CLI_MAX_OUTPUTS][PATH_MAX + 256];
  int rc = n > SQZ_CLI_MAX_OUTPUTS ? sqz_cli_error(cmd, SQZ_ERR_INTERNAL, "more than %d outputs", SQZ_CLI_MAX_OUTPUTS) : 0;
  for (size_t i = 0; i < n && !rc; i++) {
    const char *tmp = NULL;
    if (!outs[i].path || (rc = sqz_cli_output(cmd, outs[i].path, &tmp, NULL)) != 0) continue; /* a temporary there */
    if (!sqz__cli_where(outs[i].path, where[i], sizeof where[i])) where[i][0] = 0;
    for (size_t k = 0; k < i && !rc; k++)
      if (outs[k].path && where[i][0] && strcmp(where[k], where[i]) == 0)
        rc = sqz_cli_usage(cmd, "%s %s and %s %s are one file: give each output a path of its own", outs[k].opt,
                           outs[k].path, outs[i].opt, outs[i].path);
  }
  sqz_cli_outputs_abort(); /* the probes' temporaries */
  return rc;
}
