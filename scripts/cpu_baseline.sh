#!/usr/bin/env bash
# cpu_baseline.sh — the fair CPU baseline on this machine: the cpu backend with 1 and with all
# OpenMP threads, and PoCL against the cpu backend in one run (sqz bench --backend opencl,cpu),
# for fractal Life in compact and triangle Life (map had, compact). Each run is repeated and the
# best kernel time per step kept (a shared machine only ever slows a run down).
# usage: scripts/cpu_baseline.sh [path/to/sqz]
#   env: REPS (5), R (13), N (4096), STEPS (20), THREADS (nproc), OUT (JSON of every run; a temporary folder),
#        WORDS (e.g. "32 8": the opencl,cpu runs once more per SQZ_SWAR_WORD value, rows w32, w8; 32 is the
#        GPUs' word step, i.e. PoCL as it ran before CPU devices got their own, 8 the CPU devices' default)
set -uo pipefail
sqz=${1:-build/sqz}
REPS=${REPS:-5} R=${R:-13} N=${N:-4096} STEPS=${STEPS:-20} THREADS=${THREADS:-$(nproc)}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
fr=(bench fractal --domain fractal:sierpinski-triangle:$R --layouts compact --steps $STEPS)
tri=(bench simplex --domain triangle:$N --maps had --layouts compact --steps $STEPS --rule B3/S23)
for what in fr tri; do
  declare -n cmd=$what
  echo "\$ sqz ${cmd[*]} --backend opencl,cpu --json   (and --backend cpu with OMP_NUM_THREADS=1, $THREADS; $REPS times each)"
  for i in $(seq "$REPS"); do
    "$sqz" "${cmd[@]}" --backend opencl,cpu --json > "$OUT/$what.both.$i.json"
    for w in ${WORDS:-}; do SQZ_SWAR_WORD=$w "$sqz" "${cmd[@]}" --backend opencl,cpu --json > "$OUT/$what.w$w.$i.json"; done
    for t in 1 "$THREADS"; do OMP_NUM_THREADS=$t "$sqz" "${cmd[@]}" --backend cpu --json > "$OUT/$what.t$t.$i.json"; done
  done
done
# The best kernel time per step of each (workload, run kind, backend), with that run's floor share.
"$(command -v /usr/bin/python3 || command -v python3)" - "$OUT" "$THREADS" <<'PY'
import glob, json, os, sys
out, threads = sys.argv[1], sys.argv[2]
best = {}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    what, kind = os.path.basename(path).split(".")[:2]
    d = json.load(open(path))
    for run in d.get("runs", [d]):
        for r in run.get("layouts") or run.get("rows"):
            if r["status"] != "ok":
                continue
            k = r.get("kernel_s_per_step", r.get("kernel_s_per_pass"))
            key = (what, kind, run["backend"])
            if key not in best or k < best[key][0]:
                best[key] = (k, r.get("floor_share", 0.0), run["copy_bandwidth_bytes_per_s"], run["cells"], run["domain"])
for (what, kind, be), (k, fs, bw, cells, dom) in sorted(best.items()):
    print(f"{dom:32s} {kind:5s} {be:7s} {1e3 * k:9.3f} ms/step {cells / k / 1e9:7.3f} Gcells/s"
          f"  floor share {fs:6.3f} (copy {bw / 1e9:5.1f} GB/s)")
for what in sorted({k[0] for k in best}):
    b = lambda kind, be: best.get((what, kind, be), (float("nan"),))[0]
    words = "".join(f"; SQZ_SWAR_WORD={kind[1:]}: {b(kind, 'cpu') / b(kind, 'opencl'):.2f}x"
                    for kind in sorted({k[1] for k in best if k[0] == what and k[1].startswith("w")}))
    print(f"{what}: cpu {threads} threads vs 1: {b('t1', 'cpu') / b('t' + threads, 'cpu'):.2f}x;"
          f" opencl vs cpu in the same runs: {b('both', 'cpu') / b('both', 'opencl'):.2f}x{words}")
PY
