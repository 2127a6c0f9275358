/* cli_init.h — the states sqz makes for --init (random, uniform, const:V, point:Y,X[:V]), parsed once and applied to a field. */
#ifndef SQZ_CLI_INIT_H
#define SQZ_CLI_INIT_H
#include <stdint.h>

#include "cli_common.h"
#include "sqz.h"

enum { SQZ_CLI_GEN_RANDOM, SQZ_CLI_GEN_UNIFORM, SQZ_CLI_GEN_CONST, SQZ_CLI_GEN_POINT };
typedef struct {
  int kind;
  double density;  /* RANDOM: the probability of a 1 */
  uint64_t seed;   /* RANDOM, UNIFORM */
  double value;    /* CONST: every cell; POINT: the one cell (the others 0) */
  uint64_t at[3];  /* POINT: the coordinates as written, (y, x) or (z, y, x) */
  int n_at;
} sqz_cli_gen;

/* Parses an --init that sqz makes: random[:DENSITY[:SEED]] (uniform = 0, for life and run: cells 1
 * with that probability; g->density and g->seed keep their values where the text leaves them out),
 * random[:SEED] (uniform = 1, heat: values in [0, 1)), const:V, point:Y,X[:V] or point:Z,Y,X[:V]
 * (V = 1 by default). Returns 1 with *g set, 0 when init names a file (anything else, such as
 * random.pbm), 2 after a usage error naming the bad part. */
int sqz_cli_gen_parse(const char *cmd, const char *init, int uniform, sqz_cli_gen *g);
/* Fills f (every part held here) by g. A point needs as many coordinates as the domain has
 * dimensions (sqz_cli_gen_check) and a domain cell there, a value the cell type holds:
 * SQZ_ERR_INVALID_ARGUMENT naming it otherwise. On MPI ranks every rank calls it on the field of parts. */
int sqz_cli_gen_apply(sqz_field *f, const sqz_cli_gen *g);
/* 0 when g suits a domain of dims dimensions (a point's coordinates), else a usage error: 2. */
int sqz_cli_gen_check(const char *cmd, const char *init, const sqz_cli_gen *g, int dims);
/* The --json keys of an --init: "init" as written, and "seed" and "density" where g (NULL: a file)
 * has them. */
void sqz_cli_gen_json(sqz_json *j, const char *init, const sqz_cli_gen *g);
#endif
