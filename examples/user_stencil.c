/* user_stencil.c — example: your own cell update (a cyclic cellular automaton on int cells) on a triangle, in OpenCL C. */
#include <stdio.h>
#include <stdlib.h>

#include <sqz.h>

/* Each cell moves on to the next of param[0] states when at least two neighbours are already there. */
static const char *cyclic =
    "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                      __constant const sqz_param_t *param) {\n"
    "  int k = (int)param[0], next = (self + 1) % k, c = 0;\n"
    "#pragma unroll\n"
    "  for (int i = 0; i < SQZ_NB; i++) c += (present >> i & 1u) && nb[i] == next;\n"
    "  return c >= 2 ? next : self;\n"
    "}\n";

int main(void) {
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  const double states[] = {4};
  double sum = 0;
  int32_t *start = NULL;
  int st = sqz_context_create("opencl", NULL, &ctx); /* OpenCL C runs on any OpenCL device (PoCL on a CPU) */
  if (st == SQZ_OK) st = sqz_domain_parse(ctx, "triangle:500", &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_I32, "compact", &f);
  if (st == SQZ_OK) st = sqz_field_set_map(f, "had");
  uint64_t cells = dom ? sqz_domain_cells(dom) : 0, x = 3;
  if (st == SQZ_OK && !(start = malloc(cells * sizeof *start))) st = SQZ_ERR_OUT_OF_MEMORY;
  for (uint64_t i = 0; st == SQZ_OK && i < cells; i++) { /* states 0..3 at random, in compact order */
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    start[i] = (int32_t)(x >> 62);
  }
  if (st == SQZ_OK) st = sqz_field_write_compact(f, start, cells);
  if (st == SQZ_OK) st = sqz_stencil_step(f, cyclic, "cyclic.cl", states, 1, 200);
  if (st == SQZ_OK) st = sqz_field_sum(f, SQZ_SUM_PAIRWISE, &sum);
  if (st == SQZ_OK)
    printf("cyclic CA on %s after 200 steps: mean state %.4f\n", sqz_domain_spec(dom), sum / (double)sqz_domain_cells(dom));
  else
    fprintf(stderr, "user_stencil: %s: %s\n", sqz_status_name(st), sqz_last_error(ctx));
  free(start);
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return st == SQZ_OK ? 0 : 1;
}
