#!/usr/bin/env bash
# bench.sh — runs `sqz bench` at small sizes (every map and layout) and checks the JSON: all
# methods present, timed, and agreeing on the result. usage: bench.sh path/to/sqz
set -u
sqz="$1"
fails=0
errf=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$errf" "$work"' EXIT
. "$(dirname "$0")/expect.sh"
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
# --workload heat|kernel FILE.cl, --type T and --parts P: a row per layout (and map) and part count, each naming
# the engine path that ran; parts rows beside their one-buffer row with the speed ratio; every row the same result.
cat > "$work/life.cl" <<'CL'
/* Life as a user update, any cell type: born with param[0] live neighbours, survives with 2 or 3 */
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,
                      __constant const sqz_param_t *param) {
  int live = 0;
  for (int i = 0; i < SQZ_NB; i++) live += ((present >> i) & 1u) && nb[i] != 0;
  return (live == (int)param[0] || (self != 0 && (live == 2 || live == 3))) ? 1 : 0;
}
CL
sed 's/live == 2 ||/live == 2 |||/' "$work/life.cl" > "$work/broken.cl" # line 6 no longer parses
# rows(d, key, want): the rows, each with an engine; want: {(layout, parts)} they must cover exactly
parts_ok='
def rows_ok(rows, name, want):
    assert all(r["status"]=="ok" and r["engine"] and "skipped" in r for r in rows), rows
    assert {(name(r), r["parts"]) for r in rows}==want, [(name(r), r["parts"]) for r in rows]
    assert all((r["parts"]>1)==("vs_one_buffer" in r) and r.get("vs_one_buffer",1)>0 for r in rows), rows
'
check "fractal heat f32, parts 2, floor at 8 bytes a cell" "$parts_ok
ls=d['layouts']; rows_ok(ls, lambda r: r['layout'], {(l,p) for l in ('compact','bb') for p in (1,2)})
assert d['workload']=='heat' and d['type']=='f32' and d['bytes_per_cell']==8 and 'rule' not in d, d
assert len({l['live'] for l in ls})==1
bw=d['copy_bandwidth_bytes_per_s']; assert bw>0
assert all(abs(l['floor_share']-8*d['cells']*d['steps']/bw/l['kernel_s'])<=1e-9*l['floor_share'] for l in ls), ls" -- \
  "$sqz" bench fractal --domain fractal:sierpinski-carpet:3 --workload heat --type f32 --parts 2 --layouts compact,bb --steps 2 --json
check "fractal kernel i32, parts 2,3" "$parts_ok
ls=d['layouts']; rows_ok(ls, lambda r: r['layout'], {(l,p) for l in ('compact','lambda') for p in (1,2,3)})
assert d['workload']=='kernel' and d['type']=='i32' and d['param']=='3' and d['bytes_per_cell']==8, d
assert len({l['live'] for l in ls})==1" -- \
  "$sqz" bench fractal --domain fractal:sierpinski-carpet:3 --workload kernel "$work/life.cl" --type i32 --param 3 \
  --parts 2,3 --layouts compact,lambda --steps 2 --no-copy-test --json
check "fractal life u8, parts 2 (the default workload)" "$parts_ok
ls=d['layouts']; rows_ok(ls, lambda r: r['layout'], {(l,p) for l in ('compact','bits') for p in (1,2)})
assert d['workload']=='life' and d['type']=='u8' and d['rule']=='B2/S23' and len({l['live'] for l in ls})==1" -- \
  "$sqz" bench fractal --domain fractal:sierpinski-triangle:9 --parts 2 --layouts compact,bits --steps 2 --no-copy-test --json
check "simplex heat f64 3D, parts 2" "$parts_ok
rs=d['rows']; rows_ok(rs, lambda r: r['layout']+'/'+r['map'], {(l+'/'+m,p) for l in ('compact','bb') for m in ('bb','had3') for p in (1,2)})
assert d['workload']=='heat' and d['type']=='f64' and d['bytes_per_cell']==16 and all(r['agree'] for r in rs), d" -- \
  "$sqz" bench simplex --domain tetrahedron:12 --workload heat --maps bb,had3 --parts 2 --steps 2 --no-copy-test --json
check "simplex kernel u8 and life, parts 2 and 3 repeated" "$parts_ok
rs=d['rows']; rows_ok(rs, lambda r: r['layout']+'/'+r['map'], {('compact/rec',p) for p in (1,2,3)})
assert d['type']=='u8' and d['bytes_per_cell']==2 and all(r['agree'] for r in rs), d" -- \
  "$sqz" bench simplex --domain triangle:40 --workload kernel "$work/life.cl" --type u8 --param 3 --maps rec \
  --layouts compact --parts 2 --parts 3 --steps 2 --no-copy-test --json
# bad input: exit 2 naming the value; a kernel that does not build: exit 1 naming FILE.cl:LINE
fr=("$sqz" bench fractal --domain fractal:sierpinski-carpet:3 --layouts compact --steps 1 --no-copy-test)
sx=("$sqz" bench simplex --domain triangle:20 --maps bb --layouts compact --steps 1 --no-copy-test)
expect 2 "unknown workload 'nope'" -- "${fr[@]}" --workload nope
expect 2 "unknown workload 'nope' \(expected life, heat, kernel FILE.cl, edm, map, accumulate\)" -- "${sx[@]}" --workload nope
expect 2 "--type f32: the life workload takes u8" -- "${fr[@]}" --type f32
expect 2 "--type u8: the heat workload takes f32 or f64" -- "${sx[@]}" --workload heat --type u8
expect 2 "--type i32: the heat workload takes f32 or f64" -- "${fr[@]}" --workload heat --type i32
expect 2 "--type f32: the map workload takes u8" -- "${sx[@]}" --workload map --type f32
expect 2 "--workload kernel needs FILE.cl" -- "${fr[@]}" --workload kernel
expect 2 "missing.cl: No such file" -- "${sx[@]}" --workload kernel "$work/missing.cl" --type u8
expect 2 "life.cl needs --type" -- "${fr[@]}" --workload kernel "$work/life.cl"
expect 2 "--parts '0': 0: each count must be 2 or more" -- "${fr[@]}" --parts 0
expect 2 "--parts '2,1': 1: each count must be 2 or more" -- "${sx[@]}" --parts 2,1
expect 2 "--parts '2,x': 'x' is not" -- "${sx[@]}" --parts 2,x
expect 2 "--parts 600: layout compact: .*the count must be 1 \.\. 512" -- "${fr[@]}" --parts 600
expect 2 "--parts applies to .* not to edm" -- "${sx[@]}" --workload edm --parts 2
expect 2 "--param 4 applies to --workload kernel" -- "${fr[@]}" --param 4
expect 1 "broken.cl:6" -- "${fr[@]}" --workload kernel "$work/broken.cl" --type i32 --param 3
expect 1 "broken.cl:6" -- "${sx[@]}" --workload kernel "$work/broken.cl" --type f32 --param 3
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
