#!/usr/bin/env bash
# perfgate's exit codes come from one table (tools/perfgate/base/exit_codes.h, enum Exit): the commands (cli/) and the
# gates they run (gates/) name a code only as code_of(Exit::...), never as a number, so that a code's meaning cannot
# drift between the help, the docs and what a command returns. Prints each finding as FILE:LINE: text and exits 1.
# Usage: tools/lint/perfgate-exit-codes.sh [ROOT]   (default: the repository root)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
tool="$root/tools/perfgate"
[[ -d $tool/cli ]] || { echo "perfgate-exit-codes: no tools/perfgate/cli under $root" >&2; exit 2; }
# A number returned, a code set to a number, or a number chosen by a condition.
pattern='return [0-9]+;|code = [0-9]+;|return [^;]*\? [0-9]+ : [0-9]+;|\bexit\([0-9]+\)'
mapfile -t sources < <(cd "$root" && find tools/perfgate/cli tools/perfgate/gates -name '*.cpp' ! -name cli_help.cpp 2>/dev/null | sort)
files=${#sources[@]}
findings=$( (cd "$root" && grep -HnE -- "$pattern" "${sources[@]}") || true)
if [[ -n $findings ]]; then
  echo "perfgate-exit-codes: an exit code written as a number (use code_of(Exit::...)):" >&2
  sed 's/^/  /' <<<"$findings" >&2
  echo "perfgate-exit-codes: $files file(s), $(wc -l <<<"$findings") finding(s)" >&2
  exit 1
fi
echo "perfgate-exit-codes: $files file(s), every exit code through the Exit enum"
