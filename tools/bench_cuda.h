/* bench_cuda.h — `sqz bench fractal --backend all`: the CUDA methods and OpenCL side by side. */
#ifndef SQZ_BENCH_CUDA_H
#define SQZ_BENCH_CUDA_H
#include <stdint.h>

/* Runs Life on the fractal `domain` with OpenCL, CUDA with MMA tile maps and CUDA with ALU
 * tile maps, each layout of `layouts` (NULL: the block layouts of sqz bench fractal's
 * default; "none": no Life) from the same random state, then the tile maps alone (MMA vs
 * ALU, on every tile of each grid level, or the last 2^30 tiles). Prints a
 * table or one JSON object; returns the exit status (1 when the live counts disagree or
 * nothing could run). `device` selects the OpenCL device (and the CUDA device when numeric). */
int sqz_cmd_bench_fractal_all(const char *domain, const char *rule, const char *layouts, uint64_t steps, double density,
                          uint64_t seed, const char *device, int json);
#endif
