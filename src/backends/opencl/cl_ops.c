/* cl_ops.c — the opencl backend's operations table: device choice, memory, transfers and the workloads. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_devices.h"
#include "backends/opencl/cl_engine.h"
#include "backends/opencl/cl_simplex.h"

static int cl_contains_ci(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++) {
    size_t i = 0;
    while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
    if (i == n) return 1;
  }
  return n == 0;
}

/* Picks a device from the flat device list: "P:D", N (digits only: the Nth device, in `sqz devices`
 * order, as the cuda backend takes an ordinal; never a match of the digits in a name such as
 * "avx512"), a name substring, or (NULL) the first GPU, else the first device. */
static int cl_pick_device(sqz_context *ctx, const sqz_cl_device *devs, size_t n, const char *spec, size_t *pick) {
  if (!spec || !*spec) {
    for (size_t i = 0; i < n; i++)
      if (devs[i].is_gpu) { *pick = i; return SQZ_OK; }
    *pick = 0;
    return SQZ_OK;
  }
  unsigned p, d;
  char tail;
  if (strspn(spec, "0123456789") == strlen(spec)) {
    if (strlen(spec) < 10 && strtoul(spec, NULL, 10) < n) { *pick = strtoul(spec, NULL, 10); return SQZ_OK; }
  } else if (sscanf(spec, "%u:%u%c", &p, &d, &tail) == 2) {
    for (size_t i = 0; i < n; i++)
      if (devs[i].platform_index == p && devs[i].device_index == d) { *pick = i; return SQZ_OK; }
  } else {
    for (size_t i = 0; i < n; i++)
      if (cl_contains_ci(devs[i].name, spec)) { *pick = i; return SQZ_OK; }
  }
  char list[1536] = "";
  for (size_t i = 0; i < n; i++) {
    char line[600];
    snprintf(line, sizeof line, "\n  %u:%u  %s (%s)", devs[i].platform_index, devs[i].device_index, devs[i].name,
             devs[i].platform_name);
    if (strlen(list) + strlen(line) < sizeof list) strcat(list, line);
  }
  return sqz__fail(ctx, SQZ_ERR_DEVICE_NOT_FOUND, "no OpenCL device matches '%s'; devices:%s", spec, list);
}

static int cl_open(sqz_context *ctx, const char *spec) {
  sqz_cl_device *devs = NULL;
  size_t n = 0;
  sqz__cl_global_lock();
  int st = sqz__cl_enumerate(ctx, &devs, &n);
  if (st == SQZ_ERR_OUT_OF_MEMORY) { /* not "no device": no fallback to the cpu backend */
    sqz__cl_global_unlock();
    return st;
  }
  if (st != SQZ_OK || n == 0) {
    sqz__cl_global_unlock();
    free(devs);
    return sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE,
                     "OpenCL backend unavailable: the ICD loader found no platform with a device "
                     "(check /etc/OpenCL/vendors and OCL_ICD_VENDORS)");
  }
  size_t pick = 0;
  st = cl_pick_device(ctx, devs, n, spec, &pick);
  if (st == SQZ_OK && !(ctx->backend = sqz__calloc(1, sizeof(sqz_cl_state))))
    st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  if (st == SQZ_OK) st = sqz__cl_open(ctx, &devs[pick]);
  sqz__cl_global_unlock();
  free(devs);
  return st;
}

static void cl_list(sqz_device_sink sink, void *list) {
  sqz_cl_device *devs = NULL;
  size_t n = 0;
  sqz__cl_global_lock();
  sqz__cl_enumerate(NULL, &devs, &n);
  sqz__cl_global_unlock();
  for (size_t i = 0; i < n; i++) {
    char id[32];
    snprintf(id, sizeof id, "%u:%u", devs[i].platform_index, devs[i].device_index);
    sqz_device_info d = {id, devs[i].platform_name, devs[i].name, devs[i].type, devs[i].c_version, devs[i].driver,
                         devs[i].compute_units, devs[i].global_mem, devs[i].max_alloc, devs[i].max_work_group};
    sink(list, &d);
  }
  free(devs);
}

static int cl_accepts(sqz_context *ctx, const sqz_domain *dom, sqz_type type, sqz_layout_id layout) {
  return SQZ_OK;
}

static int cl_alloc(sqz_context *ctx, uint64_t bytes, sqz_mem *out) {
  cl_mem m = NULL;
  int st = sqz__buffer(ctx, bytes, CL_MEM_READ_WRITE, &m);
  if (st == SQZ_OK) st = sqz__zero_buffer(ctx, m, bytes);
  if (st != SQZ_OK && m) clReleaseMemObject(m);
  *out = st == SQZ_OK ? (sqz_mem)m : NULL;
  return st;
}

static void cl_free(sqz_context *ctx, sqz_mem mem) {
  if (mem) clReleaseMemObject((cl_mem)mem);
}

static int cl_upload(sqz_context *ctx, sqz_mem dst, uint64_t offset, const void *src, uint64_t bytes) {
  if (bytes == 0) return SQZ_OK;
  SQZ_CL_CHECK(ctx, clEnqueueWriteBuffer(SQZ_CL(ctx)->queue, (cl_mem)dst, CL_TRUE, (size_t)offset, (size_t)bytes, src,
                                         0, NULL, NULL));
  return SQZ_OK;
}

static int cl_download(sqz_context *ctx, void *dst, sqz_mem src, uint64_t offset, uint64_t bytes) {
  if (bytes == 0) return SQZ_OK;
  SQZ_CL_CHECK(ctx, clEnqueueReadBuffer(SQZ_CL(ctx)->queue, (cl_mem)src, CL_TRUE, (size_t)offset, (size_t)bytes, dst,
                                        0, NULL, NULL));
  return SQZ_OK;
}

static int cl_copy(sqz_context *ctx, sqz_mem dst, uint64_t dst_off, sqz_mem src, uint64_t src_off, uint64_t bytes) {
  if (bytes == 0) return SQZ_OK;
  SQZ_CL_CHECK(ctx, clEnqueueCopyBuffer(SQZ_CL(ctx)->queue, (cl_mem)src, (cl_mem)dst, (size_t)src_off, (size_t)dst_off,
                                        (size_t)bytes, 0, NULL, NULL));
  return SQZ_OK;
}

static int cl_stencil_part(sqz_field *view, const sqz_update *u) { return sqz__cl_stencil(view, u, 1, NULL); }

#define SQZ_COPY_REPS 6 /* the first copy is a warm-up */

/* Best bandwidth of clEnqueueCopyBuffer over n bytes, timed by events. */
static int cl_copy_rate(sqz_context *ctx, uint64_t n, double *best) {
  cl_mem a = NULL, b = NULL;
  cl_event ev = NULL;
  unsigned char one = 1;
  int st = sqz__buffer(ctx, n, CL_MEM_READ_WRITE, &a);
  if (st == SQZ_OK) st = sqz__buffer(ctx, n, CL_MEM_READ_WRITE, &b);
  if (st != SQZ_OK) goto done;
  SQZ_CL_GOTO(ctx, st, done, clEnqueueFillBuffer(SQZ_CL(ctx)->queue, a, &one, 1, 0, (size_t)n, 0, NULL, NULL));
  for (int rep = 0; rep < SQZ_COPY_REPS; rep++) {
    cl_ulong t0 = 0, t1 = 0;
    double h0 = sqz__now();
    SQZ_CL_GOTO(ctx, st, done, clEnqueueCopyBuffer(SQZ_CL(ctx)->queue, a, b, 0, 0, (size_t)n, 0, NULL, &ev));
    SQZ_CL_GOTO(ctx, st, done, clWaitForEvents(1, &ev));
    if (SQZ_CL(ctx)->profiling) {
      SQZ_CL_GOTO(ctx, st, done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
      SQZ_CL_GOTO(ctx, st, done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    } else { /* the user's queue without profiling: host time */
      t1 = (cl_ulong)((sqz__now() - h0) * 1e9);
    }
    clReleaseEvent(ev);
    ev = NULL;
    double bw = t1 > t0 ? 2.0 * (double)n / (1e-9 * (double)(t1 - t0)) : 0.0;
    if (rep > 0 && bw > *best) *best = bw;
  }
done:
  if (ev) clReleaseEvent(ev);
  if (a) clReleaseMemObject(a);
  if (b) clReleaseMemObject(b);
  return st;
}

static int cl_tile_maps(sqz_context *ctx, const sqz_fractal *fr, uint32_t level, const char *map, uint64_t tile0,
                        uint64_t count, uint64_t *checksum, double *kernel_s) {
  return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "the tile maps alone are benchmarked on the cuda backend");
}

static int cl_zero(sqz_context *ctx, sqz_mem mem, uint64_t bytes) { return sqz__zero_buffer(ctx, (cl_mem)mem, bytes); }

SQZ_BACKEND_TABLE(sqz__opencl_ops, "opencl", 0, 0, cl_open, sqz__cl_close, cl_list, cl_accepts, cl_alloc, cl_free,
                  cl_upload, cl_download, cl_zero, sqz__cl_finish, sqz__cl_gather, sqz__cl_scatter, sqz__cl_stencil, sqz__cl_fill,
                  sqz__cl_reduce, sqz__cl_edm, cl_copy_rate, sqz__simplex_touch,
                  cl_tile_maps, cl_copy, sqz__cl_copy_units, cl_stencil_part, sqz__cl_observe, sqz__cl_prepare, &sqz__cl_paths);
