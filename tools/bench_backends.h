/* bench_backends.h — `sqz bench fractal|simplex --backend A,B,...`: one workload on several backends in one run, and their speed ratios. */
#ifndef SQZ_BENCH_BACKENDS_H
#define SQZ_BENCH_BACKENDS_H
#include <stdint.h>
#include <stdio.h>

/* One row of a backend's run as the ratios compare it: the row's name (layout or layout/map),
 * whether it ran, its kernel seconds per timed step (or pass) and its result (live cells, ...). */
typedef struct {
  char name[48];
  int ok;
  double kernel_s;
  uint64_t result;
} sqz_bench_point;

/* What one backend's run left for the comparison; the run adds its rows with sqz_bench_add. */
typedef struct {
  sqz_bench_point *points;
  int n, cap;
} sqz_bench_points;
void sqz_bench_add(sqz_bench_points *p, const char *name, int ok, double kernel_s, uint64_t result);

/* Runs the benchmark on one backend, writing its report (table or one JSON object) to out and its
 * rows to points; returns the exit status. */
typedef int (*sqz_bench_one_fn)(const char *backend, FILE *out, sqz_bench_points *points, void *user);

/* 1 when `backend` names more than one backend (a comma-separated list). */
int sqz_bench_is_list(const char *backend);

/* Runs one() for each backend of the comma-separated `list`, one after the other (each opens and
 * releases its own context), then prints each report and the ratios: per row that ran on the
 * first backend and another, the first's speed against the other's (other kernel s / first
 * kernel s) and whether the results agree. json: one object {"backends", "runs", "ratios"}.
 * Returns the largest exit status, 1 when results disagree, 2 for a bad list. */
int sqz_bench_backends(const char *cmd, const char *list, int json, sqz_bench_one_fn one, void *user);
#endif
