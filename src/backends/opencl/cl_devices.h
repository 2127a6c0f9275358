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
/* Releases programs, queue and context (safe on a non-OpenCL context). */
SQZ_INTERNAL void sqz__cl_close(sqz_context *ctx);

#endif
