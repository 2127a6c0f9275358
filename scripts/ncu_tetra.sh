#!/usr/bin/env bash
# ncu_tetra.sh — on the GPU machine: Nsight Compute metrics of the tetrahedron word step (OpenCL's PTX replayed through CUDA by
# scripts/ncu_tetra_kernel.c with sqz's arguments and launch), for the reason the step stays below the memory floor.
# usage: scripts/ncu_tetra.sh BUILD_DIR [N]   (default tetrahedron:2048, compact, B6/S5,6,7). Each stage has its own time limit
# (about 4 min in all at most) and prints as it goes.
set -u
B=${1:-build-gpu}
N=${2:-2048}
export PATH=/usr/local/cuda/bin:$PATH SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/ncu-tetra-cache
mkdir -p /etc/OpenCL/vendors && { [ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; }
rm -rf "$SQZ_CACHE_DIR"
echo "== sqz bench (fills the program cache)"
timeout 90 "$B/sqz" bench simplex --domain "tetrahedron:$N" --workload life --steps 5 --layouts compact --maps had3 \
  --rule B6/S5,6,7 --no-copy-test 2>&1 | grep -E "^(layout|compact)|rror"
F=$(grep -la ".entry engine_tetra_swar" "$SQZ_CACHE_DIR"/*.bin | head -1)
echo "== cache file: $F"
[ -n "$F" ] || exit 1
gcc -O2 -I/usr/local/cuda/include scripts/ncu_tetra_kernel.c -o "$B/ncu_tetra_kernel" -lcuda || exit 1
echo "== replay through CUDA (compare the best/mean ms with the bench's kernel ms a step)"
timeout 45 "$B/ncu_tetra_kernel" "$F" "$N" 5 || exit 1
echo "== ncu (limit ${NCU_LIMIT:-100} s)"
timeout "${NCU_LIMIT:-100}" ncu --launch-skip 1 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis "$B/ncu_tetra_kernel" "$F" "$N" 2 2>&1 |
  grep -vE "^\s*$" | grep -vE "^\s*-+\s" | head -160
