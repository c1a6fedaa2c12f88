#!/usr/bin/env bash
# perfgate bisect end to end on a generated repository of 33 commits: a C program whose measured step loops N times
# under callgrind's client requests, N in a committed header. Every commit adds 0.01 % to N; one, in the middle, adds
# 5 %. bisect must name that commit in at most ceil(log2 33) + 1 = 7 probes (endpoints included), each probe one build
# and one run, write the probes as JSON, and leave no worktree behind.
# Usage: bisect.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "bisect_test: $*" >&2; exit 1; }
command -v valgrind >/dev/null && command -v cc >/dev/null || fail "needs valgrind and a C compiler"
repo=$work/repo
mkdir -p "$repo"
cd "$repo"
git init -q
git config user.name t && git config user.email t@t.example && git config commit.gpgsign false
cat >loop.c <<'C'
#include <valgrind/callgrind.h>
#include "n.h"
int main(void) {
  volatile unsigned long sum = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (int step = 0; step < 2; ++step) {
    CALLGRIND_ZERO_STATS;
    for (unsigned long i = 0; i < N; ++i) sum += i;
    CALLGRIND_DUMP_STATS_AT("BM_Loop");
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  return 0;  /* sum is volatile: the loop runs whatever the optimiser sees */
}
C
cat >gates.json <<'JSON'
{"schema_version": 2, "baseline_path": "{name}.json",
 "build": {"directory": "build", "steps": [["sh", "-c", "mkdir -p build && cc -O1 -o build/loop loop.c"]]},
 "gates": [{"name": "loop_cost", "kind": "cost", "label": "cost", "command": ["loop"], "timeout_seconds": 60}]}
JSON
n=100000
echo "#define N ${n}ul" >n.h
git add -A && git commit -qm "commit 0"
for i in $(seq 1 32); do
  if [[ $i == 20 ]]; then n=$((n + 5000)); else n=$((n + 10)); fi
  echo "#define N ${n}ul" >n.h
  git commit -qam "commit $i"
done
culprit=$(git log --format='%H %s' | awk '$3 == "20" { print $1 }')
set +e
"$perfgate" bisect --manifest gates.json --cost loop_cost --work "$work/probes" --json "$work/bisect.json" HEAD~32 HEAD >"$work/out.txt" 2>&1
status=$?
set -e
[[ $status == 0 ]] || fail "exit $status: $(cat "$work/out.txt")"
[[ $(jq -r .outcome "$work/bisect.json") == culprit && $(jq -r .first_bad "$work/bisect.json") == "$culprit" ]] ||
  fail "named $(jq -r '.outcome + " " + (.first_bad // "none")' "$work/bisect.json"), not commit 20 ($culprit): $(cat "$work/out.txt")"
probes=$(jq '.probes | length' "$work/bisect.json")
(( probes <= 7 )) || fail "$probes probes for 33 commits (at most 7)"
grep -q "first bad commit ${culprit:0:12} commit 20; BM_Loop +" "$work/out.txt" || fail "the verdict does not name commit 20: $(tail -1 "$work/out.txt")"
[[ $(git worktree list | wc -l) == 1 ]] || fail "worktrees left: $(git worktree list)"
echo "bisect_test: commit 20 of 33 named in $probes probes, no worktree left"
