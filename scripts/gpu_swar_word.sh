#!/usr/bin/env bash
# gpu_swar_word.sh — on an NVIDIA GPU machine: checks that the fast u8 Life steps still run 32-bit words on the GPU, as
# fast as before the per-device word width (SQZ_SWAR_WORD): this tree against a base commit, same runs, same GPU.
#
# usage: scripts/gpu_swar_word.sh [BASE_REF]   (default: the parent of the first commit that added SQZ_SWAR_WORD)
# env:   OUT=DIR (default build-swar-word/out), REPS (3), R (18: fractal:sierpinski-triangle:R), N (46341: triangle:N)
# What it does:
#   1. builds this tree in build-swar-word/new and BASE_REF (a git worktree) in build-swar-word/base (Release, no CUDA,
#      no tests; registers NVIDIA's OpenCL driver with the ICD loader if missing);
#   2. runs, REPS times each and alternating the two builds, on the NVIDIA OpenCL device:
#        sqz bench fractal --domain fractal:sierpinski-triangle:R --layouts compact,block:16,block:32 --steps 20
#        sqz bench simplex --domain triangle:N --maps had,bb --layouts compact,bb --steps 20 --rule B3/S23
#      with the new build three ways: default (must pick 32-bit words on a GPU), SQZ_SWAR_WORD=32, SQZ_SWAR_WORD=8;
#   3. prints per row the best kernel ms per step of each, new default / base (expect 1.00 within noise, i.e. 0.97-1.03),
#      and flags a row whose live count differs, whose default is slower than base by more than 3 %, or whose default
#      differs from SQZ_SWAR_WORD=32 by more than 10 % (the default on a GPU is the 32-bit step); exit 1 if any is flagged.
# Checked end to end on PoCL (SQZ_DEVICE=0:0 R=8 N=300 REPS=1): there every row is flagged as not 32-bit, as it should.
# A 10-minute call limit fits REPS=3 at the defaults (two builds of about a minute each, then 24 bench runs).
set -u
cd "$(dirname "$0")/.."
TOP=build-swar-word
OUT=${OUT:-$TOP/out} REPS=${REPS:-3} R=${R:-18} N=${N:-46341}
mkdir -p "$OUT"
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && command -v nvidia-smi >/dev/null; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
BASE=""
git rev-parse --git-dir >/dev/null 2>&1 && BASE=${1:-$(git log --format=%H -S SQZ_SWAR_WORD --reverse -- cl/sqz_swar.h | head -1)^}
source scripts/ab_builds.sh
ab_builds "$TOP" "$OUT" "$BASE" || exit 1
[ -x "$TOP/base/sqz" ] || echo "== no base build (no git history here): default against SQZ_SWAR_WORD=32 only"
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA}
"$TOP/new/sqz" devices | tee "$OUT/devices.txt"
fr=(bench fractal --domain "fractal:sierpinski-triangle:$R" --layouts compact,block:16,block:32 --steps 20 --json)
tri=(bench simplex --domain "triangle:$N" --maps had,bb --layouts compact,bb --steps 20 --rule B3/S23 --json)
for i in $(seq "$REPS"); do
  for w in fr tri; do
    declare -n cmd=$w
    echo "== [$i] $w: sqz ${cmd[*]}"
    [ -x "$TOP/base/sqz" ] && env -u SQZ_SWAR_WORD "$TOP/base/sqz" "${cmd[@]}" >"$OUT/$w.base.$i.json" 2>>"$OUT/errors.log"
    env -u SQZ_SWAR_WORD "$TOP/new/sqz" "${cmd[@]}" >"$OUT/$w.default.$i.json" 2>>"$OUT/errors.log"
    SQZ_SWAR_WORD=32 "$TOP/new/sqz" "${cmd[@]}" >"$OUT/$w.w32.$i.json" 2>>"$OUT/errors.log"
    SQZ_SWAR_WORD=8 "$TOP/new/sqz" "${cmd[@]}" >"$OUT/$w.w8.$i.json" 2>>"$OUT/errors.log"
  done
done
"$(command -v /usr/bin/python3 || command -v python3)" - "$OUT" <<'PY'
import sys
sys.path.insert(0, "scripts")
from bench_best import best_rows
best, live = best_rows(sys.argv[1], "*.json", lambda name: name.split(".")[1], backend="opencl")
best = {((row[0], row[2]), kind): v[0] for (row, kind), v in best.items()}
live = {(row[0], row[2]): v for row, v in live.items()}
bad = 0
print(f"{'domain':34s} {'row':14s} {'base':>9s} {'default':>9s} {'w32':>9s} {'w8':>9s}  default/base (no base: default/w32; kernel ms per step, best)")
for row in sorted({k[0] for k in best}):
    b = lambda kind: best.get((row, kind), float("nan"))
    ratio = b("default") / (b("base") if (row, "base") in best else b("w32"))
    flag = ""
    if len(live[row]) != 1:
        flag += "  LIVE COUNTS DIFFER"
    if not ratio <= 1.03:
        flag += "  SLOWER THAN BASE"
    if not 0.9 <= b("default") / b("w32") <= 1.1: # a GPU's default must be the 32-bit step
        flag += "  DEFAULT IS NOT THE 32-BIT STEP (a CPU device?)"
    bad += bool(flag)
    print(f"{row[0]:34s} {row[1]:14s} " + " ".join(f"{1e3 * b(k):9.3f}" for k in ("base", "default", "w32", "w8")) +
          f"  {ratio:5.2f}{flag}")
print("GPU path unchanged" if not bad else f"{bad} row(s) flagged: rerun to rule out noise, then compare the kernels")
sys.exit(1 if bad else 0)
PY
