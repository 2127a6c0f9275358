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
for c in devices info life edm bench run heat; do expect 0 "usage: sqz $c" -- "$sqz" "$c" --help; done
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
# .npy states, chosen by extension: the same state back, a wrong shape named
expect 0 "live +6" -- "$sqz" life triangle:3 --steps 0 --init "$work/tri3.pbm" --out "$work/tri3.npy"
expect 0 "\"live\":6" -- "$sqz" life triangle:3 --steps 0 --init "$work/tri3.npy" --json
expect 2 "has shape \(3, 3\) but triangle:4 needs \(4, 4\)" -- "$sqz" life triangle:4 --steps 1 --init "$work/tri3.npy"
expect 2 "cannot open" -- "$sqz" life triangle:3 --steps 1 --init "$work/missing.npy"

# edm: packed lower triangle of float32 distances; bad input names the line and writes nothing
printf '# three points\n0 0\n3 4\n6 8\n' > "$work/pts.txt"
printf '0 0\n1 x\n' > "$work/badpts.txt"
expect 0 "3 points" -- "$sqz" edm --points "$work/pts.txt" --out "$work/d.f32" --map rb
[ "$(od -An -v -f "$work/d.f32" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')" = "0 5 0 10 5 0" ] ||
  { echo "FAIL: edm distances: $(od -An -v -f "$work/d.f32")"; fails=$((fails + 1)); }
expect 2 "badpts.txt:2" -- "$sqz" edm --points "$work/badpts.txt" --out "$work/bad.f32"
expect 2 "'ltm3' is a 3D map" -- "$sqz" edm --points "$work/pts.txt" --out "$work/bad.f32" --map ltm3
[ -e "$work/bad.f32" ] && { echo "FAIL: edm wrote a file after bad input"; fails=$((fails + 1)); }

# fractals: names, patterns and levels are checked, holes cannot be alive
expect 2 "side 2\^41 must stay below 2\^31" -- "$sqz" info fractal:sierpinski-triangle:41
expect 2 "unknown fractal 'koch'" -- "$sqz" info fractal:koch:3
expect 2 "not square: row 2" -- "$sqz" info 'fractal:##./#.:3'
expect 2 "all replicas" -- "$sqz" info 'fractal:##/##:3'
expect 2 "level '0'" -- "$sqz" info fractal:sierpinski-triangle:0
expect 2 "character 'x' in row 1, column 2" -- "$sqz" info 'fractal:#x/##:2'
expect 0 "block:16 +[0-9]+ +[0-9]+ +31.57" -- "$sqz" info fractal:sierpinski-triangle:16
printf 'P1\n2 2\n1 1\n1 1\n' > "$work/hole.pbm"
expect 2 "cell \(1, 0\) is set but is a hole" -- "$sqz" life fractal:sierpinski-triangle:1 --steps 1 --init "$work/hole.pbm"
expect 0 "\"live\":" -- "$sqz" life fractal:sierpinski-carpet:3 --steps 2 --layout block:9 --png "$work/c.png" --out "$work/c.pbm" --json
head -c 8 "$work/c.png" | od -An -c | grep -q "P   N   G" || { echo "FAIL: no PNG written"; fails=$((fails + 1)); }
expect 0 "live" -- "$sqz" life fractal:sierpinski-carpet:3 --steps 0 --layout compact --init "$work/c.pbm" --out "$work/c2.pbm"
expect 0 "\"cells\":10," -- "$sqz" life tetrahedron:3 --steps 1 --rule B6/S5,6,7 --json --out "$work/t.pbm"
head -2 "$work/t.pbm" | tail -1 | grep -q "^3 9$" || { echo "FAIL: 3D PBM is not N x N*N"; fails=$((fails + 1)); }

# run (a user stencil in OpenCL C) and heat: usage errors exit 2 naming the value, a kernel error exits 1 naming
# FILE.cl:LINE, and nothing is written after either
cat > "$work/cyclic.cl" <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,
                      __constant const sqz_param_t *param) {
  int k = (int)param[0], next = ((int)self + 1) % k, hits = 0;
  for (int i = 0; i < SQZ_NB; i++) hits += ((present >> i) & 1u) && nb[i] == next;
  return hits >= 2 ? (sqz_cell_t)next : self;
}
CL
sed 's/hits >= 2/hits >= 2 +/' "$work/cyclic.cl" > "$work/broken.cl" # line 5 no longer parses
expect 2 "missing --kernel" -- "$sqz" run triangle:8 --steps 1 --type i32 --out "$work/run.npy"
expect 2 "missing --type" -- "$sqz" run triangle:8 --steps 1 --kernel "$work/cyclic.cl"
expect 2 "--backend cpu cannot run .*OpenCL" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/cyclic.cl" --backend cpu
expect 2 "value 2 \('nan'\) is not a finite number" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/cyclic.cl" --param 1,nan
expect 2 "value 1 \('x'\) is not a number" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/cyclic.cl" --param x
expect 2 "--type 'f16'" -- "$sqz" run triangle:8 --steps 1 --type f16 --kernel "$work/cyclic.cl"
expect 2 "missing.cl" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/missing.cl"
expect 2 "'\|u1' \(uint8\) but the field holds f32 cells \(dtype '<f4'\)" -- "$sqz" run triangle:3 --steps 1 --type f32 \
  --kernel "$work/cyclic.cl" --param 4 --init "$work/tri3.npy" --out "$work/run.npy"
expect 1 "broken.cl:5" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/broken.cl" --param 4 --out "$work/run.npy"
[ -e "$work/run.npy" ] && { echo "FAIL: sqz run wrote a file after an error"; fails=$((fails + 1)); }
expect 0 "\"kernel\":\".*cyclic.cl\".*\"nonzero\":[1-9]" -- "$sqz" run triangle:8 --steps 3 --type u8 --kernel "$work/cyclic.cl" \
  --param 3 --init random:0.7:2 --out "$work/run.npy" --json
head -c 6 "$work/run.npy" | od -An -c | grep -q "N   U   M   P   Y" || { echo "FAIL: sqz run --out wrote no .npy"; fails=$((fails + 1)); }
expect 2 "--alpha 0.3 is outside \(0, 0.25\]" -- "$sqz" heat triangle:8 --steps 1 --alpha 0.3 --out "$work/heat.npy"
expect 2 "--alpha 0.2 is outside \(0, 0.166667\]" -- "$sqz" heat tetrahedron:5 --steps 1 --alpha 0.2
expect 2 "--alpha '-1x'" -- "$sqz" heat triangle:8 --steps 1 --alpha -1x
expect 2 "--type 'u8': expected f32 or f64" -- "$sqz" heat triangle:8 --steps 1 --type u8
[ -e "$work/heat.npy" ] && { echo "FAIL: sqz heat wrote a file after a usage error"; fails=$((fails + 1)); }
expect 0 "\"sum_initial\":[0-9.e+-]+,\"sum_final\":[0-9.e+-]+" -- "$sqz" heat fractal:sierpinski-carpet:2 --steps 5 --json
expect 0 "heat +[0-9.]+ -> [0-9.]+" -- "$sqz" heat triangle:8 --steps 5 --type f32

# JSON fields of the contract
expect 0 "\"domain\":\"triangle:64\".*\"cells\":2080.*\"steps\":3.*\"live\":[0-9]+.*\"kernel_s\".*\"wall_s\".*\"cells_per_s\".*\"bytes\".*\"device\"" \
  -- "$sqz" life triangle:64 --steps 3 --json

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
