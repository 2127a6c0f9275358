/* engine_report.h — which engine path stepped a field, and why the faster ones did not apply (sqz_field_engine, --json, SQZ_DEBUG). */
#ifndef SQZ_ENGINE_REPORT_H
#define SQZ_ENGINE_REPORT_H
#include "core/sqz_internal.h"

/* struct sqz_engine_report (in sqz_field, core/sqz_internal.h): the path of the field's last step
 * call, the paths tried before it with their reasons ("path: reason; ..."), and what SQZ_DEBUG last
 * printed (so a run of step calls prints once). */

/* The choice of a path (sqz__engine_step, core/engine_paths.c) calls these for each step call:
 * sqz__engine_skip for each path that does not apply (the reason as printf), sqz__engine_ran for the
 * one that ran. A part's view reports for part 0 only (every part takes the same path; the others
 * would race on the report). */
SQZ_INTERNAL void sqz__engine_skip(sqz_field *f, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
SQZ_INTERNAL void sqz__engine_ran(sqz_field *f, const char *path);
/* The front end around a step call: clears the report before, prints it after (SQZ_DEBUG) when it
 * differs from what was printed last. */
SQZ_INTERNAL void sqz__engine_reset(sqz_field *f);
SQZ_INTERNAL void sqz__engine_debug(sqz_field *f);
#endif
