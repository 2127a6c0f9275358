/* env.h — the one place the library reads its environment (env.c): SQZ_<NAME> of an option name. */
#ifndef SQZ_ENV_H
#define SQZ_ENV_H
#include <stddef.h>

/* The variable of option `name` into buf: SQZ_ and the name in capitals. */
void sqz__env_var(const char *name, char *buf, size_t len) __attribute__((visibility("hidden")));
/* Its text in the environment, NULL when unset or empty. */
const char *sqz__env(const char *name) __attribute__((visibility("hidden")));
#endif
