/* labels: opencl */
/* test_interop.c — sqz on the user's cl_context and queue: retain counts, steps between the user's kernels, events, the index rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqz_opencl.h"
#include "sqz_test.h"

/* The user's side: a platform's first device, a context and an in-order queue of their own. */
typedef struct {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
} user_cl;

static const char *user_source =
    "__kernel void seed(__global uchar *state, __global const long *idx, uint n) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n && idx[i] >= 0) state[idx[i]] = 1;\n"
    "}\n"
    "__kernel void snapshot(__global const uchar *src, __global uchar *dst) {\n"
    "  dst[get_global_id(0)] = src[get_global_id(0)];\n"
    "}\n";

static void user_open(user_cl *u, cl_command_queue_properties props) {
  cl_platform_id plats[8];
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(8, plats, &np);
  ck_assert_msg(err == CL_SUCCESS && np > 0, "no OpenCL platform: %s", sqz_status_name(err));
  u->device = NULL;
  for (cl_uint p = 0; p < np && !u->device; p++)
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &u->device, NULL) != CL_SUCCESS) u->device = NULL;
  ck_assert_ptr_nonnull(u->device);
  u->context = clCreateContext(NULL, 1, &u->device, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  u->queue = clCreateCommandQueue(u->context, u->device, props, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  u->program = clCreateProgramWithSource(u->context, 1, &user_source, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(clBuildProgram(u->program, 1, &u->device, "", NULL, NULL), CL_SUCCESS);
}

static void user_close(user_cl *u) {
  clReleaseProgram(u->program);
  clReleaseCommandQueue(u->queue);
  clReleaseContext(u->context);
}

static cl_uint context_refs(cl_context c) {
  cl_uint n = 0;
  ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
  return n;
}

static cl_uint queue_refs(cl_command_queue q) {
  cl_uint n = 0;
  ck_assert_int_eq(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
  return n;
}

/* The driver drops the references of finished commands' events on its own threads (PoCL does so
 * a little after clFinish returns): the counts of queue and context settle within seconds. */
static void wait_settled(cl_command_queue q, cl_uint q_want, cl_context c, cl_uint c_want) {
  struct timespec tick = {0, 10000000};
  ck_assert_int_eq(clFinish(q), CL_SUCCESS);
  for (int i = 0; i < 500 && (queue_refs(q) != q_want || context_refs(c) != c_want); i++) nanosleep(&tick, NULL);
  ck_assert_uint_eq(queue_refs(q), q_want);
  ck_assert_uint_eq(context_refs(c), c_want);
}

static cl_int event_status(cl_event e) {
  cl_int s = 0;
  ck_assert_int_eq(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
  return s;
}

#define SIDE 40
#define CELLS (SIDE * SIDE)
static const uint32_t glider[5][2] = {{11, 20}, {12, 21}, {10, 22}, {11, 22}, {12, 22}}; /* (x, y), x <= y */
static const uint32_t blinker[3][2] = {{3, 30}, {4, 30}, {5, 30}};

static void pattern(unsigned char *embedded) {
  memset(embedded, 0, CELLS);
  for (int i = 0; i < 5; i++) embedded[glider[i][1] * SIDE + glider[i][0]] = 1;
  for (int i = 0; i < 3; i++) embedded[blinker[i][1] * SIDE + blinker[i][0]] = 1;
}

/* The reference: the pattern, then a Life steps (state a), then b more (state b), by the blocking API. */
static void reference(const char *layout, uint64_t a, uint64_t b, unsigned char *state_a, unsigned char *state_b) {
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_field *f = sqz_test_field(ctx, "triangle:40", SQZ_U8, layout);
  unsigned char start[CELLS];
  pattern(start);
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, start, CELLS));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, a));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, state_a, CELLS));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, b));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, state_b, CELLS));
  sqz_test_drop(f);
  sqz_context_release(ctx);
}

/* The user's queue and context outlive sqz: sqz releases exactly what it retained. */
START_TEST(retain_counts) {
  user_cl u;
  user_open(&u, CL_QUEUE_PROFILING_ENABLE);
  cl_uint c0 = context_refs(u.context), q0 = queue_refs(u.queue);
  sqz_context *ctx = NULL;
  ck_assert_int_eq(sqz_context_create_opencl(u.context, u.device, u.queue, &ctx), SQZ_OK);
  ck_assert_str_eq(sqz_context_backend(ctx), "opencl");
  ck_assert_uint_eq(queue_refs(u.queue), q0 + 1);
  ck_assert_uint_ge(context_refs(u.context), c0 + 1);
  cl_context c = NULL;
  cl_device_id d = NULL;
  cl_command_queue q = NULL;
  ck_assert_int_eq(sqz_context_opencl(ctx, &c, &d, &q), SQZ_OK);
  ck_assert(c == u.context && d == u.device && q == u.queue);
  sqz_field *f = sqz_test_field(ctx, "fractal:sierpinski-triangle:4", SQZ_U8, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 3));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, "B2/S23", 3));
  sqz_context_release(ctx); /* the field still holds it */
  ck_assert_uint_ge(queue_refs(u.queue), q0 + 1);
  sqz_test_drop(f);
  wait_settled(u.queue, q0, u.context, c0); /* back to the user's own references */
  cl_int err = CL_SUCCESS; /* and still work */
  cl_mem m = clCreateBuffer(u.context, CL_MEM_READ_WRITE, 64, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  unsigned char zero = 0;
  ck_assert_int_eq(clEnqueueFillBuffer(u.queue, m, &zero, 1, 0, 64, 0, NULL, NULL), CL_SUCCESS);
  ck_assert_int_eq(clFinish(u.queue), CL_SUCCESS);
  clReleaseMemObject(m);
  user_close(&u);
}
END_TEST

/* A sub-device has a reference count: sqz retains it with the context and gives it back. */
START_TEST(sub_device) {
  user_cl u;
  user_open(&u, 0);
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id sub[64];
  cl_uint n_sub = 0;
  if (clCreateSubDevices(u.device, props, 64, sub, &n_sub) != CL_SUCCESS || n_sub == 0) { /* not partitionable */
    user_close(&u);
    return;
  }
  cl_int err = CL_SUCCESS;
  cl_context c = clCreateContext(NULL, 1, &sub[0], NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(c, sub[0], CL_QUEUE_PROFILING_ENABLE, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_uint d0 = 0, d1 = 0, d2 = 0, q0 = queue_refs(q), c0 = context_refs(c);
  clGetDeviceInfo(sub[0], CL_DEVICE_REFERENCE_COUNT, sizeof d0, &d0, NULL);
  sqz_context *ctx = NULL;
  ck_assert_int_eq(sqz_context_create_opencl(c, sub[0], q, &ctx), SQZ_OK);
  clGetDeviceInfo(sub[0], CL_DEVICE_REFERENCE_COUNT, sizeof d1, &d1, NULL);
  sqz_field *f = sqz_test_field(ctx, "triangle:20", SQZ_U8, NULL);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(f, 0.5, 1));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, 2));
  sqz_test_drop(f);
  sqz_context_release(ctx);
  wait_settled(q, q0, c, c0); /* the driver's references of finished commands gone */
  clGetDeviceInfo(sub[0], CL_DEVICE_REFERENCE_COUNT, sizeof d2, &d2, NULL);
  ck_assert_uint_ge(d1, d0 + 1);
  ck_assert_uint_eq(d2, d0);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
  for (cl_uint i = 0; i < n_sub && i < 64; i++) clReleaseDevice(sub[i]);
  user_close(&u);
}
END_TEST

START_TEST(refused_queues) {
  user_cl u;
  user_open(&u, 0);
  sqz_context *ctx = (sqz_context *)&u; /* must come back NULL */
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(NULL, 1, &u.device, NULL, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  ck_assert_int_eq(sqz_context_create_opencl(other, u.device, u.queue, &ctx), SQZ_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(ctx);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "cl_context"));
  ck_assert_int_eq(sqz_context_create_opencl(u.context, u.device, NULL, &ctx), SQZ_ERR_INVALID_ARGUMENT);
  cl_command_queue ooo = clCreateCommandQueue(u.context, u.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err == CL_SUCCESS) { /* where the device offers out-of-order queues */
    ck_assert_int_eq(sqz_context_create_opencl(u.context, u.device, ooo, &ctx), SQZ_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(sqz_last_error(NULL), "in-order"));
    clReleaseCommandQueue(ooo);
  }
  clReleaseContext(other);
  user_close(&u);
}
END_TEST

/* The user's kernels and sqz's steps on one queue, ordered by events only: the user seeds a
 * glider through sqz_field_index, sqz steps, the user copies the state, sqz steps again. */
static void steps_between_kernels(cl_command_queue_properties props, const char *layout) {
  user_cl u;
  user_open(&u, props);
  sqz_context *ctx = NULL;
  ck_assert_int_eq(sqz_context_create_opencl(u.context, u.device, u.queue, &ctx), SQZ_OK);
  sqz_field *f = sqz_test_field(ctx, "triangle:40", SQZ_U8, layout);
  uint64_t elems = 0;
  cl_long idx[8];
  for (int i = 0; i < 8; i++) {
    const uint32_t *c = i < 5 ? glider[i] : blinker[i - 5];
    int64_t at = -2;
    ck_assert_int_eq(sqz_field_index(f, c[0], c[1], 0, &at), SQZ_OK);
    ck_assert_int_ge(at, 0);
    idx[i] = at;
  }
  int64_t none = 0;
  ck_assert_int_eq(sqz_field_index(f, 21, 20, 0, &none), SQZ_OK); /* x > y: outside the triangle */
  ck_assert_int_eq(none, -1);
  ck_assert_int_eq(sqz_domain_layout_cells(sqz_test_domain(f), layout, &elems), SQZ_OK);
  cl_int err = CL_SUCCESS;
  cl_mem idx_buf = clCreateBuffer(u.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof idx, idx, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_mem snap = clCreateBuffer(u.context, CL_MEM_READ_WRITE, (size_t)elems, NULL, &err);
  ck_assert_int_eq(err, CL_SUCCESS);
  cl_kernel seed = clCreateKernel(u.program, "seed", &err), copy = clCreateKernel(u.program, "snapshot", &err);
  ck_assert_int_eq(err, CL_SUCCESS);

  cl_mem cur = NULL;
  cl_uint n = 8;
  cl_event e_seed = NULL, d1 = NULL, e_copy = NULL, d2 = NULL;
  size_t global = 8, all = (size_t)elems;
  ck_assert_int_eq(sqz_field_cl_mem(f, &cur), SQZ_OK);
  clSetKernelArg(seed, 0, sizeof cur, &cur);
  clSetKernelArg(seed, 1, sizeof idx_buf, &idx_buf);
  clSetKernelArg(seed, 2, sizeof n, &n);
  ck_assert_int_eq(clEnqueueNDRangeKernel(u.queue, seed, 1, NULL, &global, NULL, 0, NULL, &e_seed), CL_SUCCESS);
  SQZ_OK_OR_FAIL(ctx, sqz_life_enqueue(f, "B3/S23", 5, 1, &e_seed, &d1));
  ck_assert_ptr_nonnull(d1);
  ck_assert_int_eq(sqz_field_cl_mem(f, &cur), SQZ_OK); /* the buffer the last step writes */
  clSetKernelArg(copy, 0, sizeof cur, &cur);
  clSetKernelArg(copy, 1, sizeof snap, &snap);
  ck_assert_int_eq(clEnqueueNDRangeKernel(u.queue, copy, 1, NULL, &all, NULL, 1, &d1, &e_copy), CL_SUCCESS);
  SQZ_OK_OR_FAIL(ctx, sqz_life_enqueue(f, NULL, 7, 1, &e_copy, &d2));
  ck_assert_int_eq(clWaitForEvents(1, &d2), CL_SUCCESS);
  ck_assert_int_eq(event_status(d2), CL_COMPLETE);
  ck_assert_int_eq(event_status(d1), CL_COMPLETE);

  unsigned char want_a[CELLS], want_b[CELLS], got[CELLS], *store = malloc((size_t)elems);
  reference(layout, 5, 7, want_a, want_b);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, got, CELLS));
  ck_assert_msg(memcmp(got, want_b, CELLS) == 0, "state after 12 steps differs from the blocking API (%s)", layout);
  ck_assert_int_eq(clEnqueueReadBuffer(u.queue, snap, CL_TRUE, 0, (size_t)elems, store, 0, NULL, NULL), CL_SUCCESS);
  for (uint32_t y = 0; y < SIDE; y++) /* the user's copy after 5 steps, through the index rule */
    for (uint32_t x = 0; x <= y; x++) {
      int64_t at = -1;
      ck_assert_int_eq(sqz_field_index(f, x, y, 0, &at), SQZ_OK);
      ck_assert_msg(store[at] == want_a[y * SIDE + x], "snapshot cell (%u, %u) is %d", x, y, store[at]);
    }
  double k = -1, w = -1;
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(f, NULL, 2)); /* blocking, timed by events or, without profiling, the host */
  ck_assert_int_eq(sqz_context_timing(ctx, &k, &w), SQZ_OK);
  ck_assert(k > 0.0 && w > 0.0);

  free(store);
  clReleaseEvent(e_seed);
  clReleaseEvent(d1);
  clReleaseEvent(e_copy);
  clReleaseEvent(d2);
  clReleaseKernel(seed);
  clReleaseKernel(copy);
  clReleaseMemObject(idx_buf);
  clReleaseMemObject(snap);
  sqz_test_drop(f);
  sqz_context_release(ctx);
  user_close(&u);
}

START_TEST(between_user_kernels) {
  steps_between_kernels(CL_QUEUE_PROFILING_ENABLE, "compact");
  steps_between_kernels(0, "bb"); /* a queue without profiling */
}
END_TEST

/* A user event in the wait list holds the steps back until the user sets it. */
START_TEST(user_event_gate) {
  user_cl u;
  user_open(&u, CL_QUEUE_PROFILING_ENABLE);
  sqz_context *ctx = NULL;
  ck_assert_int_eq(sqz_context_create_opencl(u.context, u.device, u.queue, &ctx), SQZ_OK);
  sqz_field *f = sqz_test_field(ctx, "triangle:40", SQZ_U8, "compact");
  unsigned char start[CELLS], want_a[CELLS], want_b[CELLS], got[CELLS];
  pattern(start);
  SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, start, CELLS));
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(u.context, &err), done = NULL;
  ck_assert_int_eq(err, CL_SUCCESS);
  SQZ_OK_OR_FAIL(ctx, sqz_life_enqueue(f, "B3/S23", 6, 1, &gate, &done));
  struct timespec pause = {0, 300000000};
  nanosleep(&pause, NULL);
  ck_assert_int_ne(event_status(done), CL_COMPLETE); /* held back */
  ck_assert_int_eq(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
  ck_assert_int_eq(event_status(done), CL_COMPLETE);
  reference("compact", 6, 0, want_a, want_b);
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(f, got, CELLS));
  ck_assert(memcmp(got, want_a, CELLS) == 0);
  cl_event none = NULL; /* zero steps: the event still follows the wait list */
  SQZ_OK_OR_FAIL(ctx, sqz_life_enqueue(f, NULL, 0, 1, &done, &none));
  ck_assert_int_eq(clWaitForEvents(1, &none), CL_SUCCESS);
  ck_assert_int_eq(sqz_life_enqueue(f, NULL, 1, 1, NULL, NULL), SQZ_ERR_INVALID_ARGUMENT);
  clReleaseEvent(none);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  sqz_test_drop(f);
  sqz_context_release(ctx);
  user_close(&u);
}
END_TEST

/* sqz_stencil_enqueue gives the blocking call's bits; the event completes. */
START_TEST(stencil_enqueue) {
  static const char *src =
      "sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n"
      "                      __constant const sqz_param_t *param) {\n"
      "  sqz_cell_t s = 0;\n"
      "  for (int i = 0; i < SQZ_NB; i++) s += nb[i];\n"
      "  return param[0] * self + param[1] * s;\n"
      "}\n";
  const double param[2] = {0.5, 0.0625};
  sqz_context *ctx = sqz_test_context("opencl");
  sqz_field *a = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_F32, "compact");
  sqz_field *b = sqz_test_field(ctx, "fractal:sierpinski-carpet:3", SQZ_F32, "compact");
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(a, 5));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_uniform(b, 5));
  cl_event done = NULL;
  SQZ_OK_OR_FAIL(ctx, sqz_stencil_enqueue(a, src, "mix.cl", param, 2, 9, 0, NULL, &done));
  SQZ_OK_OR_FAIL(ctx, sqz_stencil_step(b, src, "mix.cl", param, 2, 9));
  ck_assert_int_eq(clWaitForEvents(1, &done), CL_SUCCESS);
  float x[27 * 27], y[27 * 27];
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, x, sizeof x));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, y, sizeof y));
  ck_assert(memcmp(x, y, sizeof x) == 0);
  ck_assert_int_eq(sqz_stencil_enqueue(a, "", "e.cl", NULL, 0, 1, 0, NULL, NULL), SQZ_ERR_INVALID_ARGUMENT);
  clReleaseEvent(done);
  sqz_test_drop(a);
  sqz_test_drop(b);
  sqz_context_release(ctx);
}
END_TEST

/* The cpu backend: an enqueue without a wait list or event runs synchronously; with one, nothing runs. */
START_TEST(cpu_enqueue) {
  sqz_context *ctx = sqz_test_context("cpu");
  sqz_field *a = sqz_test_field(ctx, "triangle:40", SQZ_U8, NULL), *b = sqz_test_field(ctx, "triangle:40", SQZ_U8, NULL);
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(a, 0.4, 9));
  SQZ_OK_OR_FAIL(ctx, sqz_field_fill_random(b, 0.4, 9));
  SQZ_OK_OR_FAIL(ctx, sqz_life_enqueue(a, NULL, 4, 0, NULL, NULL));
  SQZ_OK_OR_FAIL(ctx, sqz_life_step(b, NULL, 4));
  unsigned char x[CELLS], y[CELLS];
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, x, CELLS));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(b, y, CELLS));
  ck_assert(memcmp(x, y, CELLS) == 0);
  cl_event done = (cl_event)&ctx;
  ck_assert_int_eq(sqz_life_enqueue(a, NULL, 4, 0, NULL, &done), SQZ_ERR_UNSUPPORTED);
  ck_assert_ptr_null(done);
  ck_assert_ptr_nonnull(strstr(sqz_last_error(ctx), "no device queue"));
  SQZ_OK_OR_FAIL(ctx, sqz_field_read(a, x, CELLS));
  ck_assert(memcmp(x, y, CELLS) == 0); /* nothing ran */
  cl_mem m = NULL;
  ck_assert_int_eq(sqz_field_cl_mem(a, &m), SQZ_ERR_UNSUPPORTED);
  ck_assert_int_eq(sqz_context_opencl(ctx, NULL, NULL, NULL), SQZ_ERR_UNSUPPORTED);
  sqz_test_drop(a);
  sqz_test_drop(b);
  sqz_context_release(ctx);
}
END_TEST

/* sqz_field_index against the buffer itself, in every layout: an i32 field whose domain cell e
 * holds e + 1 holds it at storage index sqz_field_index(e), and every index is distinct. */
START_TEST(index_rule) {
  static const char *const cases[][2] = {
      {"triangle:13", "bb"},          {"triangle:13", "compact"},   {"triangle:12", "compact"},
      {"tetrahedron:7", "bb"},        {"tetrahedron:7", "compact"}, {"fractal:sierpinski-carpet:2", "bb"},
      {"fractal:sierpinski-carpet:2", "lambda"}, {"fractal:sierpinski-carpet:2", "block:3"},
      {"fractal:sierpinski-carpet:2", "compact"}, {"fractal:vicsek-cross:2", "compact"}};
  sqz_context *ctx = sqz_test_context("opencl");
  cl_command_queue q = NULL;
  ck_assert_int_eq(sqz_context_opencl(ctx, NULL, NULL, &q), SQZ_OK);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    sqz_field *f = sqz_test_field(ctx, cases[c][0], SQZ_I32, cases[c][1]);
    const sqz_domain *dom = sqz_test_domain(f);
    uint64_t n = sqz_domain_side(dom), z_n = sqz_domain_dims(dom) == 3 ? n : 1, cells = n * n * z_n, elems = 0;
    ck_assert_int_eq(sqz_domain_layout_cells(dom, cases[c][1], &elems), SQZ_OK);
    ck_assert_ptr_nonnull(strstr(sqz_field_layout_rule(f), "index"));
    int32_t *emb = calloc(cells, 4), *store = calloc(elems, 4);
    unsigned char *seen = calloc(elems, 1);
    for (uint64_t e = 0; e < cells; e++)
      if (sqz_domain_contains(dom, e % n, e / n % n, e / (n * n))) emb[e] = (int32_t)e + 1;
    SQZ_OK_OR_FAIL(ctx, sqz_field_write(f, emb, cells * 4));
    cl_mem m = NULL;
    ck_assert_int_eq(sqz_field_cl_mem(f, &m), SQZ_OK);
    ck_assert_int_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, elems * 4, store, 0, NULL, NULL), CL_SUCCESS);
    uint64_t domain_cells = 0;
    for (uint64_t e = 0; e < cells; e++) {
      int64_t at = -2;
      ck_assert_int_eq(sqz_field_index(f, e % n, e / n % n, e / (n * n), &at), SQZ_OK);
      if (!emb[e]) {
        ck_assert_msg(at == -1, "%s %s: cell %llu is not a domain cell but has index %lld", cases[c][0], cases[c][1],
                      (unsigned long long)e, (long long)at);
        continue;
      }
      ck_assert_msg(at >= 0 && (uint64_t)at < elems && !seen[at] && store[at] == emb[e],
                    "%s %s: cell %llu at index %lld", cases[c][0], cases[c][1], (unsigned long long)e, (long long)at);
      seen[at] = 1;
      domain_cells++;
    }
    ck_assert_uint_eq(domain_cells, sqz_domain_cells(dom));
    int64_t at = 0;
    ck_assert_int_eq(sqz_field_index(f, n, 0, 0, &at), SQZ_OK); /* beyond the embedding */
    ck_assert_int_eq(at, -1);
    free(emb);
    free(store);
    free(seen);
    sqz_test_drop(f);
  }
  ck_assert_int_eq(sqz_field_index(NULL, 0, 0, 0, NULL), SQZ_ERR_INVALID_ARGUMENT);
  sqz_context_release(ctx);
}
END_TEST

int main(void) {
  Suite *s = suite_create("interop");
  TCase *tc = tcase_create("interop");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, retain_counts);
  tcase_add_test(tc, refused_queues);
  tcase_add_test(tc, sub_device);
  tcase_add_test(tc, between_user_kernels);
  tcase_add_test(tc, user_event_gate);
  tcase_add_test(tc, stencil_enqueue);
  tcase_add_test(tc, cpu_enqueue);
  tcase_add_test(tc, index_rule);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
