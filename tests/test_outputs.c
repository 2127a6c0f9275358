/* test_outputs.c — outputs and host memory: unique temporaries, removal on signals, row-wise images, memory checks. */
/* labels: host */
#define _XOPEN_SOURCE 700 /* mknod, S_IFCHR */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/atomic_file.h"
#include "sqz_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define SQZ_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQZ_TEST_ASAN 1
#endif
#endif

/* Each test runs with a cpu context and an empty folder of its own (a checked fixture: it runs in
 * the forked child, as contexts must). */
static sqz_context *ctx;
static char dir[64];

/* The names in the test's folder, sorted and joined by spaces, into buf. */
static const char *listing(char *buf, size_t cap) {
  struct dirent **names = NULL;
  int n = scandir(dir, &names, NULL, alphasort);
  ck_assert_int_ge(n, 0);
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < n; i++) {
    if (names[i]->d_name[0] != '.' && k < cap)
      k += (size_t)snprintf(buf + k, cap - k, "%s%s", k ? " " : "", names[i]->d_name);
    free(names[i]);
  }
  free(names);
  return buf;
}

static const char *in_dir(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "%s/%s", dir, name);
  return buf;
}

static void write_text(const char *path, const char *text) { sqz_test_write(path, text, strlen(text)); }

static void setup(void) {
  ctx = sqz_test_context("cpu");
  strcpy(dir, "/tmp/sqz_out_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) {
  sqz_test_remove_tree(dir);
  sqz_context_release(ctx);
}

/* ---- temporaries ---------------------------------------------------------------------------- */
/* A link at every name the writers once used for their temporary ("<out>.tmp") points to a victim:
 * PBM, PNG, .npy and RLE saves never write through it, and leave only their targets behind. */
START_TEST(no_write_through_links) {
  static const char *const outs[] = {"s.pbm", "s.png", "s.npy", "s.rle"};
  char victim[128], link[160], path[128], names[512];
  in_dir(victim, sizeof victim, "victim");
  write_text(victim, "precious\n");
  sqz_field *f = sqz_test_field(ctx, "fractal:sierpinski-triangle:4", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  for (int i = 0; i < 4; i++) {
    snprintf(link, sizeof link, "%s/%s.tmp", dir, outs[i]);
    ck_assert_int_eq(symlink("victim", link), 0);
  }
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_pbm(f, in_dir(path, sizeof path, "s.pbm")));
  int png = sqz_field_save_png(f, in_dir(path, sizeof path, "s.png"));
  ck_assert_msg(png == SQZ_OK || png == SQZ_ERR_UNSUPPORTED, "%s", sqz_last_error(ctx));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(f, in_dir(path, sizeof path, "s.npy")));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_rle(f, in_dir(path, sizeof path, "s.rle"), NULL));
  FILE *fp = fopen(victim, "rb");
  char text[64] = "";
  ck_assert_ptr_nonnull(fgets(text, sizeof text, fp));
  fclose(fp);
  ck_assert_str_eq(text, "precious\n");
  ck_assert_str_eq(listing(names, sizeof names), png == SQZ_OK
                                                     ? "s.npy s.npy.tmp s.pbm s.pbm.tmp s.png s.png.tmp s.rle s.rle.tmp victim"
                                                     : "s.npy s.npy.tmp s.pbm s.pbm.tmp s.png.tmp s.rle s.rle.tmp victim");
  sqz_test_drop(f);
}
END_TEST

static void die_of_signal(int sig) {
  sqz_remove_temporaries();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* A save in progress when SIGTERM arrives: the handler's sqz_remove_temporaries unlinks its
 * temporary, the process dies of the signal, the target never appears. A committed or aborted
 * temporary leaves the table (40 of them, more than its slots, are all registered in turn). */
START_TEST(signal_removes_temporaries) {
  char path[128], names[512];
  in_dir(path, sizeof path, "o.pbm");
  for (int i = 0; i < 40; i++) {
    sqz_atomic_file af;
    SQZ_OK_OR_FAIL(ctx, sqz__atomic_open(ctx, path, &af));
    ck_assert_int_ge(af.slot, 0);
    if (i % 2) sqz__atomic_abort(&af);
    else SQZ_OK_OR_FAIL(ctx, sqz__atomic_commit(ctx, &af));
  }
  ck_assert_str_eq(listing(names, sizeof names), "o.pbm");
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    signal(SIGTERM, die_of_signal);
    sqz_atomic_file af;
    if (sqz__atomic_open(NULL, path, &af) != SQZ_OK || sqz__atomic_write(NULL, &af, "P4\n", 3) != SQZ_OK) _exit(3);
    fflush(af.fp);
    if (access(af.tmp, F_OK) != 0) _exit(4); /* the temporary exists until the signal */
    raise(SIGTERM);
    _exit(5);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "child status %#x", status);
  ck_assert_str_eq(listing(names, sizeof names), "o.pbm");
}
END_TEST

/* ---- targets written in place ---------------------------------------------------------------- */
/* Copies the FIFO's bytes to copy in a child (the reader a save to a FIFO waits for); its pid. */
static pid_t fifo_reader(const char *fifo, const char *copy) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    FILE *in = fopen(fifo, "rb"), *out = fopen(copy, "wb");
    char buf[4096];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    _exit(in && out && fclose(out) == 0 ? 0 : 1);
  }
  return pid;
}

/* 1 when files a and b hold the same bytes. */
static int same_bytes(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int ca = 0, cb = 0, same = fa && fb;
  while (same && (ca = fgetc(fa)) == (cb = fgetc(fb)) && ca != EOF) {}
  same = same && ca == cb;
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* A save to a FIFO, or to a link to one, writes the FIFO in place (its reader gets the file's bytes)
 * instead of renaming a regular file over it; so does a save to a character device (one made with
 * mknod in the test's folder, where that is allowed: never /dev/null itself). No temporary is left;
 * sqz_path_in_place says which targets are written so (not a regular file, a folder or a new name). */
START_TEST(special_files_in_place) {
  char fifo[128], link[128], got[128], ref[128], node[128], names[512];
  in_dir(fifo, sizeof fifo, "fifo");
  in_dir(link, sizeof link, "fifo.link");
  in_dir(got, sizeof got, "got");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  ck_assert_int_eq(symlink("fifo", link), 0);
  sqz_field *f = sqz_test_field(ctx, "fractal:sierpinski-triangle:4", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_pbm(f, in_dir(ref, sizeof ref, "ref.pbm")));
  for (int i = 0; i < 2; i++) {
    pid_t pid = fifo_reader(fifo, got);
    int st = sqz_field_save_pbm(f, i ? link : fifo);
    struct stat sb;
    int kept = lstat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode);
    if (!kept) kill(pid, SIGKILL); /* blocked on the FIFO that is gone */
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    ck_assert_msg(st == SQZ_OK, "save to %s: %s", i ? link : fifo, sqz_last_error(ctx));
    ck_assert_msg(kept, "the save to %s replaced the FIFO", i ? link : fifo);
    ck_assert_msg(same_bytes(ref, got), "the FIFO's reader got other bytes than the file");
  }
  struct stat sb;
  ck_assert(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
  ck_assert_int_eq(sqz_path_in_place(fifo) + sqz_path_in_place(link), 2);
  ck_assert_int_eq(sqz_path_in_place(ref) + sqz_path_in_place(dir), 0);
  ck_assert_int_eq(sqz_path_in_place(in_dir(node, sizeof node, "absent")) + sqz_path_in_place(NULL), 0);
  if (mknod(in_dir(node, sizeof node, "null"), S_IFCHR | 0600, makedev(1, 3)) == 0) {
    SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(f, node));
    ck_assert_msg(lstat(node, &sb) == 0 && S_ISCHR(sb.st_mode), "the save replaced the character device");
    unlink(node);
  }
  ck_assert_str_eq(listing(names, sizeof names), "fifo fifo.link got ref.pbm");
  sqz_test_drop(f);
}
END_TEST

/* ---- images row by row ---------------------------------------------------------------------- */
/* The row form of the index map gives exactly the cells and indices of sqz__layout_index, in
 * increasing x, on every layout of both families. */
START_TEST(layout_rows) {
  static const struct {
    const char *spec, *layouts[6];
  } cases[] = {
      {"triangle:13", {"bb", "compact"}},
      {"tetrahedron:7", {"bb", "compact"}},
      {"fractal:sierpinski-triangle:5", {"bb", "lambda", "compact", "block:2", "block:8", "block:32"}},
      {"fractal:sierpinski-carpet:3", {"bb", "lambda", "compact", "block:3", "block:9"}},
      {"fractal:#.#/.#./#.#:3", {"bb", "compact", "block:3", "block:9"}},
      {"fractal:##/#.:4", {"compact", "block:4"}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int l = 0; l < 6 && cases[c].layouts[l]; l++) {
      sqz_field *f = sqz_test_field(ctx, cases[c].spec, SQZ_U8, cases[c].layouts[l]);
      uint64_t n = sqz_domain_side(f->dom), depth = sqz_domain_dims(f->dom) == 3 ? n : 1, total = 0;
      uint64_t *xs = malloc(n * sizeof *xs), *ix = malloc(n * sizeof *ix);
      for (uint64_t z = 0; z < depth; z++)
        for (uint64_t y = 0; y < n; y++) {
          uint64_t k = sqz__layout_row(f, y, z, xs, ix), j = 0;
          for (uint64_t x = 0; x < n; x++) {
            int64_t want = sqz__layout_index(f, x, y, z);
            if (want < 0) continue;
            ck_assert_msg(j < k && xs[j] == x && ix[j] == (uint64_t)want, "%s %s: cell (%llu, %llu, %llu)",
                          cases[c].spec, cases[c].layouts[l], (unsigned long long)x, (unsigned long long)y,
                          (unsigned long long)z);
            j++;
          }
          ck_assert_uint_eq(j, k);
          total += k;
        }
      ck_assert_uint_eq(total, sqz_domain_cells(f->dom));
      free(xs);
      free(ix);
      sqz_test_drop(f);
    }
}
END_TEST

/* ---- host memory ------------------------------------------------------------------------------ */
/* A folder that mimics /proc and /sys/fs/cgroup: MemAvailable alone, then bounded by a cgroup v2
 * limit of the process's group or of a parent, and by a cgroup v1 memory hierarchy; inactive page
 * cache is reclaimable, so it counts as free. */
static void mkdirs(const char *rel) {
  char path[512], *p;
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
    *p = 0;
    mkdir(path, 0700);
    *p = '/';
  }
  mkdir(path, 0700);
}

static void put(const char *rel, const char *text) {
  char path[512];
  write_text(in_dir(path, sizeof path, rel), text);
}

/* sqz__host_probe of the test's folder, which must find a bound. */
static uint64_t probed(void) {
  uint64_t bytes = 0;
  ck_assert_int_eq(sqz__host_probe(dir, &bytes), 1);
  return bytes;
}

START_TEST(host_probe) {
  uint64_t bytes = 0;
  ck_assert_int_eq(sqz__host_probe(dir, &bytes), 0); /* nothing to read */
  ck_assert_uint_eq(bytes, UINT64_MAX);
  mkdirs("proc/self");
  put("proc/meminfo", "MemTotal:       16000000 kB\nMemFree:         1000000 kB\nMemAvailable:    8000000 kB\n");
  put("proc/self/cgroup", "0::/\n");
  ck_assert_uint_eq(probed(), 8000000ull * 1024);
  /* v2: the group's own limit, then a tighter one on its parent */
  put("proc/self/cgroup", "0::/jobs/run7\n");
  mkdirs("sys/fs/cgroup/jobs/run7");
  put("sys/fs/cgroup/jobs/run7/memory.max", "1073741824\n");
  put("sys/fs/cgroup/jobs/run7/memory.current", "73741824\n");
  put("sys/fs/cgroup/jobs/memory.max", "max\n");
  ck_assert_uint_eq(probed(), 1000000000ull);
  put("sys/fs/cgroup/jobs/memory.max", "600000000\n");
  put("sys/fs/cgroup/jobs/memory.current", "100000000\n");
  ck_assert_uint_eq(probed(), 500000000ull);
  /* inactive page cache counts as free; a usage above the limit leaves nothing */
  put("sys/fs/cgroup/jobs/memory.stat", "anon 1000\nactive_file 5000\ninactive_file 40000000\n");
  ck_assert_uint_eq(probed(), 540000000ull);
  put("sys/fs/cgroup/jobs/memory.current", "700000000\n");
  ck_assert_uint_eq(probed(), 0);
  /* v1: the memory controller's line (with others in its list), "unlimited" written as 2^63 - 4096 */
  put("proc/self/cgroup", "5:cpu,cpuacct:/\n4:memory:/box/a\n0::/\n");
  mkdirs("sys/fs/cgroup/memory/box/a");
  put("sys/fs/cgroup/memory/box/a/memory.limit_in_bytes", "9223372036854771712\n");
  put("sys/fs/cgroup/memory/box/a/memory.usage_in_bytes", "5000\n");
  put("sys/fs/cgroup/memory/box/memory.limit_in_bytes", "300000000\n");
  put("sys/fs/cgroup/memory/box/memory.usage_in_bytes", "100000000\n");
  ck_assert_uint_eq(probed(), 200000000ull);
  put("sys/fs/cgroup/memory/box/memory.stat", "cache 1\ninactive_file 2\ntotal_inactive_file 50000000\n");
  ck_assert_uint_eq(probed(), 250000000ull);
  /* the rlimits only lower what the probe found (the fixture, not the real /proc: the machine's free
   * memory moves between two reads) */
  uint64_t room = 0;
  ck_assert_int_eq(sqz__host_room(dir, &room), 1);
  ck_assert_uint_le(room, 250000000ull);
  /* the real machine: some bound is found */
  uint64_t real = 0;
  ck_assert_int_eq(sqz__host_available(&real), 1);
  ck_assert_uint_gt(real, 0);
}
END_TEST

/* Runs fn in a forked child whose address space is limited to what it uses now plus `room` bytes
 * (RLIMIT_AS); returns the child's exit status (0 = fn returned 0). */
static int with_room(uint64_t room, int (*fn)(void)) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    unsigned long long pages = 0;
    FILE *fp = fopen("/proc/self/statm", "r");
    if (!fp || fscanf(fp, "%llu", &pages) != 1) _exit(90);
    fclose(fp);
    struct rlimit rl = {(rlim_t)(pages * (uint64_t)sysconf(_SC_PAGESIZE) + room),
                        (rlim_t)(pages * (uint64_t)sysconf(_SC_PAGESIZE) + room)};
    if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(91);
    _exit(fn());
  }
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status), "the child died of signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return WEXITSTATUS(status);
}

/* Under RLIMIT_AS with 32 MiB to spare, sqz__host_room reports at most that (plus what the C library
 * maps between the two reads of /proc/self/statm). */
static int room_under_limit(void) {
  uint64_t room = 0;
  if (sqz__host_room(dir, &room) != 1) return 20;
  return room <= ((uint64_t)40 << 20) ? 0 : 21;
}

START_TEST(host_room_rlimit) {
#ifdef SQZ_TEST_ASAN
  return; /* ASan's shadow memory does not live under RLIMIT_AS */
#endif
  ck_assert_int_eq(with_room((uint64_t)32 << 20, room_under_limit), 0);
}
END_TEST

/* Level 13 of the Sierpinski triangle: 8192^2 = 64 MiB as a bounding-box image, 1.6 MB stored. */
static int save_level13(void) {
  char path[128];
  sqz_field *f = NULL;
  sqz_domain *d = NULL;
  if (sqz_domain_parse(ctx, "fractal:sierpinski-triangle:13", &d) != SQZ_OK ||
      sqz_field_create(d, SQZ_U8, "compact", &f) != SQZ_OK || sqz_field_fill_random(f, 0.5, 9) != SQZ_OK)
    return 10;
  if (sqz_field_save_pbm(f, in_dir(path, sizeof path, "big.pbm")) != SQZ_OK) return 11;
  if (sqz_field_load_pbm(f, path) != SQZ_OK) return 12;
  if (sqz_field_save_npy(f, in_dir(path, sizeof path, "big.npy")) != SQZ_OK) return 13;
  if (sqz_field_load_npy(f, path) != SQZ_OK) return 14;
  int png = sqz_field_save_png(f, in_dir(path, sizeof path, "big.png"));
  if (png != SQZ_OK && png != SQZ_ERR_UNSUPPORTED) return 15;
  sqz_field_release(f);
  sqz_domain_release(d);
  return 0;
}

/* PBM, .npy and PNG of a large fractal are written and read within 32 MiB more address space: row
 * by row from the storage, never the 64 MiB bounding-box image. */
START_TEST(images_stream) {
#ifdef SQZ_TEST_ASAN
  return; /* ASan's shadow memory does not live under RLIMIT_AS */
#endif
  ck_assert_int_eq(with_room((uint64_t)32 << 20, save_level13), 0);
  struct stat st;
  char path[128];
  ck_assert_int_eq(stat(in_dir(path, sizeof path, "big.pbm"), &st), 0);
  ck_assert_int_eq((long long)st.st_size, 13 + 8192LL * 1024);
  ck_assert_int_eq(stat(in_dir(path, sizeof path, "big.npy"), &st), 0);
  ck_assert_int_eq((long long)st.st_size, 128 + 8192LL * 8192);
}
END_TEST

/* A cpu field whose two state buffers do not fit fails at creation with the bytes needed and
 * available, before anything is allocated or touched; so does the host copy of sqz_field_read
 * (250 MiB of room: 64 MB of state, 128 MB of caller's array and 40 MiB of ballast leave less than
 * the 64 MB copy). */
static int too_big(void) {
  sqz_field *f = NULL;
  sqz_domain *d = NULL;
  if (sqz_domain_parse(ctx, "triangle:20000", &d) != SQZ_OK) return 20; /* 200 MB per buffer */
  int st = sqz_field_create(d, SQZ_U8, "compact", &f);
  const char *e = sqz_last_error(ctx);
  if (st != SQZ_ERR_OUT_OF_MEMORY) return 21;
  if (!strstr(e, "triangle:20000 in layout compact (two state buffers of 200010000 bytes) needs 400020000 bytes of host memory, "))
    return 22;
  if (!strstr(e, " available")) return 23;
  sqz_domain_release(d);
  /* one buffer fits, a second host copy of it does not */
  if (sqz_domain_parse(ctx, "triangle:4000", &d) != SQZ_OK || sqz_field_create(d, SQZ_F64, "compact", &f) != SQZ_OK)
    return 24; /* 64 MB per buffer */
  void *embedded = malloc(4000ull * 4000 * 8), *ballast = malloc(40u << 20); /* reserved, never touched */
  if (!embedded || !ballast) return 25;
  if (sqz_field_read(f, embedded, 4000ull * 4000 * 8) != SQZ_ERR_OUT_OF_MEMORY) return 26;
  if (!strstr(sqz_last_error(ctx), "triangle:4000: the host copy of the state needs 64016000 bytes of host memory"))
    return 27;
  return 0;
}

START_TEST(memory_checked) {
#ifdef SQZ_TEST_ASAN
  return;
#endif
  ck_assert_int_eq(with_room((uint64_t)250 << 20, too_big), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("outputs");
  TCase *tc = tcase_create("outputs");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, no_write_through_links);
  tcase_add_test(tc, signal_removes_temporaries);
  tcase_add_test(tc, special_files_in_place);
  tcase_add_test(tc, layout_rows);
  tcase_add_test(tc, host_probe);
  tcase_add_test(tc, host_room_rlimit);
  tcase_add_test(tc, images_stream);
  tcase_add_test(tc, memory_checked);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
