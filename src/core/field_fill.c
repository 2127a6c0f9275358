/* field_fill.c — fills of a field (random 0/1, uniform floats, a constant) through the backend's fill, the host fill they share, and which numbers a cell type holds. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/backend.h"
#include "core/field_parts.h"

const char *sqz__type_value_check(sqz_type t, double v) {
  switch (t) {
  case SQZ_U8: return v == floor(v) && v >= 0.0 && v <= 255.0 ? NULL : "u8 cells hold the integers 0 .. 255";
  case SQZ_I32:
    return v == floor(v) && v >= -2147483648.0 && v <= 2147483647.0 ? NULL : "i32 cells hold the integers -2^31 .. 2^31 - 1";
  case SQZ_F32: return isfinite(v) && fabs(v) <= FLT_MAX ? NULL : "f32 cells hold finite values up to 3.4e38";
  default: return isfinite(v) ? NULL : "f64 cells hold finite values";
  }
}

uint64_t sqz__type_bits(sqz_type t, double v) {
  switch (t) {
  case SQZ_U8: return (uint64_t)(uint8_t)v;
  case SQZ_I32: return (uint64_t)(uint32_t)(int32_t)v;
  case SQZ_F32: {
    float x = (float)v;
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
  }
  default: {
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
  }
  }
}

/* Stores the low ts bytes' value of bits at p (whatever the host's byte order). */
static void sqz__put_bits(unsigned char *p, size_t ts, uint64_t bits) {
  if (ts == 1) *p = (unsigned char)bits;
  else if (ts == 4) {
    uint32_t v = (uint32_t)bits;
    memcpy(p, &v, 4);
  } else memcpy(p, &bits, 8);
}

void sqz__host_fill_range(const sqz_field *f, void *store, uint64_t e0, uint64_t n, const sqz_fill *fill) {
  size_t ts = sqz_type_size(f->type);
  unsigned char *out = store;
  memset(out, 0, (size_t)n * ts);
#pragma omp parallel for schedule(static, 4096) if (n >= ((uint64_t)1 << 16))
  for (int64_t k = 0; k < (int64_t)n; k++) {
    uint64_t i = (uint64_t)k, x, y, z;
    if (!sqz__layout_coords(f, e0 + i, &x, &y, &z)) continue;
    uint64_t e = (z * f->dom->side + y) * f->dom->side + x;
    sqz__put_bits(out + i * ts, ts, sqz_fill_bits(fill->mode, (uint32_t)ts, fill->seed, fill->threshold, fill->value, e));
  }
}

/* The backend's fill of every part held here (each its own units), or of the whole field. */
static int sqz__field_fill(sqz_field *f, const sqz_fill *fill) {
  sqz__op_begin(f->ctx);
  int st = SQZ_OK;
  if (!f->parts) st = f->ctx->ops->fill(f, fill);
  for (uint64_t p = 0; f->parts && st == SQZ_OK && p < f->parts->parts; p++) {
    sqz_field view;
    sqz__part_view(f, p, &view);
    if (!view.ctx) continue;
    sqz__lock(view.ctx);
    st = view.ctx->ops->fill(&view, fill);
    if (st != SQZ_OK && view.ctx != f->ctx) st = sqz__fail(f->ctx, st, "%s", sqz_last_error(view.ctx));
    sqz__unlock(view.ctx);
  }
  if (st == SQZ_OK) st = sqz__store_finish(f);
  sqz__op_end(f->ctx);
  return st;
}

int sqz_field_fill_random(sqz_field *f, double density, uint64_t seed) {
  if (!f) return sqz__null_arg(NULL, "sqz_field_fill_random");
  if (!(density >= 0.0 && density <= 1.0))
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "density %g is not in [0, 1]", density);
  sqz_fill fill = {SQZ_FILL_RANDOM, seed, (uint64_t)ldexp(density, 32), sqz__type_bits(f->type, 1.0)};
  return sqz__field_fill(f, &fill);
}

int sqz_field_fill_uniform(sqz_field *f, uint64_t seed) {
  if (!f) return SQZ_ERR_INVALID_ARGUMENT;
  if (f->type != SQZ_F32 && f->type != SQZ_F64)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "uniform fills need an f32 or f64 field");
  sqz_fill fill = {SQZ_FILL_UNIFORM, seed, 0, 0};
  return sqz__field_fill(f, &fill);
}

int sqz_field_fill_const(sqz_field *f, double value) {
  if (!f) return SQZ_ERR_INVALID_ARGUMENT;
  const char *why = sqz__type_value_check(f->type, value);
  if (why) return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "fill value %g: %s", value, why);
  if (sqz__layout_of(f)->bit_cells && value != 0.0 && value != 1.0)
    return sqz__fail(f->ctx, SQZ_ERR_INVALID_ARGUMENT, "fill value %g: layout %s holds 0 and 1", value,
                     sqz__layout_of(f)->name);
  sqz_fill fill = {SQZ_FILL_CONST, 0, 0, sqz__type_bits(f->type, value)};
  return sqz__field_fill(f, &fill);
}

