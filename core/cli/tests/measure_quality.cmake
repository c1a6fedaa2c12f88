cmake_minimum_required(VERSION 3.25)
# tools/measure-quality on a tiny dense scene, both pipelines, two seeds: every row and the pipelines' gap are
# printed, and a run that recon refuses gives one error line and exit code 2.
# Usage: cmake -DTOOL=<tools/measure-quality> -DRECON=<path> -DOUT=<dir> -P measure_quality.cmake
file(REMOVE_RECURSE "${OUT}")
set(tiny -- --grid 64 --samples 2 --steps 1 --init-steps 1)
execute_process(COMMAND "${TOOL}" --scenario dense --seeds 2 --settings "robust prism-compat" --recon "${RECON}"
                        --out "${OUT}/ok" ${tiny}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "measure-quality exited ${rc}: ${err}")
endif()
foreach(row "robust +optimized +[0-9.]+ [0-9.]+ \\| " "robust +reference " "prism-compat +optimized " "prism-compat +reference "
            "robust +optimized - reference: median gap -?[0-9.]+ dB; per seed -?[0-9.]+ -?[0-9.]+; largest")
  if(NOT out MATCHES "${row}")
    message(FATAL_ERROR "measure-quality's output lacks a row matching '${row}':\n${out}")
  endif()
endforeach()
foreach(seed 0 1)
  if(NOT EXISTS "${OUT}/ok/prism-compat/reference/seed${seed}/metrics.json")
    message(FATAL_ERROR "no metrics.json for prism-compat/reference/seed${seed}")
  endif()
endforeach()

execute_process(COMMAND "${TOOL}" --seeds 1 --settings robust --pipelines optimized --recon "${RECON}"
                        --out "${OUT}/refused" -- --grid 100
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(STRIP "${err}" err)
if(NOT rc EQUAL 2 OR err MATCHES "\n" OR NOT err MATCHES "^measure-quality: 1 of 1 reconstructions failed.*--grid 100")
  message(FATAL_ERROR "a refused run should give one line and exit 2, got ${rc}: '${err}'")
endif()
