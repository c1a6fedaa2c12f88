cmake_minimum_required(VERSION 3.25)
# tools/measure-quality on a tiny dense scene, both pipelines, two seeds, into a folder whose name has a space: every
# row and both settings' pipeline gaps are printed, the median of two seeds is their mean, and a run that recon
# refuses gives one error line and exit code 2.
# Usage: cmake -DTOOL=<tools/measure-quality> -DRECON=<path> -DOUT=<dir> -P measure_quality.cmake
file(REMOVE_RECURSE "${OUT}")
set(tiny -- --grid 64 --samples 2 --steps 1 --init-steps 1)
set(ok "${OUT}/with space")  # the job list quotes every path
execute_process(COMMAND "${TOOL}" --scenario dense --seeds 2 --settings "robust prism-compat" --recon "${RECON}"
                        --out "${ok}" ${tiny}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "measure-quality exited ${rc}: ${err}")
endif()
foreach(row "robust +reference " "prism-compat +optimized " "prism-compat +reference "
            "robust +optimized - reference: median gap -?[0-9.]+ dB; per seed -?[0-9.]+ -?[0-9.]+; largest"
            "prism-compat +optimized - reference: median gap ")
  if(NOT out MATCHES "${row}")
    message(FATAL_ERROR "measure-quality's output lacks a row matching '${row}':\n${out}")
  endif()
endforeach()
foreach(seed 0 1)
  if(NOT EXISTS "${ok}/prism-compat/reference/seed${seed}/metrics.json")
    message(FATAL_ERROR "no metrics.json for prism-compat/reference/seed${seed}")
  endif()
endforeach()
# With two seeds the median is the mean of the two PSNRs the row prints (to its two decimals).
if(NOT out MATCHES "robust +optimized +([0-9.]+) ([0-9.]+) \\| ([0-9.]+) \\|")
  message(FATAL_ERROR "no robust optimized row:\n${out}")
endif()
set(first "${CMAKE_MATCH_1}")
set(second "${CMAKE_MATCH_2}")
set(median "${CMAKE_MATCH_3}")
execute_process(COMMAND jq -n "(${first} + ${second}) / 2 - ${median} | fabs < 0.0101" OUTPUT_VARIABLE agrees)
if(NOT agrees MATCHES "true")
  message(FATAL_ERROR "the median of ${first} and ${second} is printed as ${median}")
endif()

execute_process(COMMAND "${TOOL}" --seeds 1 --settings robust --pipelines optimized --recon "${RECON}"
                        --out "${OUT}/refused" -- --grid 100
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(STRIP "${err}" err)
if(NOT rc EQUAL 2 OR err MATCHES "\n" OR NOT err MATCHES "^measure-quality: 1 of 1 reconstructions failed.*--grid 100")
  message(FATAL_ERROR "a refused run should give one line and exit 2, got ${rc}: '${err}'")
endif()
