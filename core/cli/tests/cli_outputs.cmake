cmake_minimum_required(VERSION 3.25)
# A run's five outputs are written all or none. A per-file size limit (a full disk's stand-in that needs no mount)
# lets the first outputs through and stops the largest part-way, so a second run into the same folder fails while
# writing: exit 2, one line naming the file and the cause, the first run's files byte-identical (the ones written
# before the failure included) and no staged file left. A folder where an output file belongs is refused before
# the run. Under umask 027 the outputs have mode 640 (staging creates them 0600, so the mode is set explicitly).
# Usage: cmake -DRECON=<path> -DOUT=<dir> -P cli_outputs.cmake
file(REMOVE_RECURSE "${OUT}")
set(small --target planet --grid 64 --object 16 --radius 4 --samples 2 --steps 1 --init-steps 1 --progress off)
set(outputs reconstruction.png ground_truth.png error_map.png kspace_coverage.png metrics.json)

function(expect_one_error_line rc err what)
  string(STRIP "${err}" err)
  string(FIND "${err}" "\n" newline)
  if(NOT rc EQUAL 2 OR NOT newline EQUAL -1 OR NOT err MATCHES "^recon: error: ")
    message(FATAL_ERROR "${what}: expected exit 2 and one 'recon: error:' line, got ${rc}: ${err}")
  endif()
endfunction()

execute_process(COMMAND "${RECON}" reconstruct ${small} --seed 1 --out "${OUT}/run" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the first run failed (${rc}): ${err}")
endif()
set(largest 0)
foreach(name ${outputs})
  file(SHA256 "${OUT}/run/${name}" before_${name})
  file(SIZE "${OUT}/run/${name}" size_${name})
  if(size_${name} GREATER largest)
    set(largest ${size_${name}})
  endif()
endforeach()
# The limit, in bash's 1 KiB blocks: half the largest output. The first output staged must fit under it, so that
# a writer that renamed each file as it went would have replaced it before the failure.
math(EXPR limit_kib "${largest} / 2048")
math(EXPR limit_bytes "${limit_kib} * 1024")
if(limit_kib LESS 1 OR NOT size_reconstruction.png LESS limit_bytes)
  message(FATAL_ERROR "outputs of ${size_reconstruction.png} to ${largest} bytes: no size limit passes the first and stops the largest")
endif()
execute_process(COMMAND bash -c "trap '' XFSZ; ulimit -f ${limit_kib}; exec \"$0\" \"$@\"" "${RECON}" reconstruct
                        ${small} --seed 2 --out "${OUT}/run"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect_one_error_line("${rc}" "${err}" "a write stopped by the size limit")
if(NOT err MATCHES "cannot write '[^']*/run/[a-z_]+\\.(png|json)': File too large")
  message(FATAL_ERROR "the run failed for another reason than the size limit: ${err}")
endif()
foreach(name ${outputs})
  file(SHA256 "${OUT}/run/${name}" after)
  if(NOT after STREQUAL before_${name})
    message(FATAL_ERROR "${name} changed although the run that wrote it failed: the outputs now mix two runs")
  endif()
endforeach()
file(GLOB staged LIST_DIRECTORIES true "${OUT}/run/.*")
if(staged)
  message(FATAL_ERROR "staged files left behind: ${staged}")
endif()

# A folder named like an output: refused before any work, nothing written beside it.
file(MAKE_DIRECTORY "${OUT}/blocked/metrics.json")
execute_process(COMMAND "${RECON}" reconstruct ${small} --out "${OUT}/blocked" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
expect_one_error_line("${rc}" "${err}" "a folder named metrics.json")
file(GLOB written "${OUT}/blocked/*.png")
if(written OR out MATCHES "PSNR")
  message(FATAL_ERROR "a folder named metrics.json was found only after the run: ${written} ${out}")
endif()

# The outputs get the mode a plain file would get, 0666 less the caller's umask (staging makes them 0600 first).
execute_process(COMMAND bash -c "umask 027; exec \"$0\" \"$@\"" "${RECON}" reconstruct ${small} --out "${OUT}/masked"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run under umask 027 failed (${rc}): ${err}")
endif()
foreach(name ${outputs})
  execute_process(COMMAND stat -c %a "${OUT}/masked/${name}" OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT mode STREQUAL "640")
    message(FATAL_ERROR "${name} has mode ${mode} under umask 027; expected 640")
  endif()
endforeach()
