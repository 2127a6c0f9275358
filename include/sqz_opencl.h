/* sqz_opencl.h — OpenCL interop: sqz on your cl_context and queue, fields in your cl_mem, non-blocking steps with events, builds ahead of time. */
#ifndef SQZ_OPENCL_H
#define SQZ_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "sqz.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a context on your OpenCL objects (the CLBlast convention) ------------------------------
 * sqz builds its programs in `context` for `device` and enqueues every command on `queue`, an
 * in-order queue of that context and device (an out-of-order queue is SQZ_ERR_UNSUPPORTED; a
 * queue of another context or device is SQZ_ERR_INVALID_ARGUMENT). sqz retains the context and
 * the queue (and the device when it is a sub-device) and releases only those references when the
 * sqz context goes (sqz_context_release: after its last domain and field): your objects stay
 * yours and outlive it. A queue without CL_QUEUE_PROFILING_ENABLE works as well: kernel times
 * (sqz_context_timing) are then host times, from the first launch of an operation to the end of
 * its wait. Blocking calls wait with clFinish on `queue`, so they also wait for your commands
 * enqueued before them; releasing the sqz context only flushes `queue`.
 * On failure *out is NULL and sqz_last_error(NULL) holds the detail for this thread. */
SQZ_API int sqz_context_create_opencl(cl_context context, cl_device_id device, cl_command_queue queue,
                                      sqz_context **out);
/* The OpenCL objects of an opencl context (created either way), not retained: valid while ctx
 * lives. Any pointer may be NULL. SQZ_ERR_UNSUPPORTED on another backend. */
SQZ_API int sqz_context_opencl(const sqz_context *ctx, cl_context *context, cl_device_id *device,
                               cl_command_queue *queue);

/* ---- a field's device memory --------------------------------------------------------------
 * The buffer holding the field's current state, sqz_domain_layout_cells storage elements in the
 * order of sqz_field_index (include/sqz.h; sqz_field_layout_rule says it in words). What an index
 * i means depends on the layout:
 *   bb, lambda, compact, block:RHO  element i of the field's type, at byte i * sqz_type_size;
 *       bb and lambda: the bounding box row-major (y * side + x; tetrahedra (z * N + y) * N + x);
 *       compact: triangles the rectangle fold, tetrahedra packed layers z then rows y, fractals the
 *       digit order of lambda (no holes stored); block:RHO: RHO x RHO tiles of the embedding, tile b
 *       (in compact order at level R - log_s RHO) at elements b * RHO^2 .., its cells row-major.
 *   bits  a bit index: the cell is bit i mod 32 of the 32-bit word i / 32 (on a little-endian
 *       device bit i mod 8 of byte i / 8), 1 alive; rows (simplices) or tiles (fractals) padded
 *       to whole words. The buffer has sqz_domain_layout_bytes bytes.
 * Not retained. A step writes the other buffer of the pair and makes it current, and so does a load
 * of a PBM, .npy, RLE or HDF5 file, so the handle is valid until the next step, such load or
 * sqz_field_release; ask again after each one (a field over your buffer, below, gives the same handle
 * every time). Cells outside the domain, holes and padding must stay 0. SQZ_ERR_UNSUPPORTED on a
 * non-OpenCL field or one in parts. */
SQZ_API int sqz_field_cl_mem(const sqz_field *field, cl_mem *current);

/* ---- a field in your buffer (the CLBlast convention) -----------------------------------------
 * A field of (dom, type, layout) whose state lives in `buffer`, bytes [offset, offset + B) with B
 * the field's bytes (sqz_domain_layout_cells x sqz_type_size; layout bits: sqz_domain_layout_bytes).
 * The bytes already there are the field's state, in the order above (holes and padding 0; a fill or a
 * load sets every byte). sqz never writes the buffer outside those bytes. The second state buffer of
 * the steps is sqz's own (made at the first step or prepare); after every call that changes the state
 * (steps, enqueued steps, loads, fills, writes) the result is in your buffer: a call whose steps left
 * it in the second buffer copies it back (one device copy, on the queue before an enqueued call's
 * `done`), so sqz_field_cl_mem always gives `buffer` (offset 0) or the same sub-buffer of it.
 * offset 0 uses the buffer itself; another offset a sub-buffer (clCreateSubBuffer), so it must be a
 * multiple of the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bytes: bits / 8; 128 bytes on most GPUs).
 * The buffer must be a read-write buffer of the cl_context of dom's context (sqz_context_create_opencl
 * on your objects); sqz retains it while the field lives and releases it with the field. Order your
 * own commands on it with sqz's through the in-order queue or events, as for sqz_field_cl_mem.
 * Such a field is one buffer: never in parts (sqz_field_parts 1).
 * SQZ_ERR_INVALID_ARGUMENT, naming the values: a NULL domain, buffer or out; a buffer too small
 * ("needs B bytes at offset O ... but the buffer has S bytes (CL_MEM_SIZE)"); a buffer of another
 * cl_context (CL_MEM_CONTEXT); an image or a read-only / write-only buffer; a misaligned offset.
 * SQZ_ERR_UNSUPPORTED on a context of another backend; SQZ_ERR_TOO_LARGE when the second buffer would
 * exceed the device's largest allocation. */
SQZ_API int sqz_field_create_opencl(sqz_domain *dom, sqz_type type, const char *layout, cl_mem buffer, size_t offset,
                                    sqz_field **out);

/* ---- non-blocking steps ---------------------------------------------------------------------
 * sqz_life_step and sqz_stencil_step without the wait: the steps are enqueued on the context's
 * queue (no clFinish) and the call returns. The first launch waits for the n_wait events of
 * `wait` (events of the context's cl_context: yours, user events, earlier `done` events); with
 * done != NULL, *done receives an event (yours to clReleaseEvent) that completes when the last
 * step has. Until then the field must not be read, written or released by another command that
 * does not wait for *done (sqz's own calls on the same context do: they share its in-order queue).
 * The parameter and tile buffers of the steps live until the steps complete. Program builds,
 * argument checks and the second buffer's allocation happen in the call, as in the blocking
 * form, unless a prepare (below) did them; sqz_field_cl_mem gives the buffer the last enqueued
 * step will write (a field over your buffer: that buffer). Device times of
 * enqueued steps are not collected (sqz_context_timing: host time of the call; profile *done on a
 * profiling queue). The cpu and cuda backends run an enqueue with n_wait = 0 and done = NULL
 * synchronously and refuse a wait list or a done event (SQZ_ERR_UNSUPPORTED, nothing runs). */
SQZ_API int sqz_life_enqueue(sqz_field *field, const char *rule, uint64_t steps, cl_uint n_wait, const cl_event *wait,
                             cl_event *done);
SQZ_API int sqz_stencil_enqueue(sqz_field *field, const char *source, const char *source_name, const double *param,
                                size_t n_param, uint64_t steps, cl_uint n_wait, const cl_event *wait, cl_event *done);

/* ---- building ahead of time ------------------------------------------------------------------
 * What the first step of an update on the field would do before its first launch, done now: the
 * argument checks, the OpenCL programs of the engine path the steps take (built, or loaded from the
 * kernel cache: $SQZ_CACHE_DIR), for one step and for longer calls, and the second state buffer. So
 * the first sqz_life_enqueue / sqz_stencil_enqueue (or blocking step) of the same update on the field,
 * or on another field of the same domain, type, layout, map and block in the same context, builds
 * nothing and returns at once. Nothing runs: the state and sqz_field_engine are unchanged. The same
 * arguments and statuses as the step calls (a build failure is SQZ_ERR_BUILD_FAILED with the log); a
 * field in parts is SQZ_ERR_UNSUPPORTED. On the cpu and cuda backends there is nothing to build (the
 * checks and the second buffer only). */
SQZ_API int sqz_life_prepare(sqz_field *field, const char *rule);
SQZ_API int sqz_stencil_prepare(sqz_field *field, const char *source, const char *source_name, const double *param,
                                size_t n_param);
SQZ_API int sqz_heat_prepare(sqz_field *field, double alpha);

#ifdef __cplusplus
}
#endif
#endif /* SQZ_OPENCL_H */
