#!/usr/bin/env bash
# perfgate's sources and tests are laid out as tools/perfgate/.clang-format says (Google's style at 120 columns):
# clang-format would change nothing. Prints the files it would change and exits 1; 0 when there is none.
# Usage: tools/lint/perfgate-format.sh [ROOT]   (default: the repository root)   Reformat: the command it prints.
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
tool="$root/tools/perfgate"
[[ -f $tool/.clang-format ]] || { echo "perfgate-format: no tools/perfgate/.clang-format under $root" >&2; exit 2; }
command -v clang-format >/dev/null || { echo "perfgate-format: clang-format is not installed (tools/install-deps)" >&2; exit 2; }
mapfile -d '' -t sources < <(find "$tool" -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) -not -path '*/node_modules/*' -print0 | sort -z)
changed=()
for file in "${sources[@]}"; do
  if ! clang-format --style=file --dry-run --Werror "$file" >/dev/null 2>&1; then changed+=("${file#"$root"/}"); fi
done
if (( ${#changed[@]} > 0 )); then
  echo "perfgate-format: clang-format would change:" >&2
  printf '  %s\n' "${changed[@]}" >&2
  echo "perfgate-format: ${#sources[@]} file(s), ${#changed[@]} not formatted; run: clang-format -i --style=file ${changed[*]}" >&2
  exit 1
fi
echo "perfgate-format: ${#sources[@]} file(s), all formatted ($(clang-format --version | grep -o 'version [0-9.]*'))"
