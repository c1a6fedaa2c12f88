#!/usr/bin/env bash
# Suites of other harnesses through everything perfgate does with results:
# - perfgate catch2 runs a real Catch2 binary (its test spec in brackets passed as written) into results whose
#   repetitions are its runs, which update baselines and compare judges, and whose benchmark filter is honoured;
# - perfgate time times two commands interleaved, and speedup pairs their runs: a command doing a quarter of the work
#   passes a floor of 2x and fails one of 20x; --hyperfine does the same through hyperfine;
# - cost --whole counts the processes a program starts;
# - the committed hyperfine export and Catch2 report are recorded in a history store and shown, and a report's
#   verdicts on the runner's Catch2 results become the pull request comment.
# Usage: other_harnesses.sh PERFGATE CATCH2_SUITE INPUTS
set -euo pipefail
perfgate=$(realpath "$1")
suite=$(realpath "$2")
inputs=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "other_harnesses: FAIL: $*" >&2; exit 1; }
# expect CODE COMMAND...: the command exits with CODE (its output in last.log).
expect() {
  local code=$1
  shift
  set +e
  "$@" >last.log 2>&1
  local status=$?
  set -e
  [[ $status -eq $code ]] || { cat last.log >&2; fail "exit $status, not $code: $*"; }
}

# Catch2: two runs, each one repetition of each benchmark's mean; the test spec "[benchmark]" reaches Catch2 as written.
expect 0 "$perfgate" catch2 --runs 2 --out catch2.json -- "$suite" "[benchmark]" --benchmark-samples 20 --benchmark-no-analysis
jq -e '[.measurements[] | select(.field == "real_time") | .repetitions | length] == [2, 2]
       and ([.measurements[].benchmark] | sort == ["sum 10000", "sum <1000> & \"more\""])
       and ([.measurements[].unit] | unique == ["ns"]) and (.context.harness == "Catch2 2")' catch2.json >/dev/null ||
  fail "the Catch2 results are not two runs of two benchmarks in ns: $(cat catch2.json)"
expect 0 "$perfgate" catch2 --runs 1 --out filtered.json -- "$suite" "[benchmark]" --benchmark-samples 20 \
  --benchmark-no-analysis '--benchmark_filter=^sum 1' --benchmark_context=git_sha=c0ffee
jq -e '([.measurements[].benchmark] == ["sum 10000"]) and .context.git_sha == "c0ffee"' filtered.json >/dev/null ||
  fail "the filter or the context was not honoured: $(cat filtered.json)"
expect 0 "$perfgate" catch2 --runs 2 --out catch2-again.json -- "$suite" "[benchmark]" --benchmark-samples 20 \
  --benchmark-no-analysis
expect 0 "$perfgate" update --allow-dirty --baseline catch2-baseline.json --reason "first" --track real_time:lower:rel=2 \
  --results catch2.json --results catch2-again.json
expect 0 "$perfgate" compare --results catch2.json --baseline catch2-baseline.json
# A spec matching no test: Catch2 fails, and perfgate says so in one line.
expect 2 "$perfgate" catch2 --out none.json -- "$suite" "[no such tag]"
[[ ! -e none.json ]] || fail "a failed Catch2 run left results"

# Two commands interleaved, paired: the candidate does a quarter of the reference's work.
work_loop() { printf "awk 'BEGIN { for (i = 0; i < %d; i++) s += i }'" "$1"; }
expect 0 "$perfgate" time --runs 8 --warmup 1 --out pair.json -- "reference=$(work_loop 4000000)" "candidate=$(work_loop 1000000)"
jq -e '[.measurements[] | select(.field == "real_time") | .repetitions | length] == [8, 8]' pair.json >/dev/null ||
  fail "the pair's results are not 8 runs each: $(cat pair.json)"
expect 0 "$perfgate" speedup --results pair.json --reference reference --candidate candidate --threshold 2
expect 1 "$perfgate" speedup --results pair.json --reference reference --candidate candidate --threshold 20
# What perfgate asks of hyperfine, through a stand-in on PATH that records its arguments: one run per invocation, no
# shell, a warm-up in each, the name and the command's text never read as options; one run's user plus system time
# is its cpu_time.
mkdir stand-in
cat >stand-in/hyperfine <<'SCRIPT'
#!/bin/sh
printf '%s|' "$@" >>"$STAND_IN_LOG"
echo >>"$STAND_IN_LOG"
while [ $# -gt 0 ]; do
  case $1 in --export-json) out=$2; shift ;; --command-name=*) name=${1#--command-name=} ;; esac
  shift
done
printf '{"results": [{"command": "%s", "times": [0.5], "user": 0.25, "system": 0.125, "exit_codes": [0]}]}\n' "$name" >"$out"
SCRIPT
chmod +x stand-in/hyperfine
STAND_IN_LOG=$work/stand-in.log PATH="$work/stand-in:$PATH" \
  expect 0 "$perfgate" time --hyperfine --runs 2 --warmup 1 --out stand-in.json -- "x=prog 'a b'"
[[ $(grep -c -- '--shell=none|--runs|1|' stand-in.log) == 2 && $(grep -c -- "--command-name=x|--warmup|1|--|prog 'a b'|" stand-in.log) == 2 ]] ||
  fail "hyperfine was not asked for one run without a shell and a warm-up: $(cat stand-in.log)"
jq -e '[.measurements[] | {field, repetitions}] == [{"field": "real_time", "repetitions": [0.5, 0.5]},
                                                   {"field": "cpu_time", "repetitions": [0.375, 0.375]}]' \
  stand-in.json >/dev/null || fail "the stand-in's runs were not read as two runs: $(cat stand-in.json)"
command -v hyperfine >/dev/null || fail "hyperfine is not installed (tools/install-deps installs it)"
expect 0 "$perfgate" time --hyperfine --runs 6 --out pair-hf.json -- "reference=$(work_loop 4000000)" "candidate=$(work_loop 1000000)"
expect 0 "$perfgate" speedup --results pair-hf.json --reference reference --candidate candidate --threshold 2
jq -e '.context.harness | startswith("hyperfine")' pair-hf.json >/dev/null || fail "no hyperfine harness recorded"

# A whole run's instructions include the processes it starts: a shell whose loop runs in a child it forks.
expect 0 "$perfgate" cost --whole forked --out forked.json -- /bin/sh -c '(i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done); true'
jq -e '.benchmarks[0].instructions > 10000000' forked.json >/dev/null ||
  fail "the forked child's loop is not counted: $(jq -c '.benchmarks[0].instructions' forked.json) instructions"

# History and comment on adapted results.
expect 0 "$perfgate" history record --store history.db --results "$inputs/formats/hyperfine-1.15.0.json" --commit c0ffee01 \
  --date 2026-12-01T00:00:00Z
expect 0 "$perfgate" history record --store history.db --results "$inputs/catch2/catch2-v3.7.1-benchmarks.xml" \
  --commit c0ffee02 --date 2026-12-02T00:00:00Z
expect 0 "$perfgate" history show --store history.db --field real_time
grep -q "list /usr/bin" last.log && grep -q "sum 1000 ints" last.log || fail "history shows not both harnesses: $(cat last.log)"
# A report and its comment judge the adapted results (a raw export names no machine, so its timings would read
# SKIPPED: perfgate's runners record the host).
expect 0 "$perfgate" report --out-dir report --check catch2.json=catch2-baseline.json
jq -e '[.checks[] | select(.verdict == "PASS")] | length == 2' report/verdicts.json >/dev/null ||
  fail "the report did not judge both Catch2 benchmarks: $(cat report/verdicts.json)"
expect 0 "$perfgate" comment --verdicts report/verdicts.json --out comment.md
grep -qF '2 passed' comment.md || fail "the comment does not show the Catch2 verdicts: $(cat comment.md)"
echo "other_harnesses: Catch2, commands, hyperfine through update, compare, speedup, history and comment: PASS"
