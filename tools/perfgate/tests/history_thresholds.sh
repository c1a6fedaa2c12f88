#!/usr/bin/env bash
# Thresholds from history: a timing judged against its last runs on this machine in a history store (compare and gate
# --history-thresholds). With 10 recorded runs of 1.5 ms ± 1 % on machine ci-runner, results 0.5 % slower pass and results 30 %
# slower fail, although the baseline (recorded on another machine, at 1 ms) would judge neither; another machine's
# results find no history and are judged as the baseline says (SKIPPED here); a store with fewer than 5 runs leaves
# the baseline to judge, and so do runs older than the baseline (its update starts the history anew, as the printed
# fix says); a minimum shift of 50 % lets the step pass; gate --history-thresholds judges a baseline gate the same way.
# Usage: history_thresholds.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "history_thresholds: FAIL: $*" >&2; exit 1; }
results() {  # results FILE FACTOR MACHINE: BM_Other at 1.5 ms × FACTOR on MACHINE
  jq --argjson v "$(awk -v f="$2" 'BEGIN { printf "%.6f", 1.5 * f }')" --arg m "$3" \
    '.benchmarks[1].real_time = $v | .context.machine = $m' "$here/inputs/results_ok.json" >"$1"
}
jq 'del(.entries[1].advisory)' "$here/inputs/baseline_advisory.json" >baseline.json
for i in $(seq 1 10); do
  results "run$i.json" "$( ((i % 2)) && echo 1.01 || echo 0.99)" ci-runner
  "$perfgate" history record --store history.db --results "run$i.json" --commit "$(printf 'c0ffee%02d' "$i")" \
    --date "$(printf '2026-12-%02dT00:00:00Z' "$i")" >/dev/null
  (( i > 3 )) || "$perfgate" history record --store short.db --results "run$i.json" --commit "$(printf 'c0ffee%02d' "$i")" \
    --date "$(printf '2026-12-%02dT00:00:00Z' "$i")" >/dev/null
done
results flat.json 1.005 ci-runner
results step.json 1.3 ci-runner
results elsewhere.json 1.3 laptop
judge() {  # judge NAME EXPECTED_EXIT ARGS...: compare ARGS (baseline.json unless ARGS name one), its exit status checked
  local name=$1 expected=$2
  shift 2
  [[ " $* " == *" --baseline "* ]] || set -- --baseline baseline.json "$@"
  set +e
  "$perfgate" compare "$@" >"$name.txt" 2>&1
  local status=$?
  set -e
  [[ $status == "$expected" ]] || { cat "$name.txt" >&2; fail "$name: exit $status, expected $expected"; }
}
judge flat 0 --results flat.json --history-thresholds history.db
grep -q "note: 1 of 1 timings judged against the last 10 runs of main on machine ci-runner" flat.txt || { cat flat.txt >&2; fail "no note of the history judged"; }
grep -q "PASS .*BM_Other .*real_time .*(history: last 10 runs of main in" flat.txt || { cat flat.txt >&2; fail "the row does not say its threshold came from history"; }
judge step 1 --results step.json --history-thresholds history.db
grep -q "^FAIL: BM_Other real_time" step.txt || { cat step.txt >&2; fail "the step is not named"; }
judge baseline-alone 0 --results step.json
grep -q "SKIPPED .*BM_Other" baseline-alone.txt || { cat baseline-alone.txt >&2; fail "without --history-thresholds the baseline should skip the timing"; }
judge elsewhere 0 --results elsewhere.json --history-thresholds history.db
grep -q "0 of 1 timings judged" elsewhere.txt && grep -q "SKIPPED .*BM_Other" elsewhere.txt || { cat elsewhere.txt >&2; fail "another machine's results were judged against ci-runner's history"; }
judge short 0 --results step.json --history-thresholds short.db
grep -q "0 of 1 timings judged .*with fewer than 5 such runs, against the baseline" short.txt || { cat short.txt >&2; fail "3 runs should leave the baseline to judge"; }
judge wide 0 --results step.json --history-thresholds history.db --history-min-shift 0.5
grep -q "at least 50 %" wide.txt || { cat wide.txt >&2; fail "the minimum shift is not the one given"; }
# Dates compare as instants whatever their length: a baseline dated 2026-12-06 (midnight) counts the runs of the 6th
# at 00:00:00 as not after it, leaving 4 of the 10 (7th to 10th), too few, so the baseline judges.
jq '.provenance.date = "2026-12-06"' baseline.json >short-date.json
judge short-date 0 --results step.json --history-thresholds history.db --baseline short-date.json
grep -q "0 of 1 timings judged" short-date.txt || { cat short-date.txt >&2; fail "a short date compared as text"; }
# A baseline without a timing (a cost gate's counts) leaves the history alone, even for results that name no machine.
jq '.entries |= map(select(.unit != "ms"))' baseline.json >counts.json
jq 'del(.context.machine, .context.cpu_model)' step.json >anonymous.json
judge counts 0 --results anonymous.json --baseline counts.json --history-thresholds history.db
! grep -q "judged against the last" counts.txt || { cat counts.txt >&2; fail "a baseline of counts was judged by history"; }
# Only runs recorded after the baseline count: a baseline recorded after every run leaves the timing to itself.
jq '.provenance.date = "2027-01-15T00:00:00Z"' baseline.json >later.json
judge later 0 --results step.json --history-thresholds history.db --baseline later.json
grep -q "0 of 1 timings judged" later.txt || { cat later.txt >&2; fail "runs older than the baseline judged it"; }
grep -q "accept" step.txt && grep -q "the update starts them anew" step.txt || { cat step.txt >&2; fail "the fix does not say the update restarts the history"; }
# gate --history-thresholds: a baseline gate whose suite writes the 30 % slower results.
mkdir -p gates build
cp baseline.json gates/suite.json
printf '#!/bin/sh\nfor a in "$@"; do case "$a" in --benchmark_out=*) cp %s "${a#--benchmark_out=}";; esac; done\n' "$work/step.json" >build/suite
chmod +x build/suite
echo '{"schema_version": 2, "baseline_path": "{name}.json", "gates": [{"name": "suite", "label": "performance", "kind": "baseline", "command": ["suite"]}]}' >gates/gates.json
set +e
"$perfgate" gate --manifest gates/gates.json --build build --history-thresholds history.db >gate.txt 2>&1
status=$?
set -e
[[ $status == 1 ]] && grep -q "^FAIL: BM_Other real_time" gate.txt || { cat gate.txt >&2; fail "gate --history-thresholds: exit $status"; }
echo "history_thresholds: a flat history passes, a 30 % step fails, other machines and short histories keep the baseline: PASS"
