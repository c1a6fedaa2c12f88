#pragma once
// Small deterministic problem builders shared by every suite: the seed workload and its scaled variants.
#include "recon/recon.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace perf {

/// The seed workload's geometry at grid N: S = N/4, r = 20·N/512, Fermat spiral of 20 samples, r_max = N/2.
struct Workload {
  int64_t grid = 512;
  int64_t object = 128;
  double radius = 20.0;
  int64_t samples = 20;
};

inline Workload seed_workload(int64_t grid = 512) {
  Workload w;
  w.grid = grid;
  w.object = grid / 4;
  w.radius = 20.0 * static_cast<double>(grid) / 512.0;
  return w;
}

/// A mid-run training sample (index 10 of 20: both rows active, a cumulative mask of 10 discs).
inline recon::SampleSetup mid_run_sample(const Workload& w) {
  auto centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, w.samples, static_cast<double>(w.grid) / 2.0));
  recon::SampleSetup s;
  s.ground_truth = recon::synthetic_target(recon::TargetKind::usaf, w.object, w.grid);
  s.previous_reconstruction = s.ground_truth * 0.9;
  const int64_t k = w.samples / 2;
  s.previous_centers.assign(centers.begin(), centers.begin() + k);
  s.center = centers[static_cast<size_t>(k)];
  s.radius = w.radius;
  s.first = false;
  s.index = k;
  return s;
}

inline recon::ReconstructionProblem problem(const Workload& w, recon::TargetKind target = recon::TargetKind::usaf) {
  recon::ReconstructionProblem p;
  p.ground_truth = recon::synthetic_target(target, w.object, w.grid);
  p.object_size = w.object;
  p.radius = w.radius;
  p.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, w.samples, static_cast<double>(w.grid) / 2.0));
  return p;
}

/// A seeded decoder with the optimized pipeline's decoder switches applied (or none, for the reference).
inline recon::ProgressiveDecoder decoder_for(const Workload& w, const recon::PipelineOptions& pipeline, uint64_t seed = 0) {
  recon::seed_everything(seed);
  recon::ProgressiveDecoder d(recon::DecoderOptions(w.grid, w.object));
  recon::configure_decoder(d->options, pipeline);
  return d;
}

/// One seeded reconstruction with the default (robust) settings and the given budgets. `trained`, when given,
/// receives the decoder as the reconstruction left it. `init_candidates` > 0 overrides the preset's multi-start
/// initialisation (1: the seed's own decoder draw is the one trained).
inline recon::ReconstructionResult reconstruct_with_defaults(const recon::ReconstructionProblem& problem, int64_t grid,
                                                             int64_t object, recon::PipelineKind kind, uint64_t seed,
                                                             int64_t init_steps, int64_t steps_per_sample,
                                                             recon::ProgressiveDecoder* trained = nullptr,
                                                             int64_t init_candidates = 0) {
  recon::TrainerOptions options;
  options.pipeline.kind = kind;
  options.init_steps = init_steps;
  options.steps_per_sample = steps_per_sample;
  recon::DecoderOptions decoder_options(grid, object);
  recon::apply_preset(recon::SettingsPreset::robust, decoder_options, options);
  if (init_candidates > 0) options.init_candidates = init_candidates;
  recon::seed_everything(seed);
  recon::ProgressiveDecoder decoder(decoder_options);
  auto result = recon::reconstruct(decoder, problem, options);
  if (trained != nullptr) *trained = decoder;
  return result;
}

/// The trainer (recon::ProgressiveTrainer, the one reconstruct() drives) positioned at sample `sample` of `problem`,
/// ready to step: seeded decoder with the preset's options, no initialisation, the samples before it begun and ended
/// without steps (their measurements joined, their reconstructions read), sample `sample` begun. step() is the
/// trainer's own step; the loss threshold is 0, so that every timed step updates.
class TrainerAtSample {
 public:
  TrainerAtSample(const recon::ReconstructionProblem& problem, int64_t grid, recon::SettingsPreset preset,
                  const recon::PipelineOptions& pipeline, int64_t sample, uint64_t seed = 0) {
    recon::DecoderOptions decoder_options(grid, problem.object_size);
    recon::TrainerOptions options;
    recon::apply_preset(preset, decoder_options, options);
    options.pipeline = pipeline;
    options.init_steps = 0;
    options.loss_threshold = 0.0;
    recon::seed_everything(seed);
    decoder_ = std::make_unique<recon::ProgressiveDecoder>(decoder_options);
    trainer_ = std::make_unique<recon::ProgressiveTrainer>(*decoder_, problem, options);
    for (int64_t k = 0; k < sample; ++k) {
      trainer_->begin_sample();
      trainer_->end_sample();
    }
    trainer_->begin_sample();
  }

  void step() {
    if (!trainer_->step()) throw std::logic_error("perf::TrainerAtSample: the trainer stopped the sample at threshold 0");
  }
  recon::ProgressiveDecoder& decoder() { return *decoder_; }

 private:
  std::unique_ptr<recon::ProgressiveDecoder> decoder_;  // on the heap: the trainer refers to it, and this class moves
  std::unique_ptr<recon::ProgressiveTrainer> trainer_;  // holds the pipeline's scope while it lives
};

/// PRISM's step (prism-compat: previous-reconstruction memory, normalised rows, lr 1e-3) at sample 10 of the seed
/// workload at grid N: both rows active, a cumulative mask of 10 discs. The gated per-step speedup's workload.
inline TrainerAtSample seed_workload_trainer(const Workload& w, const recon::PipelineOptions& pipeline) {
  return TrainerAtSample(problem(w), w.grid, recon::SettingsPreset::prism_compat, pipeline, w.samples / 2);
}

/// The default settings' step (robust: measured-data memory, the newest row plus one replayed) on a named scenario
/// (recon/scenarios.h) at sample `sample`.
inline TrainerAtSample default_settings_trainer(const std::string& scene_name, recon::PipelineKind kind, int64_t sample) {
  recon::PipelineOptions pipeline;
  pipeline.kind = kind;
  const auto& scene = recon::scenario(scene_name);
  return TrainerAtSample(recon::make_problem(scene), scene.grid, recon::SettingsPreset::robust, pipeline, sample);
}

}  // namespace perf
