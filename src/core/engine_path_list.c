/* engine_path_list.c — the engine paths of every backend by name: the public list (sqz_path_row) and the names option engine accepts. */
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/engine_paths.h"

const char *sqz_engine_path(const char *backend, size_t i, const char **when) {
  if (when) *when = NULL;
  for (const sqz_backend_ops *const *b = sqz__backends; backend && *b; b++) {
    const sqz_path_table *t = (*b)->paths;
    if (strcmp((*b)->name, backend) != 0 || i >= t->n) continue;
    if (when) *when = t->rows[i].when;
    return t->rows[i].name;
  }
  return NULL;
}

int sqz__engine_path_known(const char *text) {
  for (const sqz_backend_ops *const *b = sqz__backends; text && *b; b++)
    for (size_t i = 0; i < (*b)->paths->n; i++)
      if (strcmp((*b)->paths->rows[i].name, text) == 0) return 1;
  return 0;
}

void sqz__engine_path_names(char *buf, size_t len) {
  size_t at = 0;
  buf[0] = 0;
  for (const sqz_backend_ops *const *b = sqz__backends; *b && at < len; b++)
    for (size_t i = 0; i < (*b)->paths->n && at < len; i++)
      at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s", i ? ", " : b == sqz__backends ? "" : "; ",
                             i ? "" : (*b)->name, i ? "" : ": ", (*b)->paths->rows[i].name);
}
