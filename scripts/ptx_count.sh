#!/usr/bin/env bash
# ptx_count.sh — a kernel's PTX instructions without a GPU: sqz's OpenCL C compiled by clang for nvptx (scripts/ptx_shim.cl), counted per kernel and per basic block, to compare variants of a fast step before timing them on a GPU.
#
# usage: scripts/ptx_count.sh [-D NAME=VALUE ...] FILE.cl [HEADER ...]   (headers from cl/, in the order the host builds them)
#        scripts/ptx_count.sh [-D NAME=VALUE ...] --source PROGRAM.cl   (a whole program as sqz built it: SQZ_DUMP_KERNELS=DIR)
#   e.g. scripts/ptx_count.sh -D SQZ_SWAR_WORD=32 -D SQZ_SWAR_IDX32=1 engine_simplex_swar.cl sqz_common.h sqz_simplex.h sqz_swar.h
# Prints, per kernel, its PTX instruction count, then each basic block's label, instructions, loads, stores and
# divisions (the block of the hot loop is what to compare). PTX is a virtual ISA: ptxas changes the counts
# (64-bit shifts and divisions expand, moves vanish), so compare variants with each other, not with a profile.
# Needs clang with the NVPTX target (Debian's clang has it). Env: OUTPTX (keep the PTX there).
set -eu
cd "$(dirname "$0")/.."
defs=()
while [ $# -gt 0 ] && [ "$1" = -D ]; do defs+=("-D$2"); shift 2; done
[ $# -ge 1 ] || { sed -n 3,9p "$0"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$1" = --source ]; then
  cp "$2" "$tmp/src.cl"
else
  kernel=$1
  shift
  for h in "$@"; do cat "cl/$h"; done >"$tmp/src.cl"
  cat "cl/$kernel" >>"$tmp/src.cl"
fi
clang -x cl -cl-std=CL1.2 -D__OPENCL_VERSION__=120 "${defs[@]}" -target nvptx64-nvidia-cuda -march=sm_86 -O3 -S \
  -include scripts/ptx_shim.cl "$tmp/src.cl" -o "$tmp/out.ptx"
[ -n "${OUTPTX:-}" ] && cp "$tmp/out.ptx" "$OUTPTX"
awk '
  /^\.(visible )?\.entry/ { if (k) printf "kernel %s: %d instructions\n", k, total; k = $NF; sub(/\(.*/, "", k); total = 0; next }
  /^\$?L[A-Za-z_]*[0-9_]+:/ { flush(); lab = $1; next }
  /^\t[a-z@]/ && k { n++; total++; if ($0 ~ /ld\./) ld++; if ($0 ~ /st\./) st++; if ($0 ~ /(div|rem)\./) dv++ }
  function flush() { if (n) printf "  %-12s %4d instr  %3d ld  %3d st  %2d div\n", lab, n, ld, st, dv; n = ld = st = dv = 0 }
  END { flush(); if (k) printf "kernel %s: %d instructions\n", k, total }
' "$tmp/out.ptx"
