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
