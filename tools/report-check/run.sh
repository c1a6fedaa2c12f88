#!/usr/bin/env bash
# Installs the checker's one npm dependency on first use (pinned in package-lock.json), then runs it.
# Usage: tools/report-check/run.sh REPORT.html [check_report.mjs options]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$dir/../npm-ensure" "$dir" node_modules/puppeteer-core "report check"
exec node "$dir/check_report.mjs" "$@"
