#!/usr/bin/env bash
# ncu_triangle.sh — on the GPU machine: Nsight Compute metrics of the triangle word step (OpenCL's PTX replayed through CUDA by
# scripts/ncu_cl_kernel.c), for the reason the step stays below the memory floor. usage: scripts/ncu_triangle.sh BUILD_DIR [N]
set -u
B=${1:-build-gpu}
N=${2:-46341}
export PATH=/usr/local/cuda/bin:$PATH SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=${SQZ_CACHE_DIR:-$PWD/$B/ncu-cache}
mkdir -p /etc/OpenCL/vendors && [ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
"$B/sqz" bench simplex --domain "triangle:$N" --workload life --steps 5 --layouts compact --maps had --rule B3/S23 | grep -E "^compact"
F=$(grep -la "engine_simplex_swar2" "$SQZ_CACHE_DIR"/*.bin | head -1)
gcc -O2 -I/usr/local/cuda/include scripts/ncu_cl_kernel.c -o "$B/ncu_cl_kernel" -lcuda || exit 1
"$B/ncu_cl_kernel" "$F" "$N" 5
ncu --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
  --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis "$B/ncu_cl_kernel" "$F" "$N" 3 2>&1 |
  grep -vE "^==PROF==|^\s*$" | grep -E "Throughput|Duration|Issue|Stall|Warp Cycles|Executed Ipc|Occupancy|Registers|Instructions|L1|L2|DRAM|Hit|Eligible|Active|Bandwidth|One or More|No Eligible" | head -70
