#!/usr/bin/env bash
# perfgate bisect's timing mode end to end on a generated repository: a Google Benchmark suite whose benchmark sums
# WORK numbers, WORK in a committed header, and COMMITS commits after the first, each adding 0.05 % to WORK. With
# PLANT = k, commit k also makes WORK 1.5 times larger (a 1.5x slowdown); with PLANT = none nothing else changes.
# With a plant, bisect must name commit k, confirmed against its parent; without one, it must name no commit.
# Prints one line: "bisect_timing: COMMITS commits, plant PLANT: OUTCOME, first bad FIRST_BAD, N probes, S s".
# Usage: bisect_timing.sh PERFGATE [COMMITS (default 8)] [PLANT (default 5; none)]
set -euo pipefail
perfgate=$(realpath "$1")
commits=${2:-8}
plant=${3:-5}
work=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT
fail() { echo "bisect_timing_test: $*" >&2; exit 1; }
[[ -f /usr/include/benchmark/benchmark.h ]] || fail "needs Google Benchmark (Debian package libbenchmark-dev)"
repo=$work/repo
mkdir -p "$repo"
cd "$repo"
git init -q
git config user.name t && git config user.email t@t.example && git config commit.gpgsign false
cat >bench.cc <<'CPP'
#include <benchmark/benchmark.h>
#include "work.h"
static void BM_Sum(benchmark::State& state) {
  for (auto _ : state) {
    unsigned long sum = 0;
    for (unsigned long i = 0; i < WORK; ++i) benchmark::DoNotOptimize(sum += i);
  }
}
BENCHMARK(BM_Sum);
BENCHMARK_MAIN();
CPP
cat >gates.json <<'JSON'
{"schema_version": 2, "baseline_path": "{name}.json",
 "build": {"directory": "build", "steps": [["sh", "-c", "mkdir -p build && c++ -O2 -o build/bench bench.cc -lbenchmark -lpthread"]]},
 "gates": [{"name": "sum", "kind": "baseline", "label": "performance", "command": ["bench", "--benchmark_min_time=0.05"], "timeout_seconds": 60}]}
JSON
work_items=200000
echo "#define WORK ${work_items}ul" >work.h
git add -A && git commit -qm "commit 0"
for i in $(seq 1 "$commits"); do
  work_items=$((work_items + work_items / 2000))
  [[ $i == "$plant" ]] && work_items=$((work_items * 3 / 2))
  echo "#define WORK ${work_items}ul" >work.h
  git commit -qam "commit $i"
done
start=$(date +%s)
set +e
"$perfgate" bisect --manifest gates.json --gate sum --filter '^BM_Sum$' --work "$work/probes" --json "$work/bisect.json" \
  "HEAD~$commits" HEAD >"$work/out.txt" 2>&1
status=$?
set -e
seconds=$(( $(date +%s) - start ))
[[ -s $work/bisect.json ]] || fail "exit $status and no JSON: $(tail -5 "$work/out.txt")"
outcome=$(jq -r .outcome "$work/bisect.json")
first_bad=$(jq -r '.first_bad // "none"' "$work/bisect.json")
named="none"
[[ $first_bad != none ]] && named=$(git log -1 --format=%s "$first_bad" | sed 's/commit //')
probes=$(jq '[.probes[] | select(.index != 0)] | length' "$work/bisect.json")
echo "bisect_timing: $commits commits, plant $plant: $outcome, first bad $named, $probes probes, $seconds s"
[[ $(git worktree list | wc -l) == 1 ]] || fail "worktrees left: $(git worktree list)"
if [[ $plant == none ]]; then
  [[ $first_bad == none && $status != 0 || $outcome == no_change && $status == 0 ]] ||
    fail "named commit $named with no planted change (exit $status): $(cat "$work/out.txt")"
else
  [[ $status == 0 && $outcome == culprit && $named == "$plant" ]] ||
    fail "did not name commit $plant (exit $status, $outcome, $named): $(cat "$work/out.txt")"
  grep -q "confirming .* against its parent" "$work/out.txt" || fail "named a commit without confirming it"
fi
