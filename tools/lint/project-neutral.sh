#!/usr/bin/env bash
# perfgate knows nothing of the project around it: no file of the tool (tools/perfgate, tests aside, and its CMake
# package in tools/cmake) names this repository's programs, suites, options or words. Prints each hit as FILE:LINE and
# exits 1; 0 when there is none.
# Usage: tools/lint/project-neutral.sh [ROOT]   (default: the repository root)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
pattern='profile_step|cost_step|bench_|--pipeline|training step|perf_tests/|recon::|recon reconstruct|train_step'
[[ -d $root/tools/perfgate ]] || { echo "project-neutral: no tools/perfgate under $root" >&2; exit 2; }
code=0
hits=$(cd "$root" && grep -rnE --exclude-dir=tests -e "$pattern" tools/perfgate tools/cmake) || code=$?
[[ $code -le 1 ]] || { echo "project-neutral: grep failed (status $code)" >&2; exit 2; }
if [[ $code -eq 0 ]]; then
  echo "project-neutral: perfgate names this project:" >&2
  sed 's/^/  /' <<<"$hits" >&2
  exit 1
fi
echo "project-neutral: tools/perfgate and tools/cmake name nothing of this project"
