/* cl_devices.h — enumerating OpenCL devices and opening/closing an OpenCL context. */
#ifndef SQZ_CL_DEVICES_H
#define SQZ_CL_DEVICES_H
#include "backends/opencl/cl_internal.h"

typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  unsigned platform_index, device_index;
  int is_gpu;
  char type[16];
  char name[256], platform_name[256], driver[128], c_version[128];
  uint64_t global_mem, max_alloc, max_work_group;
  unsigned compute_units;
} sqz_cl_device;

/* Every device of every platform, flattened; *n = 0 (and SQZ_OK) when there are none. */
SQZ_INTERNAL int sqz__cl_enumerate(sqz_context *ctx, sqz_cl_device **out, size_t *n);
/* Creates the OpenCL context and a profiling queue for dev and fills ctx's device fields. */
SQZ_INTERNAL int sqz__cl_open(sqz_context *ctx, const sqz_cl_device *dev);
/* Takes the user's context, device and queue (sqz_context_create_opencl): checks that the queue is
 * an in-order queue of that context and device, retains context and queue (and the device when it
 * is a sub-device), and fills ctx's device fields. */
SQZ_INTERNAL int sqz__cl_adopt(sqz_context *ctx, cl_context context, cl_device_id device, cl_command_queue queue);
/* The process-wide lock around enumeration, context creation and release (cl_open, cl_list,
 * sqz__cl_adopt, sqz__cl_close). */
SQZ_INTERNAL void sqz__cl_global_lock(void);
SQZ_INTERNAL void sqz__cl_global_unlock(void);
/* Releases programs, queue and context, only sqz's own references (safe on a non-OpenCL context). */
SQZ_INTERNAL void sqz__cl_close(sqz_context *ctx);

#endif
