#!/usr/bin/env bash
# perfgate gate and report --manifest, end to end on a throwaway project: a stand-in benchmark (a script writing
# Google Benchmark JSON: BM_Slow and BM_Fast with ±1 % noise, their speedup and a comparison count set by files), and a
# manifest with a baseline gate, a speedup gate (floor, aim, baselined series) and a bars gate.
#  - all pass: exit 0; verdicts.json holds every check, the speedup and its aim; report --manifest agrees;
#  - the speedup below the floor: exit 1; a count off by one: exit 1, the row FAIL in verdicts.json;
#  - an advisory-only breach with --warning-exit-code 77: exit 77;
#  - two speedup gates: both in verdicts.json and the report, each at its own floor;
#  - selection by --only and --label, --list; an unknown gate, a failing command, and manifests with a wrong version,
#    an unknown member, two gates of one name, a speedup without its floor, an impossible cache, an absolute build
#    folder, a gate sharing the machine whose baseline holds a timing: exit 2 with one line.
# Usage: gate_manifest.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "gate_manifest: $*" >&2; exit 1; }
cd "$work"
mkdir -p project/perf project/baselines/performance build/bin
cat >build/bin/bench.sh <<'SH'
#!/usr/bin/env bash
# BM_Slow takes 1000 us, BM_Fast 1000/speedup us (each within ±1 %, the same pattern every run, so that verdicts near a
# limit are repeatable); BM_Slow counts `count` comparisons.
set -euo pipefail
out="" repetitions=1
for a in "$@"; do
  case $a in
    --benchmark_out=*) out=${a#--benchmark_out=} ;;
    --benchmark_repetitions=*) repetitions=${a#--benchmark_repetitions=} ;;
  esac
done
here=$(dirname "$0")
speedup=$(cat "$here/speedup.txt") count=$(cat "$here/count.txt")
runs=""
for ((i = 0; i < repetitions; i++)); do
  slow=$(awk -v i="$i" 'BEGIN { printf "%.3f", 1000 * (0.99 + 0.02 * ((i * 7) % 11) / 10) }')
  fast=$(awk -v i="$i" -v s="$speedup" 'BEGIN { printf "%.3f", 1000 / s * (0.99 + 0.02 * ((i * 3) % 7) / 6) }')
  runs+="${runs:+,}
  {\"name\": \"BM_Slow\", \"run_name\": \"BM_Slow\", \"run_type\": \"iteration\", \"repetitions\": $repetitions, \"repetition_index\": $i,
   \"iterations\": 10, \"real_time\": $slow, \"cpu_time\": $slow, \"time_unit\": \"us\", \"comparisons\": $count},
  {\"name\": \"BM_Fast\", \"run_name\": \"BM_Fast\", \"run_type\": \"iteration\", \"repetitions\": $repetitions, \"repetition_index\": $i,
   \"iterations\": 10, \"real_time\": $fast, \"cpu_time\": $fast, \"time_unit\": \"us\"}"
done
printf '{"context": {"git_sha": "abc123", "machine": "stand-in", "machine_fingerprint": "stand-in"}, "benchmarks": [%s]}\n' "$runs" >"$out"
SH
chmod +x build/bin/bench.sh
cat >build/bin/prof.sh <<'SH'
#!/bin/sh
# A stand-in profiler: two steps of one operator, 4 ms each, as a Chrome trace at $1.
printf '[{"ph": "X", "name": "aten::mm", "ts": 0, "dur": 4000, "pid": 1, "tid": 1}, {"ph": "X", "name": "aten::mm", "ts": 5000, "dur": 4000, "pid": 1, "tid": 1}]' >"$1"
SH
chmod +x build/bin/prof.sh
echo 4 >build/bin/speedup.txt
echo 100 >build/bin/count.txt
cat >project/perf/gates.json <<'JSON'
{"schema_version": 2,
 "about": "a stand-in project's gates",
 "baseline_path": "../baselines/{label}/{name}.json",
 "environment": ["STAND_IN=1"],
 "gates": [
  {"name": "suite", "kind": "baseline", "label": "performance", "command": ["bin/bench.sh", "--benchmark_repetitions=3"]},
  {"name": "pair", "kind": "speedup", "label": "performance", "command": ["bin/bench.sh"], "reference": "BM_Slow", "candidate": "BM_Fast",
   "floor": 3, "aim": 6, "aim_reason": "reported only", "repetitions": 8, "series": "pair_series"},
  {"name": "bars", "kind": "bars", "command": ["bin/bench.sh"], "benchmarks": ["BM_Slow", "BM_Fast"]},
  {"name": "prof", "kind": "profile", "command": ["bin/prof.sh", "{trace}"], "per": 2, "per_name": "step"}
 ]}
JSON
cat >project/baselines/performance/suite.json <<'JSON'
{"schema_version": 1, "provenance": {"reason": "written by hand for the test", "machine_fingerprint": "stand-in"}, "entries": [
  {"benchmark": "BM_Slow", "field": "comparisons", "direction": "either", "tolerance": {"exact": true}, "unit": "", "value": 100},
  {"benchmark": "BM_Slow", "field": "real_time", "direction": "lower", "tolerance": {"rel": 0.5}, "unit": "us", "value": 1000, "advisory": true}]}
JSON
cat >project/baselines/performance/pair_series.json <<'JSON'
{"schema_version": 1, "provenance": {"reason": "written by hand for the test", "machine_fingerprint": "stand-in"}, "entries": [{"benchmark": "speedup:BM_Fast/BM_Slow", "field": "speedup", "direction": "higher", "tolerance": {"rel": 0.2}, "unit": "x", "value": 4}]}
JSON
manifest=project/perf/gates.json
gate() { "$perfgate" gate --manifest "$manifest" --build build "$@"; }
status_of() { set +e; "$@" >"$work/out.txt" 2>&1; echo $?; set -e; }

status=$(status_of gate --verdicts v.json)
[[ $status == 0 ]] || fail "all gates passing: exit $status: $(cat out.txt)"
[[ $(jq -r .overall v.json) == PASS ]] || fail "verdicts.json overall is not PASS"
[[ $(jq -r '.checks[] | select(.benchmark == "BM_Slow" and .field == "comparisons") | .verdict' v.json) == PASS ]] ||
  fail "verdicts.json lacks the suite's comparison row"
[[ $(jq -r '.checks[] | select(.field == "speedup") | .verdict' v.json) == PASS ]] || fail "verdicts.json lacks the baselined series"
[[ $(jq -r '.speedup.verdict' v.json) == PASS && $(jq -r '.speedup.threshold' v.json) == 3 ]] || fail "verdicts.json's speedup is not PASS at 3"
[[ $(jq -r '.speedup.target' v.json) == 6 && $(jq -r '.speedup.target_verdict' v.json) != PASS ]] || fail "the aim 6x is not reported as missed"
[[ $(jq -r '.speedup.pairs' v.json) == 8 ]] || fail "the speedup does not have the manifest's 8 repetitions"
[[ -f build/results/bars.json && -f build/results/pair_series.json ]] || fail "bars or the series wrote no results"
grep -q 'aim 6x (not gated)' out.txt || fail "the aim is not printed"
[[ -f build/results/prof.trace ]] || fail "the profile gate kept no trace"
grep -Eq '^aten::mm +2 +4\.00 +4\.00$' out.txt || fail "the profile gate's table is not 4 ms per step: $(grep -A3 'operator' out.txt)"
"$perfgate" report --manifest "$manifest" --results-dir build/results --out-dir report >/dev/null || fail "report --manifest: exit $?"
[[ $(jq -r .overall report/verdicts.json) == PASS && $(jq '.checks | length' report/verdicts.json) == $(jq '.checks | length' v.json) ]] ||
  fail "report --manifest does not judge what gate judged"
grep -q 'BM_Slow' report/report.html || fail "the report does not show the bars"

[[ $("$perfgate" gate --manifest "$manifest" --build build --label performance --list | cut -d' ' -f1 | paste -sd,) == suite,pair ]] ||
  fail "--label performance does not list suite and pair"

echo 2 >build/bin/speedup.txt
status=$(status_of gate --only pair)
[[ $status == 1 ]] || fail "a speedup of 2 against the floor of 3: exit $status, not 1"
# The series is judged by its interval, in the exit status and in verdicts.json alike: a median below the baselined
# speedup minus its tolerance (4 - 20 % = 3.2) with an interval reaching above it passes.
echo 3.19 >build/bin/speedup.txt
status=$(status_of gate --only pair --verdicts v3.json)
low=$(jq '.speedup.low' v3.json) median=$(jq '.speedup.median' v3.json) high=$(jq '.speedup.high' v3.json)
awk -v m="$median" -v h="$high" 'BEGIN { exit !(m < 3.2 && h > 3.2) }' || fail "the stand-in's speedup $median [$low, $high] does not straddle 3.2"
[[ $status == 0 ]] || fail "a series interval reaching its limit: exit $status, not 0: $(cat out.txt)"
[[ $(jq -r '.checks[] | select(.field == "speedup") | .verdict' v3.json) == PASS && $(jq -r .overall v3.json) == PASS ]] ||
  fail "verdicts.json judges the series by its median: $(jq -c '.checks[] | select(.field == "speedup")' v3.json)"
echo 4 >build/bin/speedup.txt

# Variants of the manifest, in its folder (its baselines stay where baseline_path finds them).
variant() {  # NAME JQ-FILTER: the manifest changed by the filter, as project/perf/NAME.json
  jq "$2" "$manifest" >"project/perf/$1.json"
  echo "project/perf/$1.json"
}
# A failure outweighs an inconclusive verdict, whatever the order of the gates.
no_series=$(variant no_series '.gates[1] |= del(.series, .aim)')
echo 3.01 >build/bin/speedup.txt
status=$(status_of "$perfgate" gate --manifest "$no_series" --build build --only pair)
[[ $status == 3 ]] || fail "a speedup of 3.01 against the floor of 3: exit $status, not 3 (inconclusive)"
echo 101 >build/bin/count.txt
status=$(status_of "$perfgate" gate --manifest "$no_series" --build build --only suite --only pair)
[[ $status == 1 ]] || fail "a failure and an inconclusive speedup: exit $status, not 1"
echo 100 >build/bin/count.txt
# Measuring more pools every repetition into the results, which verdicts.json and later readers judge.
more=$(variant more '.gates[1] |= (del(.series, .aim) | .more_repetitions = 8 | .more_seconds = 30)')
status=$(status_of "$perfgate" gate --manifest "$more" --build build --only pair --verdicts v5.json)
pairs=$(jq '.speedup.pairs' v5.json)
runs=$(jq '[.benchmarks[] | select(.name == "BM_Fast")] | length' build/results/pair.json)
[[ $pairs -gt 8 && $pairs == "$runs" ]] || fail "measured more: $pairs pairs judged, $runs repetitions of BM_Fast in the results (exit $status)"
echo 4 >build/bin/speedup.txt
# compare_baseline: the speedup run is judged against the gate's own baseline too.
cp project/baselines/performance/suite.json project/baselines/performance/pair.json
jq '.entries |= map(select(.field == "comparisons"))' project/baselines/performance/suite.json >project/baselines/performance/pair.json
compared=$(variant compared '.gates[1] |= (del(.series) | .compare_baseline = true)')
echo 101 >build/bin/count.txt
status=$(status_of "$perfgate" gate --manifest "$compared" --build build --only pair)
[[ $status == 1 ]] || fail "compare_baseline with a changed count: exit $status, not 1"
echo 100 >build/bin/count.txt
echo 2 >build/bin/speedup.txt  # the speedup's failure stands when the same run's counts pass
status=$(status_of "$perfgate" gate --manifest "$compared" --build build --only pair)
[[ $status == 1 ]] || fail "compare_baseline passing beside a speedup below its floor: exit $status, not 1"
echo 4 >build/bin/speedup.txt
# An advisory series below its band warns: WARNING in verdicts.json, the overall verdict PASS, the warning exit code.
jq '.entries[0].advisory = true' project/baselines/performance/pair_series.json >advisory_series.json
mv advisory_series.json project/baselines/performance/pair_series.json
echo 2.5 >build/bin/speedup.txt
status=$(status_of "$perfgate" gate --manifest "$(variant low_floor '.gates[1] |= (.floor = 1.5 | del(.aim))')" --build build --only pair \
  --verdicts v6.json --warning-exit-code 77)
[[ $status == 77 && $(jq -r '.checks[] | select(.field == "speedup") | .verdict' v6.json) == WARNING &&
   $(jq -r .overall v6.json) == PASS ]] || fail "an advisory series below its band: exit $status, $(jq -c '[.overall, (.checks[] | select(.field == "speedup") | .verdict)]' v6.json)"
jq '.entries[0].advisory = false' project/baselines/performance/pair_series.json >series.json && mv series.json project/baselines/performance/pair_series.json
echo 4 >build/bin/speedup.txt
# A bare program name is the build folder's, even with --build given as '.'.
bare=$(variant bare '.gates[0].command = ["bench.sh", "--benchmark_repetitions=3"]')
(cd build/bin && "$perfgate" gate --manifest "../../$bare" --build . --only suite >/dev/null) || fail "a program relative to --build . did not run"

echo 101 >build/bin/count.txt
status=$(status_of gate --only suite --verdicts v2.json)
[[ $status == 1 ]] || fail "a count off by one: exit $status, not 1"
[[ $(jq -r '.checks[] | select(.field == "comparisons") | .verdict' v2.json) == FAIL ]] || fail "the changed count is not FAIL in verdicts.json"
echo 100 >build/bin/count.txt

sed -i 's/"value": 1000, "advisory"/"value": 100, "advisory"/' project/baselines/performance/suite.json
status=$(status_of gate --only suite --warning-exit-code 77)
[[ $status == 77 ]] || fail "an advisory breach with --warning-exit-code 77: exit $status"

refused() {  # NAME EXPECTED-TEXT ARGS...: exit 2 with one line on standard error naming EXPECTED-TEXT
  local name=$1 expect=$2
  shift 2
  set +e
  "$perfgate" "$@" >"$work/$name.out" 2>"$work/$name.err"
  local code=$?
  set -e
  [[ $code == 2 ]] || fail "$name: exit $code, not 2: $(cat "$work/$name.err")"
  [[ $(wc -l <"$work/$name.err") == 1 ]] || fail "$name: not one line: $(cat "$work/$name.err")"
  grep -q -- "$expect" "$work/$name.err" || fail "$name: no '$expect' in: $(cat "$work/$name.err")"
}
refused unknown_gate "its gates: suite, pair, bars, prof" gate --manifest "$manifest" --build build --only nosuch
refused nothing_selected "no gate" gate --manifest "$manifest" --build build --only suite --label cost --list
refused verdicts_over_results "is gate suite's results" gate --manifest "$manifest" --build build --only suite --verdicts build/results/suite.json
refused verdicts_over_results_to_be "is gate suite's results" gate --manifest "$manifest" --build build --only suite \
  --results-dir fresh-results --verdicts fresh-results/./suite.json
[[ ! -e fresh-results/suite.json ]] || fail "--verdicts over a results file to be: something was measured"
refused version_3 "schema_version 3" gate --manifest "$(variant v3 '.schema_version = 3')" --build build
cp "$manifest" manifest.copy
refused verdicts_over_the_manifest "is the input" gate --manifest "$manifest" --build build --only suite --verdicts "$manifest"
cmp -s "$manifest" manifest.copy || fail "--verdicts replaced the manifest"
cp project/baselines/performance/suite.json baseline.copy
refused results_over_a_baseline "is the input" gate --manifest "$manifest" --build build --only suite --results-dir project/baselines/performance
cmp -s project/baselines/performance/suite.json baseline.copy || fail "the results replaced the baseline"
refused missing_build "not a folder" gate --manifest "$manifest" --build nosuch
refused version_1 "schema_version 1" gate --manifest "$(variant v1 '.schema_version = 1')" --build build
refused unknown_member "unknown member 'treshold'" gate --manifest "$(variant typo '.gates[1].treshold = 2')" --build build
refused twice "two gates are named 'suite'" gate --manifest "$(variant twice '.gates[1].name = "suite"')" --build build
refused shares_with_a_timing "gate suite shares the machine (shares_machine) but its baseline" gate --manifest \
  "$(variant shared '.gates[0].shares_machine = true')" --build build --only suite --results-dir shared-results
[[ ! -e shared-results/suite.json ]] || fail "a gate sharing the machine with a timing in its baseline was measured"
refused no_floor "has no 'floor'" gate --manifest "$(variant nofloor 'del(.gates[1].floor)')" --build build
refused another_kinds_member "unknown member 'benchmarks'" gate --manifest "$(variant mixed '.gates[0].benchmarks = ["x"]')" --build build
refused cache "power of two" gate --manifest "$(variant cache '.gates[0] = {"name": "c", "kind": "cost", "label": "cost",
  "command": ["bin/c"], "cache": {"LL": {"bytes": 3000000, "ways": 16, "line_bytes": 64}}}')" --build build
refused build_outside "not a folder inside the checkout" gate --manifest "$(variant outside '.build = {"directory": "a/../../up", "steps": [["true"]]}')" --build build
refused absolute_build "absolute" gate --manifest "$(variant build '.build = {"directory": "/tmp", "steps": [["true"]]}')" --build build
# Two speedup gates: each judged at its own floor, both in verdicts.json ("speedups"; the first also as "speedup") and
# in the report, the second failing its floor of 10.
echo 4 >build/bin/speedup.txt
two=$(variant two '.gates += [.gates[1] | .name = "pair2" | .floor = 10 | .aim = 20 | del(.series)]')
status=$(status_of "$perfgate" gate --manifest "$two" --build build --only pair --only pair2 --verdicts v4.json)
[[ $status == 1 ]] || fail "two speedup gates, the second below its floor: exit $status: $(cat "$work/out.txt")"
[[ $(jq -c '[.speedups[] | [.threshold, .verdict]]' v4.json) == '[[3,"PASS"],[10,"FAIL"]]' && $(jq -r .speedup.threshold v4.json) == 3 ]] ||
  fail "verdicts.json does not hold both speedups: $(jq -c '.speedups, .speedup' v4.json)"
"$perfgate" report --manifest "$two" --results-dir build/results --out-dir report2 >/dev/null 2>&1 || true
grep -q 'id="speedup-2"' report2/report.html || fail "the report has no second speedup section"
# Each speedup is named by its gate: in verdicts.json, in the report's headings and in its summary.
[[ $(jq -c '[.speedups[].gate]' v4.json) == '["pair","pair2"]' ]] || fail "verdicts.json's speedups lack their gates: $(jq -c '[.speedups[].gate]' v4.json)"
grep -q 'Speedup (paired, interleaved): <code>pair2</code>' report2/report.html || fail "the second speedup's heading does not name its gate"
grep -q '^- Speedup pair2 FAIL of' report2/summary.md || fail "the summary does not name the second speedup's gate: $(grep Speedup report2/summary.md)"
refused failing_command "suite" gate --manifest "$(variant fails '.gates[0].command = ["bin/no-such-program"]')" --build build --only suite
# perfgate stopped (a cancelled job, ctest's timeout) stops the program it measures too.
printf '#!/bin/sh\necho $$ >"$(dirname "$0")/hang.pid"\nexec sleep 1000\n' >build/bin/hang.sh
chmod +x build/bin/hang.sh
"$perfgate" gate --manifest "$(variant hang '.gates[0].command = ["bin/hang.sh"]')" --build build --only suite >/dev/null 2>&1 &
gate_pid=$!
for _ in $(seq 100); do [[ -s build/bin/hang.pid ]] && break; sleep 0.1; done
[[ -s build/bin/hang.pid ]] || fail "the hanging stand-in never started"
kill -TERM "$gate_pid"
wait "$gate_pid" || true
state=$(ps -o stat= -p "$(cat build/bin/hang.pid)" || true)
[[ -z $state || $state == Z* ]] || { kill -KILL "$(cat build/bin/hang.pid)"; fail "the measured program outlived perfgate (state $state)"; }
echo "gate_manifest: pass and fail by every gate kind, verdicts.json and report --manifest agree, 19 bad inputs refused"
