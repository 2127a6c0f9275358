#!/usr/bin/env bash
# gpu_tetra.sh — on an NVIDIA GPU machine: the fast u8 tetrahedron Life step (cl/engine_tetra_swar.cl) checked against the cpu backend, then timed against the generic per-cell kernels on tetrahedron:SIDE with floor shares.
#
# usage: scripts/gpu_tetra.sh [BUILD_DIR]   (default build-tetra; run as root: it may register NVIDIA's OpenCL driver)
# env:   OUT=DIR (default BUILD_DIR/tetra-out), SIDE (2048: tetrahedron:SIDE), STEPS (10), CHECK_N (sides checked, "61 130 301"),
#        CHUNKS (SQZ_TETRA_CHUNK values timed besides the default, "32 512"), VARIANTS (SQZ_TETRA_VARIANT values
#        checked and timed besides the default two-plane step: "0 1", the one-plane step and the two-plane one with
#        inline PTX), LOCALXS (SQZ_TETRA_LOCAL_X values timed besides the default 128, "8 16 32")
# What it does:
#   1. scripts/gpu_engine_common.sh: NVIDIA's OpenCL registered if missing, a Release build without tests;
#   2. per side of CHECK_N, layout (compact, bb) and rule (B6/S5,6,7 and B0,6,26/S5,6,7,26, birth on 0): 5 Life steps
#      on the cpu backend and on the GPU (the default step: 32-bit words), the final states (.npy) compared byte for
#      byte; exit 1 at the end if any differs;
#   3. `sqz bench simplex --domain tetrahedron:SIDE --workload life --layouts compact,bb --maps bb,ltm3,had3,rec3` with
#      SQZ_ENGINE=generic (every map's own per-cell kernel) and with the default (the word step, the same kernel for
#      every map), and the word step at each CHUNKS, VARIANTS and LOCALXS value; the summary of scripts/engine_summary.py (kernel ms per
#      step, Gcells/s, share of the floor of 2 bytes per cell at copy speed, fast/generic speed-up per row).
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build-tetra}
OUT=${OUT:-$BUILD/tetra-out} SIDE=${SIDE:-2048} STEPS=${STEPS:-10} CHECK_N=${CHECK_N:-61 130 301} CHUNKS=${CHUNKS-32 512}
VARIANTS=${VARIANTS-0 1} LOCALXS=${LOCALXS-8 16 32}
mkdir -p "$BUILD" "$OUT"
source scripts/gpu_engine_common.sh

bad=0
for n in $CHECK_N; do
  for layout in compact bb; do
    for rule in B6/S5,6,7 B0,6,26/S5,6,7,26; do
      timeout 300 "$S" life "tetrahedron:$n" --steps 5 --rule "$rule" --layout "$layout" --backend cpu \
        --out "$OUT/check-cpu.npy" --quiet >/dev/null 2>>"$OUT/errors.log"
      for v in default $VARIANTS; do
        rm -f "$OUT/check-opencl.npy"
        SQZ_TETRA_VARIANT=${v#default} timeout 300 "$S" life "tetrahedron:$n" --steps 5 --rule "$rule" --layout "$layout" \
          --backend opencl --out "$OUT/check-opencl.npy" --quiet >/dev/null 2>>"$OUT/errors.log"
        if cmp -s "$OUT/check-cpu.npy" "$OUT/check-opencl.npy"; then r=same; else r=DIFFERENT && bad=1; fi
        echo "check tetrahedron:$n $layout $rule (variant $v): opencl vs cpu $r"
      done
    done
  done
done
rm -f "$OUT"/check-*.npy

bench=(bench simplex --domain "tetrahedron:$SIDE" --workload life --steps "$STEPS" --layouts compact,bb --maps)
for e in generic fast; do run "tetrahedron$SIDE" $e "${bench[@]}" bb,ltm3,had3,rec3; done
for c in $CHUNKS; do SQZ_TETRA_CHUNK=$c run "tetrahedron$SIDE-chunk$c" fast "${bench[@]}" had3; done
for v in $VARIANTS; do SQZ_TETRA_VARIANT=$v run "tetrahedron$SIDE-variant$v" fast "${bench[@]}" had3; done
for l in $LOCALXS; do SQZ_TETRA_LOCAL_X=$l run "tetrahedron$SIDE-localx$l" fast "${bench[@]}" had3; done

echo
echo "================ summary (kernel time per step; floor = share of the 2-byte-per-cell copy floor) ================"
python3 scripts/engine_summary.py "$OUT"
echo "logs and JSON: $OUT"
[ $bad = 0 ] || { echo "STATES DIFFER (see the check lines)"; exit 1; }
