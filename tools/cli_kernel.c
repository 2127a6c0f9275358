/* cli_kernel.c — a user kernel's settings for sqz run and sqz bench: --type, --param values and the FILE.cl text. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"

int sqz_cli_parse_type(const char *cmd, const char *text, int floats_only, sqz_type *t) {
  static const struct { const char *name; sqz_type t; } types[] = {
      {"u8", SQZ_U8}, {"i32", SQZ_I32}, {"f32", SQZ_F32}, {"f64", SQZ_F64}};
  for (size_t i = floats_only ? 2 : 0; i < 4; i++)
    if (strcmp(text, types[i].name) == 0) {
      *t = types[i].t;
      return 0;
    }
  return sqz_cli_usage(cmd, "--type '%s': expected %s", text, floats_only ? "f32 or f64" : "u8, i32, f32 or f64");
}

int sqz_cli_parse_params(const char *cmd, const char *text, double **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!text) return 0;
  size_t cap = 1;
  for (const char *p = text; *p; p++) cap += *p == ',';
  double *v = sqz_cli_malloc(cap * sizeof *v);
  char *tok = sqz_cli_malloc(strlen(text) + 1);
  if (!v || !tok) {
    free(v);
    free(tok);
    return sqz_cli_error(cmd, SQZ_ERR_OUT_OF_MEMORY, "--param: %zu values", cap);
  }
  const char *p = text;
  int rc = 0;
  for (size_t i = 0; i < cap && rc == 0; i++) {
    size_t len = strcspn(p, ",");
    char opt[48];
    memcpy(tok, p, len);
    tok[len] = 0;
    snprintf(opt, sizeof opt, "--param value %zu", i + 1);
    rc = sqz_cli_double(cmd, opt, tok, -HUGE_VAL, HUGE_VAL, &v[i]);
    p += len + (p[len] == ',');
  }
  free(tok);
  if (rc) {
    free(v);
    return rc;
  }
  *out = v;
  *n = cap;
  return 0;
}

/* A kernel source is at most SQZ_KERNEL_MAX bytes (docs/CONTRACTS.md): a link to /dev/zero or a huge file is refused
 * after reading that much, not read until the host runs out of memory. */
#define SQZ_KERNEL_MAX ((size_t)16 << 20)

int sqz_cli_read_kernel(const char *cmd, const char *opt, const char *path, char **out) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return sqz_cli_usage(cmd, "%s %s: %s", opt, path, strerror(errno));
  size_t cap = 4096, n = 0;
  char *buf = sqz_cli_malloc(cap);
  for (size_t got; buf && n <= SQZ_KERNEL_MAX && (got = fread(buf + n, 1, cap - n - 1, fp)) > 0;) {
    n += got;
    if (n + 1 == cap && n <= SQZ_KERNEL_MAX) { /* room for SQZ_KERNEL_MAX + 1 bytes and the NUL at most */
      char *b = sqz_cli_realloc(buf, cap = cap * 2 > SQZ_KERNEL_MAX + 2 ? SQZ_KERNEL_MAX + 2 : cap * 2);
      if (!b) free(buf);
      buf = b;
    }
  }
  int bad = ferror(fp);
  fclose(fp);
  if (!buf) return sqz_cli_error(cmd, SQZ_ERR_OUT_OF_MEMORY, "%s %s: %zu bytes", opt, path, cap);
  if (bad || n > SQZ_KERNEL_MAX) {
    free(buf);
    return n > SQZ_KERNEL_MAX ? sqz_cli_usage(cmd, "%s %s: larger than %zu bytes (16 MiB), the limit for a "
                                                   "kernel source", opt, path, SQZ_KERNEL_MAX)
                              : sqz_cli_usage(cmd, "%s %s: cannot read the file", opt, path);
  }
  buf[n] = 0;
  if (strlen(buf) != n) {
    free(buf);
    return sqz_cli_usage(cmd, "%s %s: the file holds a NUL byte (not OpenCL C text)", opt, path);
  }
  *out = buf;
  return 0;
}
