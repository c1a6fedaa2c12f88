#!/usr/bin/env bash
# Every schema version perfgate promises to read, read (docs/reference/compatibility.md): a frozen copy of each
# earlier version's baseline (inputs/schemas/baseline-v*.json) and every baseline committed in the repository are read
# by compare (exit 0 or 1, never 2); every committed gate manifest and the frozen copy of each version perfgate reads
# (inputs/schemas/manifest-v<N>.json, N the version it reads) are listed by gate; the frozen manifest of version 1,
# no longer read, is refused with one line naming the reference.
# Usage: schema_versions.sh PERFGATE REPOSITORY_ROOT
set -euo pipefail
perfgate=$(realpath "$1")
root=$(realpath "$2")
inputs="$root/tools/perfgate/tests/inputs/schemas"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "schema_versions: $*" >&2; exit 1; }
cat >"$work/results.json" <<'JSON'
{"context": {}, "benchmarks": [{"name": "BM_None", "run_name": "BM_None", "run_type": "iteration", "repetitions": 1,
  "repetition_index": 0, "iterations": 1, "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ns"}]}
JSON
baselines=0
while IFS= read -r file; do
  set +e
  "$perfgate" compare --results "$work/results.json" --baseline "$file" >"$work/out.txt" 2>&1
  status=$?
  set -e
  [[ $status == 0 || $status == 1 ]] || fail "$file is not read (exit $status): $(tail -1 "$work/out.txt")"
  baselines=$((baselines + 1))
done < <(find "$inputs" -name 'baseline-v*.json'; git -c safe.directory='*' -C "$root" ls-files -- 'baselines/*.json' 'examples/*/baselines/*.json' |
         grep -v '/schema.json$' | sed "s#^#$root/#")
[[ -f $inputs/baseline-v1.json ]] || fail "no frozen baseline of version 1"
manifests=0
while IFS= read -r file; do
  "$perfgate" gate --manifest "$file" --build "$work" --list >"$work/out.txt" 2>&1 || fail "$file is not read: $(tail -1 "$work/out.txt")"
  manifests=$((manifests + 1))
done < <(find "$inputs" -name 'manifest-v2.json'; git -c safe.directory='*' -C "$root" ls-files -- '*gates.json' | grep -v '/tests/' | sed "s#^#$root/#")
set +e
"$perfgate" gate --manifest "$inputs/manifest-v1.json" --build "$work" --list >"$work/out.txt" 2>"$work/err.txt"
status=$?
set -e
[[ $status == 2 && $(wc -l <"$work/err.txt") == 1 ]] && grep -q 'gate-manifest.md' "$work/err.txt" ||
  fail "the version 1 manifest: exit $status, $(cat "$work/err.txt")"
echo "schema_versions: $baselines baselines and $manifests manifests read, the retired manifest version refused"
