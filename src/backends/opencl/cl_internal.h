/* cl_internal.h — the opencl backend's state, program cache, launches and checked buffers (private to src/backends/opencl). */
#ifndef SQZ_CL_INTERNAL_H
#define SQZ_CL_INTERNAL_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "core/backend.h"
#include "core/embedded.h"

typedef struct sqz_program_entry {
  uint64_t key;  /* the hash of the whole source and what it is built for (program.c) */
  uint64_t qkey; /* the hash of the prelude, file names and options it was assembled from (0: none yet) */
  cl_program program;
  struct sqz_program_entry *next;
} sqz_program_entry;

#define SQZ_CL_KEEP 4 /* buffers an enqueued stencil keeps alive until its work completes */

/* ctx->backend of an opencl context. Everything here is used under the context's lock
 * (sqz__lock): the queue's pending events, the program cache, the enqueue in progress. */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context cl;
  cl_command_queue queue;
  int user;       /* context and queue are the user's (sqz_context_create_opencl), retained once */
  int own_device; /* the device was retained (the user's sub-device) */
  int profiling;  /* the queue has CL_QUEUE_PROFILING_ENABLE; else kernel time is host time */
  sqz_program_entry *programs; /* in-memory program cache */
  cl_event *pending;           /* kernels enqueued since the last finish (profiling queues) */
  size_t n_pending, cap_pending;
  double host_t0; /* no profiling: when the first launch since the last finish was enqueued (0: none) */
  /* the non-blocking stencil in progress (sqz__cl_stencil with an sqz_enqueue), else enq NULL */
  const sqz_enqueue *enq;
  int gated;                  /* its wait list is enqueued */
  cl_mem keep[SQZ_CL_KEEP];   /* buffers its launches read, released when they complete */
  int n_keep;
  int dry;         /* a prepare in progress (sqz__cl_prepare): sqz__run launches nothing */
  uint64_t builds; /* programs built in this context (from source or a cached binary): memory-cache misses */
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
/* Kernel `name` of a program of `prelude` + `files` that holds that kernel only: the prelude gets
 * `#define SQZ_KERNEL_<name> 1` and files with several kernels guard each with #ifdef SQZ_KERNEL_<name>.
 * Drivers compile every kernel of a program (PoCL once more for the binary the disk cache stores). */
SQZ_INTERNAL int sqz__program_kernel(sqz_context *ctx, const char *prelude, const char *const *files,
                                     const char *options, const char *name, cl_kernel *out);
/* Enqueues an NDRange (global must be a multiple of local; local may be NULL) without
 * waiting; its event time is added to ctx->kernel_s by sqz__cl_finish. During a prepare (dry) it
 * enqueues nothing and returns SQZ_OK. */
SQZ_INTERNAL int sqz__run(sqz_context *ctx, cl_kernel k, cl_uint dims, const size_t *global,
                          const size_t *local);
/* Waits for every enqueued command and adds the pending kernels' event times to kernel_s
 * (host time from the first launch to the end of the wait on a queue without profiling). */
SQZ_INTERNAL int sqz__cl_finish(sqz_context *ctx);
/* In a non-blocking stencil, enqueues its wait list as a barrier before the first launch (once);
 * SQZ_OK otherwise. sqz__run calls it. */
SQZ_INTERNAL int sqz__cl_gate(sqz_context *ctx);
/* Gives back the buffers a + b (either may be NULL) that the launches just enqueued read: a
 * blocking call waits for them (sqz__cl_finish, whose status it returns) and releases them; a
 * non-blocking call keeps them until its work completes (released by an event callback). */
SQZ_INTERNAL int sqz__cl_done_with(sqz_context *ctx, cl_mem a, cl_mem b);
/* Sets kernel arguments in order from a list of (size, pointer) pairs ended by 0. */
SQZ_INTERNAL int sqz__args(sqz_context *ctx, cl_kernel k, ...);
/* Allocates a device buffer, checking the device's max single allocation first
 * (SQZ_ERR_TOO_LARGE with both byte counts). */
SQZ_INTERNAL int sqz__buffer(sqz_context *ctx, uint64_t bytes, cl_mem_flags flags, cl_mem *out);
/* A read-only buffer holding a copy of `bytes` of host memory, made at creation (no queue
 * command: safe while the queue waits on events, and the host copy may go at once). */
SQZ_INTERNAL int sqz__const_buffer(sqz_context *ctx, uint64_t bytes, const void *host, cl_mem *out);
/* A fractal's pattern for kernels that take it as arguments (cl/fractal_fill.cl, the bits
 * kernels): H_λ (2k entries) then H_ν (s^2), as a read-only buffer of ints. */
SQZ_INTERNAL int sqz__cl_fractal_pattern(sqz_context *ctx, const sqz_fractal *fr, cl_mem *out);
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
