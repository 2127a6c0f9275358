/* cl_devices.c — OpenCL platform/device enumeration, context/queue set-up (ours or the user's), under one process-wide lock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_devices.h"

/* ICDs are not all safe when several threads enumerate platforms or create and release contexts
 * at once (PoCL crashed so): those calls of every sqz context are serialised here. */
static pthread_mutex_t sqz__cl_global = PTHREAD_MUTEX_INITIALIZER;

void sqz__cl_global_lock(void) { pthread_mutex_lock(&sqz__cl_global); }
void sqz__cl_global_unlock(void) { pthread_mutex_unlock(&sqz__cl_global); }

static void sqz__dev_str(cl_device_id d, cl_device_info what, char *buf, size_t len) {
  buf[0] = 0;
  if (clGetDeviceInfo(d, what, len - 1, buf, NULL) != CL_SUCCESS) buf[0] = 0;
  buf[len - 1] = 0;
  /* trim trailing spaces some drivers leave */
  size_t l = strlen(buf);
  while (l > 0 && buf[l - 1] == ' ') buf[--l] = 0;
}

static void sqz__fill_device(sqz_cl_device *o, cl_platform_id p, cl_device_id d, unsigned pi, unsigned di) {
  memset(o, 0, sizeof *o);
  o->platform = p;
  o->device = d;
  o->platform_index = pi;
  o->device_index = di;
  cl_device_type type = 0;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  o->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  snprintf(o->type, sizeof o->type, "%s",
           (type & CL_DEVICE_TYPE_GPU) ? "GPU" : (type & CL_DEVICE_TYPE_CPU) ? "CPU"
           : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "ACCELERATOR" : "OTHER");
  sqz__dev_str(d, CL_DEVICE_NAME, o->name, sizeof o->name);
  sqz__dev_str(d, CL_DRIVER_VERSION, o->driver, sizeof o->driver);
  sqz__dev_str(d, CL_DEVICE_OPENCL_C_VERSION, o->c_version, sizeof o->c_version);
  o->platform_name[0] = 0;
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof o->platform_name - 1, o->platform_name, NULL);
  cl_ulong gm = 0, ma = 0;
  size_t wg = 0;
  cl_uint cu = 0;
  clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ma, &ma, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
  o->global_mem = gm;
  o->max_alloc = ma;
  o->max_work_group = wg;
  o->compute_units = cu;
}

int sqz__cl_enumerate(sqz_context *ctx, sqz_cl_device **out, size_t *n) {
  *out = NULL;
  *n = 0;
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &np);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || np == 0) return SQZ_OK;
  SQZ_CL_CHECK(ctx, err);
  cl_platform_id *plats = sqz__calloc(np, sizeof *plats);
  if (!plats) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "cannot list %u platforms", np);
  int st = SQZ_OK;
  SQZ_CL_GOTO(ctx, st, done, clGetPlatformIDs(np, plats, NULL));
  size_t cap = 0;
  for (cl_uint p = 0; p < np; p++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0) continue;
    cl_device_id *ds = sqz__calloc(nd, sizeof *ds);
    if (!ds) { st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "cannot list devices"); goto done; }
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ds, NULL) == CL_SUCCESS) {
      for (cl_uint d = 0; d < nd; d++) {
        if (*n == cap) {
          cap = cap ? 2 * cap : 8;
          sqz_cl_device *grown = sqz__realloc(*out, cap * sizeof **out);
          if (!grown) { free(ds); st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "cannot list devices"); goto done; }
          *out = grown;
        }
        sqz__fill_device(&(*out)[(*n)++], plats[p], ds[d], p, d);
      }
    }
    free(ds);
  }
done:
  free(plats);
  if (st != SQZ_OK) { free(*out); *out = NULL; *n = 0; }
  return st;
}

/* ctx's device fields from dev. */
static void sqz__cl_device_fields(sqz_context *ctx, const sqz_cl_device *dev) {
  SQZ_CL(ctx)->platform = dev->platform;
  SQZ_CL(ctx)->device = dev->device;
  snprintf(ctx->device_name, sizeof ctx->device_name, "%s", dev->name);
  snprintf(ctx->platform_name, sizeof ctx->platform_name, "%s", dev->platform_name);
  snprintf(ctx->driver_version, sizeof ctx->driver_version, "%s", dev->driver);
  snprintf(ctx->c_version, sizeof ctx->c_version, "%s", dev->c_version);
  ctx->global_mem = dev->global_mem;
  ctx->max_alloc = dev->max_alloc;
  ctx->max_work_group = (size_t)dev->max_work_group;
  ctx->compute_units = dev->compute_units;
  ctx->is_gpu = dev->is_gpu;
  cl_ulong lmem = 0;
  if (clGetDeviceInfo(dev->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL) == CL_SUCCESS)
    ctx->local_mem = lmem;
}

int sqz__cl_open(sqz_context *ctx, const sqz_cl_device *dev) {
  sqz__cl_device_fields(ctx, dev);
  SQZ_CL(ctx)->profiling = 1;
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
  SQZ_CL(ctx)->cl = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    return sqz__fail(ctx, err, "clCreateContext failed on %s: %s", dev->name, sqz_status_name(err));
  SQZ_CL(ctx)->queue = clCreateCommandQueue(SQZ_CL(ctx)->cl, dev->device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS)
    return sqz__fail(ctx, err, "clCreateCommandQueue failed on %s: %s", dev->name, sqz_status_name(err));
  return SQZ_OK;
}

int sqz__cl_adopt(sqz_context *ctx, cl_context context, cl_device_id device, cl_command_queue queue) {
  cl_context qctx = NULL;
  cl_device_id qdev = NULL, parent = NULL;
  cl_platform_id platform = NULL;
  cl_command_queue_properties props = 0;
  SQZ_CL_CHECK(ctx, clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL));
  SQZ_CL_CHECK(ctx, clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL));
  SQZ_CL_CHECK(ctx, clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
  SQZ_CL_CHECK(ctx, clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL));
  SQZ_CL_CHECK(ctx, clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
  if (qctx != context || qdev != device)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "the command queue belongs to another %s than the one given",
                     qctx != context ? "cl_context" : "device");
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED,
                     "the command queue is out of order: sqz's steps read the state the previous step wrote, so they "
                     "need an in-order queue");
  sqz_cl_device dev;
  sqz__fill_device(&dev, platform, device, 0, 0);
  sqz__cl_device_fields(ctx, &dev);
  sqz_cl_state *cl = SQZ_CL(ctx);
  cl->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
  cl->user = 1;
  SQZ_CL_CHECK(ctx, clRetainContext(context));
  cl->cl = context;
  SQZ_CL_CHECK(ctx, clRetainCommandQueue(queue));
  cl->queue = queue;
  if (parent) { /* a sub-device has a reference count; a root device does not */
    SQZ_CL_CHECK(ctx, clRetainDevice(device));
    cl->own_device = 1;
  }
  return SQZ_OK;
}

void sqz__cl_close(sqz_context *ctx) {
  if (!SQZ_CL(ctx)) return;
  if (SQZ_CL(ctx)->queue && SQZ_CL(ctx)->user) clFlush(SQZ_CL(ctx)->queue); /* the user's work stays theirs */
  else if (SQZ_CL(ctx)->queue) sqz__cl_finish(ctx);
  free(SQZ_CL(ctx)->pending);
  SQZ_CL(ctx)->pending = NULL;
  SQZ_CL(ctx)->n_pending = SQZ_CL(ctx)->cap_pending = 0;
  sqz_program_entry *e = SQZ_CL(ctx)->programs;
  while (e) {
    sqz_program_entry *next = e->next;
    clReleaseProgram(e->program);
    free(e);
    e = next;
  }
  SQZ_CL(ctx)->programs = NULL;
  sqz__cl_global_lock();
  if (SQZ_CL(ctx)->queue) clReleaseCommandQueue(SQZ_CL(ctx)->queue);
  if (SQZ_CL(ctx)->cl) clReleaseContext(SQZ_CL(ctx)->cl);
  if (SQZ_CL(ctx)->own_device) clReleaseDevice(SQZ_CL(ctx)->device);
  sqz__cl_global_unlock();
  free(ctx->backend);
  ctx->backend = NULL;
}
