#!/usr/bin/env bash
# gpu_ab.sh — on a GPU machine: this tree against a base commit, the same `sqz bench` runs alternating the two builds, best kernel ms and floor share per row.
#
# usage: scripts/gpu_ab.sh BASE_REF 'bench ARGS' ['bench ARGS' ...]
# env:   OUT (default build-ab/out), REPS (3), SQZ_DEVICE (default NVIDIA), AB_ENV (extra VAR=VALUE words for the
#        new build only, e.g. a variant switch; AB_ENV_BASE the same for the base build)
# Builds this tree (build-ab/new) and BASE_REF as a git worktree (build-ab/base), Release, sqz only (no tests),
# registering NVIDIA's OpenCL with the ICD loader when it is missing; then runs every bench REPS times
# (base, new, base, new, ...) with --json and prints, per (domain, row), both builds' best kernel ms per step,
# their floor shares and new/base speed, flagging rows whose live counts differ between runs or builds.
set -u
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 3,10p "$0"; exit 2; }
BASE=$1
shift
TOP=build-ab
OUT=${OUT:-$TOP/out} REPS=${REPS:-3}
mkdir -p "$OUT"
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && command -v nvidia-smi >/dev/null; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
source scripts/ab_builds.sh
ab_builds "$TOP" "$OUT" "$BASE" || exit 1
[ -x "$TOP/base/sqz" ] || { echo "no base build"; exit 1; }
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA}
"$TOP/new/sqz" devices | tee "$OUT/devices.txt"
for i in $(seq "$REPS"); do
  b=0
  for args in "$@"; do
    b=$((b + 1))
    read -r -a cmd <<<"$args"
    echo "== [$i] bench $b: sqz ${cmd[*]}"
    env ${AB_ENV_BASE:-} "$TOP/base/sqz" "${cmd[@]}" --json >"$OUT/b$b.base.$i.json" 2>>"$OUT/errors.log"
    env ${AB_ENV:-} "$TOP/new/sqz" "${cmd[@]}" --json >"$OUT/b$b.new.$i.json" 2>>"$OUT/errors.log"
  done
done
"$(command -v /usr/bin/python3 || command -v python3)" - "$OUT" <<'PY'
import sys
sys.path.insert(0, "scripts")
from bench_best import best_rows
best, live = best_rows(sys.argv[1], "b*.json", lambda name: name.split(".")[1])
print(f"{'domain':32s} {'backend':7s} {'row':16s} {'base ms':>9s} {'floor':>6s} {'new ms':>9s} {'floor':>6s} {'new/base':>8s}")
bad = 0
for row in sorted({k[0] for k in best}):
    b, n = best.get((row, "base"), (float("nan"),) * 2), best.get((row, "new"), (float("nan"),) * 2)
    flag = "  LIVE COUNTS DIFFER" if len(live[row]) != 1 else ""
    bad += bool(flag)
    print(f"{row[0]:32s} {row[1]:7s} {row[2]:16s} {1e3 * b[0]:9.3f} {b[1]:6.3f} {1e3 * n[0]:9.3f} {n[1]:6.3f} "
          f"{b[0] / n[0]:7.2f}x{flag}")
sys.exit(1 if bad else 0)
PY
