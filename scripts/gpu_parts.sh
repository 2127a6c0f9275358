#!/usr/bin/env bash
# gpu_parts.sh — fields in parts on a GPU machine: block:32 Sierpinski-triangle Life at R = 21 (44 GB per buffer,
# above NVIDIA OpenCL's single-allocation limit: split automatically) against R = 20 in one buffer, the parts checked
# bit for bit against one buffer at a small level, and compact R = 20 on PoCL under a 2 GB allocation limit.
# R = 20 also runs with SQZ_ENGINE=generic and in 2 parts (fractal parts take the fast word kernels too): the
# baselines of the parts' cost; R - 1 in 2 parts and R split automatically run again with 4 steps per exchange
# (SQZ_EXCHANGE_STEPS=4: tile halos, the temporal word kernel that one buffer takes on GPUs).
# With two or more NVIDIA GPUs (nvidia-h200-x2), section 4 measures the halo exchange overlapped with the inner units'
# step against the exchange first (SQZ_OVERLAP=0): R - 1 on --devices 0,1 in one process and, in a build with MPI,
# on 2 ranks (scripts/mpi_scaling.sh OVERLAP=both), each checked against one GPU bit for bit at R = 13.
# usage: scripts/gpu_parts.sh [BUILD_DIR]    (default build-gpu; as root for the ICD file)
# env:   OUT=DIR (logs and JSON; default BUILD_DIR/parts), STEPS (Life steps per run, 10), R (21), SKIP_POCL=1,
#        DEVS (the two GPUs as --devices takes them, 0,1)
# Prints a short summary on stdout; exit status 0 when every check passed.
set -u
cd "$(dirname "$0")/.."
B=${1:-build-gpu}
OUT=${OUT:-$B/parts}
STEPS=${STEPS:-10}
R=${R:-21}
DEVS=${DEVS:-0,1}
mkdir -p "$B" "$OUT"
SUMMARY=()
FAILED=0
say() { SUMMARY+=("$1"); echo "== $1"; }
bad() { SUMMARY+=("FAIL  $1"); FAILED=1; echo "== FAIL $1"; }
[ -e /etc/OpenCL/vendors/nvidia.icd ] || { mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; } 2>/dev/null
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$B" -j"$(nproc)" --target sqz_cli >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
S=$B/sqz
export SQZ_CACHE_DIR=$PWD/$B/cache
$S devices | tee "$OUT/devices.txt"
NV=${SQZ_GPU_DEVICE:-NVIDIA}
py=$(command -v /usr/bin/python3 || command -v python3)
field() { "$py" -c "import json,sys; d=json.load(open(sys.argv[1])); print(' '.join(str(d.get(k, '-')) for k in sys.argv[2:]))" "$@"; }
run() { # run NAME sqz-args...: JSON into $OUT/NAME.json, the command and its stderr into $OUT/NAME.log
  local name=$1
  shift
  echo "\$ sqz $*" | tee "$OUT/$name.log"
  if [ -x /usr/bin/time ]; then /usr/bin/time -v "$S" "$@" --json >"$OUT/$name.json" 2>>"$OUT/$name.log" # peak memory too
  else "$S" "$@" --json >"$OUT/$name.json" 2>>"$OUT/$name.log"; fi
}

# 1. parts against one buffer, bit for bit, on the GPU (small levels, both tiled layouts, Life and heat)
for lay in block:32 compact; do
  for p in 1 2 5 13; do
    $S life fractal:sierpinski-triangle:13 --layout $lay --steps 9 --device "$NV" --out "$OUT/one.pbm" >/dev/null 2>&1 &&
      $S life fractal:sierpinski-triangle:13 --layout $lay --steps 9 --device "$NV" --parts $p --out "$OUT/p.pbm" >/dev/null 2>&1 &&
      cmp -s "$OUT/one.pbm" "$OUT/p.pbm" || bad "life $lay R=13 in $p parts differs from one buffer on $NV"
    for t in 2 4; do # several steps per exchange, the exchange overlapped (SQZ_OVERLAP=1) or not
      for ov in 0 1; do
        SQZ_EXCHANGE_STEPS=$t SQZ_OVERLAP=$ov $S life fractal:sierpinski-triangle:13 --layout $lay --steps 9 --device "$NV" \
          --parts $p --out "$OUT/p.pbm" >/dev/null 2>&1 && cmp -s "$OUT/one.pbm" "$OUT/p.pbm" ||
          bad "life $lay R=13 in $p parts, $t steps per exchange (SQZ_OVERLAP=$ov), differs from one buffer on $NV"
      done
    done
  done
done
$S heat triangle:3000 --steps 20 --type f32 --device "$NV" --out "$OUT/h1.npy" >/dev/null 2>&1 &&
  $S heat triangle:3000 --steps 20 --type f32 --device "$NV" --parts 7 --out "$OUT/h7.npy" >/dev/null 2>&1 &&
  cmp -s "$OUT/h1.npy" "$OUT/h7.npy" || bad "heat triangle:3000 in 7 parts differs from one buffer on $NV"
[ "$FAILED" = 0 ] && say "PASS  parts = one buffer on $NV (life block:32/compact R=13, P = 1, 2, 5, 13; heat triangle:3000 P = 7)"

# 2. block:32 R-1 in one buffer (the fast word kernels, and the generic kernels that parts run), R-1 in 2 parts,
# and R split automatically (no --parts: the field exceeds one allocation)
Q=$((R - 1))
run one_r$Q life fractal:sierpinski-triangle:$Q --layout block:32 --steps "$STEPS" --device "$NV" --quiet ||
  bad "R=$Q block:32 in one buffer: $(tail -3 "$OUT/one_r$Q.log")"
SQZ_ENGINE=generic run generic_r$Q life fractal:sierpinski-triangle:$Q --layout block:32 --steps "$STEPS" --device "$NV" --quiet ||
  bad "R=$Q block:32 in one buffer, generic kernels: $(tail -3 "$OUT/generic_r$Q.log")"
run parts2_r$Q life fractal:sierpinski-triangle:$Q --layout block:32 --steps "$STEPS" --device "$NV" --parts 2 --quiet ||
  bad "R=$Q block:32 in 2 parts: $(tail -3 "$OUT/parts2_r$Q.log")"
run auto_r$R life fractal:sierpinski-triangle:$R --layout block:32 --steps "$STEPS" --device "$NV" --quiet ||
  bad "R=$R block:32 split automatically: $(tail -3 "$OUT/auto_r$R.log")"
SQZ_EXCHANGE_STEPS=4 run parts2t4_r$Q life fractal:sierpinski-triangle:$Q --layout block:32 --steps "$STEPS" --device "$NV" \
  --parts 2 --quiet || bad "R=$Q block:32 in 2 parts, 4 steps per exchange: $(tail -3 "$OUT/parts2t4_r$Q.log")"
SQZ_EXCHANGE_STEPS=4 run autot4_r$R life fractal:sierpinski-triangle:$R --layout block:32 --steps "$STEPS" --device "$NV" \
  --quiet || bad "R=$R block:32 split automatically, 4 steps per exchange: $(tail -3 "$OUT/autot4_r$R.log")"
for a in parts2 auto; do # the same final state with 1 and 4 steps per exchange
  r=$Q
  [ $a = auto ] && r=$R
  [ -s "$OUT/${a}_r$r.json" ] && [ -s "$OUT/${a}t4_r$r.json" ] &&
    [ "$(field "$OUT/${a}_r$r.json" live)" != "$(field "$OUT/${a}t4_r$r.json" live)" ] &&
    bad "R=$r $a: the live counts with 1 and 4 steps per exchange differ"
done
for n in one_r$Q generic_r$Q parts2_r$Q parts2t4_r$Q auto_r$R autot4_r$R; do
  [ -s "$OUT/$n.json" ] || continue
  read -r cells parts halo bytes ks ws live <<<"$(field "$OUT/$n.json" cells parts halo_bytes_per_step bytes kernel_s wall_s live)"
  say "$(printf '%-10s %13s cells %3s part(s) %13s halo B/step %14s B  kernel %8.3f s  wall %8.3f s  %6.2f Gcells/s (wall)  %.1f steps/s  live %s' \
    "$n" "$cells" "$parts" "$halo" "$bytes" "$ks" "$ws" "$("$py" -c "print($cells*$STEPS/$ws/1e9)")" \
    "$("$py" -c "print($STEPS/$ws)")" "$live")"
done
if [ -s "$OUT/one_r$Q.json" ] && [ -s "$OUT/generic_r$Q.json" ] && [ -s "$OUT/auto_r$R.json" ]; then
  say "$("$py" - "$OUT/one_r$Q.json" "$OUT/generic_r$Q.json" "$OUT/auto_r$R.json" <<'PY'
import json, sys
a, g, b = (json.load(open(p)) for p in sys.argv[1:4])
rate = lambda d: d["cells"] / d["wall_s"]
print(f"R={b['domain'].rsplit(':', 1)[1]} in {b['parts']} parts (halo {b['halo_bytes_per_step']} B/step): "
      f"{rate(b) / rate(a):.2f}x the cell rate (wall) of one buffer one level down (both with the fast word kernels; "
      f"{rate(b) / rate(g):.2f}x that of the generic kernels)")
PY
)"
fi

# 3. compact R = 20 on PoCL under a 2 GB single-allocation limit (PoCL's own on the 6.8 GB machine): split automatically
if [ "${SKIP_POCL:-0}" != 1 ] && grep -qi "portable\|pthread" "$OUT/devices.txt"; then
  SQZ_MAX_ALLOC=2147483648 run pocl_auto life fractal:sierpinski-triangle:20 --steps 2 --device pthread --quiet ||
    bad "compact R=20 on PoCL: $(tail -3 "$OUT/pocl_auto.log")"
  [ -s "$OUT/pocl_auto.json" ] &&
    say "PoCL compact R=20 under 2 GB: $(field "$OUT/pocl_auto.json" parts halo_bytes_per_step bytes wall_s live | awk '{printf "%s parts, %s halo B/step, %s B, %.1f s for 2 steps, live %s", $1, $2, $3, $4, $5}')"
else
  say "PoCL: not on this machine (or SKIP_POCL=1): the compact R=20 run was skipped"
fi

# 4. two GPUs: the exchange overlapped with the inner units' step (default) against the exchange first (SQZ_OVERLAP=0)
GPUS=$(grep -i "nvidia" "$OUT/devices.txt" | grep -c "^opencl" || true) # OpenCL GPUs (a CUDA build lists each GPU again)
if [ "${GPUS:-0}" -ge 2 ]; then
  for lay in block:32 compact; do # bit for bit first: 2 and 5 parts on two GPUs, both orders
    $S life fractal:sierpinski-triangle:13 --layout $lay --steps 9 --device "$NV" --out "$OUT/one.pbm" >/dev/null 2>&1
    for ov in 0 1; do
      for p in 2 5; do
        SQZ_OVERLAP=$ov $S life fractal:sierpinski-triangle:13 --layout $lay --steps 9 --devices "$DEVS" --parts $p \
          --out "$OUT/p.pbm" >/dev/null 2>&1 && cmp -s "$OUT/one.pbm" "$OUT/p.pbm" ||
          bad "life $lay R=13 in $p parts on --devices $DEVS (SQZ_OVERLAP=$ov) differs from one GPU"
      done
    done
  done
  for ov in 0 1; do
    SQZ_OVERLAP=$ov run devs_ov${ov}_r$Q life fractal:sierpinski-triangle:$Q --layout block:32 --steps "$STEPS" --devices "$DEVS" --quiet ||
      bad "R=$Q block:32 on --devices $DEVS (SQZ_OVERLAP=$ov): $(tail -3 "$OUT/devs_ov${ov}_r$Q.log")"
    [ -s "$OUT/devs_ov${ov}_r$Q.json" ] && say "R=$Q block:32 on 2 GPUs, SQZ_OVERLAP=$ov: $(field "$OUT/devs_ov${ov}_r$Q.json" \
      wall_s exchange_s halo_wait_s inner_s border_s live | awk '{printf "wall %.3f s, exchange %.3f s (waiting %.3f s), inner %.3f s, border %.3f s, live %s", $1, $2, $3, $4, $5, $6}')"
  done
  if [ -s "$OUT/devs_ov0_r$Q.json" ] && [ -s "$OUT/devs_ov1_r$Q.json" ] &&
    [ "$(field "$OUT/devs_ov0_r$Q.json" live)" != "$(field "$OUT/devs_ov1_r$Q.json" live)" ]; then
    bad "R=$Q on 2 GPUs: the live counts of the two orders differ"
  fi
  if command -v mpirun >/dev/null && ldd "$S" 2>/dev/null | grep -q libmpi; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OVERLAP=both REPS=3 scripts/mpi_scaling.sh "$S" "life fractal:sierpinski-triangle:$Q --layout block:32 --steps $STEPS" "2" \
      --devices "$DEVS" | tee "$OUT/mpi_overlap.md"
    say "MPI, R=$Q block:32 on 2 ranks (one GPU each), serial against overlapped: $OUT/mpi_overlap.md"
  fi
else
  say "overlap: fewer than 2 NVIDIA GPUs here, section 4 (two GPUs, serial against overlapped exchange) skipped"
fi

echo
echo "================ sqz parts on $NV: summary ================"
printf '%s\n' "${SUMMARY[@]}"
echo "logs and JSON: $OUT"
exit "$FAILED"
