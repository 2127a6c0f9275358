#!/usr/bin/env bash
# golly.sh — the CLI's Golly patterns (.cells and RLE, multi-state RLE of Generations rules, --clip) and pictures (--png-size up and down, state colours,
# viridis and its range, --frames creating DIR) on the cpu backend; PNGs decoded with Python's zlib and struct.
# usage: golly.sh path/to/sqz
set -u
sqz="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0
here="$(cd "$(dirname "$0")" && pwd)"
export PROBE="$here/png_probe.py"
. "$here/expect.sh"
cd "$work" || exit 1
life() { "$sqz" life --backend cpu --quiet "$@"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# ---- .cells: the glider runs as the RLE one; write -> read -------------------------------------------------
printf '!Name: Glider\n.O\n..O\nOOO\n' > glider.cells
printf '#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n' > glider.rle
life triangle:64 --init glider.cells --at 10,40 --steps 4 --out a.rle >/dev/null &&
  life triangle:64 --init glider.rle --at 10,40 --steps 4 --out b.rle >/dev/null && cmp -s a.rle b.rle &&
  ok ".cells glider after 4 steps equals the RLE one" || fail ".cells and RLE gliders differ: $(cat a.rle b.rle)"
life triangle:64 --init glider.rle --at 10,40 --steps 4 --out g.cells >/dev/null
printf '!Name: g\n!Pos: 11,41\n.O\n..O\nOOO\n' | cmp -s - g.cells && ok ".cells written" || fail ".cells written: $(cat g.cells)"
life triangle:64 --init g.cells --steps 0 --out c.rle >/dev/null && cmp -s a.rle c.rle &&
  ok ".cells read back" || fail ".cells read back: $(cat c.rle)"
life fractal:sierpinski-carpet:3 --init random:0.3:5 --steps 0 --out r.cells --json >/dev/null &&
  life fractal:sierpinski-carpet:3 --init r.cells --steps 0 --out r2.cells >/dev/null &&
  life fractal:sierpinski-carpet:3 --init random:0.3:5 --steps 0 --out r.pbm >/dev/null &&
  life fractal:sierpinski-carpet:3 --init r2.cells --steps 0 --out r2.pbm >/dev/null && cmp -s r.pbm r2.pbm &&
  ok "random state through .cells twice" || fail "random state through .cells differs"
expect 2 "--at 1,1 places an .rle or .cells --init pattern" -- life triangle:64 --steps 1 --init r.pbm --at 1,1
expect 2 "\.cells patterns are 2D and tetrahedron:8 is 3D" -- life tetrahedron:8 --steps 1 --out bad.cells
printf '.O\n.x\n' > bad.cells
expect 2 "bad.cells: line 2, column 2: unexpected 'x'" -- life triangle:64 --steps 1 --init bad.cells

# ---- --clip: Golly's Gosper glider gun (public-domain pattern data) on the Sierpinski triangle ---------------
cat > gun.rle <<'RLE'
#N Gosper glider gun
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!
RLE
dom=fractal:sierpinski-triangle:7
life $dom --init random:1:1 --steps 0 --out domain.pbm >/dev/null
# the independent count: the gun's cells on holes, by the rule (x & ~y) != 0 (pattern #./##, origin top-left,
# y down), which is first checked against the domain's own cells (every cell alive in domain.pbm)
want=$(python3 - <<'PY'
import re
data = open("domain.pbm", "rb").read()
head = data.split(b"\n", 2)
w, h = map(int, head[1].split())
bits = head[2]
row = (w + 7) // 8
for y in range(h):
    for x in range(w):
        inside = bits[y * row + x // 8] >> (7 - x % 8) & 1
        assert inside == ((x & ~y) == 0), (x, y)
rows = "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o".split("$")
cells = []
for y, r in enumerate(rows):
    x = 0
    for n, t in re.findall(r"(\d*)([bo])", r):
        n = int(n or 1)
        if t == "o":
            cells += [(x + i, y) for i in range(n)]
        x += n
print(sum(1 for x, y in cells if x & ~y))
PY
)
[ -n "$want" ] && [ "$want" -gt 0 ] && ok "independent count: $want of 36 cells on holes" || fail "no independent count"
expect 2 "gun.rle: live cell \(24, 0\) of the pattern lands on cell \(24, 0\), a hole" -- life $dom --steps 1 --init gun.rle
expect 0 "\"init\":\"gun.rle\",\"clipped\":$want," -- life $dom --steps 30 --init gun.rle --clip --json
out=$("$sqz" life $dom --backend cpu --steps 30 --init gun.rle --clip 2>&1 >/dev/null)
[ "$out" = "sqz life: gun.rle: $want live cells clipped (outside $dom or on its holes)" ] &&
  ok "--clip reports on stderr" || fail "--clip stderr: $out"
expect 2 "gun.rle: nothing is left after clipping: all 36 live cells land outside triangle:64" -- \
  life triangle:64 --steps 1 --init gun.rle --clip --at 60,0
expect 2 "--clip places a pattern or image --init" -- life triangle:64 --steps 1 --clip

# ---- multi-state RLE (Generations rules): Golly's tags '.', A..X, pA..yO; the file's rule runs -----------------
printf '#N Brian test\nx = 4, y = 3, rule = /2/3\n.AB$2A$bB.A!\n' > bb.rle
life triangle:64 --init bb.rle --at 10,40 --steps 0 --out a.rle >/dev/null
[ "$(cat a.rle)" = "$(printf '#CXRLE Pos=10,40\nx = 4, y = 3, rule = B2/S/C3\n.AB$2A$.B.A!')" ] &&
  ok "a Brian's Brain pattern read and written as Golly does" || fail "multi-state RLE: $(cat a.rle)"
life triangle:64 --init bb.rle --at 10,40 --steps 3 --out b.rle >/dev/null &&
  life triangle:64 --init bb.rle --at 10,40 --steps 3 --rule B2/S/C3 --out c.rle >/dev/null && cmp -s b.rle c.rle &&
  grep -qx '.B$ABA!' b.rle && ok "the header's Generations rule runs (3 steps as with --rule B2/S/C3)" ||
  fail "the file's rule: $(cat b.rle c.rle)"
printf 'x = 3, y = 1, rule = /2/256\nApAyO!\n' > hi.rle
life triangle:64 --init hi.rle --at 10,40 --steps 0 --out hi2.rle >/dev/null &&
  [ "$(sed -n 2,3p hi2.rle)" = "$(printf 'x = 3, y = 1, rule = B2/S/C256\nApAyO!')" ] &&
  ok "states 1, 25 and 255 as A, pA, yO" || fail "two-letter states: $(cat hi2.rle)"
for rule in 345/2/4 /2/3; do # write -> read: the same state as .npy
  life fractal:sierpinski-carpet:4 --rule $rule --init random:0.4:5 --steps 7 --out s.rle >/dev/null &&
    life fractal:sierpinski-carpet:4 --rule $rule --init random:0.4:5 --steps 7 --out s.npy >/dev/null &&
    life fractal:sierpinski-carpet:4 --init s.rle --steps 0 --out t.npy >/dev/null && cmp -s s.npy t.npy &&
    grep -q '[B-C]' s.rle && ok "$rule: a carpet's states round-trip through RLE" || fail "$rule round trip: $(cat s.rle)"
done
expect 2 "hi.rle: triangle:64: cell 2571 \(x 11, y 40\) holds 25; the cells of rule '/2/3' are 0 to 2" -- \
  life triangle:64 --init hi.rle --at 10,40 --rule /2/3 --steps 1
expect 2 "rule /2/3 of bb.rle has 3 states and --layout bits holds one bit a cell" -- \
  life triangle:64 --init bb.rle --at 10,40 --layout bits --steps 1
printf 'x = 1, y = 1\nyP!\n' > big.rle
expect 2 "big.rle: line 2, column 1: state yP is 256, above 255" -- life triangle:64 --init big.rle --steps 0

# ---- pictures -----------------------------------------------------------------------------------------------
probe() { python3 "$here/png_probe.py" "$@"; }
hole="170 195 225" live="20 20 30" dead="250 250 245"
# up by whole pixels: side 8 at --png-size 20 is 2 pixels a cell (16 x 16), at 24 exactly 3 (24 x 24)
life triangle:8 --init random:1:1 --steps 0 --png up.png --png-size 20 >/dev/null
[ "$(probe up.png 1,1 2,0 3,3 15,14)" = "$(printf 'size 16 16\n1,1 %s\n2,0 %s\n3,3 %s\n15,14 %s' "$live" "$hole" "$live" "$live")" ] &&
  ok "--png-size 20 on side 8: 16 x 16" || fail "--png-size 20 on side 8: $(probe up.png 1,1 2,0 3,3 15,14)"
life triangle:8 --init random:1:1 --steps 0 --png up3.png --png-size 24 >/dev/null
probe up3.png | grep -qx "size 24 24" && ok "--png-size 24 on side 8: 24 x 24" || fail "--png-size 24: $(probe up3.png)"
life fractal:sierpinski-carpet:4 --steps 0 --png down.png --png-size 30 >/dev/null
probe down.png | grep -qx "size 27 27" && ok "--png-size 30 on side 81: 27 x 27" || fail "--png-size 30: $(probe down.png)"
# --frames DIR is made when missing (one level)
life triangle:8 --steps 2 --frames new --every 1 >/dev/null && [ "$(ls new | tr '\n' ' ')" = \
  "frame_00000000.png frame_00000001.png frame_00000002.png " ] && ok "--frames made its folder" || fail "--frames new"
expect 2 "--frames no/such: No such file" -- life triangle:8 --steps 1 --frames no/such --every 1
# a colour per state of u8 fields: 0 dead, 1 live, 2 and up a fixed palette (states (x + y) % 6; OpenCL: sqz run)
python3 - <<'PY'
import struct
hdr = "{'descr': '|u1', 'fortran_order': False, 'shape': (8, 8), }"
hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
cells = bytes((x + y) % 6 if x <= y else 0 for y in range(8) for x in range(8))
open("states.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + cells)
PY
printf 'sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,\n  __constant const sqz_param_t *param) { return self; }\n' > id.cl
"$sqz" run triangle:8 --kernel id.cl --type u8 --steps 0 --init states.npy --png states.png --quiet >/dev/null
[ "$(probe states.png 0,0 0,1 1,1 1,2 2,2 3,3 1,0)" = "$(printf 'size 8 8\n0,0 %s\n0,1 %s\n1,1 230 60 50\n1,2 245 160 30\n2,2 60 170 70\n3,3 %s\n1,0 %s' \
  "$dead" "$live" "$dead" "$hole")" ] && ok "a colour per u8 state" || fail "u8 states: $(probe states.png 0,0 0,1 1,1 1,2 2,2 3,3 1,0)"
# floats through viridis from the smallest to the largest domain value: the range in --json and in tEXt sqz:range,
# the coldest cell viridis[0], the hottest viridis[255], holes apart
json=$("$sqz" heat fractal:sierpinski-carpet:2 --backend cpu --steps 3 --type f32 --png heat.png --out heat.npy --json)
python3 - "$json" <<'PY' && ok "viridis over the range, recorded in tEXt and --json" || fail "heat picture: $json"
import json, os, struct, subprocess, sys
j = json.loads(sys.argv[1])
data = open("heat.npy", "rb").read()
n = struct.unpack("<H", data[8:10])[0]
v = struct.unpack("<81f", data[10 + n:])
inside = lambda x, y: not ((x % 3 == 1 and y % 3 == 1) or (x // 3 == 1 and y // 3 == 1))
cells = {(x, y): v[y * 9 + x] for y in range(9) for x in range(9) if inside(x, y)}
lo, hi = min(cells, key=cells.get), max(cells, key=cells.get)
assert abs(j["png_min"] - cells[lo]) <= 1e-7 and abs(j["png_max"] - cells[hi]) <= 1e-7, (j, cells[lo], cells[hi])
probe = [sys.executable, os.environ["PROBE"], "heat.png", "%d,%d" % lo, "%d,%d" % hi, "4,4"]
lines = subprocess.run(probe, capture_output=True, text=True).stdout.split("\n")
assert lines[0] == "size 9 9", lines
text = [l for l in lines if l.startswith("text sqz:range ")]
assert len(text) == 1 and list(map(float, text[0].split()[2:])) == [j["png_min"], j["png_max"]], lines
assert lines[-4:-1] == ["%d,%d 68 1 84" % lo, "%d,%d 253 231 37" % hi, "4,4 170 195 225"], lines
PY

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
