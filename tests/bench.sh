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

rows_ok='rows=d["rows"]; assert rows and all(r["status"]=="ok" and r["agree"] for r in rows), rows; assert d["copy_bandwidth_bytes_per_s"]>0'
check "simplex life 2D" "$rows_ok; assert {r['map'] for r in rows}=={'bb','ltm','rb','had','had-above','had-below','rec'}" -- \
  "$sqz" bench simplex --domain triangle:200 --workload life --steps 2 --json
check "simplex life 3D" "$rows_ok; assert {r['map'] for r in rows}=={'bb','ltm3','had3','rec3'}" -- \
  "$sqz" bench simplex --domain tetrahedron:40 --workload life --steps 2 --json
for w in edm map accumulate; do
  check "simplex $w" "$rows_ok" -- "$sqz" bench simplex --domain triangle:300 --workload $w --steps 2 --json
done
check "simplex map 3D" "$rows_ok" -- "$sqz" bench simplex --domain tetrahedron:33 --workload map --steps 2 --json
fr_ok='ls=[l for l in d["layouts"] if l["status"]=="ok"]; assert len(ls)>=4, d["layouts"]; assert len({l["live"] for l in ls})==1; assert all(l["kernel_s"]>0 and l["wall_s"]>=l["kernel_s"] for l in ls)'
check "fractal sierpinski" "$fr_ok" -- "$sqz" bench fractal --domain fractal:sierpinski-triangle:8 --steps 2 --json
check "fractal carpet" "$fr_ok" -- "$sqz" bench fractal --domain fractal:sierpinski-carpet:4 --steps 2 --json
check "fractal custom" "$fr_ok" -- "$sqz" bench fractal --domain 'fractal:##./#.#/.##:4' --steps 2 --rule B3/S23 --json
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
