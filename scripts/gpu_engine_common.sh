# gpu_engine_common.sh — sourced by the GPU benchmark scripts (gpu_bench_engine.sh, gpu_tetra.sh): NVIDIA's OpenCL registered, a Release build without tests, the device recorded, and run() for one `sqz bench` per engine.
# Needs BUILD (build folder) and OUT (log folder, existing); GPU_CMAKE_ARGS adds configure options (e.g. -DSQZ_WITH_CUDA=ON).
# Sets S (the sqz binary), SQZ_DEVICE (NVIDIA unless set) and SQZ_CACHE_DIR; exits 1 when the build fails.
GPU_CMAKE_ARGS=${GPU_CMAKE_ARGS:-}
export CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
export PATH="$CUDA_PATH/bin:$PATH"
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && command -v nvidia-smi >/dev/null; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
echo "== configure and build in $BUILD (log: $OUT/build.log)"
if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release $GPU_CMAKE_ARGS -DSQZ_BUILD_TESTS=OFF >"$OUT/build.log" 2>&1 ||
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
  else # SQZ_ENGINE=fast: the word kernels wherever they apply (the default too)
    SQZ_ENGINE=fast timeout 900 "$S" "$@" --json >"$OUT/$label.$engine.json" 2>>"$OUT/errors.log"
  fi
  echo "   exit $?, $((SECONDS - t0)) s"
}
