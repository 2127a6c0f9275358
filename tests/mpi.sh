#!/usr/bin/env bash
# tests/mpi.sh — `mpirun -np P sqz life|heat` (Open MPI, 1 to 4 ranks, --oversubscribe) against one process: the final
# states bit for bit for every family, P dividing the domain or not, an .h5 checkpoint resumed on another rank count,
# the per-rank --json figures, and the bad input: more ranks than cells, one rank short of memory, a rank killed.
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

# Life on every family: one process on the default backend (PoCL in CI) against 1 .. 4 ranks; 703 and 286 cells and
# the 729 of the fractal divide by none of 2 .. 4 but 2 for the tetrahedron (286)
for dom in fractal:sierpinski-triangle:6 fractal:vicsek-cross:3 triangle:37 tetrahedron:11; do
  "$sqz" life "$dom" --steps 7 --init random:0.4:3 --out one.npy >one.txt || fail "$dom: one process"
  for p in 1 2 3 4; do
    mpi "$p" life "$dom" --steps 7 --init random:0.4:3 --out ranks.npy || { fail "$dom on $p ranks: exit $?"; cat err.txt; continue; }
    cmp -s one.npy ranks.npy || fail "$dom on $p ranks: the state differs from one process"
    [ "$(grep '^live' out.txt)" = "$(grep '^live' one.txt)" ] || fail "$dom on $p ranks: the live count differs"
  done
done
# the run changed the state (a test that could not fail otherwise): 7 steps from random:0.4 leave another count
"$sqz" life triangle:37 --steps 0 --init random:0.4:3 --out zero.npy >/dev/null && cmp -s zero.npy one.npy &&
  fail "triangle:37: 7 steps left the state as it was"

# heat, f32 and f64: the per-cell arithmetic is the cpu backend's, so the states are equal bit for bit
for dom in triangle:29 tetrahedron:9 fractal:sierpinski-carpet:3; do
  for t in f32 f64; do
    "$sqz" heat "$dom" --steps 6 --type "$t" --backend cpu --out one.npy >/dev/null || fail "heat $dom $t: one process"
    mpi 3 heat "$dom" --steps 6 --type "$t" --out ranks.npy || { fail "heat $dom $t on 3 ranks: exit $?"; cat err.txt; }
    cmp -s one.npy ranks.npy || fail "heat $dom $t on 3 ranks: the state differs from the cpu backend's"
  done
done

# per-rank figures: 4 entries whose cells add up to the domain's
mpi 4 life triangle:37 --steps 3 --json || fail "--json on 4 ranks: exit $?"
/usr/bin/python3 - out.txt <<'PY' || fail "--json on 4 ranks: per-rank figures"
import json, sys
j = json.loads(open(sys.argv[1]).read())
r = j["ranks"]
assert j["mpi_ranks"] == 4 and len(r) == 4, j
assert sum(x["cells"] for x in r) == j["cells"] == 703, r
assert all(x["halo_cells"] > 0 and x["neighbours"] >= 1 for x in r), r
PY

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
grep -q "4 MPI ranks for triangle:2: the largest valid count is 3" err.txt || { fail "4 ranks for 3 cells: message"; cat err.txt; }
[ "$(grep -c 'largest valid count' err.txt)" -eq 1 ] || fail "4 ranks for 3 cells: printed by more than rank 0"
# options a run on ranks does not take: exit 2
mpi 2 life triangle:37 --steps 1 --layout bb
[ $? -eq 2 ] && grep -q "layout compact" err.txt || fail "--layout bb on 2 ranks: not refused with exit 2"
mpi 2 life triangle:37 --steps 1 --backend opencl
[ $? -eq 2 ] && grep -q "backend opencl" err.txt || fail "--backend opencl on 2 ranks: not refused with exit 2"
# a failure of rank 1 alone before the steps (other arguments there): rank 0 prints rank 1's message, both exit 2
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:37 --steps 1 : \
  -np 1 "$sqz" life triangle:37 --steps 1x >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 2 ] || fail "rank 1 alone fails: exit $rc, expected 2"
grep -q "rank 1 of 2 failed: sqz life: --steps" err.txt || { fail "rank 1 alone fails: message"; cat err.txt; }
printf 'sqz_cell_t sqz_update(sqz_cell_t s, const sqz_cell_t nb[SQZ_NB], uint p, __constant const sqz_param_t *q) { return s; }\n' >k.cl
mpi 2 run triangle:37 --kernel k.cl --type u8 --steps 1
[ $? -eq 2 ] && grep -q "MPI ranks" err.txt || fail "sqz run on 2 ranks: not refused with exit 2"

# one rank short of memory for its part (rank 1's data limit below its 92 MB part): every rank exits 1 with the
# message naming rank 1 and the bytes, at once (no rank waits for the other)
start=$(date +%s)
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:2000 --steps 1 --init random:0.1:1 : \
  -np 1 sh -c "ulimit -d 60000; exec '$sqz' life triangle:2000 --steps 1 --init random:0.1:1" >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || fail "rank 1 short of memory: mpirun exit $rc, expected 1"
grep -qE "rank 1: part 1 of triangle:2000 \(1000500 cells and 2000 halo cells\) needs [0-9]+ bytes of host memory, [0-9]+ available" err.txt ||
  { fail "rank 1 short of memory: message"; cat err.txt; }
[ $(($(date +%s) - start)) -lt 60 ] || fail "rank 1 short of memory: took $(($(date +%s) - start)) s"

# a rank killed mid-run: mpirun ends the others and fails within 60 s (Open MPI's default on a process that dies)
start=$(date +%s)
timeout 120 mpirun --oversubscribe -np 1 "$sqz" life triangle:1500 --steps 100000000 --quiet : \
  -np 1 timeout -s KILL 3 "$sqz" life triangle:1500 --steps 100000000 --quiet >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "a rank killed: mpirun exit $rc (124: it hung)"
[ "$took" -lt 60 ] || fail "a rank killed: the others ran on for $took s"

if [ "$fails" -ne 0 ]; then
  echo "$fails failures"
  exit 1
fi
echo "mpi: all passed"
