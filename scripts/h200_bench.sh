#!/usr/bin/env bash
# h200_bench.sh — on an NVIDIA GPU machine: registers NVIDIA's OpenCL, builds sqz, runs the OpenCL
# tests on the GPU, then the simplex and fractal benchmarks; logs and JSON go to $OUT.
# usage: scripts/h200_bench.sh [tests] [simplex] [fractal] [quick]   (default: tests simplex fractal)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# Check is not installed on the GPU image: unpack carried Debian packages if present.
for f in .gpu/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B -j"$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/cache
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader | tee "$OUT/gpu.txt"
$B/sqz devices | tee "$OUT/devices.txt"
what="${*:-tests simplex fractal}"
run() { echo "\$ $*" | tee -a "$OUT/bench.log"; timeout 300 "$@" 2>&1 | tee -a "$OUT/bench.log"; }
case " $what " in *" tests "*)
  (cd $B && timeout 900 ctest -L opencl -j4 --output-on-failure) > "$OUT/ctest.log" 2>&1
  grep -E "tests passed|Failed|Timeout|\(Failed\)" "$OUT/ctest.log" | tail -15 ;;
esac
case " $what " in *" simplex "*)
  run $B/sqz bench simplex --domain triangle:46341 --workload life --steps 20
  run $B/sqz bench simplex --domain tetrahedron:2048 --workload life --steps 10 --maps bb,ltm3,had3,rec3
  run $B/sqz bench simplex --domain triangle:46341 --workload edm --steps 5 --layouts compact ;;
esac
case " $what " in *" fractal "*)
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:16 --steps 20
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:18 --steps 10 --layouts block:16,block:32,compact
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:20 --steps 5 --layouts compact ;;
esac
case " $what " in *" quick "*)
  run $B/sqz life fractal:sierpinski-triangle:12 --steps 100 --rule B2/S23 --json
  run $B/sqz life triangle:4096 --steps 10 --json ;;
esac
echo "done: $what"
