#!/usr/bin/env bash
# The cost runner on any x86-64 host (tests/cost_hosts): a program whose library initializer reads the time-stamp
# counter with RDTSCP and RDPID, which valgrind ends with SIGILL where it cannot decode them (RDPID everywhere with
# valgrind 3.19, RDTSCP where CPUID hides it), is measured all the same, with the counts of the same program without
# that library; a program running an instruction nobody emulates (AVX-512) is reported unavailable, one line and
# exit 6 (or --unavailable-exit-code), never a pass or a failure, and perfgate gate goes on with the other gates.
# Usage: cost_hosts.sh PERFGATE BUILT_PROGRAMS_FOLDER
set -euo pipefail
perfgate=$1
bin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "cost_hosts: FAILED: $*"
  for log in "$work"/*.log; do [[ -f $log ]] && { echo "--- $log"; tail -n 20 "$log"; }; done
  exit 1
}
counts() { jq -c '[.benchmarks[] | select(.name == "steps") | .instructions]' "$1"; }
# exits CODE ERRORS COMMAND...: runs COMMAND with its standard error in ERRORS; fails unless it exits with CODE.
exits() {
  local want=$1 errors=$2 code=0
  shift 2
  "$@" >/dev/null 2>"$errors" || code=$?
  [[ $code == "$want" ]] || fail "exit $code, not $want: $* ($(head -c 600 "$errors"))"
}

# The reproduction is real: under valgrind alone the initializer's RDPID (or, where CPUID hides it, its RDTSCP before
# it) ends the program before main.
if valgrind --tool=callgrind --callgrind-out-file="$work/alone.out" "$bin/cost_hosts_steps_timer_initializer" >"$work/alone.log" 2>&1; then
  fail "valgrind ran the RDPID initializer without perfgate; the reproduction no longer reproduces"
fi
grep -Eq "unhandled instruction bytes: 0x(F3 0xF 0xC7|F 0x1 0xF9)" "$work/alone.log" || fail "valgrind did not stop at RDPID or RDTSCP"

# Through the cost runner the same program is measured, with the counts of the program without that library.
"$perfgate" cost --out "$work/with.json" -- "$bin/cost_hosts_steps_timer_initializer" >"$work/with.log" 2>&1 ||
  fail "perfgate cost could not measure the program whose initializer runs RDTSCP and RDPID"
"$perfgate" cost --out "$work/without.json" -- "$bin/cost_hosts_steps" >"$work/without.log" 2>&1 ||
  fail "perfgate cost could not measure the plain program"
with=$(counts "$work/with.json")
without=$(counts "$work/without.json")
[[ $with == "$without" && $with == \[*[0-9]*\] ]] || fail "the steps' counts differ: $with with the initializer, $without without"
jq -e '.context.cost_emulated | test("^RDTSCP and RDPID [(]valgrind stopped the program at (RDPID|RDTSCP) ")' "$work/with.json" >/dev/null ||
  fail "the emulated run does not say so in its context"
jq -e '.context | has("cost_emulated") | not' "$work/without.json" >/dev/null || fail "a run that needed no emulator says it had one"
echo "cost_hosts: RDTSCP and RDPID in an initializer: measured, instructions per step $with as without it"

# A perfgate without its emulator beside it says what is missing, as unavailable, instead of a bare failure.
mkdir "$work/alone"
cp "$perfgate" "$work/alone/perfgate"
exits 6 "$work/alone.err" "$work/alone/perfgate" cost --out "$work/alone.json" -- "$bin/cost_hosts_steps_timer_initializer"
grep -Eq "^perfgate: unavailable: .*cannot decode (RDPID|RDTSCP) .*instruction emulator, which handles it, is missing" "$work/alone.err" ||
  fail "perfgate without its emulator did not say so: $(cat "$work/alone.err")"

# An instruction nobody emulates: unavailable, in one line naming it and who ran it; nothing written. valgrind refuses
# AVX-512 whatever the CPU: it decodes the program's instructions before any of them runs.
exits 6 "$work/wide.err" "$perfgate" cost --out "$work/wide.json" -- "$bin/cost_hosts_steps_wide_initializer"
[[ $(wc -l <"$work/wide.err") == 1 ]] || fail "more than one line on standard error: $(cat "$work/wide.err")"
grep -q "^perfgate: unavailable: cost: callgrind cannot run .*AVX-512.*clear_a_wide_register.*; measure on a CPU" "$work/wide.err" ||
  fail "the line does not name the instruction, who ran it and the way out: $(cat "$work/wide.err")"
[[ ! -e $work/wide.json ]] || fail "an unavailable measurement wrote results"
exits 77 "$work/wide77.err" "$perfgate" cost --unavailable-exit-code 77 --out "$work/wide.json" -- "$bin/cost_hosts_steps_wide_initializer"
echo "cost_hosts: AVX-512 in an initializer: $(cat "$work/wide.err")"

# Emulated, then stopped: the line names the instruction that stopped the run with the emulator, not the RDPID before
# it that valgrind reported too.
exits 6 "$work/both.err" "$perfgate" cost --out "$work/both.json" -- "$bin/cost_hosts_steps_timer_then_wide_initializer"
grep -q "^perfgate: unavailable: .*cannot decode an AVX-512 .*read_the_timer_then_clear_a_wide_register" "$work/both.err" ||
  fail "RDPID then AVX-512: the line does not name the AVX-512 instruction: $(cat "$work/both.err")"

# perfgate gate: the unmeasurable gate is said and skipped, the other gate judged, and the whole is not a pass.
"$perfgate" update --allow-dirty --reason "the host test's baseline" --results "$work/without.json" \
  --baseline "$work/steps.json" --track instructions:lower:exact >"$work/update.log" 2>&1 || fail "perfgate update"
cat >"$work/manifest.json" <<JSON
{"schema_version": 2, "baseline_path": "{name}.json",
 "gates": [
  {"name": "wide", "kind": "cost", "label": "cost", "command": ["cost_hosts_steps_wide_initializer"]},
  {"name": "steps", "kind": "cost", "label": "cost", "command": ["cost_hosts_steps"]}]}
JSON
# Results of an earlier run at the unmeasurable gate's paths must go: nobody may read them as this run's.
mkdir -p "$work/results"
: >"$work/results/.perfgate-gate"  # the marker an earlier gate run leaves: the folder is perfgate's
cp "$work/with.json" "$work/results/wide.json"
cp "$work/with.functions.tsv" "$work/results/wide.functions.tsv"
code=0
"$perfgate" gate --manifest "$work/manifest.json" --build "$bin" --results-dir "$work/results" \
  --verdicts "$work/verdicts.json" --warning-exit-code 77 --unavailable-exit-code 77 >"$work/gate.log" 2>&1 || code=$?
[[ $code == 77 ]] || fail "perfgate gate exited $code with one gate unmeasurable here, not 77"
grep -q "^perfgate gate: NOT MEASURED HERE (2 gates; not measured on this host: wide)" "$work/gate.log" || fail "gate's last line"
grep -q "^perfgate: unavailable: gate wide: " "$work/gate.log" || fail "gate did not say why gate wide was not measured"
[[ -f $work/results/steps.json && ! -e $work/results/wide.json && ! -e $work/results/wide.functions.tsv ]] ||
  fail "gate's results: the other gate measured, none (not even an earlier run's) for the unmeasurable one"
jq -e '[.. | objects | select(has("benchmark")) | .benchmark] | index("steps") != null' "$work/verdicts.json" >/dev/null ||
  fail "verdicts.json lacks the measured gate"
echo "cost_hosts: perfgate gate: $(tail -n 1 "$work/gate.log")"
