#!/usr/bin/env bash
# cli_complexity.sh — every function of the CLI (tools/*.c) within MAX_LINES lines and a cyclomatic complexity of
# MAX_COMPLEXITY (traditional McCabe: one plus each if, loop, case, ?:, && and ||), as pmccabe measures them; names each
# function above either limit and fails. Exit 77 (ctest: skipped) where pmccabe is not installed.
# usage: cli_complexity.sh SOURCE_DIR [MAX_LINES [MAX_COMPLEXITY]]   (defaults 60 and 25)
set -u
src="${1:?usage: cli_complexity.sh SOURCE_DIR [MAX_LINES [MAX_COMPLEXITY]]}"
max_lines="${2:-60}"
max_cc="${3:-25}"
if ! command -v pmccabe >/dev/null 2>&1; then
  echo "SKIP: pmccabe is not installed (apt-get install pmccabe), so the CLI's function sizes are not measured"
  exit 77
fi
files=("$src"/tools/*.c)
[ -e "${files[0]}" ] || { echo "FAIL: no tools/*.c under $src"; exit 1; }
# pmccabe's columns: modified complexity, traditional complexity, statements, first line, lines, file(line): name
table="$(pmccabe "${files[@]}")" || { echo "FAIL: pmccabe could not read the sources"; exit 1; }
[ -n "$table" ] || { echo "FAIL: pmccabe found no function in tools/*.c"; exit 1; }
printf '%s\n' "$table" | awk -v L="$max_lines" -v C="$max_cc" -F'\t' '
  { n++; where = $6; sub(/^.*\//, "tools/", where)
    if ($5 > maxl) { maxl = $5; lname = where }
    if ($2 > maxc) { maxc = $2; cname = where }
    if ($5 > L || $2 > C) { bad++; printf "FAIL: %s: %d lines (at most %d), complexity %d (at most %d)\n", where, $5, L, $2, C } }
  END {
    printf "%d functions in tools/*.c; the longest %s (%d lines), the most complex %s (complexity %d)\n",
           n, lname, maxl, cname, maxc
    exit bad ? 1 : 0 }'
