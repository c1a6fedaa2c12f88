#!/usr/bin/env bash
# compare, update and report must be linear in the number of entries: for each, the instructions callgrind counts
# (deterministic for an identical invocation) at ten times the entries must be at most 12 times as many. A quadratic
# step (a scan of every measurement per entry) gives about 100 times at these sizes.
# Usage: scaling.sh PERFGATE WORK [SMALL LARGE [REPORT_SMALL REPORT_LARGE]]   Exit 0 when all three scale, 1 otherwise.
set -uo pipefail
perfgate=$(realpath "$1")
: "${2:?usage: scaling.sh PERFGATE WORK (a folder of its own: it is emptied)}"
work=$(realpath -m "$2")
small=${3:-1000} large=${4:-10000} report_small=${5:-300} report_large=${6:-3000}
rm -rf "$work" && mkdir -p "$work"
failures=0

inputs() {  # inputs N: results and a matching baseline (a counter per benchmark) with N entries, in $work/N/
  local n=$1 d="$work/$1"
  mkdir -p "$d"
  awk -v n="$n" 'BEGIN { printf "{\"context\": {\"machine_fingerprint\": \"m\"}, \"benchmarks\": [";
    for (i = 0; i < n; i++) printf "%s{\"name\": \"BM_%d\", \"run_type\": \"iteration\", \"iterations\": 1, \"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"ms\", \"n\": %d}", (i ? "," : ""), i, i;
    print "]}" }' >"$d/results.json"
  awk -v n="$n" 'BEGIN { printf "{\"schema_version\": 1, \"provenance\": {\"git_sha\": \"a\", \"date\": \"d\", \"machine\": \"m\", \"build_type\": \"Release\", \"torch_version\": \"t\", \"threads\": \"1\", \"reason\": \"fixture\", \"machine_fingerprint\": \"m\"}, \"entries\": [";
    for (i = 0; i < n; i++) printf "%s{\"benchmark\": \"BM_%d\", \"field\": \"n\", \"value\": %d, \"unit\": \"\", \"direction\": \"lower\", \"tolerance\": {\"rel\": 0.1}}", (i ? "," : ""), i, i;
    print "]}" }' >"$d/baseline.json"
}

instructions() {  # instructions N COMMAND...: the instructions of one perfgate run on the inputs of size N
  local n=$1 d="$work/$1"
  shift
  cp "$d/baseline.json" "$d/updated.json"
  rm -rf "$d/report"
  (cd "$d" && valgrind --tool=callgrind --callgrind-out-file="$d/callgrind.out" "$perfgate" "$@" >/dev/null 2>"$d/valgrind.log")
  sed -n 's/^summary: \([0-9]*\).*/\1/p' "$d/callgrind.out"
}

judge() {  # judge NAME SMALL LARGE COMMAND...
  local name=$1 n1=$2 n2=$3
  shift 3
  inputs "$n1"
  inputs "$n2"
  local i1 i2
  i1=$(instructions "$n1" "$@")
  i2=$(instructions "$n2" "$@")
  if [[ -z $i1 || -z $i2 ]]; then
    failures=$((failures + 1))
    echo "FAIL $name: no instruction count (see $work/$n2/valgrind.log)"
    return
  fi
  local ratio
  ratio=$(awk -v a="$i1" -v b="$i2" 'BEGIN { printf "%.2f", b / a }')
  if awk -v r="$ratio" -v k="$(awk -v a="$n1" -v b="$n2" 'BEGIN { print 1.2 * b / a }')" 'BEGIN { exit !(r <= k) }'; then
    echo "ok   $name: $i1 instructions at $n1 entries, $i2 at $n2: ${ratio}x"
  else
    failures=$((failures + 1))
    echo "FAIL $name: $i1 instructions at $n1 entries, $i2 at $n2: ${ratio}x (linear allows $(awk -v a="$n1" -v b="$n2" 'BEGIN { print 1.2 * b / a }')x)"
  fi
}

judge compare "$small" "$large" compare --results results.json --baseline baseline.json
judge update "$small" "$large" update --allow-dirty --reason scaling --results results.json --baseline updated.json
judge report "$report_small" "$report_large" report --out-dir report --check results.json=baseline.json
echo "scaling: $((3 - failures)) of 3 linear"
[[ $failures == 0 ]]
