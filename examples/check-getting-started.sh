#!/usr/bin/env bash
# Builds a new Google Benchmark project only from docs/getting-started.md's code blocks, in order, and checks what the
# page promises: the first ctest fails and prints the command that creates the baseline; that command runs as
# printed; the page's own commands create the baseline and pass the gate; a one-count change and a 3x slowdown each
# fail with the benchmark, the change and the fix; each printed fix runs as printed and passes the gate again; a
# metric no longer reported is dropped by its printed fix; an advisory timing's breach shows as a WARNING and as
# Skipped in ctest, never as a plain pass; the timing's band, learned from the noise of the create command's runs, passes 5
# unchanged runs and fails a 1.25x slowdown (the test runs alone: RUN_SERIAL). The suite's second count is 0 in every repetition, so Google Benchmark writes
# its coefficient of variation as NaN: the gate reads that output and passes.
# The only thing the test adds is a benchmark body (the page's suite with planted changes switched by environment
# variables). Blocks it does not run say why, in its output. /opt/perfgate is replaced by a prefix in the work
# folder, and ./perfgate is this checkout. The work folder is a new one under ${TMPDIR:-/tmp}, outside any git
# repository as a new project may be (the baseline's provenance must say so); removed when the test passes.
# Usage: examples/check-getting-started.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
page="$root/docs/getting-started.md"
[[ $# -eq 0 ]] || { echo "usage: $0" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/perfgate-getting-started.XXXXXX")
echo "getting-started: working in $work"
if git -C "$work" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "getting-started: $work is inside a git repository; set TMPDIR to a folder outside one" >&2
  exit 1
fi
mkdir -p "$work/project"
project="$work/project"
prefix="$work/prefix"
ln -s "$root" "$project/perfgate"
# The compiler cache through CMake's environment default, so that the page's commands stay as written. Paths under
# the work folder (a new one each run; the checkout reached through its link) are hashed relative to it, so a run
# finds the objects of the run before it.
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1
fail() { echo "getting-started: FAIL: $*" >&2; exit 1; }
step() { echo "getting-started: $*"; }

# The blocks: info string and text, one file per block.
blocks="$work/blocks"
mkdir -p "$blocks"
awk -v out="$blocks" '
  /^```/ && !inside { inside = 1; n++; info = substr($0, 4); print info > (out "/" n ".info"); printf "" > (out "/" n ".text"); next }
  /^```/ && inside { inside = 0; next }
  inside { print >> (out "/" n ".text") }
' "$page"
count=$(ls "$blocks"/*.info | wc -l)
(( count > 0 )) || fail "no code blocks in $page"

# The benchmark body the test adds: the page's suite, with planted changes switched by environment variables.
write_planted_suite() {
  cat >"$project/bench_sorting.cpp" <<'EOF'
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

static int knob(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : fallback;
}

static void BM_Sort(benchmark::State& state) {
  const int extra = knob("PLANT_EXTRA_COMPARISONS", 0), slowdown = knob("PLANT_SLOWDOWN", 1),
            quarter_more = knob("PLANT_QUARTER_MORE", 0);  // every fourth iteration sorts once more: 1.25x the work
  std::mt19937 generator(42);
  std::vector<int> data(static_cast<size_t>(state.range(0)));
  for (auto& x : data) x = static_cast<int>(generator());
  int64_t comparisons = 0, moves = 0;
  int64_t iteration = 0;
  for (auto _ : state) {
    const int rounds = slowdown + (quarter_more != 0 && iteration++ % 4 == 3 ? 1 : 0);
    for (int round = 0; round < rounds; ++round) {
      auto copy = data;
      const int* before = copy.data();
      comparisons = 0;
      std::sort(copy.begin(), copy.end(), [&](int a, int b) { ++comparisons; return a < b; });
      moves += copy.data() != before;
      benchmark::DoNotOptimize(copy.data());
    }
    comparisons += extra;
  }
  if (knob("PLANT_NO_COUNTER", 0) == 0) state.counters["comparisons"] = static_cast<double>(comparisons);
  state.counters["moves"] = static_cast<double>(moves);  // 0 in every repetition: Google Benchmark writes its cv as NaN
}
BENCHMARK(BM_Sort)->Arg(1024)->Arg(16384);
BENCHMARK_MAIN();
EOF
}

# run_block N: runs block N's text in the project folder with bash -e (prefix substituted); output in $work/N.log.
run_block() {
  local n=$1 text
  text=$(sed "s|/opt/perfgate|$prefix|g" "$blocks/$n.text")
  (cd "$project" && bash -e -c "$text") >"$work/$n.log" 2>&1
}

# printed_fix LOG: the command a failing compare printed after "accept it with:" (or "create it with:").
printed_fix() {
  local log=$1
  if grep -q 'create it with: ' "$log"; then
    sed -n 's/.*create it with: //p' "$log" | head -1
  else
    grep -A1 'accept it with:' "$log" | tail -1 | sed 's/^  //'
  fi
}

gate() {  # gate LOG: the page's ctest command; its exit status
  set +e
  (cd "$project" && ctest --test-dir build -L performance --output-on-failure) >"$1" 2>&1
  local status=$?
  set -e
  return $status
}

# A band from noise lets about one unchanged run in a hundred fail a timing (measured: docs/results.md); a step that
# expects the gate to pass runs it once more where only timings failed, so that the step fails on what it checks.
only_timings_failed() {  # only_timings_failed LOG: LOG has FAIL lines, and each is a real_time's
  grep -q '^FAIL: ' "$1" && ! grep '^FAIL: ' "$1" | grep -qv ' real_time = '
}
gate_passes() {  # gate_passes LOG: the gate passes, or passes when measured again after a timing's false alarm
  gate "$1" && return 0
  only_timings_failed "$1" || return 1
  step "note: a timing's false alarm ($(grep -m1 '^FAIL: ' "$1" | cut -c1-150)); measured again"
  gate "$1"
}

expect_in() {  # expect_in LOG TEXT...: every TEXT occurs in LOG
  local log=$1
  shift
  for text in "$@"; do grep -qF -- "$text" "$log" || { cat "$log" >&2; fail "'$text' not in $(basename "$log")"; }; done
}

run_fix() {  # run_fix LOG: runs the fix LOG printed, as printed
  local fix
  fix=$(printed_fix "$1")
  [[ -n $fix ]] || { cat "$1" >&2; fail "no fix printed in $(basename "$1")"; }
  step "running the printed fix: $fix"
  (cd "$project" && bash -c "$fix") >"$work/fix.log" 2>&1 || { cat "$work/fix.log" >&2; fail "the printed fix does not run: $fix"; }
}

sh_run=0
for n in $(seq 1 "$count"); do
  info=$(cat "$blocks/$n.info")
  case $info in
    console)
      step "block $n (console): not run: it shows output"
      continue ;;
    "cmake file="*)
      file=${info#cmake file=}
      cp "$blocks/$n.text" "$project/$file"
      step "block $n: wrote $file from the page"
      continue ;;
    "cpp file="*)
      write_planted_suite
      step "block $n (${info#cpp file=}): replaced by the same suite with planted changes switched by environment variables"
      continue ;;
    sh) ;;
    *) fail "block $n has the info string '$info', which this test does not know" ;;
  esac
  if grep -q 'apt-get install' "$blocks/$n.text"; then
    # Not run: it installs system packages as root. Every package it names must be installed here.
    for package in $(sed -n 's/.*apt-get install //p' "$blocks/$n.text"); do
      dpkg -s "$package" >/dev/null 2>&1 || fail "block $n names the package $package, which is not installed here"
    done
    step "block $n (apt-get): not run, it installs system packages as root; each package it names is installed here"
    continue
  fi
  sh_run=$((sh_run + 1))
  step "block $n: running the page's commands ($sh_run)"
  set +e
  run_block "$n"
  status=$?
  set -e
  case $sh_run in
    1) (( status == 0 )) || { cat "$work/$n.log" >&2; fail "installing perfgate from the page failed"; } ;;
    2)  # configure, build, first ctest: fails, printing the command that creates the baseline
      (( status != 0 )) || fail "the first ctest passed without a baseline"
      expect_in "$work/$n.log" "no baseline" "create it with:" "--track comparisons:either:exact" "--track moves:either:exact" \
        "--track real_time:lower:noise"
      run_fix "$work/$n.log"
      [[ -f $project/baselines/sorting.json ]] || fail "the printed create command wrote no baseline"
      expect_in "$project/baselines/sorting.json" '"git_sha": "none (not in a git repository)"'
      rm -rf "$project/baselines" ;;
    3)  # the page's create command
      (( status == 0 )) || { cat "$work/$n.log" >&2; fail "the page's create command failed"; }
      expect_in "$work/$n.log" "created baselines/sorting.json" "from 5 runs of the suite" "from the noise of 5 runs"
      create_block=$n ;;
    4)  # the gate passes
      (( status == 0 )) || { only_timings_failed "$work/$n.log" && gate_passes "$work/$n-again.log"; } ||
        { cat "$work/$n.log" >&2; fail "the gate does not pass after the first baseline"; }
      # Google Benchmark's own output, as read: the counter that is always 0 has a NaN coefficient of variation.
      expect_in "$project/build/results/sorting.json" '"moves": NaN'
      step "the band from noise: 5 unchanged runs pass, a 1.25x slowdown fails"
      for run in 1 2 3 4 5; do
        gate_passes "$work/unchanged-$run.log" || { cat "$work/unchanged-$run.log" >&2; fail "unchanged run $run failed the band from noise"; }
      done
      export PLANT_QUARTER_MORE=1
      gate "$work/quarter.log" && { cat "$work/quarter.log" >&2; fail "a 1.25x slowdown passed the band from noise"; }
      expect_in "$work/quarter.log" "FAIL: BM_Sort/16384 real_time" "(noise of 5 runs)"
      unset PLANT_QUARTER_MORE
      step "plant: one comparison more per sort"
      export PLANT_EXTRA_COMPARISONS=1
      gate "$work/count.log" && { cat "$work/count.log" >&2; fail "a one-count change passed the gate"; }
      expect_in "$work/count.log" "FAIL: BM_Sort/1024 comparisons" "differs from the baseline" "accept it with:" "(1x)" \
        "note: 2 aggregate figures with no finite value"
      run_fix "$work/count.log"
      gate_passes "$work/count-accepted.log" || { cat "$work/count-accepted.log" >&2; fail "the gate fails after the printed fix"; }
      unset PLANT_EXTRA_COMPARISONS
      gate "$work/count-back.log" && fail "the count changed back and the gate passed"
      run_fix "$work/count-back.log"
      gate_passes "$work/count-back-accepted.log" || fail "the gate fails after accepting the count back"
      step "plant: the sort done three times (a 3x slowdown on the machine that recorded the baseline)"
      export PLANT_SLOWDOWN=3
      gate "$work/slow.log" && { cat "$work/slow.log" >&2; fail "a 3x slowdown passed the gate"; }
      expect_in "$work/slow.log" "FAIL: BM_Sort/1024 real_time" "worse than baseline beyond tolerance" "accept it with:"
      grep -Eq 'FAIL: BM_Sort/[0-9]+ real_time = .*\(\+[0-9.]+% \(([2-9]|[1-9][0-9])\.[0-9]*x\)\)' "$work/slow.log" ||
        { cat "$work/slow.log" >&2; fail "the slowdown's line does not show the change"; }
      run_fix "$work/slow.log"
      gate_passes "$work/slow-accepted.log" || { cat "$work/slow-accepted.log" >&2; fail "the gate fails after accepting the slowdown"; }
      unset PLANT_SLOWDOWN
      step "plant: the suite stops reporting its counter"
      export PLANT_NO_COUNTER=1
      gate "$work/gone.log" && fail "a vanished metric passed the gate"
      expect_in "$work/gone.log" "MISSING: BM_Sort/1024 comparisons" "--drop BM_Sort/1024:comparisons"
      run_fix "$work/gone.log"
      gate_passes "$work/gone-accepted.log" || { cat "$work/gone-accepted.log" >&2; fail "the gate fails after dropping the metric"; }
      unset PLANT_NO_COUNTER
      step "the counter back: tracked again from the page's first baseline"
      rm -rf "$project/baselines"
      run_block "$create_block" || { cat "$work/$create_block.log" >&2; fail "the page's create command failed the second time"; } ;;
    5)  # real_time made advisory
      (( status == 0 )) || { cat "$work/$n.log" >&2; fail "making real_time advisory failed"; }
      expect_in "$work/$n.log" "criterion lower:noise -> lower:noise:advisory"
      step "plant: a 3x slowdown against the advisory timing"
      export PLANT_SLOWDOWN=3
      gate "$work/advisory.log" || { cat "$work/advisory.log" >&2; fail "an advisory breach failed the gate"; }
      expect_in "$work/advisory.log" "Skipped"
      (cd "$project" && ctest --test-dir build -L performance -V) >"$work/advisory-verbose.log" 2>&1 || true
      expect_in "$work/advisory-verbose.log" "WARNING: BM_Sort/1024 real_time" "advisory, so not gated" "perfgate: PASS, 6 metrics, 2 warnings"
      unset PLANT_SLOWDOWN ;;
    *) fail "block $n: the page has more command blocks than this test knows" ;;
  esac
done
(( sh_run == 5 )) || fail "the page ran $sh_run command blocks, the test expects 5"

# The commit measured: none outside git (and the run says why); HEAD once the project is committed, -dirty when a
# tracked file has changed since.
results="$project/build/results/sorting.json"
! grep -q '"git_sha"' "$results" || fail "results outside any git repository record a commit"
(cd "$project" && ctest --test-dir build -R '\.run$' -V) >"$work/no-commit.log" 2>&1 || { cat "$work/no-commit.log" >&2; fail "the suite's run failed"; }
expect_in "$work/no-commit.log" "note: the results record no commit:" "is not in a git repository"
in_project_git() { git -C "$project" -c user.email=getting-started@example.org -c user.name=getting-started "$@"; }
in_project_git init -q
printf 'notes\n' >"$project/notes.txt"
in_project_git add CMakeLists.txt bench_sorting.cpp baselines notes.txt
in_project_git commit -q -m "the getting-started project"
head=$(in_project_git rev-parse HEAD)
gate_passes "$work/committed.log" || { cat "$work/committed.log" >&2; fail "the gate fails once the project is committed"; }
expect_in "$results" "\"git_sha\": \"$head\""
printf 'more notes\n' >>"$project/notes.txt"
gate_passes "$work/dirty.log" || { cat "$work/dirty.log" >&2; fail "the gate fails with an uncommitted change"; }
expect_in "$results" "\"git_sha\": \"$head-dirty\""
step "the results record the commit: none outside git (said), HEAD in git, HEAD-dirty with a change"
rm -rf "$work"
echo "getting-started: the page builds, gates and fixes as it says: PASS"
