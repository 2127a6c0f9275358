/* cli_exec.h — the run of sqz life, run and heat in stages: before the device, the context and domain, the field and its initial state, the steps on one process or on MPI ranks, the outputs, the report's shared keys and lines. */
#ifndef SQZ_CLI_EXEC_H
#define SQZ_CLI_EXEC_H
#include <stdint.h>

#include "cli_init.h"
#include "cli_mpi.h"
#include "cli_table.h"

/* One run. The command sets cmd, o, type, init, random and gen before sqz_cli_exec_prepare; the stages fill the
 * rest. Each stage returns 0 or the exit status after a message (a failed library call: sqz_cli_fail, st its
 * status); sqz_cli_exec_end follows whatever stage a run stopped at. */
typedef struct {
  const char *cmd;
  sqz_cli_set *o; /* the options */
  sqz_type type;
  const char *init; /* --init, or the command's default */
  int random;       /* 1: a state sqz makes (gen), 0: a file */
  sqz_cli_gen gen;
  int ranks, root; /* mpirun: the parts on the ranks, the files on rank 0 */
  sqz_context *ctx;
  sqz_domain *dom;
  sqz_field *f, *mf; /* f: this process's (on ranks, rank 0's for files only); mf: the field on the ranks */
  int st;            /* the library's status */
  uint64_t step0;    /* the step count an .h5 --init records */
  uint64_t nonzero;  /* after the steps */
  double t0, kernel_s, wall_s, png_min, png_max;
  char *ranks_json; /* the ranks' figures (rank 0) */
} sqz_cli_exec;

/* Before the device: --timeout's timer, the ranks, the options a run on ranks refuses, the output paths. */
int sqz_cli_exec_prepare(sqz_cli_exec *e);
/* The context (one per rank, or one per device of a --devices list), the domain, a point --init against its
 * dimensions, the --observe items. */
int sqz_cli_exec_open(sqz_cli_exec *e);
/* The field: in the layout, parts and devices of the options, with --map and --block (on ranks, rank 0 makes one
 * only to read or write files). */
int sqz_cli_exec_field(sqz_cli_exec *e);
/* The initial state, made (gen) or read by load(e, user) from the --init file; a point off the domain or an
 * unreadable file is exit status 2. Then the step count a checkpoint will record must fit. */
typedef int (*sqz_cli_load_fn)(sqz_cli_exec *e, void *user);
int sqz_cli_exec_init(sqz_cli_exec *e, sqz_cli_load_fn load, void *user);
/* On ranks, before the collective steps: every rank's configuration (kv) against rank 0's, and the outcome so far;
 * text (len bytes, NULL: none) comes from rank 0 to every rank. A no-op in one process. */
int sqz_cli_exec_agree(sqz_cli_exec *e, const sqz_cli_kv *kv, size_t n, char *text, size_t len);
/* The steps with the progress bar: on the ranks through job (its workload set by the command, the rest here), or
 * here through step(f, steps, user) with the --observe rows and --frames pictures; the times and figures. */
int sqz_cli_exec_steps(sqz_cli_exec *e, sqz_cli_mpi_job *job, sqz_cli_step_fn step, void *user);
/* Rank 0 after the steps: the non-zero cells, then the outputs written and committed together (workload: what an
 * .h5 or .rle --out records, the rule or the kernel). */
int sqz_cli_exec_outputs(sqz_cli_exec *e, const char *workload);
/* The field the report describes: the ranks' (rank 0's part), else this process's. */
sqz_field *sqz_cli_exec_shown(const sqz_cli_exec *e);
/* The report's shared JSON keys: domain, layout and map; then cells, steps and the non-zero count under `count`;
 * then the times, bytes, parts, device, engine and the ranks. */
void sqz_cli_exec_json_head(const sqz_cli_exec *e, sqz_json *j);
void sqz_cli_exec_json_counts(const sqz_cli_exec *e, sqz_json *j, const char *count);
void sqz_cli_exec_json_tail(const sqz_cli_exec *e, sqz_json *j);
/* The text summary's shared lines: domain, "layout L, map M, <what>", steps and the count (label, 8 wide); then
 * kernel and wall times, the memory (when memory), the device, the engine and the parts. */
void sqz_cli_exec_text_head(const sqz_cli_exec *e, const char *what, const char *label);
void sqz_cli_exec_text_tail(const sqz_cli_exec *e, int memory);
/* Agrees the exit status with the other ranks, releases the run; returns the status. */
int sqz_cli_exec_end(sqz_cli_exec *e, int rc);
#endif
