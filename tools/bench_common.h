/* bench_common.h — helpers shared by the `sqz bench` commands: a monotonic clock and the device copy bandwidth. */
#ifndef SQZ_BENCH_COMMON_H
#define SQZ_BENCH_COMMON_H
#include <stdint.h>
#include <stdio.h>

#include "sqz.h"

/* Monotonic wall clock in seconds. */
double sqz_bench_clock(void);
/* Device-to-device copy bandwidth in bytes/s (read + write), best of 5 copies of up to 1 GiB:
 * clEnqueueCopyBuffer timed by events on opencl, memcpy on the cpu backend. *bytes gets the
 * size of one copy; 0 when nothing could be measured. */
double sqz_bench_copy_bandwidth(sqz_context *ctx, uint64_t *bytes);
/* A JSON array "[row 0, row 1, ...]" whose rows are written by row(out, i, user), as one
 * malloc'ed string (the caller frees it); NULL when out of memory. */
char *sqz_bench_json_rows(int n, void (*row)(FILE *out, int i, void *user), void *user);
#endif
