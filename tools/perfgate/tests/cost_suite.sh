#!/usr/bin/env bash
# Instruction counts of an unchanged Google Benchmark suite (perfgate cost --suite): every benchmark kind the suite
# holds (function, argument, fixture, lambda) gets its instructions and heap allocations per iteration; two runs give
# the same counts, whatever iteration counts Google Benchmark chose; a baseline of them passes a third run and fails a planted loop of 100
# additions in one benchmark, naming it and no other; the manifest's cost gate with "suite": true measures the same;
# bisect's exact mode finds the commit that added a loop, with no cost program; a program that is not a suite is
# refused with one line.
# Usage: cost_suite.sh PERFGATE SUITE
set -euo pipefail
perfgate=$(realpath "$1")
suite=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "cost_suite: FAIL: $*" >&2; exit 1; }
counts() { jq -r '.benchmarks[] | "\(.name) \(.instructions) \(.heap_allocations)"' "$1"; }

"$perfgate" cost --suite --out first.json -- "$suite" >first.log 2>&1 || { cat first.log >&2; fail "cost --suite failed"; }
for name in BM_Accumulate/64 BM_Accumulate/4096 Strings/Join Lambda/square_roots; do
  jq -e --arg n "$name" '.benchmarks[] | select(.name == $n and .instructions > 0)' first.json >/dev/null ||
    { cat first.log >&2; fail "no instruction count for $name"; }
done
grep -q "instructions and [0-9]* heap allocations per iteration" first.log || fail "the counts are not said to be per iteration"
# Heap allocations per iteration: none in a sum over a vector, some in joining strings (the joined string grows).
[[ $(jq -r '.benchmarks[] | select(.name == "BM_Accumulate/64") | .heap_allocations' first.json) == 0 ]] ||
  fail "BM_Accumulate/64 allocates: $(jq -c '.benchmarks[0]' first.json)"
jq -e '.benchmarks[] | select(.name == "Strings/Join") | .heap_allocations >= 1' first.json >/dev/null ||
  fail "Strings/Join counts no allocation: $(jq -c '.benchmarks[] | select(.name == "Strings/Join")' first.json)"
# Another run with the suite's own minimum time, which perfgate keeps: Google Benchmark runs other iteration counts, and
# the counts per iteration stay.
"$perfgate" cost --suite --out second.json -- "$suite" --benchmark_min_time=0.4 >second.log 2>&1 || { cat second.log >&2; fail "the second run failed"; }
iterations() { sed -n "s|^$2: .*last call ran \([0-9]*\) iterations.*|\1|p" "$1"; }
for name in BM_Accumulate/64 BM_Accumulate/4096; do
  first_n=$(iterations first.log "$name") second_n=$(iterations second.log "$name")
  [[ -n $first_n && -n $second_n && $first_n != "$second_n" ]] ||
    { cat first.log second.log >&2; fail "$name ran $first_n and $second_n iterations: the runs were meant to differ"; }
done
[[ $(counts first.json) == "$(counts second.json)" ]] || { diff <(counts first.json) <(counts second.json) >&2; fail "two runs gave different counts"; }
# 64 more values accumulated: BM_Accumulate/4096 costs more per iteration than /64 (the count follows the work).
small=$(jq -r '.benchmarks[] | select(.name == "BM_Accumulate/64") | .instructions' first.json)
large=$(jq -r '.benchmarks[] | select(.name == "BM_Accumulate/4096") | .instructions' first.json)
awk -v s="$small" -v l="$large" 'BEGIN { exit !(l > 32 * s) }' || fail "BM_Accumulate/4096 ($large) is not far above /64 ($small)"

"$perfgate" update --allow-dirty --baseline baseline.json --reason 'instructions of the unchanged suite' \
  --track instructions:either:exact --results first.json >/dev/null
"$perfgate" cost --suite --out third.json -- "$suite" >/dev/null 2>&1
"$perfgate" compare --results third.json --baseline baseline.json >unchanged.txt 2>&1 || { cat unchanged.txt >&2; fail "an unchanged suite failed its own counts"; }
PLANT_EXTRA_LOOP=1 "$perfgate" cost --suite --out planted.json -- "$suite" >/dev/null 2>&1
set +e
"$perfgate" compare --results planted.json --baseline baseline.json >planted.txt 2>&1
status=$?
set -e
[[ $status == 1 ]] || { cat planted.txt >&2; fail "a planted loop: exit $status, not 1"; }
grep -q '^FAIL: BM_Accumulate/4096 instructions' planted.txt || { cat planted.txt >&2; fail "the planted benchmark is not named"; }
[[ $(grep -c '^FAIL:' planted.txt) == 1 ]] || { cat planted.txt >&2; fail "a benchmark without the plant failed"; }

# The manifest's cost gate, "suite": true: the same counts through perfgate gate.
mkdir -p gates/baselines build
cp baseline.json gates/baselines/suite_cost.json
cat >gates/gates.json <<JSON
{"schema_version": 2, "baseline_path": "baselines/{name}.json",
 "gates": [{"name": "suite_cost", "label": "cost", "kind": "cost", "suite": true, "command": ["$suite"]}]}
JSON
"$perfgate" gate --manifest gates/gates.json --build build --only suite_cost >gate.log 2>&1 || { cat gate.log >&2; fail "the suite's cost gate failed unchanged"; }
[[ $(counts build/results/suite_cost.json) == "$(counts first.json)" ]] || fail "the gate measured other counts than cost --suite"

# Exact bisection with no cost program: a repository of 8 commits of a suite whose benchmark loops N times, N in a
# committed header; commit 5 adds a loop of 50 additions per iteration. bisect --cost on the suite's gate names it.
repo=$work/repo
mkdir -p "$repo"
(
  cd "$repo"
  git init -q
  git config user.name t && git config user.email t@t.example && git config commit.gpgsign false
  cat >bench.cpp <<'CPP'
#include <benchmark/benchmark.h>
#include "n.h"
static void BM_Loop(benchmark::State& state) {
  for (auto _ : state) {
    unsigned long sum = 0;
    for (unsigned long i = 0; i < N; ++i) benchmark::DoNotOptimize(sum += i);
#ifdef ADDED_WORK
    for (unsigned long i = 0; i < 50; ++i) benchmark::DoNotOptimize(sum += i);
#endif
  }
}
BENCHMARK(BM_Loop);
BENCHMARK_MAIN();
CPP
  cat >gates.json <<'JSON'
{"schema_version": 2, "baseline_path": "{name}.json",
 "build": {"directory": "build", "steps": [["sh", "-c", "mkdir -p build && c++ -O1 -o build/bench bench.cpp -lbenchmark -lpthread"]]},
 "gates": [{"name": "loop_cost", "kind": "cost", "suite": true, "label": "cost", "command": ["bench"], "timeout_seconds": 120}]}
JSON
  echo "#define N 1000ul" >n.h
  git add -A && git commit -qm "commit 0"
  extra=""
  for i in $(seq 1 7); do
    [[ $i == 5 ]] && extra="#define ADDED_WORK 1"
    printf '#define N %sul\n%s\n' "$((1000 + i))" "$extra" >n.h
    git commit -qam "commit $i"
  done
)
culprit=$(git -C "$repo" log --format='%H %s' | awk '$3 == "5" { print $1 }')
set +e
(cd "$repo" && "$perfgate" bisect --manifest gates.json --cost loop_cost --work "$work/probes" --json "$work/bisect.json" HEAD~7 HEAD) >bisect.txt 2>&1
status=$?
set -e
[[ $status == 0 && $(jq -r .first_bad "$work/bisect.json") == "$culprit" ]] ||
  { cat bisect.txt >&2; fail "bisect on the suite's instructions: exit $status, not commit 5 ($culprit)"; }

# Not a suite: one line, exit 2.
set +e
"$perfgate" cost --suite --out bad.json -- /bin/true >bad.out 2>bad.err
status=$?
set -e
[[ $status == 2 && $(wc -l <bad.err) == 1 ]] || { cat bad.err >&2; fail "a program that is not a suite: exit $status"; }
echo "cost_suite: 4 benchmarks counted per iteration alike in two runs, the planted loop caught, its commit bisected: PASS"
