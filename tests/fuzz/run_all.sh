#!/usr/bin/env bash
# tests/fuzz/run_all.sh BUILD_DIR SECONDS — runs every libFuzzer harness of BUILD_DIR/fuzz (a build configured
# with CC=clang -DSQZ_FUZZ=ON) for SECONDS each, one after the other, starting from the seed corpus
# tests/fuzz/corpus/<name>/ (never modified). Exits 1 when any harness finds a crash, a sanitizer report, a
# leak, a violated property, a timeout (10 s per input) or runs out of memory; the input that did it is kept in
# BUILD_DIR/fuzz-run/artifacts/ and the log in BUILD_DIR/fuzz-run/<name>.log. New inputs go to
# BUILD_DIR/fuzz-run/corpus/<name>/ (kept between runs, so a later run starts from them).
set -uo pipefail
if [ $# -ne 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build=$(cd "$1" && pwd) || exit 2
seconds=$2
src=$(cd "$(dirname "$0")" && pwd)
work="$build/fuzz-run"
mkdir -p "$work/artifacts"

shopt -s nullglob
harnesses=("$build"/fuzz/fuzz_*)
if [ ${#harnesses[@]} -eq 0 ]; then
  echo "run_all.sh: no harnesses in $build/fuzz (configure with CC=clang -DSQZ_FUZZ=ON and build the target sqz_fuzz)" >&2
  exit 2
fi
# every harness has a seed corpus, and every seed corpus a harness
missing=0
for h in "${harnesses[@]}"; do
  name=$(basename "$h")
  [ -d "$src/corpus/${name#fuzz_}" ] || { echo "run_all.sh: no seed corpus $src/corpus/${name#fuzz_}/ for $name" >&2; missing=1; }
done
for d in "$src"/corpus/*/; do # fuzz/skipped: harnesses the build left out for a missing library (HDF5)
  grep -qx "$(basename "$d")" "$build/fuzz/skipped" 2>/dev/null && { echo "run_all.sh: skipped (not built): fuzz_$(basename "$d")"; continue; }
  [ -x "$build/fuzz/fuzz_$(basename "$d")" ] || { echo "run_all.sh: seed corpus $d has no harness in $build/fuzz" >&2; missing=1; }
done
[ $missing -eq 0 ] || exit 2

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
printf '%-18s %8s %10s %8s  %s\n' harness seconds execs corpus result
for h in "${harnesses[@]}"; do
  name=$(basename "$h")
  short=${name#fuzz_}
  mkdir -p "$work/corpus/$short"
  log="$work/$name.log"
  rm -f "$work/artifacts/$name-"*
  start=$(date +%s)
  # -close_fd_mask=2: the CLI parsers' usage messages go nowhere; libFuzzer's and the sanitizers' reports, and
  # the harnesses' property messages, still reach the log.
  "$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -close_fd_mask=2 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/$name-" "$work/corpus/$short" "$src/corpus/$short" \
    >"$log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  corpus=$(find "$work/corpus/$short" -type f | wc -l)
  if [ $rc -eq 0 ] && grep -q 'Done [0-9]* runs' "$log"; then
    printf '%-18s %8s %10s %8s  %s\n' "$name" "$took" "${execs:-?}" "$corpus" ok
  else
    printf '%-18s %8s %10s %8s  %s\n' "$name" "$took" "${execs:-?}" "$corpus" "FAILED (exit $rc)"
    failed+=("$name")
    echo "---- $log (last 60 lines) ----"
    tail -n 60 "$log"
    for a in "$work/artifacts/$name-"*; do
      echo "---- input: $a (reproduce: $h $a) ----"
      head -c 512 "$a" | od -c | head -n 20
    done
    echo "----"
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "run_all.sh: ${#failed[@]} harness(es) failed: ${failed[*]}" >&2
  exit 1
fi
echo "run_all.sh: ${#harnesses[@]} harnesses ran ${seconds}s each without a finding"
