#include "recon/settings.h"

#include <stdexcept>

namespace recon {

// Why each robust choice (measured on the seed workload with the europa image, seeds 0–4, optimized pipeline;
// numbers in the README's accuracy section):
// - sigmoid output: the measurement is a modulus, so x and −x fit equally well; a non-negative output removes
//   the sign branch, and its range matches the [0, 1] ground truth.
// - initialise toward the first (DC) sub-aperture image instead of PRISM's binary disc: every seed starts from
//   the same low-pass picture of the object instead of from a shape unrelated to it.
// - initialisation learning rate 0.05: at 1e-3 (PRISM's) 100 steps leave some seeds far from the target
//   (image-space loss 0.33–0.47 against 0.16); at 0.05 all of seeds 0–7 reach 0.16–0.18.
// - unnormalised row losses: PRISM divides each row by its target's mean, so the faint outer discs get the same
//   weight as the bright centre and every late sample pulls the image away (PSNR fell from ~23 dB after
//   sample 3 to ~15 dB after sample 20 on every seed); unnormalised, the old (cumulative) row dominates and
//   late samples refine instead of overwrite.
// - measured-data memory, one earlier sub-aperture replayed per step (round robin): PRISM's old row fits the previous
//   reconstruction through the union of pupils, so after the initialisation the fit is anchored to itself and the
//   new row cannot move it (dense scene, seed 0: 11.38 dB after sample 1, 11.41 after sample 60); with each step also
//   fitting an earlier sub-aperture's own measurement, every measurement keeps acting (27.0 dB, +15.5 dB over the
//   samples). Replaying 3 per step was worse on the dense scene (22.9 dB) and no better on europa (22.2 dB).
// - progressive learning rate 1e-2 for a sub-aperture earlier ones overlap, 3e-3 for an isolated one (session 9,
//   seeds 0–4): overlapping measurements pin each other's phase, so they take a fast fit (dense scene median
//   26.4 -> 31.2 dB and every seed's gain >= 10.6 dB, where 3e-3 left seeds 3 and 4 at +4.2 and +0.9 dB; the partial
//   scene 11.5 -> 23.0 dB, whose discs overlap by only 4-38 %); an isolated disc has nothing pinning its phase, and
//   1e-2 there is noisy (europa seed 0: 17.8 against 22.2 dB), so the seed workload keeps 3e-3 (unchanged: europa
//   median 22.0, USAF SSIM median 0.53). Lower isolated rates with Adam's moments kept (5e-4) narrowed europa's seed
//   spread (2.2 -> 1.6 dB) but stopped USAF learning (SSIM 0.25, gain ~0), and kept moments cost the partial scene
//   8 dB.
// - the reconstruction is the exponential average of the outputs over the steps, decay 0.99 (≈ the last 100 steps;
//   Deep Image Prior averages its outputs the same way; session 11, seeds 0–4, numbers in the README): each step's
//   output carries the noise of that step's update and of the one row it replays, and the average keeps what the
//   steps agree on. Dense median 31.2 -> 31.6 dB (smallest gain 10.6 -> 15.5), partial 23.0 -> 24.3, europa
//   22.0 -> 23.4 with the first-to-last gain positive on four seeds of five (negative on all five before), USAF SSIM
//   median 0.53 -> 0.52 (ePIE 0.45). Europa's seed spread widened (2.2 -> 3.6 dB): seed 2, poor from its
//   initialisation, gains less from the average than the others.
// - multi-start initialisation, 8 candidates: the seed's decoder draw decides much of where a run ends (europa seed 2
//   ended at 20.3 dB with SSIM 0.38, blotched by wrongly phased isolated bands, against 22.5-24.0 for seeds 0, 1, 3, 4),
//   and how well a draw fits the first measurement after the first sample's steps predicts it (session 12, seeds 0-4:
//   the two lowest fits gave the two best finals on the dense, partial and europa scenes). Choosing the best fit of
//   8 draws (optimized, seeds 0-4): europa spread 3.6 -> 1.8 dB (lowest SSIM 0.38 -> 0.63), dense median 31.6 ->
//   33.4 dB (lowest 27.0 -> 30.0), partial 24.3 -> 30.3 (lowest 20.8 -> 26.8), USAF SSIM median 0.52 -> 0.48 (lowest
//   0.07 -> 0.45). 4 draws gave the same europa spread but left a dense seed at 26.9 dB. The cost is 8
//   initialisations and trials (europa 20 s -> 28 s per run).
// - no threshold stop: PRISM's 1e-3 threshold is meant for normalised losses; unnormalised losses start below
//   it, so the budgets are run in full instead.
void apply_preset(SettingsPreset preset, DecoderOptions& decoder, TrainerOptions& trainer) {
  switch (preset) {
    case SettingsPreset::robust:
      decoder.output_activation(OutputActivation::sigmoid);
      trainer.init_target = InitTarget::first_measurement;
      trainer.init_learning_rate = 0.05;
      trainer.loss.normalize = false;
      trainer.loss_threshold = 0.0;
      trainer.memory = SampleMemory::measured_data;
      trainer.replayed_per_step = 1;
      trainer.learning_rate = 1e-2;
      trainer.isolated_learning_rate = 3e-3;
      trainer.output_average = 0.99;
      trainer.init_candidates = 8;
      break;
    case SettingsPreset::prism_compat:
      decoder.output_activation(OutputActivation::none);
      trainer.init_target = InitTarget::disc;
      trainer.init_learning_rate = 1e-3;
      trainer.learning_rate = 1e-3;
      trainer.isolated_learning_rate = 0.0;  // one rate for every sample, as PRISM
      trainer.loss.normalize = true;
      trainer.loss_threshold = 1e-3;
      trainer.fresh_optimizer_per_sample = true;
      trainer.memory = SampleMemory::previous_reconstruction;
      trainer.output_average = 0.0;  // PRISM reports its last output
      trainer.init_candidates = 1;   // PRISM initialises the seed's own draw
      break;
  }
}

}  // namespace recon
