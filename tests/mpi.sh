#!/usr/bin/env bash
# tests/mpi.sh — `mpirun -np P sqz life|heat|run` (Open MPI, 1 to 4 ranks, --oversubscribe) against one process: the
# final states bit for bit for every family on PoCL and the cpu backend, P dividing the domain or not, layouts compact,
# block:RHO and bits (fractals), bb, lambda and bits on a tetrahedron (bands of rows), several parts per rank (--parts N >= ranks, and the automatic count when a rank's device allocates too
# little), an --init file and an .h5 checkpoint resumed on another rank count, the per-rank --json figures, and the bad
# input: more ranks than cells, options refused, ranks that disagree, a lone rank's failure, one rank short of memory,
# a rank killed.
# usage: mpi.sh path/to/sqz [h5]   (h5: the build has HDF5 checkpoints)
set -u
sqz="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
h5="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
mpi() { # mpi P ARGS...: sqz ARGS on P ranks, stdout to out.txt, stderr to err.txt; returns mpirun's status
  local p="$1"
  shift
  timeout 120 mpirun --oversubscribe -np "$p" "$sqz" "$@" >out.txt 2>err.txt
}

# Life on every family: one process against 2 ranks on the default backend (PoCL in CI) and 3 and 4 on the cpu backend
# (1, 3 and 4 on PoCL for the triangle); 703, 286 and 729 cells divide by few of these counts; block:8 too
for dom in fractal:sierpinski-triangle:6 fractal:vicsek-cross:3 triangle:37 tetrahedron:11; do
  "$sqz" life "$dom" --steps 7 --init random:0.4:3 --out one.npy >one.txt || fail "$dom: one process"
  # the same parts in one process first: equal to one buffer, and their kernels built once (PoCL's cache), not by
  # every rank at once
  "$sqz" life "$dom" --steps 7 --init random:0.4:3 --parts 2 --out parts.npy >/dev/null && cmp -s one.npy parts.npy ||
    fail "$dom: 2 parts in one process differ from one buffer"
  runs=("2" "3 --backend cpu" "4 --backend cpu" "2 --parts 5")
  [ "$dom" = triangle:37 ] && runs+=("1" "3" "4" "3 --parts 7 --backend cpu")
  for run in "${runs[@]}"; do
    set -- $run
    p=$1
    shift
    mpi "$p" life "$dom" --steps 7 --init random:0.4:3 --out ranks.npy "$@" ||
      { fail "$dom on $p ranks $*: exit $?"; cat err.txt; continue; }
    cmp -s one.npy ranks.npy || fail "$dom on $p ranks $*: the state differs from one process"
    [ "$(grep '^live' out.txt)" = "$(grep '^live' one.txt)" ] || fail "$dom on $p ranks $*: the live count differs"
  done
done
mpi 3 life fractal:sierpinski-triangle:6 --layout block:8 --steps 7 --init random:0.4:3 --out ranks.npy || fail "block:8: exit $?"
"$sqz" life fractal:sierpinski-triangle:6 --steps 7 --init random:0.4:3 --out one.npy >/dev/null
cmp -s one.npy ranks.npy || fail "fractal in layout block:8 on 3 ranks: the state differs from one process"
# layout bits (parts of whole bits tiles; 9 tiles): 2 ranks against one process, state and live count
"$sqz" life fractal:sierpinski-triangle:10 --layout bits --steps 7 --init random:0.4:3 --out bits1.npy >bits1.txt ||
  fail "bits: one process"
mpi 2 life fractal:sierpinski-triangle:10 --layout bits --steps 7 --init random:0.4:3 --out ranks.npy ||
  fail "bits on 2 ranks: exit $?"
cmp -s bits1.npy ranks.npy && [ "$(grep '^live' out.txt)" = "$(grep '^live' bits1.txt)" ] ||
  fail "fractal in layout bits on 2 ranks: the state or the live count differs from one process"
# a Generations rule (Star Wars, 4 states) on 2 ranks against one process, the fractal in 3 parts a rank
for dom in triangle:50 fractal:sierpinski-carpet:4; do
  "$sqz" life $dom --rule 345/2/4 --steps 7 --init random:0.4:2 --out gen1.npy >/dev/null || fail "$dom 345/2/4: one process"
  mpi 2 life $dom --rule 345/2/4 --steps 7 --init random:0.4:2 --parts 3 --out ranks.npy || fail "$dom 345/2/4 on 2 ranks"
  cmp -s gen1.npy ranks.npy || fail "$dom 345/2/4 on 2 ranks: the state differs from one process"
done
# the run changed the state (a test that could not fail otherwise): 7 steps from random:0.4 leave another count
"$sqz" life fractal:sierpinski-triangle:6 --steps 0 --init random:0.4:3 --out zero.npy >/dev/null && cmp -s zero.npy one.npy &&
  fail "7 steps left the state as it was"
# an --init file scattered from rank 0 (not random: the state moves from rank 0's field to the parts)
mpi 2 life fractal:sierpinski-triangle:6 --steps 7 --init zero.npy --out ranks.npy || fail "--init FILE on 2 ranks: exit $?"
cmp -s one.npy ranks.npy || fail "--init FILE on 2 ranks: the state differs from one process"

# heat f32 and f64 on 3 ranks against one process, on PoCL and on the cpu backend: equal bit for bit
for run in "opencl triangle:29 f32" "opencl fractal:sierpinski-carpet:3 f64" "cpu tetrahedron:9 f32" "cpu tetrahedron:9 f64" \
  "cpu fractal:sierpinski-carpet:3 f32"; do
  set -- $run
  "$sqz" heat "$2" --steps 6 --type "$3" --backend "$1" --out one.npy >/dev/null || fail "heat $run: one process"
  "$sqz" heat "$2" --steps 6 --type "$3" --backend "$1" --parts 3 --out parts.npy >/dev/null && cmp -s one.npy parts.npy ||
    fail "heat $run: 3 parts in one process differ from one buffer"
  mpi 3 heat "$2" --steps 6 --type "$3" --backend "$1" --out ranks.npy || { fail "heat $run on 3 ranks: exit $?"; cat err.txt; }
  cmp -s one.npy ranks.npy || fail "heat $run on 3 ranks: the state differs from one process"
done
# heat in several parts per rank: 5 on 2 (f32, PoCL)
"$sqz" heat triangle:29 --steps 6 --type f32 --out one.npy >/dev/null
mpi 2 heat triangle:29 --steps 6 --type f32 --parts 5 --out ranks.npy || { fail "heat, 5 parts on 2 ranks: exit $?"; cat err.txt; }
cmp -s one.npy ranks.npy || fail "heat f32, 5 parts on 2 ranks: the state differs from one process"
# a user stencil (sqz run, i32 cells reading every neighbour) on 4 ranks
cat >mix.cl <<'CL'
sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present, __constant const sqz_param_t *param) {
  uint acc = (uint)self * 3u + present;
  for (int i = 0; i < SQZ_NB; i++) acc = acc * 31u + (uint)nb[i] * (uint)(i + 1);
  return (sqz_cell_t)(acc & 0xFFFFFu);
}
CL
"$sqz" run triangle:37 --kernel mix.cl --type i32 --steps 4 --out one.npy >/dev/null || fail "run: one process"
"$sqz" run triangle:37 --kernel mix.cl --type i32 --steps 4 --parts 4 --out parts.npy >/dev/null && cmp -s one.npy parts.npy ||
  fail "run: 4 parts in one process differ from one buffer"
mpi 4 run triangle:37 --kernel mix.cl --type i32 --steps 4 --out ranks.npy || { fail "run on 4 ranks: exit $?"; cat err.txt; }
cmp -s one.npy ranks.npy || fail "run (i32 stencil) on 4 ranks: the state differs from one process"

# per-rank figures: 4 entries whose cells add up to the domain's
mpi 4 life triangle:37 --steps 3 --json || fail "--json on 4 ranks: exit $?"
/usr/bin/python3 - out.txt <<'PY' || fail "--json on 4 ranks: per-rank figures"
import json, sys
j = json.loads(open(sys.argv[1]).read())
r = j["ranks"]
assert j["mpi_ranks"] == 4 and len(r) == 4, j
assert sum(x["units"] * x["unit_elems"] for x in r) == j["cells"] == 703, r
assert all(x["halo_units"] > 0 and x["neighbours"] >= 1 and x["send_bytes_per_step"] > 0 for x in r), r
PY
# several parts per rank: 5 parts on 2 ranks in contiguous blocks (parts 0-2 on rank 0, 3-4 on rank 1), the halos
# between parts of one rank by device copy; the overlapped and the serial step (SQZ_OVERLAP=0) give the same state
"$sqz" life fractal:sierpinski-triangle:7 --steps 9 --init random:0.4:5 --out one.npy >/dev/null
for ov in 0 1; do
  SQZ_OVERLAP=$ov mpi 2 life fractal:sierpinski-triangle:7 --steps 9 --init random:0.4:5 --parts 5 --out ranks.npy --json ||
    fail "--parts 5 on 2 ranks (SQZ_OVERLAP=$ov): exit $?"
  cmp -s one.npy ranks.npy || fail "--parts 5 on 2 ranks (SQZ_OVERLAP=$ov): the state differs from one process"
done
/usr/bin/python3 - out.txt <<'PY' || fail "--parts 5 on 2 ranks: per-rank figures"
import json, sys
j = json.loads(open(sys.argv[1]).read())
r = j["ranks"]
assert j["parts"] == 5 and [(x["parts"], x["first_part"]) for x in r] == [(3, 0), (2, 3)], j
assert sum(x["units"] * x["unit_elems"] for x in r) == j["cells"] == 3 ** 7, r
# every unit of these parts is a border unit (1 or 2 tiles each): the inner launch is empty, its time may print as 0
assert all(x["exchange_s"] >= x["halo_wait_s"] >= 0 and x["inner_s"] >= 0 and x["border_s"] > 0 for x in r), r
PY
# several steps per exchange (SQZ_EXCHANGE_STEPS=4: tile halos, the temporal word kernel on PoCL): 13 steps in 4
# exchanges on 2 ranks holding 5 parts, the state one process's
SQZ_EXCHANGE_STEPS=4 mpi 2 life fractal:sierpinski-triangle:7 --steps 13 --init random:0.4:5 --parts 5 --out ranks.npy --json ||
  fail "4 steps per exchange on 2 ranks: exit $?"
"$sqz" life fractal:sierpinski-triangle:7 --steps 13 --init random:0.4:5 --out one.npy >/dev/null
cmp -s one.npy ranks.npy || fail "4 steps per exchange on 2 ranks: the state differs from one process"
/usr/bin/python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["exchanges"] == 4, j' out.txt ||
  fail "4 steps per exchange on 2 ranks: not 4 exchanges for 13 steps"
# the automatic count: rank 1's device allocates 4096 bytes (SQZ_MAX_ALLOC, the library's test hook), so without
# --parts the ranks agree on the fewest parts that each fit (more than 2), and the state is still one process's
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life fractal:sierpinski-triangle:9 --steps 5 --out ranks.npy --json : \
  -np 1 env SQZ_MAX_ALLOC=4096 "$sqz" life fractal:sierpinski-triangle:9 --steps 5 --out ranks.npy --json >out.txt 2>err.txt ||
  { fail "an automatic part count on 2 ranks: exit $?"; cat err.txt; }
"$sqz" life fractal:sierpinski-triangle:9 --steps 5 --out one.npy >/dev/null
cmp -s one.npy ranks.npy || fail "an automatic part count on 2 ranks: the state differs from one process"
/usr/bin/python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["parts"] > 2 and max(x["bytes"] / 2 / x["parts"] for x in j["ranks"]) <= 4096, j' out.txt ||
  fail "an automatic part count on 2 ranks: $(cat out.txt)"

# a checkpoint written on 3 ranks, resumed on 2: the same as 10 steps in one process
if [ -n "$h5" ]; then
  "$sqz" life fractal:sierpinski-triangle:6 --steps 10 --out one.npy >/dev/null
  mpi 3 life fractal:sierpinski-triangle:6 --steps 4 --out half.h5 || fail "checkpoint on 3 ranks: exit $?"
  mpi 2 life fractal:sierpinski-triangle:6 --steps 6 --init half.h5 --out ranks.npy || fail "resume on 2 ranks: exit $?"
  cmp -s one.npy ranks.npy || fail "checkpoint on 3 ranks resumed on 2: the state differs from one process"
fi

# bad input: more ranks than cells (triangle:2 has 3): exit 2 naming the largest valid count
mpi 4 life triangle:2 --steps 1
rc=$?
[ "$rc" -eq 2 ] || fail "4 ranks for 3 cells: exit $rc, expected 2"
grep -q "4 parts of triangle:2 in layout compact: the count must be 1 .. 3" err.txt || { fail "4 ranks for 3 cells: message"; cat err.txt; }
[ "$(grep -c 'the count must be' err.txt)" -eq 1 ] || fail "4 ranks for 3 cells: printed by more than rank 0"
# bands of rows (layouts bb and lambda: bounding-box rows; bits on a tetrahedron: planes of words) on 2 ranks of the
# cpu backend against one process, state and live count
for args in "triangle:37 --layout bb" "fractal:sierpinski-triangle:6 --layout lambda" "tetrahedron:11 --layout bits"; do
  "$sqz" life $args --steps 7 --init random:0.4:3 --out one.npy --backend cpu >one.txt || fail "$args: one process"
  mpi 2 life $args --steps 7 --init random:0.4:3 --out ranks.npy --backend cpu || { fail "$args on 2 ranks: exit $?"; cat err.txt; }
  cmp -s one.npy ranks.npy && [ "$(grep '^live' out.txt)" = "$(grep '^live' one.txt)" ] ||
    fail "$args on 2 ranks: the state or the live count differs from one process"
done
# options a run on ranks does not take: exit 2
mpi 2 life triangle:37 --steps 1 --parts 1
[ $? -eq 2 ] && grep -q "at least one part per rank (--parts 2 or more)" err.txt || fail "--parts 1 on 2 ranks: not refused with exit 2"
# rank 1's entry of a device list is a number past the backend's devices: exit 2 naming it (not a name match)
mpi 2 life triangle:37 --steps 1 --devices 0,99
[ $? -eq 2 ] && grep -q "rank 1 of 2 failed: sqz life: device 99: the opencl backend has" err.txt ||
  { fail "--devices 0,99 on 2 ranks: not refused with exit 2 naming device 99"; cat err.txt; }
# a failure of rank 1 alone before the steps (other arguments there): rank 0 prints rank 1's message, both exit 2
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:37 --steps 1 : \
  -np 1 "$sqz" life triangle:37 --steps 1x >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 2 ] || fail "rank 1 alone fails: exit $rc, expected 2"
grep -q "rank 1 of 2 failed: sqz life: --steps" err.txt || { fail "rank 1 alone fails: message"; cat err.txt; }

# ranks that disagree on the run (MPMD: rank 1 started with another option or SQZ_EXCHANGE_STEPS) hung for ever or
# died in MPI_ERR_TRUNCATE (exit 15): every rank exits 1 before the first exchange, rank 0 printing rank 1's one
# message naming what differs; a device selection may differ
differ() { # differ WANT RANK0-ARGS -- RANK1-COMMAND...
  local want="$1" a=() start rc
  shift
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  start=$(date +%s)
  timeout 120 mpirun --oversubscribe -np 1 "$sqz" "${a[@]}" : -np 1 "$@" >out.txt 2>err.txt
  rc=$?
  [ "$rc" -eq 1 ] && [ "$(grep -c "rank 1 of 2 failed: .*rank 1: $want" err.txt)" -eq 1 ] &&
    [ "$(grep -c "^sqz" err.txt)" -eq 1 ] && [ $(($(date +%s) - start)) -lt 60 ] ||
    { fail "rank 1 with $*: exit $rc (want 1, one message naming '$want')"; cat err.txt; }
}
differ "exchange_steps is 4 here but (not set) on rank 0" life fractal:sierpinski-triangle:7 --steps 13 --parts 4 -- \
  env SQZ_EXCHANGE_STEPS=4 "$sqz" life fractal:sierpinski-triangle:7 --steps 13 --parts 4
differ "--steps is 6 here but 5 on rank 0" life triangle:37 --steps 5 -- "$sqz" life triangle:37 --steps 6
differ "--init is random:0.3:2 here but random:0.5:1" life triangle:37 --steps 5 -- "$sqz" life triangle:37 --steps 5 --init random:0.3:2
differ "--out is b.npy here but a.npy" life triangle:37 --steps 5 --out a.npy -- "$sqz" life triangle:37 --steps 5 --out b.npy
differ "DOMAIN is triangle:38 here but triangle:37" life triangle:37 --steps 5 -- "$sqz" life triangle:38 --steps 5
differ "--layout is bb here but compact" life triangle:37 --steps 5 -- "$sqz" life triangle:37 --steps 5 --layout bb
differ "--type is f32 here but (not set)" heat triangle:37 --steps 5 -- "$sqz" heat triangle:37 --steps 5 --type f32
differ "--parts is 3 here but 2" life triangle:37 --steps 5 --parts 2 -- "$sqz" life triangle:37 --steps 5 --parts 3
differ "command is heat here but life" life triangle:37 --steps 5 -- "$sqz" heat triangle:37 --steps 5
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:37 --steps 5 : -np 1 "$sqz" life triangle:37 --steps 5 \
  --device 0 >out.txt 2>err.txt || { fail "rank 1 with its own --device: refused"; cat err.txt; }
# heat that overflows on the ranks: exit 1 on every rank, the overflow named once (exit 2 'non-finite input' before)
mpi 2 heat triangle:8 --steps 5 --init point:3,1:1.7e308 --out over.npy
rc=$?
[ "$rc" -eq 1 ] && grep -q "overflow within steps 1 .. 5 of 5" err.txt && [ ! -e over.npy ] ||
  { fail "heat overflowing on 2 ranks: exit $rc"; cat err.txt; }

# a kernel that does not build fails on every rank alike: one agreed message from rank 0, no abort
printf 'sqz_cell_t sqz_update(sqz_cell_t s, const sqz_cell_t nb[SQZ_NB], uint p, __constant const sqz_param_t *q) { return s + oops; }\n' >broken.cl
mpi 2 run triangle:37 --kernel broken.cl --type i32 --steps 2
rc=$?
[ "$rc" -eq 1 ] && grep -q "SQZ_ERR_BUILD_FAILED): rank 0: kernel build failed" err.txt && ! grep -q "MPI_ABORT" err.txt ||
  { fail "a kernel that does not build on 2 ranks: exit $rc"; cat err.txt; }

# one rank's device short of memory for its part of an explicit count (SQZ_MAX_ALLOC, the library's test hook, lowers
# rank 1's allocation limit below its part: 10 050 cells and a 200-cell halo): every rank exits 1 with the message
# naming rank 1 and the bytes, at once
start=$(date +%s)
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:200 --steps 1 --parts 2 : \
  -np 1 env SQZ_MAX_ALLOC=4096 "$sqz" life triangle:200 --steps 1 --parts 2 >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || fail "rank 1 short of memory: mpirun exit $rc, expected 1"
grep -qE "rank 1: triangle:200 in layout compact: part 1 needs a buffer of 10250 bytes but .* allocates at most 4096 \(more ranks or --parts" err.txt ||
  { fail "rank 1 short of memory: message"; cat err.txt; }
[ $(($(date +%s) - start)) -lt 60 ] || fail "rank 1 short of memory: took $(($(date +%s) - start)) s"

# a rank killed mid-run: mpirun ends the others and fails within 60 s (Open MPI's default on a process that dies)
start=$(date +%s)
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:1500 --steps 100000000 --backend cpu --quiet : \
  -np 1 timeout -s KILL 3 "$sqz" life triangle:1500 --steps 100000000 --backend cpu --quiet >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "a rank killed: mpirun exit $rc (124: it hung)"
[ "$took" -lt 60 ] || fail "a rank killed: the others ran on for $took s"

if [ "$fails" -ne 0 ]; then
  echo "$fails failures"
  exit 1
fi
echo "mpi: all passed"
