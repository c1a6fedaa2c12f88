#!/usr/bin/env bash
# A catalogue of hostile and broken inputs for perfgate, each with the outcome the README documents. Every case
# is checked for: its exit code; on exit 2, exactly one line on standard error starting "perfgate: error: "; a
# baseline given to the command byte-identical afterwards with the same mode; no file left beside it or in the
# private TMPDIR; and, where a case says so, a pattern that must not (or must) appear in the output.
# Usage: hostile_inputs.sh PERFGATE WORK      Exit 0 when every case behaves as documented, 1 otherwise.
set -uo pipefail
perfgate=$(realpath "$1")
: "${2:?usage: hostile_inputs.sh PERFGATE WORK (a folder of its own: it is emptied)}"
work=$(realpath -m "$2")
rm -rf "$work"
mkdir -p "$work/in" "$work/tmp"
export TMPDIR="$work/tmp"  # temporary folders perfgate makes land here, so leftovers can be counted
cases=0
failures=0

# ---------------------------------------------------------------------------------------------------- inputs
in="$work/in"
results() {  # results FILE ROW...: a Google Benchmark JSON file with these benchmark rows
  local file=$1 rows
  shift
  rows=$(IFS=,; echo "$*")
  printf '{"context": {"git_sha": "abc", "machine_fingerprint": "m1"}, "benchmarks": [%s]}\n' "$rows" >"$in/$file"
}
baseline() {  # baseline FILE ENTRY...: a schema-1 baseline with these entries
  local file=$1 entries
  shift
  entries=$(IFS=,; echo "$*")
  printf '{"schema_version": 1, "provenance": {"git_sha": "abc", "date": "d", "machine": "m", "build_type": "Release",
 "torch_version": "t", "threads": "1", "reason": "fixture", "machine_fingerprint": "m1"}, "entries": [%s]}\n' "$entries" >"$in/$file"
}
row() {  # row NAME REP FIELDS: one iteration run
  printf '{"name": "%s", "run_type": "iteration", "repetition_index": %s, "iterations": 10, %s}' "$1" "$2" "$3"
}
speedup_rows() {  # speedup_rows REF_TIME CAND_TIME: 8 interleaved repetitions of BM_Ref and BM_Cand
  local out=() i
  for i in 0 1 2 3 4 5 6 7; do
    out+=("$(row BM_Ref "$i" "\"real_time\": $1, \"cpu_time\": $1, \"time_unit\": \"ms\"")")
    out+=("$(row BM_Cand "$i" "\"real_time\": $2, \"cpu_time\": $2, \"time_unit\": \"ms\"")")
  done
  (IFS=,; echo "${out[*]}")
}
deep() {  # deep FILE DEPTH PREFIX SUFFIX: PREFIX, DEPTH nested arrays, SUFFIX
  { printf '%s' "$3"; head -c "$2" /dev/zero | tr '\0' '['; head -c "$2" /dev/zero | tr '\0' ']'; printf '%s\n' "$4"; } >"$in/$1"
}

ms_entry='{"benchmark": "BM_T", "field": "real_time", "value": 1.5, "unit": "ms", "direction": "lower", "tolerance": {"rel": 0.1}}'
baseline time_ms.json "$ms_entry"
results ten_times_slower_in_s.json "$(row BM_T 0 '"real_time": 0.015, "cpu_time": 0.015, "time_unit": "s"')"
results same_in_us.json "$(row BM_T 0 '"real_time": 1500, "cpu_time": 1500, "time_unit": "us"')"
results minutes.json "$(row BM_T 0 '"real_time": 1, "cpu_time": 1, "time_unit": "min"')"
results zero_iterations.json '{"name": "BM_T", "run_type": "iteration", "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ms"}'
results negative_iterations.json '{"name": "BM_T", "run_type": "iteration", "iterations": -3, "real_time": 1, "cpu_time": 1, "time_unit": "ms"}'
results fractional_iterations.json '{"name": "BM_T", "run_type": "iteration", "iterations": 0.5, "real_time": 1, "cpu_time": 1, "time_unit": "ms"}'
baseline time_in_db.json '{"benchmark": "BM_T", "field": "real_time", "value": 1.5, "unit": "dB", "direction": "lower", "tolerance": {"rel": 0.1}}'
results speedup.json "$(speedup_rows 4.0 1.0)"
results speedup_zero_reference.json "$(speedup_rows 0 1.0)"
results speedup_zero_candidate.json "$(speedup_rows 4.0 0)"
baseline either_near_max.json '{"benchmark": "BM_T", "field": "n", "value": 1.7e308, "unit": "", "direction": "either", "tolerance": {"rel": 0.5}}'
baseline lower_abs_overflow.json '{"benchmark": "BM_T", "field": "n", "value": 1e308, "unit": "", "direction": "lower", "tolerance": {"abs": 1e308}}'
results huge_counter.json "$(row BM_T 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms", "n": 1.7e308')" \
  "$(row BM_T 1 '"real_time": 1, "cpu_time": 1, "time_unit": "ms", "n": 1.7e308')"
baseline counter.json '{"benchmark": "BM_T", "field": "n", "value": 1.0, "unit": "", "direction": "lower", "tolerance": {"rel": 0.1}}'
deep deep_results.json 100000 '{"benchmarks": [' ']}'
deep deep_baseline.json 100000 '{"schema_version": 1, "entries": ' '}'
deep deep_trace_pid.json 200000 '[{"ph": "X", "name": "op", "ts": 0, "dur": 1, "pid": ' '}]'
deep deep_tasks.json 100000 '' ''
results newline_name.json "$(row 'BM_T\nFAIL: forged row' 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')"
results newline_duplicate.json "$(row 'BM_T\nperfgate: error: forged' 0 '"n": 1')" "$(row 'BM_T\nperfgate: error: forged' 0 '"n": 1')"
results escape_sequence.json "$(row 'BM_T\u001b[2J\u001b]0;owned\u0007' 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')"
results slow_counter.json "$(row BM_T 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms", "n": 5')"
printf '#!/bin/sh\nexec sleep 600\n' >"$in/hung_benchmark.sh"
chmod +x "$in/hung_benchmark.sh"
results inconclusive.json "$(speedup_rows 2.2 1.0)"
sed -i 's/"real_time": 2.2, "cpu_time": 2.2, "time_unit": "ms"}/"real_time": 1.9, "cpu_time": 1.9, "time_unit": "ms"}/3' "$in/inconclusive.json"
strange_dir="$work/a dir with 'quotes' and \$(touch PWNED)"
mkdir -p "$strange_dir"
cp "$in/counter.json" "$strange_dir/baseline.json"
printf 'SQLite format 3\0garbage' >"$in/not_really.db"

# --------------------------------------------------------------------------------------------------- the runner
# check NAME EXPECTED [--baseline FILE] [--forbid REGEX] [--expect REGEX] [--absent PATH] -- ARGS...
check() {
  local name=$1 expected=$2
  shift 2
  local guarded="" forbid="" expect="" absent=""
  while [[ $1 != -- ]]; do
    case $1 in
      --baseline) guarded=$2 ;;
      --forbid) forbid=$2 ;;
      --expect) expect=$2 ;;
      --absent) absent=$2 ;;
    esac
    shift 2
  done
  shift
  cases=$((cases + 1))
  local before="" mode="" listing_before out err rc problems=()
  [[ -n $guarded ]] && before=$(sha256sum <"$guarded") && mode=$(stat -c %a "$guarded")
  listing_before=$(ls -A "$(dirname "${guarded:-$in/x}")")
  out=$(timeout 60 "$perfgate" "$@" 2>"$work/stderr")
  rc=$?
  err=$(cat "$work/stderr")
  [[ $rc == "$expected" ]] || problems+=("exit $rc, expected $expected")
  if [[ $rc == 2 ]]; then
    [[ $(printf '%s\n' "$err" | wc -l) == 1 && $err == "perfgate: error: "* ]] || problems+=("not one error line: $err")
  fi
  if [[ -n $guarded ]]; then
    [[ $(sha256sum <"$guarded") == "$before" ]] || problems+=("the baseline changed")
    [[ $(stat -c %a "$guarded") == "$mode" ]] || problems+=("the baseline's mode changed")
    [[ $(ls -A "$(dirname "$guarded")") == "$listing_before" ]] || problems+=("files appeared beside the baseline")
  fi
  [[ -z $forbid ]] || ! printf '%s\n%s\n' "$out" "$err" | grep -Eq -- "$forbid" || problems+=("output matches /$forbid/")
  [[ -z $expect ]] || printf '%s\n%s\n' "$out" "$err" | grep -Eq -- "$expect" || problems+=("output lacks /$expect/")
  [[ -z $absent || ! -e $absent ]] || problems+=("$absent exists")
  [[ -z $(ls -A "$TMPDIR") ]] || problems+=("left in TMPDIR: $(ls -A "$TMPDIR")") && rm -rf "${TMPDIR:?}"/*
  if ((${#problems[@]})); then
    failures=$((failures + 1))
    printf 'DEFECT %s: %s\n' "$name" "$(IFS=';'; echo "${problems[*]}")"
  else
    printf 'ok     %s\n' "$name"
  fi
}
guard() {  # a fresh copy of a baseline in its own folder, for cases that must leave it untouched
  mkdir -p "$work/g/$1"
  cp "$in/$2" "$work/g/$1/baseline.json"
  chmod "${3:-644}" "$work/g/$1/baseline.json"
  echo "$work/g/$1/baseline.json"
}

# --------------------------------------------------------------------- 1. inputs that could make a slower run PASS
check time_unit_reconciled_fails 1 -- compare --results "$in/ten_times_slower_in_s.json" --baseline "$in/time_ms.json"
check time_unit_reconciled_passes 0 -- compare --results "$in/same_in_us.json" --baseline "$in/time_ms.json"
check time_unit_unknown 2 -- compare --results "$in/minutes.json" --baseline "$in/time_ms.json"
check zero_iterations 2 -- compare --results "$in/zero_iterations.json" --baseline "$in/time_ms.json"
check negative_iterations 2 -- compare --results "$in/negative_iterations.json" --baseline "$in/time_ms.json"
check fractional_iterations 2 -- compare --results "$in/fractional_iterations.json" --baseline "$in/time_ms.json"
check time_judged_in_a_non_time_unit 2 -- compare --results "$in/same_in_us.json" --baseline "$in/time_in_db.json"
for value in nan -nan NaN inf -inf -1 0 1e999 3x ''; do
  check "speedup_threshold_${value:-empty}" 2 -- speedup --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --threshold "$value"
done
check speedup_threshold_valid 0 -- speedup --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --threshold 3
check speedup_confidence_nan 2 -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --confidence nan
check speedup_more_seconds_inf 2 -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --more-seconds inf -- /bin/true
check speedup_zero_reference_time 2 -- speedup --threshold 3 --results "$in/speedup_zero_reference.json" --reference BM_Ref --candidate BM_Cand
check speedup_zero_candidate_time 2 -- speedup --threshold 3 --results "$in/speedup_zero_candidate.json" --reference BM_Ref --candidate BM_Cand
check speedup_same_benchmark_twice 2 -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Ref
check report_threshold_nan 2 --absent "$work/r1/report.html" -- report --out-dir "$work/r1" --speedup-results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --threshold nan
check report_target_negative 2 --absent "$work/r2/report.html" -- report --out-dir "$work/r2" --threshold 3 --speedup-results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --target -1
check calibrate_power_nan 2 -- calibrate --results "$in/speedup.json" --results "$in/speedup.json" --results "$in/speedup.json" --power nan
check history_min_shift_inf 2 -- history show --db "$in/not_really.db" --min-shift inf
check ab_max_slowdown_nan 2 -- ab --max-slowdown nan HEAD HEAD
check either_band_overflows 2 -- compare --results "$in/huge_counter.json" --baseline "$in/either_near_max.json"
check lower_band_overflows 2 -- compare --results "$in/huge_counter.json" --baseline "$in/lower_abs_overflow.json"

# ------------------------------------------------------------------------------ 2. updates that lose or corrupt data
b=$(guard overflow counter.json)
check update_band_would_overflow 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in/huge_counter.json" --baseline "$b"
check update_new_baseline_would_overflow 2 --absent "$work/g/overflow/new.json" -- update --allow-dirty --reason x --results "$in/huge_counter.json" --baseline "$work/g/overflow/new.json" --track n:either:rel=0.9
b=$(guard mode640 counter.json 640)
check update_refused_keeps_mode 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in/deep_results.json" --baseline "$b"
b=$(guard timing time_ms.json)
check update_timing_needs_two_captures 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in/same_in_us.json" --baseline "$b"
check update_track_nan_tolerance 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in/same_in_us.json" --baseline "$b" --track cpu_time:lower:rel=nan
check update_track_negative_tolerance 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in/same_in_us.json" --baseline "$b" --track cpu_time:lower:rel=-0.1
check update_results_is_a_directory 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in" --baseline "$b"

# ------------------------------------------------------------------------------------------------ 3. deep nesting
check deep_results 2 -- compare --results "$in/deep_results.json" --baseline "$in/time_ms.json"
check deep_baseline 2 -- compare --results "$in/same_in_us.json" --baseline "$in/deep_baseline.json"
check deep_trace_pid 2 -- profile --trace "$in/deep_trace_pid.json"
check deep_speedup_results 2 -- speedup --threshold 3 --results "$in/deep_results.json" --reference BM_Ref --candidate BM_Cand
check deep_history_record 2 --absent "$work/deep.db" -- history record --db "$work/deep.db" --results "$in/deep_results.json" --commit abc
check deep_report_check 2 -- report --out-dir "$work/r3" --check "$in/deep_results.json=$in/time_ms.json"
check ab_tasks_of_brackets 2 -- ab --tasks "$in/deep_tasks.json" --work "$work/ab"

# ---------------------------------------------------------------------------------- 4. wrong or misleading messages
baseline none.json
check newline_in_name_cannot_forge_a_row 0 --forbid '^FAIL: forged' --expect 'BM_T\\nFAIL' -- compare --results "$in/newline_name.json" --baseline "$in/none.json"
check newline_in_error_stays_one_line 2 --forbid '^perfgate: error: forged' -- compare --results "$in/newline_duplicate.json" --baseline "$in/none.json"
check escape_sequence_in_name_is_escaped 0 --forbid $'\x1b' -- compare --results "$in/escape_sequence.json" --baseline "$in/none.json"
check newline_in_path 2 -- compare --results $'no\nperfgate: error: forged.json' --baseline "$in/none.json"
check suggested_update_is_quoted 1 --expect "--baseline '.*a dir with '\\\\''quotes'\\\\'' and \\\$\\(touch PWNED\\)/baseline.json'" -- compare --results "$in/slow_counter.json" --baseline "$strange_dir/baseline.json"
mkdir -p "$work/nogit"
cp "$in/counter.json" "$work/nogit/baseline.json"
export GIT_CEILING_DIRECTORIES="$work"  # the work folder lies inside this project's checkout; git must not look above it
check update_outside_a_repository_is_recorded 0 --expect 'updated' \
  --forbid 'has uncommitted changes' -- update --reason x --results "$in/slow_counter.json" --baseline "$work/nogit/baseline.json"
mkdir -p "$work/nogitbin"  # every program of /usr/bin but git
for program in /usr/bin/*; do [[ ${program##*/} == git* ]] || ln -s "$program" "$work/nogitbin/"; done
PATH="$work/nogitbin" check update_without_git_says_so 2 --baseline "$work/nogit/baseline.json" --expect 'git could not be run' \
  -- update --reason x --results "$in/slow_counter.json" --baseline "$work/nogit/baseline.json"
git init -q "$work/foreign" && cp "$in/counter.json" "$work/foreign/baseline.json"
git -C "$work/foreign" -c user.email=t@t -c user.name=t add baseline.json
git -C "$work/foreign" -c user.email=t@t -c user.name=t commit -qm fixture
GIT_TEST_ASSUME_DIFFERENT_OWNER=1 check update_in_a_repository_git_refuses_says_why 2 --baseline "$work/foreign/baseline.json" \
  --expect 'dubious ownership' -- update --reason x --results "$in/slow_counter.json" --baseline "$work/foreign/baseline.json"
unset GIT_CEILING_DIRECTORIES

# ------------------------------------------------------------------------------------------------- 5. side effects
start=$(date +%s)
check more_seconds_is_a_time_limit 3 --expect 'did not finish within' -- speedup --results "$in/inconclusive.json" --reference BM_Ref --candidate BM_Cand --threshold 2 --more-seconds 3 -- "$in/hung_benchmark.sh"
elapsed=$(($(date +%s) - start))
cases=$((cases + 1))
if ((elapsed > 20)); then failures=$((failures + 1)); echo "DEFECT more_seconds_returns_in_time: ${elapsed} s"; else echo "ok     more_seconds_returns_in_time (${elapsed} s)"; fi
pgrep -f "$in/hung_benchmark.sh" >/dev/null && { failures=$((failures + 1)); echo "DEFECT hung benchmark still running"; pkill -f "$in/hung_benchmark.sh"; }
check report_first_passes 0 -- report --out-dir "$work/r4" --check "$in/same_in_us.json=$in/time_ms.json"
check report_failure_removes_the_old_verdict 2 --absent "$work/r4/report.html" -- report --out-dir "$work/r4" --check "$in/deep_results.json=$in/time_ms.json"
for stale in summary.md verdicts.json junit.xml; do
  cases=$((cases + 1))
  if [[ -e $work/r4/$stale ]]; then failures=$((failures + 1)); echo "DEFECT report_failure_removes_$stale"; else echo "ok     report_failure_removes_$stale"; fi
done
check history_show_does_not_create 2 --absent "$work/typo.db" -- history show --db "$work/typo.db"
check history_show_not_a_database 2 -- history show --db "$in/not_really.db"

# ------------------------------------------- 6. found by an independent attack (255 inputs tried)
mkfifo "$in/fifo.json"
check results_from_dev_zero 2 -- compare --results /dev/zero --baseline "$in/none.json"
check results_from_a_fifo 2 -- compare --results "$in/fifo.json" --baseline "$in/none.json"
check results_is_a_folder 2 --expect 'it is a folder' -- compare --results "$in" --baseline "$in/none.json"
b=$(guard fifo counter.json)
rm "$b" && mkfifo "$b"
check update_onto_a_fifo 2 -- update --allow-dirty --reason x --results "$in/slow_counter.json" --baseline "$b"
printf '[%s{}]\n' "$(printf '{},%.0s' $(seq 1 300000))" >"$in/many_objects.json"
start=$(date +%s)
check many_small_objects_read_in_linear_time 2 -- compare --results "$in/many_objects.json" --baseline "$in/none.json"
cases=$((cases + 1))
if (($(date +%s) - start > 10)); then failures=$((failures + 1)); echo "DEFECT 300,000 objects took $(($(date +%s) - start)) s"; else echo "ok     many_small_objects_in_time"; fi
baseline duplicate_key.json '{"benchmark": "BM_T", "field": "n", "value": 1, "value": 6, "unit": "", "direction": "lower", "tolerance": {"exact": true}}'
check duplicate_key_refused 2 -- compare --results "$in/slow_counter.json" --baseline "$in/duplicate_key.json"
printf '{"schema_version": 4294967297, "provenance": {}, "entries": []}\n' >"$in/schema_wraps.json"
check schema_version_does_not_wrap 2 -- compare --results "$in/slow_counter.json" --baseline "$in/schema_wraps.json"
baseline either_with_limit.json '{"benchmark": "BM_T", "field": "n", "value": 5, "unit": "", "direction": "either", "tolerance": {"abs": 100}, "limit": 1}'
check either_with_a_limit_refused 2 -- compare --results "$in/slow_counter.json" --baseline "$in/either_with_limit.json"
results iterations_float.json '{"name": "BM_T", "run_type": "iteration", "iterations": 1.0, "n": 1}'
check iterations_not_whole 2 --expect 'whole number' -- compare --results "$in/iterations_float.json" --baseline "$in/none.json"
results index_wraps.json '{"name": "BM_T", "repetition_index": 0, "iterations": 1, "n": 1}' '{"name": "BM_T", "repetition_index": 4294967296, "iterations": 1, "n": 1}'
check repetition_index_does_not_wrap 2 --expect 'repetition_index 4294967296' -- compare --results "$in/index_wraps.json" --baseline "$in/none.json"
results speedup_infinite.json "$(speedup_rows 1e308 1e-300)"
check speedup_infinite_ratio 2 --absent "$work/sp.json" -- speedup --threshold 3 --results "$in/speedup_infinite.json" --reference BM_Ref --candidate BM_Cand --out "$work/sp.json"
check speedup_out_not_written_on_bad_baseline 2 --absent "$work/sp.json" -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --out "$work/sp.json" --baseline "$in/missing.json"
baseline speedup_advisory.json '{"benchmark": "speedup:BM_Cand/BM_Ref", "field": "speedup", "value": 50, "unit": "x", "direction": "higher", "tolerance": {"rel": 0.01}, "advisory": true}'
check speedup_advisory_baseline_never_fails 0 --expect 'WARNING' -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --baseline "$in/speedup_advisory.json"
baseline speedup_limit.json '{"benchmark": "speedup:BM_Cand/BM_Ref", "field": "speedup", "value": 2, "unit": "x", "direction": "higher", "tolerance": {"rel": 0.5}, "limit": 5}'
check speedup_baseline_limit_applies 1 -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --baseline "$in/speedup_limit.json"
bad_utf8=$'\xff'
cp "$in/same_in_us.json" "$in/r$bad_utf8.json"
check report_path_not_utf8 0 -- report --out-dir "$work/r5" --check "$in/r$bad_utf8.json=$in/time_ms.json"
b=$(guard reason counter.json)
check update_reason_not_utf8 2 --baseline "$b" -- update --allow-dirty --reason "$bad_utf8" --results "$in/slow_counter.json" --baseline "$b"
check update_empty_reason 2 --baseline "$b" -- update --allow-dirty --reason ' ' --results "$in/slow_counter.json" --baseline "$b"
check update_track_hexadecimal 2 --baseline "$b" -- update --allow-dirty --reason x --results "$in/slow_counter.json" --baseline "$b" --track cpu_time:lower:abs=0x10
mkdir -p "$work/users/plots"
echo notes >"$work/users/summary.md"
echo '<svg/>' >"$work/users/plots/x.svg"
check report_keeps_files_it_did_not_write 2 -- report --out-dir "$work/users"
cases=$((cases + 1))
if [[ -f $work/users/summary.md && -f $work/users/plots/x.svg ]]; then echo "ok     report_kept_the_users_files"; else failures=$((failures + 1)); echo "DEFECT report deleted files it did not write"; fi
results history_ms.json "$(row BM_T 0 '"real_time": 10, "cpu_time": 10, "time_unit": "ms"')"
results history_us.json "$(row BM_T 0 '"real_time": 10000, "cpu_time": 10000, "time_unit": "us"')"
check history_record_reconciles_units 0 -- history record --db "$work/units.db" --commit 00000c1 --results "$in/history_ms.json" --results "$in/history_us.json"
check history_show_in_one_unit 0 --expect 'latest 10 ms' -- history show --db "$work/units.db" --last 2
results newline_history.json "$(row 'BM_T\n::error::forged' 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')"
check history_names_stay_on_one_line 2 --forbid '^::error::' -- history record --db "$work/nl.db" --commit $'c\n::error::x' --results "$in/newline_history.json"
check history_bad_date 2 -- history record --db "$work/nl.db" --commit 00000c2 --date 'not a date' --results "$in/newline_history.json"
check history_date_not_in_the_calendar 2 --expect 'is not a date' -- history record --db "$work/nl.db" --commit 00000c2 --date '2026-13-45T99:99:99Z' --results "$in/newline_history.json"
check history_date_february_31 2 --expect 'is not a date' -- history record --db "$work/nl.db" --commit 00000c2 --date '2026-02-31' --results "$in/newline_history.json"
check history_date_leap_day 0 -- history record --db "$work/nl.db" --commit 00000c2 --date '2028-02-29' --results "$in/newline_history.json"
printf '[{"ph": "X", "name": "a", "ts": 1e308, "dur": 1e308}]\n' >"$in/trace_overflow.json"
check trace_time_overflow 2 -- profile --trace "$in/trace_overflow.json"
check calibrate_threshold_needs_a_pair 2 -- calibrate --results "$in/speedup.json" --results "$in/speedup.json" --results "$in/speedup.json" --threshold 2
check unknown_command_named 2 --expect "unknown command 'frobnicate'" -- frobnicate
# Outputs only ever replace regular files: a FIFO (or, as root, /dev/null) at --out is refused before any work and
# stays what it was; a user's file at profile's --out survives a program that cannot run.
mkfifo "$work/a_fifo"
check speedup_out_is_a_fifo 2 -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --out "$work/a_fifo"
# A program that would record a valid trace (and leave a mark): refused before it runs, not after.
printf '#!/bin/sh\nprintf %%s %s > "$1"\ntouch "%s"\n' "'[{\"ph\": \"X\", \"name\": \"a\", \"ts\": 0, \"dur\": 1}]'" "$work/profiler_ran" >"$in/fake_profiler.sh"
chmod +x "$in/fake_profiler.sh"
check profile_out_is_a_fifo 2 --absent "$work/profiler_ran" -- profile --out "$work/a_fifo" -- "$in/fake_profiler.sh" {trace}
check profile_with_a_fake_profiler 0 -- profile --out "$work/fake_trace.json" -- "$in/fake_profiler.sh" {trace}
rm -f "$work/profiler_ran"
cases=$((cases + 1))
if [[ -p $work/a_fifo ]]; then echo "ok     the_fifo_is_still_a_fifo"; else failures=$((failures + 1)); echo "DEFECT an output replaced a FIFO"; fi
echo precious >"$work/notes.txt"
check profile_keeps_out_when_the_program_cannot_run 2 -- profile --out "$work/notes.txt" -- "$work/no_such_program" {trace}
cases=$((cases + 1))
if [[ $(cat "$work/notes.txt") == precious ]]; then echo "ok     profile_kept_the_users_file"; else failures=$((failures + 1)); echo "DEFECT profile removed or changed --out before its program ran"; fi
b=$(guard same_capture_twice time_ms.json)
check update_one_capture_given_twice 2 --baseline "$b" --expect 'one capture given twice' -- update --allow-dirty --reason x --results "$in/same_in_us.json" --results "$in/same_in_us.json" --baseline "$b"
# A time that overflows in nanoseconds could only be stored and plotted as inf.
results time_beyond_ns.json "$(row BM_T 0 '"real_time": 1e308, "cpu_time": 1, "time_unit": "s"')"
check time_overflowing_in_ns 2 -- history record --db "$work/inf.db" --commit 00000c1 --results "$in/time_beyond_ns.json"

# ------------------------------------------------ 7. round two: containment, identity, storage names, presence
# expect_that NAME CONDITION-COMMAND...: one more case, judged by a shell condition on what is left on disk.
expect_that() {
  local name=$1
  shift
  cases=$((cases + 1))
  if "$@"; then echo "ok     $name"; else failures=$((failures + 1)); echo "DEFECT $name"; fi
}
same_content() { [[ -f $1 && $(cat "$1") == "$2" ]]; }
# Path containment: a report folder's links are never followed, written through or deleted through.
mkdir -p "$work/outside/pictures" && echo 'a user picture' >"$work/outside/pictures/1-mine.png"
echo 'a user file' >"$work/outside/notes.md"
mkdir -p "$work/linked_plots" && ln -s "$work/outside/pictures" "$work/linked_plots/plots"
check report_plots_folder_is_a_link 2 --expect "plots/ is a symbolic link|did not write" -- report --out-dir "$work/linked_plots" --check "$in/same_in_us.json=$in/time_ms.json"
expect_that report_kept_the_pictures_a_plots_link_led_to same_content "$work/outside/pictures/1-mine.png" 'a user picture'
check report_into_an_earlier_report 0 -- report --out-dir "$work/r7" --check "$in/same_in_us.json=$in/time_ms.json"
for f in "$work"/r7/plots/*.svg; do rm "$f" && ln -s "$work/outside/notes.md" "$f"; done
rm "$work/r7/summary.md" && ln -s "$work/outside/notes.md" "$work/r7/summary.md"
check report_over_planted_links 0 -- report --out-dir "$work/r7" --check "$in/same_in_us.json=$in/time_ms.json"
expect_that report_wrote_nothing_through_planted_links same_content "$work/outside/notes.md" 'a user file'
expect_that report_replaced_the_planted_links_by_files test -f "$work/r7/summary.md" -a ! -L "$work/r7/summary.md"
check report_failing_over_planted_links 2 -- report --out-dir "$work/r7" --check "$in/deep_results.json=$in/time_ms.json"
ln -sf "$work/outside/notes.md" "$work/r7/plots/9-planted.svg"
check report_clearing_over_a_planted_link 2 -- report --out-dir "$work/r7" --check "$in/deep_results.json=$in/time_ms.json"
expect_that report_cleared_links_not_their_targets same_content "$work/outside/notes.md" 'a user file'
# A baseline kept as a link: a dangling one creates nothing anywhere; one reached through a relative link inside a
# linked folder is read and written as one file.
mkdir -p "$work/dangle"
ln -s "$work/outside/created_through_a_link.json" "$work/dangle/baseline.json"
check update_through_a_dangling_link 2 --expect 'leads to no file' -- update --allow-dirty --reason x --results "$in/slow_counter.json" --baseline "$work/dangle/baseline.json" --track n:lower:rel=0.5
expect_that update_created_nothing_through_the_link test ! -e "$work/outside/created_through_a_link.json"
mkdir -p "$work/real/sub" "$work/decoy/sub"
cp "$in/counter.json" "$work/real/baseline.json"
cp "$in/counter.json" "$work/decoy/baseline.json"
ln -s "$work/real/sub" "$work/linked_sub"
ln -s ../baseline.json "$work/real/sub/link.json"
check update_through_a_relative_link_in_a_linked_folder 0 -- update --allow-dirty --reason x --results "$in/slow_counter.json" --baseline "$work/linked_sub/link.json"
expect_that update_wrote_the_file_it_read grep -q '"value": 5' "$work/real/baseline.json"
expect_that update_left_the_lexical_neighbour_alone cmp -s "$in/counter.json" "$work/decoy/baseline.json"
expect_that update_kept_the_link test -L "$work/real/sub/link.json"
# The repository of the baseline, not of the environment: an exported GIT_DIR names another (dirty) repository.
git init -q "$work/target_repo" && cp "$in/counter.json" "$work/target_repo/baseline.json"
git -C "$work/target_repo" -c user.email=t@t -c user.name=t add baseline.json
git -C "$work/target_repo" -c user.email=t@t -c user.name=t commit -qm fixture
git init -q "$work/other_repo" && echo x >"$work/other_repo/f" && git -C "$work/other_repo" add f
git -C "$work/other_repo" -c user.email=t@t -c user.name=t commit -qm other && echo changed >"$work/other_repo/f"
GIT_DIR="$work/other_repo/.git" GIT_WORK_TREE="$work/other_repo" check update_ignores_an_exported_git_dir 0 -- update --reason x --results "$in/slow_counter.json" --baseline "$work/target_repo/baseline.json"
expect_that update_recorded_the_targets_commit grep -q "\"git_sha\": \"$(git -C "$work/target_repo" rev-parse HEAD)\"" "$work/target_repo/baseline.json"
# Input/output identity: an output is never one of the command's inputs, however it is spelled.
cp "$in/speedup.json" "$work/sp_in.json"
check speedup_out_is_its_results 2 --baseline "$work/sp_in.json" --expect 'is the input' -- speedup --threshold 3 --results "$work/sp_in.json" --reference BM_Ref --candidate BM_Cand --out "$work/sp_in.json"
ln -f "$work/sp_in.json" "$work/sp_hardlink.json"
check speedup_out_is_a_hard_link_to_its_results 2 --baseline "$work/sp_in.json" -- speedup --threshold 3 --results "$work/sp_in.json" --reference BM_Ref --candidate BM_Cand --out "$work/sp_hardlink.json"
cp "$in/speedup_limit.json" "$work/sp_base.json"
check speedup_out_is_its_baseline 2 --baseline "$work/sp_base.json" -- speedup --threshold 3 --results "$in/speedup.json" --reference BM_Ref --candidate BM_Cand --baseline "$work/sp_base.json" --out "$work/./sp_base.json"
b=$(guard identity counter.json)
check update_baseline_is_its_results 2 --baseline "$b" --expect 'is the input' -- update --allow-dirty --reason x --results "$b" --baseline "$b"
check report_first_of_two 0 -- report --out-dir "$work/r8" --check "$in/same_in_us.json=$in/time_ms.json"
cp "$work/r8/verdicts.json" "$work/r8_verdicts_before.json"
check report_reads_its_own_verdicts 2 --expect 'is a file the report' -- report --out-dir "$work/r8" --check "$work/r8/verdicts.json=$in/time_ms.json"
expect_that report_kept_the_file_it_was_given cmp -s "$work/r8/verdicts.json" "$work/r8_verdicts_before.json"
ln -s "$work/r8/junit.xml" "$work/junit_link.xml"
check report_reads_its_junit_through_a_link 2 -- report --out-dir "$work/r8" --check "$work/junit_link.xml=$in/time_ms.json"
# Storage names: SQLite's special names keep nothing, so a history is never given one.
check history_db_empty_name 2 --expect 'not a file name' -- history record --db '' --commit 00000c1 --results "$in/history_ms.json"
check history_db_in_memory 2 --expect 'not a file name' -- history record --db ':memory:' --commit 00000c1 --results "$in/history_ms.json"
(cd "$work" && check history_db_uri 2 --absent "$work/u.db" -- history record --db 'file:u.db?mode=memory' --commit 00000c1 --results "$in/history_ms.json")
check history_show_uri 2 -- history show --db 'file:/etc/passwd?mode=ro'
# Presence: a metric that was not measured is MISSING for every entry kind, advisory ones on another machine too.
baseline all_advisory.json '{"benchmark": "BM_T", "field": "real_time", "value": 1.5, "unit": "ms", "direction": "lower", "tolerance": {"rel": 0.1}, "advisory": true}'
printf '{"context": {"machine_fingerprint": "elsewhere"}, "benchmarks": []}\n' >"$in/empty_elsewhere.json"
check empty_results_fail_an_all_advisory_baseline 1 --expect 'MISSING' -- compare --results "$in/empty_elsewhere.json" --baseline "$in/all_advisory.json"
results other_benchmark.json "$(row BM_Other 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')"
check advisory_entry_of_a_benchmark_that_did_not_run 1 --expect 'MISSING' -- compare --results "$in/other_benchmark.json" --baseline "$in/all_advisory.json"
results no_iterations.json '{"name": "BM_T", "run_type": "iteration", "real_time": 1, "cpu_time": 1, "time_unit": "ms"}'
check row_without_iterations 2 --expect 'no "iterations"' -- compare --results "$in/no_iterations.json" --baseline "$in/time_ms.json"
results no_run_type_no_iterations.json '{"name": "BM_T", "real_time": 1, "cpu_time": 1, "time_unit": "ms"}'
check row_without_run_type_or_iterations 2 -- compare --results "$in/no_run_type_no_iterations.json" --baseline "$in/time_ms.json"

# Text is bytes: every output format gets valid text, cut on character boundaries, with no markup or control of its own.
long_name="BM_$(printf 'é%.0s' $(seq 1 40))$(printf '\\u202e')"  # 40 two-byte characters: every cut point splits one unless counted in characters
results text_names.json "$(row "$long_name" 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')" \
  "$(row 'BM_\u0000nul\u0007\u001b[31m' 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')" \
  "$(row 'BM_![x](http://example.invalid/x.png) [y](http://example.invalid) *b* `c` | d' 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')"
printf '%s' "$(cat "$in/text_names.json")" | sed 's/BM_\\u0000nul/BM_\\u0000nul\\udcff/' >/dev/null  # (kept valid JSON; invalid UTF-8 is added below as raw bytes)
printf '{"context": {"git_sha": "abc\xff\xfe"}, "benchmarks": [{"name": "BM_\xc3", "run_type": "iteration", "iterations": 1, "real_time": 1, "cpu_time": 1, "time_unit": "ms"}]}\n' >"$in/invalid_utf8.json"
entry_for() { printf '{"benchmark": "%s", "field": "real_time", "value": 0.5, "unit": "ms", "direction": "lower", "tolerance": {"rel": 0.1}}' "$1"; }
# Every name fails its entry, so that each is listed in the summary's table, the JUnit failures and the plots.
baseline text_baseline.json "$(entry_for "$long_name")" "$(entry_for 'BM_\u0000nul\u0007\u001b[31m')" \
  "$(entry_for 'BM_![x](http://example.invalid/x.png) [y](http://example.invalid) *b* `c` | d')"
check report_of_hostile_names 1 -- report --out-dir "$work/r9" --check "$in/text_names.json=$in/text_baseline.json"
for xml in "$work"/r9/junit.xml "$work"/r9/plots/*.svg; do
  expect_that "xml_parses_$(basename "$xml")" xmllint --noout "$xml"
done
expect_that summary_lists_the_names grep -aq 'BM\\_\\!\\\[x\\\]' "$work/r9/summary.md"
expect_that summary_has_no_raw_bidi_control bash -c "! grep -aq \$'\\u202e' '$work/r9/summary.md'"
expect_that summary_has_no_image_or_link bash -c "! grep -aEq '!\\[x\\]\\(|\\[y\\]\\(' '$work/r9/summary.md'"
expect_that summary_rows_stay_rows bash -c "[[ \$(grep -ac '^| FAIL' '$work/r9/summary.md') == 3 ]] && ! grep -aq \$'\\x1b' '$work/r9/summary.md'"
check compare_shows_controls_by_name 1 --expect 'u\{202e\}' --forbid $'\u202e' -- compare --results "$in/text_names.json" --baseline "$in/text_baseline.json"
check report_of_invalid_utf8 2 -- report --out-dir "$work/r10" --check "$in/invalid_utf8.json=$in/time_ms.json"
# A history keeps only text every store can hold (PostgreSQL's text has no NUL): such a name is refused, and nothing is created.
check history_record_nul_name 2 -- history record --db "$work/nul.db" --commit 00000c1 --results "$in/text_names.json"
expect_that history_refused_nul_name_creates_nothing bash -c "[[ ! -e '$work/nul.db' ]]"

# Numbers: a plot whose values lie one ulp apart near 1e16 (adding a tick step there changes nothing) must end.
results ulp_apart.json "$(row BM_T 0 '"n": 10000000000000000')" "$(row BM_T 1 '"n": 10000000000000002')" "$(row BM_T 2 '"n": 10000000000000004')"
results ulp_apart_shifted.json "$(row BM_T 0 '"n": 10000000000000002')" "$(row BM_T 1 '"n": 10000000000000004')" "$(row BM_T 2 '"n": 10000000000000006')"
baseline ulp_shifted_baseline.json '{"benchmark": "BM_T", "field": "n", "value": 10000000000000004, "unit": "", "direction": "either", "tolerance": {"exact": true}}'
check report_of_values_one_ulp_apart_where_adding_one_rounds_back 0 -- report --out-dir "$work/r15" --check "$in/ulp_apart_shifted.json=$in/ulp_shifted_baseline.json"
results time_as_whole_ns.json "$(row BM_T 0 '"real_time": 1500000, "cpu_time": 1500000, "time_unit": "ns"')"
b=$(guard whole_ns time_ms.json)
check update_a_time_in_another_unit_as_a_whole_number 0 -- update --allow-dirty --reason x --results "$in/time_as_whole_ns.json" --results "$in/same_in_us.json" --baseline "$b"
expect_that update_wrote_the_time_in_the_entrys_unit bash -c "! grep -q '\"value\": 1500000' '$b'"
baseline ulp_baseline.json '{"benchmark": "BM_T", "field": "n", "value": 10000000000000002, "unit": "", "direction": "either", "tolerance": {"exact": true}}'
check report_of_values_one_ulp_apart 0 -- report --out-dir "$work/r11" --check "$in/ulp_apart.json=$in/ulp_baseline.json"
expect_that plot_of_values_one_ulp_apart_has_no_nan bash -c "! grep -aq 'nan' '$work'/r11/plots/*.svg"

# Exact integers stay exact: counts beyond 2^53 that a double rounds together are told apart, and written back digit
# for digit.
baseline exact_big.json '{"benchmark": "BM_T", "field": "instructions", "value": 9007199254740993, "unit": "", "direction": "either", "tolerance": {"exact": true}}'
results count_one_less.json "$(row BM_T 0 '"instructions": 9007199254740992')"
results count_same.json "$(row BM_T 0 '"instructions": 9007199254740993')"
check exact_count_beyond_2_53_one_less_fails 1 -- compare --results "$in/count_one_less.json" --baseline "$in/exact_big.json"
check exact_count_beyond_2_53_same_passes 0 -- compare --results "$in/count_same.json" --baseline "$in/exact_big.json"
b=$(guard exact_update exact_big.json)
check update_of_an_exact_count 0 -- update --allow-dirty --reason x --results "$in/count_one_less.json" --baseline "$b"
expect_that update_wrote_the_count_digit_for_digit grep -q '"value": 9007199254740992$' "$b"
check exact_count_after_update_judged_exactly 1 -- compare --results "$in/count_same.json" --baseline "$b"

# Further cases of the round: counts the history cannot keep, bounded browser runs, identity, aggregates, sums, folders.
results count_beyond_2_53.json "$(row BM_T 0 '"instructions": 9007199254740993')"
check history_refuses_a_count_it_cannot_keep 2 --absent "$work/big.db" -- history record --db "$work/big.db" --commit 00000c1 --results "$in/count_beyond_2_53.json"
many_rows=() many_entries=()
for i in $(seq 1 201); do
  many_rows+=("$(row "BM_$i" 0 '"n": 2')")
  many_entries+=("{\"benchmark\": \"BM_$i\", \"field\": \"n\", \"value\": 1, \"unit\": \"\", \"direction\": \"lower\", \"tolerance\": {\"exact\": true}}")
done
results many_plots.json "${many_rows[@]}"
baseline many_plots_baseline.json "${many_entries[@]}"
PERFGATE_CHROMIUM=/bin/false check report_png_has_a_bounded_number_of_browser_runs 2 --expect 'more than the 200' --absent "$work/r12/report.html" -- report --png --out-dir "$work/r12" --check "$in/many_plots.json=$in/many_plots_baseline.json"
cp "$in/fake_profiler.sh" "$work/profiler_copy.sh"
check profile_out_is_its_program 2 --expect 'is the input' -- profile --out "$work/profiler_copy.sh" -- "$work/profiler_copy.sh" {trace}
expect_that profile_kept_its_program cmp -s "$in/fake_profiler.sh" "$work/profiler_copy.sh"
mkdir -p "$work/stem_a" "$work/stem_b"
cp "$in/same_in_us.json" "$work/stem_a/acc.json" && cp "$in/same_in_us.json" "$work/stem_b/acc.json"
check report_two_checks_of_one_file_name 0 -- report --out-dir "$work/r13" --check "$work/stem_a/acc.json=$in/time_ms.json" --check "$work/stem_b/acc.json=$in/time_ms.json"
expect_that report_sections_have_names_of_their_own bash -c "[[ \$(grep -o 'id=\"check-[^\"]*\"' '$work/r13/report.html' | sort -u | wc -l) == 2 ]]"
results stddev_only.json '{"name": "BM_T", "aggregate_name": "stddev", "real_time": 0.01, "cpu_time": 0.01, "time_unit": "ms", "iterations": 10}'
# Aggregates and no repetition: refused, naming the option that writes such a file, never judged as a repetition.
check an_aggregate_is_never_a_repetition 2 --expect 'aggregates only' -- compare --results "$in/stddev_only.json" --baseline "$in/time_ms.json"
printf '[{"ph": "X", "name": "a", "ts": 0, "dur": 1e308}, {"ph": "X", "name": "a", "ts": 0, "dur": 1e308}]\n' >"$in/trace_sum_overflow.json"
check trace_durations_that_add_up_to_inf 2 -- profile --trace "$in/trace_sum_overflow.json"
mkdir -p "$work/foreign_report" && echo '{"overall": "mine"}' >"$work/foreign_report/verdicts.json" && echo '<p>mine</p>' >"$work/foreign_report/report.html"
check report_refuses_a_folder_without_its_marker 2 -- report --out-dir "$work/foreign_report" --check "$in/same_in_us.json=$in/time_ms.json"
expect_that report_kept_the_foreign_report same_content "$work/foreign_report/report.html" '<p>mine</p>'
results tiny_values.json "$(row BM_T 0 '"n": 2e-9')"
baseline tiny_baseline.json '{"benchmark": "BM_T", "field": "n", "value": 1e-9, "unit": "", "direction": "lower", "tolerance": {"rel": 0.1}}'
check report_of_tiny_values 1 -- report --out-dir "$work/r14" --check "$in/tiny_values.json=$in/tiny_baseline.json"
expect_that junit_shows_tiny_values grep -q 'value 2e-09, baseline 1e-09' "$work/r14/junit.xml"
check c1_control_in_an_error_line 2 --expect 'x\\u\{0085\}y' --forbid $'\u0085' -- compare --results $'x\u0085y.json' --baseline "$in/none.json"

# Plants a reviewer designed to get past the cases above: a report folder of ours whose plots/ became a link, an output
# that is a symbolic link to an input, XML noncharacters, and the exact median of an even count of repetitions.
check report_before_its_plots_become_a_link 0 -- report --out-dir "$work/r16" --check "$in/same_in_us.json=$in/time_ms.json"
rm -rf "$work/r16/plots" && ln -s "$work/outside/pictures" "$work/r16/plots"
check report_of_an_earlier_report_whose_plots_is_a_link 2 --expect "plots/ is a symbolic link|did not write" -- report --out-dir "$work/r16" --check "$in/same_in_us.json=$in/time_ms.json"
expect_that report_cleared_nothing_through_a_plots_link same_content "$work/outside/pictures/1-mine.png" 'a user picture'
cp "$in/speedup.json" "$work/sp_in2.json" && ln -s "$work/sp_in2.json" "$work/sp_symlink.json"
check speedup_out_is_a_symbolic_link_to_its_results 2 --baseline "$work/sp_in2.json" --expect 'is the input' -- speedup --threshold 3 --results "$work/sp_in2.json" --reference BM_Ref --candidate BM_Cand --out "$work/sp_symlink.json"
results nonchar.json "$(row 'BM_\ufffe\uffff' 0 '"real_time": 1, "cpu_time": 1, "time_unit": "ms"')"
baseline nonchar_baseline.json "$(entry_for 'BM_\ufffe\uffff')"
check report_of_a_noncharacter_name 1 -- report --out-dir "$work/r17" --check "$in/nonchar.json=$in/nonchar_baseline.json"
expect_that xml_parses_with_noncharacters bash -c "xmllint --noout '$work/r17/junit.xml' '$work'/r17/plots/*.svg"
results two_counts.json "$(row BM_T 0 '"n": 5')" "$(row BM_T 1 '"n": 7')"
baseline exact_seven.json '{"benchmark": "BM_T", "field": "n", "value": 7, "unit": "", "direction": "either", "tolerance": {"exact": true}}'
check exact_median_between_two_counts_fails 1 -- compare --results "$in/two_counts.json" --baseline "$in/exact_seven.json"
b=$(guard two_counts exact_seven.json)
check update_of_two_counts 0 -- update --allow-dirty --reason x --results "$in/two_counts.json" --baseline "$b"
expect_that update_wrote_the_median_of_two_counts grep -q '"value": 6' "$b"

# ------------------------------------------- 9. fixes that run as printed, and updates that move nothing unasked
# A refused update leaves no trace, not even the folder it would have made for a new baseline.
check update_refused_makes_no_folder 2 --absent "$work/fresh" -- update --allow-dirty --reason x --results "$in/counter.json" --baseline "$work/fresh/b.json" --track no_such_field:lower:exact
# Timings recorded on machine m0 are not re-recorded by runs of machine m1 unless asked: the timing gate would move.
mkdir -p "$work/moved"
printf '%s\n' '{"schema_version": 1, "provenance": {"git_sha": "abc", "date": "2026-01-01T00:00:00Z", "machine": "m0", "build_type": "", "torch_version": "", "threads": "", "reason": "x", "machine_fingerprint": "m0"},' \
  ' "entries": [{"benchmark": "BM_T", "field": "real_time", "value": 10, "unit": "ms", "direction": "lower", "tolerance": {"rel": 0.5}}]}' >"$work/moved/baseline.json"
results timing_a.json "$(row BM_T 0 '"real_time": 10, "cpu_time": 10, "time_unit": "ms"')"
results timing_b.json "$(row BM_T 0 '"real_time": 11, "cpu_time": 11, "time_unit": "ms"')"
check update_keeps_timings_of_another_machine 2 --baseline "$work/moved/baseline.json" --expect 'add --move-timings' -- update --allow-dirty --reason x --results "$in/timing_a.json" --results "$in/timing_b.json" --baseline "$work/moved/baseline.json"
check update_moves_timings_when_asked 0 --expect 'updated' -- update --allow-dirty --move-timings --reason x --results "$in/timing_a.json" --results "$in/timing_b.json" --baseline "$work/moved/baseline.json"
# A tracked entry keeps its unit: relabelling 10 ms as 10 ns would make every later run fail a thousandfold.
check update_refuses_a_unit_relabel 2 --baseline "$work/moved/baseline.json" --expect 'is not converted' -- update --allow-dirty --reason x --results "$in/timing_a.json" --results "$in/timing_b.json" --baseline "$work/moved/baseline.json" --track real_time:lower:rel=0.5:unit=ns
# A create command with a quote in its path runs as printed: the error line holds it unmangled.
mkdir -p "$work/it's"
check create_command_keeps_its_quotes 2 --expect "--baseline '[^ ]*it'\\\\''s/b.json'" -- compare --results "$in/timing_a.json" --baseline "$work/it's/b.json" -- /bin/true

# ------------------------------------------- 10. results of other harnesses: Catch2 XML, hyperfine, perfgate's own
# Each format refused with one line naming what is wrong; a file of no format perfgate reads names the formats it does.
count_entry='{"benchmark": "a", "field": "n", "value": 1, "unit": "bytes", "direction": "lower", "tolerance": {"rel": 0.1}}'
baseline bytes.json "$count_entry"
mine() { printf '{"perfgate_results": 1, "measurements": [%s]}\n' "$2" >"$in/$1"; }
mine mine_ok.json '{"benchmark": "a", "field": "n", "unit": "bytes", "repetitions": [1, 1]}'
mine mine_kib.json '{"benchmark": "a", "field": "n", "unit": "KiB", "repetitions": [1, 1]}'
mine mine_misspelt.json '{"benchmark": "a", "field": "n", "unit": "bytes", "repetition": [1]}'
mine mine_string.json '{"benchmark": "a", "field": "n", "unit": "bytes", "repetitions": ["1"]}'
mine mine_twice.json '{"benchmark": "a", "field": "n", "unit": "bytes", "repetitions": [1]}, {"benchmark": "a", "field": "n", "unit": "bytes", "repetitions": [2]}'
mine mine_negative_time.json '{"benchmark": "a", "field": "real_time", "unit": "ms", "repetitions": [-1]}'
printf '{"perfgate_results": 2, "measurements": []}\n' >"$in/mine_version_2.json"
check mine_passes 0 -- compare --results "$in/mine_ok.json" --baseline "$in/bytes.json"
check mine_in_another_unit 2 --expect "measured in 'KiB' but judged in 'bytes'" -- compare --results "$in/mine_kib.json" --baseline "$in/bytes.json"
check mine_misspelt_member 2 --expect "unknown member 'repetition'" -- compare --results "$in/mine_misspelt.json" --baseline "$in/bytes.json"
check mine_string_value 2 -- compare --results "$in/mine_string.json" --baseline "$in/bytes.json"
check mine_twice 2 -- compare --results "$in/mine_twice.json" --baseline "$in/bytes.json"
check mine_negative_time 2 -- compare --results "$in/mine_negative_time.json" --baseline "$in/bytes.json"
check mine_version_2 2 --expect "this perfgate reads version 1" -- compare --results "$in/mine_version_2.json" --baseline "$in/bytes.json"
printf '{"results": [{"command": "c", "times": [0.1, 0.2], "exit_codes": [0, 137]}]}\n' >"$in/hyperfine_failed.json"
printf '{"results": [{"command": "c", "times": []}]}\n' >"$in/hyperfine_no_times.json"
check hyperfine_failed_run 2 --expect "failed in run 1" -- compare --results "$in/hyperfine_failed.json" --baseline "$in/time_ms.json"
check hyperfine_no_times 2 -- compare --results "$in/hyperfine_no_times.json" --baseline "$in/time_ms.json"
printf '<Catch name="x"><Group name="x"><TestCase name="t"><BenchmarkResults name="BM_T"><mean value="1500000"/></BenchmarkResults><OverallResult success="true"/></TestCase></Group></Catch>\n' >"$in/catch2_ok.xml"
printf '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Catch>&b;</Catch>\n' >"$in/catch2_entities.xml"
printf '<Catch><TestCase name="t"><BenchmarkResults name="BM_T"><mean value="1"/></BenchmarkResults><OverallResult success="false"/></TestCase></Catch>\n' >"$in/catch2_failed.xml"
printf '<Catch><TestCase name="t"><BenchmarkResults name="BM_T"><mean value="1"/>\n' >"$in/catch2_truncated.xml"
{ printf '<Catch>'; head -c 300000 /dev/zero | sed 's/\x0/<a>/g'; printf '</Catch>\n'; } >"$in/catch2_deep.xml"
check catch2_mean_in_ns_passes 0 -- compare --results "$in/catch2_ok.xml" --baseline "$in/time_ms.json"
check catch2_entity_expansion 2 --expect "document type declaration" -- compare --results "$in/catch2_entities.xml" --baseline "$in/time_ms.json"
check catch2_failed_test_case 2 --expect "which failed" -- compare --results "$in/catch2_failed.xml" --baseline "$in/time_ms.json"
check catch2_truncated 2 -- compare --results "$in/catch2_truncated.xml" --baseline "$in/time_ms.json"
check catch2_deep_nesting 2 --expect "deeper than 64" -- compare --results "$in/catch2_deep.xml" --baseline "$in/time_ms.json"
printf 'benchmark,value\nBM_T,1\n' >"$in/results.csv"
check no_format_perfgate_reads 2 --expect "it reads Google Benchmark JSON" -- compare --results "$in/results.csv" --baseline "$in/time_ms.json"
# The runners: a command that fails, a malformed command, a Google Benchmark flag they cannot honour; nothing written.
check time_command_fails 2 --absent "$work/t1.json" --expect "exited with 3" -- time --runs 2 --out "$work/t1.json" -- 'x=exit 3'
check time_word_without_a_name 2 --absent "$work/t2.json" -- time --out "$work/t2.json" -- 'true'
check time_min_time_refused 2 --absent "$work/t3.json" --expect "do not take" -- time --out "$work/t3.json" -- 'x=true' --benchmark_min_time=1
check time_two_outputs 2 --absent "$work/t4.json" -- time --out "$work/t4.json" -- 'x=true' --benchmark_out="$work/t5.json"
check time_output_is_a_folder 2 -- time --runs 1 --out "$in" -- 'x=true' --benchmark_context=k=v
# A filter is matched without recursion or unbounded backtracking: a 30,000-character name, a pattern that
# backtracks exponentially in a recursive matcher.
long_name=$(head -c 30000 /dev/zero | tr '\0' a)
check time_filter_on_a_long_name 0 -- time --runs 1 --warmup 0 --out "$work/t6.json" -- "$long_name=true" '--benchmark_filter=a.*'
check time_filter_backtracking 2 --expect "no command's name matches" -- time --runs 1 --out "$work/t7.json" -- "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=true" '--benchmark_filter=(a|a)*b'
check time_hyperfine_name_like_an_option 0 -- time --hyperfine --runs 1 --warmup 0 --out "$work/t8.json" -- '--runs=true'
# A baseline of no entry would pass every compare: refused, and nothing written.
check update_that_tracks_nothing 2 --absent "$work/nothing.json" --expect "would track nothing" -- update --allow-dirty --reason x --results "$in/mine_ok.json" --baseline "$work/nothing.json"
check catch2_binary_missing 2 --absent "$work/c1.json" -- catch2 --out "$work/c1.json" -- "$work/no_such_binary"

echo "hostile inputs: $cases cases, $((cases - failures)) handled as documented, $failures defects"
[[ $failures == 0 ]]
