#!/usr/bin/env bash
# under_load.sh — the load proof: `ctest -jN` several consecutive times beside N busy loops, each run with empty caches.
# usage: tests/under_load.sh BUILD_DIR [RUNS=3] [JOBS=$(nproc)] [LOOPS=JOBS]
# Not part of the default suite (it runs the suite). Each run gets an empty PoCL cache (POCL_CACHE_DIR) and an
# empty sqz kernel cache, so every run compiles every kernel again: the heaviest case. Prints one line per run
# (rc, wall and CPU seconds of ctest, the longest tests, the tests that failed, with the log kept in BUILD_DIR)
# and exits 1 when any run failed. The busy loops are ended by their process ids on every exit.
set -uo pipefail
build=$(cd "${1:?usage: under_load.sh BUILD_DIR [RUNS] [JOBS] [LOOPS]}" && pwd)
runs=${2:-3}
jobs=${3:-$(nproc)}
loops=${4:-$jobs}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < loops; i++)); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "under_load: ${runs} x ctest -j${jobs} beside ${loops} busy loops (pids ${pids[*]}) on $(nproc) cores"
failed=0
for ((r = 1; r <= runs; r++)); do
  rm -rf "$work/pocl" "$work/xdg" "$build/tests/kernel-cache"
  mkdir -p "$work/pocl" "$work/xdg"
  POCL_CACHE_DIR="$work/pocl" XDG_CACHE_HOME="$work/xdg" /usr/bin/time -f '%e %U %S' -o "$work/time" \
    ctest --test-dir "$build" -j"$jobs" --output-on-failure --no-tests=error >"$work/log" 2>&1
  rc=$?
  read -r wall user sys < <(tail -n 1 "$work/time")
  summary=$(grep -E "tests passed|tests failed" "$work/log" | tail -n 1)
  printf 'run %d: rc %d, %s s wall, %s s CPU (%s user + %s sys): %s\n' "$r" "$rc" "$wall" \
    "$(echo "$user + $sys" | bc)" "$user" "$sys" "$summary"
  if [ "$rc" -ne 0 ]; then
    failed=1
    sed -n '/The following tests FAILED/,$p' "$work/log"
    cp "$work/log" "$build/under_load_run$r.log"
    echo "log: $build/under_load_run$r.log"
  fi
  awk '/Test +#/ {print $(NF - 1), $4, $(NF - 2)}' "$work/log" | sort -rn >"$build/under_load_run$r.times"
  echo "  longest: $(head -n 3 "$build/under_load_run$r.times" | tr '\n' ';') (all: $build/under_load_run$r.times)"
done
[ "$failed" -eq 0 ] && echo "under_load: all ${runs} runs passed" || echo "under_load: FAILED"
exit "$failed"
