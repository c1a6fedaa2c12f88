cmake_minimum_required(VERSION 3.25)
# tools/measure-crossover's CI variant: USAF, two overlaps × two photon levels, one seed, tiny deep-prior budgets.
# Every cell has a deep-prior row and, per classical solver, an equal-time row with at least one and at most the long
# run's epochs; the summary has one row per cell, whose margin and winner match runs.tsv; the heat map draws each
# cell once and renders as a PNG (headless Chromium). Bad arguments give exit code 2 before any run.
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
# Each summary row's margin and winner, recomputed from runs.tsv (one seed: the median and range are that seed's):
# the deep prior's PSNR minus the better classical solver's at equal time; the winner is the side of its sign.
execute_process(COMMAND awk -F "\t" [=[
  NR > 1 { key = "| " $1 " | " sprintf("%.2f", $2) " | " $3 " | " ($4 == "inf" ? "noise-free" : $4) " |"
           if ($6 == "deep prior") dp[key] = $10; else if ($7 == "equal time") eq[key, $6] = $10; keys[key] = 1 }
  END { for (k in keys) { me = eq[k, "mpie"]; ee = eq[k, "epie"]; m = dp[k] - (me > ee ? me : ee)
          w = (m > 0) ? "deep prior" : (me >= ee ? "mPIE" : "ePIE")
          printf "%s\t| %+.2f [%+.2f, %+.2f] | %s |\n", k, m, m, m, w } }]=] "${OUT}/sweep/runs.tsv"
                OUTPUT_VARIABLE expected)
file(STRINGS "${OUT}/sweep/summary.md" summary_rows)
string(REPLACE "\n" ";" expected "${expected}")
foreach(pair IN LISTS expected)
  if(pair STREQUAL "")
    continue()
  endif()
  string(REPLACE "\t" ";" parts "${pair}")
  list(GET parts 0 prefix)
  list(GET parts 1 suffix)
  set(found FALSE)
  foreach(row IN LISTS summary_rows)
    string(FIND "${row}" "${prefix}" at_start)
    string(FIND "${row}" "${suffix}" at_end)
    if(at_start EQUAL 0 AND NOT at_end EQUAL -1)
      set(found TRUE)
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "no summary row '${prefix} … ${suffix}' (the margin and winner recomputed from runs.tsv):\n${out}")
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
