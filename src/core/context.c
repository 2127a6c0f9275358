/* context.c — context creation: backend choice, device selection and context queries. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sqz_internal.h"
#include "backends/opencl/cl_devices.h"

static int sqz__ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

static int sqz__contains_ci(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++) {
    size_t i = 0;
    while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
    if (i == n) return 1;
  }
  return n == 0;
}

static uint64_t sqz__host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return (pages > 0 && size > 0) ? (uint64_t)pages * (uint64_t)size : 0;
}

static int sqz__open_cpu(sqz_context *ctx) {
  ctx->backend = SQZ_BACKEND_CPU;
  snprintf(ctx->device_name, sizeof ctx->device_name, "sqz CPU reference");
  snprintf(ctx->platform_name, sizeof ctx->platform_name, "sqz");
  snprintf(ctx->driver_version, sizeof ctx->driver_version, "%s", SQZ_VERSION_STRING);
  snprintf(ctx->c_version, sizeof ctx->c_version, "C11");
  ctx->global_mem = ctx->max_alloc = sqz__host_memory();
  ctx->max_work_group = 1;
  ctx->compute_units = 1;
  return SQZ_OK;
}

/* Picks a device from the flat OpenCL device list according to spec (NULL = default). */
static int sqz__pick_device(sqz_context *ctx, const sqz_cl_device *devs, size_t n, const char *spec,
                            size_t *pick) {
  if (!spec || !*spec) {
    for (size_t i = 0; i < n; i++)
      if (devs[i].is_gpu) { *pick = i; return SQZ_OK; }
    *pick = 0;
    return SQZ_OK;
  }
  unsigned p, d;
  char tail;
  if (sscanf(spec, "%u:%u%c", &p, &d, &tail) == 2) {
    for (size_t i = 0; i < n; i++)
      if (devs[i].platform_index == p && devs[i].device_index == d) { *pick = i; return SQZ_OK; }
  } else {
    for (size_t i = 0; i < n; i++)
      if (sqz__contains_ci(devs[i].name, spec)) { *pick = i; return SQZ_OK; }
  }
  char list[1536] = "";
  for (size_t i = 0; i < n; i++) {
    char line[600];
    snprintf(line, sizeof line, "\n  %u:%u  %s (%s)", devs[i].platform_index, devs[i].device_index,
             devs[i].name, devs[i].platform_name);
    if (strlen(list) + strlen(line) < sizeof list) strcat(list, line);
  }
  return sqz__fail(ctx, SQZ_ERR_DEVICE_NOT_FOUND, "no OpenCL device matches '%s'; devices:%s", spec, list);
}

static int sqz__open_opencl(sqz_context *ctx, const char *spec, int explicit_backend) {
  sqz_cl_device *devs = NULL;
  size_t n = 0;
  int st = sqz__cl_enumerate(ctx, &devs, &n);
  if (st != SQZ_OK || n == 0) {
    free(devs);
    if (!explicit_backend) {
      const char *req = getenv("SQZ_REQUIRE_OPENCL");
      if (!(req && *req && strcmp(req, "0") != 0)) return sqz__open_cpu(ctx);
    }
    return sqz__fail(ctx, SQZ_ERR_BACKEND_UNAVAILABLE,
                     "OpenCL backend unavailable: the ICD loader found no platform with a device "
                     "(check /etc/OpenCL/vendors and OCL_ICD_VENDORS)");
  }
  size_t pick = 0;
  st = sqz__pick_device(ctx, devs, n, spec, &pick);
  if (st == SQZ_OK) st = sqz__cl_open(ctx, &devs[pick]);
  free(devs);
  return st;
}

int sqz_context_create(const char *backend, const char *device, sqz_context **out) {
  if (!out) return sqz__fail(NULL, SQZ_ERR_INVALID_ARGUMENT, "sqz_context_create: out is NULL");
  *out = NULL;
  sqz__clear_error(NULL);
  int explicit_backend = backend && *backend;
  if (!explicit_backend) {
    backend = getenv("SQZ_BACKEND");
    explicit_backend = backend && *backend;
  }
  if (!device || !*device) device = getenv("SQZ_DEVICE");
  if (!explicit_backend) backend = "opencl";

  sqz_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return sqz__fail(NULL, SQZ_ERR_OUT_OF_MEMORY, "cannot allocate a context");
  int st;
  if (sqz__ieq(backend, "opencl")) st = sqz__open_opencl(ctx, device, explicit_backend);
  else if (sqz__ieq(backend, "cpu")) st = sqz__open_cpu(ctx);
  else if (sqz__ieq(backend, "cuda")) st = sqz__cuda_open(ctx, device);
  else
    st = sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "unknown backend '%s' (expected opencl, cpu or cuda)",
                   backend);
  if (st != SQZ_OK) {
    sqz__fail(NULL, st, "%s", sqz_last_error(ctx));
    sqz_context_release(ctx);
    return st;
  }
  *out = ctx;
  return SQZ_OK;
}

void sqz_context_release(sqz_context *ctx) {
  if (!ctx) return;
  sqz__cl_close(ctx);
  sqz__cuda_close(ctx);
  free(ctx->detail);
  free(ctx);
}

const char *sqz_context_backend(const sqz_context *ctx) {
  if (!ctx) return "";
  switch (ctx->backend) {
  case SQZ_BACKEND_CPU: return "cpu";
  case SQZ_BACKEND_OPENCL: return "opencl";
  case SQZ_BACKEND_CUDA: return "cuda";
  }
  return "";
}
const char *sqz_context_device_name(const sqz_context *ctx) { return ctx ? ctx->device_name : ""; }
uint64_t sqz_context_global_mem(const sqz_context *ctx) { return ctx ? ctx->global_mem : 0; }
uint64_t sqz_context_max_alloc(const sqz_context *ctx) { return ctx ? ctx->max_alloc : 0; }
