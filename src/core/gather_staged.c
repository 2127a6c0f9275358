/* gather_staged.c — gather and scatter for a backend without a gather kernel: the band's span in one transfer when it is dense enough, else one transfer per run of consecutive indices. */
#include <stdlib.h>
#include <string.h>

#include "core/gather_staged.h"

/* Cells moved one run at a time: [i, j) with idx[j - 1] = idx[i] + (j - 1 - i). */
static int sqz__runs(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, unsigned char *host,
                     int scatter, sqz_span_io io) {
  int st = SQZ_OK;
  for (uint64_t i = 0, j; st == SQZ_OK && i < n; i = j) {
    j = i + 1;
    if (idx[i] < 0) {
      if (!scatter) memset(host + i * ts, 0, ts);
      continue;
    }
    while (j < n && idx[j] == idx[j - 1] + 1) j++;
    st = io(ctx, mem, (uint64_t)idx[i] * ts, host + i * ts, (j - i) * ts, !scatter);
  }
  return st;
}

int sqz__gather_staged(sqz_context *ctx, sqz_mem mem, size_t ts, const int64_t *idx, uint64_t n, void *host,
                       int scatter, sqz_span_io io) {
  unsigned char *h = host;
  int64_t lo = -1, hi = -1;
  for (uint64_t i = 0; i < n; i++)
    if (idx[i] >= 0) {
      if (lo < 0 || idx[i] < lo) lo = idx[i];
      if (idx[i] > hi) hi = idx[i];
    }
  if (lo < 0) { /* no domain cell */
    if (!scatter && n) memset(h, 0, (size_t)(n * ts));
    return SQZ_OK;
  }
  uint64_t span = (uint64_t)(hi - lo) + 1, limit = 4 * n * ts < ((uint64_t)1 << 20) ? (uint64_t)1 << 20 : 4 * n * ts;
  unsigned char *buf = span * ts <= limit ? sqz__malloc((size_t)(span * ts)) : NULL;
  if (!buf) return sqz__runs(ctx, mem, ts, idx, n, h, scatter, io); /* sparse (or no memory): run by run */
  uint64_t off = (uint64_t)lo * ts;
  int st = io(ctx, mem, off, buf, span * ts, 1);
  for (uint64_t i = 0; st == SQZ_OK && i < n; i++) {
    unsigned char *c = buf + (uint64_t)(idx[i] - lo) * ts;
    if (idx[i] < 0) {
      if (!scatter) memset(h + i * ts, 0, ts);
    } else if (scatter) {
      memcpy(c, h + i * ts, ts);
    } else {
      memcpy(h + i * ts, c, ts);
    }
  }
  if (st == SQZ_OK && scatter) st = io(ctx, mem, off, buf, span * ts, 0);
  free(buf);
  return st;
}
