/* bench_common.h — helpers shared by the `sqz bench` commands: a monotonic clock and the device copy bandwidth. */
#ifndef SQZ_BENCH_COMMON_H
#define SQZ_BENCH_COMMON_H
#include <stdint.h>

#include "sqz.h"

/* Monotonic wall clock in seconds. */
double sqz_bench_clock(void);
/* Device-to-device copy bandwidth in bytes/s (read + write), best of 5 copies of up to 1 GiB:
 * clEnqueueCopyBuffer timed by events on opencl, memcpy on the cpu backend. *bytes gets the
 * size of one copy; 0 when nothing could be measured. */
double sqz_bench_copy_bandwidth(sqz_context *ctx, uint64_t *bytes);
#endif
