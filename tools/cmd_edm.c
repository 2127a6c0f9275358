/* cmd_edm.c — `sqz edm`: Euclidean distance matrix of a points file into packed lower-triangle float32. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_table.h"
#include "cmds.h"

typedef struct {
  sqz_cli_set s; /* --out, --map, --backend, --device, --json */
  const char *points;
} sqz_edm_opts;

static const sqz_cli_optdef sqz_edm_points = {"--points", "FILE", "the points: one 'x y' pair of numbers a line (required)",
                                              sqz_cli_p_text, offsetof(sqz_edm_opts, points), 0, 0};
static const sqz_cli_optdef sqz_edm_out = SQZ_CLI_TEXT(
    "--out", "FILE.f32", out, "the N(N+1)/2 distances as little-endian float32 (required; nothing written on error)");
static const sqz_cli_optdef sqz_edm_map =
    SQZ_CLI_TEXT("--map", "M", map, "the 2D thread map: one of the maps below (default: the fastest for N)");
static const sqz_cli_optdef *const sqz_edm_opt_list[] = {&sqz_edm_points,      &sqz_edm_out,       &sqz_edm_map,
                                                          &sqz_cli_opt_backend, &sqz_cli_opt_device, &sqz_cli_opt_json,
                                                          &sqz_cli_opt_option,  NULL};


static const sqz_cli_cmd sqz_edm_cmd = {
    "edm", "--points FILE --out FILE.f32 [options]",
    "Reads N points, one 'x y' pair of numbers per line ('#' starts a comment, blank lines are\n"
    "skipped), and writes the N(N+1)/2 Euclidean distances of the lower triangle in row-major\n"
    "order (y = 0..N-1, x = 0..y) as little-endian float32. Nothing is written on error.\n",
    sqz_edm_opt_list, 0, {NULL, 0, NULL}, {"--map", SQZ_FAMILY_SIMPLEX, 2, NULL, 0}};

static int sqz__blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* One line of the points file into v: 1, 0 for a blank line or a comment, -1 when it is not two finite numbers
 * within float range. */
static int sqz__point_line(char *line, double v[2]) {
  char *hash = strchr(line, '#'), *p = line, *end;
  if (hash) *hash = 0;
  while (sqz__blank(*p)) p++;
  if (!*p) return 0;
  for (int k = 0; k < 2; k++) {
    errno = 0;
    v[k] = strtod(p, &end);
    if (end == p || (*end && !sqz__blank(*end)) || !isfinite(v[k]) || fabs(v[k]) > 3.4e38) return -1;
    p = end;
  }
  while (sqz__blank(*p)) p++;
  return *p ? -1 : 1;
}

/* Room for one more point in *pts (cap points): 0, or 1 after a message. */
static int sqz__points_room(float **pts, size_t *cap, size_t count) {
  if (count < *cap) return 0;
  float *more = sqz_cli_realloc(*pts, *cap * 4 * sizeof **pts);
  if (!more) {
    fprintf(stderr, "sqz edm: out of memory after %zu points\n", count);
    return 1;
  }
  *pts = more;
  *cap *= 2;
  return 0;
}

/* The points of f into pts (cap points): 0 or the exit status. */
static int sqz__points_lines(FILE *f, const char *path, float **pts, size_t *cap, size_t *count) {
  char line[4096];
  unsigned long lineno = 0;
  double v[2];
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    lineno++;
    if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f))
      return sqz_cli_usage("edm", "%s:%lu: line longer than %zu characters", path, lineno, sizeof line - 2);
    int got = sqz__point_line(line, v);
    if (got < 0) {
      line[strcspn(line, "\r\n")] = 0;
      return sqz_cli_usage("edm", "%s:%lu: expected two finite numbers 'x y', got '%s'", path, lineno, line);
    }
    if (got == 0) continue;
    if (sqz__points_room(pts, cap, *count)) return 1;
    (*pts)[2 * *count] = (float)v[0];
    (*pts)[2 * *count + 1] = (float)v[1];
    ++*count;
  }
  if (ferror(f)) return sqz_cli_usage("edm", "error reading '%s'", path);
  return *count ? 0 : sqz_cli_usage("edm", "%s: no points", path);
}

/* Reads the points file into *xy (2 floats per point). Returns 0 or the exit status. */
static int sqz__read_points(const char *path, float **xy, uint64_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return sqz_cli_usage("edm", "cannot open points file '%s': %s", path, strerror(errno));
  size_t cap = 1024, count = 0;
  float *pts = sqz_cli_malloc(cap * 2 * sizeof *pts);
  int rc = pts ? sqz__points_lines(f, path, &pts, &cap, &count) : (fprintf(stderr, "sqz edm: out of memory\n"), 1);
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

/* The summary of a run: n points, entries distances, as JSON or text. */
static void sqz__edm_report(const sqz_edm_opts *o, sqz_context *ctx, uint64_t n, uint64_t entries) {
  double kernel_s = 0, wall_s = 0;
  const char *map = o->s.map ? o->s.map : sqz_simplex_default_map(2, n);
  sqz_context_timing(ctx, &kernel_s, &wall_s);
  if (!o->s.json) {
    printf("edm: %llu points -> %llu distances in %s (map %s, %s): kernel %.6f s, end-to-end %.6f s\n",
           (unsigned long long)n, (unsigned long long)entries, o->s.out, map, sqz_context_device_name(ctx), kernel_s,
           wall_s);
    return;
  }
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_json_u64(&j, "points", n);
  sqz_json_u64(&j, "entries", entries);
  sqz_json_str(&j, "map", map);
  sqz_json_str(&j, "out", o->s.out);
  sqz_json_num(&j, "kernel_s", kernel_s);
  sqz_json_num(&j, "wall_s", wall_s);
  sqz_json_u64(&j, "bytes", entries * 4);
  sqz_json_str(&j, "backend", sqz_context_backend(ctx));
  sqz_json_str(&j, "device", sqz_context_device_name(ctx));
  sqz_json_end(&j);
}

/* The matrix of the n points xy into the output: 0 or the exit status. */
static int sqz__edm_run(const sqz_edm_opts *o, sqz_context *ctx, const float *xy, uint64_t n) {
  uint64_t entries = n * (n + 1) / 2;
  float *res = sqz_cli_malloc((size_t)entries * sizeof *res);
  int rc = 0;
  if (!res) {
    fprintf(stderr, "sqz edm: %llu points need %llu bytes of host memory\n", (unsigned long long)n,
            (unsigned long long)(entries * sizeof *res));
    return 1;
  }
  int st = sqz_edm(ctx, xy, n, o->s.map, res);
  if (st != SQZ_OK) rc = sqz_cli_fail("edm", ctx, st);
  else if ((rc = sqz__write_f32(o->s.out, res, entries)) == 0)
    sqz__edm_report(o, ctx, n, entries);
  free(res);
  return rc;
}

int sqz_cmd_edm(int argc, char **argv) {
  sqz_edm_opts o = {0};
  int rc = sqz_cli_parse(&sqz_edm_cmd, argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  if (!o.points) return sqz_cli_usage("edm", "--points FILE is required");
  if (!o.s.out) return sqz_cli_usage("edm", "--out FILE.f32 is required");
  float *xy = NULL;
  uint64_t n = 0;
  sqz_context *ctx = NULL;
  if ((rc = sqz__read_points(o.points, &xy, &n)) != 0) return rc;
  if ((rc = sqz_cli_open("edm", o.s.backend, o.s.device, &ctx)) == 0) rc = sqz__edm_run(&o, ctx, xy, n);
  sqz_cli_outputs_abort();
  free(xy);
  sqz_context_release(ctx);
  return rc;
}
