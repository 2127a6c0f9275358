/* field_store.c — the storage of any field (one buffer or parts) as the front end reaches it: element ranges, gathers and scatters through storage indices, zeroing and waiting. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"

uint64_t sqz__field_storage_bytes(const sqz_field *f) { return sqz__elems_bytes(f, f->elems); }

/* Copies a failure's detail from a part's context to f's, where they differ. */
static int sqz__part_status(sqz_field *f, sqz_context *ctx, int st) {
  return st == SQZ_OK || ctx == f->ctx ? st : sqz__fail(f->ctx, st, "%s", sqz_last_error(ctx));
}

/* Elements [e0, e0 + n) of buffer `which` to (write 0) or from (write 1) host (layout bits: whole
 * words of bits, e0 and n multiples of 32). */
static int sqz__store_range(sqz_field *f, int which, uint64_t e0, uint64_t n, unsigned char *host, int write) {
  if (!f->parts)
    return write ? f->ctx->ops->upload(f->ctx, f->mem[which], sqz__elems_bytes(f, e0), host, sqz__elems_bytes(f, n))
                 : f->ctx->ops->download(f->ctx, host, f->mem[which], sqz__elems_bytes(f, e0), sqz__elems_bytes(f, n));
  const sqz_field_split *fp = f->parts;
  int st = SQZ_OK;
  while (st == SQZ_OK && n > 0) {
    const sqz_field_part *pt = &fp->part[sqz__parts_owner_of(fp, e0 / fp->unit)];
    uint64_t base = pt->u0 * fp->unit, end = pt->u1 * fp->unit, m = end - e0 < n ? end - e0 : n;
    if (!pt->ctx)
      return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s: storage element %llu is held by another process", f->dom->spec,
                       (unsigned long long)e0);
    sqz__lock(pt->ctx);
    uint64_t at = sqz__elems_bytes(f, e0 - base), bytes = sqz__elems_bytes(f, m);
    st = write ? pt->ctx->ops->upload(pt->ctx, pt->mem[which], at, host, bytes)
               : pt->ctx->ops->download(pt->ctx, host, pt->mem[which], at, bytes);
    st = sqz__part_status(f, pt->ctx, st);
    sqz__unlock(pt->ctx);
    e0 += m;
    n -= m;
    host += sqz__elems_bytes(f, m);
  }
  return st;
}

int sqz__store_read(sqz_field *f, int which, uint64_t e0, uint64_t n, void *host) {
  return sqz__store_range(f, which, e0, n, host, 0);
}

int sqz__store_write(sqz_field *f, int which, uint64_t e0, uint64_t n, const void *host) {
  return sqz__store_range(f, which, e0, n, (unsigned char *)host, 1);
}

int sqz__store_zero(sqz_field *f, int which) {
  if (!f->parts) return f->ctx->ops->zero(f->ctx, f->mem[which], sqz__field_storage_bytes(f));
  const sqz_field_split *fp = f->parts;
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    const sqz_field_part *pt = &fp->part[p];
    if (!pt->ctx) continue;
    sqz__lock(pt->ctx);
    st = sqz__part_status(f, pt->ctx, pt->ctx->ops->zero(pt->ctx, pt->mem[which],
                                                        sqz__elems_bytes(f, (pt->u1 - pt->u0 + pt->n_halo) * fp->unit)));
    sqz__unlock(pt->ctx);
  }
  return st;
}

int sqz__store_finish(sqz_field *f) {
  if (!f->parts) return sqz__finish(f->ctx);
  int st = SQZ_OK;
  for (size_t c = 0; c < f->parts->n_ctx; c++) {
    sqz_context *ctx = f->parts->ctxs[c];
    sqz__lock(ctx);
    int s = sqz__part_status(f, ctx, sqz__finish(ctx));
    sqz__unlock(ctx);
    if (st == SQZ_OK) st = s;
  }
  return st;
}

/* Gather (out != NULL) or scatter of n cells through whole-field storage indices, part by part:
 * each part gets the indices it owns as local ones (-1 elsewhere). */
static int sqz__store_cells(sqz_field *f, int which, const int64_t *idx, uint64_t n, void *out, const void *in) {
  const sqz_field_split *fp = f->parts;
  size_t ts = sqz_type_size(f->type);
  int64_t *local = NULL;
  unsigned char *tmp = NULL;
  int st = sqz__host_alloc(f->ctx, n * sizeof *local, 0, (void **)&local, "%s: %llu part indices", f->dom->spec,
                           (unsigned long long)n);
  if (st == SQZ_OK && out) st = sqz__host_alloc(f->ctx, n * ts, 0, (void **)&tmp, "%s: a gathered band", f->dom->spec);
  if (st == SQZ_OK && out) memset(out, 0, n * ts);
  for (uint64_t p = 0; st == SQZ_OK && p < fp->parts; p++) {
    const sqz_field_part *pt = &fp->part[p];
    uint64_t lo = pt->u0 * fp->unit, hi = pt->u1 * fp->unit, mine = 0;
    for (uint64_t i = 0; i < n; i++) {
      int in_part = idx[i] >= 0 && (uint64_t)idx[i] >= lo && (uint64_t)idx[i] < hi;
      local[i] = in_part ? idx[i] - (int64_t)lo : -1;
      mine += (uint64_t)in_part;
    }
    if (!mine) continue;
    if (!pt->ctx)
      st = sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s: part %llu is held by another process", f->dom->spec,
                     (unsigned long long)p);
    if (st != SQZ_OK) break;
    sqz__lock(pt->ctx);
    st = out ? pt->ctx->ops->gather(pt->ctx, pt->mem[which], ts, local, n, tmp)
             : pt->ctx->ops->scatter(pt->ctx, pt->mem[which], ts, local, n, in);
    if (st == SQZ_OK) st = sqz__finish(pt->ctx);
    st = sqz__part_status(f, pt->ctx, st);
    sqz__unlock(pt->ctx);
    for (uint64_t i = 0; st == SQZ_OK && out && i < n; i++)
      if (local[i] >= 0) memcpy((unsigned char *)out + i * ts, tmp + i * ts, ts);
  }
  free(local);
  free(tmp);
  return st;
}

int sqz__store_gather(sqz_field *f, int which, const int64_t *idx, uint64_t n, void *out) {
  return sqz__store_cells(f, which, idx, n, out, NULL);
}

int sqz__store_scatter(sqz_field *f, int which, const int64_t *idx, uint64_t n, const void *in) {
  return sqz__store_cells(f, which, idx, n, NULL, in);
}
