#!/usr/bin/env bash
# perfgate bisect end to end on a generated repository of 33 commits: a C program whose measured step loops N times
# under callgrind's client requests, N in a committed header. Every commit adds 0.01 % to N; one, in the middle, makes
# the step also call a new function that adds 5 %. bisect must name that commit in at most ceil(log2 33) + 1 = 7 probes
# (endpoints included), each probe one build and one run, name the new function as what moved the count, write the
# probes as JSON, and leave no worktree behind; with the commit before it skipped, name the range. ab --cost names the
# new function too. Then the cost gate of the same repository, with a baseline recorded at
# the first commit, judged at the last: the failing count's differential profile names the new function in the
# terminal, in verdicts.json and in the report's differential flame graph.
# Usage: bisect.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
work=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT
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
__attribute__((noinline, unused)) static void added_work(volatile unsigned long* sum) {
  for (unsigned long i = 0; i < 5000; ++i) *sum += i;
}
int main(void) {
  volatile unsigned long sum = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (int step = 0; step < 2; ++step) {
    CALLGRIND_ZERO_STATS;
    for (unsigned long i = 0; i < N; ++i) sum += i;
#ifdef ADDED_WORK
    added_work(&sum);
#endif
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
extra=""
for i in $(seq 1 32); do
  n=$((n + 10))
  [[ $i == 20 ]] && extra="#define ADDED_WORK 1"
  printf '#define N %sul\n%s\n' "$n" "$extra" >n.h
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
[[ $(jq -r '.functions.BM_Loop.by_self[0].function' "$work/bisect.json") == added_work ]] ||
  fail "the culprit's differential does not name added_work first: $(jq -c .functions "$work/bisect.json")"
grep -A3 "^functions that moved BM_Loop" "$work/out.txt" | grep -q "added_work" || fail "the terminal does not name added_work: $(cat "$work/out.txt")"

# --skip: commit 19 stepped over without building; the culprit is then between 18 and 20, and named only as a range.
c19=$(git log --format='%H %s' | awk '$3 == "19" { print $1 }')
set +e
"$perfgate" bisect --manifest gates.json --cost loop_cost --skip "$c19" --work "$work/probes" --json "$work/skip.json" HEAD~32 HEAD >"$work/skip.txt" 2>&1
status=$?
set -e
[[ $status == 3 && $(jq -r .outcome "$work/skip.json") == skipped ]] || fail "with commit 19 skipped: exit $status, $(jq -r .outcome "$work/skip.json")"
grep -q "${c19:0:12} skipped (--skip)" "$work/skip.txt" || fail "commit 19 was not stepped over: $(cat "$work/skip.txt")"

# ab --cost alone: instructions of the first and last commits, the functions that moved them.
set +e
"$perfgate" ab --manifest gates.json --cost loop_cost --work "$work/ab" --json "$work/ab.json" HEAD~32 HEAD >"$work/ab.txt" 2>&1
status=$?
set -e
[[ $status == 1 ]] || fail "ab --cost exited $status with 5 % more instructions: $(cat "$work/ab.txt")"
[[ $(jq -r '.instructions.comparisons[0].functions.by_self[0].function' "$work/ab.json") == added_work ]] ||
  fail "ab --cost does not name added_work: $(cat "$work/ab.txt")"

# The cost gate: a baseline (and its function profile) recorded at the first commit, the last commit judged.
git checkout -q HEAD~32
sh -c "mkdir -p build && cc -O1 -o build/loop loop.c"
echo "not perfgate's" >"$work/victim.txt"
ln -s "$work/victim.txt" "$work/first.functions.tsv"  # a link at the derived profile's path is replaced, never followed
"$perfgate" cost --out "$work/first.json" -- build/loop >/dev/null
[[ -f $work/first.functions.tsv && ! -L $work/first.functions.tsv && -s $work/first.functions.tsv ]] || fail "cost kept no function profile beside its results"
[[ $(cat "$work/victim.txt") == "not perfgate's" ]] || fail "cost wrote its function profile through a link"
# The commit measured: the tree's HEAD (build/ is untracked, so the tree is clean), unless the caller gives one.
[[ $(jq -r .context.git_sha "$work/first.json") == "$(git rev-parse HEAD)" ]] ||
  fail "cost recorded the commit $(jq -c .context.git_sha "$work/first.json"), not HEAD $(git rev-parse HEAD)"
"$perfgate" cost --out "$work/given.json" --context git_sha=given -- build/loop >/dev/null
[[ $(jq -r .context.git_sha "$work/given.json") == given ]] || fail "cost replaced the commit its caller gave"
"$perfgate" update --allow-dirty --reason "recorded at the first commit" --track instructions:either:rel=0.005 --results "$work/first.json" --baseline loop_cost.json >/dev/null
grep -q "^region" loop_cost.functions.tsv || fail "update kept no function profile beside the baseline"
git checkout -q -
sh -c "mkdir -p build && cc -O1 -o build/loop loop.c"
set +e
"$perfgate" gate --manifest gates.json --build build --results-dir "$work/results" --verdicts "$work/verdicts.json" >"$work/gate.txt" 2>&1
status=$?
set -e
[[ $status == 1 ]] || fail "the gate exited $status with 5 % more instructions: $(cat "$work/gate.txt")"
grep -A4 "^functions that moved BM_Loop" "$work/gate.txt" | grep -Eq '^ +[+][0-9]+ +9[0-9][.][0-9] % +0 -> [0-9]+ +added_work$' ||
  fail "the gate's terminal does not name added_work with its added instructions: $(cat "$work/gate.txt")"
[[ $(jq -r '.checks[] | select(.field == "instructions") | .functions.by_self[0].function' "$work/verdicts.json") == added_work ]] ||
  fail "verdicts.json does not name added_work: $(jq -c '.checks[]' "$work/verdicts.json")"
set +e
"$perfgate" report --manifest gates.json --results-dir "$work/results" --out-dir "$work/report" >/dev/null 2>&1
set -e
flame=$(grep -l "differential flame graph" "$work"/report/plots/*.svg || true)
[[ -n $flame ]] || fail "the report has no differential flame graph: $(ls "$work/report")"
grep -q "<title>added_work: 0 -> [0-9]* instructions (+" "$flame" || fail "the flame graph has no frame for added_work"
grep -q "added_work" "$work/report/report.html" || fail "the report's page does not name added_work"

# A profile that cannot be read only explains nothing: the verdict and its exit status stand, with a note.
cp "$work/results/loop_cost.functions.tsv" "$work/kept.tsv"
printf 'garbage\r\n' >"$work/results/loop_cost.functions.tsv"
set +e
"$perfgate" compare --results "$work/results/loop_cost.json" --baseline loop_cost.json >"$work/garbled.txt" 2>&1
status=$?
set -e
[[ $status == 1 ]] && grep -q "^note: BM_Loop: no differential: .*not a perfgate function profile" "$work/garbled.txt" ||
  fail "an unreadable profile changed the verdict (exit $status): $(cat "$work/garbled.txt")"
cp "$work/kept.tsv" "$work/results/loop_cost.functions.tsv"

# A ratchet keeps the baselined count, and so the profile of that count, not the measured one.
"$perfgate" update --allow-dirty --reason "lower is better" --track instructions:lower:rel=0.005 --results "$work/first.json" \
  --baseline lower.json >/dev/null
"$perfgate" update --allow-dirty --ratchet --reason "ratchet" --results "$work/results/loop_cost.json" --baseline lower.json >/dev/null
set +e
"$perfgate" compare --results "$work/results/loop_cost.json" --baseline lower.json >"$work/ratchet.txt" 2>&1
set -e
grep -q "^functions that moved BM_Loop" "$work/ratchet.txt" || fail "after a ratchet the baseline's profile is not of its count: $(cat "$work/ratchet.txt")"
echo "bisect_test: commit 20 of 33 named in $probes probes with added_work as its cause, no worktree left; the cost gate names it too"
