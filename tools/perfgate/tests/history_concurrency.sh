#!/usr/bin/env bash
# No run lost, none twice: first 8 importers import one export of 20 runs into the empty store at the same time (each
# run must be there once: the duplicate check is inside the store's transaction); then WRITERS processes (default 16)
# each record RUNS runs (default 50) into it at the same time, and the store must hold every one of them exactly once, and every record must have succeeded (no "database
# is locked", no lost push race). KIND: sqlite (one file), git (a data branch pushed to a local bare repository, each
# writer outside any repository, as separate runners are), postgresql (a private server, postgres_cluster.sh).
# Prints the wall time and the runs per second.
# Usage: history_concurrency.sh PERFGATE KIND [WRITERS [RUNS]]
# Exit 0 pass; 1 a run lost or a record failed; 77 the store cannot be made here (PostgreSQL not installed).
set -euo pipefail
perfgate=$(realpath "$1") kind=$2 writers=${3:-16} runs=${4:-50}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=$(mktemp -d)
chmod 755 "$work"  # the PostgreSQL server runs as nobody when the test runs as root
cleanup() {
  [[ $kind == postgresql ]] && "$here/postgres_cluster.sh" stop "$work/pg" || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "history_concurrency($kind): $*" >&2; exit 1; }
results="$here/inputs/results_ok.json"
case $kind in
  sqlite) store="$work/history.db" ;;
  git) git init -q --bare "$work/remote.git"; store="git:$work/remote.git#perfgate-history" ;;
  postgresql)
    set +e
    conninfo=$("$here/postgres_cluster.sh" start "$work/pg")
    status=$?
    set -e
    [[ $status == 0 ]] || exit "$status"
    store="postgresql:$conninfo"
    ;;
  *) echo "usage: history_concurrency.sh PERFGATE sqlite|git|postgresql [WRITERS [RUNS]]" >&2; exit 2 ;;
esac
mkdir -p "$work/cwd"
imported=20
for ((r = 0; r < imported; ++r)); do
  "$perfgate" history record --store "$work/source.db" --results "$results" --commit "$(printf 'feed%04x' "$r")" --branch main >/dev/null
done
"$perfgate" history export --store "$work/source.db" --out "$work/source.json" >/dev/null
for ((i = 0; i < 8; ++i)); do
  (cd "$work/cwd" && "$perfgate" history import --store "$store" --in "$work/source.json" >>"$work/importer-$i.log" 2>&1 ||
    echo "importer $i failed" >>"$work/failures.log") &
done
wait
[[ ! -s $work/failures.log ]] || fail "$(cat "$work/failures.log"): $(grep -h error "$work"/importer-*.log | head -n1)"
added=$(awk '/^imported [0-9]+ runs/ { n += $2 } END { print n + 0 }' "$work"/importer-*.log)
[[ $added == "$imported" ]] || fail "8 concurrent imports of $imported runs added $added"
start=$(date +%s.%N)
for ((w = 0; w < writers; ++w)); do
  (
    cd "$work/cwd"
    for ((r = 0; r < runs; ++r)); do
      commit=$(printf 'c0ffee%04x%04x' "$w" "$r")
      if ! "$perfgate" history record --store "$store" --results "$results" --commit "$commit" --branch main \
        >>"$work/writer-$w.log" 2>&1; then
        echo "writer $w run $r failed" >>"$work/failures.log"
      fi
    done
  ) &
done
wait
end=$(date +%s.%N)
[[ ! -s $work/failures.log ]] || fail "$(wc -l <"$work/failures.log") records failed, e.g.: $(head -n1 "$work/failures.log"); $(grep -h error "$work"/writer-*.log | head -n1)"
(cd "$work/cwd" && "$perfgate" history export --store "$store" --out "$work/export.json" >/dev/null)
expected=$((writers * runs + imported))
stored=$(jq '.runs | length' "$work/export.json")
distinct=$(jq '[.runs[].commit] | unique | length' "$work/export.json")
[[ $stored == "$expected" ]] || fail "$stored runs stored, $expected recorded"
[[ $distinct == "$expected" ]] || fail "$distinct distinct runs among $stored"
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "history_concurrency($kind): $imported runs imported 8 times at once, then $writers writers x $runs runs: all $expected stored once, none failed, in $seconds s ($(awk -v n="$expected" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }') runs/s)"
