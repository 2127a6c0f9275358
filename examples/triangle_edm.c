/* triangle_edm.c — example: the Euclidean distance matrix of points, only its lower triangle, through a triangle thread map. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <sqz.h>

static const double pi = 3.14159265358979323846;

int main(void) {
  enum { N = 2000 };
  float *xy = malloc(2 * N * sizeof *xy), *d = malloc((size_t)N * (N + 1) / 2 * sizeof *d);
  sqz_context *ctx = NULL;
  if (!xy || !d) return 1;
  for (int i = 0; i < N; i++) { /* points on a circle of radius 1 */
    xy[2 * i] = (float)cos(2 * pi * i / N);
    xy[2 * i + 1] = (float)sin(2 * pi * i / N);
  }
  int st = sqz_context_create(NULL, NULL, &ctx);
  if (st == SQZ_OK) st = sqz_edm(ctx, xy, N, "had", d); /* entry (y, x), x <= y, at y(y+1)/2 + x */
  if (st == SQZ_OK) {
    int y = 250; /* |p0 p250|: entry (250, 0) */
    printf("%d points: %d distances; |p0 p%d| = %.6f, the chord 2 sin(pi %d / %d) = %.6f\n", N, N * (N + 1) / 2, y,
           d[(size_t)y * (y + 1) / 2], y, N, 2 * sin(pi * y / N));
  } else {
    fprintf(stderr, "triangle_edm: %s: %s\n", sqz_status_name(st), sqz_last_error(ctx));
  }
  sqz_context_release(ctx);
  free(xy);
  free(d);
  return st == SQZ_OK ? 0 : 1;
}
