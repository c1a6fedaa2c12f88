#!/usr/bin/env bash
# Hostile input against the mechanisms every command shares (docs/explanation/hostile-input.md): the output
# discipline (base/output_files.h), a run's identity in the history stores, bounded readers, verdicts re-judged from
# their rows, and reused worktrees. Each case states the documented outcome and checks it, with the files it must
# leave alone byte for byte.
# Usage: safe_by_construction.sh PERFGATE POST_COMMENT WORK     Exit 0 when every case behaves as documented.
set -uo pipefail
perfgate=$(realpath "$1")
post_comment=$(realpath "$2")
work=$(realpath -m "$3")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work"
mkdir -p "$work/in" "$work/tmp"
export TMPDIR="$work/tmp" GIT_CEILING_DIRECTORIES="$work"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t GIT_CONFIG_NOSYSTEM=1
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
in="$work/in"
cases=0
failures=0

# ------------------------------------------------------------------------------------------------------ helpers
# check NAME EXPECTED [--keep FILE]... [--expect REGEX] [--forbid REGEX] [--absent PATH] -- ARGS...
#   Runs perfgate ARGS; EXPECTED is its exit code. Every --keep FILE must be byte-identical afterwards; exit 2 must
#   come with exactly one "perfgate: error:" line.
check() {
  local name=$1 expected=$2
  shift 2
  local keep=() sums=() expect="" forbid="" absent=""
  while [[ $1 != -- ]]; do
    case $1 in
      --keep) keep+=("$2"); sums+=("$(sha256sum <"$2" 2>/dev/null)") ;;
      --expect) expect=$2 ;;
      --forbid) forbid=$2 ;;
      --absent) absent=$2 ;;
    esac
    shift 2
  done
  shift
  run_case "$name" "$expected" "$expect" "$forbid" "$absent" timeout 120 "$perfgate" "$@"
  local i
  for i in "${!keep[@]}"; do
    [[ $(sha256sum <"${keep[$i]}" 2>/dev/null) == "${sums[$i]}" ]] || problems+=("${keep[$i]} changed")
  done
  report_case "$name"
}
run_case() {
  local name=$1 expected=$2 expect=$3 forbid=$4 absent=$5
  shift 5
  cases=$((cases + 1))
  problems=()
  out=$("$@" 2>"$work/stderr")
  rc=$?
  err=$(cat "$work/stderr")
  [[ $rc == "$expected" ]] || problems+=("exit $rc, expected $expected")
  if [[ $rc == 2 && $1 == timeout && $3 == "$perfgate" ]]; then
    [[ $(printf '%s\n' "$err" | wc -l) == 1 && $err == "perfgate: error: "* ]] || problems+=("not one error line: $err")
  fi
  [[ -z $expect ]] || printf '%s\n%s\n' "$out" "$err" | grep -Eq -- "$expect" || problems+=("output lacks /$expect/")
  [[ -z $forbid ]] || ! printf '%s\n%s\n' "$out" "$err" | grep -Eq -- "$forbid" || problems+=("output matches /$forbid/")
  [[ -z $absent || ! -e $absent ]] || problems+=("$absent exists")
}
report_case() {
  if ((${#problems[@]})); then
    failures=$((failures + 1))
    printf 'DEFECT %s: %s\n' "$1" "$(IFS=';'; echo "${problems[*]}")"
  else
    printf 'ok     %s\n' "$1"
  fi
}
expect_that() {  # expect_that NAME CONDITION-COMMAND...: a case judged by a shell condition
  cases=$((cases + 1))
  problems=()
  "${@:2}" || problems+=("not so: ${*:2}")
  report_case "$1"
}

# ------------------------------------------------------------------------------------------------------ inputs
printf '{"context": {"git_sha": "abc"}, "benchmarks": [{"name": "BM_A", "run_type": "iteration", "repetition_index": 0, "iterations": 10, "real_time": 1, "cpu_time": 1, "time_unit": "ms", "count": 5}]}\n' >"$in/results.json"
printf '{"schema_version": 1, "provenance": {"git_sha": "abc", "date": "d", "machine": "m", "build_type": "Release", "torch_version": "t", "threads": "1", "reason": "fixture"}, "entries": [{"benchmark": "BM_A", "field": "count", "value": 5, "unit": "", "direction": "lower", "tolerance": {"rel": 0.1}}]}\n' >"$in/baseline.json"
"$perfgate" history record --db "$in/store.db" --results "$in/results.json" --commit 1111111111111111111111111111111111111111 --date 2026-11-01 >/dev/null
"$perfgate" history record --db "$in/store.db" --results "$in/results.json" --commit 2222222222222222222222222222222222222222 --date 2026-11-02 >/dev/null

# ------------------------------------------------------------------------------- 1. outputs: one discipline
echo "the user's own page" >"$work/outside.html"
mkdir -p "$work/dash_link"
ln -s "$work/outside.html" "$work/dash_link/index.html"
touch "$work/dash_link/.perfgate-dashboard"
check dashboard_replaces_a_link_never_writes_through 0 --keep "$work/outside.html" -- dashboard --store "$in/store.db" --out "$work/dash_link"
expect_that dashboard_link_became_its_page test ! -L "$work/dash_link/index.html" -a -f "$work/dash_link/index.html"
mkdir -p "$work/users_site"
echo "<p>the user's site</p>" >"$work/users_site/index.html"
check dashboard_refuses_a_folder_perfgate_did_not_fill 2 --keep "$work/users_site/index.html" --expect "did not write" -- \
  dashboard --store "$in/store.db" --out "$work/users_site"
mkdir -p "$work/store_as_page"
cp "$in/store.db" "$work/store_as_page/index.html"
touch "$work/store_as_page/.perfgate-dashboard"
check dashboard_never_replaces_its_own_store 2 --keep "$work/store_as_page/index.html" --expect "is the input" -- \
  dashboard --store "$work/store_as_page/index.html" --out "$work/store_as_page"
check dashboard_out_is_a_file 2 --keep "$in/baseline.json" -- dashboard --store "$in/store.db" --out "$in/baseline.json"
ln -s "$work/users_site" "$work/site_link"
check dashboard_out_is_a_link 2 --keep "$work/users_site/index.html" -- dashboard --store "$in/store.db" --out "$work/site_link"
cp "$in/store.db" "$work/export_store.db"
check history_export_never_replaces_its_store 2 --keep "$work/export_store.db" --expect "is the input" -- \
  history export --db "$work/export_store.db" --out "$work/export_store.db"
ln -s "$work/export_store.db" "$work/export_link.json"
check history_export_through_a_link_to_its_store 2 --keep "$work/export_store.db" -- \
  history export --db "$work/export_store.db" --out "$work/export_link.json"
check history_export_into_a_folder 2 -- history export --db "$work/export_store.db" --out "$work"
printf '{"schema_version": 1, "overall": "pass", "gates": []}\n' >"$work/verdicts_in.json"
check comment_never_replaces_its_input 2 --keep "$work/verdicts_in.json" -- comment --verdicts "$work/verdicts_in.json" --out "$work/verdicts_in.json"

# A repository whose manifest builds nothing slow: ab and bisect must refuse an output that is an input before building.
repo="$work/repo"
mkdir -p "$repo"
git -C "$repo" init -q -b main
cat >"$repo/gates.json" <<'EOF'
{"schema_version": 2, "baseline_path": "{name}.json", "build": {"directory": "build", "steps": [["true"]]},
 "gates": [{"name": "cost", "kind": "cost", "label": "cost", "command": ["none"], "timeout_seconds": 60}]}
EOF
git -C "$repo" add gates.json && git -C "$repo" commit -qm one && git -C "$repo" commit -qm two --allow-empty
cd "$repo" || exit 2
check ab_json_never_replaces_the_manifest 2 --keep "$repo/gates.json" --expect "is the input" -- \
  ab --manifest "$repo/gates.json" --cost cost --json "$repo/gates.json" --work "$work/ab_work" HEAD~1 HEAD
check bisect_json_never_replaces_the_manifest 2 --keep "$repo/gates.json" --expect "is the input" -- \
  bisect --manifest "$repo/gates.json" --cost cost --json "$repo/gates.json" --work "$work/bisect_work" HEAD~1 HEAD
cd "$work" || exit 2

# ---------------------------------------------------------------- 2. bounded readers: history queries are linear
# 5 runs of 32,768 metrics each: every series shown. Linear, it takes about 0.4 s here; the quadratic query it
# replaced took 50 s. The 20 s limit guards against that class, not a timing.
awk 'BEGIN { printf "{\"context\": {}, \"benchmarks\": ["
             for (i = 0; i < 32768; i++) printf "%s{\"name\": \"BM_M%d\", \"run_type\": \"iteration\", \"iterations\": 1, \"real_time\": %d, \"cpu_time\": 1, \"time_unit\": \"ms\"}", (i ? "," : ""), i, 1 + i % 7
             print "]}" }' >"$in/wide.json"
for c in 1 2 3 4 5; do
  "$perfgate" history record --db "$work/wide.db" --results "$in/wide.json" --commit "$(printf "$c%.0s" {1..40})" --date "2026-11-0${c}" >/dev/null
done
cases=$((cases + 1))
problems=()
shown=$(timeout 20 "$perfgate" history show --db "$work/wide.db" --last 5 | grep -c ': 5 runs, latest ')
[[ $shown == 32768 ]] || problems+=("$shown of 32768 series shown within 20 s")
report_case history_show_linear_in_runs_times_metrics

# ------------------------------------------------------------------------------- 3. a run is its content
# Two runs of one commit recorded in the same second (CI records suites separately) are two runs; importing the same
# export again adds none.
printf '{"context": {}, "benchmarks": [{"name": "BM_Other", "run_type": "iteration", "iterations": 1, "real_time": 2, "cpu_time": 2, "time_unit": "ms"}]}\n' >"$in/other_suite.json"
same_second=2026-11-03T10:00:00Z
"$perfgate" history record --db "$work/suites.db" --results "$in/results.json" --commit "$(printf '3%.0s' {1..40})" --date "$same_second" >/dev/null
"$perfgate" history record --db "$work/suites.db" --results "$in/other_suite.json" --commit "$(printf '3%.0s' {1..40})" --date "$same_second" >/dev/null
"$perfgate" history export --db "$work/suites.db" --out "$work/suites.json" >/dev/null
check history_import_keeps_two_suites_of_one_second 0 --expect "imported 2 runs" -- history import --db "$work/suites_copy.db" --in "$work/suites.json"
check history_import_is_repeatable 0 --expect "imported 0 runs" -- history import --db "$work/suites_copy.db" --in "$work/suites.json"
check history_record_is_idempotent 0 --expect "already recorded" -- history record --db "$work/suites.db" --results "$in/other_suite.json" \
  --commit "$(printf '3%.0s' {1..40})" --date "$same_second"
expect_that history_record_kept_one_copy test "$("$perfgate" history export --db "$work/suites.db" --out "$work/suites_again.json" >/dev/null &&
  jq '.runs | length' "$work/suites_again.json")" = 2

# A data branch: a run too large for a run file is refused when recorded, not written to make the branch unreadable;
# a run file committed executable is read; one blob of a 16k-metric run (3 MiB) named under 300 paths is one run,
# read once, within 256 MiB.
git init -q --bare "$work/remote.git"
check history_git_refuses_a_run_past_its_bound 2 --expect "more than the 4 MiB" -- \
  history record --db "git:$work/remote.git#data" --results "$in/wide.json" --commit "$(printf '5%.0s' {1..40})"
head -c 1900000 "$in/wide.json" | sed 's/,{[^}]*$/]}/' >"$in/half_wide.json"
"$perfgate" history record --db "git:$work/remote.git#data" --results "$in/half_wide.json" --commit "$(printf '6%.0s' {1..40})" --date 2026-11-06 >/dev/null
"$perfgate" history record --db "git:$work/remote.git#data" --results "$in/other_suite.json" --commit "$(printf '7%.0s' {1..40})" --date 2026-11-07 >/dev/null
git clone -q -b data "$work/remote.git" "$work/data"
small=$(git -C "$work/data" ls-files runs | while read -r f; do printf '%s %s\n' "$(stat -c %s "$work/data/$f")" "$f"; done | sort -n | head -1 | cut -d' ' -f2)
chmod +x "$work/data/$small"
git -C "$work/data" add "$small" && git -C "$work/data" commit -qm "a run file made executable" && git -C "$work/data" push -q origin data
check history_reads_an_executable_run_file 0 --expect "BM_Other real_time: 1 runs" -- history show --db "git:$work/remote.git#data" --benchmark BM_Other
large=$(git -C "$work/data" ls-files runs | while read -r f; do printf '%s %s\n' "$(stat -c %s "$work/data/$f")" "$f"; done | sort -n | tail -1 | cut -d' ' -f2)
blob=$(git -C "$work/data" rev-parse "HEAD:$large")
for i in $(seq 300); do printf '100644 %s\truns/copy/%03d.json\n' "$blob" "$i"; done | git -C "$work/data" update-index --index-info
git -C "$work/data" commit -qm "one run named 300 times" && git -C "$work/data" push -q origin data
cases=$((cases + 1))
problems=()
/usr/bin/time -f '%M' -o "$work/peak_kib" timeout 120 "$perfgate" history export --db "git:$work/remote.git#data" --out "$work/data_export.json" >"$work/export.out" 2>&1 ||
  problems+=("export failed: $(tail -1 "$work/export.out")")
grep -q "exported 2 runs" "$work/export.out" || problems+=("not 2 runs: $(tail -1 "$work/export.out")")
peak=$(tail -1 "$work/peak_kib")
((peak <= 262144)) || problems+=("peak memory $((peak / 1024)) MiB")
echo "       (one blob named 300 times: peak memory $((peak / 1024)) MiB)"
report_case history_data_branch_one_blob_named_300_times

# ------------------------------------------------------------------ 4. verdicts re-judged from their rows
# A file that carries a verdict is judged again from its rows when read back, never trusted for its summary.
comment_inputs="$here/inputs/comment"
jq '.overall = "PASS"' "$comment_inputs/hostile_verdicts.json" >"$work/pass_over_fail_rows.json"
check comment_refuses_an_overall_over_its_fail_rows 2 --expect "disagrees with its rows" -- comment --verdicts "$work/pass_over_fail_rows.json"
jq '.overall = "PASS" | .checks = [] | .speedups = [{"reference": "BM_R", "candidate": "BM_C", "verdict": "INCONCLUSIVE", "median": 2.9,
    "low": 2.5, "high": 3.3, "confidence": 0.95, "threshold": 3, "pairs": 8}]' "$comment_inputs/hostile_verdicts.json" >"$work/pass_over_inconclusive.json"
check comment_refuses_a_pass_over_an_inconclusive_speedup 2 --expect "disagrees with its rows" -- comment --verdicts "$work/pass_over_inconclusive.json"
jq '.instructions.max_increase = 1000000 | .instructions.comparisons[0].change = 5 | .instructions.comparisons[0].head = 6000000' \
  "$comment_inputs/hostile_ab.json" >"$work/ab_tolerance_beyond_ab.json"
check comment_refuses_a_tolerance_ab_cannot_write 2 --expect "max_increase is not in" -- comment --ab "$work/ab_tolerance_beyond_ab.json"
check comment_skipped_ab_alone_is_no_pass 0 --expect "### perfgate: INCONCLUSIVE" --forbid "### perfgate: PASS" -- comment --ab-job skipped

# ------------------------------------------------------------------- 2. bounded readers: the comment's poster
# Against a server that answers as no honest GitHub would, the poster ends within its deadline, sends no glob, stores
# no answer past its cap and edits no comment whose id it cannot hold exactly.
printf '%s\n' '<!-- perfgate-comment:perfgate -->' 'body' >"$work/body.md"
post_against() {  # post_against MODE: runs the poster against hostile_github.mjs MODE; sets rc, err, seconds, log
  local dir="$work/post_$1" started
  mkdir -p "$dir"
  node "$here/hostile_github.mjs" "$1" "$dir/port" "$dir/log" 2>"$dir/server.err" &
  local server=$!
  for _ in $(seq 100); do [[ -s $dir/port ]] && break; sleep 0.1; done
  started=$SECONDS
  err=$(GITHUB_TOKEN=t GITHUB_API_URL="http://127.0.0.1:$(cat "$dir/port")" PERFGATE_RETRY_DELAY=0 PERFGATE_POST_DEADLINE=6 \
        timeout 60 "$post_comment" --repo o/n --pr 1 --body "$work/body.md" 2>&1 >/dev/null)
  rc=$?
  seconds=$((SECONDS - started))
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  log="$dir/log"
}
post_against glob
expect_that post_comment_never_globs_a_next_page_url test "$(grep -c '^GET' "$log")" -le 3
post_against endless
expect_that post_comment_ends_within_its_deadline test "$rc" = 1 -a "$seconds" -le 12
post_against huge
expect_that post_comment_caps_an_answer test "$rc" = 1 -a "$(grep -c 'larger than 32 MiB' <<<"$err")" = 1
post_against bigid
expect_that post_comment_edits_no_rounded_id test "$rc" = 1 -a "$(grep -c '^PATCH' "$log")" = 0

# --------------------------------------------------------------------------------- 5. reused worktrees
# HEAD runs twice the instructions of its parent. A worktree of HEAD left by an earlier ab and edited since (back to
# the parent's count) is measured as HEAD, never as it was left: ab --cost fails both times. A private ref of a
# history process that no longer runs is swept.
if command -v valgrind >/dev/null && command -v cc >/dev/null; then
  loop="$work/loop"
  mkdir -p "$loop"
  git -C "$loop" init -q -b main
  cat >"$loop/loop.c" <<'C'
#include <valgrind/callgrind.h>
#include "n.h"
int main(void) {
  volatile unsigned long sum = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (int step = 0; step < 2; ++step) {
    CALLGRIND_ZERO_STATS;
    for (unsigned long i = 0; i < N; ++i) sum += i;
    CALLGRIND_DUMP_STATS_AT("BM_Loop");
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  return 0;
}
C
  cat >"$loop/gates.json" <<'JSON'
{"schema_version": 2, "baseline_path": "{name}.json",
 "build": {"directory": "build", "steps": [["sh", "-c", "mkdir -p build && cc -O1 -o build/loop loop.c"]]},
 "gates": [{"name": "loop_cost", "kind": "cost", "label": "cost", "command": ["loop"], "timeout_seconds": 60}]}
JSON
  echo "#define N 100000ul" >"$loop/n.h"
  git -C "$loop" add -A && git -C "$loop" commit -qm base
  echo "#define N 200000ul" >"$loop/n.h"
  git -C "$loop" commit -qam "twice the work"
  cd "$loop" || exit 2
  check ab_measures_head_twice_the_work 1 -- ab --manifest gates.json --cost loop_cost --work "$work/ab_loop" HEAD~1 HEAD
  head_tree="$work/ab_loop/$(git rev-parse HEAD | cut -c1-12)"
  echo "#define N 100000ul" >"$head_tree/n.h"
  check ab_never_measures_an_edited_leftover_worktree 1 -- ab --manifest gates.json --cost loop_cost --work "$work/ab_loop" HEAD~1 HEAD
  git update-ref refs/perfgate-history/999999999-deadbeef/read HEAD
  git remote add data "$work/remote.git"
  "$perfgate" history show --db git:data#data --benchmark BM_Other >/dev/null 2>&1
  expect_that history_sweeps_private_refs_of_dead_processes test -z "$(git for-each-ref refs/perfgate-history/)"
  cd "$work" || exit 2
else
  echo "skip   reused worktrees: valgrind or cc missing"
fi

echo "safe by construction: $cases cases, $((cases - failures)) handled as documented, $failures defects"
((failures == 0))
