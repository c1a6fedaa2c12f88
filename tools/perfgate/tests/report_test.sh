#!/usr/bin/env bash
# perfgate report end to end on committed fixtures: the files it promises exist and are well-formed, PNGs are real
# PNGs, failures come first, and the HTML passes the browser check (tools/report-check: no plot text over another). Usage: report_test.sh PERFGATE INPUTS WORK CHECK
set -euo pipefail
perfgate=$1 inputs=$2 work=$3 check=$4
rm -rf "$work" && mkdir -p "$work"
fx="$inputs/report"
"$perfgate" history record --db "$work/history.db" --results "$fx/results_escaping.json" --commit 00000c1 >/dev/null
for i in 2 3; do "$perfgate" history record --db "$work/history.db" --results "$fx/results_escaping.json" --commit "00000c$i" >/dev/null; done
set +e
"$perfgate" report --out-dir "$work/out" --png --history "$work/history.db" \
  --check "$fx/results_escaping.json=$fx/baseline_escaping.json" \
  --speedup-results "$fx/results_speedup.json" --reference BM_Ref --candidate BM_Cand --threshold 1.8 --target 3 \
  --ablation "$fx/results_ablation.json" --images "$fx/images" \
  --figure "$fx/images/reconstruction.png" >"$work/stdout.txt"
rc=$?
set -e
fail() { echo "report_test: $*" >&2; exit 1; }
[[ $rc -eq 1 ]] || fail "expected exit 1 (one metric regressed), got $rc"
for f in report.html summary.md verdicts.json junit.xml; do [[ -s "$work/out/$f" ]] || fail "missing $f"; done
[[ $(jq -r .overall "$work/out/verdicts.json") == FAIL ]] || fail "verdicts.json overall is not FAIL"
[[ $(jq -r '.checks[] | select(.verdict == "FAIL") | .benchmark' "$work/out/verdicts.json") == 'BM_Quality & "Speed"' ]] ||
  fail "verdicts.json does not name the failing benchmark"
[[ $(jq -r '.checks[] | select(.field == "real_time") | .verdict' "$work/out/verdicts.json") == WARNING ]] ||
  fail "the advisory timing is not reported as WARNING"
# verdicts.json carries values, not prose to be parsed: the tolerance, the acceptable band and the findings.
failing=$(jq -c '.checks[] | select(.verdict == "FAIL") | [.findings, .tolerance.kind, (.tolerance.amount != null), (.acceptable | has("low") and has("high")), (.worst_acceptable != null), (.reason | length > 0)]' "$work/out/verdicts.json")
[[ $failing == '[["beyond_tolerance"],'* && $failing == *',true,true,true,true]' ]] || fail "the failing row's structured values are wrong: $failing"
[[ $(jq -c '[.checks[] | select(.verdict == "PASS") | .findings | length] | unique' "$work/out/verdicts.json") == '[0]' ]] ||
  fail "a passing row has findings"
grep -q '<testsuite name="perfgate" tests="4" failures="1"' "$work/out/junit.xml" || fail "junit.xml counts are wrong"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/out/junit.xml" || fail "junit.xml does not escape names"
grep -q '^## perfgate report: \*\*FAIL\*\*' "$work/out/summary.md" || fail "summary.md does not lead with the verdict"
# The 3x here is an aim: stated in words, never as a PASS/FAIL verdict of its own.
grep -Eq 'aim 3x \(not gated\): (reached|not reached|not decided)' "$work/out/summary.md" || fail "summary.md does not state the aim as an aim"
grep -Eq 'Aim 3x \(reported, not gated\): <span class="aim">(reached|not reached|not decided)</span>' "$work/out/report.html" ||
  fail "report.html does not state the aim as an aim"
# Google Benchmark's DEBUG-library warning is explained where users read the results, with the measured build.
grep -q "library was built as DEBUG.*built as Release" "$work/out/summary.md" || fail "summary.md does not explain the DEBUG library"
grep -q "library was built as DEBUG" "$work/out/report.html" || fail "report.html does not explain the DEBUG library"
svgs=$(find "$work/out/plots" -name '*.svg' | wc -l)
pngs=$(find "$work/out/plots" -name '*.png' | wc -l)
[[ $svgs -ge 8 && $svgs -eq $pngs ]] || fail "expected one PNG per SVG plot (>= 8), got $svgs SVG and $pngs PNG"
for p in "$work"/out/plots/*.png; do
  [[ $(head -c 8 "$p" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$p is not a PNG"
done
# Failures first, wherever rows are listed: verdicts.json, the summary's table and the report's.
[[ $(jq -r '.checks[0].verdict' "$work/out/verdicts.json") == FAIL ]] || fail "verdicts.json does not list the failure first"
[[ $(grep -m1 -oE '^\| (PASS|FAIL|WARNING|MISSING|SKIPPED) \|' "$work/out/summary.md") == '| FAIL |' ]] ||
  fail "summary.md does not list the failure first"
# Every plot's texts apart and inside it, as the browser draws them (the checker measures them); the page as drawn is
# kept beside the report for a person to look at.
"$check" "$work/out/report.html" --overall FAIL --min-plots 8 --images 3 --sections speedup,checks,ablation,images,figures,history \
  --text '<script>alert(1)</script>' --text 'BM_Quality & "Speed"' --screenshot "$work/report.png"
[[ -s $work/report.png ]] || fail "no screenshot of the report"
