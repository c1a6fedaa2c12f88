#!/usr/bin/env bash
# Installs the checker's one npm dependency on first use (pinned in package-lock.json), then runs it.
# Usage: tools/report-check/run.sh REPORT.html [check_report.mjs options]
#        tools/report-check/run.sh dashboard INDEX.html [check_dashboard.mjs options]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$dir/../npm-ensure" "$dir" node_modules/puppeteer-core "report check"
if [[ ${1:-} == dashboard ]]; then
  shift
  exec node "$dir/check_dashboard.mjs" "$@"
fi
exec node "$dir/check_report.mjs" "$@"
