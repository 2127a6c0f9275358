/* host_memory.c — how much host memory this process may still take (meminfo, cgroup, rlimits), checked before large allocations. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/sqz_internal.h"

/* A cgroup limit at or above this is "no limit" (cgroup v1 writes 2^63 rounded down to a page). */
#define SQZ_CGROUP_UNLIMITED ((uint64_t)1 << 62)

/* The first unsigned number in a file ("max" reads as UINT64_MAX); 0 when it cannot be read. */
static int sqz__read_number(const char *path, uint64_t *v) {
  FILE *fp = fopen(path, "r");
  if (!fp) return 0;
  char text[64] = "";
  int ok = fgets(text, sizeof text, fp) != NULL;
  fclose(fp);
  if (!ok) return 0;
  if (strncmp(text, "max", 3) == 0) {
    *v = UINT64_MAX;
    return 1;
  }
  char *end = NULL;
  unsigned long long x = strtoull(text, &end, 10);
  if (end == text) return 0;
  *v = x;
  return 1;
}

/* MemAvailable of ROOT/proc/meminfo, in bytes; 0 when absent (kernels before 3.14). */
static int sqz__meminfo_available(const char *root, uint64_t *bytes) {
  char path[4200], line[256];
  snprintf(path, sizeof path, "%s/proc/meminfo", root);
  FILE *fp = fopen(path, "r");
  if (!fp) return 0;
  int found = 0;
  unsigned long long kb = 0;
  while (!found && fgets(line, sizeof line, fp))
    found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
  fclose(fp);
  if (found) *bytes = (uint64_t)kb * 1024u;
  return found;
}

/* The value of `key` in a memory.stat file ("inactive_file 1234"); 0 when absent. */
static uint64_t sqz__stat_value(const char *path, const char *key) {
  FILE *fp = fopen(path, "r");
  if (!fp) return 0;
  char line[256];
  size_t k = strlen(key);
  unsigned long long v = 0;
  int found = 0;
  while (!found && fgets(line, sizeof line, fp))
    found = strncmp(line, key, k) == 0 && line[k] == ' ' && sscanf(line + k + 1, "%llu", &v) == 1;
  fclose(fp);
  return found ? (uint64_t)v : 0;
}

/* Lowers *room to limit - usage of the cgroup folder DIR and of every folder above it up to MOUNT
 * (a parent's limit binds its children too). The usage counts the page cache: its inactive part
 * (memory.stat's inactive_file, v1 total_inactive_file), which the kernel reclaims first, is
 * counted as free, as `docker stats` does. */
static void sqz__cgroup_walk(const char *mount, const char *dir, const char *limit_file, const char *usage_file,
                             const char *inactive_key, uint64_t *room) {
  char path[4200], file[4300];
  snprintf(path, sizeof path, "%s%s", mount, dir);
  size_t base = strlen(mount);
  for (;;) {
    uint64_t limit, usage;
    snprintf(file, sizeof file, "%s/%s", path, limit_file);
    if (sqz__read_number(file, &limit) && limit < SQZ_CGROUP_UNLIMITED) {
      snprintf(file, sizeof file, "%s/%s", path, usage_file);
      if (!sqz__read_number(file, &usage)) usage = 0;
      snprintf(file, sizeof file, "%s/memory.stat", path);
      uint64_t cache = sqz__stat_value(file, inactive_key);
      usage = cache < usage ? usage - cache : 0;
      uint64_t left = usage < limit ? limit - usage : 0;
      if (left < *room) *room = left;
    }
    char *slash = strrchr(path + base, '/');
    if (!slash) break;
    *slash = 0;
  }
}

/* Lowers *room to what the cgroups of ROOT/proc/self/cgroup leave: v2 ("0::/path": memory.max -
 * memory.current) and v1 (the "memory" hierarchy: memory.limit_in_bytes - memory.usage_in_bytes). */
static void sqz__cgroup_room(const char *root, uint64_t *room) {
  char path[4200], line[4200], mount[4300];
  snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
  FILE *fp = fopen(path, "r");
  if (!fp) return;
  while (fgets(line, sizeof line, fp)) {
    line[strcspn(line, "\n")] = 0;
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) continue;
    *c2 = 0;
    const char *controllers = c1 + 1, *dir = c2 + 1;
    if (strcmp(dir, "/") == 0) dir = "";
    if (strncmp(line, "0:", 2) == 0 && *controllers == 0) {
      snprintf(mount, sizeof mount, "%s/sys/fs/cgroup", root);
      sqz__cgroup_walk(mount, dir, "memory.max", "memory.current", "inactive_file", room);
      continue;
    }
    for (const char *p = controllers; *p;) { /* v1: the line whose list names "memory" */
      size_t n = strcspn(p, ",");
      if (n == 6 && strncmp(p, "memory", 6) == 0) {
        snprintf(mount, sizeof mount, "%s/sys/fs/cgroup/memory", root);
        sqz__cgroup_walk(mount, dir, "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file", room);
      }
      p += n + (p[n] == ',');
    }
  }
  fclose(fp);
}

int sqz__host_probe(const char *root, uint64_t *bytes) {
  uint64_t room = UINT64_MAX;
  int known = sqz__meminfo_available(root, &room);
  uint64_t before = room;
  sqz__cgroup_room(root, &room);
  known = known || room != before;
  *bytes = room;
  return known;
}

/* Lowers *room to what RLIMIT_AS and RLIMIT_DATA leave above the process's present address space
 * and data size (/proc/self/statm: size and data, in pages). */
static int sqz__rlimit_room(uint64_t *room) {
  unsigned long long pages_vm = 0, pages_data = 0, skip;
  long page = sysconf(_SC_PAGESIZE);
  FILE *fp = fopen("/proc/self/statm", "r");
  int have = fp && fscanf(fp, "%llu %llu %llu %llu %llu %llu", &pages_vm, &skip, &skip, &skip, &skip, &pages_data) == 6;
  if (fp) fclose(fp);
  if (!have || page <= 0) pages_vm = pages_data = 0;
  const struct { int resource; uint64_t used; } limits[2] = {
      {RLIMIT_AS, (uint64_t)pages_vm * (uint64_t)page}, {RLIMIT_DATA, (uint64_t)pages_data * (uint64_t)page}};
  int bound = 0;
  for (int i = 0; i < 2; i++) {
    struct rlimit rl;
    if (getrlimit(limits[i].resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) continue;
    uint64_t cap = (uint64_t)rl.rlim_cur, left = limits[i].used < cap ? cap - limits[i].used : 0;
    if (left < *room) *room = left;
    bound = 1;
  }
  return bound;
}

int sqz__host_room(const char *root, uint64_t *bytes) {
  uint64_t room = UINT64_MAX;
  int known = sqz__host_probe(root, &room);
  if (!known) { /* no /proc: the free pages the C library reports */
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) {
      room = (uint64_t)pages * (uint64_t)page;
      known = 1;
    }
  }
  known = sqz__rlimit_room(&room) || known;
  *bytes = room;
  return known;
}

int sqz__host_available(uint64_t *bytes) { return sqz__host_room("", bytes); }

/* Fails with SQZ_ERR_OUT_OF_MEMORY: "<what> needs N bytes of host memory, A available". */
static int sqz__host_fail(sqz_context *ctx, uint64_t bytes, uint64_t avail, const char *fmt, va_list ap) {
  char what[1024];
  vsnprintf(what, sizeof what, fmt, ap);
  if (avail == UINT64_MAX) sqz__host_available(&avail);
  if (avail == UINT64_MAX)
    return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s needs %llu bytes of host memory, which the system refused", what,
                     (unsigned long long)bytes);
  return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "%s needs %llu bytes of host memory, %llu available", what,
                   (unsigned long long)bytes, (unsigned long long)avail);
}

/* 1 when bytes are worth a look at the system (small requests only go through malloc). */
static int sqz__host_large(uint64_t bytes) { return bytes >= SQZ_HOST_CHECK_MIN; }

int sqz__host_check(sqz_context *ctx, uint64_t bytes, const char *fmt, ...) {
  uint64_t avail = UINT64_MAX;
  if (bytes <= SIZE_MAX && (!sqz__host_large(bytes) || !sqz__host_available(&avail) || bytes <= avail)) return SQZ_OK;
  va_list ap;
  va_start(ap, fmt);
  int st = sqz__host_fail(ctx, bytes, avail, fmt, ap);
  va_end(ap);
  return st;
}

int sqz__host_alloc(sqz_context *ctx, uint64_t bytes, int zero, void **out, const char *fmt, ...) {
  uint64_t avail = UINT64_MAX;
  *out = NULL;
  int fits = bytes <= SIZE_MAX && (!sqz__host_large(bytes) || !sqz__host_available(&avail) || bytes <= avail);
  if (fits) {
    size_t n = bytes ? (size_t)bytes : 1;
    *out = zero ? sqz__calloc(1, n) : sqz__malloc(n);
    if (*out) return SQZ_OK;
  }
  va_list ap;
  va_start(ap, fmt);
  int st = sqz__host_fail(ctx, bytes, avail, fmt, ap);
  va_end(ap);
  return st;
}
