#!/bin/sh
# Stands in for a Google Benchmark executable in perfgate's tests: writes results_ok.json to --benchmark_out=FILE.
for arg in "$@"; do
  case "$arg" in
    --benchmark_out=*) cp "$(dirname "$0")/results_ok.json" "${arg#--benchmark_out=}" ;;
  esac
done
echo "fake benchmark ran"
