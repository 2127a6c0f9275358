/* mpi_api.c — include/sqz_mpi.h on the ranks of mpirun (ctest mpi_api: 3 ranks): fields on the ranks against one field in one buffer (Life on fractals in compact and block:RHO and on a triangle, a part per rank and several, heat f64), scatter and gather, counts, sums, per-rank figures, agreed failures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqz_mpi.h"

static int rank, size, fails;

#define CHECK(cond, ...)                                                 \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fails++;                                                           \
      fprintf(stderr, "rank %d: FAIL %s:%d: ", rank, __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                      \
      fputc('\n', stderr);                                               \
    }                                                                    \
  } while (0)
#define OK(ctx, call) CHECK((call) == SQZ_OK, "%s: %s", #call, sqz_last_error(ctx))

/* The state of f (rank 0's ordinary field) in compact order, or NULL elsewhere. */
static unsigned char *compact(sqz_context *ctx, sqz_field *f, sqz_domain *dom, size_t ts) {
  if (!f) return NULL;
  unsigned char *v = malloc((size_t)sqz_domain_cells(dom) * ts);
  OK(ctx, sqz_field_read_compact(f, v, sqz_domain_cells(dom)));
  return v;
}

/* Life (random start, 9 steps) on the ranks in `parts` parts (0: a part per rank), started twice:
 * filled on the parts, and scattered from rank 0; both gathered and compared with one field in one
 * buffer. */
static void life(sqz_context *ctx, const char *spec, const char *layout, uint64_t parts) {
  sqz_domain *dom = NULL;
  OK(ctx, sqz_domain_parse(ctx, spec, &dom));
  sqz_field *ref = NULL, *whole = NULL, *mf = NULL;
  uint64_t want_live = 0, live = 0, start_live = 0;
  if (rank == 0) {
    OK(ctx, sqz_field_create(dom, SQZ_U8, layout, &ref));
    OK(ctx, sqz_field_create(dom, SQZ_U8, layout, &whole));
    OK(ctx, sqz_field_fill_random(ref, 0.4, 7));
    OK(ctx, sqz_field_count(ref, &start_live));
    OK(ctx, sqz_life_step(ref, NULL, 9));
    OK(ctx, sqz_field_count(ref, &want_live));
    CHECK(want_live != start_live, "%s: 9 steps kept %llu live cells (a test that cannot fail)", spec,
          (unsigned long long)start_live);
  }
  MPI_Bcast(&want_live, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  unsigned char *want = compact(ctx, ref, dom, 1);
  for (int scattered = 0; scattered < 2; scattered++) {
    OK(ctx, sqz_field_create_mpi_parts(ctx, MPI_COMM_WORLD, dom, SQZ_U8, layout, parts, &mf));
    if (!mf) break;
    if (scattered) {
      if (rank == 0) OK(ctx, sqz_field_fill_random(whole, 0.4, 7));
      OK(ctx, sqz_mpi_field_scatter(mf, whole, 0));
      if (rank == 0) OK(ctx, sqz_field_fill_random(whole, 0.9, 1)); /* the gather must replace it */
    } else {
      OK(ctx, sqz_field_fill_random(mf, 0.4, 7));
    }
    OK(ctx, sqz_life_step(mf, NULL, 4));
    OK(ctx, sqz_life_step(mf, "B3/S23", 5));
    OK(ctx, sqz_mpi_field_count(mf, &live));
    CHECK(live == want_live, "%s %s: %llu live cells on %d ranks, %llu in one buffer", spec, layout,
          (unsigned long long)live, size, (unsigned long long)want_live);
    sqz_mpi_rank_stats st;
    OK(ctx, sqz_mpi_field_stats(mf, &st));
    uint64_t n = parts ? parts : (uint64_t)size, first = ((uint64_t)rank * n + (uint64_t)size - 1) / (uint64_t)size;
    uint64_t held = ((uint64_t)(rank + 1) * n + (uint64_t)size - 1) / (uint64_t)size - first; /* p * size / n == rank */
    CHECK(sqz_field_parts(mf) == n && st.part == first && st.parts == held && st.units > 0,
          "%s, %llu parts: rank %d holds %llu parts from part %llu (%llu units)", spec, (unsigned long long)n, rank,
          (unsigned long long)st.parts, (unsigned long long)st.part, (unsigned long long)st.units);
    uint64_t elems = st.units * st.unit_elems, all = 0, storage = 0;
    MPI_Allreduce(&elems, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    sqz_domain_layout_cells(dom, layout, &storage);
    CHECK(all == storage, "%s %s: the ranks own %llu storage elements of %llu", spec, layout,
          (unsigned long long)all, (unsigned long long)storage);
    OK(ctx, sqz_mpi_field_gather(mf, whole, 0));
    unsigned char *got = compact(ctx, whole, dom, 1);
    CHECK(!got || memcmp(got, want, (size_t)sqz_domain_cells(dom)) == 0, "%s %s (%s): the gathered state differs",
          spec, layout, scattered ? "scattered" : "filled on the parts");
    free(got);
    sqz_field_release(mf);
    mf = NULL;
  }
  free(want);
  sqz_field_release(ref);
  sqz_field_release(whole);
  sqz_domain_release(dom);
}

/* Heat on f64: the same bits as one buffer, and the ranks' sum within round-off of one buffer's. */
static void heat(sqz_context *ctx, const char *spec) {
  sqz_domain *dom = NULL;
  OK(ctx, sqz_domain_parse(ctx, spec, &dom));
  sqz_field *ref = NULL, *whole = NULL, *mf = NULL;
  double want = 0, got = 0;
  if (rank == 0) {
    OK(ctx, sqz_field_create(dom, SQZ_F64, "compact", &ref));
    OK(ctx, sqz_field_create(dom, SQZ_F64, "compact", &whole));
    OK(ctx, sqz_field_fill_uniform(ref, 3));
    OK(ctx, sqz_heat_step(ref, 0.1, 5));
    OK(ctx, sqz_field_sum(ref, SQZ_SUM_NEUMAIER, &want));
  }
  MPI_Bcast(&want, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  OK(ctx, sqz_field_create_mpi(ctx, MPI_COMM_WORLD, dom, SQZ_F64, NULL, &mf));
  OK(ctx, sqz_field_fill_uniform(mf, 3));
  OK(ctx, sqz_heat_step(mf, 0.1, 5));
  OK(ctx, sqz_mpi_field_sum(mf, SQZ_SUM_NEUMAIER, &got));
  CHECK(fabs(got - want) <= 1e-12 * fabs(want), "%s: heat sums %.17g on the ranks, %.17g in one buffer", spec, got, want);
  OK(ctx, sqz_mpi_field_gather(mf, whole, 0));
  unsigned char *a = compact(ctx, ref, dom, 8), *b = compact(ctx, whole, dom, 8);
  CHECK(!a || memcmp(a, b, (size_t)sqz_domain_cells(dom) * 8) == 0, "%s: heat states differ", spec);
  free(a);
  free(b);
  sqz_field_release(mf);
  sqz_field_release(ref);
  sqz_field_release(whole);
  sqz_domain_release(dom);
}

/* Failures every rank sees alike, and one that one rank meets alone. */
static void failures(sqz_context *ctx) {
  sqz_domain *dom = NULL;
  sqz_field *mf = NULL, *plain = NULL;
  OK(ctx, sqz_domain_parse(ctx, "triangle:1", &dom)); /* one cell for 3 ranks */
  int st = sqz_field_create_mpi(ctx, MPI_COMM_WORLD, dom, SQZ_U8, NULL, &mf);
  CHECK(st == SQZ_ERR_INVALID_ARGUMENT && !mf && strstr(sqz_last_error(ctx), "largest valid count"),
        "3 ranks for 1 cell: %d %s", st, sqz_last_error(ctx));
  if (size > 1) { /* fewer parts than ranks */
    st = sqz_field_create_mpi_parts(ctx, MPI_COMM_WORLD, dom, SQZ_U8, NULL, (uint64_t)size - 1, &mf);
    CHECK(st == SQZ_ERR_INVALID_ARGUMENT && !mf && strstr(sqz_last_error(ctx), "every rank holds a part"),
          "%d parts on %d ranks: %d %s", size - 1, size, st, sqz_last_error(ctx));
  }
  OK(ctx, sqz_field_create(dom, SQZ_U8, NULL, &plain));
  CHECK(sqz_mpi_field_scatter(plain, NULL, 0) == SQZ_ERR_INVALID_ARGUMENT, "scatter of a field not on ranks");
  sqz_field_release(plain);
  sqz_domain_release(dom);
  sqz_domain *bad = NULL;
  st = rank == 1 ? sqz_domain_parse(ctx, "triangle:x", &bad) : SQZ_OK; /* rank 1 alone */
  st = sqz_mpi_agree(ctx, MPI_COMM_WORLD, st);
  CHECK(st == SQZ_ERR_PARSE && strncmp(sqz_last_error(ctx), "rank 1: ", 8) == 0, "agreed: %d '%s'", st,
        sqz_last_error(ctx));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *backend = argc > 1 ? argv[1] : NULL;
  sqz_context *ctx = NULL;
  OK(ctx, sqz_context_create(backend, NULL, &ctx));
  if (ctx) {
    life(ctx, "fractal:sierpinski-triangle:6", "compact", 0);
    life(ctx, "fractal:sierpinski-carpet:3", "block:3", 0);
    life(ctx, "triangle:37", "compact", 0);
    life(ctx, "fractal:sierpinski-triangle:6", "compact", 2 * (uint64_t)size + 1); /* several parts per rank */
    life(ctx, "triangle:37", "compact", (uint64_t)size + 1);
    heat(ctx, "tetrahedron:9");
    failures(ctx);
  }
  sqz_context_release(ctx);
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "mpi_api: %d failures\n" : "mpi_api: all passed on %d ranks\n", all ? all : size);
  MPI_Finalize();
  return all != 0;
}
