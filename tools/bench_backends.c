/* bench_backends.c — `sqz bench fractal|simplex --backend A,B,...`: each backend's report of the same workload, then the speed ratios of their rows. */
#include <stdlib.h>
#include <string.h>

#include "bench_backends.h"
#include "cli_common.h"

#define SQZ_BENCH_MAX_BACKENDS 4

void sqz_bench_add(sqz_bench_points *p, const char *name, int ok, double kernel_s, uint64_t result) {
  if (p->n == p->cap) {
    int cap = p->cap ? 2 * p->cap : 16;
    sqz_bench_point *grown = realloc(p->points, (size_t)cap * sizeof *grown);
    if (!grown) return; /* the row is left out of the ratios */
    p->points = grown;
    p->cap = cap;
  }
  sqz_bench_point *q = &p->points[p->n++];
  snprintf(q->name, sizeof q->name, "%s", name);
  q->ok = ok;
  q->kernel_s = kernel_s;
  q->result = result;
}

int sqz_bench_is_list(const char *backend) { return backend && strchr(backend, ',') != NULL; }

typedef struct {
  char backend[32];
  char *text;
  size_t len;
  int rc;
  sqz_bench_points points;
} sqz_bench_run;

static const sqz_bench_point *sqz__find(const sqz_bench_points *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (strcmp(p->points[i].name, name) == 0) return &p->points[i];
  return NULL;
}

/* Each comparable pair (row of run 0, the same row of run r): writes one ratio; 1 if results differ. */
static int sqz__ratios(const sqz_bench_run *runs, int n, int json, FILE *out) {
  int differ = 0, first = 1;
  if (!json) {
    fprintf(out, "\nratios: speed of %s against each other backend (other kernel ms / %s kernel ms, per step)\n",
            runs[0].backend, runs[0].backend);
    fprintf(out, "%-20s %-10s %12s %12s %9s %s\n", "row", "vs", "kernel ms", "other ms", "ratio", "same");
  }
  for (int r = 1; r < n; r++)
    for (int i = 0; i < runs[0].points.n; i++) {
      const sqz_bench_point *a = &runs[0].points.points[i], *b = sqz__find(&runs[r].points, a->name);
      if (!a->ok || !b || !b->ok || a->kernel_s <= 0) continue;
      int same = a->result == b->result;
      differ |= !same;
      if (json) {
        sqz_json j;
        if (!first) fputc(',', out);
        sqz_json_begin(&j, out);
        sqz_json_str(&j, "row", a->name);
        sqz_json_str(&j, "backend", runs[0].backend);
        sqz_json_str(&j, "vs", runs[r].backend);
        sqz_json_num(&j, "kernel_s_per_step", a->kernel_s);
        sqz_json_num(&j, "vs_kernel_s_per_step", b->kernel_s);
        sqz_json_num(&j, "speed_ratio", b->kernel_s / a->kernel_s);
        sqz_json_raw(&j, "same_result", same ? "true" : "false");
        fputc('}', out); /* sqz_json_end would end the line inside the array */
      } else {
        fprintf(out, "%-20s %-10s %12.4f %12.4f %8.2fx %s\n", a->name, runs[r].backend, 1e3 * a->kernel_s,
                1e3 * b->kernel_s, b->kernel_s / a->kernel_s, same ? "yes" : "NO");
      }
      first = 0;
    }
  if (!json && first) fprintf(out, "(no row ran on two backends)\n");
  return differ;
}

/* One object {"backends", "runs", "ratios"} of every backend's run; 1 when their results differ. */
static int sqz__backends_json(const sqz_bench_run *runs, int n) {
  sqz_json j;
  sqz_json_begin(&j, stdout);
  printf(",\"backends\":[");
  for (int i = 0; i < n; i++) {
    if (i) putchar(',');
    sqz_json_escape(stdout, runs[i].backend);
  }
  printf("],\"runs\":[");
  for (int i = 0; i < n; i++) { /* each backend's own report object, or null when it printed none */
    size_t len = runs[i].len;
    while (len && (runs[i].text[len - 1] == '\n' || runs[i].text[len - 1] == ' ')) len--;
    if (len && runs[i].text[0] == '{') printf("%s%.*s", i ? "," : "", (int)len, runs[i].text);
    else printf("%snull", i ? "," : "");
  }
  printf("],\"ratios\":[");
  int differ = sqz__ratios(runs, n, 1, stdout);
  printf("]}\n");
  return differ;
}

int sqz_bench_backends(const char *cmd, const char *list, int json, sqz_bench_one_fn one, void *user) {
  sqz_bench_run runs[SQZ_BENCH_MAX_BACKENDS];
  int n = 0, rc = 0;
  memset(runs, 0, sizeof runs);
  for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof runs[0].backend || n == SQZ_BENCH_MAX_BACKENDS || strncmp(p, "all", len) == 0)
      return sqz_cli_usage(cmd, "--backend '%s': expected up to %d backends like opencl,cpu", list,
                           SQZ_BENCH_MAX_BACKENDS);
    memcpy(runs[n++].backend, p, len);
  }
  for (int i = 0; i < n; i++) {
    FILE *mem = open_memstream(&runs[i].text, &runs[i].len);
    if (!mem) return 1;
    if (!json && sqz_cli_progress()) fprintf(stderr, "sqz %s: backend %s ...\n", cmd, runs[i].backend);
    runs[i].rc = one(runs[i].backend, mem, &runs[i].points, user);
    fclose(mem);
    if (runs[i].rc > rc) rc = runs[i].rc;
  }
  int differ = json ? sqz__backends_json(runs, n) : 0;
  if (!json) {
    for (int i = 0; i < n; i++) printf("%s== backend %s ==\n%s", i ? "\n" : "", runs[i].backend, runs[i].text);
    differ = sqz__ratios(runs, n, 0, stdout);
  }
  for (int i = 0; i < n; i++) {
    free(runs[i].text);
    free(runs[i].points.points);
  }
  if (differ) fprintf(stderr, "sqz %s: the backends' results differ (see the ratios' 'same' column)\n", cmd);
  return rc ? rc : differ;
}
