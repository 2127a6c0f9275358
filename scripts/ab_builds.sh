# ab_builds.sh — sourced by the A/B benchmark scripts (gpu_ab.sh, gpu_swar_word.sh): this tree and a base commit built side by side, sqz only.
# ab_builds TOP OUT BASE: builds this tree in TOP/new and BASE (a git worktree in TOP/base-src, removed after) in
# TOP/base, Release, no tests, logs in OUT/build.{new,base}.log; with BASE empty or no git history, TOP/new only.
# Returns 1 when a build fails (the log's end printed).
ab_builds() {
  local top=$1 out=$2 base=$3 builds=new t src
  if [ -n "$base" ] && git rev-parse --git-dir >/dev/null 2>&1; then
    rm -rf "$top/base-src"
    git worktree prune
    if git worktree add --detach "$top/base-src" "$base" >"$out/worktree.log" 2>&1; then builds="new base"; else cat "$out/worktree.log"; fi
  fi
  for t in $builds; do
    src=.
    [ "$t" = base ] && src=$top/base-src
    echo "== build $t ($(git -C "$src" log -1 --format='%h %s' 2>/dev/null | cut -c1-80))"
    if ! cmake -S "$src" -B "$top/$t" -DCMAKE_BUILD_TYPE=Release -DSQZ_BUILD_TESTS=OFF >"$out/build.$t.log" 2>&1 ||
      ! cmake --build "$top/$t" -j"$(nproc)" --target sqz_cli >>"$out/build.$t.log" 2>&1; then
      tail -30 "$out/build.$t.log"
      return 1
    fi
  done
  [ -d "$top/base-src" ] && git worktree remove --force "$top/base-src" >/dev/null 2>&1
  return 0
}
