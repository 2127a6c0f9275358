/* cli_parts.c — --parts P and --devices LIST of sqz life, run and heat: a field in parts on one device or on several, one context each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_table.h"

const sqz_cli_optdef sqz_cli_opt_parts = {
    "--parts", "P",
    "store the field in P parts (buffers with halos; the results of one buffer bit for bit);\n"
    "a field above the device's allocation limit is split by itself",
    sqz_cli_p_u64, offsetof(sqz_cli_set, parts.parts), 1, UINT64_MAX};
const sqz_cli_optdef sqz_cli_opt_devices =
    SQZ_CLI_TEXT("--devices", "LIST", parts.devices,
                 "the parts on several devices: comma-separated --device values (0:0,0:1; SQZ_DEVICE=0,1\n"
                 "too), one context each, halos through the host");

/* The device list of the run: --devices, or a --device or the option device (SQZ_DEVICE) that holds a comma. */
static const char *sqz__device_list(const sqz_cli_parts *o, const char *device) {
  const char *env = sqz_cli_option("device");
  if (o->devices) return o->devices;
  if (device && strchr(device, ',')) return device;
  if (!device && env && strchr(env, ',')) return env;
  return NULL;
}


int sqz_cli_parts_open(const char *cmd, sqz_cli_parts *o, const char *backend, const char *device,
                       sqz_context **ctx) {
  const char *list = sqz__device_list(o, device);
  if (list && o->devices && device) return sqz_cli_usage(cmd, "--device %s and --devices %s: give one of them", device, list);
  if (!list) return sqz_cli_open(cmd, backend, device, ctx);
  size_t len = strlen(list);
  o->text = sqz_cli_malloc(len + 1);
  if (!o->text) return sqz_cli_error(cmd, SQZ_ERR_OUT_OF_MEMORY, "the device list %s", list);
  memcpy(o->text, list, len + 1);
  for (char *p = o->text, *save = NULL, *d; (d = strtok_r(p, ",", &save)) != NULL; p = NULL) {
    if (o->n_ctx == SQZ_CLI_MAX_DEVICES)
      return sqz_cli_usage(cmd, "--devices %s: at most %d devices", list, SQZ_CLI_MAX_DEVICES);
    char id[64];
    const char *dev;
    int rc = sqz_cli_device_entry(cmd, backend, d, id, sizeof id, &dev);
    if (rc == 0) rc = sqz_cli_open(cmd, backend, dev, &o->ctxs[o->n_ctx]);
    if (rc) return rc;
    o->n_ctx++;
  }
  if (o->n_ctx == 0) return sqz_cli_usage(cmd, "--devices '%s' names no device", list);
  sqz_context_retain(o->ctxs[0]); /* the run's context (the domain's): the first device */
  *ctx = o->ctxs[0];
  return 0;
}

int sqz_cli_parts_field(const sqz_cli_parts *o, sqz_domain *dom, sqz_type type, const char *layout, sqz_field **f) {
  if (o->n_ctx) return sqz_field_create_devices(dom, o->ctxs, o->n_ctx, type, layout, o->parts, f);
  if (o->parts) return sqz_field_create_parts(dom, type, layout, o->parts, f);
  return sqz_field_create(dom, type, layout, f);
}

void sqz_cli_parts_json(sqz_json *j, const sqz_field *f, const sqz_cli_parts *o) {
  sqz_json_u64(j, "parts", sqz_field_parts(f));
  sqz_json_u64(j, "halo_bytes_per_step", sqz_field_halo_bytes(f));
  sqz_json_u64(j, "devices", o->n_ctx ? o->n_ctx : 1);
  sqz_parts_times t;
  if (sqz_field_parts(f) > 1 && sqz_field_parts_times(f, &t) == SQZ_OK) { /* where the steps' time went */
    sqz_json_num(j, "exchange_s", t.exchange_s);
    sqz_json_num(j, "halo_wait_s", t.wait_s);
    sqz_json_num(j, "inner_s", t.inner_s);
    sqz_json_num(j, "border_s", t.border_s);
    sqz_json_u64(j, "exchanges", t.exchanges);
  }
}

void sqz_cli_parts_print(const sqz_field *f, const sqz_cli_parts *o, int ranks) {
  sqz_parts_times t;
  if (ranks)
    printf("ranks    %d MPI ranks, %llu parts, %llu halo bytes per step (memory, times: rank 0's parts)\n", ranks,
           (unsigned long long)sqz_field_parts(f), (unsigned long long)sqz_field_halo_bytes(f));
  else if (sqz_field_parts(f) > 1 || o->n_ctx > 1)
    printf("parts    %llu on %zu device%s, %llu halo bytes per step\n", (unsigned long long)sqz_field_parts(f),
           o->n_ctx ? o->n_ctx : 1, o->n_ctx > 1 ? "s" : "", (unsigned long long)sqz_field_halo_bytes(f));
  if (sqz_field_parts(f) > 1 && sqz_field_parts_times(f, &t) == SQZ_OK)
    printf("halo     %.6f s exchanging (%.6f s waiting), steps %.6f s inner + %.6f s border\n", t.exchange_s, t.wait_s,
           t.inner_s, t.border_s);
}

void sqz_cli_parts_close(sqz_cli_parts *o) {
  for (size_t i = 0; i < o->n_ctx; i++) sqz_context_release(o->ctxs[i]);
  free(o->text);
  memset(o, 0, sizeof *o);
}
