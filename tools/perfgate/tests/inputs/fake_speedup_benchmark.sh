#!/bin/sh
# Stands in for bench_train_step in perfgate's tests: writes report/results_speedup.json (8 paired repetitions of
# BM_Ref and BM_Cand) to --benchmark_out=FILE.
for arg in "$@"; do
  case "$arg" in
    --benchmark_out=*) cp "$(dirname "$0")/report/results_speedup.json" "${arg#--benchmark_out=}" ;;
  esac
done
