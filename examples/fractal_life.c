/* fractal_life.c — example: Game of Life on a Sierpinski carpet stored in compact space, and a picture of it. */
#include <stdio.h>

#include <sqz.h>

int main(void) {
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  uint64_t live = 0;
  int st = sqz_context_create(NULL, NULL, &ctx); /* $SQZ_BACKEND / $SQZ_DEVICE, else the first GPU, else PoCL */
  if (st == SQZ_OK) st = sqz_domain_parse(ctx, "fractal:sierpinski-carpet:6", &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_U8, "compact", &f); /* 8^6 cells, not 3^12 */
  if (st == SQZ_OK) st = sqz_field_fill_random(f, 0.35, 2026);
  if (st == SQZ_OK) st = sqz_life_step(f, "B3/S23", 100);
  if (st == SQZ_OK) st = sqz_field_count(f, &live);
  if (st == SQZ_OK) st = sqz_field_save_png(f, "fractal_life.png");
  if (st != SQZ_OK) {
    fprintf(stderr, "fractal_life: %s: %s\n", sqz_status_name(st), sqz_last_error(ctx));
  } else {
    printf("%s: %llu cells in %llu bytes, %llu alive after 100 steps on %s\n", sqz_domain_spec(dom),
           (unsigned long long)sqz_domain_cells(dom), (unsigned long long)sqz_field_bytes(f), (unsigned long long)live,
           sqz_context_device_name(ctx));
  }
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return st == SQZ_OK ? 0 : 1;
}
