#!/usr/bin/env bash
# guard.sh — a user kernel that crashes the OpenCL compiler or the device is exit 1 naming the file, with no stray
# file; --timeout stops life, run and heat (a kernel that never ends included) with exit 1 and the outputs untouched.
# usage: guard.sh path/to/sqz
set -u
sqz="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0
. "$(dirname "$0")/expect.sh"
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$work/run" "$work/tmp"
export TMPDIR="$work/tmp" SQZ_CACHE_DIR="$work/cache"
cd "$work/run" || exit 1
t="timeout 120"

# Kernels PoCL 3.1 cannot take (each killed sqz before: exit 139 or 134): a loop entered in its middle (its
# work-group compiler recurses until the stack overflows, SIGSEGV), a barrier in the update on the rectangle fold's
# engine (the compiler aborts, SIGABRT), and a store through a wild pointer (the kernel itself, SIGSEGV).
cat > goto.cl <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  int i = 0;
  if (self) goto b;
a: i++;
b: if (i < nb[1]) goto a;
  return i;
}
CL
cat > barrier.cl <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  if (self > 0) barrier(CLK_LOCAL_MEM_FENCE);
  return self + nb[0];
}
CL
cat > wild.cl <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  *(volatile __global int *)(ulong)param[0] = 1;
  return self;
}
CL
cat > forever.cl <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  volatile int k = 1;
  while (k) self += nb[0];
  return self;
}
CL
echo keep > keep.npy
before="$(ls)"
# SQZ_DUMP_KERNELS=. writes every kernel source into the working directory, as a dying compiler writes its files
# there (PoCL: <kernel>.dot): the trial's are in a directory of its own, removed with them
export SQZ_DUMP_KERNELS=.
# the map kernels' traversal (cl/engine_simplex.cl), where PoCL's compiler takes these kernels down; the row step
# (the default on triangles) happens to compile the first two
export SQZ_ENGINE=generic
crash="crashed a trial step in a child process \(signal [0-9]+, .*\); nothing was run or written"
# These are PoCL's crashes (PoCL 5 compiles barrier.cl, NVIDIA's compiler the first two): run on the PoCL device
# wherever there is one. A crash is exit 1 naming it; a compiler that takes the kernel runs it (exit 0: its output
# and kernel dumps are then set back, so that the checks below see the directory as before).
crash_or_run() {
  local file="$1" out rc
  shift
  out="$("$@" 2>&1)"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "ok: this device's compiler takes $file (exit 0): $*"
    rm -f sqz_*.cl
    echo keep > keep.npy
  elif [ "$rc" -eq 1 ] && printf '%s' "$out" | grep -Eq -- "--kernel $file: .*$crash"; then
    echo "ok: $*"
  else
    echo "FAIL: $* -> exit $rc (want 1 naming the crash, or 0), output:"
    printf '%s\n' "$out" | head -20
    fails=$((fails + 1))
  fi
}
pocl="$("$sqz" devices 2>/dev/null | awk '$1 == "opencl" && $3 == "Portable" { print $2; exit }')"
if [ -n "$pocl" ]; then
  crash_or_run goto.cl env SQZ_DEVICE="$pocl" $t "$sqz" run triangle:64 --kernel goto.cl --type i32 --steps 5 --out keep.npy
  crash_or_run barrier.cl env SQZ_DEVICE="$pocl" $t "$sqz" run triangle:64 --map rb --kernel barrier.cl --type i32 \
    --steps 5 --out keep.npy
  crash_or_run wild.cl env SQZ_DEVICE="$pocl" $t "$sqz" run triangle:64 --kernel wild.cl --type i32 --steps 5 --param 8 \
    --out keep.npy
else
  echo "guard.sh: the compiler-crash checks skipped: they are PoCL's crashes, and this machine has no PoCL device"
fi
[ "$(ls)" = "$before" ] || fail "files left in the working directory: $(ls)"
[ "$(cat keep.npy)" = keep ] || fail "keep.npy changed"
[ -z "$(ls "$TMPDIR")" ] || fail "trial directories left in TMPDIR: $(ls "$TMPDIR")"
unset SQZ_DUMP_KERNELS SQZ_ENGINE
# a kernel that works: the trial passes, the run writes its outputs
cat > ok.cl <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  return nb[1] > self ? nb[1] : self;
}
CL
before="$(ls)"
expect 0 '"kernel":"ok.cl".*"steps":2' -- $t "$sqz" run triangle:64 --kernel ok.cl --type i32 --steps 2 --json --timeout 60 \
  --out ok.npy --png ok.png
[ -s ok.npy ] && [ -s ok.png ] || fail "a run that passed its trial wrote no output"
rm -f ok.npy ok.png

# --timeout: the run stops at the limit, exit 1, outputs untouched, no temporary left; in the trial (a kernel that
# never ends), in the run itself (SQZ_NO_TRIAL=1), and for life and heat
stopped="--timeout 2 s passed before the run ended: stopped \(exit 1\); no output was written or replaced"
expect 1 "sqz run: $stopped" -- $t "$sqz" run triangle:64 --kernel forever.cl --type i32 --steps 1 --out keep.npy --timeout 2
expect 1 "sqz run: $stopped" -- env SQZ_NO_TRIAL=1 $t "$sqz" run triangle:64 --kernel forever.cl --type i32 --steps 1 \
  --init const:1 --out keep.npy --png keep.png --timeout 2
expect 1 "sqz life: $stopped" -- $t "$sqz" life triangle:3000 --steps 4000000000 --out keep.npy --timeout 2
expect 1 "sqz heat: $stopped" -- $t "$sqz" heat triangle:3000 --steps 4000000000 --out keep.npy --timeout 2 --backend cpu
[ "$(ls)" = "$before" ] || fail "files left after --timeout: $(ls)"
[ "$(cat keep.npy)" = keep ] || fail "keep.npy changed by a run stopped by --timeout"
[ -z "$(ls "$TMPDIR")" ] || fail "trial directories left in TMPDIR: $(ls "$TMPDIR")"
expect 2 "--timeout 0 is outside \[0.001, 1e\+09\]" -- "$sqz" life triangle:8 --steps 1 --timeout 0
expect 2 "--timeout 'soon' is not a number" -- "$sqz" heat triangle:8 --steps 1 --timeout soon
expect 2 "--timeout 'nan' is not a finite number" -- "$sqz" run triangle:8 --steps 1 --type u8 --kernel goto.cl --timeout nan

echo "guard.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
