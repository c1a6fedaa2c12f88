#!/usr/bin/env bash
# docs/reference/perfgate-cli.md is what tools/make-cli-reference writes from this perfgate's help: prints the
# difference and exits 1 when they differ (regenerate the page with the command printed).
# Usage: tools/lint/cli-reference-current.sh PERFGATE
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 PERFGATE" >&2; exit 2; }
page="$root/docs/reference/perfgate-cli.md"
if diff -u "$page" <("$root/tools/make-cli-reference" "$1"); then
  echo "cli reference: current"
else
  echo "cli reference: $page differs from perfgate's help; regenerate it: tools/make-cli-reference $1 > docs/reference/perfgate-cli.md"
  exit 1
fi
