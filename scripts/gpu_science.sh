#!/usr/bin/env bash
# gpu_science.sh — on an NVIDIA GPU machine: builds sqz (Release, NVIDIA's OpenCL) and runs the walk-dimension study
# (examples/walk_dimensions.py, docs/SCIENCE.md) at levels whose bounding box a dense code could not hold, plus
# one long carpet run; about 8 minutes on one H100. Each run's log, JSON and plot go to $OUT.
#
# usage: scripts/gpu_science.sh [BUILD_DIR [RUN ...]]   (default build-gpu and the runs below; as root for the ICD file)
#        RUN as the study takes it: FRACTAL:LEVEL:STEPS[:TYPE]
# env:   OUT=DIR (default BUILD_DIR/science), PYTHON (default: the first python3 that imports numpy)
# Exit status: 0 when every run finished and its total stayed 1, else 1.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${1:-build-gpu}
shift $(($# > 0 ? 1 : 0))
OUT=${OUT:-$BUILD/science}
mkdir -p "$BUILD" "$OUT"
# vicsek 11 (two f64 states 0.8 GB, a dense box 502 GB), triangle 17 (2.1 GB against 275 GB), carpet 8 long (f64,
# 0.27 GB against 0.69 GB: the carpet's periods), carpet 11 last (f32: 69 GB against 251 GB; the H100's limit)
RUNS=("$@")
[ ${#RUNS[@]} -gt 0 ] || RUNS=(vicsek:11:40000 triangle:17:10000 carpet:8:100000 carpet:11:300:f32)
# shellcheck source=scripts/gpu_engine_common.sh
source scripts/gpu_engine_common.sh # builds into $BUILD (log $OUT/build.log), sets SQZ_DEVICE=NVIDIA
PYTHON=${PYTHON:-}
for py in python3 /usr/bin/python3; do
  [ -n "$PYTHON" ] || ! "$py" -c "import numpy" 2>/dev/null || PYTHON=$py
done
[ -n "$PYTHON" ] || { echo "gpu_science: no python3 with NumPy"; exit 1; }
export PYTHONPATH=$PWD/python SQZ_LIBRARY=$PWD/$BUILD/libsqz.so PYTHONUNBUFFERED=1
"$PYTHON" -c "import matplotlib" 2>/dev/null || echo "(no matplotlib: no plots)"
FAILED=0
for r in "${RUNS[@]}"; do
  tag=${r//:/_}
  echo "== $r"
  t0=$SECONDS
  "$PYTHON" examples/walk_dimensions.py "$r" --device "$SQZ_DEVICE" --per-decade 24 --plots "$OUT" \
    --json "$OUT/walk_$tag.json" 2>&1 | tee "$OUT/walk_$tag.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || FAILED=1
  echo "   $((SECONDS - t0)) s"
done
exit $FAILED
