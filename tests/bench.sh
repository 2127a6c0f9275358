#!/usr/bin/env bash
# bench.sh — runs `sqz bench` at small sizes (every map and layout) and checks the JSON: all
# methods present, timed, and agreeing on the result. usage: bench.sh path/to/sqz
set -u
sqz="$1"
fails=0
errf=$(mktemp)
trap 'rm -f "$errf"' EXIT
check() { # check NAME PYTHON-ASSERTIONS -- command...   (stdout must be the JSON; stderr is shown on failure)
  local name="$1" code="$2"
  shift 3
  local out rc
  out="$("$@" 2>"$errf")"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: $name: exit status $rc: $out" | head -5
    head -c 600 "$errf"
    fails=$((fails + 1))
    return
  fi
  if printf '%s' "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); $code" 2>&1; then
    echo "ok: $name"
  else
    echo "FAIL: $name"
    printf '%s\n' "$out" | head -c 600
    head -c 600 "$errf"
    fails=$((fails + 1))
  fi
}

# The copy-bandwidth run (the floor columns) in the first command only: it copies a buffer of 256 MiB or more, 2.5 s
# of CPU and 12 s of wall on a busy 2-core machine per command; the others pass --no-copy-test.
rows_ok='rows=d["rows"]; assert rows and all(r["status"]=="ok" and r["agree"] for r in rows), rows'
check "simplex life 2D" "$rows_ok; assert {r['map'] for r in rows}=={'bb','ltm','rb','had','had-above','had-below','rec'}; assert d['copy_bandwidth_bytes_per_s']>0" -- \
  "$sqz" bench simplex --domain triangle:200 --workload life --steps 2 --json
check "simplex life 3D" "$rows_ok; assert {r['map'] for r in rows}=={'bb','ltm3','had3','rec3'}" -- \
  "$sqz" bench simplex --domain tetrahedron:40 --workload life --steps 2 --no-copy-test --json
# The other workloads in the compact layout only: each (workload, map, layout) is a program PoCL builds (about 1 s of
# CPU), and the life runs above already take every map through both layouts.
for w in edm map accumulate; do
  check "simplex $w" "$rows_ok; assert {r['map'] for r in rows}=={'bb','ltm','rb','had','had-above','had-below','rec'}" -- \
    "$sqz" bench simplex --domain triangle:300 --workload $w --layouts compact --steps 2 --no-copy-test --json
done
check "simplex map 3D" "$rows_ok" -- "$sqz" bench simplex --domain tetrahedron:33 --workload map --layouts compact --steps 2 --no-copy-test --json
fr_ok='ls=[l for l in d["layouts"] if l["status"]=="ok"]; assert len(ls)>=4, d["layouts"]; assert len({l["live"] for l in ls})==1; assert all(l["kernel_s"]>0 and l["wall_s"]>=l["kernel_s"] for l in ls)'
check "fractal sierpinski" "$fr_ok" -- "$sqz" bench fractal --domain fractal:sierpinski-triangle:8 --steps 2 --no-copy-test --json
check "fractal carpet" "$fr_ok" -- "$sqz" bench fractal --domain fractal:sierpinski-carpet:4 --steps 2 --no-copy-test --json
check "fractal custom" "$fr_ok" -- "$sqz" bench fractal --domain 'fractal:##./#.#/.##:4' --steps 2 --rule B3/S23 --no-copy-test --json
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
