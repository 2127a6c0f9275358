/* cl_engine.c — the opencl backend's stencil and fill entries: the checks common to both families, the engine path (cl_paths.c), and the end of enqueued steps. */
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_bits.h"
#include "backends/opencl/cl_engine.h"
#include "layouts/bits/bits.h"
#include "core/field_parts.h"

int sqz__cl_has_fp64(const sqz_context *ctx) {
  cl_device_fp_config cfg = 0;
  if (clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL) != CL_SUCCESS) return 0;
  return cfg != 0;
}

/* The buffers an enqueued stencil kept (sqz__cl_done_with), released by the completion callback
 * of its last command. */
typedef struct {
  cl_mem mem[SQZ_CL_KEEP];
  int n;
} sqz__cl_kept;

static void CL_CALLBACK sqz__cl_release_kept(cl_event ev, cl_int status, void *data) {
  sqz__cl_kept *k = data;
  for (int i = 0; i < k->n; i++) clReleaseMemObject(k->mem[i]);
  free(k);
}

/* Ends a non-blocking stencil whose launches returned status st: the wait list if no launch
 * took it (0 steps), a marker after the last launch for `done` and for the release of the kept
 * buffers, and a flush so that the work starts while the caller waits elsewhere. */
static int sqz__cl_enqueue_end(sqz_context *ctx, int st) {
  sqz_cl_state *cl = SQZ_CL(ctx);
  cl_event marker = NULL;
  cl_int err = CL_SUCCESS;
  if (st == SQZ_OK) st = sqz__cl_gate(ctx);
  if (st == SQZ_OK && (cl->enq->done || cl->n_keep) &&
      (err = clEnqueueMarkerWithWaitList(cl->queue, 0, NULL, &marker)) != CL_SUCCESS)
    st = sqz__fail(ctx, err, "clEnqueueMarkerWithWaitList after the enqueued steps failed: %s", sqz_status_name(err));
  sqz__cl_kept *kept = cl->n_keep ? sqz__malloc(sizeof *kept) : NULL;
  if (kept) {
    kept->n = cl->n_keep;
    memcpy(kept->mem, cl->keep, sizeof cl->keep);
  }
  if (!kept || !marker || clSetEventCallback(marker, CL_COMPLETE, sqz__cl_release_kept, kept) != CL_SUCCESS) {
    for (int i = 0; i < cl->n_keep; i++) clReleaseMemObject(cl->keep[i]); /* deleted once unused (OpenCL 5.4.1) */
    free(kept);
  }
  cl->n_keep = 0;
  clFlush(cl->queue);
  if (st == SQZ_OK && cl->enq->done) *cl->enq->done = marker;
  else if (marker) clReleaseEvent(marker);
  return st;
}

/* The checks of a family before its paths (cl_paths.c): layout bits takes Life-like rules; the pair of
 * buffers; then the path. Fractals in bytes step nothing, and build nothing, for no steps. */
static int sqz__cl_engine(sqz_field *f, const sqz_update *u, uint64_t steps) {
  int bits = f->layout == SQZ_LAYOUT_BITS, fractal = f->dom->kind == SQZ_DOMAIN_FRACTAL;
  if (fractal && !bits && steps == 0) return SQZ_OK;
  int st = bits ? sqz__bits_check_update(f, u) : SQZ_OK;
  if (st == SQZ_OK && (bits || fractal)) st = sqz__field_ensure_pair(f);
  return st == SQZ_OK ? sqz__engine_step(f, u, steps) : st;
}

int sqz__cl_stencil(sqz_field *f, const sqz_update *u, uint64_t steps, const sqz_enqueue *enq) {
  if (u->kind == SQZ_UPDATE_FN)
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED,
                     "a C update function runs on the cpu backend; on opencl the update is OpenCL C (sqz_stencil_step)");
  if (f->type == SQZ_F64 && !sqz__cl_has_fp64(f->ctx))
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "f64 cells need cl_khr_fp64, which %s lacks", f->ctx->device_name);
  if (f->part && steps > 1 && f->dom->kind != SQZ_DOMAIN_FRACTAL) /* fractal engines step chunks or refuse */
    return sqz__fail(f->ctx, SQZ_ERR_UNSUPPORTED, "%s steps a part one step per exchange", f->dom->spec);
  sqz_cl_state *cl = SQZ_CL(f->ctx);
  cl->enq = enq; /* under the context's lock until the end of this call */
  cl->gated = 0;
  cl->n_keep = 0;
  int st = sqz__cl_engine(f, u, steps);
  if (!cl->dry) { /* over the caller's buffer: the state back in it, before `done` */
    int settled = sqz__field_settle(f, 0);
    if (st == SQZ_OK) st = settled;
  }
  if (enq) st = sqz__cl_enqueue_end(f->ctx, st);
  cl->enq = NULL;
  return st;
}

/* Steps of the second dry call of a prepare: as many as any engine steps in one launch (temporal
 * blocking on GPUs, SQZ_TEMPORAL: up to 4), whose kernels differ from the one-step ones. */
#define SQZ_PREPARE_STEPS 8u

int sqz__cl_prepare(sqz_field *f, const sqz_update *u) {
  sqz_cl_state *cl = SQZ_CL(f->ctx);
  const int cur = f->cur;
  cl->dry = 1; /* the whole path of one step, then of several, every launch left out */
  int st = sqz__cl_stencil(f, u, 1, NULL);
  if (st == SQZ_OK) st = sqz__cl_stencil(f, u, SQZ_PREPARE_STEPS, NULL);
  cl->dry = 0;
  f->cur = cur; /* the engines flipped it for the step that did not run */
  return st;
}

int sqz__cl_fill(sqz_field *f, const sqz_fill *fill) {
  if (f->layout == SQZ_LAYOUT_BITS) return sqz__cl_fill_bits(f, sqz__bits_fill_threshold(fill), fill->seed);
  if (f->part && sqz__bands_layout(f) && f->dom->kind == SQZ_DOMAIN_FRACTAL) {
    /* a band of embedded rows in parts (the embedded kernel writes every row): the host fill of the
     * part's own units, uploaded */
    size_t ts = sqz_type_size(f->type);
    void *store = NULL;
    uint64_t e0, n;
    sqz__own_elems(f, &e0, &n);
    int st = sqz__host_alloc(f->ctx, n * ts, 1, &store, "%s: the host fill", f->dom->spec);
    if (st != SQZ_OK) return st;
    sqz__host_fill_range(f, store, e0, n, fill);
    cl_int err = clEnqueueWriteBuffer(SQZ_CL(f->ctx)->queue, (cl_mem)f->mem[f->cur], CL_TRUE, 0, (size_t)(n * ts),
                                      store, 0, NULL, NULL);
    free(store);
    return err == CL_SUCCESS ? SQZ_OK : sqz__fail(f->ctx, err, "uploading the filled state failed: %s", sqz_status_name(err));
  }
  return f->dom->kind == SQZ_DOMAIN_FRACTAL ? sqz__cl_fill_fractal(f, fill) : sqz__cl_fill_simplex(f, fill);
}
