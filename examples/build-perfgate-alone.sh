#!/usr/bin/env bash
# Builds perfgate alone (cmake -S tools: Release, no tests, LibTorch never needed) as docs/getting-started.md does:
# from WORK/project, where WORK/project/perfgate is a link to this checkout, into WORK/project/perfgate-build. The
# install checks and the getting-started page's test all build there, with ccache's base_dir at WORK, so every file
# has the same path relative to it in each: whichever check runs first fills the compiler cache and the others find
# its objects (a cold cache compiles perfgate once, not three times).
# Extra arguments go to the configure step (e.g. -DCMAKE_INSTALL_PREFIX=/usr). The steps' output is in WORK/*.log,
# shown when one fails.
# Usage: examples/build-perfgate-alone.sh WORK [CMAKE_ARGUMENT...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -ge 1 ]] || { echo "usage: $0 WORK [CMAKE_ARGUMENT...]" >&2; exit 2; }
mkdir -p "$1/project"
work=$(cd "$1" && pwd)  # absolute: ccache takes an absolute base_dir, and the logs are named from it after cd
shift
[[ -L $work/project/perfgate || ! -e $work/project/perfgate ]] || { echo "$0: $work/project/perfgate is not a link" >&2; exit 2; }
ln -sfn "$root" "$work/project/perfgate"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1
logged() {  # LOG COMMAND...: the command's output in LOG, shown when it fails
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "$0: failed: $*" >&2; exit 1; }
}
cd "$work/project"
logged "$work/perfgate-configure.log" cmake -S perfgate/tools -B perfgate-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPERFGATE_BUILD_TESTS=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${launcher[@]}" "$@"
logged "$work/perfgate-build.log" cmake --build perfgate-build
