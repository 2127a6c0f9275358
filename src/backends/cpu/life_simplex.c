/* life_simplex.c (cpu) — the reference Life-like step on triangle/tetrahedron fields, plain C loops. */
#include <string.h>

#include "simplex/simplex_plan.h"

int sqz__life_simplex_cpu(sqz_field *f, uint32_t birth, uint32_t survive, uint64_t steps) {
  sqz_context *ctx = f->ctx;
  sqz_simplex_plan plan; /* the map does not change the result here, but it must be valid */
  int st = sqz__simplex_plan(ctx, f->dom->dims, f->dom->side, f->map, f->block, 0, &plan);
  if (st != SQZ_OK) return st;
  sqz__simplex_plan_free(&plan);
  st = sqz__field_ensure_pair(f);
  if (st != SQZ_OK) return st;
  double t0 = sqz__now();
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT;
  sqz_u32 n = (sqz_u32)f->dom->side;
  for (uint64_t s = 0; s < steps; s++) {
    const unsigned char *src = f->host[f->cur];
    unsigned char *dst = f->host[1 - f->cur];
    if (f->dom->dims == 2) {
      for (sqz_u32 y = 0; y < n; y++)
        for (sqz_u32 x = 0; x <= y; x++) {
          sqz_sidx self = 0;
          sqz_u32 live = sqz_tri_live(src, sl, n, x, y, &self);
          dst[self] = (unsigned char)((((src[self] ? survive : birth) >> live) & 1u));
        }
    } else {
      for (sqz_u32 z = 0; z < n; z++)
        for (sqz_u32 y = 0; y + z < n; y++)
          for (sqz_u32 x = 0; x + y + z < n; x++) {
            sqz_sidx self = 0;
            sqz_u32 live = sqz_tet_live(src, sl, n, x, y, z, &self);
            dst[self] = (unsigned char)((((src[self] ? survive : birth) >> live) & 1u));
          }
    }
    f->cur = 1 - f->cur;
  }
  ctx->kernel_s += sqz__now() - t0;
  return SQZ_OK;
}
