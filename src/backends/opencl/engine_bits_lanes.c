/* engine_bits_lanes.c (opencl) — the bits fractal step by lanes (cl/engine_bits_lanes.cl): its plan, program and launches. */
#include <stdio.h>
#include <stdlib.h>

#include "backends/opencl/cl_bits.h"
#include "layouts/bits/bits.h"

#define SQZ__LANES_LOCAL 256u          /* work-items per group */
#define SQZ__LANES_ROUNDS_PER_GROUP 4u /* its rounds (a round: the tiles of 32 lanes) where there are many */

/* What the lanes step chose: the tiling and the plan of its lanes. */
typedef struct {
  sqz_bits_tiling bt;
  sqz_bits_lanes p;
} sqz__lanes_choice;

int sqz__cl_bits_lanes_plan(sqz_field *f, uint64_t steps, sqz_path_plan *plan) {
  sqz__lanes_choice *c = sqz__calloc(1, sizeof *c);
  if (!c) return sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  plan->data = c;
  sqz__bits_tiling(f->dom, &c->bt);
  int st = sqz__bits_lanes_plan(f->ctx, f->dom, &c->bt, sqz__bits_depth(f, steps), f->ctx->local_mem, &c->p);
  plan->depth = c->p.depth;
  return st;
}

void sqz__cl_bits_lanes_drop(sqz_path_plan *plan) {
  sqz__lanes_choice *c = plan->data;
  if (c) free(c->p.tab);
  free(c);
}

int sqz__cl_bits_lanes(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_path_plan *plan) {
  static const char *const files[] = {"sqz_common.h", "sqz_fractal.h", "sqz_parts.h", "sqz_bits.h", "sqz_bits_box.h",
                                      "sqz_bits_lanes.h", "engine_bits_lanes.cl", NULL};
  sqz_context *ctx = f->ctx;
  const sqz__lanes_choice *c = plan->data;
  const sqz_bits_lanes *p = &c->p;
  char pre[512];
  snprintf(pre, sizeof pre,
           "#define SQZ_BITS_B %uu\n#define SQZ_BITS_S %uu\n#define SQZ_BITS_FR_S %uu\n#define SQZ_BITS_FR_K %uu\n"
           "#define SQZ_LANES_K %uu\n#define SQZ_LANES_L %uu\n#define SQZ_LANES_N %uu\n#define SQZ_LANES_NPOS %uu\n"
           "#define SQZ_LANES_NOWN %uu\n",
           u->birth, u->survive, (unsigned)f->dom->fr.s, (unsigned)f->dom->fr.k, p->k_cells, p->per_tile,
           p->per_tile * p->tiles, p->npos, p->nown);
  cl_kernel k = NULL;
  cl_mem tab = NULL, fr = NULL;
  size_t local = ctx->max_work_group < SQZ__LANES_LOCAL ? ctx->max_work_group : SQZ__LANES_LOCAL, kwg = 0;
  int st = sqz__program_kernel(ctx, pre, files, "", "sqz_bits_fractal_lanes", &k);
  if (st == SQZ_OK && clGetKernelWorkGroupInfo(k, SQZ_CL(ctx)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg,
                                               NULL) == CL_SUCCESS && kwg > 0 && kwg < local)
    local = kwg;
  if (st == SQZ_OK) st = sqz__const_buffer(ctx, p->words * sizeof *p->tab, p->tab, &tab);
  if (st == SQZ_OK) st = sqz__bits_fr_buffer(f, &fr);
  size_t global = sqz__bits_global(ctx, (c->bt.tiles + p->tiles - 1) / p->tiles, SQZ__LANES_ROUNDS_PER_GROUP, local);
  size_t area = 0;
  sqz__bits_lanes_local(p, c->bt.wt, &area);
  if (st == SQZ_OK)
    sqz__bits_plan_dump(f, (uint32_t)f->dom->fr.r - p->u, c->bt.wt, p->depth, u, area, global / local, local, p->tab,
                        p->words, c->bt.tiles, 0, 4u);
  return sqz__bits_launches(f, k, tab, fr, (cl_uint)f->dom->fr.r - p->u, c->bt.wt, c->bt.tiles, area, p->depth, u,
                            steps, global, local, st);
}
