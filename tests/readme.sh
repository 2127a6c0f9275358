#!/usr/bin/env bash
# tests/readme.sh — the command examples of the README and of the guides in docs/*.md beside it, run as written:
# every `sqz ...` command of their ```sh blocks (also `$ sqz ...`, `$ mpirun ... sqz ...`, `VAR=... sqz ...` and the
# `./build/sqz ...` part of an `a && b` line) runs in one scratch folder, README first, then docs/*.md in name order,
# each in its own order, under a time limit, and must exit 0; the output a `$` line shows below it must be what the
# command prints, and a JSON key its comment names ("parts":4) must be in its output. Lines that need a GPU, CUDA,
# two devices, MPI, HDF5 or libpng are skipped by the rules below, each skip printed with its reason.
# usage: readme.sh path/to/sqz path/to/README.md [mpi]   (mpi: sqz was built with MPI)
set -u
sqz="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
readme="$2"
# The files whose commands run: the README, then the guides of its docs/ folder (names relative to the README).
top="$(cd "$(dirname "$readme")" && pwd)"
docs=("$top/$(basename "$readme")")
for doc in "$top"/docs/*.md; do [ -e "$doc" ] && docs+=("$doc"); done
have_mpi="${3:-}"
limit="${SQZ_README_TIMEOUT:-120}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fails=0 runs=0 skips=0

# The examples call `sqz` and `./build/sqz`: both are this sqz, on PATH and under the scratch folder.
mkdir -p "$work/bin" "$work/run/build" || exit 1
ln -s "$sqz" "$work/bin/sqz" && ln -s "$sqz" "$work/run/build/sqz" || exit 1
export PATH="$work/bin:$PATH"
cd "$work/run" || exit 1

# Fixtures: the input files the examples read. A kernel a doc shows in a ```c block that starts with
# "/* NAME.cl" is taken from there; any other --kernel (or bench's --workload kernel) file is Life on cells of any
# type (cell != 0 is alive).
awk '/^```c$/ { c = 1; next } /^```/ { c = 0; f = ""; next }
     c && !f && match($0, /^\/\* [A-Za-z0-9_]+\.cl/) { f = substr($0, 4, RLENGTH - 3) }
     c && f { print > f }' "${docs[@]}"
life_kernel='sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,
                      __constant const sqz_param_t *param) {
  int live = 0;
  for (int i = 0; i < SQZ_NB; i++) live += nb[i] != 0;
  return (live == 3 || (self != 0 && live == 2)) ? 1 : 0;
}'
for k in $(cat "${docs[@]}" | grep -oE -- '--(kernel|workload kernel) [^ ]*\.cl' | awk '{print $NF}' | sort -u); do
  [ -e "$k" ] || printf '/* %s: Life on any cell type (readme.sh) */\n%s\n' "$k" "$life_kernel" >"$k"
done
printf '#N Glider\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n' >glider.rle
printf '# x y\n0 0\n3 4\n1.5 -2\n6 8\n' >points.txt
# start.npy: an f64 state of triangle:512 (the heat example's --init), made by sqz itself
"$sqz" heat triangle:512 --steps 0 --init random:3 --out start.npy >/dev/null || { echo "FAIL: fixture start.npy"; exit 1; }

# What this machine has, for the skip rules.
cuda_devices=$("$sqz" devices | grep -c '^cuda ')
opencl_devices=$("$sqz" devices | grep -c '^opencl ')
opencl_ids=$("$sqz" devices | awk '$1 == "opencl" {print $2}')
"$sqz" life triangle:8 --steps 0 --out "$work/probe.h5" >/dev/null 2>&1 && have_h5=1 || have_h5=
"$sqz" life triangle:8 --steps 0 --png "$work/probe.png" >/dev/null 2>&1 && have_png=1 || have_png=

# skip_reason CMD: why CMD cannot run here (empty: it runs). Every rule says what the line needs.
skip_reason() {
  local cmd="$1"
  # --backend cuda, and --backend all (OpenCL beside CUDA-MMA and CUDA-ALU), are meant for a CUDA GPU: without one
  # the CUDA rows are only "not run" and a fractal of level 16 on a CPU takes half a minute.
  case "$cmd" in *"--backend cuda"* | *"--backend all"*)
    [ "$cuda_devices" -ge 1 ] || { echo "needs a CUDA device ('sqz devices' lists none)"; return; } ;;
  esac
  # A device list (--devices A,B or SQZ_DEVICE=A,B) names devices: run where the opencl backend has each of them
  # (an id P:D listed by 'sqz devices', an index N below its count). A GPU machine lists PoCL as 0:0 and the GPU
  # as 1:0, so --devices 0:0,0:1 names a device it lacks although it has two.
  local list entry
  list="$(printf '%s' "$cmd" | grep -Eo -- '(--devices |SQZ_DEVICE=)[^ ]*,[^ ]*' | sed -E 's/^(--devices |SQZ_DEVICE=)//')"
  for entry in ${list//,/ }; do
    case "$entry" in
    *:*) printf '%s\n' "$opencl_ids" | grep -qx -- "$entry" ||
      { echo "needs OpenCL device $entry ('sqz devices' lists $(printf '%s' "$opencl_ids" | tr '\n' ' '))"; return; } ;;
    *) [ "$entry" -lt "$opencl_devices" ] 2>/dev/null ||
      { echo "needs OpenCL device number $entry ('sqz devices' lists $opencl_devices)"; return; } ;;
    esac
  done
  # mpirun lines need mpirun and an sqz built with MPI (without, every rank would run the whole command).
  case "$cmd" in mpirun*)
    command -v mpirun >/dev/null || { echo "needs mpirun (not on PATH)"; return; }
    [ "$have_mpi" = mpi ] || { echo "needs sqz built with MPI"; return; } ;;
  esac
  case "$cmd" in *.h5*) [ -n "$have_h5" ] || { echo "needs HDF5 checkpoints (sqz built without libhdf5)"; return; } ;; esac
  case "$cmd" in *.png*) [ -n "$have_png" ] || { echo "needs --png (sqz built without libpng)"; return; } ;; esac
}

# check LINE CMD COMMENT EXPECTED: runs CMD and checks its status, its output against EXPECTED (the lines the doc
# shows below a `$` command; empty: not checked) and the JSON keys named in COMMENT. LINE is FILE:NUMBER.
check() {
  local line="$1" cmd="$2" comment="$3" expected="$4" why rc t0 t1
  why="$(skip_reason "$cmd")"
  if [ -n "$why" ]; then
    echo "skip: $line: $cmd  ($why)"
    skips=$((skips + 1))
    return
  fi
  # mpirun: as tests/mpi.sh starts it, with more ranks than the cores allowed
  case "$cmd" in mpirun*) cmd="mpirun --oversubscribe${cmd#mpirun}" ;; esac
  runs=$((runs + 1))
  t0=$(date +%s.%N)
  timeout "$limit" bash -c "$cmd" </dev/null >out.txt 2>err.txt
  rc=$?
  t1=$(date +%s.%N)
  local took
  took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  if [ "$rc" -ne 0 ]; then
    echo "FAIL: $line: $cmd -> exit $rc$([ "$rc" -eq 124 ] && echo " (over ${limit} s)"), output:"
    head -20 out.txt err.txt
    fails=$((fails + 1))
    return
  fi
  if [ -n "$expected" ] && [ "$(cat out.txt)" != "$expected" ]; then
    echo "FAIL: $line: $cmd prints other lines than the doc shows:"
    diff <(printf '%s\n' "$expected") out.txt | head -20
    fails=$((fails + 1))
    return
  fi
  # JSON keys of the comment: "key": must be in the output, "key":NUMBER with that number
  local key
  for key in $(printf '%s' "$comment" | grep -Eo '"[A-Za-z_0-9]+":[0-9]*'); do
    local want="$key"
    [ "${key%:}" = "$key" ] && want="$key([^0-9.]|\$)"
    if ! grep -Eq -- "$want" out.txt; then
      echo "FAIL: $line: $cmd: the comment names $key, not in the output:"
      head -c 600 out.txt
      echo
      fails=$((fails + 1))
      return
    fi
  done
  echo "ok: $line: $cmd  ($took s)"
}

# The commands of the ```sh blocks, one record each: file:line, command, comment, then the lines shown below a
# `$` command (its output). A comment starts at a '#' after a blank, outside the command's words.
start=$(date +%s)
pending=()
flush() {
  if [ "${#pending[@]}" -gt 0 ]; then
    check "${pending[0]}" "${pending[1]}" "${pending[2]}" "${pending[3]}"
  fi
  pending=()
}
for doc in "${docs[@]}"; do
name="${doc#"$top"/}"
lineno=0 block=0 dollar=0 joined="" at=0
while IFS= read -r text || [ -n "$text" ]; do
  lineno=$((lineno + 1))
  case "$text" in
    '```sh') block=1; continue ;;
    '```'*) [ "$block" = 1 ] && flush; block=0; continue ;;
  esac
  [ "$block" = 1 ] || continue
  # a command continued on the next line (a trailing backslash) is one command, named by its first line
  [ -n "$joined" ] || at="$name:$lineno"
  if [ "${text%\\}" != "$text" ]; then
    joined="$joined${text%\\}"
    continue
  fi
  text="$joined$text"
  joined=""
  if [ "$dollar" = 1 ] && [ "${text#\$ }" = "$text" ] && [ "${#pending[@]}" -gt 0 ]; then
    # a line below a `$` command: its output
    pending[3]="${pending[3]:+${pending[3]}$'\n'}$text"
    continue
  fi
  flush
  dollar=0
  [ "${text#\$ }" != "$text" ] && dollar=1
  body="${text#\$ }"
  command="$(printf '%s' "$body" | sed -E 's/[[:space:]]+#([[:space:]].*|)$//')"
  comment="${body#"$command"}"
  body="$command"
  # the sqz commands of the line: segments of an `a && b` chain that start with sqz, ./build/sqz, mpirun or VAR=...
  while [ -n "$body" ]; do
    seg="${body%% && *}"
    [ "$seg" = "$body" ] && body="" || body="${body#* && }"
    if printf '%s' "$seg" | grep -Eq '^([A-Z_]+=[^ ]+ )*(sqz|\./build/sqz|mpirun) '; then
      flush
      pending=("$at" "$seg" "$comment" "")
    fi
  done
done <"$doc"
flush
done

echo "readme: $runs commands ran, $skips skipped, $fails failed (${docs[*]#"$top"/}), $(($(date +%s) - start)) s"
[ "$runs" -gt 0 ] || { echo "FAIL: no sqz command found in $readme or docs/*.md"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ]
