#!/usr/bin/env bash
# Projects whose benchmarks are not Google Benchmark's, gated by perfgate installed alone: examples/catch2-suite (Catch2
# BENCHMARKs, through perfgate catch2) and examples/timed-command (a command-line tool timed by hyperfine, interleaved by
# perfgate time, through perfgate_add_gated_command). For each, from a copy of its sources:
#   1. configured against the install, built, and its ctest labels performance and cost pass on its committed
#      baselines (timings judged on the machine that recorded them, SKIPPED elsewhere; instructions within 0.5 %);
#   2. a baseline of this machine: the timing's tolerance learned from the noise of five runs of the suite, the
#      instruction count held exactly (measured twice, the same count both times);
#   3. a planted slowdown (the measured code doing its work again: the splitter twice, the counter thrice) fails the
#      timing and the exact count, and the
#      committed cost baseline in ctest.
# Usage: examples/check-other-harnesses.sh WORK_FOLDER
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 WORK_FOLDER" >&2; exit 2; }
for tool in hyperfine valgrind; do
  command -v $tool >/dev/null || { echo "check: $tool is not installed (tools/install-deps installs it)" >&2; exit 1; }
done
[[ -f /usr/lib/cmake/Catch2/Catch2Config.cmake || -f /usr/share/cmake/Catch2/Catch2Config.cmake ]] ||
  { echo "check: Catch2 is not installed (tools/install-deps installs Debian's catch2)" >&2; exit 1; }
mkdir -p "$1"
work=$(cd "$1" && pwd)
logged() {  # LOG COMMAND...: the command's output in LOG, shown when it fails
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "check: failed: $*" >&2; exit 1; }
}
# expect_exit CODE LOG COMMAND...: the command must exit with CODE.
expect_exit() {
  local code=$1 log=$2
  shift 2
  set +e
  "$@" >"$log" 2>&1
  local status=$?
  set -e
  [[ $status -eq $code ]] || { cat "$log" >&2; echo "check: exit $status, not $code: $*" >&2; exit 1; }
}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1

echo "check: perfgate alone, built and installed"
"$root/examples/build-perfgate-alone.sh" "$work"
prefix="$work/prefix"
logged "$work/perfgate-install.log" cmake --install "$work/project/perfgate-build" --prefix "$prefix"
perfgate="$prefix/bin/perfgate"

# gate_example NAME TIMING_GATE REPETITIONS PLANT_FILE OLD NEW TIMED_COMMAND... : steps 1 to 3 for one example;
# TIMING_GATE is the name its CMakeLists.txt registers (REPETITIONS each), TIMED_COMMAND the suite's command ({build}
# stands for its build folder).
gate_example() {
  local name=$1 timing=$2 repetitions=$3 file=$4 old=$5 new=$6
  shift 6
  local dir="$work/$name" src="$work/$name/src" build="$work/$name/build"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$root/examples/$name" "$src"
  local suite=()
  for word in "$@"; do suite+=("${word//\{build\}/$build}"); done
  echo "check: $name: configured against the install, built, gated on its committed baselines"
  logged "$dir/configure.log" cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}"
  logged "$dir/build.log" cmake --build "$build"
  logged "$dir/ctest.log" ctest --test-dir "$build" -L '^(performance|cost)$' --output-on-failure --no-tests=error
  # The CMake function's tests ran the runner: its results hold every benchmark of the committed baseline, each with
  # the repetitions it asked for.
  local gated timing_results
  gated=$(jq -r '.entries[0].benchmark' "$src/baselines/$timing.json")
  timing_results="$build/results/$timing.json"
  jq -e --arg b "$gated" --argjson n "$repetitions" \
    '[.measurements[] | select(.benchmark == $b and .field == "real_time") | .repetitions | length] == [$n]' \
    "$timing_results" >/dev/null ||
    { echo "check: $name: the CMake-registered run wrote no $n repetitions of '$gated' to $timing_results" >&2; exit 1; }
  local cost_gate
  cost_gate=$(jq -r '.gates[] | select(.kind == "cost") | .name' "$src/gates.json")
  local whole cost_command
  whole=$(jq -r --arg g "$cost_gate" '.gates[] | select(.name == $g) | .whole' "$src/gates.json")
  mapfile -t cost_command < <(jq -r --arg g "$cost_gate" --arg build "$build" \
    '.gates[] | select(.name == $g) | .command[] | gsub("{build}"; $build)' "$src/gates.json")
  cost_command[0]="$build/${cost_command[0]}"

  echo "check: $name: this machine's baseline (timing from noise, instructions exact)"
  logged "$dir/update.log" "$perfgate" update --baseline "$dir/timing.json" --reason "unchanged" --runs 5 \
    --track real_time:lower:noise -- "${suite[@]}"
  (cd "$build" && logged "$dir/cost0.log" "$perfgate" cost --whole "$whole" --out "$dir/cost0.json" -- "${cost_command[@]}")
  (cd "$build" && logged "$dir/cost1.log" "$perfgate" cost --whole "$whole" --out "$dir/cost1.json" -- "${cost_command[@]}")
  logged "$dir/cost-update.log" "$perfgate" update --baseline "$dir/cost.json" --reason "unchanged" \
    --track instructions:either:exact --results "$dir/cost0.json"
  logged "$dir/cost-same.log" "$perfgate" compare --results "$dir/cost1.json" --baseline "$dir/cost.json"

  echo "check: $name: a planted slowdown ($file does its work again) fails the timing and the counts"
  grep -qF -- "$old" "$src/$file" || { echo "check: $src/$file no longer holds the line the plant changes" >&2; exit 1; }
  local text
  text=$(<"$src/$file")
  printf '%s\n' "${text/"$old"/"$new"}" >"$src/$file"
  logged "$dir/build-planted.log" cmake --build "$build"
  logged "$dir/planted-run.log" "${suite[@]}" --benchmark_out="$dir/planted.json"
  expect_exit 1 "$dir/planted-timing.log" "$perfgate" compare --results "$dir/planted.json" --baseline "$dir/timing.json"
  (cd "$build" && logged "$dir/cost2.log" "$perfgate" cost --whole "$whole" --out "$dir/cost2.json" -- "${cost_command[@]}")
  expect_exit 1 "$dir/planted-cost.log" "$perfgate" compare --results "$dir/cost2.json" --baseline "$dir/cost.json"
  expect_exit 8 "$dir/planted-ctest.log" ctest --test-dir "$build" -L '^cost$' --no-tests=error
  grep -m1 -E '^FAIL' "$dir/planted-timing.log"
  grep -m1 -E '^FAIL' "$dir/planted-cost.log"
}

gate_example catch2-suite splitting 5 fields.cpp "  return split_once(line, separator);" \
  "  (void)split_once(line, separator);
  return split_once(line, separator);" \
  "$perfgate" catch2 --runs 3 -- "{build}/catch2_suite" "[benchmark]" --benchmark-samples 20 --benchmark-warmup-time 20
gate_example timed-command wordfreq 10 wordfreq.cpp "  const auto counts = count_words(text);" \
  "  volatile size_t planted = count_words(text).size() + count_words(text).size();
  (void)planted;
  const auto counts = count_words(text);" \
  "$perfgate" time --hyperfine --runs 10 -- "wordfreq='{build}/wordfreq' '{build}/words.txt'"
echo "check: perfgate gates a Catch2 suite and a timed command, and fails their planted slowdowns: PASS"
