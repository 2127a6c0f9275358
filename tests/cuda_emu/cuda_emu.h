/* cuda_emu.h — just enough of CUDA to run the kernels of cuda/ on the host, one coroutine per lane. */
#ifndef SQZ_CUDA_EMU_H
#define SQZ_CUDA_EMU_H
/* Included before the kernel sources of cuda/ in a C++20 translation unit. Each lane of a CTA is
 * a coroutine (ucontext) with its own stack, all on one OS thread: a lane runs until it reaches
 * a barrier, then the next lane runs (tests/cuda_emu/cuda_emu_lanes.cpp). Warp collectives (shuffles,
 * ballot, mma.sync, __syncwarp) exchange values through the warp's slots between two barrier
 * phases, __syncthreads is a barrier of the CTA, and __shared__ variables are statics (CTAs
 * run one after another). A barrier that not every lane of its group reaches is reported as a
 * deadlock. Without OS threads the test costs its CPU time also on a busy machine (64 threads
 * per CTA meeting at futexes took 128 s for 22 s of CPU, two tests per core). The mma.sync
 * emulation reads the fragments with the layout of the PTX ISA (cuda/sqz_mma.h), so a kernel
 * that passes here and fails on a GPU points at the hardware contract, not at the kernel logic. */
#include <atomic>
#include <cstdint>
#include <cstring>

#define SQZ_CU_HOST_EMULATION 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static

struct sqz_emu_dim {
  unsigned x, y, z;
};
extern sqz_emu_dim threadIdx, blockIdx, blockDim, gridDim; /* threadIdx: set for the lane that runs */

/* A barrier of `count` lanes: the last to arrive starts the next generation and goes on; the
 * others give the OS thread to the next lane until their generation has passed. */
struct sqz_emu_barrier {
  unsigned count, arrived;
  uint64_t gen;
  void arrive_and_wait();
};
struct sqz_emu_warp {
  sqz_emu_barrier *bar;
  uint64_t slot[32];
  uint32_t a[32], b[32];
};
extern sqz_emu_warp sqz_emu_warps[32];
extern sqz_emu_barrier *sqz_emu_cta;
/* Runs body(arg) on every lane of `grid` CTAs of `threads` lanes (at most 1024), one CTA
 * after another; exits the process with a message on a deadlock. */
void sqz_emu_run(unsigned grid, unsigned threads, void (*body)(void *), void *arg);

static inline unsigned sqz_emu_lane() { return threadIdx.x & 31u; }
static inline sqz_emu_warp &sqz_emu_w() { return sqz_emu_warps[threadIdx.x >> 5]; }

/* Every lane publishes v, then reads the value lane src published. */
template <class T> static inline T sqz_emu_exchange(T v, unsigned src) {
  sqz_emu_warp &w = sqz_emu_w();
  uint64_t u = 0;
  memcpy(&u, &v, sizeof v);
  w.slot[sqz_emu_lane()] = u;
  w.bar->arrive_and_wait();
  u = w.slot[src];
  w.bar->arrive_and_wait();
  T r;
  memcpy(&r, &u, sizeof r);
  return r;
}
template <class T> static inline T __shfl_sync(unsigned, T v, unsigned src) { return sqz_emu_exchange(v, src & 31u); }
template <class T> static inline T __shfl_xor_sync(unsigned, T v, unsigned m) {
  return sqz_emu_exchange(v, sqz_emu_lane() ^ m);
}
template <class T> static inline T __shfl_up_sync(unsigned, T v, unsigned d) {
  unsigned l = sqz_emu_lane();
  return sqz_emu_exchange(v, l >= d ? l - d : l);
}
template <class T> static inline T __shfl_down_sync(unsigned, T v, unsigned d) {
  unsigned l = sqz_emu_lane();
  return sqz_emu_exchange(v, l + d < 32u ? l + d : l);
}
static inline unsigned __ballot_sync(unsigned, int p) {
  sqz_emu_warp &w = sqz_emu_w();
  w.slot[sqz_emu_lane()] = p != 0;
  w.bar->arrive_and_wait();
  unsigned bits = 0;
  for (unsigned i = 0; i < 32; i++) bits |= (unsigned)w.slot[i] << i;
  w.bar->arrive_and_wait();
  return bits;
}
static inline void __syncwarp() { sqz_emu_w().bar->arrive_and_wait(); }
static inline void __syncthreads() { sqz_emu_cta->arrive_and_wait(); }
static inline unsigned long long atomicXor(unsigned long long *p, unsigned long long v) {
  return std::atomic_ref<unsigned long long>(*p).fetch_xor(v);
}

/* mma.sync.m8n8k16.row.col.s32.u8.u8.s32 with D = C: lane l holds A[l/4][4(l%4) + e] and
 * B[4(l%4) + e][l/4] in byte e, and D[l/4][2(l%4) + e] in register e. */
static inline void sqz_cu_emulated_mma(int &d0, int &d1, unsigned a, unsigned b) {
  sqz_emu_warp &w = sqz_emu_w();
  unsigned l = sqz_emu_lane(), row = l / 4u;
  w.a[l] = a;
  w.b[l] = b;
  w.bar->arrive_and_wait();
  int64_t acc[2] = {d0, d1};
  for (unsigned e = 0; e < 2; e++)
    for (unsigned i = 0; i < 16; i++) {
      unsigned col = 2u * (l % 4u) + e;
      acc[e] += (int64_t)((w.a[4u * row + i / 4u] >> (8u * (i % 4u))) & 0xffu) *
                ((w.b[4u * col + i / 4u] >> (8u * (i % 4u))) & 0xffu);
    }
  w.bar->arrive_and_wait();
  d0 = (int)acc[0];
  d1 = (int)acc[1];
}
#endif
