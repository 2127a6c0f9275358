/* cli_observe.h — --observe ITEM ... --every K --observe-out FILE.csv|FILE.jsonl: observables along a run of life, heat and run, a row at step 0, every K steps and at the last. */
#ifndef SQZ_CLI_OBSERVE_H
#define SQZ_CLI_OBSERVE_H
#include <stdint.h>
#include <stdio.h>

#include "sqz.h"

#define SQZ_CLI_MAX_OBSERVE 32
typedef struct sqz_cli_obs {
  const char *text[SQZ_CLI_MAX_OBSERVE]; /* the items as written (the columns' names) */
  size_t n;
  const char *out; /* --observe-out */
  sqz_observable items[SQZ_CLI_MAX_OBSERVE];
  int dims, jsonl;
  FILE *fp;      /* the output's temporary (rank 0), else NULL */
  uint64_t base; /* the run's steps before the current step call (a checkpoint's, --frames chunks) */
  /* sqz_field_observe, or sqz_mpi_field_observe on ranks (collective) */
  int (*observe)(sqz_field *f, const sqz_observable *items, size_t n, double *out);
} sqz_cli_obs;

/* --observe ITEM and --observe-out FILE: sqz_cli_opt_observe and sqz_cli_opt_observe_out (cli_table.h). */
/* After the options: --observe, --observe-out and --every K come together (FILE .csv or .jsonl); 0 or the exit
 * status 2. */
int sqz_cli_observe_check(const char *cmd, const sqz_cli_obs *o, uint64_t every);
/* Parses the items on dom (exit status 2 naming a bad one, a probe off the domain, a moment on layout
 * bits) and, when write (rank 0), opens the output's temporary and writes the header. 0 or the exit status. */
int sqz_cli_observe_begin(const char *cmd, sqz_context *ctx, sqz_cli_obs *o, sqz_domain *dom, const char *layout,
                          int write);
/* The row of step `base` of f, then the observer of ctx's step calls: a row every `every` steps and at
 * the last (sqz_context_set_observer). A library status. */
int sqz_cli_observe_start(sqz_cli_obs *o, sqz_context *ctx, sqz_field *f, uint64_t base, uint64_t every);
/* The run's steps before the next step call (sqz_cli_steps chunks the run for --frames). */
void sqz_cli_observe_chunk(uint64_t done);
#endif
