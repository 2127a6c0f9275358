#!/usr/bin/env bash
# gpu_bench_engine.sh — on an NVIDIA GPU machine: the bandwidth-issue benchmark rows (fast fractal Life step against the generic
# engine, OpenCL block step against CUDA, triangle/tetrahedron Life), each with its share of the copy floor, and a summary.
#
# usage: scripts/gpu_bench_engine.sh [BUILD_DIR [PART...]]   (default build-bench and all parts; run as root)
#        PART: compact (fractal compact R = 18, 20, 22 and the tile sides), block (OpenCL vs CUDA block:16/32),
#        simplex (triangle:46341, tetrahedron:2048); a later call with other parts reuses the build and adds its JSON
#        to the same OUT, and every summary covers all JSON there. Where a call may last 10 minutes at most, split:
#          OUT=$PWD/bench-out scripts/gpu_bench_engine.sh build-bench compact
#          OUT=$PWD/bench-out scripts/gpu_bench_engine.sh build-bench block simplex
# env:   OUT=DIR       where the logs and JSON go (default BUILD_DIR/bench-out)
#        SQZ_BENCH_QUICK=1  R = 18 only for the fractal rows (no R = 20, 22), fewer steps
# What it does:
#   1-2. scripts/gpu_engine_common.sh: registers NVIDIA's OpenCL driver with the ICD loader if missing, configures a
#      Release build with the CUDA backend and without the Check tests, and builds it;
#   3. runs each `sqz bench` command below twice: with SQZ_ENGINE=generic (the per-cell engine kernels, the state
#      before the fast steps) and without (the fast u8 Life steps, cl/engine_fractal_swar.cl, cl/engine_simplex_swar.cl,
#      cl/engine_tetra_swar.cl),
#      each once, with --json (the JSON goes to $OUT/LABEL.ENGINE.json);
#   4. prints a summary from the JSON (scripts/engine_summary.py): per row kernel ms/step, Gcells/s and the
#      share of the floor (2 bytes per cell at the device-to-device copy bandwidth measured in the same run),
#      the fast/generic speed-up, and OpenCL block:RHO against the CUDA ALU and MMA steps of the same layout.
# Every row also prints its live-cell count: all rows of one domain must agree (the script flags a mismatch).
# Targets (issue 10): fractal compact R = 18..22 >= 0.5 of the floor; OpenCL block step >= 0.9x CUDA's;
# triangle:46341 best map compact >= 0.5, tetrahedron:2048 >= 0.4 (fast steps: cl/engine_simplex_swar.cl, cl/engine_tetra_swar.cl;
# scripts/gpu_tetra.sh times tetrahedra alone, after checking their states against the cpu backend).
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build-bench}
shift $(($# > 0 ? 1 : 0))
PARTS=${*:-compact block simplex}
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
OUT=${OUT:-$BUILD/bench-out}
mkdir -p "$BUILD" "$OUT"
GPU_CMAKE_ARGS="-DSQZ_WITH_CUDA=ON"
source scripts/gpu_engine_common.sh

STEPS=10
[ "${SQZ_BENCH_QUICK:-0}" = 1 ] && STEPS=5
LEVELS="18 20 22"
[ "${SQZ_BENCH_QUICK:-0}" = 1 ] && LEVELS=18

# ---- fractal Life, compact, R = 18, 20, 22 (1 byte per cell; R = 22: 3.1e10 cells, 2 x 31 GB) ----------
want compact && for R in $LEVELS; do
  st=$STEPS
  [ "$R" -ge 22 ] && st=3
  for e in generic fast; do
    run "fractal$R-compact" $e bench fractal --domain fractal:sierpinski-triangle:$R --steps $st --layouts compact
  done
done
# compact at fixed tile sides (the automatic level is the cost model's pick; these show the alternatives)
want compact && for b in 32 64 128; do
  run "fractal20-compact-block$b" fast bench fractal --domain fractal:sierpinski-triangle:20 --steps $STEPS --layouts compact --block $b
done

# ---- OpenCL block:RHO against CUDA (ALU and MMA tile maps) on the same layout ---------------------------
want block && for R in 16 18; do
  for e in generic fast; do
    run "fractal$R-block" $e bench fractal --domain fractal:sierpinski-triangle:$R --steps $STEPS --layouts block:16,block:32 --backend all
  done
done

# ---- simplex Life: triangle:46341 (had and every map), tetrahedron:2048 (had3 and the 3D maps), compact ----
# (the fast simplex steps walk storage words whatever the map: with them every map row runs the same kernel;
#  the generic rows are the thread maps' own times)
want simplex && for e in generic fast; do
  run "triangle46341" $e bench simplex --domain triangle:46341 --workload life --steps 20 --layouts compact,bb
done
want simplex && for e in generic fast; do
  run "tetrahedron2048" $e bench simplex --domain tetrahedron:2048 --workload life --steps 10 --layouts compact,bb --maps bb,ltm3,had3,rec3
done

# ---- summary from the JSON files ---------------------------------------------------------------------
echo
echo "================ summary (kernel time per step; floor = share of the 2-byte-per-cell copy floor) ================"
python3 scripts/engine_summary.py "$OUT"
echo "logs and JSON: $OUT"
