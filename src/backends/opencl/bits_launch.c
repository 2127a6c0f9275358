/* bits_launch.c (opencl) — what the bits fractal steps (the boxes in engine_bits.c, the lanes in engine_bits_lanes.c) share: the fractal's H tables on the device, the launch size and the launch loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_bits.h"

int sqz__bits_fr_buffer(sqz_field *f, cl_mem *fr) {
  const sqz_fractal *d = &f->dom->fr;
  int32_t frt[2 * SQZ_MAX_SCALE * SQZ_MAX_SCALE + SQZ_MAX_SCALE * SQZ_MAX_SCALE];
  size_t nfr = 2u * (size_t)d->k + (size_t)d->s * (size_t)d->s;
  memcpy(frt, d->hl, 2u * (size_t)d->k * sizeof *frt);
  memcpy(frt + 2 * d->k, d->hnu, (size_t)d->s * (size_t)d->s * sizeof *frt);
  return sqz__const_buffer(f->ctx, nfr * sizeof *frt, frt, fr);
}

int sqz__bits_launches(sqz_field *f, cl_kernel k, cl_mem tab, cl_mem fr, cl_uint rb, cl_uint wt, cl_ulong tiles,
                       size_t area, uint32_t depth, const sqz_update *u, uint64_t steps, size_t global, size_t local,
                       int st) {
  sqz_context *ctx = f->ctx;
  cl_uint s = (cl_uint)f->dom->fr.s, kk = (cl_uint)f->dom->fr.k;
  for (uint64_t done = 0; global && st == SQZ_OK && done < steps;) {
    cl_mem src = (cl_mem)f->mem[f->cur], dst = (cl_mem)f->mem[1 - f->cur];
    cl_uint now = steps - done < depth ? (cl_uint)(steps - done) : depth;
    st = sqz__args(ctx, k, sizeof src, &src, sizeof dst, &dst, sizeof tab, &tab, sizeof fr, &fr, sizeof s, &s,
                   sizeof kk, &kk, sizeof rb, &rb, sizeof wt, &wt, sizeof tiles, &tiles, sizeof now, &now,
                   sizeof u->birth, &u->birth, sizeof u->survive, &u->survive, (size_t)0);
    cl_int err = CL_SUCCESS;
    if (st == SQZ_OK && (err = clSetKernelArg(k, 12, area, NULL)) != CL_SUCCESS)
      st = sqz__fail(ctx, err, "setting the local memory of a bits step failed: %s", sqz_status_name(err));
    if (st == SQZ_OK) st = sqz__run(ctx, k, 1, &global, &local);
    if (st == SQZ_OK) {
      f->cur = 1 - f->cur;
      done += now;
    }
  }
  int fin = sqz__cl_done_with(ctx, tab, fr);
  if (st == SQZ_OK) st = fin;
  if (k) clReleaseKernel(k);
  return st;
}

void sqz__bits_plan_dump(const sqz_field *f, uint32_t rb, uint32_t wt, uint32_t steps, const sqz_update *u, size_t area,
                         size_t groups, size_t local, const uint32_t *tab, size_t words, uint64_t tiles, uint32_t side,
                         uint32_t flags) {
  const char *path = sqz__opt_text(NULL, f, SQZ_OPT_BITS_PLAN_OUT);
  FILE *fp = path && *path ? fopen(path, "wb") : NULL;
  if (!fp) return;
  const sqz_fractal *d = &f->dom->fr;
  uint32_t head[16] = {0x42425153u, (uint32_t)d->s, (uint32_t)d->k, rb, wt, steps, u->birth, u->survive,
                       (uint32_t)area, (uint32_t)groups, (uint32_t)local, (uint32_t)words, (uint32_t)tiles,
                       (uint32_t)(tiles >> 32), side, flags};
  fwrite(head, sizeof head, 1, fp);
  fwrite(tab, sizeof *tab, words, fp);
  fwrite(d->hl, sizeof *d->hl, 2u * (size_t)d->k, fp);
  fwrite(d->hnu, sizeof *d->hnu, (size_t)d->s * (size_t)d->s, fp);
  fclose(fp);
}

size_t sqz__bits_global(const sqz_context *ctx, uint64_t units, uint64_t per_group, size_t local) {
  uint64_t few = (units + per_group - 1) / per_group;
  uint64_t least = (uint64_t)(ctx->compute_units ? ctx->compute_units : 1) * SQZ__BITS_GROUPS_PER_CU;
  if (least > units) least = units;
  return (size_t)(few > least ? few : least) * local;
}
