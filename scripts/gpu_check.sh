#!/usr/bin/env bash
# gpu_check.sh — on an NVIDIA GPU machine: builds sqz with the CUDA backend, checks CUDA (MMA and ALU tile maps)
# against OpenCL and the CPU reference bit for bit, runs the CUDA/OpenCL benchmarks, and prints a summary.
#
# usage: scripts/gpu_check.sh [BUILD_DIR]        (default build-gpu; run from anywhere, as root for the ICD file;
#        carry Check as .gpu/*.deb to get the Check tests, else the CLI comparisons stand in)
# env:   OUT=DIR        also write the full log and the benchmark JSON there
#        SQZ_GPU_QUICK=1  skip the large cases, the top-level map checks and the R = 18 benchmark
# Exit status: 0 when every check passed, 1 otherwise.
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build-gpu}
OUTDIR=${OUT:-$BUILD}
mkdir -p "$BUILD" "$OUTDIR"
LOG="$OUTDIR/gpu_check.log"
: >"$LOG"
SUMMARY=()
FAILED=0
pass() { SUMMARY+=("PASS  $1"); }
fail() { SUMMARY+=("FAIL  $1"); FAILED=1; }
info() { SUMMARY+=("      $1"); }
say() { echo "== $*" | tee -a "$LOG"; }
finish() {
  echo
  echo "================ sqz GPU check: summary ================"
  printf '%s\n' "${SUMMARY[@]}"
  echo "full log: $LOG"
  exit "$FAILED"
}

# ---- 1. the machine ---------------------------------------------------------------------------------
export CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
export PATH="$CUDA_PATH/bin:$PATH"
say "machine"
if ! nvidia-smi -L 2>&1 | tee -a "$LOG"; then fail "nvidia-smi: no NVIDIA GPU visible"; finish; fi
info "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
# NVIDIA's OpenCL driver for the ICD loader (the CUDA image registers no vendor file)
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
  mkdir -p /etc/OpenCL/vendors 2>/dev/null && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd 2>/dev/null ||
    info "could not write /etc/OpenCL/vendors/nvidia.icd (not root?)"
fi

# ---- 2. build -----------------------------------------------------------------------------------------
# Check is not on the GPU image: Debian packages carried in .gpu/ (check, libsubunit) are unpacked first
for f in .gpu/*.deb; do [ -e "$f" ] && dpkg -x "$f" / 2>>"$LOG"; done
export SQZ_CACHE_DIR=${SQZ_CACHE_DIR:-$(cd "$BUILD" && pwd)/kernel-cache}
TESTS=OFF
if command -v pkg-config >/dev/null && pkg-config --exists check; then TESTS=ON; fi
say "configure (tests $TESTS) and build in $BUILD"
if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSQZ_WITH_CUDA=ON -DSQZ_BUILD_TESTS=$TESTS >>"$LOG" 2>&1 ||
  ! cmake --build "$BUILD" -j"$(nproc)" >>"$LOG" 2>&1; then
  tail -40 "$LOG"
  fail "configure/build (see the log)"
  finish
fi
pass "build with the CUDA backend (nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), tests $TESTS)"
SQZ="$BUILD/sqz"
say "sqz devices"
"$SQZ" devices 2>&1 | tee -a "$LOG"
if "$SQZ" devices 2>/dev/null | grep -q '^cuda'; then pass "sqz devices lists the CUDA device"; else fail "sqz devices lists no CUDA device"; fi
if "$SQZ" devices 2>/dev/null | grep -q '^opencl.*GPU'; then pass "OpenCL sees the GPU"; else fail "OpenCL sees no GPU (ICD)"; fi

# ---- 3. the Check tests -------------------------------------------------------------------------------
if [ -x "$BUILD/tests/test_cuda" ]; then
  say "test_cuda with SQZ_TEST_CUDA=1"
  t0=$(date +%s)
  if SQZ_TEST_CUDA=1 CK_DEFAULT_TIMEOUT=3000 "$BUILD/tests/test_cuda" 2>&1 | tee -a "$LOG" | tail -15; then
    if grep -q '100%: Checks' "$LOG"; then
      pass "test_cuda: $(grep -o '100%: Checks: [0-9]*' "$LOG" | tail -1) in $(($(date +%s) - t0)) s (maps exact at every level; MMA == ALU == OpenCL == CPU)"
    else fail "test_cuda: $(grep -o '[0-9]*%: Checks.*' "$LOG" | tail -1)"; fi
  else fail "test_cuda did not complete"; fi
else
  info "test_cuda not built (no Check on this machine): the CLI comparisons below stand in"
fi
if [ -x "$BUILD/tests/test_rows" ]; then
  say "test_rows with SQZ_TEST_CUDA=1 (image bands, files and compact order through the cuda backend's gather/scatter)"
  if SQZ_TEST_CUDA=1 "$BUILD/tests/test_rows" 2>&1 | tee -a "$LOG" | tail -5 | grep -q '100%: Checks'; then
    pass "test_rows: cuda bands, files and compact order equal the cpu backend's"
  else fail "test_rows with SQZ_TEST_CUDA=1"; fi
fi

# ---- 4. CLI comparisons: same random state, same steps, every method ---------------------------------
# fractal R RHO rule steps cpu(1 = compare with the CPU reference too)
CASES="sierpinski-triangle 10 1 B2/S23 4 1
sierpinski-triangle 12 16 B3/S23 4 1
sierpinski-triangle 13 128 B2/S23 3 1
sierpinski-triangle 13 256 B2/S23 3 1
sierpinski-triangle 14 4 B2/S23 3 1
sierpinski-carpet 6 3 B2/S23 4 1
sierpinski-carpet 6 81 B3/S23 3 1
vicsek-cross 7 9 B3/S23 4 1
vicsek-saltire 8 3 B36/S23 4 1
#..#/.##./.##./#..# 5 16 B2/S23 4 1"
if [ "${SQZ_GPU_QUICK:-0}" != 1 ]; then
  CASES="$CASES
sierpinski-triangle 17 1 B2/S23 2 0
sierpinski-triangle 18 4 B2/S23 2 0
vicsek-cross 11 1 B3/S23 2 0"
fi
say "CLI comparisons"
TMP=$(mktemp -d)
n_ok=0
n_all=0
while read -r fr r rho rule steps cpu; do
  dom="fractal:$fr:$r"
  methods="cuda:mma cuda:alu opencl:"
  [ "$cpu" = 1 ] && methods="$methods cpu:"
  ref_live=""
  ok=1
  line="$dom block:$rho $rule x$steps:"
  for m in $methods; do
    be=${m%%:*}
    map=${m#*:}
    tag="$be${map:+-$map}"
    args=(life "$dom" --layout "block:$rho" --rule "$rule" --steps "$steps" --init random:0.5:7 --backend "$be" --json)
    [ -n "$map" ] && args+=(--map "$map")
    out="$TMP/$tag.pbm"
    if [ "$cpu" = 1 ]; then args+=(--out "$out"); fi
    json=$("$SQZ" "${args[@]}" 2>>"$LOG" </dev/null)
    rc=$?
    echo "$tag: $json" >>"$LOG"
    live=$(echo "$json" | sed -n 's/.*"live":\([0-9]*\).*/\1/p')
    kms=$(echo "$json" | sed -n 's/.*"kernel_s":\([0-9.e+-]*\).*/\1/p')
    if [ $rc -ne 0 ] || [ -z "$live" ]; then ok=0; line="$line $tag FAILED(rc $rc);"; continue; fi
    line="$line $tag $live live ($(awk -v k="$kms" -v s="$steps" 'BEGIN{printf "%.3f", 1e3*k/s}') ms/step);"
    if [ -z "$ref_live" ]; then ref_live=$live; ref_tag=$tag; elif [ "$live" != "$ref_live" ]; then ok=0; fi
    if [ "$cpu" = 1 ] && [ "$tag" != "$ref_tag" ] && ! cmp -s "$out" "$TMP/$ref_tag.pbm"; then ok=0; line="$line (state differs)"; fi
  done
  echo "$line" | tee -a "$LOG"
  n_all=$((n_all + 1))
  if [ $ok = 1 ]; then n_ok=$((n_ok + 1)); else fail "CLI: $line"; fi
done <<<"$CASES"
rm -rf "$TMP"
[ $n_ok = $n_all ] && pass "CLI: $n_ok/$n_all cases identical (states compared as PBM where the CPU runs, live counts everywhere)"

# ---- 5. the maps alone at the top level of each fractal (MMA against ALU over the last 2^30 tiles) ----
if [ "${SQZ_GPU_QUICK:-0}" != 1 ]; then
  say "tile maps at the largest levels"
  for dom in fractal:sierpinski-triangle:30 fractal:sierpinski-carpet:19 fractal:vicsek-cross:19 \
    fractal:#..#/.##./.##./#..#:15 fractal:sierpinski-triangle:17; do
    res=$("$SQZ" bench fractal --domain "$dom" --backend all --layouts none 2>&1 </dev/null)
    echo "$res" | tee -a "$LOG" | tail -2
    row=$(echo "$res" | grep -E '^[0-9]+ ' | tail -1)
    if echo "$row" | grep -q ' agree$'; then pass "maps $dom: MMA == ALU ($(echo "$row" | awk '{print $2" tiles, mma "$3" ms, alu "$4" ms"}'))"
    else fail "maps $dom: $row"; fi
  done
fi

# ---- 6. benchmarks --------------------------------------------------------------------------------------
bench() { # R layouts steps
  say "bench fractal:sierpinski-triangle:$1"
  "$SQZ" bench fractal --domain "fractal:sierpinski-triangle:$1" --backend all --layouts "$2" --steps "$3" 2>&1 |
    tee -a "$LOG" | tee "$OUTDIR/bench_r$1.txt"
  "$SQZ" bench fractal --domain "fractal:sierpinski-triangle:$1" --backend all --layouts "$2" --steps "$3" --json \
    >"$OUTDIR/bench_r$1.json" 2>>"$LOG" || fail "bench R=$1 (exit status)"
  for m in cuda-mma cuda-alu opencl; do
    best=$(awk -v m="$m" '$1 == m && $3 ~ /^[0-9.]+$/ {print $3, $2}' "$OUTDIR/bench_r$1.txt" | sort -g | head -1)
    [ -n "$best" ] && info "R=$1 $m: best $(echo "$best" | awk '{print $1" ms/step ("$2")"}')"
  done
  cuda=$(awk '($1 == "cuda-mma" || $1 == "cuda-alu") && $3 ~ /^[0-9.]+$/ {print $3}' "$OUTDIR/bench_r$1.txt" | sort -g | head -1)
  ocl=$(awk '$1 == "opencl" && $3 ~ /^[0-9.]+$/ {print $3}' "$OUTDIR/bench_r$1.txt" | sort -g | head -1)
  if [ -n "$cuda" ] && [ -n "$ocl" ]; then
    v=$(awk -v c="$cuda" -v o="$ocl" -v t="$4" 'BEGIN{printf "%s %.2fx vs OpenCL, %.1fx vs the paper'"'"'s %s ms", (c <= o && c < t) ? "ok" : "MISS", o / c, t / c, t}')
    case "$v" in ok*) pass "R=$1 CUDA ${v#ok }" ;; *) fail "R=$1 CUDA ${v#MISS }" ;; esac
  else fail "R=$1: no CUDA or OpenCL timing"; fi
}
bench 16 block:4,block:16,block:32 20 1.75
[ "${SQZ_GPU_QUICK:-0}" != 1 ] && bench 18 block:16,block:32 10 15.3
finish
