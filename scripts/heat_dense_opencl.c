/* heat_dense_opencl.c — the dense OpenCL baseline of heat on a Sierpinski carpet: the whole bounding box with a mask, one plain kernel. */
/* What a user would write without sqz: a side x side f64 grid (side = 3^LEVEL) and a byte mask of the carpet,
 * u' = u + alpha * sum over the face neighbours that are domain cells of (u_n - u) (cl/sqz_heat.h's update, holes
 * and borders insulated), one work-item per box cell. Prints the kernel time a step (event profiling, best of the
 * steps) and the total heat after them. scripts/heat_dense_numpy.py compiles and runs it beside sqz.
 * usage: heat_dense_opencl LEVEL [STEPS] [DEVICE]   (DEVICE: a part of the device name; default the first device) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SRC =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void heat(__global const double *u, __global double *v, __global const uchar *m, uint side,\n"
    "                   double alpha) {\n"
    "  uint x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x >= side || y >= side) return;\n"
    "  size_t i = (size_t)y * side + x;\n"
    "  double s = u[i], d = 0.0;\n"
    "  if (!m[i]) { v[i] = 0.0; return; }\n"
    "  if (y > 0u && m[i - side]) d += u[i - side] - s;\n"
    "  if (x > 0u && m[i - 1]) d += u[i - 1] - s;\n"
    "  if (x + 1u < side && m[i + 1]) d += u[i + 1] - s;\n"
    "  if (y + 1u < side && m[i + side]) d += u[i + side] - s;\n"
    "  v[i] = s + alpha * d;\n"
    "}\n";

static void die(const char *what, cl_int err) {
  fprintf(stderr, "heat_dense_opencl: %s failed (%d)\n", what, err);
  exit(1);
}

/* The first device whose name contains `want` (NULL: the first device). */
static cl_device_id pick(const char *want) {
  cl_platform_id ps[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) die("clGetPlatformIDs", -1);
  for (cl_uint p = 0; p < np; p++) {
    cl_device_id ds[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < nd; d++) {
      char name[256] = "";
      clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      if (!want || strstr(name, want)) return ds[d];
    }
  }
  die("finding the device", -1);
  return NULL;
}

static int carpet(unsigned level, size_t x, size_t y) {
  for (unsigned l = 0; l < level; l++, x /= 3, y /= 3)
    if (x % 3 == 1 && y % 3 == 1) return 0;
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) return fprintf(stderr, "usage: heat_dense_opencl LEVEL [STEPS] [DEVICE]\n"), 2;
  unsigned level = (unsigned)atoi(argv[1]), steps = argc > 2 ? (unsigned)atoi(argv[2]) : 5;
  cl_uint side = 1;
  for (unsigned l = 0; l < level; l++) side *= 3;
  size_t cells = (size_t)side * side;
  double *u = malloc(cells * sizeof *u);
  unsigned char *m = malloc(cells);
  if (!u || !m) return fprintf(stderr, "heat_dense_opencl: out of host memory\n"), 1;
  srand(1);
  for (size_t i = 0; i < cells; i++) {
    m[i] = (unsigned char)carpet(level, i % side, i / side);
    u[i] = m[i] ? rand() / (double)RAND_MAX : 0.0;
  }
  cl_device_id dev = pick(argc > 3 ? argv[3] : NULL);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err) die("clCreateContext", err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err) die("clCreateCommandQueue", err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
  if (err || (err = clBuildProgram(prog, 1, &dev, "", NULL, NULL))) die("the build", err);
  cl_kernel k = clCreateKernel(prog, "heat", &err);
  if (err) die("clCreateKernel", err);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells * sizeof *u, u, &err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, cells * sizeof *u, NULL, &err);
  cl_mem mm = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cells, m, &err);
  if (err) die("clCreateBuffer", err);
  double alpha = 0.2, best = 1e30, sum = 0.0;
  size_t global[2] = {(side + 15) / 16 * 16, (side + 15) / 16 * 16}, local[2] = {16, 16};
  for (unsigned s = 0; s < steps; s++) {
    cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
    cl_event ev;
    clSetKernelArg(k, 0, sizeof src, &src);
    clSetKernelArg(k, 1, sizeof dst, &dst);
    clSetKernelArg(k, 2, sizeof mm, &mm);
    clSetKernelArg(k, 3, sizeof side, &side);
    clSetKernelArg(k, 4, sizeof alpha, &alpha);
    if ((err = clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, &ev))) die("the launch", err);
    clWaitForEvents(1, &ev);
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    clReleaseEvent(ev);
    sum += 1e-9 * (double)(t1 - t0);
    if (1e-9 * (double)(t1 - t0) < best) best = 1e-9 * (double)(t1 - t0);
  }
  if ((err = clEnqueueReadBuffer(q, steps % 2 ? b : a, CL_TRUE, 0, cells * sizeof *u, u, 0, NULL, NULL)))
    die("reading the state", err);
  double total = 0.0;
  for (size_t i = 0; i < cells; i++) total += u[i];
  char name[256] = "";
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("{\"ms_per_step\": %.6f, \"best_ms\": %.6f, \"total\": %.12g, \"device\": \"%s\"}\n", sum / steps * 1e3, best * 1e3, total, name);
  return 0;
}
