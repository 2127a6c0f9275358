#!/usr/bin/env bash
# golly.sh — the CLI's Golly patterns (.cells and RLE, --clip) and pictures (--png-size up and down, state colours,
# viridis and its range, --frames creating DIR) on the cpu backend; PNGs decoded with Python's zlib and struct.
# usage: golly.sh path/to/sqz
set -u
sqz="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0
. "$(dirname "$0")/expect.sh"
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

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
