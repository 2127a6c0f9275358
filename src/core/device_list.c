/* device_list.c — the public list of devices across the opencl, cpu and cuda backends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_devices.h"

typedef struct {
  char s[7][256];
  uint64_t u[4];
} sqz_device_row;

struct sqz_device_list {
  sqz_device_row *rows;
  size_t n;
};

static sqz_device_row *sqz__row(sqz_device_list *l) {
  sqz_device_row *r = realloc(l->rows, (l->n + 1) * sizeof *r);
  if (!r) return NULL;
  l->rows = r;
  memset(&r[l->n], 0, sizeof r[l->n]);
  return &r[l->n++];
}

int sqz_device_list_create(sqz_device_list **out) {
  if (!out) return SQZ_ERR_INVALID_ARGUMENT;
  *out = NULL;
  sqz_device_list *l = calloc(1, sizeof *l);
  if (!l) return sqz__fail(NULL, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  sqz_cl_device *devs = NULL;
  size_t n = 0;
  sqz__cl_enumerate(NULL, &devs, &n);
  for (size_t i = 0; i < n; i++) {
    sqz_device_row *r = sqz__row(l);
    if (!r) break;
    snprintf(r->s[SQZ_DEVICE_BACKEND], 256, "opencl");
    snprintf(r->s[SQZ_DEVICE_ID], 256, "%u:%u", devs[i].platform_index, devs[i].device_index);
    snprintf(r->s[SQZ_DEVICE_PLATFORM], 256, "%s", devs[i].platform_name);
    snprintf(r->s[SQZ_DEVICE_NAME], 256, "%s", devs[i].name);
    snprintf(r->s[SQZ_DEVICE_TYPE], 256, "%s", devs[i].type);
    snprintf(r->s[SQZ_DEVICE_C_VERSION], 256, "%s", devs[i].c_version);
    snprintf(r->s[SQZ_DEVICE_DRIVER], 256, "%s", devs[i].driver);
    r->u[SQZ_DEVICE_COMPUTE_UNITS] = devs[i].compute_units;
    r->u[SQZ_DEVICE_GLOBAL_MEM] = devs[i].global_mem;
    r->u[SQZ_DEVICE_MAX_ALLOC] = devs[i].max_alloc;
    r->u[SQZ_DEVICE_MAX_WORK_GROUP] = devs[i].max_work_group;
  }
  free(devs);
  const char *backends[] = {"cpu", "cuda"};
  for (int b = 0; b < 2; b++) {
    sqz_context *ctx = NULL;
    if (sqz_context_create(backends[b], NULL, &ctx) != SQZ_OK) continue;
    sqz_device_row *r = sqz__row(l);
    if (r) {
      snprintf(r->s[SQZ_DEVICE_BACKEND], 256, "%s", backends[b]);
      snprintf(r->s[SQZ_DEVICE_ID], 256, "0");
      snprintf(r->s[SQZ_DEVICE_PLATFORM], 256, "%s", ctx->platform_name);
      snprintf(r->s[SQZ_DEVICE_NAME], 256, "%s", ctx->device_name);
      snprintf(r->s[SQZ_DEVICE_TYPE], 256, "%s", ctx->is_gpu ? "GPU" : "CPU");
      snprintf(r->s[SQZ_DEVICE_C_VERSION], 256, "%s", ctx->c_version);
      snprintf(r->s[SQZ_DEVICE_DRIVER], 256, "%s", ctx->driver_version);
      r->u[SQZ_DEVICE_COMPUTE_UNITS] = ctx->compute_units;
      r->u[SQZ_DEVICE_GLOBAL_MEM] = ctx->global_mem;
      r->u[SQZ_DEVICE_MAX_ALLOC] = ctx->max_alloc;
      r->u[SQZ_DEVICE_MAX_WORK_GROUP] = ctx->max_work_group;
    }
    sqz_context_release(ctx);
  }
  sqz__clear_error(NULL);
  *out = l;
  return SQZ_OK;
}

void sqz_device_list_release(sqz_device_list *l) {
  if (!l) return;
  free(l->rows);
  free(l);
}
size_t sqz_device_list_count(const sqz_device_list *l) { return l ? l->n : 0; }
const char *sqz_device_list_str(const sqz_device_list *l, size_t i, sqz_device_str key) {
  if (!l || i >= l->n || (unsigned)key > SQZ_DEVICE_DRIVER) return "";
  return l->rows[i].s[key];
}
uint64_t sqz_device_list_u64(const sqz_device_list *l, size_t i, sqz_device_u64 key) {
  if (!l || i >= l->n || (unsigned)key > SQZ_DEVICE_MAX_WORK_GROUP) return 0;
  return l->rows[i].u[key];
}
