/* cuda_emu_lanes.cpp — the lanes of an emulated CTA as ucontext coroutines on one OS thread, and their barriers. */
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

#include "cuda_emu.h"

#if defined(__SANITIZE_ADDRESS__)
#define SQZ_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQZ_EMU_ASAN 1
#endif
#endif
#ifdef SQZ_EMU_ASAN /* ASan follows the stack switches (no false reports, no lost fake stacks) */
#include <sanitizer/common_interface_defs.h>
#define SQZ_EMU_START(save, bottom, size) __sanitizer_start_switch_fiber(save, bottom, size)
#define SQZ_EMU_FINISH(save, bottom, size) __sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define SQZ_EMU_START(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#define SQZ_EMU_FINISH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

sqz_emu_dim threadIdx, blockIdx, blockDim, gridDim;
sqz_emu_warp sqz_emu_warps[32];
sqz_emu_barrier *sqz_emu_cta;

namespace {
constexpr size_t stack_bytes = (size_t)1 << 18; /* a guard page below each; ASan clears the shadow of the
                                                  * whole stack at each switch: mmap calls from 512 KiB */
struct lane {
  ucontext_t ctx;
  char *stack;
  const sqz_emu_barrier *waiting; /* the barrier it waits at, NULL when runnable */
  uint64_t gen;                   /* the generation it waits to pass */
  bool done;
  void *fake; /* ASan's fake stack of the lane while it is switched out */
};
lane lanes[1024];
unsigned current; /* the lane that runs */
ucontext_t scheduler;
const void *sched_bottom; /* the scheduler's stack, for ASan */
size_t sched_size;
void (*lane_body)(void *);
void *lane_arg;

void lane_main() {
  SQZ_EMU_FINISH(nullptr, &sched_bottom, &sched_size);
  lane_body(lane_arg);
  lanes[current].done = true;
  SQZ_EMU_START(nullptr, sched_bottom, sched_size); /* the lane ends: its fake stack goes */
}                                                   /* back to the scheduler (uc_link) */
} // namespace

void sqz_emu_barrier::arrive_and_wait() {
  if (++arrived == count) {
    arrived = 0;
    gen++;
    return;
  }
  lane &l = lanes[current];
  l.waiting = this;
  l.gen = gen;
  SQZ_EMU_START(&l.fake, sched_bottom, sched_size);
  swapcontext(&l.ctx, &scheduler);
  SQZ_EMU_FINISH(l.fake, &sched_bottom, &sched_size);
}

void sqz_emu_run(unsigned grid, unsigned threads, void (*body)(void *), void *arg) {
  static const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  if (threads == 0 || threads > 1024 || threads % 32 != 0) {
    fprintf(stderr, "cuda_emu: %u threads per CTA (a multiple of 32 up to 1024)\n", threads);
    exit(2);
  }
  gridDim = {grid, 1, 1};
  blockDim = {threads, 1, 1};
  lane_body = body;
  lane_arg = arg;
  for (unsigned b = 0; b < grid; b++) {
    sqz_emu_barrier cta = {threads, 0, 0};
    std::vector<sqz_emu_barrier> bars(threads / 32, sqz_emu_barrier{32, 0, 0});
    sqz_emu_cta = &cta;
    for (unsigned w = 0; w < threads / 32; w++) sqz_emu_warps[w].bar = &bars[w];
    blockIdx = {b, 0, 0};
    for (unsigned t = 0; t < threads; t++) {
      lane &l = lanes[t];
      if (!l.stack) {
        void *m = mmap(nullptr, stack_bytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) != 0) {
          perror("cuda_emu: lane stack");
          exit(1);
        }
        l.stack = (char *)m + page;
      }
      getcontext(&l.ctx);
      l.ctx.uc_stack.ss_sp = l.stack;
      l.ctx.uc_stack.ss_size = stack_bytes;
      l.ctx.uc_link = &scheduler;
      makecontext(&l.ctx, lane_main, 0);
      l.waiting = nullptr;
      l.done = false;
    }
    for (unsigned left = threads; left > 0;) {
      bool ran = false;
      for (unsigned t = 0; t < threads; t++) {
        lane &l = lanes[t];
        if (l.done || (l.waiting && l.waiting->gen == l.gen)) continue;
        l.waiting = nullptr;
        current = t;
        threadIdx = {t, 0, 0};
        void *fake = nullptr;
        SQZ_EMU_START(&fake, l.stack, stack_bytes);
        swapcontext(&scheduler, &l.ctx);
        SQZ_EMU_FINISH(fake, nullptr, nullptr);
        ran = true;
        left -= l.done;
      }
      if (!ran) {
        fprintf(stderr, "cuda_emu: deadlock in CTA %u: %u lanes wait at barriers that the others never reach\n", b,
                left);
        exit(1);
      }
    }
  }
}
