#!/usr/bin/env bash
# h200_engine.sh — on an NVIDIA GPU machine: the stencil engine on NVIDIA's OpenCL against the cpu backend
# (Life, user stencils in u8/i32/f32/f64, heat), the OpenCL tests, and the fractal/simplex Life benchmarks.
# usage: OUT=DIR scripts/h200_engine.sh      (as root; carry Check as .gpu/*.deb for the Check tests)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
for f in .gpu/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DSQZ_WITH_CUDA=ON > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build $B -j"$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/cache
S=$B/sqz
$S devices | tee "$OUT/devices.txt"
log() { echo "\$ $*" | tee -a "$OUT/engine.log"; timeout 300 "$@" 2>&1 | tee -a "$OUT/engine.log"; }
# the same user stencil and heat on NVIDIA and on the cpu backend: states must agree
cat > /tmp/avg.cl <<'K'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  sqz_cell_t sum = 0; int k = 0;
  for (int i = 0; i < SQZ_NB; i++) if (present >> i & 1u) { sum += nb[i]; k++; }
  return k ? (1 - param[0]) * self + param[0] * sum / k : self;
}
K
cat > /tmp/cyc.cl <<'K'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  int k = (int)param[0], next = (self + 1) % k, c = 0;
  for (int i = 0; i < SQZ_NB; i++) c += (present >> i & 1u) && nb[i] == next;
  return c >= 2 ? next : self;
}
K
for d in fractal:sierpinski-carpet:5 triangle:301 tetrahedron:40; do
  for t in f64 f32; do
    for l in compact bb; do
      log $S run $d --kernel /tmp/avg.cl --type $t --steps 50 --param 0.5 --layout $l --init random:0.5:3 --out "$OUT/avg_${t}.npy" --json
    done
    log $S heat $d --steps 200 --type $t --out "$OUT/heat_gpu_${t}.npy" --json
    log $S heat $d --steps 200 --type $t --backend cpu --out "$OUT/heat_cpu_${t}.npy" --json
    python3 -c "import numpy as n,sys; a=n.load('$OUT/heat_gpu_$t.npy'); b=n.load('$OUT/heat_cpu_$t.npy'); print('heat $d $t max|gpu-cpu| =', float(abs(a-b).max()), 'equal' if (a==b).all() else 'DIFFER')" | tee -a "$OUT/engine.log"
  done
  log $S run $d --kernel /tmp/cyc.cl --type i32 --steps 30 --param 3 --json
done
rm -f "$OUT"/*.npy
(cd $B && timeout 400 ctest -L opencl -j4 --output-on-failure) > "$OUT/ctest.log" 2>&1
grep -E "tests passed|Failed|Timeout|\(Failed\)|Passed" "$OUT/ctest.log" | tail -20
log $S bench fractal --domain fractal:sierpinski-triangle:16 --steps 20 --json
log $S bench fractal --domain fractal:sierpinski-triangle:18 --steps 10 --layouts block:16,block:32,compact
log $S bench simplex --domain triangle:46341 --workload life --steps 20
log $S bench simplex --domain tetrahedron:2048 --workload life --steps 10 --maps bb,ltm3,had3,rec3
echo done
