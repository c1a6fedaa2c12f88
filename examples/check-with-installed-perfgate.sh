#!/usr/bin/env bash
# Proves that another C++ project can adopt perfgate: builds perfgate alone (cmake -S tools) into a clean install
# prefix, then configures, builds and gates examples/gated-suite against that prefix with find_package(perfgate).
# LibTorch is hidden throughout: in a private mount namespace (root, or an unprivileged user namespace) its headers
# and CMake packages are covered by empty folders, so any use of it fails the build. Where no namespace can be made
# (a container without CAP_SYS_ADMIN), find_package(Torch) is disabled instead and the script says so; in both,
# no compile command of perfgate may name a LibTorch include folder.
# Then every gate kind of the example's manifest (examples/gated-suite/gates.json) through perfgate gate, and that the
# gate can fail: the example's baseline with one exact count changed, and a speedup floor no sort reaches, give exit 1.
# Usage: examples/check-with-installed-perfgate.sh WORK_FOLDER
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 WORK_FOLDER" >&2; exit 2; }
work=$1

# Re-run inside a mount namespace with LibTorch hidden, once.
torch_paths=(/usr/include/torch /usr/include/ATen /usr/include/c10 /usr/include/caffe2
             /usr/lib/x86_64-linux-gnu/cmake/Torch /usr/lib/x86_64-linux-gnu/cmake/ATen
             /usr/lib/x86_64-linux-gnu/cmake/Caffe2)
if [[ -z "${PERFGATE_TORCH_HIDDEN:-}" ]]; then
  flags=(--mount)
  [[ $(id -u) -ne 0 ]] && flags+=(--map-root-user)
  if unshare "${flags[@]}" true 2>/dev/null; then
    exec unshare "${flags[@]}" env PERFGATE_TORCH_HIDDEN=namespace "$0" "$@"
  fi
  export PERFGATE_TORCH_HIDDEN=disabled
fi
cmake_extra=()
if [[ $PERFGATE_TORCH_HIDDEN == namespace ]]; then
  for p in "${torch_paths[@]}"; do
    [[ -d $p ]] && mount -t tmpfs -o ro,size=1k none "$p"
  done
  [[ ! -e /usr/include/torch/csrc ]] || { echo "check: LibTorch's headers are still visible" >&2; exit 1; }
  echo "check: LibTorch hidden (empty folders over its headers and CMake packages)"
else
  cmake_extra+=(-DCMAKE_DISABLE_FIND_PACKAGE_Torch=TRUE)
  echo "check: no mount namespace here; LibTorch not hidden, find_package(Torch) disabled instead"
fi

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)  # absolute: the compiler cache's base_dir and the builds' logs are named from it
# logged LOG COMMAND...: runs COMMAND with its output in LOG, shown when it fails.
logged() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "check: failed: $*" >&2; exit 1; }
}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Paths under the work folder (the checkout reached through its link there) hashed relative to it: the other install
# checks, and a clone elsewhere, find the same objects.
export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1
prefix="$work/prefix"
checkout="$work/project/perfgate"

echo "check: perfgate alone: configure, build, install into $prefix"
"$root/examples/build-perfgate-alone.sh" "$work" "${cmake_extra[@]}"
logged "$work/perfgate-install.log" cmake --install "$work/project/perfgate-build" --prefix "$prefix"
# The cost runner's instruction emulator, where the installed perfgate looks for it (beside bin/, in <libdir>/perfgate).
compgen -G "$prefix/lib*/perfgate/perfgate-instruction-emulator.so" >/dev/null ||
  { echo "check: the install lacks lib/perfgate/perfgate-instruction-emulator.so" >&2; exit 1; }
# A folder named torch, ATen or c10 on an include path, not any path that merely contains those letters (a checkout in
# /tmp/cc10 is not LibTorch).
if grep -Eo -- '-I[^ "]*/(torch|ATen|c10)(/[^ "]*)?([ "]|$)' "$work/project/perfgate-build/compile_commands.json"; then
  echo "check: perfgate compiles with LibTorch's headers on its include path" >&2
  exit 1
fi
if ldd "$prefix/bin/perfgate" | awk '{print $1}' | grep -Ei 'torch|c10'; then  # names only: a load address may hold "c10"
  echo "check: the installed perfgate links LibTorch" >&2
  exit 1
fi
"$prefix/bin/perfgate" --version | grep -E '^perfgate [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$'

echo "check: the example finds it with find_package(perfgate CONFIG), builds and gates its suite"
example="$work/example"
logged "$work/example-configure.log" cmake -S "$checkout/examples/gated-suite" -B "$example" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" "${cmake_extra[@]}"
logged "$work/example-build.log" cmake --build "$example"
ctest --test-dir "$example" -L '^(performance|cost)$' --output-on-failure

echo "check: the tests perfgate_add_manifest_gates registered: one per judged gate, advisory breaches shown as skipped"
ctest --test-dir "$example" --show-only=json-v1 >"$work/tests.json"
jq -e '[.tests[].name] | sort == ["cost.sort_cost", "performance.sort_speedup", "performance.sorting"]' "$work/tests.json" >/dev/null ||
  { echo "check: the registered tests are $(jq -c '[.tests[].name]' "$work/tests.json")" >&2; exit 1; }
# Serial where time is judged; a cost gate's instruction counts share the machine.
jq -e 'all(.tests[]; (.command | index("--warning-exit-code")) != null and (.command | index("--unavailable-exit-code")) != null
          and ([.command[] | select(. == "77")] | length) == 2
          and any(.properties[]; .name == "SKIP_RETURN_CODE" and .value == 77)
          and (any(.properties[]; .name == "RUN_SERIAL" and .value == true) == (.name | startswith("cost.") | not)))' \
  "$work/tests.json" >/dev/null ||
  { echo "check: a registered test lacks --warning-exit-code 77, --unavailable-exit-code 77 or SKIP_RETURN_CODE 77, or is serial where it should not be or not where it should: $(jq -c '[.tests[] | {name, serial: ([.properties[] | select(.name == "RUN_SERIAL") | .value] | first)}]' "$work/tests.json")" >&2; exit 1; }

echo "check: every gate kind of the example's manifest, run by perfgate gate, with verdicts.json"
manifest="$root/examples/gated-suite/gates.json"
"$prefix/bin/perfgate" gate --manifest "$manifest" --build "$example" --verdicts "$work/verdicts.json" >"$work/gate.log" ||
  { cat "$work/gate.log" >&2; echo "check: perfgate gate failed on the example" >&2; exit 1; }
jq -e '.overall == "PASS" and .speedup.verdict == "PASS"
       and ([.checks[] | select(.field == "comparisons")] | length) == 2
       and ([.checks[] | select(.field == "instructions")] | length) == 2' "$work/verdicts.json" >/dev/null ||
  { echo "check: the example's verdicts.json lacks a gate kind's verdicts: $(cat "$work/verdicts.json")" >&2; exit 1; }
[[ -f $example/results/sort_bars.json ]] || { echo "check: the bars gate wrote no results" >&2; exit 1; }
# The commit measured: this check runs inside the checkout, so the results and the verdicts record its HEAD (marked
# -dirty when it has uncommitted changes), where git can read it here.
if head=$(cd "$root" && git rev-parse HEAD 2>/dev/null); then
  jq -e --arg head "$head" '(.context.git_sha | startswith($head)) and (.context.git_sha | test("^[0-9a-f]{40}(-dirty)?$"))' \
    "$example/results/sorting.json" >/dev/null ||
    { echo "check: the results record the commit $(jq -c .context.git_sha "$example/results/sorting.json"), not $head" >&2; exit 1; }
  jq -e --arg head "$head" '.git_sha | startswith($head)' "$work/verdicts.json" >/dev/null ||
    { echo "check: verdicts.json records the commit $(jq -c .git_sha "$work/verdicts.json"), not $head" >&2; exit 1; }
  echo "check: the results and verdicts record the checkout's commit ${head:0:12}"
else
  echo "check: git cannot read the checkout here; the recorded commit is not checked"
fi
jq --arg folder "$root/examples/gated-suite/" '.baseline_path = $folder + .baseline_path
  | (.gates[] | select(.kind == "speedup")) |= (.floor = 100000 | del(.aim))' "$manifest" >"$work/unreachable-floor.json"
set +e
"$prefix/bin/perfgate" gate --manifest "$work/unreachable-floor.json" --build "$example" --only sort_speedup >"$work/floor.log"
status=$?
set -e
[[ $status -eq 1 ]] || { echo "check: a speedup floor of 100000x gave exit $status, not 1" >&2; exit 1; }

echo "check: a baseline with one exact count changed must fail the example's compare (exit 1)"
sed 's/"value": 59070.0/"value": 59069.0/' "$root/examples/gated-suite/baselines/sorting.json" >"$work/changed.json"
cmp -s "$work/changed.json" "$root/examples/gated-suite/baselines/sorting.json" &&
  { echo "check: the changed baseline is unchanged (the example's baseline moved?)" >&2; exit 1; }
set +e
"$prefix/bin/perfgate" compare --results "$example/results/sorting.json" --baseline "$work/changed.json"
status=$?
set -e
[[ $status -eq 1 ]] || { echo "check: the changed baseline gave exit $status, not 1" >&2; exit 1; }
echo "check: installed perfgate gates the example project: PASS"
