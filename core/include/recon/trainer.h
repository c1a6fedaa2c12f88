#pragma once
/// The progressive trainer: an initialisation phase, then one fitting phase per sub-aperture sample.
#include "recon/choices.h"
#include "recon/aperture.h"
#include "recon/decoder.h"
#include "recon/fit_plateau.h"
#include "recon/losses.h"
#include "recon/metrics.h"
#include "recon/noise.h"
#include "recon/pipeline.h"
#include "recon/sample_overlap.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace recon {

/// Example: TrainerOptions{}.steps_per_sample = 50 with init_steps = 100 — the seed workload's budgets.
struct TrainerOptions {
  int64_t init_steps = 100;         ///< image-space L1 steps toward the init target (PRISM: up to 10,000)
  InitTarget init_target = InitTarget::disc;
  int64_t steps_per_sample = 50;    ///< gradient-step budget per sample (PRISM: 1,000)
  double loss_threshold = 1e-3;     ///< a sample stops when its row losses fall below this, tested before the update
  double learning_rate = 1e-3;      ///< Adam's learning rate in the progressive phase (for a fully overlapped
                                    ///< sub-aperture when isolated_learning_rate is set)
  /// When > 0: the learning rate of a sample whose disc earlier discs overlap by less than kOverlapped of its area.
  /// Overlapping measurements pin each other's phase, so they are fitted at learning_rate; an isolated one has
  /// nothing pinning its phase and is fitted gently. 0: learning_rate always.
  double isolated_learning_rate = 0.0;
  double init_learning_rate = 1e-3; ///< Adam's learning rate in the initialisation phase
  bool fresh_optimizer_per_sample = true;  ///< PRISM: new Adam moments every sample; false keeps them across samples
  bool plateau_stop = false;        ///< PRISM's adaptive stop: a sample also ends on a persistent plateau
  /// A stop that reads the measurements only: a sample also ends, before an update, once the loss of its own
  /// measurement (the new row) has stopped improving (recon/fit_plateau.h). Off by default (window = 0).
  FitPlateauOptions fit_plateau;
  SampleMemory memory = SampleMemory::previous_reconstruction;
  int64_t replayed_per_step = 1;   ///< measured_data: earlier sub-apertures added to each step's loss
  /// When > 0 (and < 1): the reconstruction is the exponential average, with this decay per step, of the decoder's
  /// outputs at the progressive phase's steps (bias-corrected: a weighted mean of the outputs so far), not the last
  /// output. 0: the decoder's output after the last step, as PRISM.
  double output_average = 0.0;
  /// Multi-start initialisation. When > 1, the initialisation is run from this many draws of the decoder's weights
  /// (its own, then fresh ones from the global generator, so a run stays a function of its seed), and each candidate
  /// then takes a trial fit of the first measurement alone: the first sample's objective and learning rate,
  /// steps_per_sample updates with fresh Adam moments, whatever the threshold. The run goes on from the candidate
  /// whose trial ends with the lowest loss, restored to its weights as the initialisation left them (the first sample
  /// then repeats the trial's steps). The choice reads the measurements only. 1: the decoder's own weights, as PRISM.
  int64_t init_candidates = 1;
  /// Screening of a multi-start initialisation: a cheap first round that decides which candidates take the full
  /// initialisation and trial. Each candidate, in draw order, takes `init_steps` initialisation steps and then a trial
  /// of `trial_steps` updates (as above, shorter); the `survivors` candidates whose short trials end lowest (the
  /// earliest on a tie) are restored to their draws and take the full initialisation and trial, and the choice is made
  /// among them as without screening (a NaN loss ranks last in both rounds). A single survivor takes the full
  /// initialisation only: there is nothing left to compare. survivors = 0: no screening, every candidate takes the full
  /// initialisation and trial; survivors >= init_candidates: every one does, after its short fits (a measurement of the
  /// screen, not a saving). Holds min(survivors, init_candidates) + 1 copies of the decoder's weights.
  struct CandidateScreen {
    int64_t survivors = 0;
    int64_t init_steps = 0;
    int64_t trial_steps = 0;
  };
  CandidateScreen candidate_screen;
  LossOptions loss;
  NoiseOptions noise;
  PipelineOptions pipeline;
};

/// The measured object and where it is sampled.
struct ReconstructionProblem {
  at::Tensor ground_truth;      ///< [N, N] float32 amplitude (see prepare_target)
  int64_t object_size = 0;      ///< S
  std::vector<Center> centers;  ///< in acquisition order
  double radius = 20.0;         ///< sub-aperture radius, k-space pixels
};

/// Outcome of one sample, measured on the reconstruction after its last step (the average when averaging).
struct SampleRecord {
  int64_t index = 0;
  Center center;
  int64_t steps = 0;        ///< gradient updates applied
  double covered = 0.0;     ///< fraction of this sub-aperture's disc inside the union of the earlier ones
                            ///< (measured only when isolated_learning_rate is on; 0 otherwise)
  double learning_rate = 0.0;  ///< the rate its steps ran at, read back from the optimizer (the planned rate
                               ///< when the sample took no step)
  double first_loss = 0.0;  ///< total loss at the sample's first evaluation
  double loss_old = 0.0;    ///< last evaluated row losses
  double loss_new = 0.0;
  bool converged = false;   ///< stopped by the threshold (or the plateau rule) before the budget
  bool plateaued = false;   ///< stopped by TrainerOptions::fit_plateau before the budget
  QualityReport quality;
  double seconds = 0.0;
};

/// One candidate of a multi-start initialisation (TrainerOptions::init_candidates).
struct InitCandidate {
  int64_t init_steps = 0;  ///< steps of its last initialisation: the full one, or the screen's when screened out
  double init_loss = 0.0;  ///< image-space loss after them
  double trial_loss = 0.0; ///< the first measurement's loss after its trial fit: what the choice compares (NaN when it
                           ///< took no full trial: screened out, or the screen's only survivor)
  double screen_loss = std::numeric_limits<double>::quiet_NaN();  ///< its short trial's loss (NaN without screening)
  bool screened_out = false;  ///< the screen ranked it below the survivors: it took no full initialisation
};

/// The index of the candidate a multi-start initialisation goes on from: of those not screened out, the lowest trial
/// loss (a NaN ranks last), the earliest on a tie. Throws std::invalid_argument when no candidate is left.
size_t best_candidate(const std::vector<InitCandidate>& candidates);

struct ReconstructionResult {
  at::Tensor reconstruction;  ///< [N, N] float32 on the CPU: the decoder output after the last sample, or the
                              ///< average of its outputs (TrainerOptions::output_average), whatever the device
  int64_t init_steps = 0;     ///< of the chosen candidate
  double init_loss = 0.0;      ///< of the chosen candidate
  std::vector<InitCandidate> init_candidates;  ///< in draw order; empty without a multi-start initialisation
  int64_t chosen_candidate = 0;                ///< index into init_candidates
  std::vector<SampleRecord> samples;
  int64_t total_steps = 0;    ///< every update the run made: init steps (every candidate's, and their trials) + sample steps
  double seconds_init = 0.0;   ///< the whole initialisation, every candidate and trial included
  double seconds_total = 0.0;
};

/// Final PSNR minus the first sample's: what the samples after the first added (dB; 0 with one sample).
double trajectory_gain_db(const ReconstructionResult& result);

/// Time to quality: seconds from the start of the run (initialisation included) until the end of the first sample
/// whose PSNR is within `within_db` of the final one. Speed of a reconstruction that does not improve is no speed:
/// this is the figure to put beside milliseconds per step.
double seconds_to_quality(const ReconstructionResult& result, double within_db = 0.5);

/// Progress of a run, reported after every step; the core never prints.
struct Progress {
  enum class Phase { init, sample } phase = Phase::init;
  int64_t sample = 0, samples = 0;
  int64_t step = 0, steps = 0;
  double loss = 0.0;      ///< the step's total loss, before its update
  double loss_new = 0.0;  ///< sample phase: the loss of the sample's own measurement (the new row), which
                          ///< TrainerOptions::fit_plateau reads; init phase: the loss
};
using ProgressCallback = std::function<void(const Progress&)>;

/// Runs PRISM's algorithm on `decoder` (already initialised, e.g. after torch::manual_seed). Throws
/// std::invalid_argument when the problem and the decoder disagree (grid or object size, no centres), or the pipeline
/// cannot run on its device (ExecutionPlan). The decoder is moved to the pipeline's device (options.pipeline.device)
/// and stays there. Drives a ProgressiveTrainer (recon/progressive_trainer.h) through the initialisation and every
/// sample's step budget.
ReconstructionResult reconstruct(ProgressiveDecoder& decoder, const ReconstructionProblem& problem,
                                 const TrainerOptions& options, const ProgressCallback& on_progress = {});

}  // namespace recon
