/* reduce.c — public counts and sums over fields and host arrays, and stage two (the host combine) of every reduction. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"

static const char *red_type_name(sqz_type type) {
  switch (type) {
  case SQZ_U8: return "uint8";
  case SQZ_I32: return "int32";
  case SQZ_F32: return "float32";
  case SQZ_F64: return "float64";
  }
  return "?";
}

/* Reduces a host array: in place where the backend's memory is host memory, else copied to the
 * device chunk by chunk, each chunk within the device's max allocation. */
static int red_host(sqz_context *ctx, sqz_red_op op, sqz_type type, const void *data, uint64_t n, int acc_mode,
                    sqz_red_acc *acc) {
  const sqz_backend_ops *ops = ctx->ops;
  if (ops->host_memory) return ops->reduce(ctx, op, type, (sqz_mem)data, n, acc_mode, acc);
  if (n == 0) return SQZ_OK;
  const size_t size = sqz_type_size(type);
  uint64_t chunk = ctx->max_alloc / size;
  if (chunk == 0)
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s allows %llu bytes per buffer, less than one %s element",
                     ctx->device_name, (unsigned long long)ctx->max_alloc, red_type_name(type));
  if (chunk > n) chunk = n;
  sqz_mem buf = NULL;
  int st = ops->alloc(ctx, chunk * size, &buf);
  for (uint64_t at = 0; st == SQZ_OK && at < n; at += chunk) {
    const uint64_t m = n - at < chunk ? n - at : chunk;
    st = ops->upload(ctx, buf, 0, (const unsigned char *)data + at * size, m * size);
    if (st == SQZ_OK) st = ops->reduce(ctx, op, type, buf, m, acc_mode, acc);
  }
  if (buf) {
    int fin = sqz__finish(ctx);
    if (st == SQZ_OK) st = fin;
    ops->free(ctx, buf);
  }
  return st;
}

/* Stage one over the field's storage, or over each part's own units (halos excluded). */
static int red_field(sqz_field *f, sqz_red_op op, sqz_red_acc *acc) {
  const sqz_layout_io *io = sqz__layout_of(f)->io;
  if (io) return io->reduce(f, op, acc); /* bits: popcounts */
  if (!f->parts) return f->ctx->ops->reduce(f->ctx, op, f->type, f->mem[f->cur], f->elems, SQZ_RED_ACC_AUTO, acc);
  int st = SQZ_OK;
  for (uint64_t p = 0; st == SQZ_OK && p < f->parts->parts; p++) {
    sqz_field view;
    uint64_t e0, n;
    sqz__part_view(f, p, &view);
    sqz__own_elems(&view, &e0, &n);
    if (!view.ctx) continue;
    sqz__lock(view.ctx);
    st = view.ctx->ops->reduce(view.ctx, op, f->type, view.mem[f->cur], n, SQZ_RED_ACC_AUTO, acc);
    if (st != SQZ_OK && view.ctx != f->ctx) st = sqz__fail(f->ctx, st, "%s", sqz_last_error(view.ctx));
    sqz__unlock(view.ctx);
  }
  return st;
}

/* Arguments shared by all four entry points; field (if any) supplies ctx, type and storage. */
static int red_check(sqz_context *ctx, const char *fn, sqz_type type, const void *data, uint64_t n,
                     const void *out) {
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "%s: the context is NULL", fn);
  if (!out) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: the result pointer is NULL", fn);
  if (sqz_type_size(type) == 0)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: unknown element type %d", fn, (int)type);
  if (n > 0 && !data) return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: data is NULL for %llu elements", fn,
                                       (unsigned long long)n);
  if (n > SIZE_MAX / sqz_type_size(type))
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "%s: %llu %s elements exceed the address space", fn,
                     (unsigned long long)n, red_type_name(type));
  return SQZ_OK;
}

static int red_sum_op(sqz_context *ctx, const char *fn, sqz_type type, sqz_sum_method method, sqz_red_op *op) {
  if (method != SQZ_SUM_PAIRWISE && method != SQZ_SUM_NEUMAIER)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s: unknown summation method %d", fn, (int)method);
  if (type == SQZ_U8 || type == SQZ_I32) *op = SQZ_RED_ISUM; /* exact: the method does not matter */
  else *op = method == SQZ_SUM_PAIRWISE ? SQZ_RED_PAIRWISE : SQZ_RED_NEUMAIER;
  return SQZ_OK;
}

/* Stage two's last step: the combined partials as a double, or why there is none. */
static int red_sum_result(sqz_context *ctx, sqz_red_op op, sqz_type type, const sqz_red_acc *acc, double *sum) {
  if (op == SQZ_RED_ISUM) {
    if (acc->overflow)
      return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "the exact sum of the %s elements does not fit in 64 bits",
                       red_type_name(type));
    *sum = (double)acc->isum;
    return SQZ_OK;
  }
  if (acc->nonfinite)
    return sqz__fail(ctx, SQZ_ERR_NON_FINITE, "sum: the %s input holds a NaN or an infinity", red_type_name(type));
  const double r = (double)(acc->s + acc->c);
  if (!isfinite(r))
    return sqz__fail(ctx, SQZ_ERR_TOO_LARGE, "sum: the %s %s sum of finite values overflowed%s", red_type_name(type),
                     op == SQZ_RED_PAIRWISE ? "pairwise" : "compensated",
                     op == SQZ_RED_PAIRWISE && type == SQZ_F32
                         ? " its float32 accumulator (SQZ_SUM_NEUMAIER accumulates float32 data in double)"
                         : "");
  *sum = r;
  return SQZ_OK;
}

int sqz__sum_mode(sqz_context *ctx, sqz_type type, const void *data, uint64_t n, sqz_sum_method method,
                  int acc_mode, double *sum) {
  sqz_red_op op = SQZ_RED_COUNT; /* set by red_sum_op */
  int st = red_check(ctx, "sqz_sum", type, data, n, sum);
  if (st == SQZ_OK) st = red_sum_op(ctx, "sqz_sum", type, method, &op);
  if (st != SQZ_OK) return st;
  sqz__op_begin(ctx);
  sqz_red_acc acc = {0};
  st = red_host(ctx, op, type, data, n, acc_mode, &acc);
  if (st == SQZ_OK) st = red_sum_result(ctx, op, type, &acc, sum);
  sqz__op_end(ctx);
  return st;
}

int sqz_sum(sqz_context *ctx, sqz_type type, const void *data, uint64_t n, sqz_sum_method method, double *sum) {
  return sqz__sum_mode(ctx, type, data, n, method, SQZ_RED_ACC_AUTO, sum);
}

int sqz_count(sqz_context *ctx, sqz_type type, const void *data, uint64_t n, uint64_t *nonzero) {
  int st = red_check(ctx, "sqz_count", type, data, n, nonzero);
  if (st != SQZ_OK) return st;
  sqz__op_begin(ctx);
  sqz_red_acc acc = {0};
  st = red_host(ctx, SQZ_RED_COUNT, type, data, n, SQZ_RED_ACC_AUTO, &acc);
  if (st == SQZ_OK) *nonzero = acc.count;
  sqz__op_end(ctx);
  return st;
}

int sqz__field_count_op(sqz_field *field, sqz_red_op op, uint64_t *count) {
  sqz__op_begin(field->ctx);
  sqz_red_acc acc = {0};
  int st = red_field(field, op, &acc);
  if (st == SQZ_OK) *count = acc.count;
  sqz__op_end(field->ctx);
  return st;
}

int sqz_field_count(sqz_field *field, uint64_t *nonzero) {
  if (!field) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_count: the field is NULL");
  int st = red_check(field->ctx, "sqz_field_count", field->type, field, 0, nonzero);
  return st == SQZ_OK ? sqz__field_count_op(field, SQZ_RED_COUNT, nonzero) : st;
}

int sqz_field_sum(sqz_field *field, sqz_sum_method method, double *sum) {
  if (!field) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_field_sum: the field is NULL");
  sqz_red_op op = SQZ_RED_COUNT; /* set by red_sum_op */
  int st = red_check(field->ctx, "sqz_field_sum", field->type, field, 0, sum);
  if (st == SQZ_OK) st = red_sum_op(field->ctx, "sqz_field_sum", field->type, method, &op);
  if (st != SQZ_OK) return st;
  sqz__op_begin(field->ctx);
  sqz_red_acc acc = {0};
  st = red_field(field, op, &acc);
  if (st == SQZ_OK) st = red_sum_result(field->ctx, op, field->type, &acc, sum);
  sqz__op_end(field->ctx);
  return st;
}
