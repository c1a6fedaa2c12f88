#!/usr/bin/env bash
# perfgate selftest on a throwaway repository: a stand-in benchmark (a script writing Google Benchmark JSON whose
# comparison count is a committed file), one baseline gate, and three plants:
#  - count_off_by_one (the count 100 -> 101): a FAIL row, caught; exit 0, the row named;
#  - count_dropped (the stand-in stops writing the count): the row only MISSING, which is no catch; exit 1;
#  - stale (a patch of lines the tree no longer has): does not apply; exit 1, named;
#  - count_off_by_one against a baseline the unpatched tree fails too: its catch proves nothing; exit 1.
# The build step records its arguments: with no target named, "--target {targets}" leaves nothing behind. The clean
# tree is built again after the plants before its checks run (the stand-in measures what was built). The worktree is
# gone afterwards and the repository's own index is untouched.
# Usage: selftest.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "selftest_test: $*" >&2; exit 1; }
repo=$work/repo
mkdir -p "$repo/plants"
cd "$repo"
git init -q
git config user.name t && git config user.email t@t.example && git config commit.gpgsign false
cat >bench.sh <<'SH'
#!/bin/sh
# A stand-in suite: BM_Sort and the comparisons it made (count.txt, as the build step copied it: a tree not built
# again after a change measures what it was built from).
for a in "$@"; do case $a in --benchmark_out=*) out=${a#--benchmark_out=} ;; esac; done
count=$(cat "$(dirname "$0")/built_count.txt")
printf '{"context": {}, "benchmarks": [{"name": "BM_Sort", "run_name": "BM_Sort", "run_type": "iteration", "repetition_index": 0, "iterations": 1, "real_time": 1, "time_unit": "ms", "comparisons": %s}]}\n' "$count" >"$out"
SH
chmod +x bench.sh
echo 100 >count.txt
cat >suite.json <<'JSON'
{"schema_version": 1, "provenance": {"reason": "the stand-in's count"},
 "entries": [{"benchmark": "BM_Sort", "field": "comparisons", "direction": "either", "tolerance": {"exact": true}, "unit": "", "value": 100}]}
JSON
cat >gates.json <<JSON
{"schema_version": 2, "baseline_path": "{name}.json",
 "gates": [{"name": "suite", "kind": "baseline", "label": "performance", "command": ["bench.sh"]}],
 "selftest": {"build": {"directory": ".", "steps": [["sh", "-c", "cp count.txt built_count.txt && echo \"build:\$*\" >>'$work/args.txt'", "step", "--target", "{targets}"]]},
              "sets": [{"plants": "plants", "checks": [{"gate": "suite"}]}]}}
JSON
git add -A && git commit -qm "a project with a self-test"
echo 101 >count.txt && git diff >plants/count_off_by_one.patch && git checkout -q -- count.txt
sed -i 's/, "comparisons": %s}/}/; s/ "\$count" >/ >/' bench.sh && git diff >plants/count_dropped.patch && git checkout -q -- bench.sh
printf -- '--- a/count.txt\n+++ b/count.txt\n@@ -1 +1 @@\n-99\n+98\n' >plants/stale.patch
git add -A && git commit -qm "plants"
index_before=$(git ls-files --stage | sha1sum)
selftest() {  # PLANT: exit status, output in $work/<plant>.txt
  set +e
  "$perfgate" selftest --manifest gates.json --work "$work/w" --plant "$1" >"$work/$1.txt" 2>&1
  echo $?
  set -e
}
status=$(selftest count_off_by_one)
[[ $status == 0 ]] || fail "a changed count: exit $status: $(cat "$work/count_off_by_one.txt")"
grep -q 'suite FAILED: BM_Sort comparisons 101' "$work/count_off_by_one.txt" || fail "the catch does not name the row: $(cat "$work/count_off_by_one.txt")"
grep -q 'clean tree' "$work/count_off_by_one.txt" && grep -q '    suite passed' "$work/count_off_by_one.txt" || fail "the clean tree was not checked"
status=$(selftest count_dropped)
[[ $status == 1 ]] || fail "a row only MISSING counted as a catch: exit $status: $(cat "$work/count_dropped.txt")"
grep -q 'not caught: count_dropped' "$work/count_dropped.txt" || fail "the missed plant is not named: $(cat "$work/count_dropped.txt")"
status=$(selftest stale)
[[ $status == 1 ]] && grep -q 'does not apply' "$work/stale.txt" || fail "a stale plant: exit $status: $(cat "$work/stale.txt")"
! grep -q -- '--target' "$work/args.txt" || fail "\"--target {targets}\" without targets left: $(cat "$work/args.txt")"
(( $(grep -c '^build:' "$work/args.txt") >= 4 )) || fail "the build step ran $(grep -c '^build:' "$work/args.txt") times, not once per tree"
# A catch by a check the unpatched tree fails as well proves nothing: a baseline of 99 fails the clean tree's 100.
sed 's/"value": 100/"value": 99/' suite.json >stale_suite.json
sed 's/"baseline_path": "{name}.json"/"baseline_path": "stale_{name}.json"/' gates.json >stale_gates.json
git add -A && git commit -qm "a stale baseline"
set +e
"$perfgate" selftest --manifest stale_gates.json --work "$work/w" --plant count_off_by_one >"$work/stale_baseline.txt" 2>&1
status=$?
set -e
[[ $status == 1 ]] && grep -q 'the clean tree fails suite: its catches prove nothing' "$work/stale_baseline.txt" ||
  fail "a catch by a check the clean tree fails: exit $status: $(cat "$work/stale_baseline.txt")"
# A work folder inside the repository, ignored or not, is never part of the tree tested.
printf 'ignored-work/\n' >.gitignore && git add .gitignore && git commit -qm "ignore a work folder"
index_before=$(git ls-files --stage | sha1sum)
for inside in ignored-work plain-work; do
  set +e
  "$perfgate" selftest --manifest gates.json --work "$inside" --plant count_off_by_one >"$work/$inside.txt" 2>&1
  status=$?
  set -e
  [[ $status == 0 ]] || fail "a work folder $inside inside the repository: exit $status: $(cat "$work/$inside.txt")"
  grep -q '(HEAD)' "$work/$inside.txt" || fail "the work folder $inside became part of the tree tested: $(head -1 "$work/$inside.txt")"
done
rm -rf plain-work ignored-work
[[ $(git worktree list | wc -l) == 1 ]] || fail "a worktree was left: $(git worktree list)"
[[ $(git ls-files --stage | sha1sum) == "$index_before" && -z $(git status --porcelain) ]] || fail "the repository's index or tree changed"
echo "selftest_test: caught by a FAIL row, not by a MISSING one, a stale plant named, the repository untouched"
