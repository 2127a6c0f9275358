#!/usr/bin/env bash
# test_costs.sh — runs each ctest entry alone with empty PoCL and sqz kernel caches and prints its wall and CPU
# seconds, the OpenCL programs it built (sqz cache files) and the work-group functions PoCL compiled (.so files).
# usage: scripts/test_costs.sh BUILD_DIR [CTEST_REGEX]     (prints a table, slowest CPU first)
set -uo pipefail
build=$(cd "${1:?usage: test_costs.sh BUILD_DIR [REGEX]}" && pwd)
regex=${2:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-40s %8s %8s %9s %8s %6s\n' test wall_s cpu_s programs wg_so rc >"$work/table"
for t in $(ctest --test-dir "$build" -N -R "$regex" | sed -n 's/^ *Test *#[0-9]*: //p'); do
  rm -rf "$work/pocl" "$work/sqz"
  mkdir -p "$work/pocl" "$work/sqz"
  # ctest's per-test SQZ_CACHE_DIR wins over the environment: empty the shared one (and XDG's, the default).
  rm -rf "$build/tests/kernel-cache"
  POCL_CACHE_DIR="$work/pocl" XDG_CACHE_HOME="$work/sqz" /usr/bin/time -f '%e %U %S' -o "$work/time" \
    ctest --test-dir "$build" -R "^${t//./\\.}\$" >"$work/log" 2>&1
  rc=$?
  read -r wall user sys < <(tail -n 1 "$work/time") # GNU time puts "Command exited with ..." first on a failure
  if [ "$rc" -ne 0 ]; then
    echo "== $t failed (rc $rc):" >&2
    tail -n 30 "$work/log" >&2
  fi
  cpu=$(echo "$user + $sys" | bc)
  progs=$(find "$build/tests/kernel-cache" "$work/sqz" -name '*.bin' 2>/dev/null | wc -l)
  so=$(find "$work/pocl" -name '*.so' | wc -l)
  printf '%-40s %8s %8s %9s %8s %6s\n' "$t" "$wall" "$cpu" "$progs" "$so" "$rc" >>"$work/table"
done
head -1 "$work/table"
tail -n +2 "$work/table" | sort -k3 -rn
