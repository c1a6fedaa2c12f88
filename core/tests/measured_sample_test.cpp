// Contract: a sample's disc, box, earlier discs and target are derived once (recon::MeasuredSample) and read by the
// trainer and both objectives: the optimized pipeline draws each sample's disc once per run, whatever the memory, the
// learning-rate rule or the number of initialisation candidates; the union kept from sample to sample is the union of
// the earlier discs drawn from their centres, bit for bit; and a sample's tensors are never changed by the next one.
#include "disc_draw_count.h"  // core/src
#include "recon/aperture.h"
#include "recon/measured_sample.h"
#include "recon/measurement.h"
#include "recon/noise.h"
#include "recon/pipeline.h"
#include "recon/progressive_trainer.h"
#include "recon/runtime.h"
#include "recon/sampling.h"
#include "recon/targets.h"
#include "recon/trainer.h"
#include "test_util.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <vector>

namespace {

constexpr int64_t kSamples = 6;

recon::ReconstructionProblem problem() {
  recon::ReconstructionProblem p;
  p.ground_truth = recon::synthetic_target(recon::TargetKind::planet, 16, 64);
  p.object_size = 16;
  p.radius = 6.0;
  p.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, kSamples, 32.0));
  return p;
}

recon::TrainerOptions options() {
  recon::TrainerOptions o;
  o.init_steps = 3;
  o.steps_per_sample = 4;
  o.init_target = recon::InitTarget::first_measurement;  // the first sample's disc shapes it
  o.pipeline.kind = recon::PipelineKind::optimized;
  return o;
}

// Sample k of problem(), its previous reconstruction the ground truth; no earlier centres (the caller's).
recon::SampleSetup sample_of(const recon::ReconstructionProblem& p, int64_t k) {
  recon::SampleSetup setup;
  setup.ground_truth = p.ground_truth;
  setup.previous_reconstruction = p.ground_truth;
  setup.center = p.centers[static_cast<size_t>(k)];
  setup.radius = p.radius;
  setup.first = k == 0;
  setup.index = k;
  return setup;
}

// Discs drawn by one reconstruct() of problem() with `o`.
int64_t discs_drawn_by_run(const recon::TrainerOptions& o) {
  recon::seed_everything(0);
  recon::ProgressiveDecoder decoder(recon::DecoderOptions(64, 16));
  const int64_t before = recon::detail::discs_drawn();
  (void)recon::reconstruct(decoder, problem(), o);
  return recon::detail::discs_drawn() - before;
}

}  // namespace

TEST(measured_sample, the_optimized_pipeline_draws_each_samples_disc_once_per_run) {
  auto o = options();
  EXPECT_EQ(discs_drawn_by_run(o), kSamples) << "previous-reconstruction memory";
  o.isolated_learning_rate = 1e-4;  // the overlap with the earlier discs is read too
  EXPECT_EQ(discs_drawn_by_run(o), kSamples) << "with the overlap's learning rate";
  o.memory = recon::SampleMemory::measured_data;
  EXPECT_EQ(discs_drawn_by_run(o), kSamples) << "measured-data memory";
  o.init_candidates = 3;  // every candidate's trial fits the first measurement
  EXPECT_EQ(discs_drawn_by_run(o), kSamples) << "three initialisation candidates";
}

TEST(measured_sample, the_reference_pipeline_draws_the_disc_again_at_every_step_as_prism_does) {
  auto o = options();
  o.pipeline.kind = recon::PipelineKind::reference;
  o.loss_threshold = 0.0;  // every sample takes its whole budget: 4 updates, 5 evaluations (the last stops)
  const int64_t drawn = discs_drawn_by_run(o);
  EXPECT_GE(drawn, kSamples + kSamples * o.steps_per_sample);
}

TEST(measured_sample, the_union_kept_from_sample_to_sample_is_the_union_of_the_earlier_discs) {
  const auto p = problem();
  at::Tensor coverage;
  for (int64_t k = 0; k < kSamples; ++k) {
    auto setup = sample_of(p, k);
    const recon::MeasuredSample kept(setup, coverage);
    setup.previous_centers.assign(p.centers.begin(), p.centers.begin() + k);
    const recon::MeasuredSample drawn(setup);
    SCOPED_TRACE(k);
    EXPECT_TRUE(at::equal(kept.disc(), recon::disc_mask(64, setup.center, p.radius)));
    EXPECT_TRUE(at::equal(kept.disc(), drawn.disc()));
    EXPECT_TRUE(at::equal(kept.target(), recon::measure_amplitude(p.ground_truth, kept.disc())));
    if (k == 0) {
      EXPECT_FALSE(kept.earlier().defined());
      EXPECT_EQ(kept.covered(), 0.0);
    } else {
      EXPECT_TRUE(at::equal(kept.earlier(), recon::union_mask(64, setup.previous_centers, p.radius)));
      EXPECT_TRUE(at::equal(kept.earlier(), drawn.earlier()));
      EXPECT_EQ(kept.covered(), drawn.covered());
    }
    const auto box = recon::disc_bounding_box(64, setup.center, p.radius);
    EXPECT_EQ(kept.disc_box().row0, box.row0);
    EXPECT_EQ(kept.disc_box().col1, box.col1);
    const auto earlier_before = kept.earlier().defined() ? kept.earlier().clone() : at::Tensor();
    coverage = kept.coverage_after();
    if (earlier_before.defined()) {
      EXPECT_TRUE(at::equal(kept.earlier(), earlier_before)) << "the next union changed this one";
    }
    const auto alone = kept.alone();
    EXPECT_TRUE(alone.setup().first);
    EXPECT_FALSE(alone.earlier().defined());
    EXPECT_TRUE(alone.disc().is_same(kept.disc()));
    EXPECT_TRUE(alone.target().is_same(kept.target()));
  }
}

// The target is the noisy measurement of its own sample (noise stream = the sample's index), and the overlap is the
// exact fraction of the disc's pixels inside the earlier discs' union, both against independent computations.
TEST(measured_sample, the_target_carries_its_samples_noise_and_the_overlap_is_the_exact_fraction) {
  const auto p = problem();
  recon::NoiseOptions noise;
  noise.enabled = true;
  noise.snr_db = 20.0;
  noise.seed = 4;
  at::Tensor coverage;
  for (int64_t k = 0; k < kSamples; ++k) {
    SCOPED_TRACE(k);
    auto setup = sample_of(p, k);
    setup.noise = noise;
    const recon::MeasuredSample sample(setup, coverage);
    const auto disc = recon::disc_mask(64, setup.center, p.radius);
    const auto clean = recon::measure_amplitude(p.ground_truth, disc);
    EXPECT_TRUE(at::equal(sample.target(), recon::add_measurement_noise(clean, noise, static_cast<uint64_t>(k))));
    EXPECT_FALSE(at::equal(sample.target(), clean));
    if (k > 0) {
      const std::vector<recon::Center> earlier(p.centers.begin(), p.centers.begin() + k);
      const auto inside = disc.logical_and(recon::union_mask(64, earlier, p.radius)).sum().item<double>();
      EXPECT_EQ(sample.covered(), inside / disc.sum().item<double>());
    }
    coverage = sample.coverage_after();
  }
}

// With precompute_sample off the optimized objective draws the disc again at every step, as the reference does; a
// measured-data row fits its own measurement alone (no earlier discs, no previous reconstruction).
TEST(measured_sample, per_step_masks_draw_the_disc_each_step_and_measured_data_rows_stand_alone) {
  auto o = options();
  o.pipeline.switches = o.pipeline.switches.without("precompute_sample");
  o.loss_threshold = 0.0;
  EXPECT_GE(discs_drawn_by_run(o), kSamples + kSamples * o.steps_per_sample);
  const auto p = problem();
  auto setup = sample_of(p, 3);
  setup.previous_centers.assign(p.centers.begin(), p.centers.begin() + 3);
  const recon::MeasuredSample sample(setup);
  const auto alone = sample.alone();
  EXPECT_FALSE(alone.setup().previous_reconstruction.defined());
  // Alone, the old row is the new row: the row objective of a measured-data memory.
  const auto objective = recon::make_objective(alone, recon::PipelineOptions{});
  auto object = at::rand({1, 1, 16, 16});
  const auto losses = (*objective)(object);
  EXPECT_TRUE(at::equal(losses.old_row, losses.new_row));
}

TEST(measured_sample, refuses_a_later_sample_without_the_earlier_discs_and_a_radius_outside_the_limits) {
  recon::SampleSetup setup;
  setup.ground_truth = recon::synthetic_target(recon::TargetKind::planet, 16, 64);
  setup.radius = 6.0;
  setup.first = false;
  EXPECT_THROW(recon::MeasuredSample(setup, at::Tensor()), std::invalid_argument);
  EXPECT_THROW(recon::MeasuredSample(setup, at::zeros({64, 64})), std::invalid_argument);  // float, not a mask
  // A later sample without the reconstruction its old row fits.
  EXPECT_THROW(recon::MeasuredSample(setup, at::zeros({64, 64}, at::kBool)), std::invalid_argument);
  setup.previous_reconstruction = at::zeros({64, 64});
  EXPECT_NO_THROW(recon::MeasuredSample(setup, at::zeros({64, 64}, at::kBool)));
  setup.first = true;
  setup.radius = 0.5;
  EXPECT_THROW(recon::MeasuredSample{setup}, std::invalid_argument);
}
