/* cl_internal.h — the opencl backend's state, program cache, launches and checked buffers (private to src/backends/opencl). */
#ifndef SQZ_CL_INTERNAL_H
#define SQZ_CL_INTERNAL_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "backends/backend.h"
#include "core/embedded.h"

typedef struct sqz_program_entry {
  uint64_t key;
  cl_program program;
  struct sqz_program_entry *next;
} sqz_program_entry;

/* ctx->backend of an opencl context. */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context cl;
  cl_command_queue queue;
  sqz_program_entry *programs; /* in-memory program cache */
  cl_event *pending;           /* kernels enqueued since the last finish */
  size_t n_pending, cap_pending;
} sqz_cl_state;

#define SQZ_CL(ctx) ((sqz_cl_state *)(ctx)->backend)

/* Looks up an embedded file of cl/ by name ("life_fractal.cl"); NULL if absent. */
SQZ_INTERNAL const sqz_embedded_file *sqz__cl_file(const char *name);

/* Builds (or fetches from the memory and disk caches) a program made of `prelude` followed by
 * the embedded files named in `files` (NULL-terminated), with `options` (+ $SQZ_BUILD_OPTIONS).
 * On a build failure returns SQZ_ERR_BUILD_FAILED with device, options and log in the detail. */
SQZ_INTERNAL int sqz__program(sqz_context *ctx, const char *prelude, const char *const *files,
                              const char *options, cl_program *out);
/* Same, from one complete source text (used for user rule bodies and tests). */
SQZ_INTERNAL int sqz__program_source(sqz_context *ctx, const char *source, const char *options,
                                     cl_program *out);
SQZ_INTERNAL int sqz__kernel(sqz_context *ctx, cl_program program, const char *name, cl_kernel *out);
/* Enqueues an NDRange (global must be a multiple of local; local may be NULL) without
 * waiting; its event time is added to ctx->kernel_s by sqz__cl_finish. */
SQZ_INTERNAL int sqz__run(sqz_context *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                          const size_t *local);
/* Waits for every enqueued command and adds the pending kernels' event times to kernel_s. */
SQZ_INTERNAL int sqz__cl_finish(sqz_context *ctx);
/* Sets kernel arguments in order from a list of (size, pointer) pairs ended by 0. */
SQZ_INTERNAL int sqz__args(sqz_context *ctx, cl_kernel k, ...);
/* Allocates a device buffer, checking the device's max single allocation first
 * (SQZ_ERR_TOO_LARGE with both byte counts). */
SQZ_INTERNAL int sqz__buffer(sqz_context *ctx, uint64_t bytes, cl_mem_flags flags, cl_mem *out);
/* Enqueues zeroing of bytes [0, bytes) of buf (fills and copies that every driver accepts). */
SQZ_INTERNAL int sqz__zero_buffer(sqz_context *ctx, cl_mem buf, uint64_t bytes);
/* Checks an OpenCL status and records which call failed. */
#define SQZ_CL_CHECK(ctx, call)                                                                 \
  do {                                                                                          \
    cl_int sqz_cl_err_ = (call);                                                                \
    if (sqz_cl_err_ != CL_SUCCESS)                                                              \
      return sqz__fail((ctx), sqz_cl_err_, "%s failed: %s (%s:%d)", #call,                      \
                       sqz_status_name(sqz_cl_err_), __FILE__, __LINE__);                       \
  } while (0)
/* Variant that jumps to a cleanup label with status set. */
#define SQZ_CL_GOTO(ctx, st, label, call)                                                       \
  do {                                                                                          \
    cl_int sqz_cl_err_ = (call);                                                                \
    if (sqz_cl_err_ != CL_SUCCESS) {                                                            \
      (st) = sqz__fail((ctx), sqz_cl_err_, "%s failed: %s (%s:%d)", #call,                      \
                       sqz_status_name(sqz_cl_err_), __FILE__, __LINE__);                       \
      goto label;                                                                               \
    }                                                                                           \
  } while (0)

#endif
