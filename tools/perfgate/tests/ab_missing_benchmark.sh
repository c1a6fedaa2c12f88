#!/usr/bin/env bash
# A benchmark some revision does not report is no time, never a made-up one: on a generated repository whose stand-in
# suite (a shell script writing Google Benchmark JSON with fixed times, so no noise) adds BM_B at its third commit and
# changes no time, perfgate ab must not judge BM_B at all, and perfgate bisect's timing mode must name no commit. Then a
# second line where commit 2's suite fails and commit 4 makes BM_A twice as slow: bisect steps over commit 2 and names 4.
# Usage: ab_missing_benchmark.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "ab_missing_benchmark: $*" >&2; exit 1; }
cd "$work"
git init -q repo
cd repo
git config user.name t && git config user.email t@t.example && git config commit.gpgsign false
cat >bench.sh <<'SH'
#!/bin/sh
here=$(dirname "$0")
for a in "$@"; do case "$a" in --benchmark_out=*) out="${a#--benchmark_out=}";; esac; done
{
  echo '{"context":{"date":"x","host_name":"h","executable":"b","num_cpus":1,"mhz_per_cpu":1,"cpu_scaling_enabled":false,"library_build_type":"release"},"benchmarks":['
  sep=""
  grep -q FAIL "$here/times.txt" && exit 3
  while read -r name t; do
    printf '%s{"name":"%s","run_name":"%s","run_type":"iteration","repetitions":1,"repetition_index":0,"threads":1,"iterations":100,"real_time":%s,"cpu_time":%s,"time_unit":"ns"}\n' "$sep" "$name" "$name" "$t" "$t"
    sep=","
  done <"$here/times.txt"
  echo ']}'
} >"$out"
SH
chmod +x bench.sh
cat >gates.json <<'JSON'
{"schema_version": 2, "baseline_path": "{name}.json",
 "build": {"directory": "build", "steps": [["sh", "-c", "mkdir -p build && cp bench.sh build/bench && cp times.txt build/times.txt"]]},
 "gates": [{"name": "g", "kind": "baseline", "label": "performance", "command": ["bench"], "timeout_seconds": 60}]}
JSON
for i in 0 1 2 3 4 5; do
  if (( i < 3 )); then printf 'BM_A 1000\n' >times.txt; else printf 'BM_A 1000\nBM_B 1000\n' >times.txt; fi
  git add -A && git commit -q --allow-empty -m "commit $i"
done
set +e
"$perfgate" ab --manifest gates.json --gate g --filter '^BM_' --work "$work/ab" --json "$work/ab.json" HEAD~5 HEAD >"$work/ab.txt" 2>&1
ab_status=$?
"$perfgate" bisect --manifest gates.json --gate g --filter '^BM_' --work "$work/bisect" --json "$work/bisect.json" HEAD~5 HEAD >"$work/bisect.txt" 2>&1
bisect_status=$?
set -e
[[ $ab_status == 0 ]] || fail "ab exited $ab_status: $(cat "$work/ab.txt")"
[[ $(jq '[.timings[] | select(.benchmark == "BM_B")] | length' "$work/ab.json") == 0 ]] || fail "ab judged BM_B, which HEAD~5 does not have: $(cat "$work/ab.txt")"
[[ $(jq -r '.first_bad // "none"' "$work/bisect.json") == none && $bisect_status == 0 ]] ||
  fail "bisect named a commit or failed (exit $bisect_status): $(cat "$work/bisect.txt")"

git checkout -q --orphan second
for i in 0 1 2 3 4 5; do
  case $i in 2) printf 'FAIL\n' >times.txt ;; 4|5) printf 'BM_A 2000\n' >times.txt ;; *) printf 'BM_A 1000\n' >times.txt ;; esac
  git add -A && git commit -q --allow-empty -m "second $i"
done
set +e
"$perfgate" bisect --manifest gates.json --gate g --filter '^BM_' --work "$work/bisect2" --json "$work/bisect2.json" HEAD~5 HEAD >"$work/bisect2.txt" 2>&1
status=$?
set -e
named=$(jq -r '.first_bad // "none"' "$work/bisect2.json" 2>/dev/null || echo none)
[[ $status == 0 && $named == $(git rev-parse HEAD~1) ]] || fail "bisect did not step over the failing commit 2 and name 4 (exit $status): $(cat "$work/bisect2.txt")"
grep -q "cannot be measured, skipped" "$work/bisect2.txt" || fail "commit 2 was not reported as stepped over: $(cat "$work/bisect2.txt")"
echo "ab_missing_benchmark: a benchmark one revision lacks is not judged, and no commit is named; a commit whose suite fails is stepped over"
