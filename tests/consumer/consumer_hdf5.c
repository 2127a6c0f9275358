/* consumer_hdf5.c — a program on the installed component hdf5 (sqz_hdf5.h, libsqz-hdf5): a checkpoint saved and loaded back, the same state. */
#include <stdio.h>
#include <string.h>

#include <sqz_hdf5.h>

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "consumer.h5";
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *a = NULL, *b = NULL;
  uint64_t step = 0, live_a = 0, live_b = 0;
  char work[32] = "";
  int st = sqz_context_create("cpu", NULL, &ctx);
  if (st == SQZ_OK) st = sqz_domain_parse(ctx, "fractal:sierpinski-carpet:3", &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_U8, "compact", &a);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_U8, "compact", &b);
  if (st == SQZ_OK) st = sqz_field_fill_random(a, 0.4, 3);
  if (st == SQZ_OK) st = sqz_field_save_h5(a, path, "B3/S23", 7);
  if (st == SQZ_OK) st = sqz_field_load_h5(b, path, work, sizeof work, &step);
  if (st == SQZ_OK) st = sqz_field_count(a, &live_a);
  if (st == SQZ_OK) st = sqz_field_count(b, &live_b);
  if (st == SQZ_OK && (live_a == 0 || live_a != live_b || step != 7 || strcmp(work, "B3/S23") != 0)) st = SQZ_ERR_INTERNAL;
  printf("consumer_hdf5: %llu live cells saved, %llu loaded, step %llu, %s (%s)\n", (unsigned long long)live_a,
         (unsigned long long)live_b, (unsigned long long)step, sqz_status_name(st), sqz_last_error(ctx));
  sqz_field_release(a);
  sqz_field_release(b);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return st == SQZ_OK ? 0 : 1;
}
