#!/usr/bin/env bash
# ncu_triangle.sh — on the GPU machine: Nsight Compute metrics of the triangle word step (OpenCL's PTX replayed through CUDA by
# scripts/ncu_cl_kernel.c), for the reason the step stays below the memory floor. usage: scripts/ncu_triangle.sh BUILD_DIR [N]
# Each stage has its own time limit and prints as it goes.
set -u
B=${1:-build-gpu}
N=${2:-46341}
export PATH=/usr/local/cuda/bin:$PATH SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=${SQZ_CACHE_DIR:-$PWD/$B/ncu-cache}
mkdir -p /etc/OpenCL/vendors && { [ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; }
echo "== sqz bench (fills the program cache)"
timeout 90 "$B/sqz" bench simplex --domain "triangle:$N" --workload life --steps 5 --layouts compact --maps had --rule B3/S23 --no-copy-test 2>&1 | grep -E "^compact|rror"
F=$(grep -la "engine_simplex_swar2" "$SQZ_CACHE_DIR"/*.bin | head -1)
echo "== cache file: $F"
gcc -O2 -I/usr/local/cuda/include scripts/ncu_cl_kernel.c -o "$B/ncu_cl_kernel" -lcuda || exit 1
echo "== replay through CUDA"
timeout 60 "$B/ncu_cl_kernel" "$F" "$N" 5
echo "== ncu (limit ${NCU_LIMIT:-150} s)"
timeout "${NCU_LIMIT:-150}" ncu --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section Occupancy \
  "$B/ncu_cl_kernel" "$F" "$N" 2 2>&1 | grep -vE "^\s*$" | grep -vE "^\s*-+\s" | head -90
