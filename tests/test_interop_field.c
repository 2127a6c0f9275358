/* test_interop_field.c — fields in the caller's cl_mem (the same states as sqz's own, guard bytes untouched, bad buffers) and programs built ahead of time (no build at the first step). */
/* labels: opencl */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/opencl/cl_internal.h"
#include "sqz_opencl.h"
#include "sqz_test.h"

#define GUARD 0xA5u
#define TAIL 200 /* guard bytes after the field's range */

/* A smoothing of every Moore neighbour, the first and last weighted twice. */
static const char *mix_source =
    "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
    "                      __constant const sqz_param_t *param) {\n"
    "  sqz_cell_t sum = nb[0] + nb[SQZ_NB - 1];\n"
    "  for (int k = 0; k < SQZ_NB; k++) sum += nb[k];\n"
    "  return param[0] * self + param[1] * sum;\n"
    "}\n";
static const double mix_param[2] = {0.5, 0.05};

static cl_command_queue queue_of(sqz_context *ctx) {
  cl_command_queue q = NULL;
  ck_assert_int_eq(sqz_context_opencl(ctx, NULL, NULL, &q), SQZ_OK);
  return q;
}

static cl_context cl_of(sqz_context *ctx) {
  cl_context c = NULL;
  ck_assert_int_eq(sqz_context_opencl(ctx, &c, NULL, NULL), SQZ_OK);
  return c;
}

/* The device's sub-buffer alignment in bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits). */
static size_t base_align(sqz_context *ctx) {
  cl_device_id d = NULL;
  cl_uint bits = 0;
  ck_assert_int_eq(sqz_context_opencl(ctx, NULL, &d, NULL), SQZ_OK);
  ck_assert_int_eq(clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL), CL_SUCCESS);
  return bits >= 8 ? bits / 8 : 1;
}

static cl_mem user_buffer(sqz_context *ctx, size_t size, cl_mem_flags flags) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(cl_of(ctx), flags, size, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  return m;
}

/* Bytes of one state buffer of a field of (dom, type, layout). */
static size_t field_bytes(const sqz_domain *dom, const char *layout, sqz_type type) {
  uint64_t n = 0;
  if (strcmp(layout, "bits") == 0) {
    ck_assert_int_eq(sqz_domain_layout_bytes(dom, layout, &n), SQZ_OK);
    return (size_t)n;
  }
  ck_assert_int_eq(sqz_domain_layout_cells(dom, layout, &n), SQZ_OK);
  return (size_t)n * sqz_type_size(type);
}

static cl_uint mem_refs(cl_mem m) {
  cl_uint n = 0;
  ck_assert_int_eq(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
  return n;
}

/* ---- a field over the caller's buffer gives the states of sqz's own ------------------------ */
typedef struct {
  const char *spec, *layout;
  sqz_type type;
} field_case;

/* Steps of both fields: Life (u8) or heat (f32), blocking; enqueued: Life or the mix stencil. */
static void advance(sqz_context *ctx, sqz_field *f, sqz_type type, uint64_t steps, int enqueue, cl_event *done) {
  if (!enqueue) SQZ_OK_OR_FAIL(ctx, type == SQZ_U8 ? sqz_life_step(f, NULL, steps) : sqz_heat_step(f, 0.2, steps));
  else if (type == SQZ_U8) SQZ_OK_OR_FAIL(ctx, sqz_life_enqueue(f, NULL, steps, 0, NULL, done));
  else SQZ_OK_OR_FAIL(ctx, sqz_stencil_enqueue(f, mix_source, "mix.cl", mix_param, 2, steps, 0, NULL, done));
}

/* The user field's bytes in buf (read on a second queue after `after`, when given) equal the own
 * field's storage, the guard bytes around them are untouched, and cl_mem gives the same handle. */
static void check_same(sqz_context *ctx, sqz_field *own, sqz_field *usr, cl_mem buf, cl_mem handle, size_t offset,
                       size_t bytes, cl_event after, const char *what) {
  size_t total = offset + bytes + TAIL;
  unsigned char *want = malloc(bytes), *got = malloc(total);
  cl_mem m = NULL, now = NULL;
  ck_assert_int_eq(sqz_field_cl_mem(own, &m), SQZ_OK);
  ck_assert_int_eq(clEnqueueReadBuffer(queue_of(ctx), m, CL_TRUE, 0, bytes, want, 0, NULL, NULL), CL_SUCCESS);
  cl_command_queue q = queue_of(ctx), other = NULL;
  if (after) { /* `done` alone orders the read: a queue of its own */
    cl_device_id d = NULL;
    cl_int err = CL_SUCCESS;
    ck_assert_int_eq(sqz_context_opencl(ctx, NULL, &d, NULL), SQZ_OK);
    other = clCreateCommandQueue(cl_of(ctx), d, 0, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    q = other;
  }
  ck_assert_int_eq(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, total, got, after ? 1 : 0, after ? &after : NULL, NULL),
                   CL_SUCCESS);
  if (other) clReleaseCommandQueue(other);
  ck_assert_msg(memcmp(got + offset, want, bytes) == 0, "%s: the caller's buffer differs from sqz's own field", what);
  for (size_t i = 0; i < total; i++)
    if (i < offset || i >= offset + bytes) ck_assert_msg(got[i] == GUARD, "%s: guard byte %zu is %u", what, i, got[i]);
  ck_assert_int_eq(sqz_field_cl_mem(usr, &now), SQZ_OK);
  ck_assert_msg(now == handle, "%s: sqz_field_cl_mem changed", what);
  free(want);
  free(got);
}

static void same_states(sqz_context *ctx, const field_case *c, size_t offset) {
  char what[160];
  snprintf(what, sizeof what, "%s %s offset %zu", c->spec, c->layout, offset);
  sqz_field *own = sqz_test_field(ctx, c->spec, c->type, c->layout), *usr = NULL;
  sqz_domain *dom = sqz_test_domain(own);
  size_t bytes = field_bytes(dom, c->layout, c->type);
  cl_mem buf = user_buffer(ctx, offset + bytes + TAIL, CL_MEM_READ_WRITE), own_mem = NULL, handle = NULL;
  unsigned char guard = GUARD;
  cl_command_queue q = queue_of(ctx);
  ck_assert_int_eq(clEnqueueFillBuffer(q, buf, &guard, 1, 0, offset + bytes + TAIL, 0, NULL, NULL), CL_SUCCESS);
  SQZ_OK_OR_FAIL(ctx, c->type == SQZ_U8 ? sqz_field_fill_random(own, 0.4, 7) : sqz_field_fill_uniform(own, 7));
  ck_assert_int_eq(sqz_field_cl_mem(own, &own_mem), SQZ_OK); /* the caller's state: a copy of the own field's */
  ck_assert_int_eq(clEnqueueCopyBuffer(q, own_mem, buf, 0, offset, bytes, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  SQZ_OK_OR_FAIL(ctx, sqz_field_create_opencl(dom, c->type, c->layout, buf, offset, &usr));
  ck_assert_uint_eq(sqz_field_parts(usr), 1);
  ck_assert_int_eq(sqz_field_cl_mem(usr, &handle), SQZ_OK);
  ck_assert(offset != 0 || handle == buf);
  check_same(ctx, own, usr, buf, handle, offset, bytes, NULL, what);
  for (uint64_t steps = 3; steps >= 2; steps--) { /* odd: the result comes back from the second buffer */
    advance(ctx, own, c->type, steps, 0, NULL);
    advance(ctx, usr, c->type, steps, 0, NULL);
    check_same(ctx, own, usr, buf, handle, offset, bytes, NULL, what);
  }
  cl_event done = NULL;
  advance(ctx, own, c->type, 5, 1, NULL);
  advance(ctx, usr, c->type, 5, 1, &done);
  check_same(ctx, own, usr, buf, handle, offset, bytes, done, what); /* `done` covers the copy back */
  clReleaseEvent(done);
  char path[64]; /* a load builds the state in the second buffer: it comes back too */
  snprintf(path, sizeof path, "/tmp/sqz_interop_%d.npy", (int)getpid());
  SQZ_OK_OR_FAIL(ctx, sqz_field_save_npy(own, path));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_const(usr, 0));
  SQZ_OK_OR_FAIL(ctx, sqz_field_load_npy(usr, path));
  unlink(path);
  check_same(ctx, own, usr, buf, handle, offset, bytes, NULL, what);
  cl_uint held = mem_refs(buf);
  sqz_field_release(usr); /* gives back its references (and the sub-buffer's hold on buf) */
  ck_assert_uint_lt(mem_refs(buf), held);
  clReleaseMemObject(buf);
  sqz_test_drop(own);
}

START_TEST(user_buffer_states) {
  static const field_case cases[] = {
      {"fractal:sierpinski-carpet:3", "compact", SQZ_U8}, {"triangle:40", "bb", SQZ_U8},
      {"fractal:sierpinski-triangle:5", "bits", SQZ_U8}, {"tetrahedron:12", "compact", SQZ_U8},
      {"fractal:sierpinski-carpet:3", "block:9", SQZ_F32}, {"triangle:30", "compact", SQZ_F32}};
  sqz_context *ctx = sqz_test_context("opencl");
  size_t align = base_align(ctx);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    same_states(ctx, &cases[i], 0);
    same_states(ctx, &cases[i], 3 * align);
  }
  sqz_context_release(ctx);
}
END_TEST

/* ---- bad buffers ------------------------------------------------------------------------------ */
static void refused(sqz_context *ctx, sqz_domain *dom, cl_mem buf, size_t offset, int status, const char *a,
                    const char *b) {
  sqz_field *f = (sqz_field *)&ctx;
  ck_assert_int_eq(sqz_field_create_opencl(dom, SQZ_U8, "compact", buf, offset, &f), status);
  ck_assert_ptr_null(f);
  const char *detail = sqz_last_error(ctx);
  ck_assert_msg(strstr(detail, a) && (!b || strstr(detail, b)), "the detail '%s' does not name '%s'", detail, a);
}

START_TEST(bad_buffers) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "triangle:40", &dom)); /* compact: 820 bytes */
  size_t align = base_align(ctx);
  cl_mem small = user_buffer(ctx, 819, CL_MEM_READ_WRITE), big = user_buffer(ctx, 4 * align + 820, CL_MEM_READ_WRITE);
  cl_uint refs = mem_refs(small);
  refused(ctx, dom, small, 0, SQZ_ERR_INVALID_ARGUMENT, "needs 820 bytes at offset 0", "has 819 bytes (CL_MEM_SIZE)");
  ck_assert_uint_eq(mem_refs(small), refs); /* nothing kept */
  refused(ctx, dom, big, 5 * align, SQZ_ERR_INVALID_ARGUMENT, "needs 820 bytes", "CL_MEM_SIZE");
  if (align > 1) refused(ctx, dom, big, align / 2, SQZ_ERR_INVALID_ARGUMENT, "CL_DEVICE_MEM_BASE_ADDR_ALIGN", NULL);
  refused(ctx, dom, NULL, 0, SQZ_ERR_INVALID_ARGUMENT, "buffer is NULL", NULL);
  cl_mem ro = user_buffer(ctx, 1024, CL_MEM_READ_ONLY);
  refused(ctx, dom, ro, 0, SQZ_ERR_INVALID_ARGUMENT, "CL_MEM_READ_ONLY", NULL);
  cl_device_id d = NULL;
  cl_int err = CL_SUCCESS;
  ck_assert_int_eq(sqz_context_opencl(ctx, NULL, &d, NULL), SQZ_OK);
  cl_context other = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 1024, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  refused(ctx, dom, foreign, 0, SQZ_ERR_INVALID_ARGUMENT, "belongs to cl_context", "sqz_context_create_opencl");
  sqz_test_option(ctx, "max_alloc", "512"); /* a device whose largest allocation is below the field: */
  sqz_field *parted = NULL;       /* sqz's own field parts, one over the caller's buffer cannot */
  SQZ_OK_OR_FAIL(ctx, sqz_field_create(dom, SQZ_U8, "compact", &parted));
  ck_assert_uint_gt(sqz_field_parts(parted), 1);
  refused(ctx, dom, big, 0, SQZ_ERR_TOO_LARGE, "does not part", "512 bytes");
  sqz_test_option(ctx, "max_alloc", NULL);
  ck_assert_int_eq(sqz_life_prepare(parted, NULL), SQZ_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "parts"));
  sqz_field_release(parted);
  sqz_context *cpu = sqz_test_context("cpu");
  sqz_domain *cpu_dom = NULL;
  SQZ_OK_OR_FAIL(cpu, sqz_domain_parse(cpu, "triangle:40", &cpu_dom));
  refused(cpu, cpu_dom, big, 0, SQZ_ERR_UNSUPPORTED, "not an opencl one", NULL);
  sqz_domain_release(cpu_dom);
  sqz_context_release(cpu);
  clReleaseMemObject(foreign);
  clReleaseContext(other);
  clReleaseMemObject(ro);
  clReleaseMemObject(small);
  clReleaseMemObject(big);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}
END_TEST

/* ---- programs built ahead of time ----------------------------------------------------------- */
typedef struct {
  const char *spec, *layout;
  sqz_type type;
  int kind; /* 0 Life (rule), 1 heat, 2 the mix stencil */
  const char *rule;
  uint64_t steps;
  int enqueue;
} prep_case;

static int prepare(sqz_field *f, const prep_case *c) {
  return c->kind == 0 ? sqz_life_prepare(f, c->rule)
         : c->kind == 1 ? sqz_heat_prepare(f, 0.15)
                        : sqz_stencil_prepare(f, mix_source, "mix.cl", mix_param, 2);
}

static int step(sqz_field *f, const prep_case *c) {
  cl_event done = NULL;
  int st = c->kind == 0 ? (c->enqueue ? sqz_life_enqueue(f, c->rule, c->steps, 0, NULL, &done)
                                      : sqz_life_step(f, c->rule, c->steps))
           : c->kind == 1 ? sqz_heat_step(f, 0.15, c->steps)
           : c->enqueue   ? sqz_stencil_enqueue(f, mix_source, "mix.cl", mix_param, 2, c->steps, 0, NULL, &done)
                          : sqz_stencil_step(f, mix_source, "mix.cl", mix_param, 2, c->steps);
  if (done) {
    ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
  }
  return st;
}

/* In a fresh context (an empty program cache in memory): the prepare builds, leaves the state and
 * the engine report alone, and the first step after it builds nothing, on this field and on a
 * second one of the same shape. */
static void prepared(const prep_case *c) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_field *f = sqz_test_field(ctx, c->spec, c->type, c->layout);
  sqz_field *g = sqz_test_field(ctx, c->spec, c->type, c->layout);
  SQZ_OK_OR_FAIL(ctx, c->type == SQZ_U8 ? sqz_field_fill_random(f, 0.4, 3) : sqz_field_fill_uniform(f, 3));
  SQZ_OK_OR_FAIL(ctx, c->type == SQZ_U8 ? sqz_field_fill_random(g, 0.4, 3) : sqz_field_fill_uniform(g, 3));
  size_t bytes = field_bytes(sqz_test_domain(f), c->layout, c->type);
  unsigned char *before = malloc(bytes), *after = malloc(bytes);
  cl_mem m = NULL;
  ck_assert_int_eq(sqz_field_cl_mem(f, &m), SQZ_OK);
  ck_assert_int_eq(clEnqueueReadBuffer(queue_of(ctx), m, CL_TRUE, 0, bytes, before, 0, NULL, NULL), CL_SUCCESS);
  uint64_t b0 = SQZ_CL(ctx)->builds;
  SQZ_OK_OR_FAIL(ctx, prepare(f, c));
  uint64_t b1 = SQZ_CL(ctx)->builds;
  ck_assert_msg(b1 > b0, "%s %s: the prepare built nothing", c->spec, c->layout);
  ck_assert_str_eq(sqz_field_engine(f, NULL), "");
  ck_assert_int_eq(sqz_field_cl_mem(f, &m), SQZ_OK);
  ck_assert_int_eq(clEnqueueReadBuffer(queue_of(ctx), m, CL_TRUE, 0, bytes, after, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_msg(memcmp(before, after, bytes) == 0, "%s %s: the prepare changed the state", c->spec, c->layout);
  SQZ_OK_OR_FAIL(ctx, step(f, c));
  ck_assert_msg(SQZ_CL(ctx)->builds == b1, "%s %s: the first step after the prepare built %llu programs", c->spec,
                c->layout, (unsigned long long)(SQZ_CL(ctx)->builds - b1));
  ck_assert_str_ne(sqz_field_engine(f, NULL), "");
  SQZ_OK_OR_FAIL(ctx, step(g, c));
  ck_assert_uint_eq(SQZ_CL(ctx)->builds, b1);
  free(before);
  free(after);
  sqz_test_drop(f);
  sqz_test_drop(g);
  sqz_context_release(ctx);
}

START_TEST(prepare_builds_ahead) {
  static const prep_case cases[] = {
      {"fractal:sierpinski-carpet:3", "compact", SQZ_U8, 0, NULL, 5, 0},
      {"triangle:40", "compact", SQZ_U8, 0, "B3/S23", 3, 1},
      {"fractal:sierpinski-triangle:5", "bits", SQZ_U8, 0, NULL, 4, 0},
      {"triangle:33", "bb", SQZ_U8, 0, "/2/3", 3, 0}, /* Generations */
      {"tetrahedron:10", "compact", SQZ_F32, 1, NULL, 3, 0},
      {"fractal:vicsek-cross:3", "lambda", SQZ_F32, 2, NULL, 2, 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) prepared(&cases[i]);
  setenv("SQZ_TEMPORAL", "3", 1); /* several steps a launch: kernels of their own */
  prepared(&cases[0]);
  unsetenv("SQZ_TEMPORAL");
}
END_TEST

/* Without a prepare the first step builds (the counter counts), and a prepare over the caller's
 * buffer leaves the buffer as the current state. */
START_TEST(first_step_builds) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_domain *dom = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_domain_parse(ctx, "fractal:sierpinski-carpet:3", &dom));
  cl_mem buf = user_buffer(ctx, 512, CL_MEM_READ_WRITE), now = NULL;
  unsigned char zero = 0;
  ck_assert_int_eq(clEnqueueFillBuffer(queue_of(ctx), buf, &zero, 1, 0, 512, 0, NULL, NULL), CL_SUCCESS);
  sqz_field *f = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_field_create_opencl(dom, SQZ_U8, "compact", buf, 0, &f));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 1));
  uint64_t b0 = SQZ_CL(ctx)->builds;
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, 1));
  ck_assert_uint_gt(SQZ_CL(ctx)->builds, b0);
  SQZ_OK_OR_FAIL(ctx, sqz_heat_prepare(f, 0.1) == SQZ_ERR_INVALID_ARGUMENT ? SQZ_OK : SQZ_ERR_INTERNAL); /* u8 */
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "f32 or f64"));
  SQZ_OK_OR_FAIL(ctx, sqz_life_prepare(f, "B36/S23"));
  ck_assert_int_eq(sqz_field_cl_mem(f, &now), SQZ_OK);
  ck_assert_ptr_eq(now, buf);
  ck_assert_int_eq(sqz_life_prepare(f, "B9/S23"), SQZ_ERR_PARSE);
  sqz_field_release(f);
  clReleaseMemObject(buf);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("interop_field");
  TCase *tc = tcase_create("interop_field");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, user_buffer_states);
  tcase_add_test(tc, bad_buffers);
  tcase_add_test(tc, prepare_builds_ahead);
  tcase_add_test(tc, first_step_builds);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
