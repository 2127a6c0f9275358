/* cli_exec.c — the run of sqz life, run and heat in stages: before the device, the context and domain, the field and its initial state, the steps on one process or on MPI ranks, the outputs, the report's shared keys and lines. */
#include "cli_exec.h"

#include <stdlib.h>

static int sqz__exec_fail(sqz_cli_exec *e) { return sqz_cli_fail(e->cmd, e->ctx, e->st); }

int sqz_cli_exec_prepare(sqz_cli_exec *e) {
  const sqz_cli_set *o = e->o;
  int rc = sqz_cli_timeout(e->cmd, o->timeout);
  e->ranks = sqz_cli_mpi_ranks();
  e->root = sqz_cli_mpi_rank() == 0;
  if (rc == 0 && e->ranks > 1) rc = sqz_cli_mpi_options(e->cmd, o->parts.parts, o->map, o->block, o->frames);
  const sqz_cli_path outs[] = {{"--out", o->out}, {"--png", o->png}, {"--observe-out", o->obs.out}};
  if (rc == 0 && e->root) rc = sqz_cli_outputs_check(e->cmd, outs, 3); /* before the steps */
  return rc;
}

int sqz_cli_exec_open(sqz_cli_exec *e) {
  sqz_cli_set *o = e->o;
  int rc;
  e->t0 = sqz_cli_clock();
  if (e->ranks > 1) /* one device per rank: --device or --devices LIST picked by node-local rank */
    rc = sqz_cli_mpi_open(e->cmd, o->backend, o->parts.devices ? o->parts.devices : o->device, &e->ctx);
  else
    rc = sqz_cli_parts_open(e->cmd, &o->parts, o->backend, o->device, &e->ctx);
  if (rc) return rc;
  if ((e->st = sqz_domain_parse(e->ctx, o->domain, &e->dom)) != SQZ_OK) return sqz__exec_fail(e);
  if (e->random && (rc = sqz_cli_gen_check(e->cmd, e->init, &e->gen, sqz_domain_dims(e->dom))) != 0) return rc;
  return sqz_cli_observe_begin(e->cmd, e->ctx, &o->obs, e->dom, o->layout, e->root);
}

int sqz_cli_exec_field(sqz_cli_exec *e) {
  const sqz_cli_set *o = e->o;
  /* on ranks, rank 0's field holds the state for files only: random states are made on the parts */
  if (e->ranks > 1 && !(e->root && (!e->random || o->out || o->png))) return 0;
  e->st = sqz_cli_parts_field(&o->parts, e->dom, e->type, o->layout, &e->f);
  if (e->st == SQZ_OK && o->map) e->st = sqz_field_set_map(e->f, o->map);
  if (e->st == SQZ_OK && o->block) e->st = sqz_field_set_block(e->f, (uint32_t)o->block);
  return e->st == SQZ_OK ? 0 : sqz__exec_fail(e);
}

int sqz_cli_exec_init(sqz_cli_exec *e, sqz_cli_load_fn load, void *user) {
  if (e->f && (e->ranks == 1 || !e->random)) {
    e->st = e->random ? sqz_cli_gen_apply(e->f, &e->gen) : load(e, user);
    if (e->st == (e->random ? SQZ_ERR_INVALID_ARGUMENT : SQZ_ERR_IO)) { /* a point off the domain, an unreadable file */
      sqz__exec_fail(e);
      return 2;
    }
    if (e->st != SQZ_OK) return sqz__exec_fail(e);
  }
  return sqz_cli_step_count(e->cmd, e->init, e->step0, e->o->steps);
}

int sqz_cli_exec_agree(sqz_cli_exec *e, const sqz_cli_kv *kv, size_t n, char *text, size_t len) {
  if (e->ranks == 1) return 0;
  sqz_cli_mpi_config(e->cmd, kv, n);
  return sqz_cli_mpi_agree(SQZ_CLI_MPI_BEGIN, 0, text, len);
}

int sqz_cli_exec_steps(sqz_cli_exec *e, sqz_cli_mpi_job *job, sqz_cli_step_fn step, void *user) {
  sqz_cli_set *o = e->o;
  sqz_cli_progress_start(e->ctx, e->cmd, o->quiet || o->json);
#ifdef SQZ_HAVE_MPI
  if (e->ranks > 1) {
    job->gen = e->random ? &e->gen : NULL;
    job->gather = o->out || o->png;
    job->parts = o->parts.parts;
    job->obs = &o->obs;
    job->every = o->every;
    e->st = sqz_cli_mpi_run(e->ctx, e->dom, e->type, o->layout, e->f, job, o->steps, &e->mf);
    e->kernel_s = job->kernel_s;
    e->wall_s = job->wall_s;
    e->ranks_json = job->ranks_json;
    e->nonzero = job->nonzero;
    return e->st == SQZ_OK ? 0 : sqz__exec_fail(e);
  }
#else
  (void)job;
#endif
  e->st = sqz_cli_observe_start(&o->obs, e->ctx, e->f, e->step0, o->every);
  if (e->st == SQZ_OK)
    e->st = sqz_cli_steps(e->ctx, e->f, o->steps, step, user, o->frames, o->every, o->png_size, &e->kernel_s,
                          &e->wall_s);
  return e->st == SQZ_OK ? 0 : sqz__exec_fail(e);
}

int sqz_cli_exec_outputs(sqz_cli_exec *e, const char *workload) {
  const sqz_cli_set *o = e->o;
  const char *out_tmp = NULL, *png_tmp = NULL; /* every output to a temporary, renamed together at the end */
  if (!e->mf && (e->st = sqz_field_count(e->f, &e->nonzero)) != SQZ_OK) return sqz__exec_fail(e);
  int rc = o->out ? sqz_cli_output(e->cmd, o->out, &out_tmp, NULL) : 0;
  if (rc == 0 && o->png) rc = sqz_cli_output(e->cmd, o->png, &png_tmp, NULL);
  if (rc) return rc;
  if (o->out) e->st = sqz_cli_save_state(e->f, o->out, out_tmp, workload, e->step0 + o->steps);
  if (e->st == SQZ_OK && o->png) e->st = sqz_field_save_png_range(e->f, png_tmp, o->png_size, &e->png_min, &e->png_max);
  return e->st == SQZ_OK ? sqz_cli_commit(e->cmd) : sqz__exec_fail(e);
}

sqz_field *sqz_cli_exec_shown(const sqz_cli_exec *e) { return e->mf ? e->mf : e->f; }

/* The cells updated per second of kernel time (0 when no time was measured). */
static double sqz__exec_rate(const sqz_cli_exec *e) {
  return e->kernel_s > 0 ? (double)sqz_domain_cells(e->dom) * (double)e->o->steps / e->kernel_s : 0.0;
}

void sqz_cli_exec_json_head(const sqz_cli_exec *e, sqz_json *j) {
  sqz_field *shown = sqz_cli_exec_shown(e);
  sqz_json_str(j, "domain", sqz_domain_spec(e->dom));
  sqz_json_str(j, "layout", sqz_field_layout(shown));
  sqz_json_str(j, "map", sqz_field_map_resolved(shown));
}

void sqz_cli_exec_json_counts(const sqz_cli_exec *e, sqz_json *j, const char *count) {
  sqz_json_u64(j, "cells", sqz_domain_cells(e->dom));
  sqz_json_u64(j, "steps", e->o->steps);
  sqz_json_u64(j, count, e->nonzero);
}

void sqz_cli_exec_json_tail(const sqz_cli_exec *e, sqz_json *j) {
  sqz_field *shown = sqz_cli_exec_shown(e);
  double total_s = sqz_cli_clock() - e->t0;
  sqz_json_num(j, "kernel_s", e->kernel_s);
  sqz_json_num(j, "wall_s", e->wall_s);
  sqz_json_num(j, "total_s", total_s);
  sqz_json_num(j, "setup_s", total_s - e->wall_s);
  sqz_json_num(j, "cells_per_s", sqz__exec_rate(e));
  sqz_json_u64(j, "bytes", sqz_field_bytes(shown));
  sqz_cli_parts_json(j, shown, &e->o->parts);
  sqz_json_str(j, "backend", sqz_context_backend(e->ctx));
  sqz_json_str(j, "device", sqz_context_device_name(e->ctx));
  sqz_cli_engine_json(j, shown);
  if (e->ranks_json) {
    sqz_json_u64(j, "mpi_ranks", (uint64_t)e->ranks);
    sqz_json_raw(j, "ranks", e->ranks_json);
  }
}

void sqz_cli_exec_text_head(const sqz_cli_exec *e, const char *what, const char *label) {
  sqz_field *shown = sqz_cli_exec_shown(e);
  printf("domain   %s (%llu cells)\nlayout   %s, map %s, %s\n", sqz_domain_spec(e->dom),
         (unsigned long long)sqz_domain_cells(e->dom), sqz_field_layout(shown),
         *sqz_field_map(shown) ? sqz_field_map(shown) : "default", what);
  printf("steps    %llu\n%-8s %llu\n", (unsigned long long)e->o->steps, label, (unsigned long long)e->nonzero);
}

void sqz_cli_exec_text_tail(const sqz_cli_exec *e, int memory) {
  sqz_field *shown = sqz_cli_exec_shown(e);
  printf("kernel   %.6f s (%.3g cells/s)\nwall     %.6f s for the steps, %.6f s in all\n", e->kernel_s,
         sqz__exec_rate(e), e->wall_s, sqz_cli_clock() - e->t0);
  if (memory) printf("memory   %llu bytes\n", (unsigned long long)sqz_field_bytes(shown));
  printf("device   %s (%s)\n", sqz_context_device_name(e->ctx), sqz_context_backend(e->ctx));
  sqz_cli_engine_print(shown);
  sqz_cli_parts_print(shown, &e->o->parts, e->mf ? e->ranks : 0);
}

int sqz_cli_exec_end(sqz_cli_exec *e, int rc) {
  rc = sqz_cli_mpi_agree(SQZ_CLI_MPI_END, rc, NULL, 0);
  free(e->ranks_json);
  sqz_cli_outputs_abort();
  sqz_field_release(e->mf);
  sqz_field_release(e->f);
  sqz_domain_release(e->dom);
  sqz_context_release(e->ctx);
  sqz_cli_parts_close(&e->o->parts);
  return rc;
}
