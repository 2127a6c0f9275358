#!/usr/bin/env bash
# cli.sh — the sqz CLI contract: exit codes, messages naming the bad value, files never half-written.
# usage: cli.sh path/to/sqz path/to/tests/data
set -u
sqz="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0

# expect CODE PATTERN -- command...: exit status CODE and PATTERN (grep -E) in stdout+stderr
expect() {
  local code="$1" pattern="$2"
  shift 3
  local out rc
  out="$("$@" 2>&1)"
  rc=$?
  if [ "$rc" -ne "$code" ] || ! printf '%s' "$out" | grep -Eq -- "$pattern"; then
    echo "FAIL: $* -> exit $rc (want $code), output:"
    printf '%s\n' "$out" | head -20
    fails=$((fails + 1))
  else
    echo "ok: $*"
  fi
}

expect 0 "sqz [0-9]+\.[0-9]+\.[0-9]+" -- "$sqz" --version
expect 0 "usage: sqz" -- "$sqz" --help
expect 2 "unknown command 'frobnicate'" -- "$sqz" frobnicate
for c in devices info life edm bench; do expect 0 "usage: sqz $c" -- "$sqz" "$c" --help; done
expect 0 "opencl" -- "$sqz" devices
expect 0 "\"backend\":\"cpu\"" -- "$sqz" devices --json

# info
expect 0 "cells +55" -- "$sqz" info triangle:10
expect 0 "cells +220" -- "$sqz" info tetrahedron:10
expect 2 "N must be at least 1" -- "$sqz" info triangle:0
expect 2 "'12x'" -- "$sqz" info triangle:12x
expect 2 "unknown kind 'square'" -- "$sqz" info square:4
expect 2 "no OpenCL device matches 'no-such-gpu'" -- "$sqz" info triangle:4 --device no-such-gpu
expect 2 "unknown option '--bogus'" -- "$sqz" info triangle:4 --bogus

# life: usage errors name the bad value and write nothing
expect 2 "missing --steps" -- "$sqz" life triangle:8
expect 2 "'ten'" -- "$sqz" life triangle:8 --steps ten
expect 2 "count 9" -- "$sqz" life triangle:8 --steps 1 --rule B9/S23 --out "$work/bad.pbm"
expect 2 "position" -- "$sqz" life triangle:8 --steps 1 --rule B3S23
expect 2 "'ltm3' is a 3D map" -- "$sqz" life triangle:8 --steps 1 --map ltm3 --out "$work/bad.pbm"
expect 2 "'had' is a 2D map" -- "$sqz" life tetrahedron:8 --steps 1 --map had
expect 2 "unknown layout 'diagonal'" -- "$sqz" life triangle:8 --steps 1 --layout diagonal
expect 2 "density" -- "$sqz" life triangle:8 --steps 1 --init random:1.5:3
expect 2 "cannot open" -- "$sqz" life triangle:8 --steps 1 --init "$work/missing.pbm"
[ -e "$work/bad.pbm" ] && { echo "FAIL: a file was written after a usage error"; fails=$((fails + 1)); }

# PBM contract: wrong size and a live cell outside the domain are errors naming the problem
printf 'P1\n3 3\n1 0 0\n1 1 0\n1 1 1\n' > "$work/tri3.pbm"
printf 'P1\n4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n' > "$work/tri4.pbm"
printf 'P1\n3 3\n1 1 0\n1 1 0\n1 1 1\n' > "$work/outside.pbm"
expect 0 "live +[0-9]+" -- "$sqz" life triangle:3 --steps 0 --init "$work/tri3.pbm" --out "$work/copy.pbm"
cmp -s <(tail -c 3 "$work/copy.pbm" | od -An -tx1) <(printf '\x80\xc0\xe0' | od -An -tx1) ||
  { echo "FAIL: P4 round trip of the triangle state"; fails=$((fails + 1)); }
expect 2 "4 x 4 but triangle:3 needs 3 x 3" -- "$sqz" life triangle:3 --steps 1 --init "$work/tri4.pbm"
expect 2 "\(1, 0\)" -- "$sqz" life triangle:3 --steps 1 --init "$work/outside.pbm"
expect 0 "\"live\":6" -- "$sqz" life triangle:3 --steps 0 --init "$work/tri3.pbm" --json

# JSON fields of the contract
expect 0 "\"domain\":\"triangle:64\".*\"cells\":2080.*\"steps\":3.*\"live\":[0-9]+.*\"kernel_s\".*\"wall_s\".*\"cells_per_s\".*\"bytes\".*\"device\"" \
  -- "$sqz" life triangle:64 --steps 3 --json

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
