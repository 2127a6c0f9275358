/* sqz_opencl.h — OpenCL interop: sqz on your cl_context and queue, a field's cl_mem, non-blocking steps with events. */
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
 * The buffer holding the field's current state: elements of the field's type in the order of
 * sqz_field_index (storage index i at byte i * sqz_type_size), sqz_domain_layout_cells elements.
 * Not retained. A step writes the other buffer of the pair and makes it current, and so does a load
 * of a PBM, .npy, RLE or HDF5 file, so the handle is valid until the next step, such load or
 * sqz_field_release; ask again after each one. Cells outside the domain, holes and padding must
 * stay 0. SQZ_ERR_UNSUPPORTED on a non-OpenCL field. */
SQZ_API int sqz_field_cl_mem(const sqz_field *field, cl_mem *current);

/* ---- non-blocking steps ---------------------------------------------------------------------
 * sqz_life_step and sqz_stencil_step without the wait: the steps are enqueued on the context's
 * queue (no clFinish) and the call returns. The first launch waits for the n_wait events of
 * `wait` (events of the context's cl_context: yours, user events, earlier `done` events); with
 * done != NULL, *done receives an event (yours to clReleaseEvent) that completes when the last
 * step has. Until then the field must not be read, written or released by another command that
 * does not wait for *done (sqz's own calls on the same context do: they share its in-order queue).
 * The parameter and tile buffers of the steps live until the steps complete. Program builds,
 * argument checks and the second buffer's allocation happen in the call, as in the blocking
 * form; sqz_field_cl_mem gives the buffer the last enqueued step will write. Device times of
 * enqueued steps are not collected (sqz_context_timing: host time of the call; profile *done on a
 * profiling queue). The cpu and cuda backends run an enqueue with n_wait = 0 and done = NULL
 * synchronously and refuse a wait list or a done event (SQZ_ERR_UNSUPPORTED, nothing runs). */
SQZ_API int sqz_life_enqueue(sqz_field *field, const char *rule, uint64_t steps, cl_uint n_wait, const cl_event *wait,
                             cl_event *done);
SQZ_API int sqz_stencil_enqueue(sqz_field *field, const char *source, const char *source_name, const double *param,
                                size_t n_param, uint64_t steps, cl_uint n_wait, const cl_event *wait, cl_event *done);

#ifdef __cplusplus
}
#endif
#endif /* SQZ_OPENCL_H */
