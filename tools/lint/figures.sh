#!/usr/bin/env bash
# The Markdown files git tracks under ROOT (default: the repository root), their "checked against" tables checked by
# figures.mjs. Usage: tools/lint/figures.sh [ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
mapfile -t files < <(git -c safe.directory="*" -C "$root" ls-files -- '*.md' ':!:**/node_modules/**' ':!:tools/lint/tests/**' 2>/dev/null || true)
[[ ${#files[@]} -gt 0 ]] || { echo "figures: no Markdown files tracked under $root" >&2; exit 2; }
exec node "$(dirname "${BASH_SOURCE[0]}")/figures.mjs" "$root" "${files[@]}"
