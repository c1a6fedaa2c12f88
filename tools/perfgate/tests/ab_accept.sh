#!/usr/bin/env bash
# A regression accepted on purpose, end to end: perfgate ab on a throwaway repository whose bench_demo is a stand-in
# (a script writing Google Benchmark JSON with ±1 % noise; its slowdown factor a committed file) and whose build, in
# its gate manifest, is a CMake preset that copies it. Head makes BM_Parse 10 % slower and leaves BM_Hash alone.
#  - a `perfgate-accept: BM_Parse* real_time +15% ...` trailer: BM_Parse ACCEPTED, exit 0, the reason in ab's JSON,
#    the comment, the report's summary and its HTML;
#  - a trailer of +5% (the regression is beyond it): BM_Parse still FAIL, exit 1, "beyond" in the comment;
#  - a trailer for another field (instructions) accepts nothing: FAIL, exit 1;
#  - a malformed trailer: exit 2 before anything is built.
# Usage: ab_accept.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "ab_accept: $*" >&2; exit 1; }
repo=$work/repo
mkdir -p "$repo"
cd "$repo"
git init -q
git config user.name t && git config user.email t@t.example && git config commit.gpgsign false

cat >CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(demo NONE)
configure_file(bench_demo.sh ${CMAKE_BINARY_DIR}/bin/bench_demo COPYONLY)
configure_file(slowdown.txt ${CMAKE_BINARY_DIR}/bin/slowdown.txt COPYONLY)
add_custom_target(bench_demo)
CMAKE
cat >CMakePresets.json <<'JSON'
{"version": 3,
 "configurePresets": [{"name": "release", "binaryDir": "${sourceDir}/build/release", "generator": "Unix Makefiles"}],
 "buildPresets": [{"name": "release", "configurePreset": "release"}]}
JSON
cat >bench_demo.sh <<'SH'
#!/usr/bin/env bash
# A stand-in benchmark: BM_Parse/64 takes 1000 us times the committed slowdown, BM_Hash/64 400 us, each ±1 %.
set -euo pipefail
out=""
for a in "$@"; do case $a in --benchmark_out=*) out=${a#--benchmark_out=} ;; esac; done
slowdown=$(cat "$(dirname "$0")/slowdown.txt")
noise() { awk -v base="$1" -v s="$2" -v r="$RANDOM" 'BEGIN { printf "%.3f", base * s * (0.99 + 0.02 * r / 32767) }'; }
cat >"$out" <<EOF_JSON
{"context": {"host_name": "demo", "build_type": "release"},
 "benchmarks": [
  {"name": "BM_Parse/64", "run_name": "BM_Parse/64", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
   "iterations": 100, "real_time": $(noise 1000 "$slowdown"), "cpu_time": 1000, "time_unit": "us"},
  {"name": "BM_Hash/64", "run_name": "BM_Hash/64", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
   "iterations": 100, "real_time": $(noise 400 1), "cpu_time": 400, "time_unit": "us"}]}
EOF_JSON
SH
chmod +x bench_demo.sh
cat >gates.json <<'JSON'
{"schema_version": 2, "baseline_path": "baselines/{name}.json",
 "build": {"directory": "build/release", "steps": [["cmake", "--preset", "release"], ["cmake", "--build", "--preset", "release", "--target", "{targets}"]]},
 "gates": [{"name": "demo", "kind": "baseline", "label": "performance", "command": ["bin/bench_demo"], "targets": ["bench_demo"]}]}
JSON
echo 1.00 >slowdown.txt
printf 'build/\n' >.gitignore
git add -A && git commit -qm base
git branch base

# head: 10 % slower parsing, with a trailer of its own (one of three).
head_with() {
  git checkout -q -B "$1" base
  echo 1.10 >slowdown.txt
  git commit -qam "parse more carefully" -m "Checks every field." -m "perfgate-accept: $2"
}
run_ab() {
  local branch=$1
  set +e
  "$perfgate" ab --manifest gates.json --gate demo --filter 'BM_' --work "$work/ab-$branch" --accept-trailers "base..$branch" \
    --json "$work/$branch.json" base "$branch" >"$work/$branch.txt" 2>&1
  echo $?
  set -e
}

head_with within 'BM_Parse* real_time +15% parsing now validates every field'
status=$(run_ab within)
[[ $status == 0 ]] || fail "within its allowance: exit $status, not 0: $(cat "$work/within.txt")"
grep -q '^ACCEPTED *BM_Parse/64' "$work/within.txt" || fail "BM_Parse/64 not ACCEPTED: $(cat "$work/within.txt")"
grep -q '^PASS *BM_Hash/64' "$work/within.txt" || fail "BM_Hash/64 not PASS"
grep -q 'perfgate ab: PASS' "$work/within.txt" || fail "no PASS line"
[[ $(jq -r '.timings[] | select(.benchmark == "BM_Parse/64") | .verdict' "$work/within.json") == ACCEPTED ]] || fail "ab.json: not ACCEPTED"
[[ $(jq -r '.timings[] | select(.benchmark == "BM_Parse/64") | .acceptance.reason' "$work/within.json") == "parsing now validates every field" ]] ||
  fail "ab.json: the reason is not recorded"
"$perfgate" comment --ab "$work/within.json" --out "$work/within.md" >/dev/null
grep -q 'ACCEPTED' "$work/within.md" && grep -q 'parsing now validates every field' "$work/within.md" ||
  fail "the comment does not show the acceptance and its reason"
"$perfgate" report --out-dir "$work/report" --ab "$work/within.json" >/dev/null || fail "report --ab: exit $?"
grep -q 'parsing now validates every field' "$work/report/summary.md" || fail "the summary does not show the reason"
grep -q 'v-ACCEPTED' "$work/report/report.html" && grep -q 'parsing now validates every field' "$work/report/report.html" ||
  fail "the report does not show the acceptance"

head_with beyond 'BM_Parse* real_time +5% parsing now validates every field'
status=$(run_ab beyond)
[[ $status == 1 ]] || fail "beyond its allowance: exit $status, not 1: $(cat "$work/beyond.txt")"
grep -q '^FAIL *BM_Parse/64' "$work/beyond.txt" || fail "BM_Parse/64 not FAIL beyond its allowance"
grep -q 'beyond the accepted +5%' "$work/beyond.txt" || fail "the output does not say the allowance was exceeded"
"$perfgate" comment --ab "$work/beyond.json" --out "$work/beyond.md" >/dev/null
grep -q 'beyond its acceptance' "$work/beyond.md" || fail "the comment does not say the allowance was exceeded"

head_with other_field 'BM_Parse* instructions +50% not this field'
status=$(run_ab other_field)
[[ $status == 1 ]] || fail "a rule for another field: exit $status, not 1"

head_with malformed 'BM_Parse* real_time 15 percent'
status=$(run_ab malformed)
[[ $status == 2 ]] || fail "a malformed trailer: exit $status, not 2"
[[ $(wc -l <"$work/malformed.txt") == 1 ]] || fail "a malformed trailer: not one line: $(cat "$work/malformed.txt")"
[[ ! -e $work/ab-malformed ]] || fail "a malformed trailer: something was built"
echo "ab_accept: accepted within +15%, FAIL beyond +5% and for another field, malformed trailer refused"
