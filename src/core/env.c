/* env.c — the one place the library reads its environment: SQZ_<NAME> of an option (the table of options: options.c); depends on nothing else of sqz. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/env.h"

void sqz__env_var(const char *name, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "SQZ_%s", name);
  for (size_t k = 4; k < n && k < len; k++) buf[k] = (char)toupper((unsigned char)buf[k]);
}

const char *sqz__env(const char *name) {
  char var[64];
  sqz__env_var(name, var, sizeof var);
  const char *v = getenv(var);
  return v && *v ? v : NULL;
}
