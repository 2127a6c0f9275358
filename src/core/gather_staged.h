/* gather_staged.h — gather and scatter built on plain transfers, for a backend without a gather kernel (cuda). */
#ifndef SQZ_GATHER_STAGED_H
#define SQZ_GATHER_STAGED_H

#include "core/backend.h"

/* A transfer of `bytes` between device memory mem at byte `offset` and host: to_host 1 downloads,
 * 0 uploads. */
typedef int (*sqz_span_io)(sqz_context *ctx, sqz_mem mem, uint64_t offset, void *host, uint64_t bytes, int to_host);

/* ops->gather (scatter = 0) or ops->scatter (scatter = 1) of n cells of ts bytes through io: when
 * the indices' span is at most 4 times the band (or 1 MiB), the span moves in one transfer (scatter:
 * download, patch, upload) through a host buffer of that size; otherwise every run of consecutive
 * indices is one transfer. Host memory stays within a few bands whatever the storage. */
SQZ_INTERNAL int sqz__gather_staged(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *host,
                                    int scatter, sqz_span_io io);

#endif /* SQZ_GATHER_STAGED_H */
