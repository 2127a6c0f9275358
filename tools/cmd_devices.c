/* cmd_devices.c — `sqz devices`: every device of every backend, one line each. */
#include <string.h>

#include "cli_common.h"
#include "cmds.h"

int sqz_cmd_devices(int argc, char **argv) {
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: sqz devices [--json]\n\nLists every device: backend, id (use with --device or SQZ_DEVICE), platform,\n"
             "type, compute units, global memory, largest single allocation, OpenCL C version, name.\n");
      return 0;
    }
    if (strcmp(argv[i], "--json") == 0) json = 1;
    else return sqz_cli_usage("devices", "unknown option '%s'", argv[i]);
  }
  if (!json) {
    sqz_cli_print_devices(stdout);
    return 0;
  }
  sqz_device_list *l = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return 1;
  printf("[");
  for (size_t i = 0; i < sqz_device_list_count(l); i++) {
    sqz_json j;
    if (i) printf(",");
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
  printf("]\n");
  sqz_device_list_release(l);
  return 0;
}
