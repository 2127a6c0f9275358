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
#   1. registers NVIDIA's OpenCL driver with the ICD loader (/etc/OpenCL/vendors/nvidia.icd) if missing;
#   2. configures a Release build with the CUDA backend and without the Check tests, and builds it;
#   3. runs each `sqz bench` command below twice: with SQZ_ENGINE=generic (the per-cell engine kernels, the state
#      before the fast steps) and without (the fast u8 Life steps, cl/engine_fractal_swar.cl, cl/engine_simplex_swar.cl),
#      each once, with --json (the JSON goes to $OUT/LABEL.ENGINE.json);
#   4. prints a summary from the JSON: per row kernel ms/step, Gcells/s and the
#      share of the floor (2 bytes per cell at the device-to-device copy bandwidth measured in the same run),
#      the fast/generic speed-up, and OpenCL block:RHO against the CUDA ALU and MMA steps of the same layout.
# Every row also prints its live-cell count: all rows of one domain must agree (the script flags a mismatch).
# Targets (issue 10): fractal compact R = 18..22 >= 0.5 of the floor; OpenCL block step >= 0.9x CUDA's;
# triangle:46341 best map compact >= 0.5, tetrahedron:2048 >= 0.4 (fast steps: cl/engine_simplex_swar.cl).
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build-bench}
shift $(($# > 0 ? 1 : 0))
PARTS=${*:-compact block simplex}
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
OUT=${OUT:-$BUILD/bench-out}
mkdir -p "$BUILD" "$OUT"
export CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
export PATH="$CUDA_PATH/bin:$PATH"
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
echo "== configure and build in $BUILD (log: $OUT/build.log)"
if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSQZ_WITH_CUDA=ON -DSQZ_BUILD_TESTS=OFF >"$OUT/build.log" 2>&1 ||
  ! cmake --build "$BUILD" -j"$(nproc)" >>"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"
  exit 1
fi
export SQZ_DEVICE=${SQZ_DEVICE:-NVIDIA} SQZ_CACHE_DIR=${SQZ_CACHE_DIR:-$(cd "$BUILD" && pwd)/kernel-cache}
S="$BUILD/sqz"
"$S" devices | tee "$OUT/devices.txt"
git log -1 --format='commit %H %s' 2>/dev/null | tee "$OUT/commit.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | tee -a "$OUT/devices.txt"

N=0
# run LABEL ENGINE sqz-args...: one `sqz bench ... --json` run into $OUT/LABEL.ENGINE.json (stderr to errors.log)
run() {
  local label=$1 engine=$2 t0=$SECONDS
  shift 2
  N=$((N + 1))
  echo "== [$N] $label ($engine): sqz $* --json"
  if [ "$engine" = generic ]; then
    SQZ_ENGINE=generic timeout 900 "$S" "$@" --json >"$OUT/$label.$engine.json" 2>>"$OUT/errors.log"
  else # SQZ_ENGINE=fast: the word kernels wherever they apply (tetrahedra too; by default they run generic)
    SQZ_ENGINE=fast timeout 900 "$S" "$@" --json >"$OUT/$label.$engine.json" 2>>"$OUT/errors.log"
  fi
  echo "   exit $?, $((SECONDS - t0)) s"
}

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
python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except Exception as e:
        return None
rows = {}
for p in sorted(glob.glob(os.path.join(out, "*.json"))):
    label, engine = os.path.basename(p)[:-5].rsplit(".", 1)
    rows[(label, engine)] = load(p)
print("%-28s %-8s %-22s %12s %10s %8s %14s" % ("run", "engine", "layout/map", "kernel ms", "Gcells/s", "floor", "live"))
lives = {}
for (label, engine), j in sorted(rows.items()):
    if j is None:
        print("%-28s %-8s (no JSON: see %s/errors.log)" % (label, engine, out))
        continue
    for r in (j.get("layouts") or []) + (j.get("rows") or []):
        if r.get("status", "ok") != "ok":
            continue
        if "method" in r:  # --backend all: opencl, cuda-mma, cuda-alu (no floor column there)
            name, share = "%s %s" % (r["layout"], r["method"]), None
        else:  # bench fractal layouts, or bench simplex rows (layout/map)
            name, share = r.get("layout", "") + ("/" + r["map"] if "map" in r else ""), r.get("floor_share")
        ks = r.get("kernel_s_per_step", r.get("kernel_s_per_pass")) or 0
        live = r.get("live", r.get("result"))
        print("%-28s %-8s %-22s %12.4f %10.1f %8s %14s" % (label, engine, name, ks * 1e3, (r.get("cells_per_s") or 0) / 1e9,
                                                        "%.3f" % share if share is not None else "-", live))
        lives.setdefault(j.get("domain"), set()).add(live)
print()
for label in sorted({l for l, _ in rows}):
    g, f = rows.get((label, "generic")), rows.get((label, "fast"))
    if not g or not f:
        continue
    ga, fa = g.get("layouts") or g.get("rows") or [], f.get("layouts") or f.get("rows") or []
    for a, b in zip(ga, fa):
        if a.get("status") == "ok" and b.get("status") == "ok" and "method" not in a:
            ka, kb = (a.get("kernel_s_per_step", a.get("kernel_s_per_pass")), b.get("kernel_s_per_step", b.get("kernel_s_per_pass")))
            name = a["layout"] + ("/" + a["map"] if "map" in a else "")
            print("%-28s %-14s fast/generic speed-up %6.2fx  floor %.3f -> %.3f" % (label, name, ka / kb,
                  a.get("floor_share") or 0, b.get("floor_share") or 0))
for label in sorted({l for l, _ in rows if l.endswith("-block")}):
    for engine in ("generic", "fast"):
        j = rows.get((label, engine))
        if not j or "rows" not in j:
            continue
        t = {(r["layout"], r["method"]): r["kernel_s_per_step"] for r in j["rows"] if r.get("status") == "ok"}
        for lay in sorted({l for l, _ in t}):
            ocl = [v for (l, m), v in t.items() if l == lay and "opencl" in m]
            for m in sorted(m for (l, m) in t if l == lay and "cuda" in m):
                if ocl:
                    print("%-28s %-10s %-8s OpenCL speed vs %s: %.2fx (target >= 0.9x)" % (label, lay, engine, m, t[(lay, m)] / ocl[0]))
bad = [d for d, s in lives.items() if len(s - {None}) > 1]
print()
print("live counts: " + ("DIFFER in " + ", ".join(bad) if bad else "every row of each domain agrees"))
PY
echo "logs and JSON: $OUT"
