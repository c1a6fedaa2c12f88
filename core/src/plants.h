#pragma once
// Planted regressions: deliberate defects that exist only to prove the gate fails when the work is wrong or slower
// (tools/selftest-gate, ctest label `selftest`). Compiled in only when the build is configured with
// RECON_GATE_PLANTS=ON (off in every preset, and then planted() is a constant false the compiler folds away);
// at most one plant is active per process, named by the environment variable RECON_PLANT.
//
// The plants, each where a real regression of its kind would sit (names listed once, in core/CMakeLists.txt):
// - fft_rows_twice: the fused physics runs N wasted real row FFTs per step (recomputing row spectra it has: same
//   results, no allocation — FFTW's in-place complex transforms of this length allocate a buffer per call here, and a
//   plant that allocates is caught by the heap count alone);
// - adam_skips_rank_one: the fused Adam skips the factored first-layer weight whenever its gradient is one rank-one
//   term (every initialisation step; the two-row progressive steps reach it densely and still update it);
// - lr_ignored_after_first_sample: samples after the first train at TrainerOptions' default learning rate;
// - pupil_radius_off_by_one: the optimized pipeline's pupils are one pixel too wide (the reference's are right);
// - decoder_output_copied: the optimized objective copies the decoder's output once more per step.
#include <string_view>

namespace recon::detail {

#ifdef RECON_GATE_PLANTS
/// True when RECON_PLANT names `plant`. An unknown RECON_PLANT value ends the process with one error line (a
/// misspelt plant must not test nothing).
bool planted(std::string_view plant);
#else
constexpr bool planted(std::string_view) { return false; }
#endif

}  // namespace recon::detail
