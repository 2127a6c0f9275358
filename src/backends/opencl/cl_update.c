/* cl_update.c — an engine update as OpenCL: the prelude (cell type, rule or the user's file) and the parameter buffer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/cl_engine.h"

/* OpenCL C spelling of a cell type and of its parameter type. */
static const char *cl_cell_name(sqz_type t) {
  switch (t) {
  case SQZ_U8: return "uchar";
  case SQZ_I32: return "int";
  case SQZ_F32: return "float";
  case SQZ_F64: return "double";
  }
  return "?";
}

const char *sqz__cl_update_file(const sqz_update *u) {
  switch (u->kind) {
  case SQZ_UPDATE_LIFE:
  case SQZ_UPDATE_LIFE_BODY: return "rule_life.cl";
  case SQZ_UPDATE_HEAT: return "rule_heat.cl";
  case SQZ_UPDATE_CL:
  case SQZ_UPDATE_FN: break;
  }
  return NULL;
}

char *sqz__cl_update_prelude(sqz_context *ctx, const sqz_field *f, const sqz_update *u) {
  const char *src = u->kind == SQZ_UPDATE_CL || u->kind == SQZ_UPDATE_LIFE_BODY ? u->source : "";
  const char *name = u->source_name && *u->source_name ? u->source_name : "update.cl";
  size_t cap = strlen(src) + strlen(name) + 1024;
  char *p = sqz__malloc(cap);
  if (!p) {
    sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
    return NULL;
  }
  int f64 = f->type == SQZ_F64, dims = f->dom->dims;
  size_t at = (size_t)snprintf(p, cap,
                               "%s#pragma OPENCL FP_CONTRACT OFF\n#define SQZ_DIMS %d\n#define SQZ_NB %d\n#define SQZ_CELL_BYTES %d\n"
                               "typedef %s sqz_cell_t;\ntypedef %s sqz_param_t;\n%s",
                               f64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", dims, dims == 2 ? 8 : 26,
                               (int)sqz_type_size(f->type),
                               cl_cell_name(f->type), f64 ? "double" : "float",
                               sqz__update_wants_present(u) ? "#define SQZ_WANT_PRESENT 1\n" : "");
  if (u->kind == SQZ_UPDATE_LIFE && u->states > 2) /* Generations (cl/rule_life.cl) */
    snprintf(p + at, cap - at, "#define SQZ_LIFE_STATES %uu\n", u->states);
  else if (u->kind == SQZ_UPDATE_LIFE_BODY)
    snprintf(p + at, cap - at,
             "#define SQZ_USER_RULE 1\nstatic inline uchar sqz_user_rule(uchar self, uint live) {\n%s\n}\n", src);
  else if (u->kind == SQZ_UPDATE_CL)
    snprintf(p + at, cap - at,
             "#line 1 \"%s\"\n%s\n#line 1 \"sqz engine\"\n"
             "#define SQZ_APPLY(self, nb, present) sqz_update((self), (nb), (present), param)\n",
             name, src);
  return p;
}

int sqz__cl_update_params(sqz_context *ctx, const sqz_field *f, const sqz_update *u, cl_mem *param, cl_uint2 *ip) {
  size_t ps = f->type == SQZ_F64 ? sizeof(double) : sizeof(float), n = u->n_param ? u->n_param : 1;
  cl_ulong limit = 0;
  *param = NULL;
  memset(ip, 0, sizeof *ip);
  if (u->kind == SQZ_UPDATE_LIFE) {
    ip->s[0] = u->birth;
    ip->s[1] = u->survive;
  }
  clGetDeviceInfo(SQZ_CL(ctx)->device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof limit, &limit, NULL);
  if (limit && n * ps > limit)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%zu parameters need %zu bytes of constant memory but %s allows %llu (%llu parameters)",
                     u->n_param, n * ps, ctx->device_name, (unsigned long long)limit, (unsigned long long)(limit / ps));
  unsigned char *host = sqz__calloc(n, ps);
  if (!host) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  for (size_t i = 0; i < u->n_param; i++) {
    if (ps == sizeof(double)) memcpy(host + i * ps, &u->param[i], ps);
    else {
      float v = (float)u->param[i];
      memcpy(host + i * ps, &v, ps);
    }
  }
  int st = sqz__const_buffer(ctx, n * ps, host, param); /* no queue command: enqueued steps may wait */
  free(host);
  if (st != SQZ_OK && *param) {
    clReleaseMemObject(*param);
    *param = NULL;
  }
  return st;
}
