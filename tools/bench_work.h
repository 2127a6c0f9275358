/* bench_work.h — the field workloads of `sqz bench fractal|simplex`: life, heat or a user kernel on a cell type, in one buffer or in parts, and one row's run. */
#ifndef SQZ_BENCH_WORK_H
#define SQZ_BENCH_WORK_H
#include "cli_table.h"

#define SQZ_BENCH_MAX_PARTS 8

typedef enum { SQZ_BENCH_LIFE, SQZ_BENCH_HEAT, SQZ_BENCH_KERNEL, SQZ_BENCH_OTHER } sqz_bench_kind;

/* What a bench's field rows run: --workload life|heat|kernel FILE.cl, --type, --param and --parts P
 * (the options of sqz_bench_args), with the bench's own --rule, --density and --seed. */
typedef struct {
  const char *workload; /* as given; NULL: life */
  const char *kernel;   /* FILE.cl of --workload kernel */
  const char *type_text, *param_text;
  const char *rule; /* life (NULL: the dimension's default) */
  double density;   /* life and kernel: the random state's density */
  uint64_t seed;
  uint64_t parts[SQZ_BENCH_MAX_PARTS]; /* --parts, in the order given */
  int n_parts;
  /* set by sqz_bench_work_check */
  sqz_bench_kind kind;
  sqz_type type;
  char *source; /* the kernel's text */
  double *params;
  size_t n_params;
} sqz_bench_work;

/* The options of `sqz bench simplex|fractal` (each bench's settings start with one). */
typedef struct {
  sqz_cli_set s; /* --domain (s.domain), --rule, --steps, --block, --backend, --device, --json */
  const char *layouts, *maps;
  int no_copy_test;
  sqz_bench_work w; /* --workload, --type, --param, --parts, --density, --seed */
} sqz_bench_args;
/* --workload NAME (kernel: and FILE.cl, the next argument) into w of a sqz_bench_args; the options both benches
 * take: --type T, --param LIST, --parts P[,P...] (repeatable), --steps K (the timed steps, 1 .. 2^62), --density P,
 * --seed S, --no-copy-test. */
int sqz_bench_p_workload(const sqz_cli_args *a, const sqz_cli_optdef *d, const char *value);
extern const sqz_cli_optdef sqz_bench_opt_type, sqz_bench_opt_param, sqz_bench_opt_parts, sqz_bench_opt_steps,
    sqz_bench_opt_density, sqz_bench_opt_seed, sqz_bench_opt_no_copy_test;
/* In each bench's table: the options of its workload, and those it ends with. */
#define SQZ_BENCH_OPTS_WORK                                                                                          \
  &sqz_bench_opt_type, &sqz_bench_opt_param, &sqz_bench_opt_parts, &sqz_bench_opt_steps, &sqz_bench_opt_density,     \
      &sqz_bench_opt_seed
#define SQZ_BENCH_OPTS_END &sqz_cli_opt_device, &sqz_cli_opt_json, &sqz_bench_opt_no_copy_test, &sqz_cli_opt_option, NULL
/* After the options: the workload among life, heat, kernel and the bench's `others` (NULL-terminated;
 * those are SQZ_BENCH_OTHER, u8 and no parts), the type it can take (life u8, heat f32 or f64, default f64,
 * kernel any, given), --param for kernels only, the kernel's text read. 0 or the exit status (2: bad input). */
int sqz_bench_work_check(const char *cmd, sqz_bench_work *w, const char *const *others);
void sqz_bench_work_free(sqz_bench_work *w);
/* "u8", "i32", "f32" or "f64". */
const char *sqz_bench_work_type_name(const sqz_bench_work *w);
/* The workload in words for a report's heading: "life B3/S23 (u8)", "heat (f64)", "kernel k.cl (i32)". */
const char *sqz_bench_work_label(const sqz_bench_work *w, char *buf, size_t len);
/* The floor's bytes per cell update: 2 x sizeof(T) (read + write); layout bits scales it (sqz_cli_cell_scale). */
double sqz_bench_work_bytes(const sqz_bench_work *w);
/* Whether `layout` of dom takes every --parts count: 1 yes, 0 not at all (the layout does not part: no parts
 * rows), 2 after a usage error naming a count beyond what it allows. */
int sqz_bench_work_parts_ok(const char *cmd, sqz_context *ctx, const sqz_bench_work *w, sqz_domain *dom,
                            const char *layout);
/* The workload's JSON keys of a report: workload, type, and for a kernel kernel and param. */
void sqz_bench_work_json(sqz_json *j, const sqz_bench_work *w);

/* One row's run: the field in `parts` parts (1: one buffer), its times, bytes, result and engine path. */
typedef struct sqz_bench_ran {
  uint64_t parts;
  int status;
  char error[512];
  double kernel_s, wall_s; /* of the timed steps */
  uint64_t bytes, result;  /* result: the non-zero cells after the run */
  char engine[64], skipped[1024];
  const struct sqz_bench_ran *one; /* a parts row: the one-buffer row beside it (NULL: none) */
} sqz_bench_ran;

/* The row's field (layout without a /MAP suffix) in r->parts parts. A library status. */
int sqz_bench_work_field(const sqz_bench_work *w, sqz_domain *dom, const char *layout, const sqz_bench_ran *r,
                         sqz_field **f);
/* Fills f (life, kernel: random cells of --density; heat: uniform values), runs `warmup` untimed steps
 * (they build the kernels) and `steps` timed ones, then reads the times, bytes, non-zero count and
 * engine path into r. st: the status of the field's set-up (nothing runs unless SQZ_OK). Sets
 * r->status, and r->error on failure; returns the status. */
int sqz_bench_work_run(const sqz_bench_work *w, sqz_context *ctx, sqz_field *f, int st, uint64_t warmup,
                       uint64_t steps, sqz_bench_ran *r);
/* A build failure of the user's kernel stops the bench: right after the row's run (st its status), 1
 * after the library's message (its build log names FILE.cl:LINE), else 0. */
int sqz_bench_work_fatal(const char *cmd, sqz_context *ctx, const sqz_bench_work *w, int st);
/* The row's keys parts, engine, skipped and, for a parts row, vs_one_buffer (one-buffer kernel time /
 * this row's: the parts' speed against one buffer). */
void sqz_bench_ran_json(sqz_json *j, const sqz_bench_ran *r);
/* The speed against one buffer as text ("0.93x"; "-" for a one-buffer row or none beside it). */
const char *sqz_bench_ran_vs(const sqz_bench_ran *r, char *buf, size_t len);
/* The row's name in the backends' ratios: base, or "base parts=P". */
void sqz_bench_ran_name(const sqz_bench_ran *r, const char *base, char *buf, size_t len);
#endif
