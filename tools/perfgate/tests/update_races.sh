#!/usr/bin/env bash
# perfgate update under concurrency, SIGKILL, and unusual files:
#  - 100 trials of two updates of one baseline started together: both must land (the second builds on the first:
#    its diff starts from the first's value) or one must be refused with exit 2 — never a silent loss;
#  - 100 updates killed (SIGKILL) at random moments: the baseline is always the old or the new file, complete, and
#    git sees no file but the baseline changed;
#  - the baseline's mode and a symlinked baseline survive an update.
# Usage: update_races.sh PERFGATE WORK [TRIALS]    Exit 0 when all hold; prints the counts.
set -uo pipefail
perfgate=$(realpath "$1")
: "${2:?usage: update_races.sh PERFGATE WORK (a folder of its own: it is emptied)}"
work=$(realpath -m "$2")
trials=${3:-100}
rm -rf "$work"
mkdir -p "$work/repo/baselines"
export GIT_CEILING_DIRECTORIES="$work"
cd "$work/repo"
git init -q .
git -c user.email=t@t -c user.name=t commit -q --allow-empty -m init
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

results() {  # results FILE VALUE: one benchmark with counter n = VALUE
  printf '{"context": {}, "benchmarks": [{"name": "BM_T", "run_type": "iteration", "iterations": 1, "n": %s}]}\n' "$2" >"$work/$1"
}
results a.json 2
results b.json 3
results c.json 1
initial() {  # a fresh baseline with n = 1 (either way, 0.1 % tolerance)
  rm -f baselines/b.json
  "$perfgate" update --allow-dirty --reason start --results "$work/c.json" --baseline baselines/b.json --track n:either:rel=0.001 >/dev/null
}

# --- 1. racing pairs
lost=0 both=0 refused=0
for ((t = 0; t < trials; ++t)); do
  initial
  "$perfgate" update --allow-dirty --reason a --results "$work/a.json" --baseline baselines/b.json >"$work/out.a" 2>&1 &
  pa=$!
  "$perfgate" update --allow-dirty --reason b --results "$work/b.json" --baseline baselines/b.json >"$work/out.b" 2>&1 &
  pb=$!
  wait "$pa"; ra=$?
  wait "$pb"; rb=$?
  if [[ $ra == 0 && $rb == 0 ]]; then
    old_a=$(sed -n 's/.*BM_T n: \([0-9.]*\) -> .*/\1/p' "$work/out.a")
    old_b=$(sed -n 's/.*BM_T n: \([0-9.]*\) -> .*/\1/p' "$work/out.b")
    final=$(sed -n 's/.*"value": \([0-9]*\).*/\1/p' baselines/b.json)
    if [[ $old_a == 1 && $old_b == 1 ]]; then
      lost=$((lost + 1))
    elif [[ ($old_a == 1 && $old_b == 2 && $final == 3) || ($old_b == 1 && $old_a == 3 && $final == 2) ]]; then
      both=$((both + 1))
    else
      fail "race trial $t: diffs from $old_a and $old_b, final value $final"
    fi
  elif [[ ($ra == 2 && $rb == 0) || ($ra == 0 && $rb == 2) ]]; then
    refused=$((refused + 1))
  else
    fail "race trial $t: exit codes $ra and $rb: $(cat "$work/out.a" "$work/out.b")"
  fi
done
echo "racing updates: $trials trials, both landed in order $both, one refused $refused, lost $lost"
((lost == 0)) || fail "$lost updates were lost"

# --- 2. killed updates
initial
git add baselines/b.json
git -c user.email=t@t -c user.name=t commit -qm baseline >/dev/null
start=$(date +%s%N)
for _ in 1 2 3 4 5; do "$perfgate" update --allow-dirty --reason probe --results "$work/a.json" --baseline baselines/b.json >/dev/null; done
duration_us=$((($(date +%s%N) - start) / 5000))
git checkout -q baselines/b.json
killed=0 intact=0 started=0
for ((t = 0; killed < trials && t < 10 * trials; ++t)); do
  started=$((started + 1))
  which=$([[ $((t % 2)) == 0 ]] && echo a || echo b)
  "$perfgate" update --allow-dirty --reason kill --results "$work/$which.json" --baseline baselines/b.json >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%06d' $(((RANDOM * 32768 + RANDOM) % (duration_us * 6 / 10 + 1) % 1000000)))"
  kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
  wait "$pid" 2>/dev/null
  status=$(git status --porcelain --untracked-files=all)
  if [[ -n $status && $status != " M baselines/b.json" ]]; then fail "kill trial $t: git status shows: $status"; fi
  "$perfgate" compare --results "$work/c.json" --baseline baselines/b.json >/dev/null 2>&1
  rc=$?
  if [[ $rc == 0 || $rc == 1 ]]; then intact=$((intact + 1)); else fail "kill trial $t: the baseline no longer parses (exit $rc)"; fi
done
((killed >= trials)) || fail "only $killed of $started updates were killed before they finished"
echo "killed updates: $started started, $killed killed before they finished (a run takes about $((duration_us / 1000)) ms), baseline intact $intact times"

# --- 3. mode and symlinks
initial
chmod 640 baselines/b.json
"$perfgate" update --allow-dirty --reason mode --results "$work/a.json" --baseline baselines/b.json >/dev/null
[[ $(stat -c %a baselines/b.json) == 640 ]] || fail "mode 640 became $(stat -c %a baselines/b.json)"
mkdir -p elsewhere
mv baselines/b.json elsewhere/real.json
ln -s ../elsewhere/real.json baselines/b.json
"$perfgate" update --allow-dirty --reason link --results "$work/b.json" --baseline baselines/b.json >/dev/null
[[ -L baselines/b.json ]] || fail "the symlinked baseline was replaced by a copy"
grep -q '"value": 3' elsewhere/real.json || fail "the symlink's target was not updated"
[[ $(stat -c %a elsewhere/real.json) == 640 ]] || fail "the symlink target's mode became $(stat -c %a elsewhere/real.json)"
echo "mode and symlink: kept"
[[ $failures == 0 ]]
