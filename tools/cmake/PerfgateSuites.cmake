# _perfgate_tests_wanted(<caller> <var>): <var> is FALSE when tests were turned off on purpose (include(CTest) with
# BUILD_TESTING=OFF: a packaging build), TRUE otherwise; stops the configure, naming <caller>, when testing is not
# enabled (ctest would find no test and pass) or perfgate::perfgate is missing.
function(_perfgate_tests_wanted caller var)
  if(DEFINED BUILD_TESTING AND NOT BUILD_TESTING)
    set(${var} FALSE PARENT_SCOPE)
    return()
  endif()
  if(NOT CMAKE_TESTING_ENABLED)
    message(FATAL_ERROR "${caller}: testing is not enabled, so ctest would find no test and pass; "
                        "call enable_testing() (or include(CTest)) in the top-level CMakeLists.txt before this call")
  endif()
  if(NOT TARGET perfgate::perfgate)
    message(FATAL_ERROR "${caller}: no perfgate::perfgate (call find_package(perfgate CONFIG) first)")
  endif()
  set(${var} TRUE PARENT_SCOPE)
endfunction()

# perfgate_add_gated_suite(NAME <name> BASELINE <file> COMMAND <benchmark> [args...]
#                          [HARNESS google-benchmark|catch2] [RUNS <n>]
#                          [LABEL <label>] [RESULTS <file>] [TIMEOUT <seconds>])
# Registers two ctest tests for one suite: a Google Benchmark suite, or with HARNESS catch2 a Catch2 test binary
# (COMMAND: the binary and its own arguments), run RUNS times (default 5) by perfgate catch2, each run one repetition
# of each benchmark's mean:
#   <label>.<name>.run      runs COMMAND with --benchmark_out=<RESULTS> (JSON) and the commit it measures in the
#                           results' context (git_sha: HEAD of the calling source folder's repository when the test
#                           runs, -dirty with uncommitted changes; perfgate-run-suite), serially (timings need
#                           the machine);
#   <label>.<name>.compare  perfgate compare --results <RESULTS> --baseline <BASELINE> -- COMMAND, after the run (a
#                           fixture): fails on a regression beyond the baseline's tolerance (printing the update
#                           command that accepts an intended change, which reruns COMMAND) and on bad input (a
#                           missing baseline: with the command that creates it); shows as Skipped, with WARNING lines
#                           in its output, when only an advisory figure is beyond its tolerance (ctest has no
#                           warning state, and an advisory breach must not read as a plain pass).
# LABEL defaults to performance, RESULTS to <build>/results/<name>.json (a relative RESULTS is taken from the
# current binary folder, a relative BASELINE from the current source folder), TIMEOUT to 600 s. COMMAND may name an
# executable target. Create or refresh the baseline with
#   perfgate update --baseline <BASELINE> --reason "..." --track FIELD:DIRECTION:TOLERANCE ... -- COMMAND
# (the compare test prints this command, ready to run, when the baseline is missing). Needs enable_testing() (or
# include(CTest)) before the call, and the target perfgate::perfgate: imported by find_package(perfgate CONFIG), or
# perfgate's own build.
function(perfgate_add_gated_suite)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;BASELINE;LABEL;RESULTS;TIMEOUT;HARNESS;RUNS" "COMMAND")
  foreach(required NAME BASELINE COMMAND)
    if(NOT arg_${required})
      message(FATAL_ERROR "perfgate_add_gated_suite: ${required} is required")
    endif()
  endforeach()
  if(NOT arg_HARNESS)
    set(arg_HARNESS google-benchmark)
  endif()
  if(NOT arg_HARNESS MATCHES "^(google-benchmark|catch2)$")
    message(FATAL_ERROR "perfgate_add_gated_suite(${arg_NAME}): HARNESS is google-benchmark or catch2, not ${arg_HARNESS}")
  endif()
  if(DEFINED arg_RUNS AND NOT arg_HARNESS STREQUAL "catch2")
    message(FATAL_ERROR "perfgate_add_gated_suite(${arg_NAME}): RUNS is for HARNESS catch2 (a Google Benchmark suite "
                        "repeats itself: --benchmark_repetitions in COMMAND)")
  endif()
  if(NOT DEFINED arg_RUNS)
    set(arg_RUNS 5)
  endif()
  if(NOT arg_RUNS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "perfgate_add_gated_suite(${arg_NAME}): RUNS is a whole number from 1, not ${arg_RUNS}")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "perfgate_add_gated_suite(${arg_NAME}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  _perfgate_tests_wanted("perfgate_add_gated_suite(${arg_NAME})" wanted)
  if(NOT wanted)
    return()
  endif()
  if(NOT arg_LABEL)
    set(arg_LABEL performance)
  endif()
  if(NOT arg_RESULTS)
    set(arg_RESULTS "${CMAKE_BINARY_DIR}/results/${arg_NAME}.json")
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  cmake_path(ABSOLUTE_PATH arg_BASELINE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  cmake_path(ABSOLUTE_PATH arg_RESULTS BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  cmake_path(GET arg_RESULTS PARENT_PATH results_folder)
  file(MAKE_DIRECTORY "${results_folder}")
  # The compare test passes the suite's command on to perfgate, for the fixes it prints: a target by its file.
  set(suite_command ${arg_COMMAND})
  list(GET suite_command 0 program)
  if(TARGET ${program})
    list(POP_FRONT suite_command)
    list(PREPEND suite_command "$<TARGET_FILE:${program}>")
  elseif(program MATCHES "/" AND NOT IS_ABSOLUTE "${program}")
    # A relative program path is the test's, relative to this binary folder; the printed fix runs from anywhere.
    cmake_path(ABSOLUTE_PATH program BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    list(POP_FRONT suite_command)
    list(PREPEND suite_command "${program}")
  endif()
  if(arg_HARNESS STREQUAL "catch2")  # perfgate's runner takes Google Benchmark's flags on Catch2's behalf
    list(PREPEND suite_command "$<TARGET_FILE:perfgate::perfgate>" catch2 --runs ${arg_RUNS} --)
  endif()
  set(test "${arg_LABEL}.${arg_NAME}")
  # Through perfgate-run-suite (beside this file, installed or in perfgate's source), which adds the commit measured:
  # the source folder's HEAD when the test runs.
  add_test(NAME ${test}.run
           COMMAND "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/perfgate-run-suite" "${CMAKE_CURRENT_SOURCE_DIR}"
                   ${suite_command} "--benchmark_out=${arg_RESULTS}" --benchmark_out_format=json)
  set_tests_properties(${test}.run PROPERTIES LABELS ${arg_LABEL} RUN_SERIAL ON TIMEOUT ${arg_TIMEOUT}
                       FIXTURES_SETUP ${arg_NAME}_results)
  add_test(NAME ${test}.compare
           COMMAND $<TARGET_FILE:perfgate::perfgate> compare --results "${arg_RESULTS}" --baseline "${arg_BASELINE}"
                   --warning-exit-code 77 -- ${suite_command})
  set_tests_properties(${test}.compare PROPERTIES LABELS ${arg_LABEL} TIMEOUT 60 FIXTURES_REQUIRED ${arg_NAME}_results
                       SKIP_RETURN_CODE 77)
endfunction()

# perfgate_add_gated_command(NAME <name> BASELINE <file> COMMAND <program> [args...]
#                            [RUNS <n>] [WARMUP <n>] [HYPERFINE] [LABEL <label>] [RESULTS <file>] [TIMEOUT <seconds>])
# Gates a whole program, for projects with no benchmark library: perfgate time runs COMMAND (through /bin/sh, each
# argument quoted) RUNS times (default 10) after WARMUP runs (default 1), timed by perfgate or, with HYPERFINE, by
# hyperfine, and records the benchmark <name> with real_time and cpu_time in seconds; then the two tests of
# perfgate_add_gated_suite judge it against BASELINE. COMMAND may name an executable target; a relative program path
# is taken from the current binary folder. The program runs in the current binary folder: give its input files as
# absolute paths (e.g. ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/large.csv).
function(perfgate_add_gated_command)
  cmake_parse_arguments(PARSE_ARGV 0 arg "HYPERFINE" "NAME;BASELINE;LABEL;RESULTS;TIMEOUT;RUNS;WARMUP" "COMMAND")
  foreach(required NAME BASELINE COMMAND)
    if(NOT arg_${required})
      message(FATAL_ERROR "perfgate_add_gated_command: ${required} is required")
    endif()
  endforeach()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "perfgate_add_gated_command(${arg_NAME}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT DEFINED arg_RUNS)
    set(arg_RUNS 10)
  endif()
  if(NOT DEFINED arg_WARMUP)
    set(arg_WARMUP 1)
  endif()
  if(NOT arg_RUNS MATCHES "^[1-9][0-9]*$" OR NOT arg_WARMUP MATCHES "^[0-9]+$")
    message(FATAL_ERROR "perfgate_add_gated_command(${arg_NAME}): RUNS is a whole number from 1 and WARMUP from 0, "
                        "not ${arg_RUNS} and ${arg_WARMUP}")
  endif()
  # The name is the benchmark's in the results (NAME=COMMAND for perfgate time) and the tests': no '=' or spaces.
  if(NOT arg_NAME MATCHES "^[A-Za-z0-9_.+-]+$")
    message(FATAL_ERROR "perfgate_add_gated_command(${arg_NAME}): NAME is letters, digits and _ . + - only")
  endif()
  # The command as one shell text, each word in single quotes (a quote within as '\''): a target by its file, a
  # relative program path from this binary folder.
  set(words "${arg_COMMAND}")  # quoted: an empty argument stays one
  list(GET words 0 program)
  list(POP_FRONT words)
  if(TARGET ${program})
    set(program "$<TARGET_FILE:${program}>")
  elseif(program MATCHES "/" AND NOT IS_ABSOLUTE "${program}")
    cmake_path(ABSOLUTE_PATH program BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(text "")
  foreach(word IN LISTS program words)
    string(REPLACE "'" "'\\''" word "${word}")
    string(APPEND text " '${word}'")
  endforeach()
  string(STRIP "${text}" text)
  set(timer --runs ${arg_RUNS} --warmup ${arg_WARMUP})
  if(arg_HYPERFINE)
    list(APPEND timer --hyperfine)
  endif()
  set(passed NAME ${arg_NAME} BASELINE ${arg_BASELINE})
  foreach(optional LABEL RESULTS TIMEOUT)
    if(arg_${optional})
      list(APPEND passed ${optional} ${arg_${optional}})
    endif()
  endforeach()
  perfgate_add_gated_suite(${passed} COMMAND "$<TARGET_FILE:perfgate::perfgate>" time ${timer} -- "${arg_NAME}=${text}")
endfunction()

# perfgate_add_manifest_gates(MANIFEST <file> [BUILD <folder>] [RESULTS <folder>] [CONTEXT <KEY=VALUE>...])
# Registers one ctest test per judged gate (not bars, not profiles) of a gate manifest (docs/reference/gate-manifest.md):
#   <label>.<name>   perfgate gate --manifest <file> --build <folder> --only <name>: measures, then judges (a
#                    failure, an inconclusive speedup and bad input fail the test; an advisory figure beyond its
#                    tolerance shows as Skipped, with WARNING lines in its output, and so does a gate this host cannot
#                    measure, with its "perfgate: unavailable:" line). Serial (RUN_SERIAL), as timings need the
#                    machine, except cost gates and baseline gates marked "shares_machine": their figures (counts,
#                    accuracy, memory) do not depend on what else runs.
# BUILD (the folder the gates' programs are relative to) defaults to the top-level binary folder, RESULTS to
# <BUILD>/results; CONTEXT entries are recorded in the cost gates' results. A relative MANIFEST is taken from the
# current source folder. The tests' time limit is the gate's timeout_seconds plus its more_seconds plus two minutes for
# judging. CMake reads only each gate's name, kind, label, time limits and shares_machine here; perfgate reads and checks the rest when
# the test runs. Configuring again after the manifest changes is automatic (a configure dependency). A suite moved
# here from perfgate_add_gated_suite has its two tests <label>.<name>.run and .compare renamed <label>.<name>
# (docs/reference/gate-manifest.md, "From perfgate_add_gated_suite to a manifest").
function(perfgate_add_manifest_gates)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "MANIFEST;BUILD;RESULTS" "CONTEXT")
  if(NOT arg_MANIFEST)
    message(FATAL_ERROR "perfgate_add_manifest_gates: MANIFEST is required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "perfgate_add_manifest_gates: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  _perfgate_tests_wanted(perfgate_add_manifest_gates wanted)
  if(NOT wanted)
    return()
  endif()
  cmake_path(ABSOLUTE_PATH arg_MANIFEST BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${arg_MANIFEST}")
    message(FATAL_ERROR "perfgate_add_manifest_gates: no manifest at ${arg_MANIFEST}")
  endif()
  if(NOT arg_BUILD)
    set(arg_BUILD "${CMAKE_BINARY_DIR}")
  endif()
  if(NOT arg_RESULTS)
    set(arg_RESULTS "${arg_BUILD}/results")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${arg_MANIFEST}")
  file(READ "${arg_MANIFEST}" manifest)
  string(JSON version ERROR_VARIABLE error GET "${manifest}" schema_version)
  if(error OR NOT version EQUAL 2)
    message(FATAL_ERROR "${arg_MANIFEST}: not a version 2 gate manifest (schema_version: ${version}${error})")
  endif()
  string(JSON count ERROR_VARIABLE error LENGTH "${manifest}" gates)
  if(error OR count EQUAL 0)
    message(FATAL_ERROR "${arg_MANIFEST}: no gates (${error})")
  endif()
  set(context "")
  foreach(entry IN LISTS arg_CONTEXT)
    list(APPEND context --context "${entry}")
  endforeach()
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name ERROR_VARIABLE error GET "${manifest}" gates ${i} name)
    if(error OR NOT name MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "${arg_MANIFEST}: gates[${i}].name is not a gate name (${name}${error})")
    endif()
    string(JSON kind ERROR_VARIABLE error GET "${manifest}" gates ${i} kind)
    string(JSON label ERROR_VARIABLE label_error GET "${manifest}" gates ${i} label)
    if(kind STREQUAL "bars" OR kind STREQUAL "profile" OR label_error)
      continue()  # bars and profiles are measured by perfgate gate (and shown), never a test
    endif()
    if(NOT label MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "${arg_MANIFEST}: gates[${i}].label '${label}' is not a label")
    endif()
    set(limit 600)
    string(JSON value ERROR_VARIABLE error GET "${manifest}" gates ${i} timeout_seconds)
    if(NOT error)
      string(REGEX REPLACE "\\..*" "" limit "${value}")  # whole seconds (perfgate checks the number itself)
    endif()
    string(JSON value ERROR_VARIABLE error GET "${manifest}" gates ${i} more_seconds)
    if(NOT error)
      string(REGEX REPLACE "\\..*" "" value "${value}")
      math(EXPR limit "${limit} + ${value} + 1")
    endif()
    if(NOT limit MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${arg_MANIFEST}: gate ${name}'s time limits are not numbers of seconds")
    endif()
    math(EXPR limit "${limit} + 120")
    add_test(NAME ${label}.${name}
             COMMAND $<TARGET_FILE:perfgate::perfgate> gate --manifest "${arg_MANIFEST}" --build "${arg_BUILD}"
                     --results-dir "${arg_RESULTS}" --only ${name} --warning-exit-code 77
                     --unavailable-exit-code 77 ${context})
    # Alone on the machine where time is measured. A cost gate counts instructions under callgrind, and a baseline
    # gate with "shares_machine": true judges no timing (perfgate gate refuses one whose baseline holds one): what
    # other tests running beside them do, they do not see, so they share the machine (ctest -j).
    string(JSON shares ERROR_VARIABLE shares_error GET "${manifest}" gates ${i} shares_machine)
    set(serial ON)
    if(kind STREQUAL "cost" OR (NOT shares_error AND shares))
      set(serial OFF)
    endif()
    set_tests_properties(${label}.${name} PROPERTIES LABELS ${label} RUN_SERIAL ${serial} TIMEOUT ${limit} SKIP_RETURN_CODE 77)
    # COST: ctest -j starts the tests it expects to take longest first; without an earlier run's timings (a clean
    # build) it goes by this, so that a long gate sharing the machine starts at once rather than last. Serial gates
    # keep none: they wait for the machine to be free whenever they start.
    if(NOT serial)
      set_tests_properties(${label}.${name} PROPERTIES COST ${limit})
    endif()
  endforeach()
endfunction()
