/* cmd_devices.c — `sqz devices`: every device of every backend, one line each. */
#include <string.h>

#include "cli_table.h"
#include "cmds.h"

static const sqz_cli_optdef *const sqz_devices_opts[] = {&sqz_cli_opt_json, NULL};
static const sqz_cli_cmd sqz_devices_cmd = {
    "devices", "[--json]",
    "Lists every device: backend, id (use with --device or SQZ_DEVICE), platform, type, compute units,\n"
    "global memory, largest single allocation, OpenCL C version, name.\n",
    sqz_devices_opts, 0, {NULL, 0, NULL}, {NULL, 0, 0, NULL, 0}};

/* Device i of l as one JSON object. */
static void sqz__device_json(const sqz_device_list *l, size_t i) {
  sqz_json j;
  sqz_json_begin(&j, stdout);
  sqz_json_str(&j, "backend", sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND));
  sqz_json_str(&j, "id", sqz_device_list_str(l, i, SQZ_DEVICE_ID));
  sqz_json_str(&j, "platform", sqz_device_list_str(l, i, SQZ_DEVICE_PLATFORM));
  sqz_json_str(&j, "name", sqz_device_list_str(l, i, SQZ_DEVICE_NAME));
  sqz_json_str(&j, "type", sqz_device_list_str(l, i, SQZ_DEVICE_TYPE));
  sqz_json_str(&j, "c_version", sqz_device_list_str(l, i, SQZ_DEVICE_C_VERSION));
  sqz_json_str(&j, "driver", sqz_device_list_str(l, i, SQZ_DEVICE_DRIVER));
  sqz_json_u64(&j, "compute_units", sqz_device_list_u64(l, i, SQZ_DEVICE_COMPUTE_UNITS));
  sqz_json_u64(&j, "global_mem", sqz_device_list_u64(l, i, SQZ_DEVICE_GLOBAL_MEM));
  sqz_json_u64(&j, "max_alloc", sqz_device_list_u64(l, i, SQZ_DEVICE_MAX_ALLOC));
  fputs("}", stdout);
}

int sqz_cmd_devices(int argc, char **argv) {
  sqz_cli_set o = {0};
  int rc = sqz_cli_parse(&sqz_devices_cmd, argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  if (!o.json) {
    sqz_cli_print_devices(stdout);
    return 0;
  }
  sqz_device_list *l = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return 1;
  printf("[");
  for (size_t i = 0; i < sqz_device_list_count(l); i++) {
    if (i) printf(",");
    sqz__device_json(l, i);
  }
  printf("]\n");
  sqz_device_list_release(l);
  return 0;
}
