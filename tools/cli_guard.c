/* cli_guard.c — what keeps a run from taking sqz down, running for ever or leaving half-written files: the signals, --timeout, the commit of the outputs and the trial step of a user kernel in a child process. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, strsignal */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_common.h"

static volatile sig_atomic_t sqz_guard_child; /* the trial's process, 0 when none runs */
static volatile sig_atomic_t sqz_guard_fired; /* the timeout passed while the trial ran */
static volatile sig_atomic_t sqz_guard_off;   /* the outputs are being committed: the timeout no longer stops the run */
static char sqz_guard_msg[512];               /* written by the timer's handler */
static size_t sqz_guard_len;

static void sqz__guard_kill(void) {
  if (sqz_guard_child > 0) kill((pid_t)sqz_guard_child, SIGKILL);
}

/* The timeout passed. During the trial the parent waits in waitpid: the child is killed and the wait reports it.
 * Else the run stops here, whatever it is doing (a launch that never returns included): the temporaries are
 * removed, so no target changes. Async-signal-safe: kill, unlink (sqz_cli_outputs_remove), write, _exit. */
static void sqz__guard_alarm(int sig) {
  (void)sig;
  if (sqz_guard_off) return;
  if (sqz_guard_child > 0) {
    sqz_guard_fired = 1;
    sqz__guard_kill();
    return;
  }
  sqz_cli_outputs_remove();
  if (write(STDERR_FILENO, sqz_guard_msg, sqz_guard_len) < 0) sqz_guard_len = 0;
  _exit(1);
}

/* SIGINT, SIGTERM, SIGHUP: the trial (if any) is killed, every temporary removed, then the process dies of the
 * signal (the default action, so the parent sees how the command ended). Async-signal-safe: kill, unlink,
 * signal and raise only. */
static void sqz__guard_on_signal(int sig) {
  sqz__guard_kill();
  sqz_cli_outputs_remove();
  signal(sig, SIG_DFL);
  raise(sig);
}

void sqz_cli_guard_init(void) {
  /* A write past RLIMIT_FSIZE (a full quota, `ulimit -f`) fails with EFBIG, reported with the
   * system's reason and the temporaries removed, instead of killing the process with SIGXFSZ. */
  signal(SIGXFSZ, SIG_IGN);
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sqz__guard_on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue; /* nohup: stay ignored */
    sigaction(sigs[i], &sa, NULL);
  }
}

int sqz_cli_timeout(const char *cmd, const char *text) {
  double s = 0;
  if (!text) return 0;
  if (sqz_cli_double(cmd, "--timeout", text, 1e-3, 1e9, &s)) return 2;
  snprintf(sqz_guard_msg, sizeof sqz_guard_msg,
           "sqz %s: --timeout %s s passed before the run ended: stopped (exit 1); no output was written or replaced\n",
           cmd, text);
  sqz_guard_len = strlen(sqz_guard_msg);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = sqz__guard_alarm; /* no SA_RESTART: the trial's waitpid returns */
  sigemptyset(&sa.sa_mask);
  struct itimerval t = {{0, 0}, {(time_t)s, (suseconds_t)((s - (double)(time_t)s) * 1e6)}};
  if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
  if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &t, NULL) != 0)
    return sqz_cli_error(cmd, SQZ_ERR_IO, "--timeout %s: cannot set a timer: %s", text, strerror(errno));
  return 0;
}

int sqz_cli_commit(const char *cmd) {
  int rc = sqz_cli_outputs_close(cmd);
  if (rc) return rc;
  sqz_guard_off = 1; /* the outputs are complete: --timeout no longer stops the run half-way through renaming them */
  struct itimerval t = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &t, NULL);
  return sqz_cli_outputs_rename(cmd);
}

static int sqz__guard_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

/* In the child: the trial's own working directory (files a dying compiler writes there, as PoCL's
 * <kernel>.dot, go with it), no output on the terminal (the run itself reports). */
static void sqz__trial_child(const char *dir) {
  int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    close(null);
  }
  if (chdir(dir) != 0) _exit(0); /* no trial: the run goes on unchecked */
}

/* The parent's end of the trial: waits for the child, removes its directory; 0 when the child ended by itself,
 * else the exit status after a message (it died of a signal, or the timeout passed). */
static int sqz__trial_wait(const char *cmd, const char *kernel, pid_t pid, const char *dir) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
  sqz_guard_child = 0;
  nftw(dir, sqz__guard_rm, 16, FTW_DEPTH | FTW_PHYS);
  if (sqz_guard_fired) {
    if (write(STDERR_FILENO, sqz_guard_msg, sqz_guard_len) < 0) return 1;
    return 1;
  }
  if (!WIFSIGNALED(status)) return 0;
  fprintf(stderr,
          "sqz %s: --kernel %s: the OpenCL compiler or the kernel crashed a trial step in a child process (signal %d, "
          "%s); nothing was run or written\n",
          cmd, kernel, WTERMSIG(status), strsignal(WTERMSIG(status)));
  return 1;
}

int sqz_cli_trial(const char *cmd, const char *kernel) {
  if (sqz_cli_option("no_trial") && strcmp(sqz_cli_option("no_trial"), "1") == 0) return 0;
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/sqz-trial.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return 0; /* no trial where the platform gives no directory or process for it */
  fflush(stdout);
  fflush(stderr);
  sigset_t alarm, old;
  sigemptyset(&alarm);
  sigaddset(&alarm, SIGALRM);
  sigprocmask(SIG_BLOCK, &alarm, &old); /* the timer's handler sees the child's pid, or no child at all */
  pid_t pid = fork();
  if (pid > 0) sqz_guard_child = pid;
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (pid == 0) {
    sqz__trial_child(dir);
    return -1;
  }
  if (pid < 0) {
    rmdir(dir);
    return 0;
  }
  return sqz__trial_wait(cmd, kernel, pid, dir);
}
