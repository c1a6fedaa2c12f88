#!/usr/bin/env bash
# Runs container-workflows.mjs (see its header) with its one dependency, the npm package yaml pinned in
# tools/lint/package-lock.json, installed on first use. Arguments go to the checker.
set -euo pipefail
lint_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -f "$lint_dir/node_modules/yaml/package.json" ]]; then
  npm ci --prefix "$lint_dir" --no-audit --no-fund --silent >/dev/null 2>&1 ||
    { echo "container-workflows: cannot install its dependencies (npm ci in tools/lint)" >&2; exit 2; }
fi
exec node "$lint_dir/container-workflows.mjs" "$@"
