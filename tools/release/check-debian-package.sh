#!/usr/bin/env bash
# A release of perfgate as users install it: builds perfgate alone (cmake -S tools, prefix /usr), packs the Debian
# package with CPack, and checks it:
#  - its control fields: package perfgate, version tools/VERSION, dependencies found by dpkg-shlibdeps;
#  - its files: perfgate, perfgate-post-comment, the CMake package, the baseline schema;
#  - apt accepts it on this machine (a simulated install resolves its dependencies);
#  - unpacked into an empty root, its perfgate reports tools/VERSION (and, at a commit tagged v*, the tag's version)
#    and the example project finds its CMake package there and is gated by it.
# Usage: tools/release/check-debian-package.sh WORK_FOLDER
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 WORK_FOLDER" >&2; exit 2; }
work=$1
fail() { echo "deb: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)  # absolute: the compiler cache's base_dir and the builds' logs are named from it
logged() {  # LOG COMMAND...: the command's output in LOG, shown when it fails
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "failed: $*"; }
}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Paths under the work folder (the checkout reached through its link there) hashed relative to it: the other install
# checks, and a clone elsewhere, find the same objects.
export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1
version=$(head -1 "$root/tools/VERSION")
build="$work/project/perfgate-build"

echo "deb: build perfgate alone and pack it"
"$root/examples/build-perfgate-alone.sh" "$work" -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_DISABLE_FIND_PACKAGE_Torch=TRUE
(cd "$build" && logged "$work/cpack.log" cpack -G DEB)
shopt -s nullglob
packages=("$build"/perfgate_*.deb)
[[ ${#packages[@]} -eq 1 ]] || fail "expected one perfgate_*.deb, found ${#packages[@]}"
deb=${packages[0]}
echo "deb: $(basename "$deb")"

[[ $(dpkg-deb -f "$deb" Package) == perfgate ]] || fail "the package is not named perfgate"
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "version $(dpkg-deb -f "$deb" Version), not tools/VERSION's $version"
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libsqlite3' <<<"$depends" || fail "no dependency on SQLite found (Depends: $depends)"
contents=$(dpkg-deb -c "$deb")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
for file in ./usr/bin/perfgate ./usr/bin/perfgate-post-comment ./usr/share/perfgate/baseline.schema.json \
            "./usr/lib/$multiarch/cmake/perfgate/perfgateConfig.cmake" \
            "./usr/lib/$multiarch/cmake/perfgate/perfgate-run-suite" \
            "./usr/lib/$multiarch/perfgate/perfgate-instruction-emulator.so"; do
  grep -q " $file\$" <<<"$contents" || fail "the package lacks $file"
done
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  apt-get install --simulate --no-install-recommends "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt cannot install it here"; }
  grep -q '^Inst perfgate' "$work/apt.log" || fail "apt's simulated install does not install perfgate: $(cat "$work/apt.log")"
fi

echo "deb: unpacked into an empty root"
dpkg-deb -x "$deb" "$work/root"
reported=$("$work/root/usr/bin/perfgate" --version)
[[ $reported =~ ^perfgate\ ${version//./\\.}\ \(commit\ ([0-9a-f]{12}(-dirty)?|unknown)\)$ ]] || fail "perfgate --version says '$reported', not $version"
if tag=$(git -c safe.directory='*' -C "$root" describe --exact-match --tags --match 'v*' HEAD 2>/dev/null); then
  [[ $tag == "v$version" ]] || fail "HEAD is tagged $tag but tools/VERSION says $version"
  echo "deb: HEAD is tagged $tag, as the package's version says"
fi
grep -q "^## $version " "$root/CHANGELOG.md" || fail "CHANGELOG.md has no section for $version"

echo "deb: the example project finds the unpacked CMake package and is gated by it"
logged "$work/example-configure.log" cmake -S "$work/project/perfgate/examples/gated-suite" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/root/usr" "${launcher[@]}"
logged "$work/example-build.log" cmake --build "$work/example"
grep -q "$work/root/usr" "$work/example/CTestTestfile.cmake" || fail "the example's tests do not run the unpacked perfgate"
logged "$work/example-ctest.log" ctest --test-dir "$work/example" -L performance --output-on-failure
echo "deb: the Debian package installs and gates: PASS ($(basename "$deb"), $(du -k "$deb" | cut -f1) KiB)"
