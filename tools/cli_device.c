/* cli_device.c — the devices of a command: the device list, --device N as the backend's Nth device, and the context of --backend/--device with the --option list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"

void sqz_cli_print_devices(FILE *out) {
  sqz_device_list *l = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return;
  fprintf(out, "%-7s %-5s %-11s %-4s %5s %10s %10s %-14s %s\n", "backend", "id", "platform", "type", "CUs",
          "mem MiB", "alloc MiB", "C version", "device");
  for (size_t i = 0; i < sqz_device_list_count(l); i++) {
    fprintf(out, "%-7s %-5s %-11.11s %-4.4s %5llu %10llu %10llu %-14.14s %s\n",
            sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), sqz_device_list_str(l, i, SQZ_DEVICE_ID),
            sqz_device_list_str(l, i, SQZ_DEVICE_PLATFORM), sqz_device_list_str(l, i, SQZ_DEVICE_TYPE),
            (unsigned long long)sqz_device_list_u64(l, i, SQZ_DEVICE_COMPUTE_UNITS),
            (unsigned long long)(sqz_device_list_u64(l, i, SQZ_DEVICE_GLOBAL_MEM) >> 20),
            (unsigned long long)(sqz_device_list_u64(l, i, SQZ_DEVICE_MAX_ALLOC) >> 20),
            sqz_device_list_str(l, i, SQZ_DEVICE_C_VERSION), sqz_device_list_str(l, i, SQZ_DEVICE_NAME));
  }
  sqz_device_list_release(l);
}

int sqz_cli_device_entry(const char *cmd, const char *backend, const char *entry, char *id, size_t len,
                         const char **dev) {
  *dev = entry;
  if (!*entry || strspn(entry, "0123456789") != strlen(entry)) return 0;
  const char *want = backend ? backend : sqz_cli_option("backend") ? sqz_cli_option("backend") : "opencl";
  unsigned long long n = strtoull(entry, NULL, 10), seen = 0;
  sqz_device_list *l = NULL;
  if (sqz_device_list_create(&l) != SQZ_OK) return 0;
  for (size_t i = 0; i < sqz_device_list_count(l) && *dev == entry; i++)
    if (strcmp(sqz_device_list_str(l, i, SQZ_DEVICE_BACKEND), want) == 0 && seen++ == n) {
      snprintf(id, len, "%s", sqz_device_list_str(l, i, SQZ_DEVICE_ID));
      *dev = id;
    }
  sqz_device_list_release(l);
  if (*dev != entry) return 0;
  return sqz_cli_usage(cmd, "device %s: the %s backend has %llu device%s in 'sqz devices'", entry, want, seen,
                       seen == 1 ? "" : "s");
}

int sqz_cli_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx) {
  char id[64]; /* --device N or SQZ_DEVICE=N: the backend's Nth device, as in a --devices list */
  const char *given = device && *device ? device : sqz_cli_option("device");
  int rc = given && *given ? sqz_cli_device_entry(cmd, backend, given, id, sizeof id, &device) : 0;
  if (rc) return rc;
  int st = sqz_context_create_opts(backend, device, sqz_cli_options(), ctx);
  if (st == SQZ_OK) sqz_cli_options_record(*ctx);
  if (st == SQZ_OK) return 0;
  fprintf(stderr, "sqz %s: %s (%s): %s\n", cmd, sqz_status_message(st), sqz_status_name(st), sqz_last_error(NULL));
  if (st == SQZ_ERR_DEVICE_NOT_FOUND) {
    fprintf(stderr, "available devices:\n");
    sqz_cli_print_devices(stderr);
    return 2;
  }
  return st == SQZ_ERR_INVALID_ARGUMENT ? 2 : 1;
}
