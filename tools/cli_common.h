/* cli_common.h — option parsing, context opening, error reporting, JSON output and registry help for the sqz CLI. */
#ifndef SQZ_CLI_COMMON_H
#define SQZ_CLI_COMMON_H
#include <stdint.h>
#include <stdio.h>

#include "sqz.h"

/* Prints "sqz CMD: <message>" and a hint to stderr; returns 2 (usage error). */
int sqz_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reports a failed library call: message, detail; returns 2 for bad input, 1 otherwise. */
int sqz_cli_fail(const char *cmd, sqz_context *ctx, int status);
/* The same report for a failure the CLI found itself, with its own detail. */
int sqz_cli_error(const char *cmd, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Strict numeric option values: an integer is decimal digits only (no blanks, sign or trailing
 * text) and must fit 64 bits; a number is what strtod reads from the whole text (no leading blanks,
 * no trailing text) and must be finite. Each returns 0 and sets *out, or prints a usage error naming
 * the option and the value (and the bound it misses) and returns 2. Ranges are inclusive. */
int sqz_cli_u64_range(const char *cmd, const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out);
int sqz_cli_u64(const char *cmd, const char *opt, const char *text, uint64_t *out); /* any 64-bit value */
int sqz_cli_double(const char *cmd, const char *opt, const char *text, double min, double max, double *out);
/* The bounds of the options every command shares: --steps K <= 2^62; --block RHO <= 1024 (0 = automatic). */
#define SQZ_CLI_STEPS_MAX ((uint64_t)1 << 62)
#define SQZ_CLI_BLOCK_MAX 1024u
/* The checks behind them: NULL and *out set, or why the text is not such a value. */
const char *sqz_cli_u64_text(const char *text, uint64_t *out);
const char *sqz_cli_double_text(const char *text, double *out);
/* Every host allocation of the CLI (free() releases them), and open_memstream (which allocates): the
 * test hook SQZ_FAULT_ALLOC_CLI=N makes the Nth of these calls in the process fail as if memory ran
 * out (SQZ_FAULT_ALLOC=N does the same for the library's; tests/fault.sh). */
void *sqz_cli_malloc(size_t bytes);
void *sqz_cli_calloc(size_t count, size_t size);
void *sqz_cli_realloc(void *p, size_t bytes);
FILE *sqz_cli_memstream(char **text, size_t *len);
/* 1 if path ends in ext (".npy", ".rle", ".h5"; any case). */
int sqz_cli_has_ext(const char *path, const char *ext);
/* Writes s as a JSON string literal. */
void sqz_json_escape(FILE *out, const char *s);
/* ---- the devices (cli_device.c) ---- */
/* Opens a context for --backend/--device (else $SQZ_DEVICE): a number is the backend's Nth device
 * (sqz_cli_device_entry: one past them is exit status 2 naming it), never a name substring; on
 * failure prints why (and the device list for an unknown device) and returns the exit status; 0 on
 * success. */
int sqz_cli_open(const char *cmd, const char *backend, const char *device, sqz_context **ctx);
/* Prints the device list (used by `sqz devices` and on an unknown --device). */
void sqz_cli_print_devices(FILE *out);
/* ---- the library's options (cli_options.c) ---- */
/* --option NAME=VALUE (sqz_cli_opt_option, cli_table.h), repeatable: each checked against the library's table
 * (sqz_option_check) as it is parsed, exit status 2 naming the option and its range. */
/* The --option list ("NAME=VALUE", NULL-terminated) for sqz_context_create_opts. */
const char *const *sqz_cli_options(void);
/* Option name for the CLI's own reads (device, backend, no_trial, ...): the last --option of it, else the
 * environment's SQZ_<NAME>; NULL when neither. */
const char *sqz_cli_option(const char *name);
/* Records the options of the run's first context that differ from their defaults; --json writes them as
 * "options": {"temporal": "4", ...} (no key when none). */
void sqz_cli_options_record(const sqz_context *ctx);
/* What sqz_cli_options_record kept, as a JSON object ("" when none): sqz_json_begin writes it as the key "options". */
const char *sqz_cli_options_recorded(void);
/* `sqz help options [--markdown]` (argv[0] "options"): the table of options. */
int sqz_cli_help_options(int argc, char **argv);
/* 1 when stderr is a terminal (progress goes there only then). */
int sqz_cli_progress(void);
/* Monotonic wall clock in seconds. */
double sqz_cli_clock(void);

/* ---- output files, committed together (cli_outputs.c) ----
 * A command writes each output to a unique temporary "<target>.XXXXXX" beside its target (mkstemp:
 * never through an existing name or a link) and, once every output and the run itself succeeded,
 * renames them all over their targets (sqz_cli_commit); on any failure they are all removed and existing
 * targets stay as they were. SIGINT, SIGTERM and SIGHUP remove the temporaries (the CLI's and the library's,
 * sqz_remove_temporaries) before the process dies of the signal (cli_guard.c). */
#define SQZ_CLI_MAX_OUTPUTS 8
/* Reads the umask (the temporaries get the mode fopen would give); main calls it first, before any thread exists. */
void sqz_cli_outputs_init(void);
/* Creates the temporary for target; *tmp is its path (valid until commit or abort), to give to a
 * library save function, which replaces it whole. With fp != NULL *fp is an open stream on it for
 * the command to write. A target that sqz_path_in_place names (a device, FIFO, socket, /dev/fd/N)
 * gets no temporary: *tmp is the target itself, written in place (not atomically) and never
 * renamed over or removed. Returns 0, or the exit status (1) after a message. */
int sqz_cli_output(const char *cmd, const char *target, const char **tmp, FILE **fp);
/* The two halves of sqz_cli_commit: flushes, fsyncs and closes the streams; renames every temporary over its
 * target. Each returns 0, or 1 after a message (the temporaries are removed). */
int sqz_cli_outputs_close(const char *cmd);
int sqz_cli_outputs_rename(const char *cmd);
/* Removes every temporary not committed (a no-op when there is none). */
void sqz_cli_outputs_abort(void);
/* Removes the temporaries of the CLI and the library (async-signal-safe: unlink only). */
void sqz_cli_outputs_remove(void);
/* Before the first step (the outputs are written after the last): each output path given (path NULL:
 * none) must take a temporary in its folder, made and removed again by sqz_cli_output (a missing or
 * unwritable folder: exit status 1 naming the path and the system's reason, as at the end), and no
 * two may name one file, however spelt (x.npy, ./x.npy: exit status 2 naming both). opt names the
 * option in messages. Returns 0 or the exit status after a message; no temporary is left. */
typedef struct {
  const char *opt, *path;
} sqz_cli_path;
int sqz_cli_outputs_check(const char *cmd, const sqz_cli_path *outs, size_t n);

/* ---- guards of a run (cli_guard.c) ---- */
/* Ignores SIGXFSZ (a write past RLIMIT_FSIZE then fails with EFBIG) and installs the handler of SIGINT, SIGTERM
 * and SIGHUP (unless ignored, as under nohup): it kills a running trial, removes the temporaries and dies of the
 * signal. main calls it before any thread exists. */
void sqz_cli_guard_init(void);
/* --timeout SECONDS (text NULL: none): a timer from now after which the run stops, whatever it is doing (a launch
 * that never returns included), with exit status 1 and a message; its temporaries are removed, no target
 * changes. Returns 0, or the exit status after a message (2: not a number of seconds). */
int sqz_cli_timeout(const char *cmd, const char *text);
/* Commits the outputs: closes them (sqz_cli_outputs_close), turns the timeout off, then renames them all over their
 * targets (sqz_cli_outputs_rename). Returns 0, or 1 after a message (the temporaries are removed). */
int sqz_cli_commit(const char *cmd);
/* The trial of a user kernel, before the run opens a device: fork()s a child that runs in a fresh directory
 * of its own (removed afterwards, with whatever a dying compiler wrote there), stdout and stderr discarded;
 * returns -1 in the child, which runs one step of the command on a made state and writes nothing. The
 * parent waits: 0 when the child ended by itself (the run goes on and reports any failure itself), else the
 * exit status 1 after a message naming the kernel file: the child died of a signal (the OpenCL compiler or
 * the kernel crashed), or --timeout passed. SQZ_NO_TRIAL=1 skips it (0). */
int sqz_cli_trial(const char *cmd, const char *kernel);

/* ---- from the library's registries (cli_registry.c) ---- */
/* A command's help on the layouts and maps it takes: the title line, then one line each (name, scope, help) of the
 * layouts of `families` (0: all) but `except` (NULL: none), of the maps that sqz_map_matches keeps for family,
 * dims and backend (0, 0, NULL: all; only_backend: only those restricted to one backend, the fractal tile maps). */
void sqz_cli_help_layouts(FILE *out, const char *title, unsigned families, const char *except);
void sqz_cli_help_maps(FILE *out, const char *title, unsigned family, int dims, const char *backend, int only_backend);
/* Up to max names of the maps that sqz_map_matches keeps (only_backend: only those restricted
 * to one backend, the fractal tile maps); returns how many. The names are the library's. */
int sqz_cli_maps(unsigned family, int dims, const char *backend, int only_backend, const char **names, int max);
/* 1 when the first len characters of name are one of the n names. */
int sqz_cli_map_in(const char *name, size_t len, const char *const *names, int n);
/* 1 when the registry marks map `name` as a default. */
int sqz_cli_map_default(const char *name);
/* The layouts of dom's family as "bb,lambda,block:4,...,compact" into buf, patterns (block:RHO)
 * expanded to RHO = s^j <= 32 with j <= R; SQZ_CLI_LAYOUTS_BENCH: for any j, and for s = 2 only
 * 4 and 16; SQZ_CLI_LAYOUTS_TILES: only the expanded patterns. */
#define SQZ_CLI_LAYOUTS_BENCH 1
#define SQZ_CLI_LAYOUTS_TILES 2
void sqz_cli_layouts(const sqz_domain *dom, int flags, char *buf, size_t len);
/* Bytes of one stored cell of a layout relative to a byte per cell (1, or 1/8 for layout bits): the
 * benchmarks scale their copy floor by it. A row name LAYOUT/MAP counts as LAYOUT; 1 when unknown. */
double sqz_cli_cell_scale(const sqz_domain *dom, const char *layout);

/* ---- a user kernel's settings, for run, heat and bench (tools/cli_kernel.c) ---- */
/* --type u8|i32|f32|f64 (floats_only: f32|f64): 0 and *t, or 2 after a message naming the value. */
int sqz_cli_parse_type(const char *cmd, const char *text, int floats_only, sqz_type *t);
/* --param v1,v2,...: finite numbers, comma-separated (text NULL: none); *out to free(). 0 or the exit status. */
int sqz_cli_parse_params(const char *cmd, const char *text, double **out, size_t *n);
/* The kernel's OpenCL C text (at most 16 MiB, no NUL byte) into *out (to free()); opt names the option in
 * messages ("--kernel"). 0, or the exit status after a message (2: missing, unreadable or too large). */
int sqz_cli_read_kernel(const char *cmd, const char *opt, const char *path, char **out);

/* ---- shared by life, run and heat (tools/cli_run.c) ---- */
/* A state file by extension: .h5 (checkpoint: workload and step come back), .npy, .rle and .cells
 * (at 0,0), else PBM. */
int sqz_cli_load_state(sqz_field *f, const char *path, char *workload, size_t workload_len, uint64_t *step);
/* Writes f into tmp in the format of target's extension (workload: the rule or kernel; step: the
 * step count a checkpoint records). */
int sqz_cli_save_state(sqz_field *f, const char *target, const char *tmp, const char *workload, uint64_t step);
/* The step count the output checkpoint will record, step0 (an .h5 --init's) + steps, must fit 64 bits: 0, else exit
 * status 2 after a message naming both (before the first step, not wrapped after the last). */
int sqz_cli_step_count(const char *cmd, const char *init, uint64_t step0, uint64_t steps);
/* A heat sum's status (sqz_field_sum): finite values whose sum passes the type's range (SQZ_ERR_TOO_LARGE) are
 * no failure of the run, the sum NaN (null in --json); any other status as it is. */
int sqz_cli_sum_ok(int status, double *sum);
/* The progress bar on stderr for the steps of ctx (on a terminal, unless quiet, once a second has passed). */
void sqz_cli_progress_start(sqz_context *ctx, const char *label, int quiet);
/* --observe, --observe-out, --frames and --every K checked together (sqz_cli_observe_check, then sqz_cli_frames_check
 * where --frames or no --observe takes --every); 0 or the exit status. */
typedef struct sqz_cli_obs sqz_cli_obs;
int sqz_cli_every_check(const char *cmd, const sqz_cli_obs *obs, const char *frames, uint64_t every);
/* --frames DIR --every K: both or neither, DIR a writable directory, made (one level) when missing, that takes
 * the first frame's temporary (made and removed again: exit status 1 as for --out); 0 or the exit status. */
int sqz_cli_frames_check(const char *cmd, const char *dir, uint64_t every);
/* DIR/frame_<step>.png of f (downscaled to png_size when not 0). */
int sqz_cli_frame(sqz_field *f, const char *dir, uint64_t step, uint64_t png_size);

/* Runs `steps` steps of f through step(), all at once, or with frames in chunks of `every` with
 * DIR/frame_<n>.png before the first and after each chunk; kernel and wall times summed. */
typedef int (*sqz_cli_step_fn)(sqz_field *f, uint64_t steps, void *user);
int sqz_cli_steps(sqz_context *ctx, sqz_field *f, uint64_t steps, sqz_cli_step_fn step, void *user, const char *frames,
                  uint64_t every, uint64_t png_size, double *kernel_s, double *wall_s);

/* Minimal JSON writer: one object on one line. */
typedef struct {
  FILE *out;
  int n;
} sqz_json;

/* ---- --parts P and --devices LIST (tools/cli_parts.c) ---- */
#define SQZ_CLI_MAX_DEVICES 64
typedef struct {
  uint64_t parts;       /* --parts P (0: automatic, one buffer where it fits) */
  const char *devices;  /* --devices LIST */
  char *text;           /* the list split in place */
  sqz_context *ctxs[SQZ_CLI_MAX_DEVICES];
  size_t n_ctx;         /* contexts opened for a list (0: the run's one context) */
} sqz_cli_parts;
/* --parts P and --devices LIST: sqz_cli_opt_parts and sqz_cli_opt_devices (cli_table.h). */
/* Opens the run's context: sqz_cli_open, or with a device list (--devices, or a --device or
 * SQZ_DEVICE holding commas: 0,1 or 0:0,0:1) one context per entry, *ctx the first; a bare number
 * N is the backend's Nth device in `sqz devices` order. Returns 0 or the exit status after a message. */
int sqz_cli_parts_open(const char *cmd, sqz_cli_parts *o, const char *backend, const char *device, sqz_context **ctx);
/* The run's field: in --parts parts and on the listed devices, else sqz_field_create (which splits
 * a field above the device's allocation limit itself). A library status. */
int sqz_cli_parts_field(const sqz_cli_parts *o, sqz_domain *dom, sqz_type type, const char *layout, sqz_field **f);
/* --json keys parts, halo_bytes_per_step, devices and the steps' times (exchange_s, halo_wait_s,
 * inner_s, border_s); the text summary's lines (fields in parts only; ranks > 0: a field on MPI
 * ranks, f the rank's). */
void sqz_cli_parts_json(sqz_json *j, const sqz_field *f, const sqz_cli_parts *o);
/* The engine path of f's last step and the faster paths skipped with their reasons (sqz_field_engine): the
 * --json keys "engine" and "skipped", or the lines "engine" and "skipped" of the text output (none when empty). */
void sqz_cli_engine_json(sqz_json *j, const sqz_field *f);
void sqz_cli_engine_print(const sqz_field *f);
void sqz_cli_parts_print(const sqz_field *f, const sqz_cli_parts *o, int ranks);
void sqz_cli_parts_close(sqz_cli_parts *o);
/* A device list entry of digits only is the Nth device of the backend in `sqz devices` order (*dev its id, written
 * into id); other entries (P:D, a name) go to the library as --device does (*dev = entry). A number past the
 * backend's devices is exit status 2 after a message naming it, never a match of its digits in a device name
 * ("1" in "avx512", which ran two contexts on one device). Returns 0 or the exit status. */
int sqz_cli_device_entry(const char *cmd, const char *backend, const char *entry, char *id, size_t len,
                         const char **dev);
void sqz_json_begin(sqz_json *j, FILE *out);
void sqz_json_str(sqz_json *j, const char *key, const char *value);
void sqz_json_u64(sqz_json *j, const char *key, uint64_t value);
void sqz_json_num(sqz_json *j, const char *key, double value);
/* Raw value (already JSON: a nested object or array). */
void sqz_json_raw(sqz_json *j, const char *key, const char *json);
void sqz_json_end(sqz_json *j);
/* A JSON array "[row 0, row 1, ...]" whose rows are written by row(out, i, user), as one
 * malloc'ed string (the caller frees it); NULL when out of memory. */
char *sqz_json_rows(int n, void (*row)(FILE *out, int i, void *user), void *user);
#endif
