/* atomic_file.c — outputs written whole or not at all: mkstemp beside the target, fsync, rename; devices, FIFOs and sockets written in place. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "io/atomic_file.h"

/* ---- the live temporaries, for a signal handler ---------------------------------------------
 * A fixed table (a handler may not allocate or lock): a slot is free (0), being filled (1) or holds
 * the path of a live temporary (2). Filling and freeing are atomic stores; the handler only reads
 * slots in state 2 and unlinks their paths. mkstemp runs on the slot's own buffer after the slot is
 * live, so a signal at any moment finds the name the file has or will have (at worst a name that
 * does not exist yet); registering after mkstemp left a window in which a signal, delivered to any
 * thread, missed a file that existed. A path longer than a slot, or a full table, leaves the
 * temporary unregistered: it is still removed on every failure, only not on a signal. */
#define SQZ_TEMP_SLOTS 32
#define SQZ_TEMP_PATH 4096
static struct {
  atomic_int state;
  char path[SQZ_TEMP_PATH];
} sqz_temps[SQZ_TEMP_SLOTS];

int sqz__temp_mkstemp(const char *path, int *fd, char **name) {
  size_t n = strlen(path);
  *fd = -1;
  *name = sqz__malloc(n + 8);
  if (!*name) return errno = ENOMEM, -1;
  memcpy(*name, path, n);
  memcpy(*name + n, ".XXXXXX", 8);
  for (int i = 0; n + 8 <= SQZ_TEMP_PATH && i < SQZ_TEMP_SLOTS; i++) {
    int free_slot = 0;
    if (!atomic_compare_exchange_strong(&sqz_temps[i].state, &free_slot, 1)) continue;
    memcpy(sqz_temps[i].path, *name, n + 8);
    atomic_store(&sqz_temps[i].state, 2); /* live before the file exists: mkstemp fills the name in place */
    *fd = mkstemp(sqz_temps[i].path);
    int e = errno;
    if (*fd < 0) {
      atomic_store(&sqz_temps[i].state, 0);
      errno = e;
      return -1;
    }
    memcpy(*name, sqz_temps[i].path, n + 8);
    return i;
  }
  *fd = mkstemp(*name); /* no slot: the temporary goes unregistered */
  return -1;
}

void sqz__temp_unregister(int slot) {
  if (slot >= 0 && slot < SQZ_TEMP_SLOTS) atomic_store(&sqz_temps[slot].state, 0);
}

void sqz_remove_temporaries(void) {
  for (int i = 0; i < SQZ_TEMP_SLOTS; i++)
    if (atomic_load(&sqz_temps[i].state) == 2) unlink(sqz_temps[i].path);
}

/* The process umask without changing it (umask() would race with other threads creating files):
 * Linux reports it in /proc/self/status. Returns 0 and sets *mask when it could be read. */
static int sqz__read_umask(mode_t *mask) {
  FILE *fp = fopen("/proc/self/status", "r");
  if (!fp) return 0;
  char line[256];
  int found = 0;
  while (!found && fgets(line, sizeof line, fp)) {
    unsigned long m;
    if (strncmp(line, "Umask:", 6) == 0 && sscanf(line + 6, "%lo", &m) == 1) {
      *mask = (mode_t)(m & 0777);
      found = 1;
    }
  }
  fclose(fp);
  return found;
}

/* Gives the temporary the mode fopen would have given the target: an existing regular file keeps
 * its mode, a new one gets 0666 less the umask. Where neither can be learnt, or the filesystem
 * refuses fchmod, mkstemp's 0600 stays: the safe side, and the content is what matters. */
static void sqz__atomic_mode(int fd, const char *path) {
  struct stat st;
  mode_t mask;
  if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) (void)fchmod(fd, st.st_mode & 07777);
  else if (sqz__read_umask(&mask)) (void)fchmod(fd, 0666 & ~mask);
}

/* ---- targets written in place ------------------------------------------------------------
 * A rename over a device, a FIFO or a socket would replace the special file with a regular one
 * (as root, /dev/null becomes a file): those are opened and written directly, not atomically. So
 * is a descriptor's link of /proc (/dev/fd/N, /dev/stdout, /proc/self/fd/N): its folder takes no
 * temporary, and the file behind it is the one the caller opened. */
#define SQZ_PROC_MAGIC 0x9fa0 /* PROC_SUPER_MAGIC */

/* The folder part of path into dir ("." when none); 0 when it does not fit. */
static int sqz__dir_of(const char *path, char *dir, size_t cap) {
  const char *slash = strrchr(path, '/');
  size_t n = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
  if (n >= cap) return 0;
  memcpy(dir, slash ? path : ".", n);
  dir[n] = 0;
  return 1;
}

/* 1 when path is a link in a folder of /proc, or leads to one through at most 8 links. */
static int sqz__proc_link(const char *path) {
  char cur[PATH_MAX], next[PATH_MAX], dir[PATH_MAX];
  if (strlen(path) >= sizeof cur) return 0;
  strcpy(cur, path);
  for (int hop = 0; hop < 8; hop++) {
    struct stat st;
    struct statfs fs;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode) || !sqz__dir_of(cur, dir, sizeof dir)) return 0;
    if (statfs(dir, &fs) == 0 && fs.f_type == SQZ_PROC_MAGIC) return 1;
    ssize_t n = readlink(cur, next, sizeof next - 1);
    if (n <= 0) return 0;
    next[n] = 0;
    if (next[0] == '/') strcpy(cur, next);
    else if ((size_t)snprintf(cur, sizeof cur, "%s/%s", dir, next) >= sizeof cur) return 0;
  }
  return 0;
}

int sqz_path_in_place(const char *path) {
  struct stat st;
  if (!path || stat(path, &st) != 0 || S_ISDIR(st.st_mode)) return 0; /* a new file, or a folder (refused) */
  return !S_ISREG(st.st_mode) || sqz__proc_link(path);
}

/* Opens an in-place target for writing, as a shell's > does (a FIFO waits for its reader). */
static int sqz__direct_open(sqz_context *ctx, const char *path, sqz_atomic_file *af) {
  int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!fp) {
    int e = errno;
    if (fd >= 0) close(fd);
    return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot open for writing: %s", path, strerror(e));
  }
  af->fp = fp;
  af->direct = 1;
  return SQZ_OK;
}

int sqz__atomic_open(sqz_context *ctx, const char *path, sqz_atomic_file *af) {
  af->fp = NULL;
  af->tmp = NULL;
  af->path = path;
  af->slot = -1;
  af->direct = 0;
  if (sqz_path_in_place(path)) return sqz__direct_open(ctx, path, af);
  char *tmp = NULL;
  int fd = -1, slot = sqz__temp_mkstemp(path, &fd, &tmp);
  if (!tmp)
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes for a temporary name", path,
                     strlen(path) + 8);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot create a temporary file beside it: %s", path, strerror(e));
  }
  sqz__atomic_mode(fd, path);
  FILE *fp = fdopen(fd, "wb");
  if (!fp) {
    int e = errno;
    close(fd);
    remove(tmp);
    sqz__temp_unregister(slot);
    free(tmp);
    return sqz__fail(ctx, SQZ_ERR_IO, "%s: cannot open the temporary file: %s", path, strerror(e));
  }
  af->fp = fp;
  af->tmp = tmp;
  af->slot = slot;
  return SQZ_OK;
}

int sqz__atomic_write(sqz_context *ctx, sqz_atomic_file *af, const void *data, size_t n) {
  errno = 0;
  if (n == 0 || fwrite(data, 1, n, af->fp) == n) return SQZ_OK;
  int e = errno ? errno : EIO;
  return sqz__fail(ctx, SQZ_ERR_IO, "%s: write failed: %s", af->path, strerror(e));
}

void sqz__atomic_abort(sqz_atomic_file *af) {
  if (af->fp) fclose(af->fp);
  if (af->tmp) { /* an empty handle ({0}) owns no slot */
    remove(af->tmp);
    sqz__temp_unregister(af->slot);
  }
  free(af->tmp);
  af->fp = NULL;
  af->tmp = NULL;
  af->slot = -1;
  af->direct = 0;
}

int sqz__atomic_commit(sqz_context *ctx, sqz_atomic_file *af) {
  const char *step = "flush";
  errno = 0;
  int ok = fflush(af->fp) == 0;
  struct stat st; /* fsync where it means something: devices and FIFOs refuse it (EINVAL) */
  if (ok && (!af->direct || (fstat(fileno(af->fp), &st) == 0 && S_ISREG(st.st_mode)))) {
    step = "fsync";
    ok = fsync(fileno(af->fp)) == 0;
  }
  int e = errno;
  FILE *fp = af->fp;
  af->fp = NULL;
  if (fclose(fp) != 0 && ok) {
    step = "close";
    e = errno;
    ok = 0;
  }
  if (ok && af->tmp && rename(af->tmp, af->path) != 0) {
    step = "rename over the target";
    e = errno;
    ok = 0;
  }
  if (!ok) {
    sqz__atomic_abort(af);
    return sqz__fail(ctx, SQZ_ERR_IO, "%s: %s failed: %s", af->path, step, strerror(e ? e : EIO));
  }
  sqz__temp_unregister(af->slot);
  af->slot = -1;
  free(af->tmp);
  af->tmp = NULL;
  return SQZ_OK;
}
