#!/usr/bin/env bash
# gpu_bench_bits.sh — on an NVIDIA GPU machine: registers NVIDIA's OpenCL, builds sqz without tests, checks
# layout bits against compact on the GPU, then benchmarks bits on fractals (R = 20, 22, 24) and simplices.
# usage: scripts/gpu_bench_bits.sh [check] [fractal] [simplex]   (default: all three); logs go to $OUT.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-bits
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DSQZ_BUILD_TESTS=OFF > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B -j"$(nproc)" --target sqz_cli > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
what="${*:-check fractal simplex}"
run() { echo "\$ $*" | tee -a "$OUT/bits.log"; timeout 540 "$@" 2>&1 | tee -a "$OUT/bits.log"; }
case " $what " in *" check "*) # bits and compact: the same final state (.npy, bit for bit) after 50 steps on the GPU
  for d in fractal:sierpinski-triangle:13 fractal:sierpinski-carpet:7 triangle:3001 tetrahedron:301; do
    for l in compact bits; do
      timeout 300 $B/sqz life $d --steps 50 --layout $l --out "$OUT/check-$l.npy" --quiet > /dev/null 2>> "$OUT/bits.log"
    done
    if cmp -s "$OUT/check-compact.npy" "$OUT/check-bits.npy"; then echo "check $d: same"; else echo "check $d: DIFFERENT"; fi |
      tee -a "$OUT/bits.log"
  done
  rm -f "$OUT"/check-*.npy ;;
esac
case " $what " in *" fractal "*) # the 1-bit floor: 2 bits per cell at copy speed (floor column)
  run $B/sqz info fractal:sierpinski-triangle:24 --layout bits
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:20 --steps 20 --layouts compact,bits
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:22 --steps 10 --layouts compact,bits
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:24 --steps 5 --layouts bits
  run $B/sqz bench fractal --domain fractal:sierpinski-carpet:10 --steps 10 --layouts compact,bits ;;
esac
case " $what " in *" simplex "*)
  run $B/sqz bench simplex --domain triangle:46341 --workload life --steps 20 --layouts compact,bits --maps had
  run $B/sqz bench simplex --domain tetrahedron:2048 --workload life --steps 10 --layouts compact,bits --maps had3 ;;
esac
echo "done: $what"
