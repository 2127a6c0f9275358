/* cmd_edm.c — `sqz edm`: Euclidean distance matrix of a points file into packed lower-triangle float32. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

static const char *sqz_edm_help =
    "usage: sqz edm --points FILE --out FILE.f32 [--map M] [--backend B] [--device D] [--json]\n"
    "\n"
    "Reads N points, one 'x y' pair of numbers per line ('#' starts a comment, blank lines are\n"
    "skipped), and writes the N(N+1)/2 Euclidean distances of the lower triangle in row-major\n"
    "order (y = 0..N-1, x = 0..y) as little-endian float32. Nothing is written on error.\n"
    "--map picks the 2D thread map:\n";

/* Reads the points file into *xy (2 floats per point). Returns 0 or the exit status. */
static int sqz__read_points(const char *path, float **xy, uint64_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return sqz_cli_usage("edm", "cannot open points file '%s': %s", path, strerror(errno));
  size_t cap = 1024, count = 0;
  float *pts = sqz_cli_malloc(cap * 2 * sizeof *pts);
  char line[4096];
  unsigned long lineno = 0;
  int rc = pts ? 0 : (fprintf(stderr, "sqz edm: out of memory\n"), 1);
  while (rc == 0 && fgets(line, sizeof line, f)) {
    lineno++;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
      rc = sqz_cli_usage("edm", "%s:%lu: line longer than %zu characters", path, lineno, sizeof line - 2);
      break;
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *p = line, *end;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (!*p) continue;
    double v[2];
    int ok = 1;
    for (int k = 0; k < 2 && ok; k++) {
      errno = 0;
      v[k] = strtod(p, &end);
      ok = end != p && (*end == 0 || *end == ' ' || *end == '\t' || *end == '\r' || *end == '\n');
      ok = ok && isfinite(v[k]) && fabs(v[k]) <= 3.4e38;
      p = end;
    }
    while (ok && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    if (!ok || *p) {
      line[strcspn(line, "\r\n")] = 0;
      rc = sqz_cli_usage("edm", "%s:%lu: expected two finite numbers 'x y', got '%s'", path, lineno, line);
      break;
    }
    if (count == cap) {
      float *more = sqz_cli_realloc(pts, cap * 4 * sizeof *pts);
      if (!more) {
        fprintf(stderr, "sqz edm: out of memory after %zu points\n", count);
        rc = 1;
        break;
      }
      pts = more;
      cap *= 2;
    }
    pts[2 * count] = (float)v[0];
    pts[2 * count + 1] = (float)v[1];
    count++;
  }
  if (rc == 0 && ferror(f)) rc = sqz_cli_usage("edm", "error reading '%s'", path);
  if (rc == 0 && count == 0) rc = sqz_cli_usage("edm", "%s: no points", path);
  fclose(f);
  if (rc != 0) {
    free(pts);
    return rc;
  }
  *xy = pts;
  *n = count;
  return 0;
}

/* Writes the entries as little-endian float32 to the output's temporary (renamed over path by
 * sqz_cli_commit once whole). Returns 0 or the exit status. */
static int sqz__write_f32(const char *path, const float *v, uint64_t count) {
  const char *tmp = NULL;
  FILE *f = NULL;
  int rc = sqz_cli_output("edm", path, &tmp, &f);
  if (rc != 0) return rc;
  const uint16_t probe = 1;
  int little = *(const unsigned char *)&probe == 1;
  unsigned char buf[4096];
  for (uint64_t i = 0; i < count && rc == 0;) {
    size_t k = 0;
    for (; k < sizeof buf / 4 && i < count; k++, i++) {
      memcpy(buf + 4 * k, &v[i], 4);
      if (!little) {
        unsigned char t = buf[4 * k], u = buf[4 * k + 1];
        buf[4 * k] = buf[4 * k + 3], buf[4 * k + 1] = buf[4 * k + 2], buf[4 * k + 2] = u, buf[4 * k + 3] = t;
      }
    }
    if (fwrite(buf, 4, k, f) != k) rc = sqz_cli_error("edm", SQZ_ERR_IO, "%s: write failed: %s", path, strerror(errno));
  }
  return rc != 0 ? rc : sqz_cli_commit("edm");
}

int sqz_cmd_edm(int argc, char **argv) {
  const char *points = NULL, *out = NULL, *map = NULL, *backend = NULL, *device = NULL, *v = NULL;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    int m;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(sqz_edm_help, stdout);
      sqz_cli_help_maps(stdout, "  ", SQZ_FAMILY_SIMPLEX, 2);
      return 0;
    }
    if ((m = sqz_cli_opt(argc, argv, &i, "--points", 1, &v)) > 0) points = v;
    else if (m == 0 && (m = sqz_cli_opt(argc, argv, &i, "--out", 1, &v)) > 0) out = v;
    else if (m == 0 && (m = sqz_cli_opt(argc, argv, &i, "--map", 1, &v)) > 0) map = v;
    else if (m == 0 && (m = sqz_cli_opt(argc, argv, &i, "--backend", 1, &v)) > 0) backend = v;
    else if (m == 0 && (m = sqz_cli_opt(argc, argv, &i, "--device", 1, &v)) > 0) device = v;
    else if (m == 0 && (m = sqz_cli_opt(argc, argv, &i, "--json", 0, &v)) > 0) json = 1;
    if (m < 0) return sqz_cli_usage("edm", "option %s needs a value", argv[i]);
    if (m == 0) return sqz_cli_usage("edm", "unknown option '%s'", argv[i]);
  }
  if (!points) return sqz_cli_usage("edm", "--points FILE is required");
  if (!out) return sqz_cli_usage("edm", "--out FILE.f32 is required");
  float *xy = NULL, *res = NULL;
  uint64_t n = 0;
  int rc = sqz__read_points(points, &xy, &n);
  if (rc != 0) return rc;
  sqz_context *ctx = NULL;
  if ((rc = sqz_cli_open("edm", backend, device, &ctx)) != 0) goto done;
  uint64_t entries = n * (n + 1) / 2;
  res = sqz_cli_malloc((size_t)entries * sizeof *res);
  if (!res) {
    fprintf(stderr, "sqz edm: %llu points need %llu bytes of host memory\n", (unsigned long long)n,
            (unsigned long long)(entries * sizeof *res));
    rc = 1;
    goto done;
  }
  int st = sqz_edm(ctx, xy, n, map, res);
  if (st != SQZ_OK) {
    rc = sqz_cli_fail("edm", ctx, st);
    goto done;
  }
  double kernel_s = 0, wall_s = 0;
  sqz_context_timing(ctx, &kernel_s, &wall_s);
  if ((rc = sqz__write_f32(out, res, entries)) != 0) goto done;
  if (json) {
    sqz_json j;
    sqz_json_begin(&j, stdout);
    sqz_json_u64(&j, "points", n);
    sqz_json_u64(&j, "entries", entries);
    sqz_json_str(&j, "map", map ? map : sqz_simplex_default_map(2, n));
    sqz_json_str(&j, "out", out);
    sqz_json_num(&j, "kernel_s", kernel_s);
    sqz_json_num(&j, "wall_s", wall_s);
    sqz_json_u64(&j, "bytes", entries * 4);
    sqz_json_str(&j, "backend", sqz_context_backend(ctx));
    sqz_json_str(&j, "device", sqz_context_device_name(ctx));
    sqz_json_end(&j);
  } else {
    printf("edm: %llu points -> %llu distances in %s (map %s, %s): kernel %.6f s, end-to-end %.6f s\n",
           (unsigned long long)n, (unsigned long long)entries, out, map ? map : sqz_simplex_default_map(2, n),
           sqz_context_device_name(ctx), kernel_s, wall_s);
  }
done:
  sqz_cli_outputs_abort();
  free(xy);
  free(res);
  sqz_context_release(ctx);
  return rc;
}
