#!/usr/bin/env bash
# scripts/mpi_scaling.sh — one process against 1 .. N MPI ranks on the same run: kernel and wall seconds of the slowest
# rank, halo bytes and exchange seconds per rank, and whether the final live counts agree (sqz life --json).
# usage: scripts/mpi_scaling.sh path/to/sqz "life DOMAIN --steps K [options]" "1 2 4" [MORE OPTIONS]
#   MORE OPTIONS go to the ranks and to a second one-process row (e.g. --devices 0,1: the parts on two devices of one
#   process, and under mpirun node-local rank i on device i mod 2; without it the ranks spread over the GPUs anyway).
#   e.g. scripts/mpi_scaling.sh build/sqz "life triangle:2000 --steps 20" "1 2 4"
#        scripts/mpi_scaling.sh build/sqz "life fractal:sierpinski-triangle:21 --steps 100" "1 2" --devices 0,1  (2 GPUs:
#        one GPU, both GPUs in one process, 1 and 2 ranks)
# Ranks beyond the cores run with --oversubscribe; as root set OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
set -euo pipefail
sqz="$1"
run="$2"
ranks="$3"
shift 3
row() { # row LABEL: the JSON on stdin as one table row
  /usr/bin/python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
r = j.get("ranks", [])
ex = max((x["exchange_s"] for x in r), default=0.0)
sb = max((x["send_bytes_per_step"] for x in r), default=0)
print("| %s | %s | %.4f | %.4f | %d | %.4f | %d |" % (sys.argv[1], j.get("backend"), j["kernel_s"], j["wall_s"], sb, ex, j["live"]))
' "$1"
}
echo "| run | backend | kernel s | wall s (steps) | halo bytes sent per step (max rank) | exchange s (max rank) | live |"
echo "|---|---|---|---|---|---|---|"
# shellcheck disable=SC2086
"$sqz" $run --json | row "one process"
# shellcheck disable=SC2086
[ $# -gt 0 ] && "$sqz" $run "$@" --json | row "one process $*"
for p in $ranks; do
  # shellcheck disable=SC2086
  mpirun --oversubscribe -np "$p" "$sqz" $run "$@" --json | row "mpirun -np $p $*"
done
