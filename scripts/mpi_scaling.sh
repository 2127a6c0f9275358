#!/usr/bin/env bash
# scripts/mpi_scaling.sh — one process against 1 .. N MPI ranks on the same run: kernel and wall seconds of the slowest
# rank, halo bytes and exchange seconds per rank (of those blocked on the halo: wait), the host seconds of the inner and
# border steps, and whether the final live counts agree (sqz life --json).
# usage: scripts/mpi_scaling.sh path/to/sqz "life DOMAIN --steps K [options]" "1 2 4" [MORE OPTIONS]
#   MORE OPTIONS go to the ranks and to a second one-process row (e.g. --devices 0,1: the parts on two devices of one
#   process, and under mpirun node-local rank i on device i mod 2; without it the ranks spread over the GPUs anyway).
#   e.g. scripts/mpi_scaling.sh build/sqz "life triangle:2000 --steps 20" "1 2 4"
#        scripts/mpi_scaling.sh build/sqz "life fractal:sierpinski-triangle:21 --steps 100" "1 2" --devices 0,1  (2 GPUs:
#        one GPU, both GPUs in one process, 1 and 2 ranks)
# Ranks beyond the cores run with --oversubscribe; as root set OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
# OVERLAP=both: every row twice, SQZ_OVERLAP=0 (the exchange whole, then every own unit: no overlap) and the default
# (the inner units stepped while the halo moves); REPS=N: the best wall of N runs per row (default 1).
set -euo pipefail
sqz="$1"
run="$2"
ranks="$3"
shift 3
row() { # row LABEL: the JSON of the best run (lowest wall) on stdin, one per line, as one table row
  /usr/bin/python3 -c '
import json, sys
runs = [json.loads(l) for l in sys.stdin.read().splitlines() if l.strip().startswith("{")]
j = min(runs, key=lambda d: d["wall_s"])
r = j.get("ranks", [])
m = lambda k: max((x.get(k, 0.0) for x in r), default=j.get(k, 0.0))
sb = max((x["send_bytes_per_step"] for x in r), default=j.get("halo_bytes_per_step", 0))
print("| %s | %s | %.4f | %.4f | %d | %.4f | %.4f | %.4f | %.4f | %d |" % (sys.argv[1], j.get("backend"), j["kernel_s"],
      j["wall_s"], sb, m("exchange_s"), m("halo_wait_s"), m("inner_s"), m("border_s"), j["live"]))
' "$1"
}
modes=("")
[ "${OVERLAP:-}" = both ] && modes=(0 "")
reps() { # reps CMD...: CMD --json REPS times
  for _ in $(seq "${REPS:-1}"); do "$@" --json; done
}
echo "| run | backend | kernel s | wall s (steps) | halo bytes sent per step (max rank) | exchange s | halo wait s | inner s | border s (max rank) | live |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for mode in "${modes[@]}"; do
  tag=""
  [ -n "$mode" ] && tag=" SQZ_OVERLAP=$mode"
  [ "${OVERLAP:-}" = both ] && [ -z "$mode" ] && tag=" overlap"
  # shellcheck disable=SC2086
  [ -z "$mode" ] && SQZ_OVERLAP=1 reps "$sqz" $run | row "one process"
  # shellcheck disable=SC2086
  [ $# -gt 0 ] && SQZ_OVERLAP=${mode:-1} reps "$sqz" $run "$@" | row "one process $*$tag"
  for p in $ranks; do
    # shellcheck disable=SC2086
    SQZ_OVERLAP=${mode:-1} reps mpirun --oversubscribe -x SQZ_OVERLAP -np "$p" "$sqz" $run "$@" | row "mpirun -np $p $*$tag"
  done
done
