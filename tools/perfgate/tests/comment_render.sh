#!/usr/bin/env bash
# The pull request comment as GitHub shows it: perfgate comment renders the hostile fixtures (names that are links,
# images, HTML, mentions, issue references, table breakers, the marker itself), GitHub's Markdown library
# (cmark-gfm with its table, autolink, tagfilter and strikethrough extensions) turns it into HTML, and
# comment_render_check.mjs requires that nothing from the inputs became markup and everything stayed readable.
# Also: bad documents and bad links are refused with exit 2 and one line, and the comment is written atomically.
# Usage: comment_render.sh PERFGATE
set -euo pipefail
perfgate=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
inputs="$here/inputs/comment"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "comment_render: $*" >&2; exit 1; }
command -v cmark-gfm >/dev/null || fail "cmark-gfm not installed (tools/install-deps installs it)"

run_url=https://github.com/o/r/actions/runs/1
"$perfgate" comment --verdicts "$inputs/hostile_verdicts.json" --ab "$inputs/hostile_ab.json" --run-url "$run_url" \
  --report-url "$run_url#artifacts" --out "$work/comment.md" >"$work/out.txt"
grep -qx "perfgate comment: FAIL, written to $work/comment.md" "$work/out.txt" || fail "unexpected output: $(cat "$work/out.txt")"
head -n1 "$work/comment.md" | grep -qx '<!-- perfgate-comment:perfgate -->' || fail "the comment does not start with its marker"
[[ $(grep -c 'perfgate-comment:' "$work/comment.md") == 1 ]] || fail "a name wrote a second marker line"
cmark-gfm --unsafe -e table -e autolink -e tagfilter -e strikethrough "$work/comment.md" >"$work/comment.html"
node "$here/comment_render_check.mjs" "$work/comment.html" "$run_url" "$run_url#artifacts" -- \
  "$inputs/hostile_verdicts.json" "$inputs/hostile_ab.json" || fail "the rendered comment has markup from its inputs (above)"
for verdict in ACCEPTED 'beyond its acceptance'; do
  grep -q "$verdict" "$work/comment.html" || fail "'$verdict' not in the comment"
done

# Refusals: one line on stderr, exit 2, and nothing written.
refuse() {
  local name=$1
  shift
  set +e
  "$perfgate" comment "$@" --out "$work/refused.md" >/dev/null 2>"$work/err.txt"
  local status=$?
  set -e
  [[ $status == 2 ]] || fail "$name: exit $status, not 2"
  [[ $(wc -l <"$work/err.txt") == 1 ]] || fail "$name: not one line: $(cat "$work/err.txt")"
  [[ ! -e $work/refused.md ]] || fail "$name: wrote a comment"
}
printf '{"format":"perfgate-ab","version":1}' >"$work/short_ab.json"
refuse "no input"
refuse "not an ab document" --ab "$inputs/hostile_verdicts.json"
refuse "not a verdicts document" --verdicts "$inputs/hostile_ab.json"
refuse "an ab document cut short" --ab "$work/short_ab.json"
refuse "a link that would end the Markdown link" --ab "$inputs/hostile_ab.json" --run-url 'https://x/a)[evil](https://evil.example'
refuse "a script link" --ab "$inputs/hostile_ab.json" --run-url 'javascript:alert(1)'
refuse "a marker with spaces" --ab "$inputs/hostile_ab.json" --marker 'a -->'
echo "comment_render: hostile names rendered as text, refusals one line each"
