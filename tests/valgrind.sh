#!/usr/bin/env bash
# tests/valgrind.sh BUILD_DIR — the cpu backend under valgrind (memcheck): host tests of the cpu backend and the
# file formats (through `ctest -T memcheck`; Check without forking) and CLI runs with --backend cpu over every command,
# file format and a few error paths. Only definite leaks and memory errors count (`sqz info` loads PoCL and LLVM,
# which keep memory reachable; glibc's loader false positive is suppressed: tests/valgrind.supp says which). Exits 1
# on any finding, printing the valgrind report.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd) || exit 2
src=$(cd "$(dirname "$0")" && pwd)
sqz="$build/sqz"
opts=(--leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes
  --suppressions="$src/valgrind.supp")
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 2; }
fails=0

# ---- host tests -------------------------------------------------------------------------------------------
# CK_FORK=no: Check runs each test in the process valgrind watches; timeouts grow with valgrind's slowdown. The
# host tests that drive the cpu backend and the file formats, each under a minute in valgrind on the 2-core machine;
# not test_outputs (signals, rlimits and GiB-sized images: ASan covers it), test_rle and test_fractal_maps (two
# minutes each; the CLI runs below cover RLE files and fractals on the cpu backend), the Python and CUDA drivers.
tests='^(test_core|test_npy|test_npy_header|test_checkpoint|test_bench_api|test_lifetimes|test_progress|test_registry|test_simplex_life)$'
echo "== valgrind: host tests $tests"
rm -f "$build"/Testing/Temporary/MemoryChecker.*.log
if ! CK_FORK=no CK_TIMEOUT_MULTIPLIER=20 ctest --test-dir "$build" -T memcheck --output-on-failure --no-tests=error \
  -j"$(nproc)" -R "$tests" \
  --overwrite MemoryCheckCommand="$(command -v valgrind)" \
  --overwrite MemoryCheckCommandOptions="${opts[*]} --error-exitcode=1"; then
  fails=$((fails + 1))
  for log in "$build"/Testing/Temporary/MemoryChecker.*.log; do
    if grep -qE 'ERROR SUMMARY: [1-9]|definitely lost: [1-9]' "$log"; then
      echo "---- $log"
      cat "$log"
    fi
  done
fi

# ---- CLI runs on the cpu backend ----------------------------------------------------------------------------
# Exit status 99 is valgrind's (an error or a definite leak); anything else is the command's own, checked against
# the expected one (0 success, 1 runtime failure, 2 usage or bad input).
echo "== valgrind: CLI runs (--backend cpu)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '0 0\n3 4\n# a comment\n\n-1.5 2e1\n6 8\n' >"$work/points.txt"
printf 'P1\n4 4\n1 0 0 0\n1 1 0 0\n0 1 1 0\n1 0 1 1\n' >"$work/small.pbm"
printf 'P1\n5 5\n' >"$work/short.pbm"
cli() { # cli EXPECTED_STATUS ARGS...
  local want=$1 rc
  shift
  valgrind "${opts[@]}" --error-exitcode=99 --log-file="$work/vg.log" "$sqz" "$@" >"$work/out.txt" 2>"$work/err.txt"
  rc=$?
  if [ $rc -eq 99 ] || [ $rc -ne "$want" ]; then
    echo "FAIL (exit $rc, expected $want): sqz $*"
    cat "$work/vg.log"
    head -c 2000 "$work/err.txt"
    fails=$((fails + 1))
  else
    echo "ok (exit $rc): sqz $*"
  fi
}
cd "$work" || exit 2
cli 0 info triangle:50
cli 0 info fractal:sierpinski-carpet:3 --layout block:3
cli 0 life triangle:64 --steps 5 --backend cpu --out tri.pbm
cli 0 life triangle:64 --steps 3 --backend cpu --init tri.pbm --out tri.npy --json
cli 0 life triangle:64 --steps 2 --backend cpu --init tri.npy --layout bb --map had --out tri.rle
cli 0 life triangle:80 --steps 2 --backend cpu --init tri.rle --at 5,10 --png tri.png
cli 0 life tetrahedron:12 --steps 3 --rule B6/S5,6,7 --backend cpu --map rec3 --out tet.npy --json
cli 0 life fractal:sierpinski-triangle:5 --layout block:4 --steps 3 --backend cpu --out fr.pbm
cli 0 life fractal:vicsek-cross:3 --layout lambda --rule b2s23 --steps 3 --backend cpu --init random:0.3:7 --out fr.rle
cli 0 heat triangle:40 --steps 10 --backend cpu --out heat.npy --json
cli 0 heat fractal:sierpinski-carpet:3 --steps 4 --type f32 --backend cpu --init random:5 --out heat32.npy
cli 0 heat triangle:40 --steps 3 --backend cpu --init heat.npy
cli 0 edm --points points.txt --backend cpu --out d.f32 --json
cli 0 bench simplex --domain triangle:60 --workload life --steps 2 --backend cpu --json
cli 0 bench fractal --domain fractal:sierpinski-carpet:3 --steps 2 --backend cpu --json
cli 2 life triangle:0 --steps 1 --backend cpu
cli 2 life triangle:8 --steps 1 --rule B9/S23 --backend cpu
cli 2 life triangle:8 --steps 1 --backend cpu --init small.pbm
cli 2 life triangle:5 --steps 1 --backend cpu --init short.pbm
cli 2 life triangle:8 --steps 1 --backend cpu --init tet.npy
cli 2 life tetrahedron:8 --steps 1 --backend cpu --map ltm
cli 2 life fractal:sierpinski-carpet:3 --layout block:2 --steps 1 --backend cpu
cli 2 edm --points missing.txt --backend cpu --out d.f32
cli 2 heat triangle:8 --steps 1 --alpha 1 --backend cpu
cd - >/dev/null || exit 2

if [ $fails -ne 0 ]; then
  echo "valgrind.sh: $fails failure(s)" >&2
  exit 1
fi
echo "valgrind.sh: no memory errors or definite leaks"
