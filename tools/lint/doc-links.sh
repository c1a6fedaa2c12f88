#!/usr/bin/env bash
# The Markdown files git tracks under ROOT (default: the repository root), their relative links checked by
# doc-links.mjs. Usage: tools/lint/doc-links.sh [ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
mapfile -t files < <(git -c safe.directory="*" -C "$root" ls-files -- '*.md' ':!:**/node_modules/**' ':!:tools/lint/tests/doc_links/**' 2>/dev/null || true)
if [[ ${#files[@]} -eq 0 ]]; then  # not a git checkout (a fixture folder): every Markdown file under ROOT
  mapfile -t files < <(cd "$root" && find . -name '*.md' -not -path '*/node_modules/*' | sed 's#^\./##' | sort)
fi
exec node "$(dirname "${BASH_SOURCE[0]}")/doc-links.mjs" "$root" "${files[@]}"
