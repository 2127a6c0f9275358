/* backends.c — the list of backends compiled into the library, the default (opencl) first. */
#include "core/backend.h"

const sqz_backend_ops *const sqz__backends[] = {&sqz__opencl_ops, &sqz__cpu_ops, &sqz__cuda_ops, NULL};
