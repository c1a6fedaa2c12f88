#include "recon/settings.h"

#include "recon/preset_candidates.h"

#include <stdexcept>

namespace recon {

// Why each robust choice: one line each here; the measurements behind them, and the options rejected, are in the
// decision records named (docs/decisions/).
// - sigmoid output: the measurement is a modulus, so x and −x fit equally well; a non-negative output removes the
//   sign branch, and its range matches the [0, 1] ground truth (2026-11-22-robust-settings-preset.md).
// - initialise toward the first (DC) sub-aperture image at learning rate 0.05, not PRISM's binary disc at 1e-3: every
//   seed starts from the same low-pass picture of the object, and 100 steps reach it (same record).
// - unnormalised row losses: normalised by its target's mean, every faint outer disc weighs as much as the bright
//   centre and late samples overwrite the picture instead of refining it (same record).
// - measured-data memory, one earlier sub-aperture replayed per step (round robin): PRISM's old row fits the previous
//   reconstruction, which anchors the fit to itself after the initialisation, and the dense scene stops learning
//   (2026-11-22-measured-data-memory.md).
// - progressive learning rate 1e-2 for a sub-aperture that earlier ones overlap, 3e-3 for an isolated one:
//   overlapping measurements pin each other's phase and take a fast fit; an isolated disc has nothing pinning its
//   phase (2026-11-23-learning-rate-by-overlap.md, 2026-11-23-fresh-adam-moments-per-sample.md).
// - the reconstruction is the exponential average of the outputs over the steps, decay 0.99 (about the last 100
//   steps, as Deep Image Prior does): the average keeps what the steps agree on, not one step's noise
//   (2026-11-23-average-of-outputs.md).
// - multi-start initialisation, 8 candidates: the decoder draw decides much of where a run ends, and the fit of the
//   first measurement predicts it; the cost is 8 initialisations (2026-11-23-multi-start-initialisation.md).
// - no threshold stop: PRISM's 1e-3 threshold is meant for normalised losses; unnormalised losses start below it, so
//   the budgets are run in full (2026-11-22-robust-settings-preset.md).
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
      trainer.init_candidates = preset_init_candidates(preset);
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
      trainer.init_candidates = preset_init_candidates(preset);  // PRISM initialises the seed's own draw
      break;
  }
}

}  // namespace recon
