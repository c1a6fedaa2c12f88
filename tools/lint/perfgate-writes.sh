#!/usr/bin/env bash
# Every file and folder perfgate writes goes through one mechanism, tools/perfgate/base/output_files.h (Outputs),
# which knows the command's inputs and marks the folders it fills. This lint fails on a write anywhere else in
# perfgate's sources: atomic writes, streams opened for writing, created folders, copies and renames. The few files
# that write outside Outputs are listed below, each with the reason it is not an output of a command.
# Prints each finding as FILE:LINE: text and exits 1; 0 when there is none.
# Usage: tools/lint/perfgate-writes.sh [ROOT]   (default: the repository root)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
tool="$root/tools/perfgate"
[[ -d $tool ]] || { echo "perfgate-writes: no tools/perfgate under $root" >&2; exit 2; }
# Not outputs of a command, so not declared to Outputs:
declare -A exempt=(
  [base/atomic_write.cpp]="the atomic write itself, which Outputs calls"
  [base/output_files.cpp]="the output discipline itself"
  [base/temporary_folder.cpp]="private temporary folders, removed on every path"
  [base/folder_lock.cpp]="a lock held on a folder, no content"
  [run/process.cpp]="a child's standard error into a file its caller names inside a private temporary folder"
  [history/history_git.cpp]="a data branch's private index and work files, under the store's lock"
  [run/worktree_build.cpp]="git worktrees inside the --work folder of ab, bisect and selftest"
  [run/ab_rounds.cpp]="the rounds' results inside the --work folder of ab and bisect"
  [cli/command_selftest.cpp]="its --work folder: a private index, logs and results of the plants it runs"
)
pattern='write_file_atomically[[:space:]]*\(|ofstream|fopen[[:space:]]*\(|create_director(y|ies)[[:space:]]*\(|(fs|filesystem)::copy|(std::|[^_a-z])rename[[:space:]]*\(|O_CREAT'
findings=()
files=0
while IFS= read -r -d '' file; do
  inner=${file#"$tool"/}
  files=$((files + 1))
  [[ -z ${exempt[$inner]+set} ]] || continue
  while IFS= read -r hit; do
    [[ -n $hit ]] && findings+=("tools/perfgate/$inner:$hit")
  done < <(grep -nE -- "$pattern" "$file" | grep -vE '^[0-9]+:[[:space:]]*//' || true)
done < <(find "$tool" -path "$tool/tests" -prune -o -path "$tool/scripts" -prune -o -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) -print0 | sort -z)
# A header may declare the mechanism (atomic_write.h, output_files.h); only calls in sources count.
filtered=()
for f in "${findings[@]+"${findings[@]}"}"; do
  [[ $f == *.h:* ]] && continue
  filtered+=("$f")
done
if (( ${#filtered[@]} > 0 )); then
  echo "perfgate-writes: written outside Outputs (base/output_files.h):" >&2
  printf '  %s\n' "${filtered[@]}" >&2
  echo "perfgate-writes: $files file(s), ${#filtered[@]} write(s) outside Outputs" >&2
  exit 1
fi
echo "perfgate-writes: $files file(s), every write through Outputs (${#exempt[@]} files exempt, each with its reason)"
