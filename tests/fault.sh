#!/usr/bin/env bash
# tests/fault.sh — fault injection on the sqz CLI (cpu backend): every host allocation fails in turn, a full disk,
# an unwritable target directory and a run killed mid-write. Each failure must end in exit 1 (2 for bad input)
# with a message, never a signal or a sanitizer report, leave an existing --out byte for byte as it was and leave
# no temporary behind (SIGKILL: only its own temporary "<out>.XXXXXX"; nothing can remove that).
# usage: fault.sh path/to/sqz [BACKEND] (default cpu; ctest runs cpu: `fault.sh build/sqz opencl` adds the program
# cache and PoCL paths, a few seconds per kernel build)
set -u
sqz="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
backend="${2:-cpu}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# A pre-existing output: content that no command writes.
precious() { for f in "$@"; do printf 'precious %s\n' "$f" >"$f"; done; }
intact() { # intact FILE...: each still holds its precious content
  local f
  for f in "$@"; do printf 'precious %s\n' "$f" | cmp -s - "$f" || { echo "clobbered: $f"; return 1; }; done
}
# The folder holds exactly the listed names (no temporary "<out>.XXXXXX" left).
only() {
  local want have
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  have=$(ls -A | sort | tr '\n' ' ')
  [ "$have" = "$want" ] || { echo "folder holds: $have (expected: $want)"; return 1; }
}
# An exit status and stderr of a failed run: 1 or 2 with a message from sqz, no signal, no sanitizer report.
clean_failure() { # clean_failure RC ERRFILE
  local rc="$1" err="$2"
  if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then echo "exit $rc"; return 1; fi
  grep -q '^sqz ' "$err" || { echo "no message from sqz"; return 1; }
  if grep -qE 'Sanitizer|runtime error:|valgrind' "$err"; then echo "sanitizer report"; return 1; fi
  return 0
}

# ---- allocation failures: VAR=N for N = 1, 2, ... until the command has succeeded 8 times in a row -------------------
# (a few failures are absorbed, e.g. the slot of a thread's error detail, so one success does not mean that N has
# passed the last allocation). sweep VAR OUTPUTS -- ARGS...: OUTPUTS is a comma-separated list of the command's
# --out/--png files (may be empty); the other files in the folder are inputs. Every failing run exits 1 (or 2: see the
# message check) and leaves each output precious; each successful one replaces them all.
sweep() {
  local var="$1" outs="$2" n rc failed=0 ones=0 twos=0 ok=0 streak=0 o
  shift 3
  local -a out=()
  [ -n "$outs" ] && IFS=, read -r -a out <<<"$outs"
  local inputs
  inputs=$(ls -A | grep -vxF -f <(printf '%s\n' "${out[@]}" "") | tr '\n' ' ')
  # what a run without a fault writes: a run that absorbed a failure must write the same (.h5 holds timestamps)
  "$sqz" "$@" >/dev/null 2>&1 || fail "sqz $* fails without a fault"
  for o in "${out[@]}"; do mv "$o" "$work/ref.$o"; done
  for ((n = 1; n <= 3000; n++)); do
    [ ${#out[@]} -gt 0 ] && precious "${out[@]}"
    env "$var=$n" "$sqz" "$@" >"$work/stdout" 2>"$work/stderr"
    rc=$?
    if [ $rc -eq 0 ]; then
      for o in "${out[@]}"; do
        [[ $o == *.h5 ]] && ! intact "$o" >/dev/null 2>&1 && continue
        cmp -s "$o" "$work/ref.$o" || fail "$var=$n: sqz $* succeeded but $o differs from a run without a fault"
      done
      ok=$((ok + 1))
      streak=$((streak + 1))
      if [ $streak -eq 8 ]; then
        echo "ok: $var: N = 1..$((n - 8)): $ones runs exit 1, $twos exit 2, $((ok - 8)) absorbed the failure: sqz $*"
        return 0
      fi
      continue
    fi
    streak=0
    local why
    if ! why=$(clean_failure $rc "$work/stderr") || ! why=$(intact "${out[@]}") ||
      ! why=$(only $inputs "${out[@]}"); then
      fail "$var=$n: sqz $*: $why"
      head -c 1500 "$work/stderr"
      failed=$((failed + 1))
      [ $failed -ge 3 ] && return 1
    fi
    # exit 2 is bad input: an allocation failure must not pass for it (the message says memory)
    if [ $rc -eq 2 ]; then
      twos=$((twos + 1))
      grep -qiE 'memory|alloc' "$work/stderr" || { fail "$var=$n: exit 2 without a word about memory: sqz $*"; head -c 800 "$work/stderr"; }
    else
      ones=$((ones + 1))
    fi
  done
  fail "$var: sqz $* still failing at N=$n"
}

mkdir "$work/alloc" && cd "$work/alloc" || exit 1
printf '0 0\n3 4\n# a comment\n-1.5 2e1\n6 8\n' >points.txt
"$sqz" life triangle:24 --steps 2 --backend "$backend" --out seed.pbm >/dev/null || fail "making seed.pbm"
"$sqz" heat triangle:20 --steps 2 --backend "$backend" --out seed.h5 >/dev/null || fail "making seed.h5"
for var in SQZ_FAULT_ALLOC SQZ_FAULT_ALLOC_CLI; do
  sweep $var o.npy -- life triangle:24 --steps 3 --backend "$backend" --out o.npy
  sweep $var o.pbm,o.png -- life triangle:24 --steps 3 --backend "$backend" --init seed.pbm --out o.pbm --png o.png
  sweep $var o.rle -- life triangle:24 --steps 3 --backend "$backend" --out o.rle
  sweep $var o.h5 -- life fractal:sierpinski-carpet:2 --layout block:3 --steps 3 --backend "$backend" --out o.h5
  sweep $var h.npy -- heat triangle:20 --steps 3 --backend "$backend" --init seed.h5 --out h.npy
  sweep $var d.f32 -- edm --points points.txt --backend "$backend" --out d.f32
  sweep $var "" -- info tetrahedron:9 --json
done
cd "$work" || exit 1

# ---- a full disk: RLIMIT_FSIZE (ulimit -f, in KiB) below the output's size --------------------------------------
# exit 1 with the system's reason (EFBIG: "File too large"), the previous output intact, no temporary.
mkdir "$work/full" && cd "$work/full" || exit 1
awk 'BEGIN { for (i = 0; i < 200; i++) print i, i % 7 }' >p.txt
for args in "life triangle:400 --steps 1 --out o.npy" "life triangle:400 --steps 1 --out o.pbm" \
  "life triangle:400 --steps 1 --out o.rle" "life triangle:400 --steps 1 --out o.h5" \
  "life triangle:400 --steps 1 --out o.pbm --png o.png" "heat triangle:200 --steps 1 --out o.npy" \
  "edm --points p.txt --out o.f32"; do
  read -r -a a <<<"$args"
  outs=()
  for ((i = 0; i < ${#a[@]}; i++)); do case "${a[$i]}" in --out | --png) outs+=("${a[$((i + 1))]}") ;; esac; done
  find . -mindepth 1 ! -name p.txt -delete
  precious "${outs[@]}"
  (ulimit -f 4 && exec "$sqz" "${a[@]}" --backend "$backend") >/dev/null 2>"$work/stderr"
  rc=$?
  why=
  if [ $rc -ne 1 ] || ! grep -q 'File too large' "$work/stderr" || ! why=$(intact "${outs[@]}") ||
    ! why=$(only p.txt "${outs[@]}"); then
    fail "full disk: sqz $args: exit $rc $why"
    head -c 800 "$work/stderr"
  else
    echo "ok: full disk: sqz $args: exit 1, $(head -n 1 "$work/stderr" | cut -c 1-110)"
  fi
done
cd "$work" || exit 1

# ---- an unwritable target directory: permissions do not stop root, /proc and /sys do -----------------------------
for target in /proc/sqz-fault-test.npy /sys/sqz-fault-test.npy /proc/self/sqz-fault-test.h5; do
  "$sqz" life triangle:20 --steps 1 --backend "$backend" --out "$target" >/dev/null 2>"$work/stderr"
  rc=$?
  if [ $rc -ne 1 ] || ! grep -qE "$target: .*(No such file or directory|Permission denied|Read-only file system)" "$work/stderr"; then
    fail "unwritable: --out $target: exit $rc"
    head -c 800 "$work/stderr"
  else
    echo "ok: unwritable: --out $target: exit 1 ($(grep -oE '(No such file or directory|Permission denied|Read-only file system)' "$work/stderr" | head -n 1))"
  fi
done
if [ "$(id -u)" != 0 ]; then # a read-only folder stops everyone else
  mkdir "$work/ro" && precious "$work/ro/o.npy" && chmod 555 "$work/ro"
  "$sqz" life triangle:20 --steps 1 --backend "$backend" --out "$work/ro/o.npy" >/dev/null 2>"$work/stderr"
  rc=$?
  (cd "$work/ro" && intact o.npy && only o.npy) >/dev/null || fail "read-only folder: --out clobbered or a file left"
  [ $rc -eq 1 ] && grep -q 'Permission denied' "$work/stderr" || fail "read-only folder: exit $rc"
  chmod 755 "$work/ro"
fi

# ---- killed mid-write (SIGKILL, which nothing can catch): the previous --out is intact ----------------------------
# heat f64 on triangle:2400 streams a 46 MB .npy; the kill comes once its temporary holds data, and the run that
# follows replaces the output whole. The leftover temporary is the only other file.
mkdir "$work/kill" && cd "$work/kill" || exit 1
caught=0
for attempt in 1 2 3 4 5; do
  rm -f ./*
  precious o.npy
  "$sqz" heat triangle:2400 --steps 0 --type f64 --backend "$backend" --out o.npy >/dev/null 2>&1 &
  pid=$!
  while kill -0 $pid 2>/dev/null; do
    if [ -n "$(find . -name 'o.npy.*' -size +64k)" ]; then
      kill -KILL $pid
      break
    fi
  done
  { wait $pid; } 2>/dev/null # no "Killed" line from the shell
  rc=$?
  if [ $rc -eq 137 ]; then
    caught=1
    if ! why=$(intact o.npy); then fail "SIGKILL mid-write: $why"; fi
    left=$(ls -A | grep -vx o.npy | tr '\n' ' ')
    [[ $left =~ ^(o\.npy\.[A-Za-z0-9]{6}(\.[A-Za-z0-9]{6})?\ )+$ ]] ||
      fail "SIGKILL mid-write: left '$left' (expected only temporaries o.npy.XXXXXX)"
    echo "ok: SIGKILL mid-write (attempt $attempt): o.npy intact, temporaries left: $left"
    break
  fi
done
[ $caught -eq 1 ] || fail "SIGKILL mid-write: the run always finished before a kill (5 attempts)"
"$sqz" heat triangle:2400 --steps 0 --type f64 --backend "$backend" --out o.npy >/dev/null 2>&1 || fail "run after the kill"
head -c 6 o.npy | cmp -s - <(printf '\223NUMPY') || fail "the run after the kill did not write o.npy"
cd "$work" || exit 1

if [ $fails -ne 0 ]; then
  echo "fault.sh: $fails failure(s)"
  exit 1
fi
echo "fault.sh: all fault-injection checks passed"
