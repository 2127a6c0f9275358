/* options.h — the tuning options as data: one table (name, type, range, default, help, layer, scope) and the values in effect per context and per field (included by core/sqz_internal.h). */
#ifndef SQZ_OPTIONS_H
#define SQZ_OPTIONS_H
#include <stdint.h>

/* One id per row of the table (src/core/options.c), in its order. */
typedef enum {
  SQZ_OPT_BACKEND, SQZ_OPT_DEVICE, SQZ_OPT_REQUIRE_OPENCL, SQZ_OPT_MAX_ALLOC, SQZ_OPT_CACHE_DIR, SQZ_OPT_NO_CACHE,
  SQZ_OPT_DUMP_KERNELS, SQZ_OPT_BUILD_OPTIONS, SQZ_OPT_SYNC, SQZ_OPT_DEBUG, SQZ_OPT_ENGINE, SQZ_OPT_TEMPORAL,
  SQZ_OPT_SWAR_WORD, SQZ_OPT_INDEX64, SQZ_OPT_FRACTAL_STEP, SQZ_OPT_TETRA_CHUNK, SQZ_OPT_TETRA_VARIANT,
  SQZ_OPT_TETRA_LOCAL_X, SQZ_OPT_BITS_STEP, SQZ_OPT_BITS_Q, SQZ_OPT_BITS_HOIST, SQZ_OPT_BITS_LANES,
  SQZ_OPT_BITS_PLAN_OUT, SQZ_OPT_EDM_FP32, SQZ_OPT_EXCHANGE_STEPS, SQZ_OPT_OVERLAP, SQZ_OPT_NO_TRIAL,
  SQZ_OPT_FAULT_ALLOC, SQZ_OPT_FAULT_ALLOC_CLI, SQZ_OPT_COUNT
} sqz_opt;

/* The values set (from the environment at context creation, sqz_context_create_opts or the set calls): text NULL
 * where the default applies; num the value as a number (the count, the bytes, 0 or 1, the index of the choice). */
typedef struct sqz_opt_values {
  char *text[SQZ_OPT_COUNT];
  uint64_t num[SQZ_OPT_COUNT];
  uint64_t gen; /* changes with every value set: the engine paths chosen under older values are chosen again */
} sqz_opt_values;

struct sqz_context;
struct sqz_field;

/* Fills v from the environment (SQZ_<NAME> of every option not read per process): SQZ_OK, or
 * SQZ_ERR_INVALID_ARGUMENT naming the variable and its range (the detail in ctx), SQZ_ERR_OUT_OF_MEMORY. */
SQZ_INTERNAL int sqz__opt_from_env(struct sqz_context *ctx, sqz_opt_values *v);
/* Where a value is set: at context creation (any scope but process), on a context (scopes context and field) or on
 * a field (scope field). */
enum { SQZ_OPT_WHERE_CREATION, SQZ_OPT_WHERE_CONTEXT, SQZ_OPT_WHERE_FIELD };
/* Sets option `name` in v to value (NULL or "": back to the default), where: SQZ_OPT_WHERE_*. SQZ_OK, or
 * SQZ_ERR_INVALID_ARGUMENT naming the option and its range (the detail in ctx), SQZ_ERR_OUT_OF_MEMORY. */
SQZ_INTERNAL int sqz__opt_set(struct sqz_context *ctx, sqz_opt_values *v, const char *name, const char *value,
                              int where);
SQZ_INTERNAL void sqz__opt_free(sqz_opt_values *v);
/* The value in effect for the engines of f (f's override, else its context's) or of ctx (f NULL): its number, or
 * def where the default applies. */
SQZ_COMPONENT uint64_t sqz__opt_num(const struct sqz_context *ctx, const struct sqz_field *f, sqz_opt id,
                                    uint64_t def);
/* The same as text: NULL where the default applies. */
SQZ_COMPONENT const char *sqz__opt_text(const struct sqz_context *ctx, const struct sqz_field *f, sqz_opt id);
/* 1 when the value in effect is the word (a choice) or, for a flag, "1". */
SQZ_COMPONENT int sqz__opt_is(const struct sqz_context *ctx, const struct sqz_field *f, sqz_opt id,
                              const char *word);
#endif
