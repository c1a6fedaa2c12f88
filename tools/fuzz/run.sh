#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer + ASan + UBSan) and runs each for SECONDS, seeded with the
# project's own test inputs and tools/fuzz/corpus (which keeps every crash found so far, replayed each run); new
# inputs accumulate in BUILD_DIR/corpus, crashes in BUILD_DIR/crashes.
# Usage: tools/fuzz/run.sh BUILD_DIR [SECONDS]    Exit 0: no crash; 1: a crash (its input is named); 2: cannot build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build=$1
seconds=${2:-20}
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (tools/install-deps installs clang)" >&2; exit 2; }
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if ! { cmake -S "$here" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DCMAKE_CXX_COMPILER_LAUNCHER=ccache && cmake --build "$build"; } >"$build.log" 2>&1; then
  echo "fuzz: the fuzz targets do not build (log: $build.log)" >&2
  exit 2
fi
inputs="$root/tools/perfgate/tests/inputs"
declare -A seeds=(
  [fuzz_results]="$inputs/results_*.json $inputs/report/results_*.json $here/corpus/results/*"
  [fuzz_baseline]="$inputs/baseline_*.json $inputs/report/baseline_*.json $root/baselines/*/cpu/*.json $here/corpus/baseline/*"
  [fuzz_update]="$here/corpus/update/*"
  [fuzz_ab_tasks]="$here/corpus/ab_tasks/*"
  [fuzz_trace]="$inputs/trace_*.json $here/corpus/trace/*"
  [fuzz_recon_args]="$here/corpus/recon_args/*"
)
status=0
for target in fuzz_results fuzz_baseline fuzz_update fuzz_ab_tasks fuzz_trace fuzz_recon_args; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus" "$build/crashes"
  # shellcheck disable=SC2086  # the seed patterns are meant to expand here
  cp ${seeds[$target]} "$corpus/" 2>/dev/null || true
  log="$build/$target.log"
  # -max_len: room for inputs nested tens of thousands of levels deep (the class of stack overflows), beyond
  # libFuzzer's default of 4 KB; the corpus holds such seeds.
  if "$build/$target" -max_total_time="$seconds" -max_len=262144 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/crashes/$target-" "$corpus" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "$target: ${runs:-?} inputs in ${seconds} s, no crash"
  else
    echo "$target: CRASH (log: $log)"
    grep -E "^(==|SUMMARY|artifact_prefix|Test unit written)" "$log" | head -5
    status=1
  fi
done
exit "$status"
