#!/usr/bin/env bash
# Builds a fuzz project (SOURCE_DIR: tools/fuzz for perfgate's readers, core/cli/fuzz for the recon command's
# arguments) with clang (libFuzzer + ASan + UBSan) and runs each of its targets for SECONDS, seeded with the files
# its SOURCE_DIR/seeds.txt lists ("target: globs", relative to the repository root; the corpora there keep every
# crash found so far, replayed each run); new inputs accumulate in BUILD_DIR/corpus, crashes in BUILD_DIR/crashes.
# Usage: tools/fuzz/run.sh SOURCE_DIR BUILD_DIR [SECONDS]
# Exit 0: no crash; 1: a crash (its input is named); 2: cannot build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[[ $# -ge 2 ]] || { echo "usage: tools/fuzz/run.sh SOURCE_DIR BUILD_DIR [SECONDS]" >&2; exit 2; }
here="$(cd "$1" && pwd)"
mkdir -p "$2"
build="$(cd "$2" && pwd)"  # absolute: the targets run from the repository root below
seconds=${3:-20}
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (tools/install-deps installs clang)" >&2; exit 2; }
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if ! { cmake -S "$here" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DCMAKE_CXX_COMPILER_LAUNCHER=ccache && cmake --build "$build"; } >"$build.log" 2>&1; then
  echo "fuzz: the fuzz targets do not build (log: $build.log)" >&2
  exit 2
fi
[[ -f "$here/seeds.txt" ]] || { echo "fuzz: $here/seeds.txt not found" >&2; exit 2; }
targets=()
declare -A seeds=()
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  target=${line%%:*}
  targets+=("$target")
  seeds[$target]=${line#*:}
done <"$here/seeds.txt"
status=0
cd "$root"
for target in "${targets[@]}"; do
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
