#!/usr/bin/env bash
# One history, three stores, the same answers: the same 20 runs (a +30 % step in BM_Other's time from the 11th) recorded
# into a SQLite file, a git data branch (a local bare repository as the remote) and PostgreSQL (a private server;
# skipped with its reason where it cannot start) give the same `history show` output, change point included, and
# the same `history export`. A history moves between stores with export and import, and importing twice adds nothing.
# A store that is not there is bad input (exit 2) for reading; a server that does not answer is exit 5.
# Usage: history_stores.sh PERFGATE
set -euo pipefail
perfgate=$(realpath "$1")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=$(mktemp -d)
chmod 755 "$work"
pg=""
cleanup() {
  [[ -n $pg ]] && "$here/postgres_cluster.sh" stop "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "history_stores: $*" >&2; exit 1; }
cd "$work"
git init -q --bare remote.git
stores=("sqlite:$work/history.db" "git:$work/remote.git#perfgate-history")
set +e
conninfo=$("$here/postgres_cluster.sh" start "$work/pg" 2>"$work/pg.err")
status=$?
set -e
if [[ $status == 0 ]]; then
  pg=yes
  stores+=("postgresql:$conninfo")
else
  echo "history_stores: PostgreSQL skipped: $(cat "$work/pg.err")"
fi

# 20 runs: BM_Other's real_time 1.5 ms, then 1.95 ms from the 11th run on, with ±1 % alternation.
for i in $(seq 1 20); do
  value=$(awk -v i="$i" 'BEGIN { v = (i >= 11 ? 1.95 : 1.5) * (i % 2 ? 1.01 : 0.99); printf "%.4f", v }')
  jq --argjson v "$value" '.benchmarks[1].real_time = $v | .context.machine = "ci-runner"' "$here/inputs/results_ok.json" >"run$i.json"
  for store in "${stores[@]}"; do
    "$perfgate" history record --store "$store" --results "run$i.json" --commit "$(printf 'c0ffee%02d' "$i")" \
      --date "$(printf '2026-11-%02dT00:00:00Z' "$i")" >/dev/null
  done
done
for store in "${stores[@]}"; do
  "$perfgate" history show --store "$store" --benchmark BM_Other >"show.txt"
  "$perfgate" history show --store "$store" --runs --last 3 >"runs.txt"
  "$perfgate" history export --store "$store" --out "export.json" >/dev/null
  if [[ ! -f show.reference ]]; then
    mv show.txt show.reference
    mv runs.txt runs.reference
    mv export.json export.reference
    grep -q 'change point between c0ffee10 and c0ffee11' show.reference || fail "no change point at the step: $(cat show.reference)"
    # The runs themselves: the last 3 of 20, oldest first, each with its date, commit, machine and metric count.
    [[ $(head -1 runs.reference) == "20 runs on main, the last 3:" ]] || fail "history show --runs heads: $(head -1 runs.reference)"
    [[ $(sed -n 2p runs.reference) == "  2026-11-18T00:00:00Z  c0ffee18  ci-runner  "*" metrics" && $(wc -l <runs.reference) == 4 ]] ||
      fail "history show --runs lists: $(cat runs.reference)"
  else
    diff -u show.reference show.txt >&2 || fail "$store shows another history than ${stores[0]}"
    diff -u runs.reference runs.txt >&2 || fail "$store lists other runs than ${stores[0]}"
    diff -u export.reference export.json >&2 || fail "$store exports another history than ${stores[0]}"
  fi
done

# --runs lists one branch's runs only: a store with 20 runs on main and one on another branch.
cp "$work/history.db" branches.db
"$perfgate" history record --store branches.db --results run1.json --commit c0ffee99 --branch other \
  --date 2026-12-01T00:00:00Z >/dev/null
"$perfgate" history show --store branches.db --runs --branch other >other.txt
[[ $(head -1 other.txt) == "1 run on other:" && $(wc -l <other.txt) == 2 ]] || fail "--runs on branch other lists: $(cat other.txt)"
"$perfgate" history show --store branches.db --runs --last 3 | head -1 | grep -qx "20 runs on main, the last 3:" ||
  fail "a run on another branch is listed on main"

# Moving a history: export from SQLite, import into a new data branch, twice.
"$perfgate" history import --store "git:$work/remote.git#moved" --in export.reference | grep -q 'imported 20 runs' || fail "import did not add 20 runs"
"$perfgate" history import --store "git:$work/remote.git#moved" --in export.reference | grep -q 'imported 0 runs' || fail "a second import added runs"
"$perfgate" history show --store "git:$work/remote.git#moved" --benchmark BM_Other >show.txt
diff -u show.reference show.txt >&2 || fail "the imported history differs"

# A remote's name, from inside a checkout (as CI records): the checkout's index, work tree and refs are left as they
# were (git's own tracking ref of the data branch aside), and the run lands in the remote's data branch.
git clone -q "$work/remote.git" checkout 2>/dev/null
git -C checkout -c user.name=t -c user.email=t@t.example commit -q --allow-empty -m "a project's commit"
echo "work in progress" >checkout/file.txt
git -C checkout add file.txt
state() { git -C checkout status --porcelain; git -C checkout for-each-ref | grep -v 'refs/remotes/origin/perfgate-history' || true; }
before=$(state)
(cd checkout && "$perfgate" history record --store git:origin#perfgate-history --results ../run20.json --commit c0ffee21 >/dev/null)
after=$(state)
[[ $before == "$after" ]] || fail "recording from a checkout changed it: $before / $after"
"$perfgate" history export --store "git:$work/remote.git#perfgate-history" --out from-checkout.json >/dev/null
[[ $(jq '.runs | length' from-checkout.json) == 21 ]] || fail "the run recorded from a checkout is not in the data branch"

# Refusals and an unreachable store.
expect() {
  local code=$1
  shift
  set +e
  "$perfgate" "$@" >/dev/null 2>err.txt
  local status=$?
  set -e
  [[ $status == "$code" ]] || fail "$*: exit $status, not $code: $(cat err.txt)"
  [[ $(wc -l <err.txt) == 1 ]] || fail "$*: not one line: $(cat err.txt)"
}
expect 2 history show --store "git:$work/remote.git#no-such-branch"
expect 2 history show --store "git:$work/not-a-repository#x"
expect 2 history show --store "git:$work/remote.git"
expect 2 history show --store "$work/no-such.db"
expect 2 history import --store "$work/history.db" --in run1.json
if [[ -n $pg ]]; then
  expect 5 history show --store "postgresql:host=$work/pg port=1 user=perfgate dbname=postgres"
fi
# Secrets in a specification are never printed; git's command-running transport is refused; a mistyped kind creates
# nothing; a branch name git refuses is bad input.
secret() {
  local code=$1 secret=$2
  shift 2
  expect "$code" "$@"
  ! grep -q "$secret" err.txt || fail "$*: the secret is in the message: $(cat err.txt)"
}
secret 5 SECRETPW1 history show --store "postgresql://u:SECRETPW1@/postgres?host=$work/nowhere"
secret 5 SECRETPW2 history show --store "postgresql:host=$work/nowhere password = SECRETPW2"
secret 2 SECRETPW3 history show --store "postgresql:host=$work/nowhere password='SECRETPW3"
secret 5 TOKEN4 history record --store "git:https://u:TOKEN4@127.0.0.1:1/x.git#h" --results run1.json --commit c0ffee01
expect 2 history show --store "git:ext::sh -c touch% $work/pwned#h"
[[ ! -e $work/pwned ]] || fail "git's ext:: transport ran a command"
expect 2 history record --store "gti:origin#perfgate-history" --results run1.json --commit c0ffee01
[[ ! -e "gti:origin#perfgate-history" ]] || fail "a mistyped store kind created a file"
for branch in 'a..b' HEAD 'x.lock' 'refs/heads/x' 'a//b'; do expect 2 history show --store "git:$work/remote.git#$branch"; done
# A refusal that is no race (a branch name that clashes with the data branch) ends at once, not after 200 tries.
start=$(date +%s)
expect 5 history record --store "git:$work/remote.git#perfgate-history/x" --results run1.json --commit c0ffee01
(( $(date +%s) - start < 60 )) || fail "a permanent push refusal was retried as a race"
# A server-side hook that declines every push: refused at once, in git's words.
git init -q --bare declining.git
printf '#!/bin/sh\necho "history is read-only here" >&2\nexit 1\n' >declining.git/hooks/pre-receive
chmod +x declining.git/hooks/pre-receive
start=$(date +%s)
expect 5 history record --store "git:$work/declining.git#perfgate-history" --results run1.json --commit c0ffee01
(( $(date +%s) - start < 60 )) || fail "a push declined by a hook was retried as a race"
grep -q "the push was refused.*pre-receive hook declined" err.txt || fail "a declined push is not reported as refused: $(cat err.txt)"

# What else a data branch may hold is not read: a link (to a file outside), a file outside runs/.
git clone -q "$work/remote.git" tamper 2>/dev/null
git -C tamper checkout -q perfgate-history
ln -s /etc/passwd tamper/runs/link.json
echo '{"not": "a run"}' >tamper/README.json
git -C tamper add -A && git -C tamper -c user.name=t -c user.email=t@t.example commit -q -m tamper && git -C tamper push -q origin perfgate-history
"$perfgate" history export --store "git:$work/remote.git#perfgate-history" --out tampered.json >/dev/null
[[ $(jq '.runs | length' tampered.json) == 21 ]] || fail "a link or a file outside runs/ was read as a run"

# An import with a bad run imports nothing, on every store.
jq '.runs[5].metrics += [.runs[5].metrics[0]]' export.reference >duplicate.json
for store in "${stores[@]}"; do
  "$perfgate" history export --store "$store" --out before.json >/dev/null
  jq '.runs |= map(.commit |= "0" + .)' export.reference >shifted.json  # new runs, so that none is skipped as present
  jq '.runs[5].metrics += [.runs[5].metrics[0]]' shifted.json >bad-import.json
  expect 2 history import --store "$store" --in bad-import.json
  "$perfgate" history export --store "$store" --out after.json >/dev/null
  cmp -s before.json after.json || fail "$store: a refused import left runs behind"
done

echo "history_stores: ${#stores[@]} stores, the same runs, show and export; export/import moves a history; a checkout's remote used and left as it was; refusals one line each"
