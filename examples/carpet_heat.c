/* carpet_heat.c — example: heat diffusing on a Sierpinski carpet with insulated holes; the total is conserved. */
#include <stdio.h>

#include <sqz.h>

int main(void) {
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  double before = 0, after = 0;
  int st = sqz_context_create(NULL, NULL, &ctx);
  if (st == SQZ_OK) st = sqz_domain_parse(ctx, "fractal:sierpinski-carpet:4", &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_F64, "compact", &f);
  if (st == SQZ_OK) st = sqz_field_fill_uniform(f, 7);
  if (st == SQZ_OK) st = sqz_field_sum(f, SQZ_SUM_NEUMAIER, &before);
  if (st == SQZ_OK) st = sqz_heat_step(f, 0.2, 1000);
  if (st == SQZ_OK) st = sqz_field_sum(f, SQZ_SUM_NEUMAIER, &after);
  if (st == SQZ_OK) st = sqz_field_save_png(f, "carpet_heat.png");
  if (st == SQZ_OK)
    printf("heat on %s: total %.12f before, %.12f after 1000 steps (relative change %.1e)\n", sqz_domain_spec(dom),
           before, after, (after - before) / before);
  else
    fprintf(stderr, "carpet_heat: %s: %s\n", sqz_status_name(st), sqz_last_error(ctx));
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return st == SQZ_OK ? 0 : 1;
}
