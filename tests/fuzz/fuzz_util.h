/* fuzz_util.h — helpers of the libFuzzer harnesses (tests/fuzz/fuzz_*.c): inputs as C strings and as files. */
#ifndef SQZ_FUZZ_UTIL_H
#define SQZ_FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The input as a NUL-terminated string (it ends at its first NUL byte, as a C string argument would). */
static inline char *sqz_fuzz_cstr(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

/* The input as a file (an anonymous memory file, reused across inputs): its path, /proc/self/fd/N, for readers
 * that take a path. */
static inline const char *sqz_fuzz_file(const uint8_t *data, size_t size) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("sqz_fuzz_input", 0);
    if (fd < 0) {
      perror("memfd_create");
      abort();
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
    perror("sqz_fuzz_file");
    abort();
  }
  return path;
}

/* stderr as it was at start-up: run_all.sh passes -close_fd_mask=2 to silence the CLI's usage messages, and
 * the message of a violated property still has to reach the log. */
static int sqz_fuzz_report_fd = 2;
__attribute__((constructor)) static void sqz_fuzz_keep_stderr(void) {
  int fd = dup(2);
  if (fd >= 0) sqz_fuzz_report_fd = fd;
}

/* A property the parser promises; a violation is a finding (abort: libFuzzer saves the input). */
#define SQZ_FUZZ_CHECK(cond)                                                                       \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      dprintf(sqz_fuzz_report_fd, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond);    \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)
#endif
