/* engine_simplex.c (cpu) — the reference stencil engine on triangles and tetrahedra: every cell gathers its Moore neighbours through the storage index. */
#include "backends/cpu/cpu_engine.h"
#include "sqz_common.h"
#include "sqz_simplex.h"

int sqz__cpu_step_simplex(sqz_field *f, const sqz_cpu_update *u, const unsigned char *src, unsigned char *dst) {
  int sl = f->layout == SQZ_LAYOUT_BB ? SQZ_SL_BB : SQZ_SL_COMPACT, dims = f->dom->dims, nn = dims == 2 ? 8 : 26;
  sqz_u32 n = (sqz_u32)f->dom->side;
  size_t ts = u->ts;
  unsigned char nb[26 * 8];
  sqz_sidx idx[26];
  for (sqz_u32 z = 0; z < (dims == 2 ? 1u : n); z++)
    for (sqz_u32 y = 0; y + z < n; y++)
      for (sqz_u32 x = 0; dims == 2 ? x <= y : x + y + z < n; x++) {
        sqz_sidx self = 0;
        sqz_u32 present = dims == 2 ? sqz_tri_nbrs(sl, n, x, y, idx, &self) : sqz_tet_nbrs(sl, n, x, y, z, idx, &self);
        for (int d = 0; d < nn; d++) {
          if ((present >> d) & 1u) sqz__cpu_cell_copy(nb + (size_t)d * ts, src + idx[d] * ts, ts);
          else memset(nb + (size_t)d * ts, 0, ts);
        }
        u->fn(src + self * ts, nb, u->want_present ? present : 0u, u->param, dst + self * ts, u->user);
      }
  return SQZ_OK;
}
