#!/usr/bin/env bash
# sass_bits.sh — the fractal box step (cl/engine_bits_fractal.cl) in sm_90 SASS for each plan and state it is built for, without a GPU: the kernel's total and its largest blocks (the fill, step and store loops), as docs/BENCHMARKS.md "The list of boxes" counts them.
#
# usage: scripts/sass_bits.sh [MIN_BLOCK]   (blocks of at least MIN_BLOCK instructions are listed; default 40)
# Variants: the Sierpiński triangle's list (8 x 8 boxes of 27 cells) in bits and on bytes, as built for GPUs
# (SQZ_BITS_HOIST) and for CPU devices, and the carpet's window (3 x 3 boxes of 8 cells) in bits and on bytes;
# Conway's rule as the host builds it. Needs what scripts/sass_count.sh needs (ptxas, nvdisasm: NVDISASM).
set -eu
cd "$(dirname "$0")/.."
min=${1:-40}
headers="sqz_common.h sqz_fractal.h sqz_parts.h sqz_bits.h sqz_bits_box.h sqz_bits_list.h"
rule="-D SQZ_BITS_B=8u -D SQZ_BITS_S=12u -D SQZ_KERNEL_sqz_bits_fractal_box=1"
list="-D SQZ_BITS_BOX=8u -D SQZ_BITS_KQ=27u -D SQZ_BITS_LIST=1"
window="-D SQZ_BITS_BOX=3u -D SQZ_BITS_KQ=8u"
while IFS="|" read -r name defs; do
  echo "== $name"
  # shellcheck disable=SC2086  # the defines are words
  scripts/sass_count.sh $rule $defs engine_bits_fractal.cl $headers 2>&1 |
    awk -v min="$min" '/^kernel/ || /rror/ || ($3 == "SASS" && $2 >= min)'
done <<EOF
list, bits, GPU|$list -D SQZ_BITS_HOIST=1
list, bytes, GPU|$list -D SQZ_BITS_HOIST=1 -D SQZ_BITS_BYTES=1
list, bits, CPU device|$list
window, bits|$window
window, bytes|$window -D SQZ_BITS_BYTES=1
EOF
