#!/usr/bin/env bash
# perfgate's command line teaches: `perfgate help` is short and lists every command; each command's help has an
# example that uses only options the command accepts, and its exit codes; a mistyped command or option gets the
# nearest name and the command's help; a command to run is only taken after --.
# Usage: cli_help.sh PERFGATE
set -uo pipefail
perfgate=$1
failures=0
fail() { echo "DEFECT $*"; failures=$((failures + 1)); }

overview=$("$perfgate" help) || fail "perfgate help exits $?"
(( $(wc -l <<<"$overview") <= 30 )) || fail "perfgate help prints $(wc -l <<<"$overview") lines (at most 30)"
[[ $("$perfgate" --help) == "$overview" ]] || fail "perfgate --help differs from perfgate help"
commands=$(sed -n '/^Commands:/,/^$/p' <<<"$overview" | awk 'NF > 1 && $1 != "Commands:" { print $1 }')
(( $(wc -w <<<"$commands") >= 9 )) || fail "perfgate help lists only: $commands"
# Each command's help lists the exit codes it can give, not every code of the table: compare never ends inconclusive
# nor fails to reach a store; history can fail to reach one.
compare_codes=$("$perfgate" help compare | grep '^Exit codes:')
[[ $compare_codes != *"3 inconclusive"* && $compare_codes != *"5 store"* ]] || fail "compare's help lists codes it never gives: $compare_codes"
"$perfgate" help history | grep -q '^Exit codes: .*5 store unavailable' || fail "history's help does not list 5 (store unavailable)"
for command in $commands; do
  help=$("$perfgate" help "$command") || { fail "perfgate help $command exits $?"; continue; }
  [[ $("$perfgate" "$command" --help) == "$help" ]] || fail "perfgate $command --help differs from perfgate help $command"
  grep -q "^Exit codes: .*0 pass.*2 bad input.*4 internal error" <<<"$help" || fail "$command's help has no exit codes"
  examples=$(sed -n '/^Example:/,/^$/p' <<<"$help" | grep '^  perfgate ')
  [[ -n $examples ]] || { fail "$command's help has no example"; continue; }
  while read -r example; do
    [[ $example == "perfgate $command "* ]] || fail "$command's example runs another command: $example"
    for option in $(sed 's/ -- .*//' <<<"$example" | grep -o -- ' --[a-z-]*' ); do
      grep -qE -- "^ *(-[a-z],)?$option([ ,=]|$)" <<<"$help" || fail "$command's example uses $option, which $command does not accept"
    done
  done <<<"$examples"
done
expect_error() {  # expect_error TEXT ARGS...: exit 2 and one error line holding TEXT
  local text=$1 err status
  shift
  err=$("$perfgate" "$@" 2>&1 >/dev/null)
  status=$?
  (( status == 2 )) || fail "perfgate $* exits $status, not 2"
  (( $(wc -l <<<"$err") == 1 )) || fail "perfgate $* prints $(wc -l <<<"$err") error lines"
  grep -qF -- "$text" <<<"$err" || fail "perfgate $*: '$text' not in: $err"
}
expect_error "did you mean 'compare'?" compar --results x --baseline y
expect_error "did you mean 'update'?" help updat
expect_error "did you mean --baseline? (see perfgate help compare)" compare --results x --baselin y
expect_error "did you mean --out-dir?" report --out x
# Words after -- that a command does not take are refused as written, never as the parser's placeholders.
expect_error "not expected: extra" comment --verdicts x -- extra
expect_error "a command to run goes after --" update --baseline b --reason r --results a stray
expect_error "(see perfgate help)" 
# Every numeric option of every command, as its help lists it: a floating-point one refuses nan, -nan and inf
# (a range compared with NaN is never false), a whole number refuses a fraction; each with the option named.
numeric=0
for command in $commands; do
  while read -r option type; do
    case $type in
      FLOAT) bad_values=(nan -nan inf) ;;
      INT) bad_values=(1.5 nan) ;;
      *) continue ;;
    esac
    numeric=$((numeric + 1))
    # --option=VALUE: the parser takes a separate "-nan" for an option of its own, before any check of the value.
    for value in "${bad_values[@]}"; do expect_error "$option" "$command" "$option=$value"; done
  done < <("$perfgate" help "$command" | sed -nE 's/^ +(-[a-z], )?(--[a-z-]+)(,--[a-z-]+)* ([A-Z]+)\b.*/\2 \4/p')
done
(( numeric >= 27 )) || fail "only $numeric numeric options found in the commands' help"
# An exit code option ("0, or LOW to 255"): 0 and LOW get past the option's check, LOW - 1 and 256 do not.
exit_codes=0
for command in $commands; do
  while read -r option low; do
    exit_codes=$((exit_codes + 1))
    for good in 0 "$low" 255; do
      err=$("$perfgate" "$command" "$option=$good" 2>&1 >/dev/null)
      [[ $err != *"$option"* ]] || fail "perfgate $command $option=$good is refused: $err"
    done
    expect_error "$option" "$command" "$option=$((low - 1))"
    expect_error "$option" "$command" "$option=256"
  done < <("$perfgate" help "$command" | sed -nE 's/^ +(--[a-z-]+) INT:\(\{0\}\) OR \(INT in \[([0-9]+) - 255\]\).*/\1 \2/p')
done
(( exit_codes >= 2 )) || fail "only $exit_codes exit-code options (0, or a range) found in the commands' help"
echo "cli help: $numeric numeric options refused bad values, $failures defects"
(( failures == 0 ))
