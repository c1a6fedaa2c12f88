#pragma once
// Small deterministic problem builders shared by every suite: the seed workload and its scaled variants.
#include "recon/recon.h"

#include <cstdint>

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
/// receives the decoder as the reconstruction left it.
inline recon::ReconstructionResult reconstruct_with_defaults(const recon::ReconstructionProblem& problem, int64_t grid,
                                                             int64_t object, recon::PipelineKind kind, uint64_t seed,
                                                             int64_t init_steps, int64_t steps_per_sample,
                                                             recon::ProgressiveDecoder* trained = nullptr) {
  recon::TrainerOptions options;
  options.pipeline.kind = kind;
  options.init_steps = init_steps;
  options.steps_per_sample = steps_per_sample;
  recon::DecoderOptions decoder_options(grid, object);
  recon::apply_preset(recon::SettingsPreset::robust, decoder_options, options);
  recon::seed_everything(seed);
  recon::ProgressiveDecoder decoder(decoder_options);
  auto result = recon::reconstruct(decoder, problem, options);
  if (trained != nullptr) *trained = decoder;
  return result;
}

/// The default settings' training step on a named scenario (recon/scenarios.h): a seeded default decoder, the
/// measured-data objective with sub-apertures 0..newest added (the newest row plus one replayed earlier row per
/// step), Adam at the progressive learning rate; holds the pipeline's scope while it lives.
struct DefaultSettingsStep {
  recon::ProgressiveDecoder decoder{nullptr};
  std::shared_ptr<recon::PipelineScope> scope;
  std::shared_ptr<recon::MeasuredDataObjective> rows;
  std::shared_ptr<recon::StepOptimizer> optimizer;

  void operator()() {
    auto losses = (*rows)(*decoder);
    optimizer->zero_grad();
    (losses.old_row + losses.new_row).backward();
    optimizer->step();
  }
};

inline DefaultSettingsStep default_settings_step(const std::string& scene_name, recon::PipelineKind kind, size_t newest,
                                                 uint64_t seed = 0) {
  recon::PipelineOptions pipeline;
  pipeline.kind = kind;
  const auto& scene = recon::scenario(scene_name);
  const auto problem = recon::make_problem(scene);
  recon::DecoderOptions decoder_options(scene.grid, scene.object);
  recon::TrainerOptions trainer;
  recon::apply_preset(recon::SettingsPreset::robust, decoder_options, trainer);
  DefaultSettingsStep step;
  step.scope = std::make_shared<recon::PipelineScope>(pipeline);
  recon::seed_everything(seed);
  step.decoder = recon::ProgressiveDecoder(decoder_options);
  recon::configure_decoder(step.decoder->options, pipeline);
  step.rows = std::make_shared<recon::MeasuredDataObjective>(pipeline, trainer.replayed_per_step);
  for (size_t k = 0; k <= newest; ++k) {
    recon::SampleSetup setup;
    setup.ground_truth = problem.ground_truth;
    setup.center = problem.centers.at(k);
    setup.radius = problem.radius;
    setup.index = static_cast<int64_t>(k);
    setup.loss = trainer.loss;
    setup.noise = trainer.noise;
    step.rows->add(setup);
  }
  step.optimizer = recon::make_optimizer(pipeline, step.decoder, trainer.learning_rate);
  return step;
}

/// One training step as the trainer takes it: loss of both rows (read back, as the trainer does), backward, Adam.
inline void train_step(recon::SampleObjective& objective, recon::ProgressiveDecoder& decoder, recon::StepOptimizer& optimizer) {
  auto losses = objective(*decoder);
  auto total = losses.old_row + losses.new_row;
  volatile double value = total.item<double>();
  (void)value;
  optimizer.zero_grad();
  total.backward();
  optimizer.step();
}

}  // namespace perf
