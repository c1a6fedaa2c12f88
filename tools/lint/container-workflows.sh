#!/usr/bin/env bash
# Runs container-workflows.mjs (see its header) with its one dependency, the npm package yaml pinned in
# tools/lint/package-lock.json, installed on first use. Arguments go to the checker.
set -euo pipefail
lint_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$lint_dir/../npm-ensure" "$lint_dir" node_modules/yaml/package.json container-workflows
exec node "$lint_dir/container-workflows.mjs" "$@"
