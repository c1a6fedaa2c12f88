cmake_minimum_required(VERSION 3.25)
# A bad argument must end recon with exit code 2 and exactly one line on stderr, and write nothing (not even
# the output folder).
# Usage: cmake -DRECON=<path> -DOUT=<dir> "-DARGS=<;-separated arguments>" -P cli_bad_input.cmake
# The arguments arrive with their separators escaped (so that -D keeps them one value): one argument each again.
string(REPLACE "\\;" ";" ARGS "${ARGS}")
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${RECON}" reconstruct ${ARGS} --out "${OUT}" --progress off
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got ${rc}; stderr: ${err}")
endif()
string(STRIP "${err}" err)
string(FIND "${err}" "\n" newline)
if(NOT newline EQUAL -1 OR err STREQUAL "")
  message(FATAL_ERROR "expected one error line, got: ${err}")
endif()
# Refused for the reason the test names, not because its arguments reached recon run together as one word.
if(err MATCHES "not expected: .*;")
  message(FATAL_ERROR "the arguments reached recon as one word: ${err}")
endif()
if(NOT err MATCHES "^recon: error: ")
  message(FATAL_ERROR "expected the line to start with 'recon: error: ', got: ${err}")
endif()
if(EXISTS "${OUT}")
  message(FATAL_ERROR "a refused run created its output folder ${OUT}")
endif()
