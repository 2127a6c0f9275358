/* options.c — the table of tuning options, their values from the environment (read through env.c), the API and each layer's read of them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine_paths.h"
#include "core/env.h"
#include "core/sqz_internal.h"

typedef enum { SQZ_OT_COUNT, SQZ_OT_CHOICE, SQZ_OT_FLAG, SQZ_OT_BYTES, SQZ_OT_TEXT } sqz_opt_type;
static const char *const sqz_type_names[] = {"count", "choice", "flag", "bytes", "text"};

#define COUNT(lo, hi) #lo ".." #hi, SQZ_OT_COUNT, lo, hi
#define CHOICE(words) words, SQZ_OT_CHOICE, 0, 0
#define FLAG "0|1", SQZ_OT_FLAG, 0, 1
#define BYTES "N[K|M|G|T][i][B]", SQZ_OT_BYTES, 0, 0
#define TEXT(what) what, SQZ_OT_TEXT, 0, 0

/* In the order of sqz_opt (options.h). */
static const struct {
  const char *name, *range;
  sqz_opt_type type;
  uint64_t lo, hi;
  const char *def, *help, *layer, *scope;
} sqz_rows[SQZ_OPT_COUNT] = {
    {"backend", CHOICE("opencl|cpu|cuda"), "opencl, else cpu when no OpenCL platform exists",
     "the backend of a context made without one", "core", "creation"},
    {"device", TEXT("P:D|N|name part"), "the first GPU, else the first device",
     "device of a context made without one (the CLI also takes a comma list: parts on several devices)", "core",
     "creation"},
    {"require_opencl", FLAG, "0", "1: never fall back to the cpu backend when no OpenCL device exists", "core",
     "creation"},
    {"max_alloc", BYTES, "the device's allocation limit",
     "largest buffer of a field (powers of 1024): larger fields are split into parts", "core", "context"},
    {"cache_dir", TEXT("path"), "$XDG_CACHE_HOME/sqz, else ~/.cache/sqz", "the on-disk program cache", "opencl",
     "context"},
    {"no_cache", FLAG, "0", "1: do not read or write the on-disk program cache", "opencl", "context"},
    {"dump_kernels", TEXT("path"), "none", "write every generated kernel source to this folder (failed builds too)",
     "opencl", "context"},
    {"build_options", TEXT("text"), "none", "extra OpenCL build options, appended", "opencl", "context"},
    {"sync", FLAG, "0", "1: wait for every launch and fill, naming the one that fails (slow, for debugging)",
     "opencl", "context"},
    {"debug", FLAG, "0", "1: write each failure's detail, and each changed engine path, to stderr", "core",
     "context"},
    {"engine", CHOICE("fast|generic|PATH"), "fast",
     "generic: the per-cell engine kernels instead of the word, row and box steps (same states); a path's name "
     "(sqz_engine_path): that path, else the step fails naming why it does not apply (exit 2)",
     "core, opencl", "field"},
    {"temporal", COUNT(1, 8), "fractal word step: 4 on GPUs, 1 on CPU devices (at most 4); box steps: 8",
     "steps per launch (same states for every value)", "core, opencl", "field"},
    {"swar_word", CHOICE("8|32|64"), "32 on GPUs, 8 on CPU devices",
     "word of the fast u8 Life steps (fractal tiles and tetrahedra: 64 counts as 32)", "opencl", "context"},
    {"index64", FLAG, "0", "1: simplex kernels use 64-bit indices even where 32 bits suffice", "opencl", "context"},
    {"fractal_step", CHOICE("boxes|words"), "boxes on GPUs and on CPU devices where the plan is a list",
     "u8 compact fractal Life on OpenCL by the box step on bytes or by the word step", "opencl", "field"},
    {"tetra_chunk", COUNT(1, 65536), "16 in compact, 64 in bb",
     "rows of a plane per work-item of the tetrahedron word step (32-bit words)", "opencl", "field"},
    {"tetra_variant", COUNT(0, 2), "2",
     "tetrahedron word step: 2 two planes a work-item, 1 the same with PTX byte permutes on NVIDIA, 0 one plane",
     "opencl", "field"},
    {"tetra_local_x", COUNT(1, 128), "32", "work-items along x of a group of the two-plane tetrahedron step",
     "opencl", "field"},
    {"bits_step", CHOICE("list|window|lanes"), "the list where boxes have side 8, else the window",
     "plan of the fractal box step (lanes: layout bits by lanes where they fit in local memory)", "core, opencl",
     "context"},
    {"bits_q", COUNT(0, 7), "the largest box level that fits",
     "a smaller sub-tile box level of layout bits on fractals (values from the default up: the default)", "core",
     "context"},
    {"bits_hoist", FLAG, "1 on GPUs, 0 on CPU devices", "the list step keeps its neighbour entries in registers",
     "opencl", "context"},
    {"bits_lanes", COUNT(1, 4096), "the multiple of 32 up to 128 (GPUs) or 256 that idles least",
     "work-items of a group of the list step (past the device's group size: the default)", "opencl", "context"},
    {"bits_plan_out", TEXT("path"), "none", "the bits fractal step writes its launch to this file (scripts/ncu_bits.sh)",
     "opencl", "context"},
    {"edm_fp32", FLAG, "0", "1: sqz_edm on OpenCL uses the scaled float form even where the device has fp64",
     "opencl", "context"},
    {"exchange_steps", COUNT(1, 4), "2 on several devices and for bits in one process, else 1",
     "steps between halo exchanges of a field in parts (read when the field is made)", "core", "context"},
    {"overlap", FLAG, "1 on several contexts and MPI ranks, 0 on one",
     "0: exchange, then step; 1: inner rows while the halos travel (read when the field is made)", "core",
     "context"},
    {"no_trial", FLAG, "0", "1: sqz run skips the trial step of --kernel in a child process", "cli", "context"},
    {"fault_alloc", COUNT(0, 18446744073709551615u), "0 (never)",
     "test hook: the library's Nth host allocation fails (tests/fault.sh)", "core", "process"},
    {"fault_alloc_cli", COUNT(0, 18446744073709551615u), "0 (never)",
     "test hook: the CLI's Nth allocation fails (tests/fault.sh)", "cli", "process"},
};

static sqz_option_info sqz_infos[SQZ_OPT_COUNT];
static pthread_once_t sqz_infos_once = PTHREAD_ONCE_INIT;

static void sqz__infos_fill(void) {
  for (size_t i = 0; i < SQZ_OPT_COUNT; i++)
    sqz_infos[i] = (sqz_option_info){sqz_rows[i].name, sqz_type_names[sqz_rows[i].type], sqz_rows[i].range,
                                     sqz_rows[i].def,  sqz_rows[i].help, sqz_rows[i].layer, sqz_rows[i].scope};
}

size_t sqz_option_count(void) { return SQZ_OPT_COUNT; }

const sqz_option_info *sqz_option_at(size_t i) {
  pthread_once(&sqz_infos_once, sqz__infos_fill);
  return i < SQZ_OPT_COUNT ? &sqz_infos[i] : NULL;
}

static int sqz__opt_find(const char *name) {
  for (int i = 0; name && i < SQZ_OPT_COUNT; i++)
    if (strcmp(name, sqz_rows[i].name) == 0) return i;
  return -1;
}

/* Option id's text in the environment (env.c), NULL when unset or empty. */
static const char *sqz__opt_env(sqz_opt id) { return sqz__env(sqz_rows[id].name); }

const char *sqz_option_env(const char *name) {
  int i = sqz__opt_find(name);
  return i < 0 ? NULL : sqz__opt_env((sqz_opt)i);
}

/* A byte count, then an optional unit K, M, G or T (powers of 1024) and an optional B or iB, any case. */
static int sqz__opt_bytes(const char *p, uint64_t *bytes) {
  static const char units[] = "kmgt";
  uint64_t n = 0;
  if (*p < '0' || *p > '9') return 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return 0;
    n = n * 10 + (uint64_t)(*p - '0');
  }
  const char *u = *p ? strchr(units, tolower((unsigned char)*p)) : NULL;
  int shift = u ? 10 * (int)(u - units + 1) : 0;
  if (u && tolower((unsigned char)*++p) == 'i' && tolower((unsigned char)*++p) != 'b') return 0; /* iB, not i */
  if (tolower((unsigned char)*p) == 'b') p++;
  if (*p || (shift && n > UINT64_MAX >> shift)) return 0;
  *bytes = n << shift;
  return 1;
}

/* 1 with *num set when text is a value of option i (engine: fast 0, generic 1, a path's name 2). */
static int sqz__opt_parse(int i, const char *text, uint64_t *num) {
  const char *r = sqz_rows[i].range;
  *num = 0;
  if (i == SQZ_OPT_ENGINE) {
    *num = strcmp(text, "fast") == 0 ? 0 : strcmp(text, "generic") == 0 ? 1 : 2;
    return *num < 2 || sqz__engine_path_known(text);
  }
  switch (sqz_rows[i].type) {
  case SQZ_OT_COUNT:
  case SQZ_OT_FLAG:
    if (!*text || strspn(text, "0123456789") != strlen(text)) return 0;
    for (; *text; text++) {
      if (*num > (UINT64_MAX - (uint64_t)(*text - '0')) / 10) return 0;
      *num = *num * 10 + (uint64_t)(*text - '0');
    }
    return *num >= sqz_rows[i].lo && *num <= sqz_rows[i].hi;
  case SQZ_OT_CHOICE:
    for (size_t len = strlen(text); *r; (*num)++, r += strcspn(r, "|"), r += *r == '|') {
      if (strcspn(r, "|") == len && strncmp(r, text, len) == 0) return 1;
    }
    return 0;
  case SQZ_OT_BYTES: return sqz__opt_bytes(text, num);
  case SQZ_OT_TEXT: return 1;
  }
  return 0;
}

/* SQZ_ERR_INVALID_ARGUMENT for value of option i, from the environment (env) or the API. */
static int sqz__opt_bad(sqz_context *ctx, int i, int env, const char *value) {
  static const char *const expected[] = {"a whole number in ", "one of ", "", "", ""};
  static const char *const bytes = "bytes with an optional unit K, M, G or T (powers of 1024, B or iB may follow, any "
                                   "case: 4096, 512K, 2GiB)";
  const sqz_opt_type t = sqz_rows[i].type;
  char var[64], paths[1536] = "";
  sqz__env_var(sqz_rows[i].name, var, sizeof var);
  if (i == SQZ_OPT_ENGINE) sqz__engine_path_names(paths, sizeof paths);
  return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "%s%s='%s': expected %s%s%s%s (%s%s%ssqz help options)",
                   env ? "" : "option ", env ? var : sqz_rows[i].name, value, expected[t],
                   t == SQZ_OT_BYTES ? bytes : sqz_rows[i].range, *paths ? ", PATH one of " : "", paths,
                   env ? "option " : "", env ? sqz_rows[i].name : "", env ? "; " : "");
}

/* Stores text (a value of option i) in v. */
static int sqz__opt_store(sqz_context *ctx, sqz_opt_values *v, int i, const char *text, uint64_t num) {
  char *copy = NULL;
  if (text && *text) {
    size_t n = strlen(text) + 1;
    if (!(copy = sqz__malloc(n))) return sqz__fail(ctx, SQZ_ERR_OUT_OF_MEMORY, "option %s: out of memory", sqz_rows[i].name);
    memcpy(copy, text, n);
  }
  free(v->text[i]);
  v->text[i] = copy;
  v->num[i] = copy ? num : 0;
  v->gen++;
  return SQZ_OK;
}

int sqz__opt_from_env(sqz_context *ctx, sqz_opt_values *v) {
  for (int i = 0; i < SQZ_OPT_COUNT; i++) {
    const char *text = strcmp(sqz_rows[i].scope, "process") ? sqz__opt_env((sqz_opt)i) : NULL;
    uint64_t num = 0;
    if (text && !sqz__opt_parse(i, text, &num)) return sqz__opt_bad(ctx, i, 1, text);
    int st = text ? sqz__opt_store(ctx, v, i, text, num) : SQZ_OK;
    if (st != SQZ_OK) return st;
  }
  return SQZ_OK;
}

static int sqz__opt_unknown(sqz_context *ctx, const char *name) {
  char names[1024] = "";
  for (int k = 0; k < SQZ_OPT_COUNT; k++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", sqz_rows[k].name);
  return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "unknown option '%s' (the options: %s)", name ? name : "", names);
}

int sqz__opt_set(sqz_context *ctx, sqz_opt_values *v, const char *name, const char *value, int where) {
  int i = sqz__opt_find(name);
  if (i < 0) return sqz__opt_unknown(ctx, name);
  const char *scope = sqz_rows[i].scope;
  if (strcmp(scope, "process") == 0 || (where >= SQZ_OPT_WHERE_CONTEXT && strcmp(scope, "creation") == 0) ||
      (where == SQZ_OPT_WHERE_FIELD && strcmp(scope, "field") != 0))
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "option %s has scope %s: %s", name, scope,
                     strcmp(scope, "process") == 0 ? "read from the environment once per process"
                     : strcmp(scope, "creation") == 0 ? "read when the context is created (sqz_context_create_opts)"
                                                      : "set on the context, not per field");
  uint64_t num = 0;
  if (value && *value && !sqz__opt_parse(i, value, &num)) return sqz__opt_bad(ctx, i, 0, value);
  return sqz__opt_store(ctx, v, i, value, num);
}

void sqz__opt_free(sqz_opt_values *v) {
  for (int i = 0; v && i < SQZ_OPT_COUNT; i++) {
    free(v->text[i]);
    v->text[i] = NULL;
  }
}

/* Where option id is set for f (its override) or ctx (f's context when ctx is NULL); NULL: the default. */
static const sqz_opt_values *sqz__opt_holder(const sqz_context *ctx, const sqz_field *f, sqz_opt id) {
  if (f && f->opts && f->opts->text[id]) return f->opts;
  if (!ctx && f) ctx = f->ctx;
  return ctx && ctx->opts.text[id] ? &ctx->opts : NULL;
}

uint64_t sqz__opt_num(const sqz_context *ctx, const sqz_field *f, sqz_opt id, uint64_t def) {
  const sqz_opt_values *v = sqz__opt_holder(ctx, f, id);
  return v ? v->num[id] : def;
}

const char *sqz__opt_text(const sqz_context *ctx, const sqz_field *f, sqz_opt id) {
  const sqz_opt_values *v = sqz__opt_holder(ctx, f, id);
  return v ? v->text[id] : NULL;
}

int sqz__opt_is(const sqz_context *ctx, const sqz_field *f, sqz_opt id, const char *word) {
  const char *t = sqz__opt_text(ctx, f, id);
  return t && strcmp(t, word) == 0;
}

int sqz_option_check(const char *name, const char *value) {
  sqz_opt_values v = {{0}, {0}, 0};
  sqz__clear_error(NULL);
  int st = sqz__opt_set(NULL, &v, name, value, SQZ_OPT_WHERE_CREATION);
  sqz__opt_free(&v);
  return st;
}

int sqz_context_set_option(sqz_context *ctx, const char *name, const char *value) {
  if (!ctx || !name) return sqz__null_arg(ctx, "sqz_context_set_option");
  sqz__lock(ctx);
  int st = sqz__opt_set(ctx, &ctx->opts, name, value, SQZ_OPT_WHERE_CONTEXT);
  sqz__unlock(ctx);
  return st;
}

int sqz_context_get_option(const sqz_context *ctx, const char *name, char *buf, size_t len) {
  sqz_context *c = (sqz_context *)ctx; /* the detail of a failure, not the options, changes */
  if (!ctx || !name || !buf) return sqz__null_arg(c, "sqz_context_get_option");
  int i = sqz__opt_find(name);
  if (i < 0) return sqz__opt_unknown(c, name);
  sqz__lock(c);
  const char *t = ctx->opts.text[i] ? ctx->opts.text[i] : "";
  int st = strlen(t) < len ? SQZ_OK
                           : sqz__fail(c, SQZ_ERR_INVALID_ARGUMENT, "option %s: its value takes %zu bytes, the buffer %zu",
                                       name, strlen(t) + 1, len);
  if (st == SQZ_OK) memcpy(buf, t, strlen(t) + 1);
  sqz__unlock(c);
  return st;
}

int sqz_field_set_option(sqz_field *f, const char *name, const char *value) {
  if (!f || !name) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_set_option");
  sqz__lock(f->ctx);
  int st = f->opts || (f->opts = sqz__calloc(1, sizeof *f->opts))
               ? sqz__opt_set(f->ctx, f->opts, name, value, SQZ_OPT_WHERE_FIELD)
               : sqz__fail(f->ctx, SQZ_ERR_OUT_OF_MEMORY, "the options of a field");
  sqz__unlock(f->ctx);
  return st;
}
