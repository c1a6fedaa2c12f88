#!/usr/bin/env bash
# perfgate-post-comment against a stand-in for GitHub's REST API (github_standin.mjs): each case starts its own
# stand-in and checks the requests it received and the comments it holds afterwards, not only the exit code.
# Stops at the first failure with a message that says what differed.
# Usage: post_comment.sh POST_COMMENT_SCRIPT GITHUB_STANDIN
set -uo pipefail
script=$1 standin=$2
me=post_comment
token=ghs_StandInToken0123456789abcdefXYZ
head_sha=3f786850e387550fdab836ed7e6dc881de23001b
repo=octo/widgets pr=42
marker='<!-- perfgate-comment:perfgate -->'

fail() {
  echo "$me: FAILED: $*" >&2
  if [[ -n ${dir:-} ]]; then
    echo "--- requests the stand-in received:" >&2
    [[ -s $dir/log ]] && jq -c '{method, path, query}' "$dir/log" >&2
    for file in out err standin.err; do
      [[ -s $dir/$file ]] && { echo "--- $file:" >&2; cat "$dir/$file" >&2; }
    done
  fi
  exit 1
}
for tool in node jq curl; do command -v "$tool" >/dev/null || fail "$tool is not installed"; done
[[ -x $script ]] || fail "$script is not an executable file"
[[ -f $standin ]] || fail "$standin does not exist"

pids=() dirs=() dir= api= running=
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  ((${#dirs[@]})) && rm -rf "${dirs[@]}"
}
trap cleanup EXIT

start() {  # start [STAND-IN OPTIONS]: a stand-in in a folder of its own; sets dir and api
  dir=$(mktemp -d "${TMPDIR:-/tmp}/post_comment.XXXXXX") || fail "mktemp -d failed"
  dirs+=("$dir")
  node "$standin" --port-file "$dir/port" --log "$dir/log" --state "$dir/state" --token "$token" --repo "$repo" \
    --seed-issue "$pr" --head-sha "$head_sha" "$@" 2>"$dir/standin.err" &
  pids+=($!)
  running=$!
  local tries
  for ((tries = 0; tries < 200; tries++)); do
    [[ -s $dir/port ]] && break
    kill -0 "$running" 2>/dev/null || fail "the stand-in exited at start: $(cat "$dir/standin.err")"
    sleep 0.05
  done
  [[ -s $dir/port ]] || fail "the stand-in did not start listening within 10 seconds"
  api="http://127.0.0.1:$(<"$dir/port")"
  : >>"$dir/log"
  cp "$dir/state" "$dir/state.before"
}
stop() {  # stop: ends the running stand-in, if any
  [[ -n $running ]] || return 0
  kill "$running" 2>/dev/null && wait "$running" 2>/dev/null
  pids=("${pids[@]/#$running/}")
  running=
}

rc=
post() {  # post [NAME=VALUE | -NAME ...] -- ARGS: runs the script against the stand-in, with NAME set or (-NAME)
  # unset; sets rc, output in $dir/out and $dir/err
  local environment=(GITHUB_TOKEN="$token" GITHUB_API_URL="$api" PERFGATE_RETRY_DELAY=0) unset=(-u GITHUB_ACTIONS) kept setting
  while [[ $1 != -- ]]; do
    if [[ $1 == -* ]]; then
      unset+=(-u "${1#-}")
      kept=()
      for setting in "${environment[@]}"; do [[ $setting == "${1#-}="* ]] || kept+=("$setting"); done
      environment=("${kept[@]}")
    else
      environment+=("$1")
    fi
    shift
  done
  shift
  env "${unset[@]}" "${environment[@]}" "$script" "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
  ! grep -qF -- "$token" "$dir/out" "$dir/err" || fail "the token appears in the script's output ($*)"
}
expect_rc() { [[ $rc == "$1" ]] || fail "${2:-the script} exits $rc, not $1"; }
lines() { local n=0; [[ -s $1 ]] && n=$(wc -l <"$1"); echo $((n)); }
expect_one_error() {  # expect_one_error TEXT...: nothing on stdout, one line on stderr holding each TEXT
  local text
  [[ ! -s $dir/out ]] || fail "stdout is not empty: $(<"$dir/out")"
  [[ $(lines "$dir/err") == 1 && $(tail -c 1 "$dir/err" | od -An -c) == *'\n'* ]] ||
    fail "stderr has $(lines "$dir/err") lines, not one"
  [[ $(<"$dir/err") == "perfgate-post-comment: "* ]] || fail "the error line does not start with the script's name"
  for text; do grep -qF -- "$text" "$dir/err" || fail "'$text' is not in the error line: $(<"$dir/err")"; done
}
expect_outcome() {  # expect_outcome created|updated: stderr empty, the one stdout line; sets outcome_id
  [[ ! -s $dir/err ]] || fail "stderr is not empty: $(<"$dir/err")"
  [[ $(lines "$dir/out") == 1 && $(<"$dir/out") =~ ^perfgate-post-comment:\ $1\ comment\ ([0-9]+)\ on\ $repo#$pr$ ]] ||
    fail "stdout is not one '$1 comment ID on $repo#$pr' line: $(<"$dir/out")"
  outcome_id=${BASH_REMATCH[1]}
}
requests() {  # the logged requests, one "METHOD PATH[ page=K]" per line
  jq -r '.method + " " + .path + (if .query.page then " page=" + .query.page else "" end)' "$dir/log"
}
expect_requests() {  # expect_requests LINE...: exactly these requests, in this order
  local expected
  expected=$(printf '%s\n' "$@")
  [[ $(requests) == "$expected" ]] || fail "requests were:
$(requests)
expected:
$expected"
}
comments() { jq length "$dir/state"; }
body_of() { jq -j --argjson id "$1" '.[] | select(.id == $id) | .body' "$dir/state"; }
passed() { echo "$me: $1: ok"; stop; }

comments_path="/repos/$repo/issues/$pr/comments"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/post_comment.XXXXXX") || fail "mktemp -d failed"
dirs+=("$scratch")
# Quotes, backslashes, $(...) and backticks, non-ASCII UTF-8, a percent sign, a tab and a newline at the end.
printf '%s\n' "## perfgate: 2 checks, \"all\" pass \\ 100% \$(touch $scratch/expanded) \`touch $scratch/expanded\`" \
  "Änderung: −3.2 % · 速度 · 🚀	tab" "$marker" >"$scratch/body"
printf '%s\n' "second run: 1 regression" "$marker" >"$scratch/body2"

# a. The first comment: one POST, and the stored body is the file byte for byte.
start
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 0
expect_outcome created
expect_requests "GET $comments_path" "POST $comments_path"
[[ $(jq -r 'select(.method == "GET") | .query.per_page' "$dir/log") == 100 ]] || fail "the GET does not ask for 100 per page"
[[ $(jq -c '.headers | [.accept, ."x-github-api-version", ."user-agent"]' "$dir/log" | sort -u) == \
   '["application/vnd.github+json","2022-11-28","perfgate-post-comment"]' ]] || fail "a request lacks GitHub's headers"
[[ $(comments) == 1 && $(jq '.[0].id' "$dir/state") == "$outcome_id" ]] || fail "the stand-in holds $(comments) comments"
cmp -s <(body_of "$outcome_id") "$scratch/body" || fail "the stored body differs from the file"
[[ ! -e $scratch/expanded ]] || fail "the body was run through a shell"
passed "a. first comment: POST, body byte for byte"

# b. The earlier comment on the second page of 130: the bot's marker comment at position 120; a marker comment by
# someone else (position 50), a bot comment with another marker that begins alike (60), bot comments without the
# marker, and a bot marker comment on another pull request must not be taken.
jq -n --arg marker "$marker" --argjson pr "$pr" '
  [{issue: 7, login: "github-actions[bot]", body: ("other pull request\n" + $marker)}] +
  [range(1; 131) as $i | {issue: $pr} +
    if $i == 50 then {login: "mallory", body: ("quoting the bot:\n" + $marker)}
    elif $i == 60 then {login: "github-actions[bot]", body: "nightly\n<!-- perfgate-comment:perfgate-nightly -->"}
    elif $i == 120 then {login: "github-actions[bot]", body: ("old report\n" + $marker)}
    elif $i % 10 == 0 then {login: "github-actions[bot]", body: "coverage report \($i)"}
    else {login: (if $i % 2 == 0 then "alice" else "bob" end), body: "comment \($i)"} end]' >"$scratch/seed.json"
start --seed-comments "$scratch/seed.json"
target=$(jq '[.[] | select(.body | startswith("old report"))][0].id' "$dir/state")
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 0
expect_outcome updated
[[ $outcome_id == "$target" ]] || fail "updated comment $outcome_id, not the bot's marker comment $target"
expect_requests "GET $comments_path" "GET /repositories/4242/issues/$pr/comments page=2" \
  "PATCH /repos/$repo/issues/comments/$target"
cmp -s <(body_of "$target") "$scratch/body" || fail "comment $target does not hold the new body"
[[ $(jq -c --argjson id "$target" 'map(select(.id != $id))' "$dir/state") == \
   "$(jq -c --argjson id "$target" 'map(select(.id != $id))' "$dir/state.before")" ]] || fail "another comment changed"
stop
start --seed-comments "$scratch/seed.json" --link-base http://127.0.0.1:9
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1 "a run sent elsewhere by the Link header"
expect_one_error "the next page of comments is outside GITHUB_API_URL ($api): http://127.0.0.1:9/repositories/"
expect_requests "GET $comments_path"
passed "b. the bot's comment on page 2 of 130 is edited, someone else's marker comment is not; no next page elsewhere"

# c. Twice on a pull request without comments: one comment, holding the second body.
start
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 0
expect_outcome created
first_id=$outcome_id
post -- --repo "$repo" --pr "$pr" --body "$scratch/body2"
expect_rc 0 "the second run"
expect_outcome updated
[[ $outcome_id == "$first_id" ]] || fail "the second run updated comment $outcome_id, not $first_id"
expect_requests "GET $comments_path" "POST $comments_path" "GET $comments_path" "PATCH /repos/$repo/issues/comments/$first_id"
[[ $(comments) == 1 ]] || fail "the stand-in holds $(comments) comments, not 1"
cmp -s <(body_of "$first_id") "$scratch/body2" || fail "the comment does not hold the second body"
passed "c. a second run edits the comment in place"

# d. A fork's read-only token: 403 on POST, not retried; the hint; a ::warning line in GitHub Actions; and 401.
start --fail 403 --fail-method POST
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1
expect_one_error "the comment was not posted: HTTP 403 from POST $comments_path" "post from a workflow_run workflow"
expect_requests "GET $comments_path" "POST $comments_path"
[[ $(comments) == 0 ]] || fail "a comment was stored"
stop
start --fail 403 --fail-method POST --fail-message $'100% read-only\nfor forks'
post GITHUB_ACTIONS=true -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1
[[ $(lines "$dir/err") == 1 ]] && grep -qF "(100% read-only for forks)" "$dir/err" ||
  fail "in GitHub Actions, stderr is not the one error line"
[[ $(lines "$dir/out") == 1 && $(<"$dir/out") == "::warning title=perfgate comment::perfgate-post-comment: the comment was not posted: HTTP 403 from POST $comments_path (100%25 read-only for forks); a pull request from a fork"* ]] ||
  fail "stdout is not one escaped ::warning line: $(<"$dir/out")"
stop
start
post GITHUB_TOKEN=ghs_WrongToken987 -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1
expect_one_error "HTTP 401 from GET $comments_path" "GITHUB_TOKEN was not accepted"
! grep -qF ghs_WrongToken987 "$dir/err" || fail "the wrong token is printed"
expect_requests "GET $comments_path"
passed "d. 403 on POST: exit 1 with the workflow_run hint, not retried; ::warning escaped; 401 names the token"

# e. 5xx and no answer are tried 3 times; a POST whose answer was lost is not repeated blindly.
start --fail 502 --fail-method GET
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1
expect_one_error "the comment was not posted: HTTP 502 from GET $comments_path?per_page=100 after 3 attempts"
expect_requests "GET $comments_path" "GET $comments_path" "GET $comments_path"
stop
start --fail 502 --fail-count 1
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 0 "a run after one 502"
expect_outcome created
expect_requests "GET $comments_path" "GET $comments_path" "POST $comments_path"
[[ $(comments) == 1 ]] || fail "the stand-in holds $(comments) comments, not 1"
stop
start --fail 502 --fail-method POST --fail-count 1 --fail-after-change
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 0 "a run whose POST answer was lost"
expect_outcome updated
expect_requests "GET $comments_path" "POST $comments_path" "GET $comments_path" "PATCH /repos/$repo/issues/comments/$outcome_id"
[[ $(comments) == 1 ]] || fail "a lost POST answer left $(comments) comments, not 1"
stop
# A port nothing listens on: port 1 of the loopback (a port the stand-in had and gave back could be taken meanwhile by
# another test running beside this one).
api="http://127.0.0.1:1"
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1 "a run against a closed port"
expect_one_error "the comment was not posted: no answer from GET $comments_path?per_page=100 after 3 attempts"
passed "e. 502 and no answer tried 3 times; one 502 retried; a lost POST answer leads to PATCH, not a second POST"

# f. --head-sha: the pull request must be at that commit.
start
other_sha=0000000000000000000000000000000000000001
post -- --repo "$repo" --pr "$pr" --body "$scratch/body" --head-sha "$other_sha"
expect_rc 3
expect_one_error "$head_sha" "$other_sha"
expect_requests "GET /repos/$repo/pulls/$pr"
[[ $(comments) == 0 ]] || fail "a comment was stored despite the head mismatch"
post -- --repo "$repo" --pr "$pr" --body "$scratch/body" --head-sha "$head_sha"
expect_rc 0 "a run with the right --head-sha"
expect_outcome created
expect_requests "GET /repos/$repo/pulls/$pr" "GET /repos/$repo/pulls/$pr" "GET $comments_path" "POST $comments_path"
passed "f. --head-sha: a mismatch exits 3 before any comment request; a match posts"

# g. Bad input: exit 2, one line on stderr, no request at all.
: >"$scratch/empty"
printf 'a perfgate report without its marker\n' >"$scratch/no_marker"
printf 'caf\xe9 latin-1\n%s\n' "$marker" >"$scratch/latin1"
jq -rn --arg marker "$marker" '$marker + "\n" + ("é" * (65536 - ($marker | length) - 1))' | head -c -1 >"$scratch/longest"
{ cat "$scratch/longest"; printf x; } >"$scratch/too_long"
start
bad_inputs=0
bad() {  # bad TEXT [ENV=VALUE...] -- ARGS
  local text=$1
  shift
  post "$@"
  expect_rc 2 "bad input ($*)"
  expect_one_error "$text"
  bad_inputs=$((bad_inputs + 1))
}
ok=(--pr "$pr" --body "$scratch/body")
bad "--repo must be OWNER/NAME" -- --repo octo "${ok[@]}"
bad "--repo must be OWNER/NAME" -- --repo octo/widgets/x "${ok[@]}"
bad "--repo must be OWNER/NAME" -- --repo ../.. "${ok[@]}"
bad "--repo must be OWNER/NAME" -- --repo 'octo/wid gets' "${ok[@]}"
for number in 12a 0 -1 012 1234567890 ' 42' 4.2; do
  bad "--pr must be a pull-request number" -- --repo "$repo" --pr "$number" --body "$scratch/body"
done
bad "--pr NUMBER is required" -- --repo "$repo" --body "$scratch/body"
bad "does not exist" -- --repo "$repo" --pr "$pr" --body "$scratch/no_such_file"
bad "is empty" -- --repo "$repo" --pr "$pr" --body "$scratch/empty"
bad "is a folder" -- --repo "$repo" --pr "$pr" --body "$scratch"
bad "lacks the marker line $marker" -- --repo "$repo" --pr "$pr" --body "$scratch/no_marker"
bad "lacks the marker line <!-- perfgate-comment:nightly -->" -- "${ok[@]}" --repo "$repo" --marker nightly
bad "is not UTF-8 text" -- --repo "$repo" --pr "$pr" --body "$scratch/latin1"
bad "has 65537 characters" -- --repo "$repo" --pr "$pr" --body "$scratch/too_long"
bad "GITHUB_TOKEN is not set" -GITHUB_TOKEN -- --repo "$repo" "${ok[@]}"
bad "GITHUB_TOKEN is not set" GITHUB_TOKEN= -- --repo "$repo" "${ok[@]}"
bad "GITHUB_TOKEN holds characters" 'GITHUB_TOKEN=abc"def' -- --repo "$repo" "${ok[@]}"
bad "unknown option '--repository'" -- --repository "$repo" "${ok[@]}"
bad "--repo is given twice" -- --repo "$repo" --repo "$repo" "${ok[@]}"
bad "--marker must be" -- --repo "$repo" "${ok[@]}" --marker 'two words'
bad "--head-sha must be 40 hexadecimal digits" -- --repo "$repo" "${ok[@]}" --head-sha abc123
bad "GITHUB_API_URL must be an http:// or https:// URL" GITHUB_API_URL=ftp://example.com -- --repo "$repo" "${ok[@]}"
bad "PERFGATE_RETRY_DELAY must be a number" PERFGATE_RETRY_DELAY=soon -- --repo "$repo" "${ok[@]}"
expect_requests
[[ $(jq -n --rawfile body "$scratch/longest" '$body | length') == 65536 && $(wc -c <"$scratch/longest") -gt 65536 ]] ||
  fail "the longest body is not 65536 characters in more bytes"
post -- --repo "$repo" --pr "$pr" --body "$scratch/longest"
expect_rc 0 "a body of 65536 characters"
expect_outcome created
cmp -s <(body_of "$outcome_id") "$scratch/longest" || fail "the 65536-character body was not stored as it is"
passed "g. $bad_inputs bad inputs: exit 2, one line, no request; 65536 characters (in more bytes) are accepted"

# h. The token is in no command line: curl, run through a shim that records its arguments, never gets it there.
start
mkdir "$dir/bin"
real_curl=$(command -v curl)
cat >"$dir/bin/curl" <<EOF
#!/usr/bin/env bash
printf '%s\n' "\$@" >>"$dir/curl_arguments"
exec "$real_curl" "\$@"
EOF
chmod +x "$dir/bin/curl"
post PATH="$dir/bin:$PATH" -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 0 "a run through the curl shim"
expect_outcome created
[[ $(grep -c -- '^--url$' "$dir/curl_arguments") == 2 ]] || fail "the curl shim did not see the script's 2 requests"
! grep -qF -- "$token" "$dir/curl_arguments" || fail "the token is on curl's command line"
! grep -qi -- 'authorization' "$dir/curl_arguments" || fail "an Authorization header is on curl's command line"
passed "h. the token is on no command line (curl's arguments recorded through a shim)"

# i. Answers that are not what the API promises (an HTML page with 200): exit 1 with one line, not a jq error.
start --fail 200 --fail-method GET
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1 "a run whose GET is answered with HTML"
expect_one_error "the comment was not posted: GET $comments_path?per_page=100 answered HTTP 200 with something that is not a list of comments"
expect_requests "GET $comments_path"
post -- --repo "$repo" --pr "$pr" --body "$scratch/body" --head-sha "$head_sha"
expect_rc 1 "a run whose pull-request GET is answered with HTML"
expect_one_error "GET /repos/$repo/pulls/$pr answered HTTP 200 without the pull request's head commit"
stop
start --fail 200 --fail-method POST
post -- --repo "$repo" --pr "$pr" --body "$scratch/body"
expect_rc 1 "a run whose POST is answered with HTML"
expect_one_error "the comment was not posted: POST $comments_path answered HTTP 200 without the comment's id"
passed "i. HTML where JSON is due: exit 1, one line"

echo "$me: all 9 cases pass"
