/* interop.c — sqz on your own OpenCL context, queue and buffer: your kernels and sqz's Life steps on one queue, ordered by events. */
/* Build: part of the sqz build (SQZ_BUILD_EXAMPLES); run: build/examples/sqz_example_interop.
 * 1. create a cl_context, an in-order queue and the state's buffer yourself and hand them to sqz;
 * 2. your kernel writes a glider into your buffer at the storage indices of sqz_field_index;
 * 3. sqz builds its Life program ahead of time (sqz_life_prepare), then steps without blocking
 *    (sqz_life_enqueue), your kernel counts the live cells, sqz steps again, your kernel counts
 *    again: each command waits for the previous one's event, and the state stays in your buffer;
 * 4. read the counts back and compare with sqz_field_count. */
#include <stdio.h>
#include <stdlib.h>

#include <sqz_opencl.h>

#define CHECK_CL(call)                                                                          \
  do {                                                                                          \
    cl_int e_ = (call);                                                                         \
    if (e_ != CL_SUCCESS) {                                                                     \
      fprintf(stderr, "%s failed: %s\n", #call, sqz_status_name(e_));                           \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)
#define CHECK_SQZ(ctx, call)                                                                    \
  do {                                                                                          \
    int s_ = (call);                                                                            \
    if (s_ != SQZ_OK) {                                                                         \
      fprintf(stderr, "%s failed: %s: %s\n", #call, sqz_status_name(s_), sqz_last_error(ctx)); \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

static const char *source =
    "__kernel void seed(__global uchar *state, __global const long *idx) {\n"
    "  state[idx[get_global_id(0)]] = 1;\n"
    "}\n"
    "__kernel void count(__global const uchar *state, __global int *live) {\n"
    "  if (state[get_global_id(0)]) atomic_inc(live);\n"
    "}\n";

int main(void) {
  /* ---- your OpenCL objects ---- */
  cl_platform_id platforms[8];
  cl_uint n_platforms = 0;
  cl_device_id device = NULL;
  cl_int err = CL_SUCCESS;
  CHECK_CL(clGetPlatformIDs(8, platforms, &n_platforms));
  for (cl_uint p = 0; p < n_platforms && !device; p++)
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) device = NULL;
  if (!device) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err); /* no profiling: host times */
  CHECK_CL(err);
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel seed = clCreateKernel(program, "seed", &err);
  CHECK_CL(err);
  cl_kernel count = clCreateKernel(program, "count", &err);
  CHECK_CL(err);

  /* ---- sqz on them: a triangle of side 64 in compact storage, in your buffer ---- */
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  CHECK_SQZ(NULL, sqz_context_create_opencl(context, device, queue, &ctx));
  CHECK_SQZ(ctx, sqz_domain_parse(ctx, "triangle:64", &dom));
  uint64_t elems = 0;
  CHECK_SQZ(ctx, sqz_domain_layout_cells(dom, "compact", &elems));
  cl_uchar dead = 0;
  cl_mem state = clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)elems, NULL, &err); /* one byte a cell */
  CHECK_CL(err);
  CHECK_CL(clEnqueueFillBuffer(queue, state, &dead, 1, 0, (size_t)elems, 0, NULL, NULL));
  CHECK_SQZ(ctx, sqz_field_create_opencl(dom, SQZ_U8, "compact", state, 0, &f));
  CHECK_SQZ(ctx, sqz_life_prepare(f, "B3/S23")); /* the build now: the enqueues below return at once */
  printf("layout: %s\n", sqz_field_layout_rule(f));

  /* the glider .#. / ..# / ### at x = 10, y = 20, travelling down the triangle's diagonal */
  static const int glider[5][2] = {{11, 20}, {12, 21}, {10, 22}, {11, 22}, {12, 22}};
  cl_long idx[5];
  for (int i = 0; i < 5; i++) {
    int64_t at = -1;
    CHECK_SQZ(ctx, sqz_field_index(f, (uint64_t)glider[i][0], (uint64_t)glider[i][1], 0, &at));
    idx[i] = at;
  }
  cl_mem idx_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof idx, idx, &err);
  CHECK_CL(err);
  cl_int zero = 0, live[2] = {0, 0};
  cl_mem live_at[2]; /* the live cells your kernel counts after 20 and after 40 steps */
  for (int i = 0; i < 2; i++) {
    live_at[i] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    CHECK_CL(err);
  }

  /* ---- one queue, ordered by events: seed, 20 steps, count, 20 steps, count ---- */
  cl_event seeded, stepped[2], counted[2];
  size_t five = 5, all = (size_t)elems;
  CHECK_CL(clSetKernelArg(seed, 0, sizeof state, &state));
  CHECK_CL(clSetKernelArg(seed, 1, sizeof idx_buf, &idx_buf));
  CHECK_CL(clSetKernelArg(count, 0, sizeof state, &state)); /* the state never leaves your buffer */
  CHECK_CL(clEnqueueNDRangeKernel(queue, seed, 1, NULL, &five, NULL, 0, NULL, &seeded));
  for (int i = 0; i < 2; i++) {
    CHECK_SQZ(ctx, sqz_life_enqueue(f, "B3/S23", 20, 1, i ? &counted[0] : &seeded, &stepped[i]));
    CHECK_CL(clSetKernelArg(count, 1, sizeof live_at[i], &live_at[i]));
    CHECK_CL(clEnqueueNDRangeKernel(queue, count, 1, NULL, &all, NULL, 1, &stepped[i], &counted[i]));
  }
  for (int i = 0; i < 2; i++)
    CHECK_CL(clEnqueueReadBuffer(queue, live_at[i], CL_TRUE, 0, sizeof live[i], &live[i], 1, &counted[1], NULL));
  uint64_t total = 0;
  CHECK_SQZ(ctx, sqz_field_count(f, &total));
  printf("glider: %d live cells after 20 steps, %d after 40 (sqz_field_count: %llu)\n", live[0], live[1],
         (unsigned long long)total);

  /* ---- release: sqz's objects in any order, then yours, which sqz never released ---- */
  sqz_context_release(ctx);
  sqz_domain_release(dom);
  sqz_field_release(f);
  clReleaseEvent(seeded);
  for (int i = 0; i < 2; i++) {
    clReleaseEvent(stepped[i]);
    clReleaseEvent(counted[i]);
    clReleaseMemObject(live_at[i]);
  }
  clReleaseMemObject(idx_buf);
  clReleaseMemObject(state);
  clReleaseKernel(seed);
  clReleaseKernel(count);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return live[0] == 5 && live[1] == 5 && total == 5 ? 0 : 1;
}
