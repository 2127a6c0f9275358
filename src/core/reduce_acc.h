/* reduce_acc.h — reduction operations and the host accumulator of their stage two, shared by the front end and the backends. */
#ifndef SQZ_REDUCE_ACC_H
#define SQZ_REDUCE_ACC_H

#include "core/sqz_internal.h"

typedef enum {
  SQZ_RED_COUNT = 0,    /* non-zero elements, exact, 64-bit */
  SQZ_RED_ISUM = 1,     /* exact integer sum (SQZ_U8, SQZ_I32) */
  SQZ_RED_PAIRWISE = 2, /* float sum, tree of additions in the element type */
  SQZ_RED_NEUMAIER = 3, /* float sum, compensated (sum, correction) pairs */
  SQZ_RED_ABOVE1 = 4    /* SQZ_U8 elements above 1 (a Life state's bad cells): SQZ_RED_COUNT under mask 0xfe */
} sqz_red_op;

/* Precision of the Neumaier accumulator for SQZ_F32 data on an OpenCL device: automatic
 * (double when the device has cl_khr_fp64), or forced to float. */
enum { SQZ_RED_ACC_AUTO = -1, SQZ_RED_ACC_FLOAT = 0 };

/* Stage two of every reduction, on the host: partials from chunks and work-groups. Float
 * partials are combined with Neumaier's algorithm in long double. */
typedef struct {
  uint64_t count;    /* SQZ_RED_COUNT */
  int64_t isum;      /* SQZ_RED_ISUM */
  long double s, c;  /* float sums: running sum and correction */
  int nonfinite;     /* a NaN or an infinity was in the input */
  int overflow;      /* the integer sum left int64 */
} sqz_red_acc;

SQZ_INTERNAL void sqz__red_add(sqz_red_acc *acc, long double v);
SQZ_INTERNAL void sqz__red_add_int(sqz_red_acc *acc, int64_t v);
/* Mask of the bits that make an element counted by op (SQZ_RED_COUNT or SQZ_RED_ABOVE1): non-zero
 * (the sign bit is dropped for floats, so -0.0 counts as zero and NaN as non-zero), or above 1. */
SQZ_INTERNAL uint64_t sqz__red_mask(sqz_red_op op, sqz_type type);
/* Counts the field's elements of op (SQZ_RED_COUNT or SQZ_RED_ABOVE1, the type checked by the
 * caller): one reduction over the storage or each part's own units, exact in 64 bits. */
SQZ_INTERNAL int sqz__field_count_op(sqz_field *field, sqz_red_op op, uint64_t *count);

/* sqz_sum with a chosen accumulator mode (tests use SQZ_RED_ACC_FLOAT to run the
 * compensated-float path on devices that have doubles). */
SQZ_INTERNAL int sqz__sum_mode(sqz_context *ctx, sqz_type type, const void *data, uint64_t n,
                               sqz_sum_method method, int acc_mode, double *sum);

#endif /* SQZ_REDUCE_ACC_H */
