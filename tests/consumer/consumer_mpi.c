/* consumer_mpi.c — a program on the installed component mpi (sqz_mpi.h, libsqz-mpi): a field in parts on the ranks, stepped, counted as one field in one buffer. */
#include <stdio.h>

#include <sqz_mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *mf = NULL, *one = NULL;
  uint64_t live = 0, want = 0;
  int st = sqz_context_create("cpu", NULL, &ctx);
  if (st == SQZ_OK) st = sqz_domain_parse(ctx, "triangle:64", &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_U8, "compact", &one);
  if (st == SQZ_OK) st = sqz_field_fill_random(one, 0.4, 5);
  if (st == SQZ_OK) st = sqz_life_step(one, "B3/S23", 6);
  if (st == SQZ_OK) st = sqz_field_count(one, &want);
  st = sqz_mpi_agree(ctx, MPI_COMM_WORLD, st);
  if (st == SQZ_OK) st = sqz_field_create_mpi(ctx, MPI_COMM_WORLD, dom, SQZ_U8, "compact", &mf);
  if (st == SQZ_OK) st = sqz_field_fill_random(mf, 0.4, 5);
  if (st == SQZ_OK) st = sqz_life_step(mf, "B3/S23", 6);
  if (st == SQZ_OK) st = sqz_mpi_field_count(mf, &live);
  if (st == SQZ_OK && live != want) st = SQZ_ERR_INTERNAL;
  if (rank == 0)
    printf("consumer_mpi: %llu live cells on the ranks, %llu in one buffer, %s (%s)\n", (unsigned long long)live,
           (unsigned long long)want, sqz_status_name(st), sqz_last_error(ctx));
  sqz_field_release(mf);
  sqz_field_release(one);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  MPI_Finalize();
  return st == SQZ_OK ? 0 : 1;
}
