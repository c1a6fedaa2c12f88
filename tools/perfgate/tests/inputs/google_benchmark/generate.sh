#!/usr/bin/env bash
# Writes this folder's Google Benchmark outputs from samples.cpp, with the Google Benchmark library installed here
# (Debian's libbenchmark-dev): run it again after that library changes, and say the version in README.md.
# Usage: tools/perfgate/tests/inputs/google_benchmark/generate.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -o "$work/samples" "$here/samples.cpp" -lbenchmark -lpthread
run() {  # FILE ARGS...: the suite's JSON output as FILE
  local file=$1
  shift
  "$work/samples" --benchmark_out="$work/$file" --benchmark_out_format=json "$@" >/dev/null 2>&1
  mv "$work/$file" "$here/$file"
}
measured='BM_ZeroCounter|BM_Vector|BM_Milliseconds'
run repetitions_with_zero_counter.json --benchmark_filter="$measured" --benchmark_repetitions=3 --benchmark_min_time=0.01
run aggregates_only.json --benchmark_filter="$measured" --benchmark_repetitions=3 --benchmark_min_time=0.01 \
  --benchmark_report_aggregates_only=true
run errored.json --benchmark_filter=BM_Unsupported
echo "generate.sh: wrote $(cd "$here" && ls ./*.json | tr '\n' ' ')"
