#!/usr/bin/env bash
# ncu_bits.sh — on the GPU machine: Nsight Compute metrics of the bits fractal box step (OpenCL's PTX replayed through CUDA
# by scripts/ncu_bits_kernel.c with sqz's own plan and launch). usage: scripts/ncu_bits.sh BUILD_DIR [DOMAIN] [T]
# (default fractal:sierpinski-triangle:20, T = 4 steps a launch; SQZ_BITS_STEP=lanes: the lanes' kernel). Each stage has its
# own time limit and prints as it goes.
set -u
B=${1:-build-bits}
D=${2:-fractal:sierpinski-triangle:20}
T=${3:-4}
export PATH=/usr/local/cuda/bin:$PATH SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/ncu-bits-cache SQZ_TEMPORAL=$T
mkdir -p /etc/OpenCL/vendors && { [ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; }
[ -x "$B/sqz" ] || { cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DSQZ_BUILD_TESTS=OFF >/dev/null && cmake --build "$B" -j"$(nproc)" --target sqz_cli >/dev/null; } || exit 1
rm -rf "$SQZ_CACHE_DIR"
echo "== sqz bench (fills the program cache, writes the plan)"
SQZ_BITS_PLAN_OUT="$B/bits.plan" timeout 300 "$B/sqz" bench fractal --domain "$D" --steps $((3 * T)) --layouts bits --rule B3/S23 \
  --no-copy-test 2>&1 | grep -E "^bits|rror"
K=sqz_bits_fractal_box
[ "${SQZ_BITS_STEP:-}" = lanes ] && K=sqz_bits_fractal_lanes
F=$(grep -la ".entry $K" "$SQZ_CACHE_DIR"/*.bin | head -1) # the PTX (the key of every program of the file holds the name)
echo "== cache file: $F"
gcc -O2 -Icl -I/usr/local/cuda/include scripts/ncu_bits_kernel.c -o "$B/ncu_bits_kernel" -lcuda || exit 1
echo "== replay through CUDA (the bench's kernel ms a step x $T = ms a launch)"
if ! timeout 120 "$B/ncu_bits_kernel" "$F" "$B/bits.plan" 5; then # the JIT refused the PTX: let ptxas say why, and load its cubin
  echo "== ptxas -arch=sm_90 on the rewritten PTX"
  ptxas -arch=sm_90 -v replay-failed.ptx -o "$B/bits.cubin" 2>&1 | tail -20
  export REPLAY_CUBIN=$PWD/$B/bits.cubin
  timeout 120 "$B/ncu_bits_kernel" "$F" "$B/bits.plan" 5 || exit 1
fi
echo "== ncu (limit ${NCU_LIMIT:-300} s)"
timeout "${NCU_LIMIT:-300}" ncu --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
  --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section InstructionStats --section SchedulerStats "$B/ncu_bits_kernel" "$F" "$B/bits.plan" 2 2>&1 |
  grep -vE "^\s*$" | grep -vE "^\s*-+\s" | head -200
