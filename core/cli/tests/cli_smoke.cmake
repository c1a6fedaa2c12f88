cmake_minimum_required(VERSION 3.25)
# Runs a tiny reconstruction through the recon command and checks what it leaves behind.
# Usage: cmake -DRECON=<path> -DOUT=<dir> -P cli_smoke.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${RECON}" reconstruct --target planet --grid 64 --object 16 --radius 4 --samples 3
                        --steps 3 --init-steps 3 --seed 1 --compare-epie --epochs 2 --out "${OUT}" --progress off
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
foreach(key psnr_db ssim rmse_pct steps seconds_total seconds_per_step parameters pipeline seed threads trajectory
            trajectory_gain_db seconds_to_quality memory epie psnr_minus_epie_db init_candidates chosen_candidate
            init_candidate_fits error_unmeasured_fraction error_disc_phase_fraction neighbour_overlap blas_kernels)
  string(JSON value ERROR_VARIABLE missing GET "${json}" ${key})
  if(missing)
    message(FATAL_ERROR "metrics.json lacks '${key}'")
  endif()
endforeach()
string(JSON fraction GET "${json}" error_unmeasured_fraction)
if(NOT fraction MATCHES "^[0-9.eE+-]+$" OR fraction LESS 0 OR fraction GREATER 1)
  message(FATAL_ERROR "error_unmeasured_fraction ${fraction} is not a fraction")
endif()
# The share of the error a phase per disc removes: a fraction.
string(JSON phase_share GET "${json}" error_disc_phase_fraction)
if(NOT phase_share MATCHES "^[0-9.eE+-]+$" OR phase_share LESS 0 OR phase_share GREATER 1)
  message(FATAL_ERROR "error_disc_phase_fraction ${phase_share} is not a fraction")
endif()
# ePIE's is of its own reconstruction: the same value to the last digit means one reconstruction was measured twice.
string(JSON epie_fraction GET "${json}" epie error_unmeasured_fraction)
if(epie_fraction STREQUAL fraction)
  message(FATAL_ERROR "ePIE's error_unmeasured_fraction equals the deep prior's (${fraction})")
endif()
# psnr_minus_epie_db is the deep prior's PSNR minus ePIE's: positive exactly when the deep prior is ahead.
string(JSON psnr GET "${json}" psnr_db)
string(JSON epie_psnr GET "${json}" epie psnr_db)
string(JSON difference GET "${json}" psnr_minus_epie_db)
if((psnr GREATER epie_psnr AND NOT difference GREATER 0) OR (psnr LESS epie_psnr AND NOT difference LESS 0))
  message(FATAL_ERROR "psnr_minus_epie_db ${difference} has the wrong sign for ${psnr} dB against ePIE's ${epie_psnr} dB")
endif()
# Every update counts: the robust default's 8 initialisation candidates take 3 init steps and a 3-step trial each.
string(JSON candidates GET "${json}" init_candidates)
string(JSON fits LENGTH "${json}" init_candidate_fits)
if(NOT candidates EQUAL 8 OR NOT fits EQUAL 8)
  message(FATAL_ERROR "expected the default's 8 initialisation candidates, got ${candidates} (${fits} fits)")
endif()
string(JSON steps GET "${json}" steps)
if(NOT steps EQUAL 57)
  message(FATAL_ERROR "expected 8x(3 init + 3 trial) + 3x3 sample steps = 57, got ${steps}")
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

# The BLAS kernels are recorded as run: OPENBLAS_CORETYPE, the user's choice, wins over recon's own (empty where the
# BLAS is not OpenBLAS).
execute_process(COMMAND ${CMAKE_COMMAND} -E env OPENBLAS_CORETYPE=Prescott "${RECON}" reconstruct --target planet
                        --grid 64 --object 16 --radius 4 --samples 2 --steps 1 --init-steps 1 --init-candidates 1
                        --out "${OUT}/sse3_kernels" --progress off
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recon with OPENBLAS_CORETYPE=Prescott failed (${rc}): ${err}")
endif()
file(READ "${OUT}/sse3_kernels/metrics.json" json)
string(JSON kernels GET "${json}" blas_kernels)
if(NOT kernels STREQUAL "Prescott" AND NOT kernels STREQUAL "")
  message(FATAL_ERROR "with OPENBLAS_CORETYPE=Prescott, metrics.json records the BLAS kernels as '${kernels}'")
endif()

# A scenario supplies the geometry and budgets the command line does not give.
execute_process(COMMAND "${RECON}" reconstruct --scenario dense --samples 2 --steps 1 --init-steps 1
                        --out "${OUT}/scenario" --progress off
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--scenario dense failed (${rc}): ${err}")
endif()
file(READ "${OUT}/scenario/metrics.json" json)
string(JSON grid GET "${json}" grid)
string(JSON radius GET "${json}" radius)
string(JSON samples GET "${json}" samples)
string(JSON scenario GET "${json}" scenario)
if(NOT grid EQUAL 256 OR NOT radius EQUAL 24 OR NOT samples EQUAL 2 OR NOT scenario STREQUAL "dense")
  message(FATAL_ERROR "--scenario dense --samples 2 gave grid ${grid}, radius ${radius}, samples ${samples}, scenario ${scenario}")
endif()

# ePIE reconstructs from the same measurements as the deep prior, detector noise included: with --snr-db its result
# must differ from the noise-free one, alone (--algorithm epie) and beside the deep prior (--compare-epie).
function(epie_psnr out_var)
  execute_process(COMMAND "${RECON}" reconstruct --target planet --grid 64 --object 16 --radius 4 --samples 5
                          --steps 1 --init-steps 1 --seed 1 --epochs 5 --progress off ${ARGN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "recon ${ARGN} failed (${rc}): ${err}")
  endif()
  list(FIND ARGN --out at)
  math(EXPR at "${at} + 1")
  list(GET ARGN ${at} dir)
  file(READ "${dir}/metrics.json" json)
  if("--compare-epie" IN_LIST ARGN)
    string(JSON psnr GET "${json}" epie psnr_db)
  else()
    string(JSON psnr GET "${json}" psnr_db)
  endif()
  set(${out_var} "${psnr}" PARENT_SCOPE)
endfunction()
epie_psnr(clean --algorithm epie --out "${OUT}/epie_clean")
epie_psnr(noisy --algorithm epie --snr-db 10 --out "${OUT}/epie_noisy")
epie_psnr(compared_clean --compare-epie --out "${OUT}/compare_clean")
epie_psnr(compared_noisy --compare-epie --snr-db 10 --out "${OUT}/compare_noisy")
if(clean STREQUAL noisy OR compared_clean STREQUAL compared_noisy)
  message(FATAL_ERROR "ePIE ignored --snr-db: ${clean} vs ${noisy} dB alone, ${compared_clean} vs ${compared_noisy} dB compared")
endif()
if(NOT noisy STREQUAL compared_noisy)
  message(FATAL_ERROR "ePIE alone (${noisy} dB) and beside the deep prior (${compared_noisy} dB) saw different measurements")
endif()
# Photon counting reaches the measurements too: a few photons give ePIE another picture, a vast count nearly the
# noise-free one; metrics.json records the count, the read noise and the reference intensity.
epie_psnr(few_photons --algorithm epie --photons 30 --read-noise 1 --out "${OUT}/epie_photons")
epie_psnr(many_photons --algorithm epie --photons 1e12 --out "${OUT}/epie_many_photons")
if(NOT few_photons LESS clean OR NOT few_photons LESS many_photons)
  message(FATAL_ERROR "ePIE gave ${few_photons} dB with 30 photons, ${many_photons} dB with 1e12 and ${clean} dB noise-free: "
                      "expected the fewest photons lowest")
endif()
file(READ "${OUT}/epie_photons/metrics.json" json)
string(JSON photons GET "${json}" photons)
string(JSON read_noise GET "${json}" read_noise)
string(JSON reference TYPE "${json}" photon_reference_intensity)
if(NOT photons EQUAL 30 OR NOT read_noise EQUAL 1 OR NOT reference STREQUAL "NUMBER")
  message(FATAL_ERROR "photon noise recorded as photons ${photons}, read noise ${read_noise}, reference ${reference}")
endif()
file(READ "${OUT}/epie_clean/metrics.json" json)
string(JSON photons_type TYPE "${json}" photons)
if(NOT photons_type STREQUAL "NULL")
  message(FATAL_ERROR "a run without --photons records photons as ${photons_type}")
endif()

# --refine-epochs continues from the deep prior's reconstruction with ePIE: the deep prior's figures move under
# "refine" unchanged (the same run as compare_clean above), and the output's are the refined picture's.
file(READ "${OUT}/compare_clean/metrics.json" json)
string(JSON unrefined TYPE "${json}" refine)
string(JSON deep_prior_psnr GET "${json}" psnr_db)
if(NOT unrefined STREQUAL "NULL")
  message(FATAL_ERROR "a run without --refine-epochs reports a refinement (${unrefined})")
endif()
epie_psnr(refined --refine-epochs 4 --out "${OUT}/refined")
file(READ "${OUT}/refined/metrics.json" json)
string(JSON refine_epochs GET "${json}" refine epochs)
string(JSON before GET "${json}" refine deep_prior psnr_db)
string(JSON gain GET "${json}" refine psnr_gain_db)
if(NOT refine_epochs EQUAL 4 OR NOT before STREQUAL deep_prior_psnr)
  message(FATAL_ERROR "refine: ${refine_epochs} epochs from the deep prior's ${before} dB; expected 4 from ${deep_prior_psnr} dB")
endif()
if(refined STREQUAL before OR (refined GREATER before AND NOT gain GREATER 0) OR (refined LESS before AND NOT gain LESS 0))
  message(FATAL_ERROR "refining ${before} dB by 4 epochs reported ${refined} dB with a gain of ${gain} dB")
endif()
# The figures of the picture written: the refined one's error spectrum and SSIM, not the deep prior's.
string(JSON fraction_before GET "${json}" refine deep_prior error_unmeasured_fraction)
string(JSON fraction_after GET "${json}" error_unmeasured_fraction)
string(JSON ssim_before GET "${json}" refine deep_prior ssim)
string(JSON ssim_after GET "${json}" ssim)
if(fraction_before STREQUAL fraction_after OR ssim_before STREQUAL ssim_after)
  message(FATAL_ERROR "the refined run reports the deep prior's figures: unmeasured fraction ${fraction_after}, SSIM ${ssim_after}")
endif()
# Runs recon on the 5-sample planet scene with ARGN into ${OUT}/<name> and sets out_var to its metrics.json.
function(small_scene_metrics out_var name)
  execute_process(COMMAND "${RECON}" reconstruct --target planet --grid 64 --object 16 --radius 4 --samples 5 --seed 1
                          --progress off --out "${OUT}/${name}" ${ARGN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "recon ${ARGN} failed (${rc}): ${err}")
  endif()
  file(READ "${OUT}/${name}/metrics.json" json)
  set(${out_var} "${json}" PARENT_SCOPE)
endfunction()
# It starts from the deep prior's picture: ePIE from its own start (ones) for the same 4 epochs ends elsewhere.
small_scene_metrics(json epie_4_epochs --algorithm epie --epochs 4)
string(JSON from_ones GET "${json}" psnr_db)
if(from_ones STREQUAL refined)
  message(FATAL_ERROR "refining gave ${refined} dB, exactly ePIE's own 4 epochs from ones: the deep prior's picture was not its start")
endif()
# The classical solvers run by name with their published defaults, recorded in metrics.json: rPIE at step 1 with a
# binary pupil is ePIE (the same picture), mPIE's damped step and momentum end elsewhere.
small_scene_metrics(rpie_json rpie_4_epochs --algorithm rpie --epochs 4)
small_scene_metrics(mpie_json mpie_4_epochs --algorithm mpie --epochs 4)
string(JSON rpie_psnr GET "${rpie_json}" psnr_db)
string(JSON mpie_psnr GET "${mpie_json}" psnr_db)
string(JSON mpie_step GET "${mpie_json}" solver object_step)
string(JSON mpie_friction GET "${mpie_json}" solver friction)
string(JSON mpie_algorithm GET "${mpie_json}" algorithm)
if(NOT mpie_step EQUAL 0.25 OR NOT mpie_friction EQUAL 0.7 OR NOT mpie_algorithm STREQUAL "mpie")
  message(FATAL_ERROR "mPIE recorded as ${mpie_algorithm} with step ${mpie_step}, friction ${mpie_friction}; expected mpie, 0.25, 0.7")
endif()
if(NOT rpie_psnr STREQUAL from_ones OR mpie_psnr STREQUAL from_ones)
  message(FATAL_ERROR "4 epochs: ePIE ${from_ones} dB, rPIE ${rpie_psnr} dB (expected the same), mPIE ${mpie_psnr} dB (expected another)")
endif()
# It refines against the measurements the deep prior saw, detector noise included. Without deep-prior steps (and one
# candidate) the deep prior's output is the seeded decoder's, the same with or without noise; the refined one is not.
set(unlearned --steps 0 --init-steps 0 --init-candidates 1 --refine-epochs 4)
small_scene_metrics(clean_json refined_clean ${unlearned})
small_scene_metrics(noisy_json refined_noisy ${unlearned} --snr-db 10)
string(JSON unlearned_clean GET "${clean_json}" psnr_db)
string(JSON unlearned_noisy GET "${noisy_json}" psnr_db)
string(JSON clean_before GET "${clean_json}" refine deep_prior psnr_db)
string(JSON noisy_before GET "${noisy_json}" refine deep_prior psnr_db)
if(NOT clean_before STREQUAL noisy_before OR unlearned_clean STREQUAL unlearned_noisy)
  message(FATAL_ERROR "with --snr-db 10 the unlearned start went ${clean_before} -> ${noisy_before} dB and the refined picture "
                      "${unlearned_clean} -> ${unlearned_noisy} dB: the refinement must see the noise and the start must not")
endif()

# Every geometry and budget option given on the command line wins over the scenario's value.
execute_process(COMMAND "${RECON}" reconstruct --scenario dense --target planet --grid 64 --object 16 --radius 5
                        --pattern random --samples 2 --steps 1 --init-steps 2 --out "${OUT}/scenario_overridden"
                        --progress off
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--scenario dense with every option given failed (${rc}): ${err}")
endif()
file(READ "${OUT}/scenario_overridden/metrics.json" json)
foreach(pair "target;planet" "grid;64" "object;16" "radius;5" "pattern;random" "samples;2" "init_steps;2")
  list(GET pair 0 key)
  list(GET pair 1 given)
  string(JSON value GET "${json}" ${key})
  if(NOT value STREQUAL given AND NOT (value MATCHES "^[0-9.]+$" AND value EQUAL given))
    message(FATAL_ERROR "--scenario dense overrode the given --${key} ${given} with ${value}")
  endif()
endforeach()
string(JSON first_steps GET "${json}" trajectory 0 steps)
if(NOT first_steps EQUAL 1)
  message(FATAL_ERROR "--scenario dense overrode the given --steps 1: the first sample took ${first_steps}")
endif()

# Every training option given on the command line wins over the preset's value and is recorded as given (rates that
# binary floating point holds exactly, so the recorded text is the given one). Each preset
# gets values that differ from both presets' own (or from its own, where there are only two choices).
foreach(preset robust prism-compat)
  if(preset STREQUAL "robust")
    set(opposite --normalize-loss true --memory previous-reconstruction --init-target disc)
    set(opposite_recorded "normalize_loss=ON" "memory=previous-reconstruction" "init_target=disc")
  else()
    set(opposite --normalize-loss false --memory measured-data --init-target first-measurement)
    set(opposite_recorded "normalize_loss=OFF" "memory=measured-data" "init_target=first-measurement")
  endif()
  small_scene_metrics(json "options_over_${preset}" --settings ${preset} --steps 1 --init-steps 1
                      --keep-optimizer true --lr 0.001953125 --init-lr 0.00390625 --isolated-lr 0.0009765625 --loss-threshold 0.25
                      --replayed-per-step 2 --output-average 0.5 --init-candidates 2 --activation softplus ${opposite})
  foreach(pair "fresh_optimizer_per_sample=OFF" "learning_rate=0.001953125" "init_learning_rate=0.00390625"
               "isolated_learning_rate=0.0009765625" "loss_threshold=0.25" "replayed_per_step=2" "output_average=0.5"
               "init_candidates=2" "output_activation=softplus" ${opposite_recorded})
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 key)
    list(GET pair 1 given)
    string(JSON value GET "${json}" ${key})
    if(NOT value STREQUAL given)
      message(FATAL_ERROR "--settings ${preset}: the given ${key} ${given} was recorded as ${value}")
    endif()
  endforeach()
endforeach()

# A screen reaches the trainer: with 4 candidates and 1 survivor, three are screened out (no full trial: null), the
# survivor is the chosen one, and metrics.json states the screen.
execute_process(COMMAND "${RECON}" reconstruct --target planet --grid 64 --object 16 --radius 4 --samples 2 --steps 2
                        --init-steps 3 --seed 1 --init-candidates 4 --candidate-screen 1,2,1 --out "${OUT}/screened" --progress off
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recon --candidate-screen exited ${rc}: ${err}")
endif()
file(READ "${OUT}/screened/metrics.json" json)
string(JSON survivors GET "${json}" candidate_screen survivors)
string(JSON chosen GET "${json}" chosen_candidate)
string(JSON count LENGTH "${json}" init_candidate_fits)
if(NOT survivors EQUAL 1 OR NOT count EQUAL 4)
  message(FATAL_ERROR "candidate_screen.survivors ${survivors} and ${count} candidate fits, expected 1 and 4")
endif()
set(out_count 0)
foreach(i RANGE 3)
  string(JSON screened_out GET "${json}" init_candidate_fits ${i} screened_out)
  string(JSON trial_type TYPE "${json}" init_candidate_fits ${i} trial_loss)
  string(JSON screen_type TYPE "${json}" init_candidate_fits ${i} screen_loss)
  if(NOT trial_type STREQUAL "NULL" OR NOT screen_type STREQUAL "NUMBER")
    message(FATAL_ERROR "candidate ${i}: trial_loss is ${trial_type}, screen_loss ${screen_type}; expected no full trial and a screen loss")
  endif()
  if(screened_out)
    math(EXPR out_count "${out_count} + 1")
  elseif(NOT i EQUAL chosen)
    message(FATAL_ERROR "candidate ${i} survived the screen but candidate ${chosen} was chosen")
  endif()
endforeach()
if(NOT out_count EQUAL 3)
  message(FATAL_ERROR "${out_count} candidates screened out, expected 3 of 4 with one survivor")
endif()
# Without a screen the field is null.
string(JSON screen_type TYPE "${json}" candidate_screen)
file(READ "${OUT}/metrics.json" plain)
string(JSON plain_type TYPE "${plain}" candidate_screen)
if(NOT plain_type STREQUAL "NULL")
  message(FATAL_ERROR "candidate_screen is ${plain_type} in a run without a screen")
endif()

# The measurement-only sample stop reaches the trainer: at a margin of 1 every sample ends after WINDOW updates, is
# marked plateaued, and metrics.json states the rule; without it the field is null and no sample is marked.
execute_process(COMMAND "${RECON}" reconstruct --target planet --grid 64 --object 16 --radius 4 --samples 3 --steps 5
                        --init-steps 2 --seed 1 --init-candidates 1 --fit-plateau 2,1 --out "${OUT}/fit_plateau" --progress off
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recon --fit-plateau exited ${rc}: ${err}")
endif()
file(READ "${OUT}/fit_plateau/metrics.json" json)
string(JSON window GET "${json}" fit_plateau window)
string(JSON min_fall GET "${json}" fit_plateau min_fall)
if(NOT window EQUAL 2 OR NOT min_fall EQUAL 1)
  message(FATAL_ERROR "fit_plateau recorded as window ${window}, min_fall ${min_fall}; expected 2 and 1")
endif()
foreach(i RANGE 2)
  string(JSON steps GET "${json}" trajectory ${i} steps)
  string(JSON plateaued GET "${json}" trajectory ${i} plateaued)
  if(NOT steps EQUAL 2 OR NOT plateaued)
    message(FATAL_ERROR "sample ${i} took ${steps} updates (plateaued: ${plateaued}); expected 2 of 5, plateaued")
  endif()
endforeach()
string(JSON plain_type TYPE "${plain}" fit_plateau)
string(JSON plain_plateaued GET "${plain}" trajectory 0 plateaued)
if(NOT plain_type STREQUAL "NULL" OR plain_plateaued)
  message(FATAL_ERROR "a run without --fit-plateau records fit_plateau as ${plain_type}, its first sample plateaued ${plain_plateaued}")
endif()
