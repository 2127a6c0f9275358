#!/usr/bin/env bash
# gpu_bits_lanes.sh — on an NVIDIA GPU machine: the bits fractal step by lanes (SQZ_BITS_STEP=lanes) against the list of boxes (the default): the same final states on the GPU, a random sweep against compact on the cpu backend (SWEEP runs, default 150), then both timed in one loop, best of 3, Sierpiński R = 18, 20, 22, 24 and the user pattern ##./#.#/.## (whose lanes are smaller).
# usage: scripts/gpu_bits_lanes.sh   (logs and a summary under $OUT; B: the build folder; CHECK and TIME: other
#        domains, e.g. CHECK="fractal:sierpinski-triangle:9" TIME="fractal:sierpinski-triangle:12" SQZ_DEVICE=pthread to try
#        the script on PoCL)
# Decides the default: lanes become the GPU default only if they beat the list at every R here.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=${B:-build-lanes}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DSQZ_BUILD_TESTS=OFF > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$B" -j"$(nproc)" --target sqz_cli > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=$PWD/$B/cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$OUT/gpu.txt"
log="$OUT/lanes.log"
# the same state after 50 steps (8 a launch, then 2), lanes against the list, bit for bit
CHECK=${CHECK:-"fractal:sierpinski-triangle:13 fractal:sierpinski-triangle:16 fractal:##./#.#/.##:8 fractal:vicsek-cross:7"}
TIME=${TIME:-"fractal:sierpinski-triangle:18 fractal:sierpinski-triangle:20 fractal:sierpinski-triangle:22 fractal:sierpinski-triangle:24 fractal:##./#.#/.##:12"}
for d in $CHECK; do
  for v in list lanes; do
    rm -f "$OUT/check.plan"
    SQZ_BITS_STEP=$v SQZ_BITS_PLAN_OUT="$OUT/check.plan" timeout 300 "$B/sqz" life "$d" --steps 50 --layout bits \
      --out "$OUT/check-$v.npy" --quiet >> "$log" 2>&1
  done
  if cmp -s "$OUT/check-list.npy" "$OUT/check-lanes.npy"; then r=same; else r=DIFFERENT; fi
  # the plan the lanes run wrote (flag 4: the lanes' own; else they fell back to the boxes)
  ran=$(python3 -c 'import struct,sys; print("lanes ran" if struct.unpack("16I", open(sys.argv[1], "rb").read(64))[15] & 4 else "LANES FELL BACK")' \
    "$OUT/check.plan" 2>/dev/null || echo "no plan written")
  echo "check $d: $r ($ran)" | tee -a "$log"
done
rm -f "$OUT"/check-*.npy
# random user patterns, rules, step counts and depths: the lanes on the GPU (its small lanes) against compact on the cpu backend
timeout 900 python3 scripts/sweep_bits_lanes.py 17 ${SWEEP:-150} "$B/sqz" 2>&1 | tail -3 | tee -a "$log"
# kernel ms a step, both variants in one loop, best of 3
for d in $TIME; do
  steps=24
  case $d in *:24) steps=8 ;; esac
  for rep in 1 2 3; do
    for v in list lanes; do
      SQZ_BITS_STEP=$v timeout 540 "$B/sqz" bench fractal --domain "$d" --steps $steps --layouts bits --json \
        > "$OUT/bench.$v.$rep.$(echo "$d" | tr -c 'a-z0-9\n' _).json" 2>> "$log"
    done
  done
done
python3 - "$OUT" <<'PY' | tee -a "$log"
import glob, json, os, sys
best = {}
for path in glob.glob(os.path.join(sys.argv[1], "bench.*.json")):
    v = os.path.basename(path).split(".")[1]
    try:
        d = json.load(open(path))
    except ValueError:
        continue
    for r in d["layouts"]:
        key, ms = (d["domain"], v), 1e3 * r["kernel_s_per_step"]
        if r["status"] == "ok" and (key not in best or ms < best[key][0]):
            best[key] = (ms, r["cells_per_s"], r["live"])
for (dom, v), (ms, cps, live) in sorted(best.items()):
    print(f"{dom} {v}: {ms:.4f} ms a step, {cps:.3g} cells/s, live {live}")
PY
echo "done"
