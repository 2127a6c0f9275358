#!/usr/bin/env bash
# cli.sh — the sqz CLI contract: exit codes, messages naming the bad value, files never half-written.
# usage: cli.sh path/to/sqz path/to/tests/data
set -u
sqz="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0

. "$(dirname "$0")/expect.sh"

expect 0 "sqz [0-9]+\.[0-9]+\.[0-9]+" -- "$sqz" --version
expect 0 "usage: sqz" -- "$sqz" --help
expect 2 "unknown command 'frobnicate'" -- "$sqz" frobnicate
for c in devices info life run heat edm bench; do
  expect 0 "usage: sqz $c" -- "$sqz" "$c" --help
  expect 0 "usage: sqz $c" -- "$sqz" help "$c"
done
expect 0 "usage: sqz bench fractal" -- "$sqz" help bench fractal
expect 2 "unknown command 'nosuch'" -- "$sqz" help nosuch
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
# info --parts: the decomposition (no device), bad counts named, the largest valid count given
expect 0 "replicas at level 10 \(59049 replicas of 4782969 cells, 57 to 58 per part" -- "$sqz" info fractal:sierpinski-triangle:24 --parts 1024
expect 0 '"kind":"bands".*"halo_total":[0-9]+' -- "$sqz" info triangle:1001 --parts 3 --layout compact --json
expect 2 "--parts 0 is outside 1\.\." -- "$sqz" info triangle:5 --parts 0
expect 2 "--parts '4x' is not a non-negative integer" -- "$sqz" info triangle:5 --parts 4x
expect 2 "16 parts of triangle:5: the count must be 1 \.\. 15" -- "$sqz" info triangle:5 --parts 16
expect 2 "must be 1 \.\. 1048576" -- "$sqz" info fractal:sierpinski-triangle:30 --parts 2000000
expect 0 "layout bb +parts of bands of bounding-box rows .*largest part buffer 2700 B, halo 600 B per step" -- \
  "$sqz" info triangle:100 --parts 4 --layout bb
expect 0 '"parts_layout":"lambda","layout_part_bytes_max":22272,"layout_halo_bytes_per_step":1024' -- \
  "$sqz" info fractal:sierpinski-triangle:8 --parts 3 --layout lambda --json
expect 0 "layout bits +parts of bands of row words: largest part buffer 232 B, halo 64 B per step" -- \
  "$sqz" info triangle:100 --parts 4 --layout bits

# life: usage errors name the bad value and write nothing
expect 2 "missing --steps" -- "$sqz" life triangle:8
expect 2 "'ten'" -- "$sqz" life triangle:8 --steps ten
expect 2 "count 9" -- "$sqz" life triangle:8 --steps 1 --rule B9/S23 --out "$work/bad.pbm"
expect 2 "position 6" -- "$sqz" life triangle:8 --steps 1 --rule B3S23x
expect 2 "'ltm3' is a 3D map" -- "$sqz" life triangle:8 --steps 1 --map ltm3 --out "$work/bad.pbm"
expect 2 "'had' is a 2D map" -- "$sqz" life tetrahedron:8 --steps 1 --map had
expect 2 "unknown layout 'diagonal'" -- "$sqz" life triangle:8 --steps 1 --layout diagonal
expect 2 "density" -- "$sqz" life triangle:8 --steps 1 --init random:1.5:3
expect 2 "cannot open" -- "$sqz" life triangle:8 --steps 1 --init "$work/missing.pbm"
[ -e "$work/bad.pbm" ] && { echo "FAIL: a file was written after a usage error"; fails=$((fails + 1)); }

# numeric options: digits only, within 64 bits and the option's range; numbers whole and finite. Each
# bad form is exit 2 naming the value (under a time limit: such values once ran for ever).
t="timeout ${SQZ_CLI_TIMEOUT:-60}"
expect 2 "--steps '99999999999999999999' does not fit in 64 bits" -- $t "$sqz" life triangle:8 --steps 99999999999999999999
expect 2 "--steps ' -1' is not a non-negative integer" -- $t "$sqz" life triangle:8 --steps ' -1'
expect 2 "--steps '-1' is not" -- $t "$sqz" life triangle:8 --steps -1
expect 2 "--steps '\+3' is not" -- $t "$sqz" heat triangle:8 --steps +3
expect 2 "--steps '5 ' is not" -- $t "$sqz" life triangle:8 --steps '5 '
expect 2 "--steps 4611686018427387905 is larger than 4611686018427387904" -- $t "$sqz" life triangle:8 --steps 4611686018427387905
expect 2 "--steps '18446744073709551616' does not fit" -- $t "$sqz" run triangle:8 --kernel "$work/none.cl" --type u8 --steps 18446744073709551616
expect 2 "--block 4294967297 is larger than 1024" -- $t "$sqz" life triangle:8 --steps 1 --block 4294967297
expect 2 "--block 2048 is larger than 1024" -- $t "$sqz" heat triangle:8 --steps 1 --block 2048
expect 2 "seed '99999999999999999999' does not fit in 64 bits" -- $t "$sqz" life triangle:8 --steps 1 --init random:0.5:99999999999999999999
expect 2 "seed '99999999999999999999' does not fit in 64 bits" -- $t "$sqz" heat triangle:8 --steps 1 --init random:99999999999999999999
expect 2 "seed ' 7' is not" -- $t "$sqz" run triangle:8 --kernel "$work/none.cl" --type u8 --steps 1 --init 'random:0.5: 7'
expect 2 "density ' 0.5' is not a number" -- $t "$sqz" life triangle:8 --steps 1 --init 'random: 0.5:1'
expect 2 "density '0.5x' is not a number" -- $t "$sqz" life triangle:8 --steps 1 --init random:0.5x:1
expect 2 "--alpha '0.1x' is not a number" -- $t "$sqz" heat triangle:8 --steps 1 --alpha 0.1x
expect 2 "--alpha 'nan' is not a finite number" -- $t "$sqz" heat triangle:8 --steps 1 --alpha nan
expect 2 "--param value 2 '1e999' is not a finite number" -- $t "$sqz" run triangle:8 --kernel "$work/none.cl" --type f32 --steps 1 --param 1,1e999
expect 2 "--steps ' 2' is not" -- $t "$sqz" bench simplex --domain triangle:8 --steps ' 2'
expect 2 "--density '0.5x' is not a number" -- $t "$sqz" bench simplex --domain triangle:8 --density 0.5x
expect 2 "--block 4096 is larger than 1024" -- $t "$sqz" bench simplex --domain triangle:8 --block 4096
expect 2 "--seed '18446744073709551616' does not fit in 64 bits" -- $t "$sqz" bench fractal --domain fractal:sierpinski-triangle:3 --seed 18446744073709551616
expect 2 "--density 'inf' is not a finite number" -- $t "$sqz" bench fractal --domain fractal:sierpinski-triangle:3 --density inf
expect 2 "--steps '0x10' is not" -- $t "$sqz" bench fractal --domain fractal:sierpinski-triangle:3 --steps 0x10
expect 2 "--block ' 4' is not" -- $t "$sqz" info triangle:8 --block ' 4'
expect 2 "--r '0.5x' is not a number" -- $t "$sqz" info simplex --m 3 --r 0.5x
expect 2 "--m 1000000 is outside 2..16" -- $t "$sqz" info simplex --m 1000000

# messages name the real value and limit: random means exactly random or random:..., a file named
# random.pbm is a file; block:RHO names the largest RHO; PBM reads name trailing bytes and the system error
in_work() { (cd "$work" && "$@"); }
printf 'P1\n3 3\n1 0 0\n1 1 0\n1 1 1\n' > "$work/random.pbm"
expect 0 "\"live\":6," -- in_work "$sqz" life triangle:3 --steps 0 --init random.pbm --json --backend cpu
expect 0 "nonzero +6" -- in_work "$sqz" heat triangle:3 --steps 0 --init random:5 --out random.npy --backend cpu
expect 0 "\"sum_initial\"" -- in_work "$sqz" heat triangle:3 --steps 1 --init random.npy --json --backend cpu
expect 2 "expected random:DENSITY\[:SEED\]" -- "$sqz" life triangle:3 --steps 1 --init random:
# --init const:V and point:Y,X[:V] (3D point:Z,Y,X[:V]): values the type holds, a point on a domain cell
expect 0 '"sum_initial":2\.5,"sum_final":2\.5' -- "$sqz" heat fractal:sierpinski-carpet:3 --steps 5 --init point:26,0:2.5 --json
expect 0 '"nonzero":220,' -- "$sqz" heat tetrahedron:10 --steps 0 --init const:0.5 --json --backend cpu
expect 0 '"live":0,.*"setup_s":' -- "$sqz" life triangle:9 --steps 1 --init point:4,2 --json
expect 0 '"live":45,' -- "$sqz" life triangle:9 --steps 0 --init const:1 --layout bits --json
expect 2 "cell \(y 13, x 13\) is not a cell of fractal:sierpinski-carpet:3" -- "$sqz" heat fractal:sierpinski-carpet:3 --steps 1 --init point:13,13
expect 2 "cell \(y 2, x 4\) is not a cell of triangle:9" -- "$sqz" heat triangle:9 --steps 1 --init point:2,4 --parts 2
expect 2 "a point of a 3D domain has 3 coordinates \(point:Z,Y,X\[:V\]\)" -- "$sqz" heat tetrahedron:5 --steps 1 --init point:1,1
expect 2 "expected point:Y,X\[:V\]" -- "$sqz" heat triangle:5 --steps 1 --init point:1,
expect 2 "coordinate '-1' is not" -- "$sqz" heat triangle:5 --steps 1 --init point:-1,2
expect 2 "value 'x' is not a number" -- "$sqz" heat triangle:5 --steps 1 --init const:x
expect 2 "Life cells are 0 \(dead\) or 1 \(alive\)" -- "$sqz" life triangle:5 --steps 1 --init const:2
printf 'sqz_cell_t sqz_update(sqz_cell_t s, const sqz_cell_t nb[SQZ_NB], uint p, __constant const sqz_param_t *q) { return s; }\n' > "$work/same.cl"
# the engine path a run took and why the faster ones did not apply: --json, the text summary, SQZ_DEBUG on stderr
expect 0 '"engine":"fractal-tiles-generic","skipped":"fractal-boxes-life-u8: the update is the user.s kernel' -- \
  "$sqz" run fractal:sierpinski-carpet:3 --kernel "$work/same.cl" --type u8 --steps 2 --json
expect 0 "^engine +cpu-life-rows" -- "$sqz" life triangle:20 --steps 2 --backend cpu
expect 0 "sqz: triangle:20: engine triangle-rows-generic \(skipped: triangle-words-life-u8: the update is heat" -- \
  env SQZ_DEBUG=1 "$sqz" heat triangle:20 --steps 2
# the tuning options (docs/OPTIONS.md): --option NAME=VALUE and SQZ_<NAME>, checked against the table, listed in --json
expect 0 "^temporal +count +1\.\.8" -- "$sqz" help options
expect 0 '"options":\{.*"engine":"generic".*"temporal":"3".*"engine":"fractal-tiles-generic"' -- \
  "$sqz" life fractal:sierpinski-carpet:3 --steps 2 --option engine=generic --option=temporal=3 --json
expect 0 "\"options\":\\{.*\"debug\":\"1\"" -- env SQZ_DEBUG=1 "$sqz" life triangle:9 --steps 1 --backend cpu --json
expect 2 "sqz heat: --option temporal=9: option temporal='9': expected a whole number in 1\.\.8" -- \
  "$sqz" heat triangle:9 --steps 1 --option temporal=9
expect 2 "sqz life: --option nope=1: unknown option 'nope' \(the options: backend, device," -- \
  "$sqz" life triangle:9 --steps 1 --option nope=1
expect 2 "sqz run: --option needs NAME=VALUE" -- "$sqz" run triangle:9 --steps 1 --option
expect 2 "SQZ_SWAR_WORD='16': expected one of 8\|32\|64 \(option swar_word" -- env SQZ_SWAR_WORD=16 "$sqz" life triangle:9 --steps 1
expect 2 "unknown option '--option'" -- "$sqz" devices --option debug=1
expect 0 "--option NAME=VALUE" -- "$sqz" help heat
# option engine=PATH forces an engine path (sqz_engine_path): where it does not apply, exit 2 with the reason its
# row gives (never another path), nothing written; a name no backend has is refused when set, listing the paths
expect 0 '"engine":"fractal-tiles-generic-direct","skipped":""' -- \
  "$sqz" life fractal:sierpinski-carpet:3 --steps 2 --option engine=fractal-tiles-generic-direct --json
expect 2 "engine path fractal-boxes-life-u8 does not apply: the update is heat" -- \
  "$sqz" heat fractal:sierpinski-carpet:3 --steps 2 --option engine=fractal-boxes-life-u8 --out "$work/forced.npy"
[ -e "$work/forced.npy" ] && { echo "FAIL: a forced path that does not apply wrote its --out"; fails=$((fails + 1)); }
expect 2 "engine path triangle-words-life-u8 does not apply: the update is the user.s kernel" -- \
  "$sqz" run triangle:9 --kernel "$work/same.cl" --type i32 --steps 2 --option engine=triangle-words-life-u8
expect 2 "engine path triangle-rows-generic does not apply: it steps triangles in layouts bb, compact; this field is tetrahedron:6" -- \
  env SQZ_ENGINE=triangle-rows-generic "$sqz" life tetrahedron:6 --steps 1
expect 2 "engine path fractal-bb-generic does not apply: it is a path of the opencl backend, and this field is on cpu" -- \
  "$sqz" life fractal:sierpinski-carpet:3 --steps 1 --backend cpu --option engine=fractal-bb-generic
expect 2 "option engine='nope': expected one of fast\|generic\|PATH, PATH one of opencl: fractal-boxes-life-u8, .*; cpu: cpu-bits" -- \
  "$sqz" life triangle:9 --steps 1 --option engine=nope
expect 2 "fill value 300: u8 cells hold the integers 0 \.\. 255" -- "$sqz" run triangle:5 --kernel "$work/same.cl" --type u8 --steps 1 --init const:300
expect 0 '"nonzero":15,' -- "$sqz" run triangle:5 --kernel "$work/same.cl" --type i32 --steps 1 --init const:-7 --json
expect 2 "RHO = 8192 is larger than 4096, .* the largest on fractal:sierpinski-triangle:14 is 4096" -- "$sqz" info fractal:sierpinski-triangle:14 --layout block:8192 --backend cpu
printf 'P4\n3 3\n\200\300\340xyz' > "$work/trailing.pbm"
expect 2 "3 trailing bytes after the 3 x 3 P4 image" -- "$sqz" life triangle:3 --steps 0 --init "$work/trailing.pbm" --backend cpu
expect 2 "missing.pbm: cannot open for reading: No such file or directory" -- "$sqz" life triangle:3 --steps 0 --init "$work/missing.pbm" --backend cpu

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
# Life cells are 0 or 1: an .npy holding a 2 or a 255 is bad input naming the file, the first such cell
# and its value, in every layout and on both backends, and no --out is written or replaced
head -c -9 "$work/tri3.npy" > "$work/two.npy" && printf '\001\000\000\001\002\000\001\001\377' >> "$work/two.npy"
head -c -9 "$work/tri3.npy" > "$work/ff.npy" && printf '\001\000\000\001\001\000\001\001\377' >> "$work/ff.npy"
for layout in compact bb bits; do
  for backend in cpu opencl; do
    expect 2 "two\.npy: triangle:3: cell 4 \(x 1, y 1\) holds 2; Life cells are 0 or 1" -- \
      "$sqz" life triangle:3 --steps 1 --init "$work/two.npy" --layout $layout --backend $backend --out "$work/never.npy"
  done
done
"$sqz" life tetrahedron:3 --steps 0 --init random:0.5:1 --out "$work/t3.npy" >/dev/null
head -c -27 "$work/t3.npy" > "$work/t3bad.npy" && # z 0: rows 111 110 100; z 1: 210 100 000; z 2: 100 000 000
  printf '\001\001\001\001\001\000\001\000\000\002\001\000\001\000\000\000\000\000\001\000\000\000\000\000\000\000\000' >> "$work/t3bad.npy"
cp "$work/tri3.npy" "$work/kept.npy"
expect 2 "ff\.npy: triangle:3: cell 8 \(x 2, y 2\) holds 255" -- \
  "$sqz" life triangle:3 --steps 1 --init "$work/ff.npy" --out "$work/kept.npy" --png "$work/never.png"
expect 2 "t3bad\.npy: tetrahedron:3: cell 9 \(x 0, y 0, z 1\) holds 2" -- \
  "$sqz" life tetrahedron:3 --steps 1 --init "$work/t3bad.npy"
[ ! -e "$work/never.npy" ] && [ ! -e "$work/never.png" ] && cmp -s "$work/tri3.npy" "$work/kept.npy" ||
  { echo "FAIL: a refused --init wrote or replaced an output"; fails=$((fails + 1)); }
expect 0 "\"live\":6" -- "$sqz" life triangle:3 --steps 0 --init "$work/tri3.npy" --layout bits --json

# Golly: RLE patterns placed with --at, written as the live cells' bounding box; Golly's rule forms
printf '#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n' > "$work/glider.rle"
expect 0 "live +5" -- "$sqz" life triangle:64 --init "$work/glider.rle" --at 10,40 --steps 4 --out "$work/g.rle"
printf '#CXRLE Pos=11,41\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' | cmp -s - "$work/g.rle" ||
  { echo "FAIL: the glider after 4 steps: $(cat "$work/g.rle")"; fails=$((fails + 1)); }
expect 0 "\"live\":5" -- "$sqz" life triangle:64 --init "$work/g.rle" --steps 0 --json
expect 2 "--at 10,40 places an .rle or .cells --init pattern" -- "$sqz" life triangle:64 --steps 1 --at 10,40
expect 2 "--at '10,-4'" -- "$sqz" life triangle:64 --steps 1 --init "$work/glider.rle" --at 10,-4
expect 2 "live cell \(1, 0\) of the pattern lands on cell \(62, 40\), outside triangle:64" -- "$sqz" life triangle:64 --steps 1 --init "$work/glider.rle" --at 61,40
expect 2 "live cell \(0, 2\) of the pattern lands on cell \(0, 64\), outside the embedding" -- "$sqz" life triangle:64 --steps 1 --init "$work/glider.rle" --at 0,62
expect 2 "RLE patterns are 2D" -- "$sqz" life tetrahedron:8 --steps 1 --out "$work/bad.rle"
printf 'x = 3, y = 3\nbo$2bo$3o\n' > "$work/open.rle"
expect 2 "open.rle: line 3, column 1: missing '!'" -- "$sqz" life triangle:64 --steps 1 --init "$work/open.rle"
# RLE reads are bounded: 1 MiB before the header (a link to /dev/zero stops there, quickly), then 2 bytes a cell
# of the header's box plus 1 MiB
ln -s /dev/zero "$work/zero.rle"
expect 2 "zero\.rle: no RLE header 'x = W, y = H' in the first 1048576 bytes" -- \
  timeout 30 "$sqz" life triangle:64 --steps 1 --init "$work/zero.rle"
{ printf 'x = 3, y = 3\nbo$2bo$3o\n'; head -c 1100000 /dev/zero | tr '\0' ' '; printf '!\n'; } > "$work/long.rle"
expect 2 "long\.rle: larger than 1048600 bytes, the limit for a pattern of x = 3, y = 3 in triangle:64" -- \
  timeout 30 "$sqz" life triangle:64 --steps 1 --rule B3/S23 --init "$work/long.rle" --at 10,40
expect 2 "long\.rle: larger than 1048600 bytes, the limit for a pattern of x = 3, y = 3 " -- \
  timeout 30 "$sqz" life triangle:64 --steps 1 --init "$work/long.rle" --at 10,40
# the file's rule runs when --rule is not given (HighLife's birth on 6 gives 8 cells, Life 7)
printf 'x = 3, y = 3, rule = b36s23\n3o$obo$o!\n' > "$work/high.rle"
expect 0 "\"rule\":\"b36s23\",.*\"live\":8," -- "$sqz" life triangle:64 --steps 1 --init "$work/high.rle" --at 5,9 --json
expect 0 "rule 23/3" -- "$sqz" life triangle:64 --steps 1 --init "$work/high.rle" --at 5,9 --rule 23/3
expect 0 "\"rule\":\"B3S23\",.*\"live\":7," -- "$sqz" life triangle:64 --steps 1 --init "$work/high.rle" --at 5,9 --rule B3S23 --json
expect 0 "rule b3s23" -- "$sqz" life triangle:16 --steps 2 --rule b3s23
expect 2 "'B27' is ambiguous in 3D" -- "$sqz" life tetrahedron:8 --steps 1 --rule B27/S5
expect 2 "S/B form .* is for 2D" -- "$sqz" life tetrahedron:8 --steps 1 --rule 5/6
expect 0 "\"live\":" -- "$sqz" life tetrahedron:8 --steps 1 --rule B6/S5 --json
# Golly's Generations rules: the generic engine (the two-state word steps decline), bad state counts, not bits
expect 0 '"rule":"/2/3",.*"engine":"fractal-tiles-generic","skipped":"fractal-boxes-life-u8: the rule has 3 states \(Generations\)' -- \
  "$sqz" life fractal:sierpinski-carpet:3 --steps 3 --rule /2/3 --json
expect 0 "skipped  tetrahedron-rows-life-u8: the rule has 5 states" -- "$sqz" life tetrahedron:8 --steps 2 --rule B6/S5,6,7/C5
expect 2 "rule '/2/1': '1': a Generations rule has 2 to 256 states" -- "$sqz" life triangle:8 --steps 1 --rule /2/1
expect 2 "--out .*x\.pbm: rule /2/3 has 3 states, and PBM holds two; write \.npy, \.rle or \.h5" -- \
  "$sqz" life triangle:8 --steps 1 --rule /2/3 --out "$work/x.pbm"
expect 2 "--rule 345/2/4 has 4 states and --layout bits holds one bit a cell" -- \
  "$sqz" life fractal:sierpinski-carpet:3 --steps 1 --rule 345/2/4 --layout bits

# edm: packed lower triangle of float32 distances; bad input names the line and writes nothing
printf '# three points\n0 0\n3 4\n6 8\n' > "$work/pts.txt"
printf '0 0\n1 x\n' > "$work/badpts.txt"
expect 0 "3 points" -- "$sqz" edm --points "$work/pts.txt" --out "$work/d.f32" --map rb
[ "$(od -An -v -f "$work/d.f32" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')" = "0 5 0 10 5 0" ] ||
  { echo "FAIL: edm distances: $(od -An -v -f "$work/d.f32")"; fails=$((fails + 1)); }
expect 2 "badpts.txt:2" -- "$sqz" edm --points "$work/badpts.txt" --out "$work/bad.f32"
expect 2 "'ltm3' is a 3D map" -- "$sqz" edm --points "$work/pts.txt" --out "$work/bad.f32" --map ltm3
printf '0 0\n1 2\n3e38 3e38\n' > "$work/far.txt"
expect 2 "distance of points 0 and 2, .* exceeds the largest float" -- "$sqz" edm --points "$work/far.txt" --out "$work/bad.f32" --backend cpu
printf '0 0\n1e20 0\n1e-30 0\n' > "$work/scales.txt"
expect 0 "3 points" -- "$sqz" edm --points "$work/scales.txt" --out "$work/s.f32" --backend cpu
[ "$(od -An -v -tf4 "$work/s.f32" | tr -s ' \n' ' ')" = " 0 1e+20 0 1e-30 1e+20 0 " ] ||
  { echo "FAIL: edm at 1e20 and 1e-30: $(od -An -v -tf4 "$work/s.f32")"; fails=$((fails + 1)); }
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

# Outputs: a unique temporary beside each target (never a fixed name, never through a link), all of
# a command's outputs renamed together at the end or none at all, temporaries removed on SIGTERM.
mkdir -p "$work/out"
echo precious > "$work/out/victim"
for f in o.pbm o.png o.npy h.npy h.png d.f32; do ln -s victim "$work/out/$f.tmp"; done
expect 0 "live" -- "$sqz" life triangle:16 --steps 2 --backend cpu --out "$work/out/o.pbm" --png "$work/out/o.png"
expect 0 "live" -- "$sqz" life triangle:16 --steps 2 --backend cpu --out "$work/out/o.npy"
expect 0 "nonzero" -- "$sqz" heat triangle:16 --steps 2 --out "$work/out/h.npy" --png "$work/out/h.png"
expect 0 "3 points" -- "$sqz" edm --points "$work/pts.txt" --out "$work/out/d.f32"
printf 'precious\n' | cmp -s - "$work/out/victim" || { echo "FAIL: an output was written through a link at <out>.tmp"; fails=$((fails + 1)); }
[ "$(cd "$work/out" && echo *)" = "d.f32 d.f32.tmp h.npy h.npy.tmp h.png h.png.tmp o.npy o.npy.tmp o.pbm o.pbm.tmp o.png o.png.tmp victim" ] ||
  { echo "FAIL: outputs left: $(cd "$work/out" && echo *)"; fails=$((fails + 1)); }
# a --png that cannot be written fails the command, and the --out of the same run is not replaced
cp "$work/out/o.pbm" "$work/out/o.keep"; cp "$work/out/h.npy" "$work/out/h.keep"
expect 1 "nodir/o.png: cannot create a temporary" -- "$sqz" life triangle:16 --steps 5 --backend cpu --out "$work/out/o.pbm" --png "$work/out/nodir/o.png"
expect 1 "nodir/h.png: cannot create a temporary" -- "$sqz" heat triangle:16 --steps 5 --out "$work/out/h.npy" --png "$work/out/nodir/h.png"
expect 1 "is a directory" -- "$sqz" life triangle:16 --steps 5 --backend cpu --out "$work/out/o.pbm" --png "$work/out"
cmp -s "$work/out/o.pbm" "$work/out/o.keep" && cmp -s "$work/out/h.npy" "$work/out/h.keep" ||
  { echo "FAIL: a failed run replaced its --out"; fails=$((fails + 1)); }
[ "$(cd "$work/out" && ls | grep -c '\.[A-Za-z0-9]\{6\}$')" = 0 ] || { echo "FAIL: temporaries left: $(ls "$work/out")"; fails=$((fails + 1)); }
# SIGTERM while the outputs are written (PBM, then a PNG of 8192 x 8192): the command dies of the
# signal, leaving neither a temporary nor a half-committed output
mkdir -p "$work/sig"
"$sqz" life fractal:sierpinski-triangle:13 --steps 0 --backend cpu --out "$work/sig/s.pbm" --png "$work/sig/s.png" >/dev/null 2>&1 &
pid=$!
seen=0
for _ in $(seq 1 3000); do
  if ls "$work/sig" | grep -q '^s\.p[bn][mg]\.'; then seen=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$seen" != 1 ] || [ "$rc" != 143 ] || [ -n "$(ls "$work/sig")" ]; then
  echo "FAIL: SIGTERM during the outputs: temporary seen $seen, exit $rc, left: $(ls "$work/sig")"; fails=$((fails + 1))
else
  echo "ok: SIGTERM during the outputs leaves nothing"
fi

# Special files are written in place, never replaced by a rename (as root that turned /dev/null into a regular
# file): a character device, a FIFO (a background reader gets the contents), /dev/fd/N to a file or a pipe, a
# link to a FIFO (the link stays). Not atomic: a device or a FIFO takes the bytes as they come.
mkdir -p "$work/special" && cd "$work/special" || exit 1
"$sqz" life triangle:16 --steps 2 --backend cpu --out ref.pbm >/dev/null
"$sqz" edm --points "$work/pts.txt" --out ref.f32 --backend cpu >/dev/null
special_ok=1
if mknod null c 1 3 2>/dev/null; then
  expect 0 "live" -- "$sqz" life triangle:16 --steps 2 --backend cpu --out null --png "$work/special/null.png"
  [ -c null ] || { echo "FAIL: --out on a character device replaced it: $(ls -l null)"; fails=$((fails + 1)); special_ok=0; }
fi
mkfifo fifo && ln -s fifo fifo.link
for out in fifo fifo.link; do
  rm -f got.pbm
  timeout 60 cat fifo > got.pbm &
  reader=$!
  expect 0 "live" -- $t "$sqz" life triangle:16 --steps 2 --backend cpu --out "$out"
  [ -p fifo ] || kill "$reader" 2>/dev/null
  wait "$reader"
  [ -p fifo ] && [ -L fifo.link ] && cmp -s ref.pbm got.pbm ||
    { echo "FAIL: --out $out: $(ls -l fifo fifo.link), contents $(cmp ref.pbm got.pbm 2>&1)"; fails=$((fails + 1)); special_ok=0; }
done
timeout 60 cat fifo > got.f32 &
reader=$!
expect 0 "3 points" -- $t "$sqz" edm --points "$work/pts.txt" --out fifo --backend cpu
[ -p fifo ] || kill "$reader" 2>/dev/null
wait "$reader"
[ -p fifo ] && cmp -s ref.f32 got.f32 || { echo "FAIL: edm --out fifo"; fails=$((fails + 1)); special_ok=0; }
"$sqz" life triangle:16 --steps 2 --backend cpu --out /dev/fd/3 3>fd.pbm >/dev/null 2>&1 && cmp -s ref.pbm fd.pbm &&
  [ -z "$(ls | grep '\.[A-Za-z0-9]\{6\}$')" ] && echo "ok: --out /dev/fd/3 to a file" ||
  { echo "FAIL: --out /dev/fd/3 to a file"; fails=$((fails + 1)); }
{ "$sqz" life triangle:16 --steps 2 --backend cpu --out /dev/fd/3 3>&1 >/dev/null 2>&1; } | cat > pipe.pbm
cmp -s ref.pbm pipe.pbm && echo "ok: --out /dev/fd/3 to a pipe" || { echo "FAIL: --out /dev/fd/3 to a pipe"; fails=$((fails + 1)); }
# /dev/null itself, once the in-place writes above proved right (never on a build that would replace it)
if [ "$special_ok" = 1 ]; then
  expect 0 "live" -- "$sqz" life triangle:16 --steps 1 --backend cpu --out /dev/null
  [ -c /dev/null ] || { echo "FAIL: /dev/null is no longer a character device"; fails=$((fails + 1)); }
fi
cd "$work" || exit 1
# Output paths are checked before the first step, not found bad after the last: a missing folder fails at once
# (4e9 steps would run for hours) with the exit status and message of a failed write; two outputs on one file,
# however spelt, are exit 2 naming both
expect 1 "nodir/x.npy: cannot create a temporary file beside it: No such file or directory" -- \
  $t "$sqz" life triangle:64 --backend cpu --steps 4000000000 --out "$work/nodir/x.npy"
expect 1 "nodir/x.png: cannot create a temporary" -- $t "$sqz" heat triangle:64 --backend cpu --steps 4000000000 --png "$work/nodir/x.png" --json
expect 1 "nodir/x.npy: cannot create a temporary" -- $t "$sqz" run triangle:64 --steps 4000000000 --type u8 --kernel "$work/none.cl" --out "$work/nodir/x.npy"
expect 1 "is a directory" -- $t "$sqz" life triangle:64 --backend cpu --steps 4000000000 --png "$work"
mkdir -p "$work/same" && ln -sfn "$work/same" "$work/same.link"
expect 2 "--out x.npy and --png x.npy are one file" -- in_work $t "$sqz" life triangle:64 --backend cpu --steps 4000000000 --out x.npy --png x.npy
expect 2 "--out same/x.npy and --png ./same/../same.link/x.npy are one file" -- \
  in_work $t "$sqz" heat triangle:64 --backend cpu --steps 4000000000 --out same/x.npy --png ./same/../same.link/x.npy
[ -z "$(ls "$work/same")" ] && [ ! -e "$work/x.npy" ] || { echo "FAIL: files left by refused outputs: $(ls "$work/same")"; fails=$((fails + 1)); }
expect 0 "live" -- in_work "$sqz" life triangle:8 --backend cpu --steps 1 --out same/x.npy --png same.link/x.png

# Host memory: images are streamed row by row (a level-15 fractal, 1 GiB as a bounding-box image,
# is written within 600 MB of address space); a state that cannot fit is refused with the bytes
# needed and available (exit 1), never killed.
memlimit() { local kb="$1"; shift; (ulimit -v "$kb" && exec "$@"); }
expect 0 "live" -- memlimit 600000 "$sqz" life fractal:sierpinski-triangle:15 --steps 1 --backend cpu --out "$work/f15.pbm"
[ "$(wc -c < "$work/f15.pbm")" = $((15 + 32768 * 4096)) ] || { echo "FAIL: level-15 PBM size"; fails=$((fails + 1)); }
rm -f "$work/f15.pbm"
expect 1 "needs [0-9]+ bytes of host memory, [0-9]+ available" -- memlimit 1000000 "$sqz" life triangle:200000 --backend cpu --steps 1
expect 1 "needs [0-9]+ bytes of host memory, [0-9]+ available" -- memlimit 1000000 "$sqz" life fractal:sierpinski-carpet:10 --backend cpu --steps 1 --layout bb
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
expect 2 "value 2 '?\(?'nan'\)? is not a finite number" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/cyclic.cl" --param 1,nan
expect 2 "value 1 '?\(?'x'\)? is not a number" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/cyclic.cl" --param x
expect 2 "--type 'f16'" -- "$sqz" run triangle:8 --steps 1 --type f16 --kernel "$work/cyclic.cl"
expect 2 "missing.cl" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/missing.cl"
expect 2 "'\|u1' \(uint8\) but the field holds f32 cells \(dtype '<f4'\)" -- "$sqz" run triangle:3 --steps 1 --type f32 \
  --kernel "$work/cyclic.cl" --param 4 --init "$work/tri3.npy" --out "$work/run.npy"
expect 1 "broken.cl:5" -- "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/broken.cl" --param 4 --out "$work/run.npy"
# a kernel source is at most 16 MiB: a link to /dev/zero is refused at the limit, quickly
ln -s /dev/zero "$work/zero.cl"
expect 2 "zero\.cl: larger than 16777216 bytes \(16 MiB\), the limit for a kernel source" -- \
  timeout 30 "$sqz" run triangle:8 --steps 1 --type i32 --kernel "$work/zero.cl" --out "$work/zero.npy"
[ -e "$work/zero.npy" ] && { echo "FAIL: a file was written after a refused --kernel"; fails=$((fails + 1)); }
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
# heat that overflows from a finite state is an overflow naming the step, not "non-finite input" (exit 2 before);
# finite values whose sum passes the range are no failure (the sums null; exit 2 before)
expect 1 "overflow at step 1 of 5: a value became infinite or NaN from a finite state \(--init point:3,1:1.7e308; f64" -- \
  "$sqz" heat triangle:8 --steps 5 --init point:3,1:1.7e308 --out "$work/heat.npy"
expect 1 "overflow at step 1 of 3: .*f32 holds magnitudes up to 3.40282e\+38" -- \
  "$sqz" heat triangle:8 --steps 3 --type f32 --init point:3,1:3e38 --backend cpu --out "$work/heat.npy"
[ -e "$work/heat.npy" ] && { echo "FAIL: sqz heat wrote a file after an overflow"; fails=$((fails + 1)); }
expect 0 '"sum_initial":null,"sum_final":null' -- "$sqz" heat triangle:8 --steps 5 --init const:1e308 --json

# JSON fields of the contract
expect 0 "\"domain\":\"triangle:64\".*\"cells\":2080.*\"steps\":3.*\"live\":[0-9]+.*\"kernel_s\".*\"wall_s\".*\"cells_per_s\".*\"bytes\".*\"device\"" \
  -- "$sqz" life triangle:64 --steps 3 --json

# JSON carries the version, the resolved map and the seed
expect 0 "\"version\":\"[0-9.]+\".*\"map\":\"had\".*\"seed\":7" -- "$sqz" life triangle:64 --steps 1 --map had --init random:0.5:7 --json
expect 0 "\"map\":\"(had|rb|ltm|rec|bb|had-above|had-below)\"" -- "$sqz" life triangle:64 --steps 1 --json

# checkpoints: K steps equal J steps, an .h5 checkpoint, and K - J more (life keeps its rule)
if "$sqz" life triangle:8 --steps 0 --out "$work/probe.h5" >/dev/null 2>&1; then
  "$sqz" life fractal:sierpinski-carpet:4 --steps 9 --rule B36/S23 --out "$work/l9.pbm" >/dev/null &&
    "$sqz" life fractal:sierpinski-carpet:4 --steps 5 --rule B36/S23 --out "$work/l5.h5" >/dev/null &&
    "$sqz" life fractal:sierpinski-carpet:4 --steps 4 --init "$work/l5.h5" --layout bb --out "$work/l54.pbm" >/dev/null &&
    cmp -s "$work/l9.pbm" "$work/l54.pbm" && echo "ok: life resumed from a checkpoint" ||
    { echo "FAIL: life resumed from a checkpoint differs"; fails=$((fails + 1)); }
  "$sqz" heat tetrahedron:9 --steps 10 --backend cpu --out "$work/h10.npy" >/dev/null &&
    "$sqz" heat tetrahedron:9 --steps 3 --backend cpu --out "$work/h3.h5" >/dev/null &&
    "$sqz" heat tetrahedron:9 --steps 7 --backend cpu --init "$work/h3.h5" --out "$work/h37.npy" >/dev/null &&
    cmp -s "$work/h10.npy" "$work/h37.npy" && echo "ok: heat resumed from a checkpoint" ||
    { echo "FAIL: heat resumed from a checkpoint differs"; fails=$((fails + 1)); }
  expect 2 "holds fractal:sierpinski-carpet:4, but the field is on fractal:sierpinski-carpet:3" -- \
    "$sqz" life fractal:sierpinski-carpet:3 --steps 1 --init "$work/l5.h5"
  expect 2 "holds u8 cells, but the field holds f64" -- "$sqz" heat fractal:sierpinski-carpet:4 --steps 1 --init "$work/l5.h5"
  # a u8 checkpoint of sqz run may hold any byte: Life refuses a 2 as it does in an .npy
  printf 'sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n' > "$work/same.cl"
  printf '                      __constant const sqz_param_t *param) { return self; }\n' >> "$work/same.cl"
  "$sqz" run triangle:3 --kernel "$work/same.cl" --type u8 --steps 0 --init "$work/two.npy" --out "$work/two.h5" >/dev/null
  for layout in compact bits; do
    expect 2 "two\.h5: triangle:3: cell 4 \(x 1, y 1\) holds 2; Life cells are 0 or 1" -- \
      "$sqz" life triangle:3 --steps 1 --init "$work/two.h5" --layout $layout
  done
fi
expect 2 "expected a .npy state or an .h5 checkpoint" -- "$sqz" heat triangle:9 --steps 1 --out "$work/x.pbm"

# frames for an animation, downscaled pictures, no progress bar when asked
mkdir -p "$work/frames"
expect 0 "live" -- "$sqz" life fractal:sierpinski-carpet:4 --steps 6 --frames "$work/frames" --every 3 --png-size 30 --quiet
[ "$(ls "$work/frames" | tr '\n' ' ')" = "frame_00000000.png frame_00000003.png frame_00000006.png " ] ||
  { echo "FAIL: frames written: $(ls "$work/frames")"; fails=$((fails + 1)); }
od -An -tx1 -j16 -N8 "$work/frames/frame_00000006.png" | tr -d ' \n' | grep -q '0000001b0000001b' ||
  { echo "FAIL: --png-size 30 on side 81 is not 27 x 27"; fails=$((fails + 1)); }
expect 2 "needs --every" -- "$sqz" life triangle:9 --steps 1 --frames "$work/frames"
expect 2 "not a directory|No such file" -- "$sqz" heat triangle:9 --steps 1 --frames "$work/nodir/sub" --every 1
expect 2 "--png-size applies" -- "$sqz" life triangle:9 --steps 1 --png-size 10

# the progress bar on a terminal (script gives sqz a pty; timeout stops the run after SECONDS): it
# counts the whole run, not the --every chunk; --quiet shows none. The bar shows once the run has lasted a
# second (the first frame's write and fsync included): 1.0 to 1.3 s after start on the 2-core machine, idle or
# busy. Stopped at 1.5 s, that left 0.2 s for a slow start or a stalled fsync; 5 s leave room for both
if command -v script >/dev/null && command -v timeout >/dev/null; then
  bar() { # bar SECONDS [ARGS]
    local s="$1"
    shift
    OMP_NUM_THREADS=1 script -qec "timeout $s '$sqz' life triangle:64 --backend cpu --steps 4000000000 --frames '$work/frames' --every 1000000000 $*" /dev/null 2>&1 | tr '\r' '\n'
  }
  bar 5 | grep -Eq "^life \[#* *\] +[0-9]+% [0-9]+/4000000000 steps, [0-9.e+]+ cells/s, ETA [0-9]+ s" ||
    { echo "FAIL: no progress bar on a terminal: $(bar 5 | tail -2)"; fails=$((fails + 1)); }
  bar 1.5 --quiet | grep -q "ETA" && { echo "FAIL: --quiet showed a progress bar"; fails=$((fails + 1)); }
fi

# bench without the copy-bandwidth run; the default rule of 3D is B6/S5,6,7
expect 0 "\"copy_bandwidth_bytes_per_s\":0," -- "$sqz" bench fractal --domain fractal:sierpinski-triangle:5 --steps 1 --no-copy-test --json
expect 0 "\"rule\":\"B6/S5,6,7\"" -- "$sqz" life tetrahedron:6 --steps 1 --json

# fields in parts (--parts, --devices, the automatic split under SQZ_MAX_ALLOC): the same final state as
# one buffer, on both backends; bad counts name the largest valid one
for args in "fractal:sierpinski-triangle:7 --layout block:4" "fractal:sierpinski-carpet:3" "triangle:40" "tetrahedron:9" \
  "triangle:40 --layout bb" "triangle:40 --layout bits"; do
  for be in opencl cpu; do
    "$sqz" life $args --backend $be --steps 7 --out "$work/p1.pbm" >/dev/null &&
      "$sqz" life $args --backend $be --steps 7 --parts 5 --out "$work/p5.pbm" >/dev/null &&
      cmp -s "$work/p1.pbm" "$work/p5.pbm" && echo "ok: life $args on $be in 5 parts" ||
      { echo "FAIL: life $args on $be in 5 parts differs"; fails=$((fails + 1)); }
  done
done
# the cpu backend's Life on 2 and 3 OpenMP threads (domains of 2^15 cells and more run in parallel):
# the state of one thread
for args in "fractal:sierpinski-triangle:10" "fractal:sierpinski-carpet:5" "fractal:sierpinski-triangle:10 --layout bb"; do
  rm -f "$work"/t[123].pbm
  for t in 1 2 3; do OMP_NUM_THREADS=$t "$sqz" life $args --backend cpu --steps 9 --out "$work/t$t.pbm" >/dev/null; done
  cmp -s "$work/t1.pbm" "$work/t2.pbm" && cmp -s "$work/t1.pbm" "$work/t3.pbm" && echo "ok: life $args on 1, 2, 3 threads" ||
    { echo "FAIL: life $args differs between 1, 2 and 3 OpenMP threads"; fails=$((fails + 1)); }
done
"$sqz" heat fractal:sierpinski-carpet:3 --steps 9 --type f32 --out "$work/h1.npy" >/dev/null &&
  "$sqz" heat fractal:sierpinski-carpet:3 --steps 9 --type f32 --parts 3 --devices 0,0 --out "$work/h3.npy" >/dev/null &&
  cmp -s "$work/h1.npy" "$work/h3.npy" && echo "ok: heat in 3 parts on two contexts" ||
  { echo "FAIL: heat in 3 parts on two contexts differs"; fails=$((fails + 1)); }
SQZ_DEVICE=0:0,0:0 "$sqz" life fractal:sierpinski-triangle:7 --steps 5 --out "$work/d2.pbm" >/dev/null &&
  "$sqz" life fractal:sierpinski-triangle:7 --steps 5 --out "$work/d1.pbm" >/dev/null &&
  cmp -s "$work/d1.pbm" "$work/d2.pbm" && echo "ok: SQZ_DEVICE=0:0,0:0" ||
  { echo "FAIL: SQZ_DEVICE=0:0,0:0 differs"; fails=$((fails + 1)); }
expect 0 '"parts":2,"halo_bytes_per_step":[1-9][0-9]*,"devices":2' -- "$sqz" life triangle:30 --steps 2 --devices 0,0 --json
SQZ_MAX_ALLOC=700 expect 0 '"parts":([2-9]|[1-9][0-9]+),' -- "$sqz" life fractal:sierpinski-triangle:7 --steps 2 --json
expect 0 '"parts":1,"halo_bytes_per_step":0,' -- "$sqz" life fractal:sierpinski-triangle:7 --steps 2 --json
# SQZ_MAX_ALLOC takes units (K, M, G, T: powers of 1024; B or iB may follow, any case): 2G was read as 2 bytes
SQZ_MAX_ALLOC=2G expect 0 '"parts":1,' -- "$sqz" life fractal:sierpinski-triangle:7 --steps 2 --json
SQZ_MAX_ALLOC=1kib expect 0 '"parts":([3-9]|[1-9][0-9]+),' -- "$sqz" life fractal:sierpinski-triangle:7 --steps 2 --json --backend cpu
SQZ_MAX_ALLOC=0.5G expect 2 "SQZ_MAX_ALLOC='0.5G': expected bytes with an optional unit K, M, G or T" -- "$sqz" life triangle:9 --steps 1
SQZ_MAX_ALLOC=2Gi expect 2 "SQZ_MAX_ALLOC='2Gi'" -- "$sqz" heat triangle:9 --steps 1 --backend cpu
SQZ_MAX_ALLOC=16777216T expect 2 "SQZ_MAX_ALLOC='16777216T'" -- "$sqz" life triangle:9 --steps 1 --backend cpu
expect 2 "82 parts of fractal:sierpinski-triangle:4 in layout compact: the count must be 1 \.\. 81" -- \
  "$sqz" life fractal:sierpinski-triangle:4 --steps 1 --parts 82
expect 2 "10 parts .* block:4: the count must be 1 \.\. 9 \(the largest valid count: one tile per part\)" -- \
  "$sqz" life fractal:sierpinski-triangle:4 --layout block:4 --steps 1 --parts 10
expect 2 "--parts 0 is outside" -- "$sqz" heat triangle:9 --steps 1 --parts 0
expect 2 "10 parts .* layout bits: the count must be 1 \.\. 9 \(the largest valid count: one row per part\)" -- \
  "$sqz" life triangle:9 --layout bits --steps 1 --parts 10
expect 2 "10 parts .* layout bb: the count must be 1 \.\. 9 \(the largest valid count: one row per part\)" -- \
  "$sqz" life triangle:9 --layout bb --steps 1 --parts 10
expect 2 "give one of them" -- "$sqz" life triangle:9 --steps 1 --device 0:0 --devices 0:0,0:0
# a number in a device list is the backend's Nth device: one past them is exit 2 naming it, never a match of its
# digits in a device name (SQZ_DEVICE=0,1 on one PoCL device found "1" in "avx512": two contexts on one device)
expect 2 "device 99: the opencl backend has [0-9]+ devices? in 'sqz devices'" -- "$sqz" life triangle:9 --steps 1 --devices 0,99
expect 2 "device 1: the cpu backend has 1 device in" -- "$sqz" life triangle:9 --steps 1 --backend cpu --devices 0,1
expect 2 "sqz heat: device 99: the opencl backend has" -- env SQZ_DEVICE=99,0 "$sqz" heat triangle:9 --steps 1
# one device too: --device N and SQZ_DEVICE=N are the backend's Nth device (they once matched the digits in a name,
# and the cpu backend ignored them), names only when the value is not a number
expect 2 "device 1: the cpu backend has 1 device in 'sqz devices'" -- "$sqz" life triangle:9 --steps 1 --backend cpu --device 1
expect 2 "sqz heat: device 1: the cpu backend has 1 device" -- env SQZ_DEVICE=1 "$sqz" heat triangle:9 --steps 1 --backend cpu
expect 2 "sqz info: device 99: the opencl backend has [0-9]+ devices? in 'sqz devices'" -- "$sqz" info triangle:9 --device 99
expect 2 "sqz life: device 99: the opencl backend has" -- env SQZ_DEVICE=99 "$sqz" life triangle:9 --steps 1
expect 0 "\"live\":" -- "$sqz" life triangle:9 --steps 1 --device 0 --json
expect 0 "\"live\":" -- env SQZ_DEVICE=0 "$sqz" life triangle:9 --steps 1 --backend cpu --json

# A FIFO at a kernel cache file's name is skipped (opened without blocking, not a regular file) and replaced by the
# rebuilt program: sqz once blocked on it for ever
mkdir -p "$work/fifocache"
SQZ_CACHE_DIR="$work/fifocache" "$sqz" life triangle:16 --steps 1 --backend opencl >/dev/null
for f in "$work/fifocache"/*.bin; do [ -f "$f" ] && rm "$f" && mkfifo "$f"; done
if ls "$work/fifocache" | grep -q '\.bin$'; then
  SQZ_CACHE_DIR="$work/fifocache" expect 0 "live" -- $t "$sqz" life triangle:16 --steps 1 --backend opencl
  [ -z "$(find "$work/fifocache" -type p)" ] || { echo "FAIL: a FIFO left in the cache"; fails=$((fails + 1)); }
fi

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
