#!/usr/bin/env bash
# Installs the checker's one npm dependency on first use (pinned in package-lock.json), then runs it.
# Usage: tools/report-check/run.sh REPORT.html [check_report.mjs options]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -d "$dir/node_modules/puppeteer-core" ]]; then
  npm ci --prefix "$dir" --no-audit --no-fund --silent >/dev/null 2>&1 ||
    { echo "report check: cannot install puppeteer-core (npm ci in tools/report-check)" >&2; exit 2; }
fi
exec node "$dir/check_report.mjs" "$@"
