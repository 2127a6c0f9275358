/* embedded.h — the tables of kernel sources (cl/) and PTX (cuda/) compiled into the library. */
#ifndef SQZ_EMBEDDED_H
#define SQZ_EMBEDDED_H
#include <stddef.h>

typedef struct {
  const char *name;
  const char *data;
  size_t size;
} sqz_embedded_file;

extern const sqz_embedded_file sqz_embedded_files[]; /* every file of cl/ (generated) */
extern const sqz_embedded_file sqz_ptx_files[];      /* cuda/ sources as PTX, if nvcc was found */
#endif
