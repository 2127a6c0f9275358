/* engine_simplex.c (cpu) — the reference stencil engine on triangles and tetrahedra: every cell gathers its Moore neighbours through the storage index, OpenMP over rows. */
#include "backends/cpu/cpu_engine.h"
#include "backends/cpu/cpu_rules.h"
#include "sqz_common.h"
#include "sqz_simplex.h"

#define SQZ_INLINE static inline __attribute__((always_inline))

/* Row (y, z) of the domain: cells x = 0 .. y (triangle) or 0 .. n-1-y-z (tetrahedron). */
SQZ_INLINE void cpu_row(int dims, int sl, sqz_u32 n, sqz_u32 y, sqz_u32 z, const unsigned char *src,
                        unsigned char *dst, size_t ts, sqz_update_fn fn, const sqz_cpu_update *u) {
  int nn = dims == 2 ? 8 : 26;
  unsigned char nb[26 * 8];
  sqz_sidx idx[26];
  sqz_u32 end = dims == 2 ? y + 1 : n - y - z;
  for (sqz_u32 x = 0; x < end; x++) {
    sqz_sidx self = 0;
    sqz_u32 present = dims == 2 ? sqz_tri_nbrs(sl, n, x, y, idx, &self) : sqz_tet_nbrs(sl, n, x, y, z, idx, &self);
    for (int d = 0; d < nn; d++) {
      if ((present >> d) & 1u) sqz__cpu_cell_copy(nb + (size_t)d * ts, src + idx[d] * ts, ts);
      else memset(nb + (size_t)d * ts, 0, ts);
    }
    fn(src + self * ts, nb, u->want_present ? present : 0u, u->param, dst + self * ts, u->user);
  }
}

int sqz__cpu_step_simplex(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, dims = f->dom->dims;
  sqz_u32 n = (sqz_u32)f->dom->side;
  int64_t rows = dims == 2 ? (int64_t)n : (int64_t)n * n; /* (y, z) pairs; those with y + z >= n are empty */
#pragma omp parallel num_threads(sqz__cpu_threads(u, f->dom->cells))
  {
    if (u->rule == SQZ_CPU_LIFE) {
#pragma omp for schedule(dynamic, 8)
      for (int64_t r = 0; r < rows; r++) {
        sqz_u32 y = (sqz_u32)(r % n), z = (sqz_u32)(r / n);
        if (y + z < n) cpu_row(dims, sl, n, y, z, src, dst, 1, sqz__cpu_life, u);
      }
    } else {
#pragma omp for schedule(dynamic, 8)
      for (int64_t r = 0; r < rows; r++) {
        sqz_u32 y = (sqz_u32)(r % n), z = (sqz_u32)(r / n);
        if (y + z < n) cpu_row(dims, sl, n, y, z, src, dst, u->ts, u->fn, u);
      }
    }
  }
  return SQZ_OK;
}
