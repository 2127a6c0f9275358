/* program.c — builds OpenCL programs from a prelude + embedded sources, with memory and disk caches. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/opencl/cl_internal.h"

const sqz_embedded_file *sqz__cl_file(const char *name) {
  for (const sqz_embedded_file *f = sqz_embedded_files; f->name; f++)
    if (strcmp(f->name, name) == 0) return f;
  return NULL;
}

static uint64_t sqz__fnv(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
  return h;
}

/* Two independent 64-bit hashes over every part of the key. */
static void sqz__key(const sqz_context *ctx, const char *src, const char *opts, uint64_t k[2]) {
  const char *parts[] = {src, opts, ctx->device_name, ctx->platform_name, ctx->driver_version,
                         ctx->c_version, SQZ_VERSION_STRING};
  k[0] = 0xcbf29ce484222325ULL;
  k[1] = 0x84222325cbf29ce4ULL;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    size_t n = strlen(parts[i]) + 1; /* include the terminator as a separator */
    k[0] = sqz__fnv(k[0], parts[i], n);
    k[1] = sqz__fnv(k[1] ^ 0x9e3779b97f4a7c15ULL, parts[i], n);
  }
}

static int sqz__env_on(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* $SQZ_CACHE_DIR, else $XDG_CACHE_HOME/sqz, else $HOME/.cache/sqz; created if missing. */
static int sqz__cache_dir(char *buf, size_t len) {
  const char *d = getenv("SQZ_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  if (d && *d) snprintf(buf, len, "%s", d);
  else if (x && *x) snprintf(buf, len, "%s/sqz", x);
  else if (h && *h) snprintf(buf, len, "%s/.cache/sqz", h);
  else return 0;
  for (char *p = buf + 1; *p; p++) { /* mkdir -p */
    if (*p != '/') continue;
    *p = 0;
    mkdir(buf, 0755);
    *p = '/';
  }
  return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

static char *sqz__read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) != NULL) {
      if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
      else *len = (size_t)n;
    }
  }
  fclose(f);
  return buf;
}

/* Writes atomically: a temporary file in the same directory, then rename. */
static void sqz__write_atomic(const char *path, const void *data, size_t len) {
  char tmp[4300];
  static atomic_uint seq; /* contexts in several threads of one process may write the same entry */
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&seq, 1u)) >= (int)sizeof tmp)
    return;
  FILE *f = fopen(tmp, "wb");
  if (!f) return;
  int ok = fwrite(data, 1, len, f) == len;
  ok = (fclose(f) == 0) && ok;
  if (ok && rename(tmp, path) == 0) return;
  remove(tmp);
}

static void sqz__dump(const char *dir, const uint64_t k[2], const char *suffix, const char *opts,
                      const char *src) {
  char path[4200];
  snprintf(path, sizeof path, "%s/sqz_%016llx%016llx%s.cl", dir, (unsigned long long)k[0],
           (unsigned long long)k[1], suffix);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fprintf(f, "/* build options: %s */\n%s", opts, src);
  fclose(f);
}

static int sqz__build_log(sqz_context *ctx, cl_program prog, const char *opts, cl_int err) {
  size_t n = 0;
  clGetProgramBuildInfo(prog, SQZ_CL(ctx)->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = malloc(n + 1);
  if (log) {
    log[0] = 0;
    clGetProgramBuildInfo(prog, SQZ_CL(ctx)->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    log[n] = 0;
  }
  sqz__fail(ctx, SQZ_ERR_BUILD_FAILED, "kernel build failed (%s) on %s (%s) with options '%s'; build log:",
            sqz_status_name(err), ctx->device_name, ctx->driver_version, opts);
  sqz__append_detail(ctx, log && *log ? log : "(empty build log)");
  free(log);
  return SQZ_ERR_BUILD_FAILED;
}

static int sqz__try_binary(sqz_context *ctx, const char *path, const char *opts, cl_program *out) {
  size_t len = 0;
  unsigned char *bin = (unsigned char *)sqz__read_all(path, &len);
  if (!bin) return 0;
  cl_int err = CL_SUCCESS, bstatus = CL_SUCCESS;
  const unsigned char *bins[1] = {bin};
  cl_program p = clCreateProgramWithBinary(SQZ_CL(ctx)->cl, 1, &SQZ_CL(ctx)->device, &len, bins, &bstatus, &err);
  free(bin);
  if (err != CL_SUCCESS || bstatus != CL_SUCCESS) {
    if (p) clReleaseProgram(p);
    return 0;
  }
  if (clBuildProgram(p, 1, &SQZ_CL(ctx)->device, opts, NULL, NULL) != CL_SUCCESS) {
    clReleaseProgram(p);
    return 0;
  }
  *out = p;
  return 1;
}

static void sqz__save_binary(sqz_context *ctx, cl_program p, const char *path) {
  size_t len = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS || len == 0) return;
  unsigned char *bin = malloc(len);
  if (!bin) return;
  unsigned char *bins[1] = {bin};
  if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
    sqz__write_atomic(path, bin, len);
  free(bin);
}

int sqz__program_source(sqz_context *ctx, const char *src, const char *options, cl_program *out) {
  *out = NULL;
  if (ctx->ops != &sqz__opencl_ops)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "OpenCL programs need the opencl backend (this is %s)",
                     sqz_context_backend(ctx));
  const char *extra = getenv("SQZ_BUILD_OPTIONS");
  size_t olen = strlen(options ? options : "") + strlen(extra ? extra : "") + 2;
  char *opts = malloc(olen);
  if (!opts) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  snprintf(opts, olen, "%s%s%s", options ? options : "", (extra && *extra) ? " " : "", extra ? extra : "");
  uint64_t k[2];
  sqz__key(ctx, src, opts, k);

  for (sqz_program_entry *e = SQZ_CL(ctx)->programs; e; e = e->next)
    if (e->key == k[0]) { *out = e->program; free(opts); return SQZ_OK; }

  const char *dump = getenv("SQZ_DUMP_KERNELS");
  if (dump && *dump) sqz__dump(dump, k, "", opts, src);

  char dir[4096], path[4200];
  int use_disk = !sqz__env_on("SQZ_NO_CACHE") && sqz__cache_dir(dir, sizeof dir);
  if (use_disk)
    snprintf(path, sizeof path, "%s/%016llx%016llx.bin", dir, (unsigned long long)k[0], (unsigned long long)k[1]);
  cl_program p = NULL;
  int st = SQZ_OK;
  if (!(use_disk && sqz__try_binary(ctx, path, opts, &p))) {
    cl_int err = CL_SUCCESS;
    p = clCreateProgramWithSource(SQZ_CL(ctx)->cl, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
      st = sqz__fail(ctx, err, "clCreateProgramWithSource failed: %s", sqz_status_name(err));
      goto done;
    }
    err = clBuildProgram(p, 1, &SQZ_CL(ctx)->device, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
      st = sqz__build_log(ctx, p, opts, err);
      if (dump && *dump) sqz__dump(dump, k, "_failed", opts, src);
      clReleaseProgram(p);
      p = NULL;
      goto done;
    }
    if (use_disk) sqz__save_binary(ctx, p, path);
  }
  sqz_program_entry *e = malloc(sizeof *e);
  if (!e) { clReleaseProgram(p); st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory"); goto done; }
  e->key = k[0];
  e->program = p;
  e->next = SQZ_CL(ctx)->programs;
  SQZ_CL(ctx)->programs = e;
  *out = p;
done:
  free(opts);
  return st;
}

int sqz__program(sqz_context *ctx, const char *prelude, const char *const *files, const char *options,
                 cl_program *out) {
  size_t total = strlen(prelude ? prelude : "") + 64;
  for (const char *const *f = files; f && *f; f++) {
    const sqz_embedded_file *e = sqz__cl_file(*f);
    if (!e) return sqz__fail(ctx, SQZ_ERR_INTERNAL, "no embedded kernel source named '%s'", *f);
    total += e->size + strlen(*f) + 32;
  }
  char *src = malloc(total);
  if (!src) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  size_t at = (size_t)snprintf(src, total, "/* sqz %s */\n%s\n", SQZ_VERSION_STRING, prelude ? prelude : "");
  for (const char *const *f = files; f && *f; f++) {
    const sqz_embedded_file *e = sqz__cl_file(*f);
    at += (size_t)snprintf(src + at, total - at, "#line 1 \"%s\"\n", *f); /* build logs name the file */
    memcpy(src + at, e->data, e->size);
    at += e->size;
    src[at++] = '\n';
    src[at] = 0;
  }
  int st = sqz__program_source(ctx, src, options, out);
  free(src);
  return st;
}
