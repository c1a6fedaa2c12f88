#!/usr/bin/env bash
# An attack on perfgate designed without knowledge of the fixes it led to (hostile input, round two: path containment,
# input/output identity, numbers, text, bounds, presence, storage). A record, not a CTest test: it needs root, python3,
# sqlite3 and setpriv. Usage:  round_two.sh WORK PERFGATE
#   Creates every input under WORK (wiped first), runs each case and prints, per case,
#     # CASE <name> | <class 1-7> | <expected per the contract> | observed: <...> => DEFECT|handled
#   followed by the shell snippet that reproduces it (with W=WORK, perfgate=PERFGATE, after this script made the inputs). A TSV of all cases is left in WORK/cases.tsv.
#   Needs: bash, python3, git, sqlite3, xmllint, bc, setpriv (run as root: two cases drop to uid 65534 for a read-only folder).
#   SKIP_SLOW=1 leaves out the 100,000-entry timings (several minutes on a busy 2-core machine).
# Contract judged: bad input -> exactly one stderr line "perfgate: error: ..." and exit 2; never a crash, hang or
# partial output; a baseline is never half-written or lost; outputs all or none; exit 1 regression, 0 pass.
set -u
W=$(realpath -m "${1:?usage: round_two.sh WORK PERFGATE}")
PG=$(realpath "${2:?usage: round_two.sh WORK PERFGATE}")
SKIP_SLOW=${SKIP_SLOW:-0}
rm -rf "$W"
mkdir -p "$W/in" "$W/logs" "$W/tmp"
cd "$W" || exit 2
export TMPDIR="$W/tmp" CI=1
export GIT_CEILING_DIRECTORIES="$W"  # repositories are made inside WORK; git must not find one above it
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE PERFGATE_CHROMIUM
chmod 755 "$W"
IN="$W/in"
TSV="$W/cases.tsv"
: >"$TSV"
ncases=0
ndefects=0

# ------------------------------------------------------------------------------------------------------ inputs
python3 - "$IN" <<'PY'
import json, sys, os
d = sys.argv[1]
def w(name, obj):
    with open(os.path.join(d, name), "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False)
PROV = {"git_sha": "abc", "date": "d", "machine": "m", "build_type": "Release", "torch_version": "t", "threads": "1",
        "reason": "fixture", "machine_fingerprint": "m1"}
def res(name, rows, ctx=None):
    w(name, {"context": ctx if ctx is not None else {"git_sha": "abc", "machine_fingerprint": "m1"}, "benchmarks": rows})
def row(nm, rep=0, **f):
    r = {"name": nm, "run_type": "iteration", "repetition_index": rep, "iterations": 10}
    r.update(f)
    return r
def base(name, entries, prov=PROV):
    w(name, {"schema_version": 1, "provenance": prov, "entries": entries})
def entry(b, field="count", value=5, unit="", direction="lower", tol=None, **extra):
    e = {"benchmark": b, "field": field, "value": value, "unit": unit, "direction": direction,
         "tolerance": tol if tol is not None else {"rel": 0.1}}
    e.update(extra)
    return e

# generic
res("ok_r.json", [row("BM_A", real_time=1, cpu_time=1, time_unit="ms", count=5)])
res("ok_r2.json", [row("BM_A", real_time=1.01, cpu_time=1, time_unit="ms", count=5)])
base("ok_b.json", [entry("BM_A")])
res("fail_r.json", [row("BM_A", count=6)])
# speedup: 8 interleaved pairs, ~4x
rows = []
for i in range(8):
    rows += [row("BM_Ref", i, real_time=4.0 + 0.01 * i, cpu_time=4.0, time_unit="ms"),
             row("BM_Cand", i, real_time=1.0, cpu_time=1.0, time_unit="ms")]
res("sp.json", rows)
base("sp_b.json", [entry("speedup:BM_Cand/BM_Ref", "speedup", 4, "x", "higher", {"rel": 0.1})])
# class 3: numbers
res("big53p1_r.json", [row("BM_A", count=9007199254740993)])
res("big53p2_r.json", [row("BM_A", count=9007199254740994)])
base("big53_b.json", [entry("BM_A", value=9007199254740992, direction="either", tol={"exact": True})])
res("ulp_r.json", [row("BM_A", count=1.0000000000000002)])
base("ulp_b.json", [entry("BM_A", value=1.0, direction="either", tol={"exact": True})])
res("opposite_r.json", [row("BM_A", 0, n=-1e308), row("BM_A", 1, n=1e308)])
base("opposite_b.json", [entry("BM_A", "n", 0, "", "either", {"abs": 1})])
res("huge_r.json", [row("BM_A", 0, n=1.7e308), row("BM_A", 1, n=1.7e308)])
base("huge_b.json", [entry("BM_A", "n", 1.7e308, "", "lower", {"rel": 0.05})])
res("denormal_r.json", [row("BM_A", n=5e-324)])
base("denormal_b.json", [entry("BM_A", "n", 0, "", "either", {"exact": True})])
res("tiny_r.json", [row("BM_A", count=2e-9)])
base("tiny_b.json", [entry("BM_A", value=1e-9, tol={"abs": 0})])
rows = []
for i in range(8):  # every ratio 3 or 3 + 1 ulp, gate threshold 3
    rows += [row("BM_Ref", i, real_time=3.0 if i % 2 else 3.0000000000000004, cpu_time=3.0, time_unit="ms"),
             row("BM_Cand", i, real_time=1.0, cpu_time=1.0, time_unit="ms")]
res("sp_ulp.json", rows)
res("hist5_r.json", [row("BM_A", count=5.0)], {"git_sha": "c1", "machine_fingerprint": "m1"})
res("hist5ulp_r.json", [row("BM_A", count=5.000000000000001)], {"git_sha": "c2", "machine_fingerprint": "m1"})
# class 4: text
res("nonchar_r.json", [row("BM_\ufffe_noncharacter", count=6)])
base("nonchar_b.json", [entry("BM_\ufffe_noncharacter", tol={"abs": 0})])
LONG = "BM_" + "x" * 10 + "\u00e9" * 20 + "y" * 40
res("ablation_trunc.json", [row(LONG, real_time=2, cpu_time=2, time_unit="ms"), row("BM_plain", real_time=3, cpu_time=3, time_unit="ms")])
XS = "BM_<x>&\"'</testcase><script>alert(1)</script>]]>"
res("xmlspecial_r.json", [row(XS, count=6)])
base("xmlspecial_b.json", [entry(XS, tol={"abs": 0})])
res("nul_r.json", [row("BM_A", count=5), row("BM_A\u0000evil", count=999)])
res("nul_fail_r.json", [row("BM_A\u0000evil", count=6)])
base("nul_fail_b.json", [entry("BM_A\u0000evil", tol={"abs": 0})])
BIDI = "BM_Fast\u202e SSAP"
res("bidi_r.json", [row(BIDI, count=6)])
base("bidi_b.json", [entry(BIDI, tol={"abs": 0})])
res("nel_dup_r.json", [row("BM_A\u0085perfgate: error: forged", count=1), row("BM_A\u0085perfgate: error: forged", count=1)])
IMG = "BM_![pwned](https://attacker.example/pixel.png)"
res("md_image_r.json", [row(IMG, count=6)])
base("md_image_b.json", [entry(IMG, tol={"abs": 0})])
res("md_link_r.json", [row("BM_A", count=6)], {"git_sha": "abc", "machine_fingerprint": "m1",
                                                "machine": "[click to approve](https://attacker.example/approve)"})
res("md_code_r.json", [row("BM_A", count=6)], {"git_sha": "abc` ![x](https://attacker.example/sha.png) `", "machine_fingerprint": "m1"})
PIPE = "BM_a|b|c\nd"
res("md_pipe_r.json", [row(PIPE, count=6)])
base("md_pipe_b.json", [entry(PIPE, tol={"abs": 0})])
HTMLI = "BM_<img src=x onerror=alert(1)>"
res("html_r.json", [row(HTMLI, count=6)])
base("html_b.json", [entry(HTMLI, tol={"abs": 0})])
for i, sha in enumerate(["a\u00e9\u00e9\u00e9\u00e9\u00e91", "a\u00e9\u00e9\u00e9\u00e9\u00e92"]):
    res(f"trend_utf8_{i}.json", [row("BM_A", count=5 + i)], {"git_sha": sha, "machine_fingerprint": "m1"})
# class 6: presence
res("empty_unknown_r.json", [], {})
res("empty_same_r.json", [], {"machine_fingerprint": "m1"})
base("adv_b.json", [entry("BM_T", "real_time", 1.5, "ms", "lower", {"rel": 0.1}, advisory=True)])
base("mixed_b.json", [entry("BM_T", "real_time", 1.5, "ms", "lower", {"rel": 0.1}, advisory=True), entry("BM_A")])
base("t_b.json", [entry("BM_T", "real_time", 1.5, "ms", "lower", {"rel": 0.1})])
res("noiter_r.json", [{"name": "BM_T", "run_type": "iteration", "repetition_index": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ms"}])
res("aggname_r.json", [{"name": "BM_T", "aggregate_name": "stddev", "repetition_index": 0, "iterations": 3,
                         "real_time": 0.01, "cpu_time": 0.01, "time_unit": "ms"}])
res("aggonly_r.json", [{"name": "BM_T_mean", "run_name": "BM_T", "run_type": "aggregate", "aggregate_name": "mean", "repetitions": 3,
                         "iterations": 3, "real_time": 1.4, "cpu_time": 1.4, "time_unit": "ms"}])
res("errored_r.json", [row("BM_T", real_time=1, cpu_time=1, time_unit="ms", error_occurred=True, error_message="boom")])
res("skipped18_r.json", [row("BM_T", real_time=1.4, cpu_time=1.4, time_unit="ms"),
                          {"name": "BM_Other", "run_type": "iteration", "repetition_index": 0, "iterations": 0, "real_time": 0,
                           "cpu_time": 0, "time_unit": "ms", "error_occurred": False, "error_message": "skipped: no GPU"}])
res("errstr_r.json", [row("BM_T", real_time=1.4, cpu_time=1.4, time_unit="ms", error_occurred="false")])
res("aggerr_r.json", [row("BM_T", real_time=1.4, cpu_time=1.4, time_unit="ms"),
                       {"name": "BM_T_mean", "run_name": "BM_T", "run_type": "aggregate", "aggregate_name": "mean", "iterations": 1,
                        "real_time": 1.4, "time_unit": "ms", "error_occurred": True, "error_message": "aggregate error"}])
res("speedagg_r.json", [{"name": n + "_mean", "run_name": n, "run_type": "aggregate", "aggregate_name": "mean", "iterations": 1,
                          "real_time": t, "time_unit": "ms"} for n, t in (("BM_Ref", 4), ("BM_Cand", 1))])
# time is measured: a trace for the fake profiler
with open(os.path.join(d, "trace.json"), "w") as f:
    f.write('[{"ph": "X", "name": "op", "ts": 0, "dur": 1}]')
PY
# a fake profile_step: writes a valid trace to $1
printf '#!/bin/sh\ncp "%s" "$1"\n' "$IN/trace.json" >"$IN/fake_profiler.sh"
chmod +x "$IN/fake_profiler.sh"
# a Chromium that never finishes
printf '#!/bin/sh\nexec sleep 3600\n' >"$IN/hung_chromium.sh"
chmod +x "$IN/hung_chromium.sh"
chmod -R a+rX "$W"

# ------------------------------------------------------------------------------------------------------ runner
# run NAME CLASS EXPECTED_RC EXPECTED_TEXT CHECK [VAR=value ...] -- PERFGATE_ARGS...
#   EXPECTED_RC: 0, 1, 2, 3 or "any". CHECK: bash evaluated after the run (in $W); false => not as the contract says;
#   it may set NOTE (shown with the observation). Optional: CWD (folder to run in), TMO (seconds, default 20),
#   WRAP (a command prefix, e.g. setpriv ... to run as nobody).
run() {
  local name=$1 class=$2 exp=$3 expected=$4 check=$5
  shift 5
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  local out="$W/logs/$name.out" err="$W/logs/$name.err" dir=${CWD:-$W} rc start end
  start=$(date +%s.%N)
  (cd "$dir" && ulimit -v 6000000 && env "${envs[@]}" timeout -k 2 "${TMO:-20}" ${WRAP:-} "$PG" "$@") >"$out" 2>"$err"
  rc=$?
  end=$(date +%s.%N)
  ELAPSED=$(printf '%.2f' "$(echo "$end - $start" | bc)")
  RC=$rc OUT=$out ERR=$err
  NOTE=""
  local problems=()
  [[ $exp == any || $rc == "$exp" ]] || problems+=("exit $rc, expected $exp")
  [[ $rc == 124 || $rc == 137 ]] && problems+=("killed by the ${TMO:-20} s timeout (hang)")
  if [[ $rc == 2 ]]; then
    [[ $(wc -l <"$err") == 1 && $(head -c 17 "$err") == "perfgate: error: " ]] || problems+=("stderr is not one 'perfgate: error:' line")
  fi
  if [[ -n $check ]] && ! eval "$check"; then problems+=("contract check failed"); fi
  NOTE=${NOTE//$'\n'/ }
  local first
  first=$(head -n 1 "$err" | cut -c1-160 | tr -d '\000')
  local observed="exit $rc (${ELAPSED} s); stderr: ${first:-<empty>}${NOTE:+; $NOTE}"
  local verdict=handled
  ((${#problems[@]})) && verdict=DEFECT
  ncases=$((ncases + 1))
  [[ $verdict == DEFECT ]] && ndefects=$((ndefects + 1))
  printf '# CASE %s | %s | %s | observed: %s => %s%s\n' "$name" "$class" "$expected" "$observed" "$verdict" \
    "$( ((${#problems[@]})) && printf ' (%s)' "$(IFS=';'; echo "${problems[*]}")")"
  local snippet="(cd $(printf '%q' "${dir#$W/}")"
  [[ $dir == "$W" ]] && snippet="(cd ."
  snippet+=" && ${envs[*]:+$(printf '%q ' "${envs[@]}")}${WRAP:+$WRAP }perfgate $(printf '%q ' "$@"))"
  printf '%s\n\n' "${snippet//$W/\$W}"
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$class" "$(echo "$observed" | tr '\t\n' '  ')" "$expected" "$verdict" >>"$TSV"
}
hash_of() { sha256sum <"$1" | cut -c1-16; }
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

echo "######## class 1: path containment"
# 1a. update: a relative link inside a symlinked folder. dir -> ../real/sub, dir/b.json -> ../b.json: the kernel (and the
#     read) resolve it to real/b.json; the write goes to cwd/b.json (lexical '..' collapse in write_target_of).
mkdir -p c1a/real/sub c1a/cwd && cp "$IN/ok_b.json" c1a/real/b.json && echo '{"unrelated": "precious"}' >c1a/cwd/b.json
ln -s ../real/sub c1a/cwd/dir && ln -s ../b.json c1a/real/sub/b.json
CWD="$W/c1a/cwd" run update_relative_link_in_symlinked_folder 1 0 "reads and rewrites real/b.json (the file the link names); cwd/b.json untouched" \
  'grep -q precious c1a/cwd/b.json || NOTE="cwd/b.json (unrelated file) overwritten with the new baseline; real/b.json still the old one"; grep -q precious c1a/cwd/b.json' \
  -- update --allow-dirty --reason r --results "$IN/ok_r2.json" --baseline dir/b.json

# 1b. speedup --out: the same link shape
mkdir -p c1b/real/sub c1b/cwd && echo old >c1b/real/sp_out.json && echo '{"unrelated": "precious"}' >c1b/cwd/sp_out.json
ln -s ../real/sub c1b/cwd/dir && ln -s ../sp_out.json c1b/real/sub/sp_out.json
CWD="$W/c1b/cwd" run speedup_out_relative_link_in_symlinked_folder 1 0 "writes real/sp_out.json; cwd/sp_out.json untouched" \
  'grep -q precious c1b/cwd/sp_out.json || NOTE="the unrelated cwd/sp_out.json was replaced; real/sp_out.json=$(head -c 20 c1b/real/sp_out.json)"; grep -q precious c1b/cwd/sp_out.json' \
  -- speedup --threshold 3 --results "$IN/sp.json" --reference BM_Ref --candidate BM_Cand --out dir/sp_out.json

# 1c. profile --out: the same link shape (a fake recording program)
mkdir -p c1c/real/sub c1c/cwd && echo old >c1c/real/trace.json && echo '{"unrelated": "precious"}' >c1c/cwd/trace.json
ln -s ../real/sub c1c/cwd/dir && ln -s ../trace.json c1c/real/sub/trace.json
CWD="$W/c1c/cwd" run profile_out_relative_link_in_symlinked_folder 1 0 "writes real/trace.json; cwd/trace.json untouched" \
  'grep -q precious c1c/cwd/trace.json || NOTE="the unrelated cwd/trace.json was replaced by the trace"; grep -q precious c1c/cwd/trace.json' \
  -- profile --out dir/trace.json -- "$IN/fake_profiler.sh" {trace}

# 1d. report: plots/ is a link to a folder outside --out, in a folder perfgate wrote before
mkdir -p c1d/outside && "$PG" report --out-dir c1d/rep --check "$IN/ok_r.json=$IN/ok_b.json" >/dev/null
rm -rf c1d/rep/plots && ln -s ../outside c1d/rep/plots && echo '<svg>precious</svg>' >c1d/outside/keep.svg && printf 'PNG' >c1d/outside/photo.png
run report_plots_symlink_deletes_outside 1 0 "writes and deletes only inside --out; the outside folder keeps keep.svg and photo.png" \
  '[[ -f c1d/outside/keep.svg && -f c1d/outside/photo.png && $(ls c1d/outside | wc -l) == 2 ]] || NOTE="outside folder now: $(ls c1d/outside | tr "\n" " ")"; [[ -f c1d/outside/keep.svg && -f c1d/outside/photo.png && $(ls c1d/outside | wc -l) == 2 ]]' \
  -- report --out-dir c1d/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1e. report: a fresh --out-dir whose plots/ is a link to an outside folder
mkdir -p c1e/rep c1e/outside && ln -s ../outside c1e/rep/plots
run report_plots_symlink_fresh_folder_writes_outside 1 0 "nothing written outside --out-dir (refuse, or replace the link)" \
  '[[ -z $(ls c1e/outside) ]] || NOTE="written outside: $(ls c1e/outside | tr "\n" " ")"; [[ -z $(ls c1e/outside) ]]' \
  -- report --out-dir c1e/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1f. report: the folder marker .perfgate-report is a link to an outside file
mkdir -p c1f/outside && echo "precious config" >c1f/outside/config.txt && "$PG" report --out-dir c1f/rep --check "$IN/ok_r.json=$IN/ok_b.json" >/dev/null
rm c1f/rep/.perfgate-report && ln -s ../outside/config.txt c1f/rep/.perfgate-report
run report_marker_symlink_overwrites_outside 1 0 "outside/config.txt unchanged" \
  'grep -q precious c1f/outside/config.txt || NOTE="outside/config.txt now: $(head -c 50 c1f/outside/config.txt)"; grep -q precious c1f/outside/config.txt' \
  -- report --out-dir c1f/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1g. report: a fresh --out-dir holding a dangling link junit.xml -> outside/new.xml
mkdir -p c1g/rep c1g/outside && ln -s ../outside/created.xml c1g/rep/junit.xml
run report_dangling_output_link_creates_outside 1 0 "no file created outside --out-dir (refuse, or replace the link)" \
  '[[ ! -e c1g/outside/created.xml ]] || NOTE="created c1g/outside/created.xml"; [[ ! -e c1g/outside/created.xml ]]' \
  -- report --out-dir c1g/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1h. report: a fresh --out-dir whose plots/01-<slug>.svg is a link to an outside file
mkdir -p c1h/rep/plots c1h/outside && echo victim >c1h/outside/victim.svg && ln -s ../../outside/victim.svg c1h/rep/plots/01-ok_r-BM_A-count.svg
run report_plot_file_symlink_overwrites_outside 1 0 "outside/victim.svg unchanged" \
  'grep -qx victim c1h/outside/victim.svg || NOTE="outside/victim.svg replaced by the plot"; grep -qx victim c1h/outside/victim.svg' \
  -- report --out-dir c1h/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1i. report: in a folder perfgate wrote, summary.md has become a link to an outside file: the link is removed first
mkdir -p c1i/outside && echo precious >c1i/outside/notes.md && "$PG" report --out-dir c1i/rep --check "$IN/ok_r.json=$IN/ok_b.json" >/dev/null
rm c1i/rep/summary.md && ln -s ../outside/notes.md c1i/rep/summary.md
run report_summary_link_in_own_folder 1 0 "outside/notes.md unchanged" 'grep -qx precious c1i/outside/notes.md' \
  -- report --out-dir c1i/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1i2. report --out-dir a folder of someone else's report whose verdicts.json merely contains "overall": treated as perfgate's
mkdir -p c1i2/rep/plots && echo '{"overall": "green", "tool": "other"}' >c1i2/rep/verdicts.json && echo "<html>their report</html>" >c1i2/rep/report.html
echo "their notes" >c1i2/rep/summary.md && echo "<svg/>" >c1i2/rep/plots/their-chart.svg && printf PNG >c1i2/rep/plots/their-photo.png
run report_deletes_foreign_report_with_overall 1 2 "refused: the folder holds report files perfgate did not write (no marker); they stay" \
  'NOTE="left in plots/: $(ls c1i2/rep/plots | tr "\n" " "); report.html: $(head -c 30 c1i2/rep/report.html)"; [[ -f c1i2/rep/plots/their-chart.svg && -f c1i2/rep/plots/their-photo.png ]] && grep -q "their report" c1i2/rep/report.html' \
  -- report --out-dir c1i2/rep --check "$IN/ok_r.json=$IN/ok_b.json"

# 1j. update --baseline is a symlink to a baseline elsewhere: written through, the link kept (documented)
mkdir -p c1j/store c1j/work && cp "$IN/ok_b.json" c1j/store/b.json && ln -s ../store/b.json c1j/work/b.json
run update_baseline_symlink_written_through 1 0 "store/b.json rewritten, work/b.json still a link, nothing else" \
  '[[ -L c1j/work/b.json ]] && grep -q "\"reason\": \"r\"" c1j/store/b.json && [[ $(ls -A c1j/store) == b.json ]]' \
  -- update --allow-dirty --reason r --results "$IN/ok_r2.json" --baseline c1j/work/b.json

# 1k. update --baseline is a dangling link: the target is created (documented: the link is kept)
mkdir -p c1k/store c1k/work && ln -s ../store/new.json c1k/work/b.json
run update_baseline_dangling_link 1 0 "store/new.json created with the link kept" '[[ -L c1k/work/b.json && -f c1k/store/new.json ]]' \
  -- update --allow-dirty --reason r --results "$IN/ok_r.json" --baseline c1k/work/b.json --track count:lower:rel=0.1

# 1l. history record --db is a link to a store elsewhere
mkdir -p c1l/store c1l/work && "$PG" history record --db c1l/store/h.db --results "$IN/ok_r.json" --commit c0 >/dev/null && ln -s ../store/h.db c1l/work/h.db
run history_db_symlink 1 0 "the linked store gains a run; no journal or file left beside the link" \
  '[[ $(sqlite3 c1l/store/h.db "select count(*) from runs") == 2 && $(ls -A c1l/work) == h.db && $(ls -A c1l/store) == h.db ]]' \
  -- history record --db c1l/work/h.db --results "$IN/ok_r.json" --commit c1

# 1m. history record --db: relative link inside a symlinked folder (SQLite resolves it itself)
mkdir -p c1m/real/sub c1m/cwd && "$PG" history record --db c1m/real/h.db --results "$IN/ok_r.json" --commit c0 >/dev/null
ln -s ../real/sub c1m/cwd/dir && ln -s ../h.db c1m/real/sub/h.db
CWD="$W/c1m/cwd" run history_db_relative_link_in_symlinked_folder 1 0 "real/h.db gains a run; nothing created in cwd" \
  '[[ $(sqlite3 c1m/real/h.db "select count(*) from runs") == 2 && ! -e c1m/cwd/h.db ]]' \
  -- history record --db dir/h.db --results "$IN/ok_r.json" --commit c1

# 1n. update in a dirty repository A while GIT_DIR and GIT_WORK_TREE (exported by an earlier CI step) name a clean repository B
for r in c1n/A c1n/B; do git init -q "$r" && cp "$IN/ok_b.json" "$r/baseline.json" && echo code >"$r/code.c" && git -C "$r" add . && git -C "$r" commit -qm init; done
git -C c1n/B commit -q --allow-empty -m second && echo dirty >>c1n/A/code.c
run update_git_dir_env_checks_other_repo 1 2 "refused: A (the baseline's repository) has uncommitted changes" \
  'NOTE="provenance git_sha=$(grep -o "git_sha\": \"[0-9a-f]*" c1n/A/baseline.json | cut -c12-23) (B HEAD $(git -C c1n/B rev-parse --short=12 HEAD), A HEAD $(git -C c1n/A rev-parse --short=12 HEAD))"; [[ $RC == 2 ]]' \
  GIT_DIR="$W/c1n/B/.git" GIT_WORK_TREE="$W/c1n/B" -- update --reason r --results "$IN/ok_r2.json" --baseline c1n/A/baseline.json

# 1o. baseline in a submodule; the superproject (the measured code) is dirty
git init -q c1o/sub && cp "$IN/ok_b.json" c1o/sub/baseline.json && git -C c1o/sub add . && git -C c1o/sub commit -qm b
git init -q c1o/super && echo code >c1o/super/code.c && git -C c1o/super add . && git -C c1o/super -c protocol.file.allow=always submodule add -q ../sub baselines 2>/dev/null
git -C c1o/super commit -qm init && echo dirty >>c1o/super/code.c
CWD="$W/c1o/super" run update_baseline_in_submodule_dirty_superproject 1 2 "refused: the measured code (superproject) has uncommitted changes" \
  'NOTE="dirty check and provenance from the submodule: git_sha=$(grep -o "git_sha\": \"[0-9a-f]*" c1o/super/baselines/baseline.json | cut -c12-23), superproject HEAD $(git -C c1o/super rev-parse --short=12 HEAD)"; [[ $RC == 2 ]]' \
  -- update --reason r --results "$IN/ok_r2.json" --baseline baselines/baseline.json

# 1p. baseline symlinked into another (clean) repository; the repository the command runs in is dirty
git init -q c1p/other && cp "$IN/ok_b.json" c1p/other/b.json && git -C c1p/other add . && git -C c1p/other commit -qm b
git init -q c1p/proj && echo code >c1p/proj/code.c && git -C c1p/proj add . && git -C c1p/proj commit -qm init && echo dirty >>c1p/proj/code.c
ln -s ../other/b.json c1p/proj/baseline.json
CWD="$W/c1p/proj" run update_baseline_linked_into_other_repo 1 2 "refused: the working tree the update runs in (the measured code) is dirty" \
  'NOTE="checked and recorded the other repository: git_sha=$(grep -o "git_sha\": \"[0-9a-f]*" c1p/other/b.json | cut -c12-23)"; [[ $RC == 2 ]]' \
  -- update --reason r --results "$IN/ok_r2.json" --baseline baseline.json

# 1q. speedup --out is a link to a file elsewhere: written through (documented for perfgate's writer)
mkdir -p c1q/store && echo old >c1q/store/out.json && ln -s store/out.json c1q/link.json
run speedup_out_symlink_written_through 1 0 "store/out.json replaced, the link kept" '[[ -L c1q/link.json ]] && grep -q speedup c1q/store/out.json' \
  -- speedup --threshold 3 --results "$IN/sp.json" --reference BM_Ref --candidate BM_Cand --out c1q/link.json

# 1r. report --out-dir itself is a link to a folder
mkdir -p c1r/real && ln -s real c1r/out
run report_out_is_a_link_to_a_folder 1 0 "the report lands in real/, the link kept" '[[ -L c1r/out && -f c1r/real/report.html ]]' \
  -- report --out-dir c1r/out --check "$IN/ok_r.json=$IN/ok_b.json"

# 1s. update in a clean repository: the staged file goes into .git and nothing is left for git to pick up
git init -q c1s && cp "$IN/ok_b.json" c1s/baseline.json && git -C c1s add . && git -C c1s commit -qm b
CWD="$W/c1s" run update_in_repo_leaves_nothing 1 0 "baseline rewritten; git status shows only baseline.json; nothing left in .git" \
  '[[ $(git -C c1s status --porcelain --untracked-files=all) == " M baseline.json" && -z $(ls c1s/.git | grep perfgate) ]]' \
  -- update --reason r --results "$IN/ok_r2.json" --baseline baseline.json

echo "######## class 2: input/output identity"
# 2a. speedup --out is the --baseline it judges against (same path)
mkdir -p c2a && cp "$IN/sp_b.json" c2a/b.json && h=$(hash_of c2a/b.json)
run speedup_out_equals_baseline 2 2 "refused before writing; the baseline byte-identical" \
  '[[ $(hash_of c2a/b.json) == '"$h"' ]] || NOTE="baseline replaced by results JSON: $(head -c 30 c2a/b.json | tr -d "\n ")..."; [[ $(hash_of c2a/b.json) == '"$h"' ]]' \
  -- speedup --threshold 3 --results "$IN/sp.json" --reference BM_Ref --candidate BM_Cand --baseline c2a/b.json --out c2a/b.json

# 2b. speedup --out is its own --results
mkdir -p c2b && cp "$IN/sp.json" c2b/r.json && h=$(hash_of c2b/r.json)
run speedup_out_equals_results 2 2 "refused (an output over an input); the results byte-identical" \
  '[[ $(hash_of c2b/r.json) == '"$h"' ]] || NOTE="the 16 measured repetitions were replaced by one speedup row"; [[ $(hash_of c2b/r.json) == '"$h"' ]]' \
  -- speedup --threshold 3 --results c2b/r.json --reference BM_Ref --candidate BM_Cand --out c2b/r.json

# 2c. speedup --out is a symlink to the baseline
mkdir -p c2c && cp "$IN/sp_b.json" c2c/b.json && ln -s b.json c2c/out.json && h=$(hash_of c2c/b.json)
run speedup_out_symlink_to_baseline 2 2 "refused; the baseline byte-identical" \
  '[[ $(hash_of c2c/b.json) == '"$h"' ]] || NOTE="baseline replaced through the link"; [[ $(hash_of c2c/b.json) == '"$h"' ]]' \
  -- speedup --threshold 3 --results "$IN/sp.json" --reference BM_Ref --candidate BM_Cand --baseline c2c/b.json --out c2c/out.json

# 2d. speedup --out is the baseline spelt differently (x/../b.json)
mkdir -p c2d/x && cp "$IN/sp_b.json" c2d/b.json && h=$(hash_of c2d/b.json)
run speedup_out_other_spelling_of_baseline 2 2 "refused; the baseline byte-identical" \
  '[[ $(hash_of c2d/b.json) == '"$h"' ]] || NOTE="baseline replaced"; [[ $(hash_of c2d/b.json) == '"$h"' ]]' \
  -- speedup --threshold 3 --results "$IN/sp.json" --reference BM_Ref --candidate BM_Cand --baseline c2d/b.json --out ./c2d/x/../b.json

# 2e. speedup --out is a hard link of the baseline: rename replaces the name only, the baseline keeps its inode
mkdir -p c2e && cp "$IN/sp_b.json" c2e/b.json && ln c2e/b.json c2e/hard.json && h=$(hash_of c2e/b.json)
run speedup_out_hardlink_of_baseline 2 any "baseline byte-identical (refusing would be better still)" \
  '[[ $(hash_of c2e/b.json) == '"$h"' ]]' \
  -- speedup --threshold 3 --results "$IN/sp.json" --reference BM_Ref --candidate BM_Cand --baseline c2e/b.json --out c2e/hard.json

# 2f. update --baseline equal to --results
mkdir -p c2f && cp "$IN/ok_r.json" c2f/r.json && h=$(hash_of c2f/r.json)
run update_baseline_equals_results 2 2 "refused; the file byte-identical" '[[ $(hash_of c2f/r.json) == '"$h"' ]]' \
  -- update --allow-dirty --reason r --results c2f/r.json --baseline c2f/r.json

# 2g. update --results R --results hard link of R (one capture twice)
mkdir -p c2g && cp "$IN/ok_r.json" c2g/r.json && ln c2g/r.json c2g/r2.json && cp "$IN/t_b.json" c2g/b.json && h=$(hash_of c2g/b.json)
run update_same_capture_via_hardlink 2 2 "refused as one capture given twice; baseline unchanged" '[[ $(hash_of c2g/b.json) == '"$h"' ]]' \
  -- update --allow-dirty --reason r --results c2g/r.json --results c2g/r2.json --baseline c2g/b.json

# 2h. update --baseline is a symlink to the results file
mkdir -p c2h && cp "$IN/ok_r.json" c2h/r.json && ln -s r.json c2h/b.json && h=$(hash_of c2h/r.json)
run update_baseline_symlink_to_results 2 2 "refused; results byte-identical" '[[ $(hash_of c2h/r.json) == '"$h"' ]]' \
  -- update --allow-dirty --reason r --results c2h/r.json --baseline c2h/b.json

# 2i. profile --out is the program it runs
mkdir -p c2i && cp "$IN/fake_profiler.sh" c2i/prof.sh && h=$(hash_of c2i/prof.sh)
run profile_out_equals_binary 2 2 "refused (the output would replace the program); program unchanged" \
  '[[ $(hash_of c2i/prof.sh) == '"$h"' ]] || NOTE="the profiler program was replaced by the trace (mode $(stat -c %a c2i/prof.sh))"; [[ $(hash_of c2i/prof.sh) == '"$h"' ]]' \
  -- profile --out c2i/prof.sh -- c2i/prof.sh {trace}

# 2j. profile --trace T --out T: summarising only, nothing written
mkdir -p c2j && cp "$IN/trace.json" c2j/t.json && h=$(hash_of c2j/t.json)
run profile_trace_equals_out 2 0 "T summarised and byte-identical" '[[ $(hash_of c2j/t.json) == '"$h"' ]]' \
  -- profile --trace c2j/t.json --out c2j/t.json

# 2k. report: two --check sections whose results files share a stem (a/acc.json, b/acc.json)
mkdir -p c2k/a c2k/b && cp "$IN/ok_r.json" c2k/a/acc.json && cp "$IN/fail_r.json" c2k/b/acc.json
run report_two_checks_same_stem 2 1 "two distinct sections, each with its own plots; unique HTML ids" \
  'ids=$(grep -o "id=\"check-[^\"]*\"" c2k/rep/report.html | sort | uniq -d); figs=$(grep -c "<figure class=\"plot\"" c2k/rep/report.html); NOTE="duplicate ids: ${ids:-none}; $figs figures for 2 plots"; [[ -z $ids && $figs == 2 ]]' \
  -- report --out-dir c2k/rep --check c2k/a/acc.json="$IN/ok_b.json" --check c2k/b/acc.json="$IN/ok_b.json"

# 2l. history record --db is the results file
mkdir -p c2l && cp "$IN/ok_r.json" c2l/r.json && h=$(hash_of c2l/r.json)
run history_db_equals_results 2 2 "refused; results byte-identical" '[[ $(hash_of c2l/r.json) == '"$h"' ]]' \
  -- history record --db c2l/r.json --results c2l/r.json --commit c1

# 2m. report --out-dir is an existing results file
mkdir -p c2m && cp "$IN/ok_r.json" c2m/r.json && h=$(hash_of c2m/r.json)
run report_out_is_the_results_file 2 2 "refused; results byte-identical" '[[ $(hash_of c2m/r.json) == '"$h"' ]]' \
  -- report --out-dir c2m/r.json --check c2m/r.json="$IN/ok_b.json"

# 2n. report --out-dir is the folder holding its inputs (a folder perfgate did not write)
mkdir -p c2n && cp "$IN/ok_r.json" c2n/r.json && cp "$IN/ok_b.json" c2n/b.json && h=$(hash_of c2n/r.json)$(hash_of c2n/b.json)
run report_out_is_the_inputs_folder 2 0 "report written beside the inputs; inputs byte-identical" '[[ $(hash_of c2n/r.json)$(hash_of c2n/b.json) == '"$h"' ]]' \
  -- report --out-dir c2n --check c2n/r.json=c2n/b.json

# 2o. update --baseline names the second --results capture
mkdir -p c2o && cp "$IN/ok_r.json" c2o/r1.json && cp "$IN/ok_r2.json" c2o/r2.json && h=$(hash_of c2o/r2.json)
run update_baseline_equals_second_capture 2 2 "refused; capture byte-identical" '[[ $(hash_of c2o/r2.json) == '"$h"' ]]' \
  -- update --allow-dirty --reason r --results c2o/r1.json --results c2o/r2.json --baseline c2o/r2.json

echo "######## class 3: numbers"
HANG_TMO=12
run compare_exact_counter_above_2_53 3 1 "FAIL (exit 1): 9007199254740993 is not exactly 9007199254740992" '' \
  -- compare --results "$IN/big53p1_r.json" --baseline "$IN/big53_b.json"

mkdir -p c3b
run update_exact_counter_above_2_53_kept_exactly 3 0 "new entry value 9007199254740993 (or refused as not representable)" \
  'v=$(grep -o "\"value\": [0-9.e+]*" c3b/b.json); NOTE="written $v"; [[ $v == "\"value\": 9007199254740993" ]]' \
  -- update --allow-dirty --reason r --results "$IN/big53p1_r.json" --baseline c3b/b.json --track count:either:exact

mkdir -p c3c
run update_ratchet_sees_2_53_change 3 0 "diff line shows the change 9007199254740992 -> 9007199254740993 ('~'), not '='" \
  'NOTE="diff: $(grep count "$OUT" | sed "s/^ *//")"; grep -q "~ BM_A count" "$OUT"' \
  -- update --allow-dirty --reason r --results "$IN/big53p1_r.json" --baseline "$(cp "$IN/big53_b.json" c3c/b.json; echo c3c/b.json)"

run history_record_counter_above_2_53 3 0 "stored as 9007199254740993 (or refused)" \
  'v=$(sqlite3 c3d.db "select printf(\"%.0f\", value) from measurements where field=\"count\""); NOTE="stored $v"; [[ $v == 9007199254740993 ]]' \
  -- history record --db c3d.db --results "$IN/big53p1_r.json" --commit c1

run compare_table_shows_the_difference 3 1 "FAIL row whose value and baseline differ as printed" \
  'line=$(grep "^FAIL  *BM_A" "$OUT"); NOTE="row: $(echo $line)"; [[ $(echo $line | awk "{print \$4}") != $(echo $line | awk "{print \$5}") ]]' \
  -- compare --results "$IN/big53p2_r.json" --baseline "$IN/big53_b.json"

TMO=$HANG_TMO run report_exact_counter_one_ulp_apart 3 1 "report FAIL (exit 1) in well under a second" '' \
  -- report --out-dir c3f --check "$IN/big53p2_r.json=$IN/big53_b.json"

TMO=$HANG_TMO run report_counter_one_ulp_above_one 3 1 "report FAIL (exit 1): 1.0000000000000002 is not exactly 1" '' \
  -- report --out-dir c3g --check "$IN/ulp_r.json=$IN/ulp_b.json"

run compare_opposite_huge_counters 3 0 "PASS: the median of -1e308 and 1e308 is 0, within ±1" '' \
  -- compare --results "$IN/opposite_r.json" --baseline "$IN/opposite_b.json"

TMO=$HANG_TMO run report_opposite_huge_counters 3 0 "report PASS; the plot's range (2e308) does not overflow into an endless tick loop" '' \
  -- report --out-dir c3i --check "$IN/opposite_r.json=$IN/opposite_b.json"

"$PG" history record --db c3j.db --results "$IN/hist5_r.json" >/dev/null && "$PG" history record --db c3j.db --results "$IN/hist5ulp_r.json" >/dev/null
TMO=$HANG_TMO run report_trend_one_ulp_apart 3 0 "report PASS with a flat trend of two runs" '' \
  -- report --out-dir c3j --check "$IN/ok_r.json=$IN/ok_b.json" --history c3j.db

TMO=$HANG_TMO run report_speedup_ratios_one_ulp_above_threshold 3 0 "report PASS: every ratio >= 3" '' \
  -- report --out-dir c3k --speedup-results "$IN/sp_ulp.json" --reference BM_Ref --candidate BM_Cand --threshold 3

run compare_counters_near_max_double 3 0 "PASS: 1.7e308 within 5 % of 1.7e308, no overflow" '' \
  -- compare --results "$IN/huge_r.json" --baseline "$IN/huge_b.json"

run report_denormal_counter 3 1 "FAIL (5e-324 is not exactly 0), valid SVG" 'xmllint --noout c3m/plots/*.svg 2>/dev/null' \
  -- report --out-dir c3m --check "$IN/denormal_r.json=$IN/denormal_b.json"

run junit_failure_text_small_values 3 1 "the JUnit failure names the values (2e-09 vs 1e-09)" \
  'NOTE="junit says: $(grep -o "value [^<]*" c3n/junit.xml | head -1)"; ! grep -q "value 0.000000, baseline 0.000000" c3n/junit.xml' \
  -- report --out-dir c3n --check "$IN/tiny_r.json=$IN/tiny_b.json"

printf '[{"ph":"X","name":"op","ts":0,"dur":1e308,"tid":1},{"ph":"X","name":"op","ts":0,"dur":1e308,"tid":2}]\n' >"$IN/trace_sum_inf.json"
run profile_trace_durations_sum_to_inf 3 2 "refused like a single ts+dur overflow (or a finite total); never 'inf' ms" \
  'NOTE="prints: $(grep -E "^op +[0-9]" "$OUT" | tr -s " ")"; ! grep -qw inf "$OUT"' \
  -- profile --trace "$IN/trace_sum_inf.json"

python3 -c 'import json;json.dump({"context":{"machine_fingerprint":"m1"},"benchmarks":[{"name":"BM_A","run_type":"iteration","iterations":18446744073709551615,"count":5}]},open("'"$IN"'/iter_max_r.json","w"))'
run compare_iterations_uint64_max 3 0 "PASS (iterations 2^64-1 is a whole number > 0)" '' \
  -- compare --results "$IN/iter_max_r.json" --baseline "$IN/ok_b.json"

echo "######## class 4: text is bytes"
run junit_noncharacter_ufffe 4 1 "junit.xml well-formed XML (U+FFFE dropped or replaced)" \
  'NOTE="xmllint: $(xmllint --noout c4a/junit.xml 2>&1 | head -1)"; xmllint --noout c4a/junit.xml 2>/dev/null' \
  -- report --out-dir c4a --check "$IN/nonchar_r.json=$IN/nonchar_b.json"

run svg_noncharacter_ufffe 4 1 "every plots/*.svg well-formed XML" \
  'NOTE="xmllint: $(xmllint --noout c4b/plots/*.svg 2>&1 | head -1)"; xmllint --noout c4b/plots/*.svg 2>/dev/null' \
  -- report --out-dir c4b --check "$IN/nonchar_r.json=$IN/nonchar_b.json"

cp "$IN/ok_r.json" "$IN/r"$'\xff'".json"
run junit_results_path_not_utf8 4 0 "junit.xml well-formed (the suite name from a non-UTF-8 file name is made valid)" \
  'NOTE="xmllint: $(xmllint --noout c4c/junit.xml 2>&1 | head -1)"; xmllint --noout c4c/junit.xml 2>/dev/null' \
  -- report --out-dir c4c --check "$IN/r"$'\xff'".json=$IN/ok_b.json"

run svg_label_truncated_inside_utf8 4 0 "ablation SVG well-formed UTF-8 and report.html valid UTF-8 after shortening a long label" \
  'NOTE="xmllint: $(xmllint --noout c4d/plots/02-ablation.svg 2>&1 | head -1)"; xmllint --noout c4d/plots/02-ablation.svg 2>/dev/null && python3 -c "open(\"c4d/report.html\",\"rb\").read().decode()" 2>/dev/null' \
  -- report --out-dir c4d --check "$IN/ok_r.json=$IN/ok_b.json" --ablation "$IN/ablation_trunc.json"

"$PG" history record --db c4e.db --results "$IN/trend_utf8_0.json" >/dev/null && "$PG" history record --db c4e.db --results "$IN/trend_utf8_1.json" >/dev/null
run svg_trend_commit_label_truncated_inside_utf8 4 0 "trend SVG well-formed: the commit label cut at 8 bytes stays UTF-8" \
  'f=$(ls c4e/plots/*trend*.svg 2>/dev/null | head -1); NOTE="xmllint: $(xmllint --noout $f 2>&1 | head -1)"; [[ -n $f ]] && xmllint --noout "$f" 2>/dev/null' \
  -- report --out-dir c4e --check "$IN/ok_r.json=$IN/ok_b.json" --history c4e.db

run xml_special_characters_escaped 4 1 "junit.xml and SVGs well-formed; no raw <script> in report.html" \
  'xmllint --noout c4f/junit.xml c4f/plots/*.svg 2>/dev/null && ! grep -q "<script>" c4f/report.html && ! grep -q "<script>" c4f/summary.md' \
  -- report --out-dir c4f --check "$IN/xmlspecial_r.json=$IN/xmlspecial_b.json"

"$PG" history record --db c4g.db --results "$IN/nul_r.json" --commit c1 >/dev/null && "$PG" history record --db c4g.db --results "$IN/nul_r.json" --commit c2 >/dev/null
run history_show_name_with_nul 4 0 "two distinct series: BM_A (5) and BM_A\\x00evil (999), the second shown escaped" \
  'NOTE="shows: $(tr "\n" ";" <"$OUT")"; grep -q 999 "$OUT"' \
  -- history show --db c4g.db --field count

run report_name_with_nul 4 1 "junit.xml and SVGs well-formed, verdicts.json valid JSON" \
  'NOTE="summary.md holds $(tr -cd "\000" <c4h/summary.md | wc -c) raw NUL byte(s)"; xmllint --noout c4h/junit.xml c4h/plots/*.svg 2>/dev/null && python3 -c "import json;json.load(open(\"c4h/verdicts.json\"))"' \
  -- report --out-dir c4h --check "$IN/nul_fail_r.json=$IN/nul_fail_b.json"

run bidi_override_in_compare_table 4 1 "U+202E escaped like other controls (it reverses how the rest of the row reads)" \
  'NOTE="raw U+202E bytes in stdout: $(grep -c $'"'"'\xe2\x80\xae'"'"' "$OUT")"; ! grep -q $'"'"'\xe2\x80\xae'"'"' "$OUT"' \
  -- compare --results "$IN/bidi_r.json" --baseline "$IN/bidi_b.json"

run c1_control_nel_in_error_line 4 2 "one error line with U+0085 (NEL, a C1 control / line break) escaped" \
  'NOTE="raw U+0085 in stderr: $(grep -c $'"'"'\xc2\x85'"'"' "$ERR")"; ! grep -q $'"'"'\xc2\x85'"'"' "$ERR"' \
  -- compare --results "$IN/nel_dup_r.json" --baseline "$IN/ok_b.json"

run markdown_image_injection_in_name 4 1 "summary.md shows the name as text: no live ![..](..) image" \
  'NOTE="summary.md: $(grep -o "!\[pwned\]([^)]*)" c4k/summary.md | head -1)"; ! grep -q "!\[pwned\](https" c4k/summary.md' \
  -- report --out-dir c4k --check "$IN/md_image_r.json=$IN/md_image_b.json"

run markdown_link_injection_in_machine 4 1 "summary.md shows the machine as text: no live [..](..) link" \
  'NOTE="summary.md: $(grep -o "\[click[^)]*)" c4l/summary.md | head -1)"; ! grep -q "\[click to approve\](https" c4l/summary.md' \
  -- report --out-dir c4l --check "$IN/md_link_r.json=$IN/ok_b.json"

run markdown_code_span_breakout_git_sha 4 1 "the commit stays inside its code span (no image after a backtick)" \
  'NOTE="summary.md: $(grep "^commit" c4m/summary.md)"; ! grep -q "^commit \`abc\` !\[x\](https" c4m/summary.md' \
  -- report --out-dir c4m --check "$IN/md_code_r.json=$IN/ok_b.json"

run markdown_pipe_and_newline_in_name 4 1 "the failing row stays one table row of 9 cells" \
  'row=$(grep "^| FAIL" c4n/summary.md); n=$(echo "$row" | sed "s/\\\\|//g" | tr -cd "|" | wc -c); NOTE="$(grep -c "^| FAIL" c4n/summary.md) FAIL row(s), $n unescaped pipes"; [[ $(grep -c "^| FAIL" c4n/summary.md) == 1 && $n == 10 ]]' \
  -- report --out-dir c4n --check "$IN/md_pipe_r.json=$IN/md_pipe_b.json"

run html_tag_in_name 4 1 "no raw <img in report.html or summary.md" '! grep -q "<img src=x" c4o/report.html c4o/summary.md' \
  -- report --out-dir c4o --check "$IN/html_r.json=$IN/html_b.json"

run verdicts_json_with_noncharacter 4 1 "verdicts.json is valid JSON" 'python3 -c "import json;json.load(open(\"c4p/verdicts.json\"))"' \
  -- report --out-dir c4p --check "$IN/nonchar_r.json=$IN/nonchar_b.json"

run title_with_markup 4 0 "title escaped in HTML and Markdown (no <script>, no forged heading line)" \
  '! grep -q "<script>" c4q/report.html c4q/summary.md && [[ $(grep -c "^# forged" c4q/summary.md) == 0 ]]' \
  -- report --out-dir c4q --title $'<script>alert(1)</script>\n# forged' --check "$IN/ok_r.json=$IN/ok_b.json"

run update_name_from_non_utf8_reason 4 2 "refused: a reason that is not UTF-8 is never written" '' \
  -- update --allow-dirty --reason $'bad \xff reason' --results "$IN/ok_r.json" --baseline "$(mkdir -p c4r; cp "$IN/ok_b.json" c4r/b.json; echo c4r/b.json)"

echo "######## class 5: bounds on outside resources"
python3 - "$IN" "$SKIP_SLOW" <<'PY'
import json, os, random, sys
d, skip = sys.argv[1], sys.argv[2] == "1"
prov = {"git_sha": "abc", "date": "d", "machine": "m", "build_type": "R", "torch_version": "t", "threads": "1", "reason": "x",
        "machine_fingerprint": "m1"}
for n in ([10000] if skip else [10000, 100000]):
    rows = [{"name": f"BM_{i}", "run_type": "iteration", "repetition_index": 0, "iterations": 10, "real_time": 1.0,
             "cpu_time": 1.0, "time_unit": "ms", "count": i} for i in range(n)]
    json.dump({"context": {"git_sha": "abc", "machine_fingerprint": "m1"}, "benchmarks": rows}, open(f"{d}/many{n}_r.json", "w"))
    json.dump({"schema_version": 1, "provenance": prov, "entries": [
        {"benchmark": f"BM_{i}", "field": "count", "value": i, "unit": "", "direction": "lower", "tolerance": {"abs": 0}}
        for i in range(n)]}, open(f"{d}/many{n}_b.json", "w"))
    random.seed(1)
    rows = []
    for i in range(n):
        rows.append({"name": "BM_Ref", "run_type": "iteration", "repetition_index": i, "iterations": 1,
                     "real_time": 4.0 + random.random(), "cpu_time": 4.0, "time_unit": "ms"})
        rows.append({"name": "BM_Cand", "run_type": "iteration", "repetition_index": i, "iterations": 1,
                     "real_time": 1.0 + 0.1 * random.random(), "cpu_time": 1.0, "time_unit": "ms"})
    json.dump({"context": {"git_sha": "abc"}, "benchmarks": rows}, open(f"{d}/pairs{n}.json", "w"))
PY
# growth check: the 100k run may take at most 15x the 10k run (linear: 10x), and never the 600 s limit
linear() { NOTE="${ELAPSED} s at 100k vs $1 s at 10k: x$(echo "scale=1; $ELAPSED / ($1 + 0.01)" | bc)"; (($(echo "$ELAPSED < 15 * $1 + 1" | bc))); }
TMO=120 run compare_10k_entries 5 0 "PASS within a few seconds" 'NOTE="${ELAPSED} s"; (($(echo "$ELAPSED < 5" | bc)))' \
  -- compare --results "$IN/many10000_r.json" --baseline "$IN/many10000_b.json"
t_compare=$ELAPSED
mkdir -p c5u && cp "$IN/many10000_b.json" c5u/b10k.json
TMO=120 run update_10k_entries 5 0 "updated within a few seconds" 'NOTE="${ELAPSED} s"; (($(echo "$ELAPSED < 5" | bc)))' \
  -- update --allow-dirty --reason r --results "$IN/many10000_r.json" --baseline c5u/b10k.json
t_update=$ELAPSED
TMO=300 run report_10k_entries 5 0 "report written within seconds (10,000 plots)" 'NOTE="${ELAPSED} s, $(du -sh c5r10k | cut -f1), $(ls c5r10k/plots | wc -l) plot files"; (($(echo "$ELAPSED < 60" | bc)))' \
  -- report --out-dir c5r10k --check "$IN/many10000_r.json=$IN/many10000_b.json"
t_report=$ELAPSED
TMO=120 run speedup_10k_pairs 5 0 "PASS within a few seconds" 'NOTE="${ELAPSED} s"; (($(echo "$ELAPSED < 5" | bc)))' \
  -- speedup --threshold 3 --results "$IN/pairs10000.json" --reference BM_Ref --candidate BM_Cand
t_speedup=$ELAPSED
TMO=120 run history_record_10k_metrics 5 0 "recorded within a few seconds" 'NOTE="${ELAPSED} s"; (($(echo "$ELAPSED < 5" | bc)))' \
  -- history record --db c5h10k.db --results "$IN/many10000_r.json" --commit c1
t_history=$ELAPSED
if [[ $SKIP_SLOW != 1 ]]; then
  TMO=600 run compare_100k_entries 5 0 "PASS; time grows linearly (about 10x the 10k run)" "linear $t_compare" \
    -- compare --results "$IN/many100000_r.json" --baseline "$IN/many100000_b.json"
  cp "$IN/many100000_b.json" c5u/b100k.json
  TMO=600 run update_100k_entries 5 0 "updated; time grows linearly" "linear $t_update" \
    -- update --allow-dirty --reason r --results "$IN/many100000_r.json" --baseline c5u/b100k.json
  TMO=900 run report_100k_entries 5 0 "report written; time grows linearly" "linear $t_report" \
    -- report --out-dir c5r100k --check "$IN/many100000_r.json=$IN/many100000_b.json"
  TMO=600 run speedup_100k_pairs 5 0 "PASS; time grows linearly" "linear $t_speedup" \
    -- speedup --threshold 3 --results "$IN/pairs100000.json" --reference BM_Ref --candidate BM_Cand
  TMO=600 run history_record_100k_metrics 5 0 "recorded; time grows linearly" "linear $t_history" \
    -- history record --db c5h100k.db --results "$IN/many100000_r.json" --commit c1
fi

# a Chromium that does not finish (PERFGATE_CHROMIUM: a wrapper that hangs, a browser stuck on a dialog)
printf '#!/bin/sh\nexec sleep 40\n' >"$IN/hung_chromium.sh" && chmod +x "$IN/hung_chromium.sh"
TMO=12 run report_png_chromium_hangs 5 2 "a time limit on Chromium: one error line (or the PNG) within a bounded time" '' \
  PERFGATE_CHROMIUM="$IN/hung_chromium.sh" -- report --out-dir c5p --check "$IN/ok_r.json=$IN/ok_b.json" --png

# --png at 10,000 entries: how many Chromium processes? (a stand-in that only writes the PNG and counts its launches)
printf '#!/bin/sh\necho x >>"%s"\nfor a; do case $a in --screenshot=*) printf PNG >"${a#--screenshot=}";; esac; done\n' "$W/c5c_launches.log" >"$IN/counting_chromium.sh"
chmod +x "$IN/counting_chromium.sh"
TMO=600 run report_png_10k_entries_chromium_launches 5 0 "a bounded number of browser runs (one browser for all plots, or a cap): never one per plot" \
  'n=$(wc -l <c5c_launches.log); NOTE="$n Chromium launches in ${ELAPSED} s; at the 2.1 s a real launch takes here: $((n * 21 / 36000)) h, with no overall limit"; ((n < 100))' \
  PERFGATE_CHROMIUM="$IN/counting_chromium.sh" -- report --out-dir c5c --check "$IN/many10000_r.json=$IN/many10000_b.json" --png

# git status that does not finish (an fsmonitor hook, a hung network file system)
git init -q c5g && cp "$IN/ok_b.json" c5g/b.json && git -C c5g add . && git -C c5g commit -qm b
printf '#!/bin/sh\nexec sleep 40\n' >"$IN/hung_fsmonitor.sh" && chmod +x "$IN/hung_fsmonitor.sh" && git -C c5g config core.fsmonitor "$IN/hung_fsmonitor.sh"
TMO=12 run update_git_status_hangs 5 2 "a time limit on git: one error line within a bounded time" '' \
  -- update --reason r --results "$IN/ok_r2.json" --baseline c5g/b.json

truncate -s 513M "$IN/sparse_513M.json"
run results_513_mib 5 2 "refused at once by size" 'NOTE="${ELAPSED} s"; (($(echo "$ELAPSED < 2" | bc)))' \
  -- compare --results "$IN/sparse_513M.json" --baseline "$IN/ok_b.json"

python3 -c 'import json;n="BM_"+"x"*(10*1024*1024);json.dump({"context":{"machine_fingerprint":"m1"},"benchmarks":[{"name":n,"run_type":"iteration","iterations":1,"count":6}]},open("'"$IN"'/longname_r.json","w"));json.dump({"schema_version":1,"provenance":{"machine_fingerprint":"m1"},"entries":[{"benchmark":n,"field":"count","value":5,"unit":"","direction":"lower","tolerance":{"abs":0}}]},open("'"$IN"'/longname_b.json","w"))'
TMO=60 run report_10_mib_benchmark_name 5 1 "report FAIL within seconds; plot file name bounded" \
  'NOTE="${ELAPSED} s, report $(du -sh c5l | cut -f1), longest file name $(ls c5l/plots | awk "{print length}" | sort -n | tail -1)"; (($(echo "$ELAPSED < 10" | bc)))' \
  -- report --out-dir c5l --check "$IN/longname_r.json=$IN/longname_b.json"

python3 - "$IN" <<'PY'
import sqlite3, sys
d = sys.argv[1]
c = sqlite3.connect(f"{d}/long_history.db")
c.executescript("""CREATE TABLE runs(id INTEGER PRIMARY KEY, commit_sha TEXT NOT NULL, branch TEXT NOT NULL, recorded_at TEXT NOT NULL, machine TEXT NOT NULL);
CREATE TABLE measurements(run_id INTEGER NOT NULL REFERENCES runs(id), benchmark TEXT NOT NULL, field TEXT NOT NULL, unit TEXT NOT NULL, value REAL NOT NULL, samples INTEGER NOT NULL, PRIMARY KEY(run_id, benchmark, field));
CREATE INDEX measurements_by_metric ON measurements(benchmark, field); PRAGMA user_version = 1;""")
for i in range(100000):
    c.execute("INSERT INTO runs VALUES(?,?,?,?,?)", (i + 1, f"c{i}", "main", "2026-01-01", "m"))
    c.execute("INSERT INTO measurements VALUES(?,?,?,?,?,?)", (i + 1, "BM_A", "real_time", "ms", 1.0 + (i // 5000) * 0.2 + (i % 7) * 0.001, 1))
c.commit()
PY
TMO=120 run history_show_100k_runs 5 0 "shows the trend within seconds" 'NOTE="${ELAPSED} s"; (($(echo "$ELAPSED < 20" | bc)))' \
  -- history show --db "$IN/long_history.db" --last 100000

echo "######## class 6: presence rules"
run empty_results_all_advisory_unknown_machine 6 any "not a pass: nothing was measured (exit 2 'no benchmarks', or 1 MISSING)" \
  'NOTE="verdicts: $(awk "NR>1{print \$1}" "$OUT" | sort | uniq -c | tr -s " " | tr "\n" ";")"; [[ $RC != 0 ]]' \
  -- compare --results "$IN/empty_unknown_r.json" --baseline "$IN/adv_b.json"

run empty_results_all_advisory_same_machine 6 1 "MISSING (exit 1): a baselined metric vanished" '' \
  -- compare --results "$IN/empty_same_r.json" --baseline "$IN/adv_b.json"

run empty_results_some_advisory 6 1 "MISSING for the gated entry (exit 1)" '' \
  -- compare --results "$IN/empty_unknown_r.json" --baseline "$IN/mixed_b.json"

run report_empty_results_all_advisory 6 any "not PASS: the report judged nothing" 'NOTE="$(cat "$OUT")"; [[ $RC != 0 ]]' \
  -- report --out-dir c6d --check "$IN/empty_unknown_r.json=$IN/adv_b.json"

run row_without_iterations_zero_time 6 2 "refused like iterations 0 (a run that does not say it ran), not a 0 ms PASS" \
  'NOTE="$(grep BM_T "$OUT" | tr -s " ")"; [[ $RC == 2 ]]' \
  -- compare --results "$IN/noiter_r.json" --baseline "$IN/t_b.json"

run row_without_run_type_but_aggregate_name 6 any "an aggregate (aggregate_name stddev) is not judged as a repetition: MISSING or refused" \
  'NOTE="$(grep BM_T "$OUT" | head -1 | tr -s " ")"; [[ $RC != 0 ]]' \
  -- compare --results "$IN/aggname_r.json" --baseline "$IN/t_b.json"

run aggregates_only 6 1 "MISSING (exit 1): aggregates are recomputed from repetitions, none given" '' \
  -- compare --results "$IN/aggonly_r.json" --baseline "$IN/t_b.json"

run errored_benchmark 6 2 "refused: the benchmark failed" '' \
  -- compare --results "$IN/errored_r.json" --baseline "$IN/t_b.json"

run skipped_benchmark_gb18 6 0 "the skipped, unbaselined BM_Other is left out; BM_T PASSES (README lists this as known)" '' \
  -- compare --results "$IN/skipped18_r.json" --baseline "$IN/t_b.json"

run error_occurred_not_boolean 6 2 "refused with a message about the field" '' \
  -- compare --results "$IN/errstr_r.json" --baseline "$IN/t_b.json"

run errored_aggregate_row 6 0 "BM_T PASSES from its repetition (the aggregate row is not read)" '' \
  -- compare --results "$IN/aggerr_r.json" --baseline "$IN/t_b.json"

mkdir -p c6l && cp "$IN/ok_b.json" c6l/b.json && h=$(hash_of c6l/b.json)
run update_from_empty_results 6 2 "refused: a baselined metric is absent; baseline unchanged" '[[ $(hash_of c6l/b.json) == '"$h"' ]]' \
  -- update --allow-dirty --reason r --results "$IN/empty_unknown_r.json" --baseline c6l/b.json

run speedup_aggregates_only 6 2 "refused: no paired repetitions" '' \
  -- speedup --threshold 3 --results "$IN/speedagg_r.json" --reference BM_Ref --candidate BM_Cand

run history_record_empty_results 6 any "refused, or a run of 0 metrics that changes no series" \
  'NOTE="$(cat "$OUT")"; true' \
  -- history record --db c6n.db --results "$IN/empty_unknown_r.json" --commit c1

run update_track_field_only_in_aggregates 6 2 "refused: no repetition reports the field" '' \
  -- update --allow-dirty --reason r --results "$IN/aggonly_r.json" --baseline c6o.json --track real_time:lower:rel=0.1

echo "######## class 7: storage and environment identity"
run history_db_empty_path 7 2 "refused (an empty --db names no file)" \
  'NOTE="stdout: $(cat "$OUT")"; [[ $RC == 2 ]]' \
  -- history record --db "" --results "$IN/ok_r.json" --commit c1

run history_db_memory 7 2 "refused: ':memory:' keeps nothing" 'NOTE="stdout: $(cat "$OUT")"; [[ $RC == 2 ]]' \
  -- history record --db :memory: --results "$IN/ok_r.json" --commit c1

run history_db_uri_mode_memory 7 2 "refused, or a file named literally 'file:h.db?mode=memory'" \
  'NOTE="stdout: $(cat "$OUT"); files: $(ls -d file* h.db 2>/dev/null | tr "\n" " ")"; [[ $RC == 2 || -f "file:h.db?mode=memory" ]]' \
  -- history record --db "file:h.db?mode=memory" --results "$IN/ok_r.json" --commit c1

run history_db_uri_names_another_file 7 0 "the store is the file named 'file:c7d.db' (as report --history reads it)" \
  'NOTE="created: $(ls -d c7d.db file:c7d.db 2>/dev/null | tr "\n" " "); report --history says: $("$PG" report --out-dir c7d_rep --check "$IN/ok_r.json=$IN/ok_b.json" --history file:c7d.db 2>&1 >/dev/null | head -1)"; [[ -f file:c7d.db ]]' \
  -- history record --db file:c7d.db --results "$IN/ok_r.json" --commit c1

mkdir -p c7e
run history_db_is_a_folder 7 2 "refused; folder unchanged" '[[ -z $(ls -A c7e) ]]' \
  -- history record --db c7e --results "$IN/ok_r.json" --commit c1

mkdir -p c7f && chmod 555 c7f
WRAP=$NOBODY run history_db_new_in_read_only_folder 7 2 "refused; nothing created" '[[ -z $(ls -A c7f) ]]' \
  -- history record --db c7f/h.db --results "$IN/ok_r.json" --commit c1

mkdir -p c7g && "$PG" history record --db c7g/h.db --results "$IN/ok_r.json" --commit c0 >/dev/null && chmod 666 c7g/h.db && chmod 555 c7g && h=$(hash_of c7g/h.db)
WRAP=$NOBODY run history_db_existing_in_read_only_folder 7 2 "refused (no journal can be made); store byte-identical" \
  '[[ $(hash_of c7g/h.db) == '"$h"' && $(ls -A c7g) == h.db ]]' \
  -- history record --db c7g/h.db --results "$IN/ok_r.json" --commit c1

run history_db_dev_null 7 2 "refused; /dev/null still a character device" '[[ -c /dev/null ]]' \
  -- history record --db /dev/null --results "$IN/ok_r.json" --commit c1

mkfifo c7i.db
TMO=10 run history_db_fifo 7 2 "refused at once; still a FIFO" '[[ -p c7i.db ]]' \
  -- history record --db c7i.db --results "$IN/ok_r.json" --commit c1

echo "not a database" >c7j.db && h=$(hash_of c7j.db)
run history_db_text_file 7 2 "refused; file byte-identical" '[[ $(hash_of c7j.db) == '"$h"' ]]' \
  -- history record --db c7j.db --results "$IN/ok_r.json" --commit c1

run history_show_db_empty_path 7 2 "refused" '' -- history show --db ""

run report_history_memory 7 2 "refused: no such history" '' \
  -- report --out-dir c7l --check "$IN/ok_r.json=$IN/ok_b.json" --history :memory:

# GIT_DIR alone (exported by an earlier step) names a clone of the baseline's repository one empty commit ahead
git init -q c7m/A && cp "$IN/ok_b.json" c7m/A/baseline.json && git -C c7m/A add . && git -C c7m/A commit -qm init
git clone -q c7m/A c7m/B && git -C c7m/B commit -q --allow-empty -m "someone else's commit"
run update_git_dir_env_alone 7 0 "provenance names A's HEAD, the repository holding the baseline" \
  'g=$(grep -o "git_sha\": \"[0-9a-f]*" c7m/A/baseline.json | cut -c12-23); NOTE="git_sha $g; A HEAD $(git -C c7m/A rev-parse --short=12 HEAD), B HEAD $(git -C c7m/B rev-parse --short=12 HEAD)"; [[ $g == $(git -C c7m/A rev-parse --short=12 HEAD) ]]' \
  GIT_DIR="$W/c7m/B/.git" -- update --reason r --results "$IN/ok_r2.json" --baseline c7m/A/baseline.json

mkdir -p c7n/nogit && cp "$IN/ok_b.json" c7n/nogit/b.json && h=$(hash_of c7n/nogit/b.json)
run update_outside_repo_ceiling 7 2 "refused: not a git repository; baseline unchanged" '[[ $(hash_of c7n/nogit/b.json) == '"$h"' ]]' \
  GIT_CEILING_DIRECTORIES="$W/c7n" -- update --reason r --results "$IN/ok_r2.json" --baseline c7n/nogit/b.json

git init -q c7o && cp "$IN/ok_b.json" c7o/b.json && echo code >c7o/code.c && git -C c7o add . && git -C c7o commit -qm b
echo dirty >>c7o/code.c && h=$(hash_of c7o/b.json)
run update_git_index_file_env 7 2 "refused: code.c has uncommitted changes, whatever GIT_INDEX_FILE says; baseline unchanged" '[[ $(hash_of c7o/b.json) == '"$h"' ]]' \
  GIT_INDEX_FILE="$W/c7o/.git/nonexistent-index" -- update --reason r --results "$IN/ok_r2.json" --baseline c7o/b.json

mkdir -p c7p && cp "$IN/ok_b.json" c7p/b.json
run update_tmpdir_is_a_file 7 0 "updated; TMPDIR is not used for the baseline" '' \
  TMPDIR="$IN/ok_r.json" -- update --allow-dirty --reason r --results "$IN/ok_r2.json" --baseline c7p/b.json

# ------------------------------------------------------------------------------------------------------ summary
echo "######## $ncases cases, $((ncases - ndefects)) handled, $ndefects DEFECT (table: $TSV)"
awk -F'\t' '{c[$2]++; if ($5=="DEFECT") d[$2]++} END {for (k in c) printf "class %s: %d cases, %d handled, %d DEFECT\n", k, c[k], c[k]-d[k], d[k]}' "$TSV" | sort
