#!/usr/bin/env bash
# The dashboard from a generated history, checked in headless Chromium (tools/report-check/check_dashboard.mjs): 30
# commits run on two machines, two suites each, where BM_Parse's time steps up 25 % at the 19th commit on runner-a only; the
# page must show that change point at that commit (linked), no other, the baseline's gated and advisory series
# marked as such, and each filter must leave only its series. SCREENSHOT (optional) keeps the page's picture.
# Usage: dashboard.sh PERFGATE [SCREENSHOT]
set -euo pipefail
perfgate=$(realpath "$1")
screenshot=${2:+$(realpath -m "$2")}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "dashboard: $*" >&2; exit 1; }
cd "$work"
result() {  # result FILE MACHINE PARSE_US SORT_COMPARISONS
  cat >"$1" <<JSON
{"context": {"machine": "$2", "host_name": "$2"},
 "benchmarks": [
  {"name": "BM_Parse/64", "run_name": "BM_Parse/64", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
   "iterations": 10, "real_time": $3, "cpu_time": 100, "time_unit": "us"},
  {"name": "BM_Sort/1024", "run_name": "BM_Sort/1024", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
   "iterations": 10, "real_time": 40, "cpu_time": 40, "time_unit": "us", "comparisons": $4}]}
JSON
}
for i in $(seq 1 30); do
  for machine in runner-a runner-b; do
    mkdir -p "$machine"
    parse=$(awk -v i="$i" -v m="$machine" 'BEGIN { v = 100 * ((i >= 19 && m == "runner-a") ? 1.25 : 1) * (1 + 0.01 * ((i * 7) % 5 - 2)); printf "%.3f", v }')
    result "$machine/parsing.json" "$machine" "$parse" 10000
    result "$machine/flat.json" "$machine" 100 10000
    sed 's/"BM_Parse\/64"/"BM_Lex\/64"/g' "$machine/flat.json" >"$machine/lexing.json"
    "$perfgate" history record --store history.db --results "$machine/parsing.json" --results "$machine/lexing.json" \
      --commit "$(printf 'c0ffee%02d' "$i")" --date "$(printf '2026-10-%02dT00:00:00Z' "$i")" >/dev/null
  done
done
cat >baseline.json <<'JSON'
{"schema_version": 1,
 "provenance": {"git_sha": "c0ffee01", "date": "2026-10-01", "machine": "runner-a", "build_type": "Release", "torch_version": "",
                "threads": "1", "reason": "dashboard test"},
 "entries": [
  {"benchmark": "BM_Sort/1024", "field": "comparisons", "value": 10000, "unit": "", "direction": "either", "tolerance": {"exact": true}},
  {"benchmark": "BM_Parse/64", "field": "real_time", "value": 100, "unit": "us", "direction": "lower", "tolerance": {"rel": 0.5},
   "advisory": true}]}
JSON
"$perfgate" dashboard --store history.db --out site --baseline baseline.json --title "perfgate dashboard (test history)" \
  --commit-url 'https://github.com/OWNER/REPO/commit/{commit}' >out.txt || fail "exit $?: $(cat out.txt)"
grep -q '^dashboard: 14 series, 1 change points, 60 runs: ' out.txt || fail "unexpected summary: $(cat out.txt)"
checker=("$root/tools/report-check/run.sh" dashboard site/index.html --series 14 --change 'BM_Parse/64 real_time@c0ffee19'
         --kind 'BM_Sort/1024 comparisons=gated' --kind 'BM_Parse/64 real_time=advisory' --kind 'BM_Lex/64 real_time=recorded')
[[ -n $screenshot ]] && checker+=(--screenshot "$screenshot")
"${checker[@]}" || fail "the page does not show the history as it is (above)"

# Refusals: one line, exit 2.
for bad in "--commit-url javascript:x{commit}" "--commit-url https://x/commit/" "--branch nothing-here"; do
  set +e
  # shellcheck disable=SC2086  # each case is a list of words
  "$perfgate" dashboard --store history.db --out site2 $bad >/dev/null 2>err.txt
  status=$?
  set -e
  [[ $status == 2 && $(wc -l <err.txt) == 1 ]] || fail "$bad: exit $status, $(cat err.txt)"
done
echo "dashboard: the planted step shown at its commit, kinds and filters as in the history"
