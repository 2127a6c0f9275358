/* device_list.c — the public list of devices across the opencl, cpu and cuda backends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"

typedef struct {
  char s[7][256];
  uint64_t u[4];
} sqz_device_row;

struct sqz_device_list {
  sqz_device_row *rows;
  size_t n;
};

static sqz_device_row *sqz__row(sqz_device_list *l) {
  sqz_device_row *r = sqz__realloc(l->rows, (l->n + 1) * sizeof *r);
  if (!r) return NULL;
  l->rows = r;
  memset(&r[l->n], 0, sizeof r[l->n]);
  return &r[l->n++];
}

/* What a backend's `list` entry adds to: the list and the backend's name. */
typedef struct {
  sqz_device_list *l;
  const char *backend;
} sqz__device_sink_data;

static void sqz__add_device(void *data, const sqz_device_info *d) {
  const sqz__device_sink_data *sd = data;
  sqz_device_row *r = sqz__row(sd->l);
  if (!r) return;
  snprintf(r->s[SQZ_DEVICE_BACKEND], 256, "%s", sd->backend);
  snprintf(r->s[SQZ_DEVICE_ID], 256, "%s", d->id);
  snprintf(r->s[SQZ_DEVICE_PLATFORM], 256, "%s", d->platform);
  snprintf(r->s[SQZ_DEVICE_NAME], 256, "%s", d->name);
  snprintf(r->s[SQZ_DEVICE_TYPE], 256, "%s", d->type);
  snprintf(r->s[SQZ_DEVICE_C_VERSION], 256, "%s", d->c_version);
  snprintf(r->s[SQZ_DEVICE_DRIVER], 256, "%s", d->driver);
  r->u[SQZ_DEVICE_COMPUTE_UNITS] = d->compute_units;
  r->u[SQZ_DEVICE_GLOBAL_MEM] = d->global_mem;
  r->u[SQZ_DEVICE_MAX_ALLOC] = d->max_alloc;
  r->u[SQZ_DEVICE_MAX_WORK_GROUP] = d->max_work_group;
}

int sqz_device_list_create(sqz_device_list **out) {
  if (!out) return SQZ_ERR_INVALID_ARGUMENT;
  *out = NULL;
  sqz_device_list *l = sqz__calloc(1, sizeof *l);
  if (!l) return sqz__fail(NULL, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  for (const sqz_backend_ops *const *b = sqz__backends; *b; b++) {
    sqz__device_sink_data sd = {l, (*b)->name};
    (*b)->list(sqz__add_device, &sd);
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
