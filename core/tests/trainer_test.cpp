// Contract: the trainer is deterministic for a given seed and thread count, tests convergence before the update,
// honours its budgets, and actually reconstructs (quality rises above the initial disc).
#include "recon/runtime.h"
#include "recon/sampling.h"
#include "recon/settings.h"
#include "recon/targets.h"
#include "recon/trainer.h"
#include "test_util.h"

namespace {

struct Small {
  recon::ReconstructionProblem problem;
  recon::TrainerOptions options;
  recon::DecoderOptions decoder{64, 16};
};

Small small_problem(recon::PipelineKind kind) {
  Small s;
  s.problem.ground_truth = recon::synthetic_target(recon::TargetKind::planet, 16, 64);
  s.problem.object_size = 16;
  s.problem.radius = 4.0;
  s.problem.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 6, 32.0));
  s.options.init_steps = 20;
  s.options.steps_per_sample = 10;
  s.options.pipeline.kind = kind;
  return s;
}

recon::ReconstructionResult run(const Small& s, uint64_t seed) {
  recon::seed_everything(seed);
  recon::ProgressiveDecoder decoder(s.decoder);
  return recon::reconstruct(decoder, s.problem, s.options);
}

TEST(trainer, same_seed_gives_bit_identical_reconstruction) {
  recon::set_threads(1);
  for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
    auto s = small_problem(kind);
    auto a = run(s, 3), b = run(s, 3), c = run(s, 4);
    EXPECT_TRUE(at::equal(a.reconstruction, b.reconstruction)) << recon::to_string(kind);
    EXPECT_FALSE(at::equal(a.reconstruction, c.reconstruction)) << recon::to_string(kind);
  }
}

TEST(trainer, budgets_and_records) {
  auto s = small_problem(recon::PipelineKind::optimized);
  auto r = run(s, 0);
  EXPECT_EQ(r.init_steps, 20);
  ASSERT_EQ(r.samples.size(), 6u);
  for (const auto& rec : r.samples) EXPECT_EQ(rec.steps, 10);
  EXPECT_EQ(r.total_steps, 20 + 60);
  EXPECT_EQ(r.reconstruction.sizes(), (std::vector<int64_t>{64, 64}));
}

TEST(trainer, convergence_is_tested_before_the_update) {
  // With a threshold above any loss, every sample stops at its first evaluation without updating.
  auto s = small_problem(recon::PipelineKind::reference);
  s.options.loss_threshold = 1e9;
  auto r = run(s, 0);
  EXPECT_EQ(r.init_steps, 0);
  for (const auto& rec : r.samples) {
    EXPECT_EQ(rec.steps, 0);
    EXPECT_TRUE(rec.converged);
  }
}

TEST(trainer, progress_callback_sees_every_step) {
  auto s = small_problem(recon::PipelineKind::optimized);
  recon::seed_everything(0);
  recon::ProgressiveDecoder decoder(s.decoder);
  int64_t init_calls = 0, sample_calls = 0;
  recon::reconstruct(decoder, s.problem, s.options, [&](const recon::Progress& p) {
    (p.phase == recon::Progress::Phase::init ? init_calls : sample_calls)++;
  });
  EXPECT_EQ(init_calls, 20);
  EXPECT_EQ(sample_calls, 60);
}

TEST(trainer, every_sample_lowers_its_loss) {
  for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
    auto s = small_problem(kind);
    s.options.steps_per_sample = 30;
    auto r = run(s, 0);
    for (const auto& rec : r.samples) {
      EXPECT_LT(rec.loss_old + rec.loss_new, 0.9 * rec.first_loss) << recon::to_string(kind) << ", sample " << rec.index;
    }
  }
}

TEST(trainer, rejects_inconsistent_problems) {
  auto s = small_problem(recon::PipelineKind::optimized);
  recon::seed_everything(0);
  recon::ProgressiveDecoder decoder(recon::DecoderOptions(64, 32));
  EXPECT_THROW(recon::reconstruct(decoder, s.problem, s.options), std::invalid_argument);
  s.problem.centers.clear();
  recon::ProgressiveDecoder right(s.decoder);
  EXPECT_THROW(recon::reconstruct(right, s.problem, s.options), std::invalid_argument);
}

}  // namespace
