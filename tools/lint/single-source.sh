#!/usr/bin/env bash
# One source of truth for the gate: every benchmark the gate manifest (perf_tests/gates.json) names is written there
# and nowhere else in the project's code, scripts and workflows. The suites that define the benchmarks
# (perf_tests/bench_*.cpp, and perf_tests/cost_step.cpp, whose callgrind rows carry the same names), documentation
# (*.md), baselines (recorded results) and test inputs (any tests/ folder, the fuzz corpus) may hold the names;
# everything else must take them from the manifest (perfgate reads it; scripts ask it with jq). A name
# is also looked for without Google Benchmark's run settings ("/min_time:0.500", "/iterations:1", …), so that a copy
# written as a filter prefix ("^BM_Step/n:512/") is found too. Prints each stray occurrence as FILE:LINE and exits 1.
# Usage: tools/lint/single-source.sh [ROOT]   (default: the repository root; files are those git tracks under ROOT)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
manifest="$root/perf_tests/gates.json"
[[ -f "$manifest" ]] || { echo "single-source: no manifest at $manifest" >&2; exit 2; }
names=$(jq -r '.gates[] | (.reference // empty), (.candidate // empty), (.benchmarks // [] | .[])' "$manifest") ||
  { echo "single-source: cannot read $manifest" >&2; exit 2; }
[[ -n "$names" ]] || { echo "single-source: $manifest names no benchmark" >&2; exit 2; }
subjects=$(sed -E 's#/(min_time|min_warmup_time|iterations|repeats|threads):[^/]*##g; s#/(real_time|process_time|manual_time)$##' <<<"$names")
names=$(printf '%s\n%s\n' "$names" "$subjects" | sort -u)
# safe.directory: CI runs as root in a container over a checkout it does not own.
mapfile -t files < <(git -c safe.directory="*" -C "$root" ls-files -- . ':!:perf_tests/gates.json' ':!:baselines' ':!:*.md' ':!:perf_tests/bench_*.cpp' ':!:perf_tests/cost_step.cpp' \
                      ':!:**/tests/**' ':!:tools/fuzz/corpus' \
                      ':!:tools/lint/node_modules' ':!:tools/report-check/node_modules')
[[ ${#files[@]} -gt 0 ]] || { echo "single-source: git lists no file under $root" >&2; exit 2; }
status=0
while IFS= read -r name; do
  code=0
  hits=$(cd "$root" && grep -H -n -F -- "$name" "${files[@]}") || code=$?
  [[ $code -le 1 ]] || { echo "single-source: grep failed on the tracked files (status $code)" >&2; exit 2; }
  if [[ $code -eq 0 ]]; then
    echo "single-source: '$name' is written outside perf_tests/gates.json:" >&2
    sed 's/^/  /' <<<"$hits" >&2
    status=1
  fi
done <<<"$names"
[[ $status -eq 0 ]] && echo "single-source: $(wc -l <<<"$names") gated benchmark names, each only in perf_tests/gates.json ($(( ${#files[@]} )) files checked)"
exit "$status"
