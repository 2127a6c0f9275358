/* cli_run.c — what sqz life, run and heat share around their steps: state files by extension, the progress bar, animation frames. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_observe.h"
#include "sqz_hdf5.h"

int sqz_cli_load_state(sqz_field *f, const char *path, char *workload, size_t workload_len, uint64_t *step) {
  if (workload && workload_len) workload[0] = 0;
  if (step) *step = 0;
  if (sqz_cli_has_ext(path, ".h5")) return sqz_field_load_h5(f, path, workload, workload_len, step);
  if (sqz_cli_has_ext(path, ".npy")) return sqz_field_load_npy(f, path);
  if (sqz_cli_has_ext(path, ".rle")) return sqz_field_load_rle(f, path, 0, 0);
  if (sqz_cli_has_ext(path, ".cells")) return sqz_field_load_cells(f, path, 0, 0);
  return sqz_field_load_pbm(f, path);
}

/* The pattern name of a .cells target: its file name without the extension. */
static int sqz__save_cells(sqz_field *f, const char *target, const char *tmp) {
  const char *base = strrchr(target, '/');
  base = base ? base + 1 : target;
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)(strlen(base) - strlen(".cells")), base);
  return sqz_field_save_cells(f, tmp, name);
}

int sqz_cli_save_state(sqz_field *f, const char *target, const char *tmp, const char *workload, uint64_t step) {
  if (sqz_cli_has_ext(target, ".h5")) return sqz_field_save_h5(f, tmp, workload, step);
  if (sqz_cli_has_ext(target, ".npy")) return sqz_field_save_npy(f, tmp);
  if (sqz_cli_has_ext(target, ".rle")) return sqz_field_save_rle(f, tmp, workload);
  if (sqz_cli_has_ext(target, ".cells")) return sqz__save_cells(f, target, tmp);
  return sqz_field_save_pbm(f, tmp);
}

int sqz_cli_step_count(const char *cmd, const char *init, uint64_t step0, uint64_t steps) {
  if (step0 <= UINT64_MAX - steps) return 0;
  return sqz_cli_usage(cmd, "--init %s records step %llu: %llu more steps pass 2^64 - 1, the largest step count a "
                            "checkpoint holds", init, (unsigned long long)step0, (unsigned long long)steps);
}

int sqz_cli_sum_ok(int status, double *sum) {
  if (status != SQZ_ERR_TOO_LARGE) return status;
  *sum = NAN;
  return SQZ_OK;
}

/* ---- progress bar: stderr, on a terminal, once a run has lasted a second ------------------- */
typedef struct {
  const char *label;
  double t0;
  int shown;
  uint64_t base, steps; /* the run's steps before the current call (--frames: chunks of K) and in all */
} sqz_cli_bar;
static sqz_cli_bar sqz_bar;

static int sqz__bar(uint64_t done_call, uint64_t total_call, double cells_per_s, void *user) {
  sqz_cli_bar *b = user;
  uint64_t done = b->base + done_call, total = b->steps > total_call ? b->steps : total_call;
  double t = sqz_cli_clock() - b->t0;
  if (t < 1.0 && done < total) return 0;
  if (!b->shown && done == total) return 0; /* finished within the first second: no bar at all */
  double frac = total ? (double)done / (double)total : 1.0, eta = frac > 0 ? t / frac - t : 0;
  int width = 30, fill = (int)(frac * width);
  fprintf(stderr, "\r%s [%.*s%*s] %3d%% %llu/%llu steps, %.3g cells/s, ETA %.0f s ", b->label, fill,
          "##############################", width - fill, "", (int)(frac * 100.0), (unsigned long long)done,
          (unsigned long long)total, cells_per_s, eta);
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
  b->shown = 1;
  return 0;
}

void sqz_cli_progress_start(sqz_context *ctx, const char *label, int quiet) {
  if (quiet || !sqz_cli_progress()) return;
  sqz_bar.label = label;
  sqz_bar.t0 = sqz_cli_clock();
  sqz_bar.shown = 0;
  sqz_bar.base = sqz_bar.steps = 0;
  sqz_context_set_progress(ctx, sqz__bar, &sqz_bar, 0.25);
}

/* ---- frames: a PNG every K steps into DIR ------------------------------------------------------ */
int sqz_cli_frames_check(const char *cmd, const char *dir, uint64_t every) {
  if (!dir) return every ? sqz_cli_usage(cmd, "--every %llu needs --frames DIR", (unsigned long long)every) : 0;
  if (!every) return sqz_cli_usage(cmd, "--frames %s needs --every K (K >= 1)", dir);
  struct stat sb; /* a missing DIR is made (one level, 0777 less the umask) */
  if (stat(dir, &sb) != 0 && (errno != ENOENT || mkdir(dir, 0777) != 0 || stat(dir, &sb) != 0))
    return sqz_cli_usage(cmd, "--frames %s: %s", dir, strerror(errno));
  if (!S_ISDIR(sb.st_mode)) return sqz_cli_usage(cmd, "--frames %s is not a directory", dir);
  if (access(dir, W_OK) != 0) return sqz_cli_usage(cmd, "--frames %s: %s", dir, strerror(errno));
  char first[4096];
  snprintf(first, sizeof first, "%s/frame_%08llu.png", dir, 0ull);
  const sqz_cli_path probe = {"--frames", first};
  return sqz_cli_outputs_check(cmd, &probe, 1);
}

int sqz_cli_every_check(const char *cmd, const sqz_cli_obs *obs, const char *frames, uint64_t every) {
  int rc = sqz_cli_observe_check(cmd, obs, every);
  return rc ? rc : sqz_cli_frames_check(cmd, frames, frames || !obs->n ? every : 0);
}

int sqz_cli_frame(sqz_field *f, const char *dir, uint64_t step, uint64_t png_size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/frame_%08llu.png", dir, (unsigned long long)step);
  return png_size ? sqz_field_save_png_sized(f, path, png_size) : sqz_field_save_png(f, path);
}

int sqz_cli_steps(sqz_context *ctx, sqz_field *f, uint64_t steps, sqz_cli_step_fn step, void *user, const char *frames,
                  uint64_t every, uint64_t png_size, double *kernel_s, double *wall_s) {
  *kernel_s = *wall_s = 0;
  uint64_t chunk = frames ? every : steps, done = 0;
  int st = frames ? sqz_cli_frame(f, frames, 0, png_size) : SQZ_OK;
  while (st == SQZ_OK && (done < steps || (steps == 0 && !frames && done == 0))) {
    uint64_t n = steps - done < chunk ? steps - done : chunk;
    double k = 0, w = 0;
    sqz_bar.base = done; /* the bar counts the whole run, not the chunk */
    sqz_bar.steps = steps;
    st = step(f, n, user);
    if (st == SQZ_OK) sqz_context_timing(ctx, &k, &w);
    *kernel_s += k;
    *wall_s += w;
    done += n;
    sqz_cli_observe_chunk(n); /* the observer's rows count the whole run */
    if (st == SQZ_OK && frames) st = sqz_cli_frame(f, frames, done, png_size);
    if (steps == 0) break;
  }
  return st;
}
