#!/usr/bin/env bash
# gpu_bench_bits.sh — on an NVIDIA GPU machine: registers NVIDIA's OpenCL, builds sqz without tests, checks
# layout bits against compact on the GPU (every fractal step variant and steps-per-launch depth), then times bits
# on fractals (Sierpinski R = 20, 22, 24, carpet R = 10) per variant and depth, and on simplices.
# usage: scripts/gpu_bench_bits.sh [check] [fractal] [simplex]   (default: all three); logs go to $OUT.
# Variants of the fractal step: generic = the one-step kernel with a cell per bit (SQZ_ENGINE=generic),
# box T = the sub-tile box step with T steps per launch (SQZ_TEMPORAL=T), box q=Q = a smaller box (SQZ_BITS_Q=Q).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=${B:-build-bits}
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DSQZ_BUILD_TESTS=OFF > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B -j"$(nproc)" --target sqz_cli > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
what="${*:-check fractal simplex}"
run() { echo "\$ $*" | tee -a "$OUT/bits.log"; timeout 540 "$@" 2>&1 | tee -a "$OUT/bits.log"; }
# variant name -> environment
variant_env() {
  case $1 in
  generic) echo "SQZ_ENGINE=generic" ;;
  box*q=*) echo "SQZ_TEMPORAL=${1:3:1} SQZ_BITS_Q=${1##*q=}" ;;
  box*) echo "SQZ_TEMPORAL=${1:3:1}" ;;
  esac
}
case " $what " in *" check "*) # bits and compact: the same final state (.npy, bit for bit) after 50 steps on the GPU
  for d in fractal:sierpinski-triangle:13 fractal:sierpinski-carpet:7 fractal:vicsek-cross:7 "fractal:##./#.#/.##:7" \
    triangle:3001 tetrahedron:301; do
    timeout 300 $B/sqz life "$d" --steps 50 --layout compact --out "$OUT/check-compact.npy" --quiet > /dev/null 2>> "$OUT/bits.log"
    vs="box1"
    case $d in fractal:*) vs="generic box1 box2 box3 box4 box4q=0" ;; esac
    for v in $vs; do
      env $(variant_env $v) timeout 300 $B/sqz life "$d" --steps 50 --layout bits --out "$OUT/check-bits.npy" --quiet \
        > /dev/null 2>> "$OUT/bits.log"
      if cmp -s "$OUT/check-compact.npy" "$OUT/check-bits.npy"; then r=same; else r=DIFFERENT; fi
      echo "check $d $v: $r" | tee -a "$OUT/bits.log"
    done
  done
  rm -f "$OUT"/check-*.npy ;;
esac
case " $what " in *" fractal "*) # floor column: share of the 1-bit floor (2 bits per cell at copy speed), effective for T > 1
  run $B/sqz info fractal:sierpinski-triangle:24 --layout bits
  bench() { # domain steps variants...: one bench line per variant (steps divisible by 1 .. 4)
    local d=$1 steps=$2
    shift 2
    for v in "$@"; do
      echo "== $d $v" | tee -a "$OUT/bits.log"
      env $(variant_env $v) timeout 540 $B/sqz bench fractal --domain "$d" --steps "$steps" --layouts bits 2>&1 |
        grep -E "^bits |rror" | sed "s/^bits /bits-$v /" | tee -a "$OUT/bits.log"
    done
  }
  run $B/sqz bench fractal --domain fractal:sierpinski-triangle:20 --steps 24 --layouts compact,bits
  bench fractal:sierpinski-triangle:20 24 generic box1 box2 box3 box4 box4q=2 box4q=1
  bench fractal:sierpinski-triangle:22 12 generic box1 box2 box3 box4
  bench fractal:sierpinski-triangle:24 12 generic box1 box2 box3 box4
  run $B/sqz bench fractal --domain fractal:sierpinski-carpet:10 --steps 24 --layouts compact,bits
  bench fractal:sierpinski-carpet:10 24 generic box1 box2 box3 box4
  bench fractal:vicsek-cross:10 24 generic box1 box2 box3 box4 ;;
esac
case " $what " in *" simplex "*)
  run $B/sqz bench simplex --domain triangle:46341 --workload life --steps 20 --layouts compact,bits --maps had
  run $B/sqz bench simplex --domain tetrahedron:2048 --workload life --steps 10 --layouts compact,bits --maps had3 ;;
esac
echo "done: $what"
