/* program.c — builds OpenCL programs from a prelude + embedded sources, with memory and disk caches. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* The parts of a program's cache key: source, options, device, platform, driver, OpenCL C version, sqz. */
enum { SQZ_KEY_PARTS = 7 };
static void sqz__key_parts(const sqz_context *ctx, const char *src, const char *opts, const char *parts[SQZ_KEY_PARTS]) {
  const char *p[SQZ_KEY_PARTS] = {src, opts, ctx->device_name, ctx->platform_name, ctx->driver_version,
                                  ctx->c_version, SQZ_VERSION_STRING};
  memcpy(parts, p, sizeof p);
}

/* Two independent 64-bit hashes over every part of the key. */
static void sqz__key(const char *const parts[SQZ_KEY_PARTS], uint64_t k[2]) {
  k[0] = 0xcbf29ce484222325ULL;
  k[1] = 0x84222325cbf29ce4ULL;
  for (size_t i = 0; i < SQZ_KEY_PARTS; i++) {
    size_t n = strlen(parts[i]) + 1; /* include the terminator as a separator */
    k[0] = sqz__fnv(k[0], parts[i], n);
    k[1] = sqz__fnv(k[1] ^ 0x9e3779b97f4a7c15ULL, parts[i], n);
  }
}

/* The option cache_dir, else $XDG_CACHE_HOME/sqz, else $HOME/.cache/sqz; created if missing. */
static int sqz__cache_dir(const sqz_context *ctx, char *buf, size_t len) {
  const char *d = sqz__opt_text(ctx, NULL, SQZ_OPT_CACHE_DIR), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
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

/* ---- the disk cache -------------------------------------------------------------------------
 * One file per key, <dir>/<key0><key1>.bin (hex), holding a header, the full key and the driver's
 * binary; all integers little-endian:
 *    0  "SQZCLBIN"              8  u32 format version     12  u32 number of key parts (7)
 *   16  u64 payload bytes      24  u64 payload hash       32  u64 key hash 0     40  u64 key hash 1
 *   48  each key part as u64 length + its bytes, then the payload (the binary).
 * A file is handed to the driver only when every field matches this key and the payload's length
 * and hash; anything else (short, foreign, damaged, another format) is removed and rebuilt. Files
 * are written to a mkstemp temporary in the cache directory, fsynced and renamed into place. */
#define SQZ_CACHE_MAGIC "SQZCLBIN"
enum { SQZ_CACHE_VERSION = 1, SQZ_CACHE_HEADER = 48 };

static uint64_t sqz__payload_hash(const unsigned char *p, size_t n) {
  return sqz__fnv(0x6a09e667f3bcc909ULL, (const char *)p, n);
}

static void sqz__put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t sqz__get64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* The whole file in a malloc'ed buffer; NULL when it cannot be read (absent, unreadable, empty, not a
 * regular file). Opened without blocking and checked before a byte is read: a FIFO at a cache file's
 * name (or a device) once blocked the process for ever. */
static unsigned char *sqz__read_file(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0) != 0)) {
    close(fd);
    return NULL;
  }
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0) close(fd);
    return NULL;
  }
  unsigned char *buf = NULL;
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 && (uint64_t)sb.st_size < SIZE_MAX &&
      (buf = sqz__malloc((size_t)sb.st_size + 1)) != NULL) {
    *len = fread(buf, 1, (size_t)sb.st_size + 1, f); /* one byte more: a file that grew is not taken */
    if (*len != (size_t)sb.st_size || ferror(f)) {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  return buf;
}

/* The payload of cache file `file` when it holds exactly this key and an intact payload, else NULL. */
static const unsigned char *sqz__cache_payload(const unsigned char *file, size_t len, const uint64_t k[2],
                                               const char *const parts[SQZ_KEY_PARTS], size_t *payload_len) {
  if (len < SQZ_CACHE_HEADER || memcmp(file, SQZ_CACHE_MAGIC, 8) != 0) return NULL;
  uint64_t version = sqz__get64(file + 8);
  if ((uint32_t)version != SQZ_CACHE_VERSION || (version >> 32) != SQZ_KEY_PARTS) return NULL;
  if (sqz__get64(file + 32) != k[0] || sqz__get64(file + 40) != k[1]) return NULL;
  size_t at = SQZ_CACHE_HEADER;
  for (size_t i = 0; i < SQZ_KEY_PARTS; i++) {
    size_t n = strlen(parts[i]);
    if (len - at < 8 || sqz__get64(file + at) != n || len - at - 8 < n || memcmp(file + at + 8, parts[i], n) != 0)
      return NULL;
    at += 8 + n;
  }
  uint64_t want = sqz__get64(file + 16);
  if (want == 0 || want != len - at || sqz__payload_hash(file + at, len - at) != sqz__get64(file + 24)) return NULL;
  *payload_len = len - at;
  return file + at;
}

/* Writes the cache file atomically (temporary, fsync, rename); a failure leaves no file behind and
 * is not an error: the next run builds again. */
static void sqz__write_cache(const char *dir, const char *path, const uint64_t k[2],
                             const char *const parts[SQZ_KEY_PARTS], const unsigned char *bin, size_t bin_len) {
  size_t len = SQZ_CACHE_HEADER + bin_len;
  for (size_t i = 0; i < SQZ_KEY_PARTS; i++) len += 8 + strlen(parts[i]);
  unsigned char *file = sqz__malloc(len);
  if (!file) return;
  memcpy(file, SQZ_CACHE_MAGIC, 8);
  sqz__put64(file + 8, (uint64_t)SQZ_CACHE_VERSION | ((uint64_t)SQZ_KEY_PARTS << 32));
  sqz__put64(file + 16, bin_len);
  sqz__put64(file + 24, sqz__payload_hash(bin, bin_len));
  sqz__put64(file + 32, k[0]);
  sqz__put64(file + 40, k[1]);
  size_t at = SQZ_CACHE_HEADER;
  for (size_t i = 0; i < SQZ_KEY_PARTS; i++) {
    size_t n = strlen(parts[i]);
    sqz__put64(file + at, n);
    memcpy(file + at + 8, parts[i], n);
    at += 8 + n;
  }
  memcpy(file + at, bin, bin_len);
  char tmp[4200];
  int fd = -1;
  if (snprintf(tmp, sizeof tmp, "%s/.sqz-cache-XXXXXX", dir) < (int)sizeof tmp) fd = mkstemp(tmp);
  int ok = fd >= 0;
  for (size_t done = 0; ok && done < len;) {
    ssize_t w = write(fd, file + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    ok = w > 0;
    if (ok) done += (size_t)w;
  }
  ok = ok && fsync(fd) == 0;
  if (fd >= 0) ok = (close(fd) == 0) && ok;
  if (fd >= 0 && !(ok && rename(tmp, path) == 0)) unlink(tmp);
  free(file);
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

/* The file and line that physical line `line` (from 1) of src belongs to, following its `#line N
 * "file"` directives; 0 before the first one. */
static int sqz__logical_line(const char *src, unsigned long line, char *file, size_t file_len, unsigned long *out) {
  unsigned long phys = 1, base = 0, start = 0;
  int found = 0;
  for (const char *p = src; *p && phys <= line; phys++) {
    unsigned long n = 0;
    char name[256];
    if (sscanf(p, "#line %lu \"%255[^\"]\"", &n, name) == 2) { /* the next physical line is line n of name */
      snprintf(file, file_len, "%s", name);
      base = n;
      start = phys + 1;
      found = 1;
    }
    const char *nl = strchr(p, '\n');
    if (!nl) break;
    p = nl + 1;
  }
  if (!found || line < start) return 0;
  *out = base + (line - start);
  return 1;
}

/* Some compilers (NVIDIA's) report physical lines of the whole program as "<kernel>:LINE:" and
 * ignore #line: rewrite those references to the file and line the directives name, so a user's
 * error points into the user's file. Other logs come back unchanged. malloc'ed. */
static char *sqz__map_log(const char *src, const char *log) {
  static const char tag[] = "<kernel>:";
  size_t cap = strlen(log) * 2 + 64, at = 0;
  char *out = sqz__malloc(cap);
  if (!out) return NULL;
  for (const char *p = log; *p;) {
    const char *q = strstr(p, tag);
    size_t keep = q ? (size_t)(q - p) : strlen(p);
    if (at + keep + 320 >= cap) {
      char *bigger = sqz__realloc(out, cap = 2 * cap + keep + 320);
      if (!bigger) {
        free(out);
        return NULL;
      }
      out = bigger;
    }
    memcpy(out + at, p, keep);
    at += keep;
    if (!q) break;
    char *end = NULL, file[256];
    unsigned long line = strtoul(q + sizeof tag - 1, &end, 10), logical = 0;
    if (end != q + sizeof tag - 1 && sqz__logical_line(src, line, file, sizeof file, &logical)) {
      at += (size_t)snprintf(out + at, cap - at, "%s:%lu", file, logical);
      p = end;
    } else {
      memcpy(out + at, tag, sizeof tag - 1);
      at += sizeof tag - 1;
      p = q + sizeof tag - 1;
    }
  }
  out[at] = 0;
  return out;
}

/* 1 when the device's build log of prog names no compiler error (empty, or only PoCL's "Device ...
 * failed to build the program"): a failure that is the driver's, not the source's. */
static int sqz__log_empty(sqz_context *ctx, cl_program prog) {
  size_t n = 0;
  if (clGetProgramBuildInfo(prog, SQZ_CL(ctx)->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS) return 0;
  char *log = sqz__malloc(n + 1);
  if (!log) return 0;
  log[0] = 0;
  int ok = clGetProgramBuildInfo(prog, SQZ_CL(ctx)->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS;
  log[n] = 0;
  for (char *c = log; *c; c++) *c = (char)tolower((unsigned char)*c);
  int none = ok && !strstr(log, "error");
  free(log);
  return none;
}

static int sqz__build_log(sqz_context *ctx, cl_program prog, const char *opts, cl_int err, const char *src) {
  size_t n = 0;
  clGetProgramBuildInfo(prog, SQZ_CL(ctx)->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = sqz__malloc(n + 1);
  if (log) {
    log[0] = 0;
    clGetProgramBuildInfo(prog, SQZ_CL(ctx)->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    log[n] = 0;
  }
  sqz__fail(ctx, SQZ_ERR_BUILD_FAILED, "kernel build failed (%s) on %s (%s) with options '%s'; build log:",
            sqz_status_name(err), ctx->device_name, ctx->driver_version, opts);
  char *mapped = log && src ? sqz__map_log(src, log) : NULL;
  sqz__append_detail(ctx, mapped && *mapped ? mapped : log && *log ? log : "(empty build log)");
  free(mapped);
  free(log);
  return SQZ_ERR_BUILD_FAILED;
}

/* Loads and builds the cached binary of key k from path. 0 when there is none or it cannot be used:
 * a file that is not exactly this key's intact binary, or that the driver refuses or cannot build,
 * is removed (the caller builds from source and writes it again). */
static int sqz__try_binary(sqz_context *ctx, const char *path, const uint64_t k[2],
                           const char *const parts[SQZ_KEY_PARTS], const char *opts, cl_program *out) {
  size_t len = 0, bin_len = 0;
  unsigned char *file = sqz__read_file(path, &len);
  if (!file) {
    if (access(path, F_OK) == 0) unlink(path); /* empty or unreadable */
    return 0;
  }
  const unsigned char *bin = sqz__cache_payload(file, len, k, parts, &bin_len);
  cl_program p = NULL;
  if (bin) {
    cl_int err = CL_SUCCESS, bstatus = CL_SUCCESS;
    p = clCreateProgramWithBinary(SQZ_CL(ctx)->cl, 1, &SQZ_CL(ctx)->device, &bin_len, &bin, &bstatus, &err);
    if ((err != CL_SUCCESS || bstatus != CL_SUCCESS) && p) {
      clReleaseProgram(p);
      p = NULL;
    }
    if (p && clBuildProgram(p, 1, &SQZ_CL(ctx)->device, opts, NULL, NULL) != CL_SUCCESS) {
      clReleaseProgram(p);
      p = NULL;
    }
  }
  free(file);
  if (!p) {
    unlink(path);
    return 0;
  }
  *out = p;
  return 1;
}

static void sqz__save_binary(cl_program p, const char *dir, const char *path, const uint64_t k[2],
                             const char *const parts[SQZ_KEY_PARTS]) {
  size_t len = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS || len == 0) return;
  unsigned char *bin = sqz__malloc(len);
  if (!bin) return;
  unsigned char *bins[1] = {bin};
  if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
    sqz__write_cache(dir, path, k, parts, bin, len);
  free(bin);
}

int sqz__program_source(sqz_context *ctx, const char *src, const char *options, cl_program *out) {
  *out = NULL;
  if (ctx->ops != &sqz__opencl_ops)
    return sqz__fail(ctx, SQZ_ERR_UNSUPPORTED, "OpenCL programs need the opencl backend (this is %s)",
                     sqz_context_backend(ctx));
  const char *extra = sqz__opt_text(ctx, NULL, SQZ_OPT_BUILD_OPTIONS);
  size_t olen = strlen(options ? options : "") + strlen(extra ? extra : "") + 2;
  char *opts = sqz__malloc(olen);
  if (!opts) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  snprintf(opts, olen, "%s%s%s", options ? options : "", (extra && *extra) ? " " : "", extra ? extra : "");
  const char *parts[SQZ_KEY_PARTS];
  sqz__key_parts(ctx, src, opts, parts);
  uint64_t k[2];
  sqz__key(parts, k);

  for (sqz_program_entry *e = SQZ_CL(ctx)->programs; e; e = e->next)
    if (e->key == k[0]) { *out = e->program; free(opts); return SQZ_OK; }

  const char *dump = sqz__opt_text(ctx, NULL, SQZ_OPT_DUMP_KERNELS);
  if (dump && *dump) sqz__dump(dump, k, "", opts, src);

  char dir[4096], path[4200];
  int use_disk = !sqz__opt_num(ctx, NULL, SQZ_OPT_NO_CACHE, 0) && sqz__cache_dir(ctx, dir, sizeof dir);
  if (use_disk)
    snprintf(path, sizeof path, "%s/%016llx%016llx.bin", dir, (unsigned long long)k[0], (unsigned long long)k[1]);
  cl_program p = NULL;
  int st = SQZ_OK;
  if (!(use_disk && sqz__try_binary(ctx, path, k, parts, opts, &p))) {
    cl_int err = CL_SUCCESS;
    p = clCreateProgramWithSource(SQZ_CL(ctx)->cl, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
      st = sqz__fail(ctx, err, "clCreateProgramWithSource failed: %s", sqz_status_name(err));
      goto done;
    }
    err = clBuildProgram(p, 1, &SQZ_CL(ctx)->device, opts, NULL, NULL);
    /* A failure whose log names no compiler error is the driver's, not the source's: PoCL 3 fails so
     * ("Device ... failed to build the program") when other processes (MPI ranks, parallel tests)
     * compile the same program into its shared kernel cache at the same moment. Built again after a
     * pause, up to three times, it builds; a real error in the source fails at once, as before. */
    for (int retry = 1; err == CL_BUILD_PROGRAM_FAILURE && retry <= 3 && sqz__log_empty(ctx, p); retry++) {
      clReleaseProgram(p);
      struct timespec pause = {0, 50000000L * retry};
      nanosleep(&pause, NULL);
      p = clCreateProgramWithSource(SQZ_CL(ctx)->cl, 1, &src, NULL, &err);
      if (err != CL_SUCCESS) {
        st = sqz__fail(ctx, err, "clCreateProgramWithSource failed: %s", sqz_status_name(err));
        goto done;
      }
      err = clBuildProgram(p, 1, &SQZ_CL(ctx)->device, opts, NULL, NULL);
    }
    if (err != CL_SUCCESS) {
      st = sqz__build_log(ctx, p, opts, err, src);
      if (dump && *dump) sqz__dump(dump, k, "_failed", opts, src);
      clReleaseProgram(p);
      p = NULL;
      goto done;
    }
    if (use_disk) sqz__save_binary(p, dir, path, k, parts);
  }
  SQZ_CL(ctx)->builds++;
  sqz_program_entry *e = sqz__malloc(sizeof *e);
  if (!e) { clReleaseProgram(p); st = sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory"); goto done; }
  e->key = k[0];
  e->qkey = 0;
  e->program = p;
  e->next = SQZ_CL(ctx)->programs;
  SQZ_CL(ctx)->programs = e;
  *out = p;
done:
  free(opts);
  return st;
}

/* The in-process key of a program assembled from prelude, embedded files and options (and the context's extra build
 * options): the embedded files do not change within a process, so a program asked for again is found without
 * assembling and hashing its whole source (about 100 KB: 16 % of the CPU time of a triangle in 4 parts on PoCL,
 * which asks for its row step once per part and step). */
static uint64_t sqz__quick_key(const sqz_context *ctx, const char *prelude, const char *const *files,
                               const char *options) {
  const char *extra = sqz__opt_text(ctx, NULL, SQZ_OPT_BUILD_OPTIONS);
  const char *texts[3] = {prelude ? prelude : "", options ? options : "", extra ? extra : ""};
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < 3; i++) h = sqz__fnv(h, texts[i], strlen(texts[i]) + 1);
  for (const char *const *f = files; f && *f; f++) h = sqz__fnv(h, *f, strlen(*f) + 1);
  return h ? h : 1;
}

int sqz__program(sqz_context *ctx, const char *prelude, const char *const *files, const char *options,
                 cl_program *out) {
  uint64_t qk = sqz__quick_key(ctx, prelude, files, options);
  for (sqz_program_entry *e = SQZ_CL(ctx)->programs; e; e = e->next)
    if (e->qkey == qk) return *out = e->program, SQZ_OK;
  size_t total = strlen(prelude ? prelude : "") + 64;
  for (const char *const *f = files; f && *f; f++) {
    const sqz_embedded_file *e = sqz__cl_file(*f);
    if (!e) return sqz__fail(ctx, SQZ_ERR_INTERNAL, "no embedded kernel source named '%s'", *f);
    total += e->size + strlen(*f) + 32;
  }
  char *src = sqz__malloc(total);
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
  for (sqz_program_entry *e = SQZ_CL(ctx)->programs; st == SQZ_OK && e; e = e->next)
    if (e->program == *out) e->qkey = qk;
  return st;
}

int sqz__program_kernel(sqz_context *ctx, const char *prelude, const char *const *files, const char *options,
                        const char *name, cl_kernel *out) {
  *out = NULL;
  size_t len = strlen(name) + strlen(prelude ? prelude : "") + 32;
  char *pre = malloc(len);
  if (!pre) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "out of host memory");
  snprintf(pre, len, "#define SQZ_KERNEL_%s 1\n%s", name, prelude ? prelude : "");
  cl_program prog = NULL;
  int st = sqz__program(ctx, pre, files, options, &prog);
  free(pre);
  return st == SQZ_OK ? sqz__kernel(ctx, prog, name, out) : st;
}
