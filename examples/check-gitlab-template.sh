#!/usr/bin/env bash
# Runs perfgate's GitLab CI template (tools/gitlab/perfgate.gitlab-ci.yml) as GitLab would, with gitlab-ci-local on
# its shell executor, in a project of its own: examples/gated-suite in a git repository of its own, the template
# included as a copy, perfgate's checkout beside it as `perfgate` (a link to this checkout). The job must build and
# install perfgate, run the project's performance and cost tests, judge their results through its manifest, print the
# summary and keep the report and a JUnit file; then, with one exact count of the baseline changed, the job must fail
# and its JUnit file name the metric. perfgate's build lands where the other install checks build it
# (examples/build-perfgate-alone.sh), so that the compiler cache serves it.
# Usage: examples/check-gitlab-template.sh WORK_FOLDER
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 WORK_FOLDER" >&2; exit 2; }
command -v rsync >/dev/null || { echo "check: gitlab-ci-local needs rsync (tools/install-deps)" >&2; exit 2; }
"$root/tools/npm-ensure" "$root/tools/gitlab/check" node_modules/.bin/gitlab-ci-local "gitlab template check"
gcl="$root/tools/gitlab/check/node_modules/.bin/gitlab-ci-local"
rm -rf "$1"
mkdir -p "$1/project"
work=$(cd "$1" && pwd)
project="$work/project"
fail() { echo "check: FAIL: $*" >&2; exit 1; }

cp -r "$root/examples/gated-suite/." "$project/"
ln -s "$root" "$project/perfgate"
mkdir -p "$project/ci"
cp "$root/tools/gitlab/perfgate.gitlab-ci.yml" "$project/ci/"
cat >"$project/.gitlab-ci.yml" <<'YAML'
include:
  - local: ci/perfgate.gitlab-ci.yml

perfgate:
  extends: .perfgate
  variables:
    PERFGATE_INSTALL_PACKAGES: "false"
    PERFGATE_LABELS: ^(performance|cost)$
    PERFGATE_MANIFEST: gates.json
YAML
printf 'perfgate\nperfgate-build/\n.perfgate/\n.perfgate-install.log\nbuild/\nperfgate-report/\n.gitlab-ci-local/\n' >"$project/.gitignore"
git -C "$project" init -q
git -C "$project" -c user.email=check@example.org -c user.name=check add -A
git -C "$project" -c user.email=check@example.org -c user.name=check commit -qm "a project gated in GitLab CI"
git -C "$project" remote add origin https://gitlab.example.org/group/gated-suite.git

job() {  # job LOG: the pipeline's job, run locally; its exit status
  set +e
  (cd "$project" && "$gcl" --variable "CCACHE_BASEDIR=$work" --variable CCACHE_NOHASHDIR=1 perfgate) >"$1" 2>&1
  local status=$?
  set -e
  return $status
}
echo "check: the template's job, unchanged project"
job "$work/pass.log" || { cat "$work/pass.log" >&2; fail "the job failed on an unchanged project"; }
grep -q "perfgate: tests exit 0; gate exit 0" "$work/pass.log" || { cat "$work/pass.log" >&2; fail "the job did not report both steps passing"; }
grep -q "perfgate [0-9]*\.[0-9]*\.[0-9]* (commit" "$work/pass.log" || fail "the job did not install perfgate"
for f in report.html summary.md verdicts.json junit.xml; do
  [[ -f $project/perfgate-report/$f ]] || fail "the job kept no perfgate-report/$f"
done
jq -e '.overall == "PASS" and ([.checks[] | select(.field == "instructions")] | length) == 2' \
  "$project/perfgate-report/verdicts.json" >/dev/null || fail "the report lacks the cost gate's verdicts: $(head -c 400 "$project/perfgate-report/verdicts.json")"

echo "check: the template's job, one exact count of the baseline changed"
sed -i 's/"value": 59070.0/"value": 59069.0/' "$project/baselines/sorting.json"
git -C "$project" diff --quiet && fail "the planted baseline is unchanged (the example's baseline moved?)"
job "$work/fail.log" && { cat "$work/fail.log" >&2; fail "the job passed a changed count"; }
grep -q "perfgate: tests exit [1-9][0-9]*; gate exit 1" "$work/fail.log" || { cat "$work/fail.log" >&2; fail "the job did not report the failing gate"; }
grep -q "failure" "$project/perfgate-report/junit.xml" && grep -q "comparisons" "$project/perfgate-report/junit.xml" ||
  fail "the JUnit report does not name the failing metric"
echo "check: the GitLab template builds perfgate, gates the project and fails a changed count: PASS"
