cmake_minimum_required(VERSION 3.25)
# Runs a tiny reconstruction through the recon command and checks what it leaves behind.
# Usage: cmake -DRECON=<path> -DOUT=<dir> -P cli_smoke.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${RECON}" reconstruct --target planet --grid 64 --object 16 --radius 4 --samples 3
                        --steps 3 --init-steps 3 --seed 1 --out "${OUT}" --progress off
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recon exited ${rc}: ${err}")
endif()
foreach(png reconstruction ground_truth error_map kspace_coverage)
  if(NOT EXISTS "${OUT}/${png}.png")
    message(FATAL_ERROR "missing ${png}.png")
  endif()
endforeach()
file(READ "${OUT}/metrics.json" json)
foreach(key psnr_db ssim rmse_pct steps seconds_total seconds_per_step parameters pipeline seed threads trajectory)
  string(JSON value ERROR_VARIABLE missing GET "${json}" ${key})
  if(missing)
    message(FATAL_ERROR "metrics.json lacks '${key}'")
  endif()
endforeach()
string(JSON steps GET "${json}" steps)
if(NOT steps EQUAL 12)
  message(FATAL_ERROR "expected 3 init + 3x3 sample steps = 12, got ${steps}")
endif()
string(JSON samples LENGTH "${json}" trajectory)
if(NOT samples EQUAL 3)
  message(FATAL_ERROR "expected 3 trajectory entries, got ${samples}")
endif()

# The PNG it wrote is a valid target in turn: read, prepared and reconstructed like any user image.
execute_process(COMMAND "${RECON}" reconstruct --target "${OUT}/ground_truth.png" --grid 64 --object 16 --radius 4
                        --samples 2 --steps 2 --init-steps 2 --out "${OUT}/from_png" --progress off
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${OUT}/from_png/metrics.json")
  message(FATAL_ERROR "reconstructing from a PNG file failed (${rc}): ${err}")
endif()
