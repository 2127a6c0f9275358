/* engine_paths.h — each backend's engine paths as rows of one table (name, the fields it steps, whether it applies and its plan, its run) and the one choice per field, update and step count, cached in the field. */
#ifndef SQZ_ENGINE_PATHS_H
#define SQZ_ENGINE_PATHS_H
#include "core/update.h"

/* What a path chose when it applied, kept with the choice for the field's next step calls: steps a
 * launch, a flag of the path's own, and its host tables (data, malloc'ed; the row's drop frees them). */
typedef struct sqz_path_plan {
  uint32_t depth, flag;
  void *data;
  int st; /* a check that failed outright (out of memory, a device query): the step fails with it */
} sqz_path_plan;

/* The fields a row steps: a field matches one family bit and one layout bit. */
enum {
  SQZ_PATH_FRACTAL = 1u << 0,
  SQZ_PATH_TRIANGLE = 1u << 1,
  SQZ_PATH_TETRAHEDRON = 1u << 2,
  SQZ_PATH_BB = 1u << 8,
  SQZ_PATH_COMPACT = 1u << 9,
  SQZ_PATH_LAMBDA = 1u << 10,
  SQZ_PATH_BLOCK = 1u << 11,
  SQZ_PATH_BITS = 1u << 12
};
#define SQZ_PATH_SIMPLEX (SQZ_PATH_TRIANGLE | SQZ_PATH_TETRAHEDRON)
#define SQZ_PATH_FAMILIES (SQZ_PATH_FRACTAL | SQZ_PATH_SIMPLEX)
#define SQZ_PATH_BYTES (SQZ_PATH_BB | SQZ_PATH_COMPACT | SQZ_PATH_LAMBDA | SQZ_PATH_BLOCK)
#define SQZ_PATH_TILED (SQZ_PATH_COMPACT | SQZ_PATH_BLOCK)

/* One path. applies: NULL when the path runs `steps` steps of u on f (a field in one buffer or a part's
 * view), with what it chose in *plan (zeroed before the call); else why not, a static or thread-local
 * text (sqz__path_why). NULL applies: always. run: the steps, by the plan. */
typedef struct sqz_path_row {
  const char *name; /* what sqz_field_engine reports and option engine takes */
  unsigned fields;  /* SQZ_PATH_* */
  const char *when; /* when it applies, one line (sqz_path_row) */
  const char *(*applies)(sqz_field *f, const sqz_update *u, uint64_t steps, sqz_path_plan *plan);
  int (*run)(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan);
  void (*drop)(sqz_path_plan *plan); /* frees plan->data; NULL: free() */
} sqz_path_row;

/* A backend's rows, fastest first among those that step the same fields (sqz_backend_ops.paths). */
typedef struct sqz_path_table {
  size_t n;
  const sqz_path_row *rows;
} sqz_path_table;

/* `steps` steps of u on f by the first row of its backend's table that steps f and applies, or the row
 * that option engine names (fast, the default, and generic: the first that applies). The choice and its
 * plan are made once per update (kind, rule, kernel source), step count (above 9 as 9), block, map,
 * part or not, device and option values, and kept in f (its views share it); a later call with the
 * same finds it without checking again. The rows skipped go to the engine report with their
 * reasons, the row that ran as its engine (part 0's view only, core/engine_report.h).
 * SQZ_ERR_INVALID_ARGUMENT "engine path NAME does not apply: REASON" when the named row does not
 * apply (SQZ_ERR_UNSUPPORTED for a part's chunk of several steps: the parts then step one at a time);
 * SQZ_ERR_UNSUPPORTED naming every reason when no row applies; else the run's status. */
SQZ_INTERNAL int sqz__engine_step(sqz_field *f, const sqz_update *u, uint64_t steps);
/* 1 when option engine names this row for f: the row then skips the checks that only prefer another
 * path (a device's default, bits_step, fractal_step), never those that make it wrong. */
SQZ_INTERNAL int sqz__engine_forced(const sqz_field *f, const char *name);
/* A reason with numbers: printf into a thread-local buffer that the next call reuses. */
SQZ_INTERNAL const char *sqz__path_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Option engine: 1 when text is the name of a row of any backend. */
SQZ_INTERNAL int sqz__engine_path_known(const char *text);
/* Every backend's row names, "opencl: a, b; cpu: c, ..." into buf (len bytes). */
SQZ_INTERNAL void sqz__engine_path_names(char *buf, size_t len);
/* The choices kept in a field: made by sqz__field_shell, freed (every plan dropped) by sqz_field_release. */
SQZ_INTERNAL struct sqz_engine_cache *sqz__engine_cache_new(void);
SQZ_INTERNAL void sqz__engine_cache_free(struct sqz_engine_cache *c);
/* Choices made for f so far (cache misses; tests check that a repeated call makes none). */
SQZ_INTERNAL uint64_t sqz__engine_selections(const sqz_field *f);
#endif
