# expect.sh — sourced by the CLI test scripts: expect CODE PATTERN -- command..., counting failures in $fails.
# The command must exit with CODE and print PATTERN (grep -E) on stdout or stderr.
expect() {
  local code="$1" pattern="$2"
  shift 3
  local out rc
  out="$("$@" 2>&1)"
  rc=$?
  if [ "$rc" -ne "$code" ] || ! printf '%s' "$out" | grep -Eq -- "$pattern"; then
    echo "FAIL: $* -> exit $rc (want $code), output:"
    printf '%s\n' "$out" | head -20
    fails=$((fails + 1))
  else
    echo "ok: $*"
  fi
}
