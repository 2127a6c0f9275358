#!/usr/bin/env bash
# sass_count.sh — a kernel's SASS instructions per basic block without a GPU: scripts/ptx_count.sh's PTX assembled by ptxas for sm_90 and disassembled by nvdisasm, as PTX counts hide what ptxas expands (a div.u32 is one PTX instruction, about 19 SASS).
#
# usage: scripts/sass_count.sh [same arguments as scripts/ptx_count.sh]
# Prints, per kernel, its SASS instruction count, then each basic block's label (or @address), instructions,
# global/shared loads and stores, and the block it branches to; follow a loop's common path through the
# blocks to count an iteration. Needs ptxas (CUDA) and nvdisasm (CUDA, or the nvidia-cuda-nvdisasm wheel:
# set NVDISASM to its path). Env: ARCH (default sm_90), OUTSASS (keep the disassembly there).
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
OUTPTX="$tmp/k.ptx" scripts/ptx_count.sh "$@" >/dev/null
ptxas -arch="${ARCH:-sm_90}" -O3 "$tmp/k.ptx" -o "$tmp/k.cubin"
"${NVDISASM:-nvdisasm}" -c "$tmp/k.cubin" >"$tmp/k.sass"
[ -n "${OUTSASS:-}" ] && cp "$tmp/k.sass" "$OUTSASS"
awk '
  /^\/\/-+ \.text\./ { flush(); if (k) printf "kernel %s: %d SASS\n", k, total; k = $2; sub(/^\.text\./, "", k); total = 0; lab = "entry"; next }
  !k { next }
  /^\.L_x_[0-9]+:/ { flush(); lab = $1; sub(/:$/, "", lab); next }
  /^ +\/\*[0-9a-f]+\*\/ / {
    if (ended) { flush(); lab = "@" substr($1, 3, 4) }
    n++; total++; ended = 0
    if ($0 ~ /LDG|LDS|LDC|LD\./) ld++
    if ($0 ~ /STG|STS|ST\./) st++
    if ($0 ~ / (BRA|EXIT|RET)/) { ended = 1; if ($0 ~ /BRA/) { to = $0; sub(/.*`\(/, "", to); sub(/\).*/, "", to) } }
  }
  function flush() { if (n) printf "  %-12s %4d SASS  %3d ld  %3d st  %s\n", lab, n, ld, st, to ? "-> " to : ""; n = ld = st = ended = 0; to = "" }
  END { flush(); if (k) printf "kernel %s: %d SASS\n", k, total }
' "$tmp/k.sass"
