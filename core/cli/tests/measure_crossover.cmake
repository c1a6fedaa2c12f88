cmake_minimum_required(VERSION 3.25)
# tools/measure-crossover's CI variant: USAF, two overlaps × two photon levels, one seed, tiny deep-prior budgets.
# Every cell has a deep-prior row and, per classical solver, an equal-time row with at least one and at most the long
# run's epochs; the summary has one row per cell with a winner; the heat map draws each cell once and renders as a
# PNG (headless Chromium). Bad arguments give exit code 2 before any run.
# Usage: cmake -DTOOL=<tools/measure-crossover> -DRECON=<path> -DOUT=<dir> -P measure_crossover.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${TOOL}" --seeds 1 --images usaf --overlaps "0 0.43" --photons "1000 inf" --long-epochs 2
                        --recon "${RECON}" --out "${OUT}/sweep" --svg "${OUT}/heatmap.svg" --png "${OUT}/heatmap.png"
                        -- --steps 2 --init-steps 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "measure-crossover exited ${rc}: ${err}")
endif()
file(STRINGS "${OUT}/sweep/runs.tsv" rows)
list(LENGTH rows count)
if(NOT count EQUAL 21)  # a header, then 4 cells × (deep prior + 2 solvers × (equal time, long))
  message(FATAL_ERROR "runs.tsv has ${count} lines, expected 21:\n${rows}")
endif()
set(equal "")
foreach(row IN LISTS rows)
  string(REPLACE "\t" ";" f "${row}")
  list(GET f 6 budget)
  list(GET f 7 epochs)
  if(budget STREQUAL "equal time")
    set(equal "${epochs}")
    if(epochs LESS 1)
      message(FATAL_ERROR "an equal-time row ran no epoch: ${row}")
    endif()
  elseif(budget STREQUAL "long" AND (equal STREQUAL "" OR epochs LESS equal OR epochs LESS 2))
    message(FATAL_ERROR "a long run shorter than its equal-time budget (${equal}) or than --long-epochs: ${row}")
  endif()
endforeach()
foreach(cell "\\| usaf \\| 0.00 \\| 7 \\| 1000 \\|" "\\| usaf \\| 0.00 \\| 7 \\| noise-free \\|"
             "\\| usaf \\| 0.43 \\| 61 \\| 1000 \\|" "\\| usaf \\| 0.43 \\| 61 \\| noise-free \\|")
  if(NOT out MATCHES "${cell}[^\n]*\\| (deep prior|mPIE|ePIE|neither \\(seeds disagree\\)) \\|")
    message(FATAL_ERROR "the summary lacks a row with a winner for '${cell}':\n${out}")
  endif()
endforeach()
file(READ "${OUT}/heatmap.svg" svg)
string(REGEX MATCHALL " dB</text>" labels "${svg}")
list(LENGTH labels drawn)
if(NOT drawn EQUAL 4 OR NOT svg MATCHES "^<svg " OR NOT svg MATCHES "</svg>\n$")
  message(FATAL_ERROR "the heat map draws ${drawn} cells, expected 4, or is not one SVG document:\n${svg}")
endif()

file(READ "${OUT}/heatmap.png" signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "heatmap.png is not a PNG (starts ${signature})")
endif()

foreach(bad "--photons;0" "--overlaps;1.5" "--overlaps;0.95" "--seeds;0" "--images;${OUT}/missing.png")
  execute_process(COMMAND "${TOOL}" ${bad} --recon "${RECON}" --out "${OUT}/refused"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines nlines)
  if(NOT rc EQUAL 2 OR NOT nlines EQUAL 1 OR EXISTS "${OUT}/refused")
    message(FATAL_ERROR "measure-crossover ${bad}: exit ${rc}, ${nlines} error lines, expected 2 and one line, nothing run:\n${err}")
  endif()
endforeach()
