// Contract: the trainer is deterministic for a given seed and thread count, tests convergence before the update,
// honours its budgets, and actually reconstructs (quality rises above the initial disc).
#include "recon/aperture.h"
#include "recon/measurement.h"
#include "recon/metrics.h"
#include "recon/noise.h"
#include "recon/optimizer.h"
#include "recon/plateau_scheduler.h"
#include "recon/progressive_trainer.h"
#include "recon/runtime.h"
#include "recon/sampling.h"
#include "recon/settings.h"
#include "recon/targets.h"
#include "recon/trainer.h"
#include "test_util.h"
#include "torch_compat.h"  // core/src: the allocator interface of both LibTorch releases

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

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

// The c-th decoder constructed after seeding with `seed`: the draw a multi-start run calls candidate c.
recon::ProgressiveDecoder nth_decoder(uint64_t seed, size_t c, const recon::DecoderOptions& options) {
  recon::seed_everything(seed);
  for (size_t i = 0; i < c; ++i) recon::ProgressiveDecoder discarded(options);
  return recon::ProgressiveDecoder(options);
}

// Counts the bytes LibTorch's CPU allocator is asked for while it is alive, serving them from the allocator it replaced.
class CountingCpuAllocator final : public c10::Allocator {
 public:
  CountingCpuAllocator() : previous_(c10::GetCPUAllocator()) { c10::SetCPUAllocator(this, /*priority=*/0); }
  ~CountingCpuAllocator() override { c10::SetCPUAllocator(previous_, /*priority=*/0); }
  CountingCpuAllocator(const CountingCpuAllocator&) = delete;
  CountingCpuAllocator& operator=(const CountingCpuAllocator&) = delete;
  c10::DataPtr allocate(size_t bytes) RECON_ALLOCATE_QUALIFIER override {
    bytes_ += static_cast<int64_t>(bytes);
    return previous_->allocate(bytes);
  }
  c10::DeleterFnPtr raw_deleter() const override { return previous_->raw_deleter(); }
  RECON_ALLOCATOR_COPY_DATA
  int64_t bytes() const { return bytes_; }

 private:
  c10::Allocator* previous_;
  mutable std::atomic<int64_t> bytes_{0};  // allocate() is const before LibTorch 2.3
};

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

// The loss of each sample's own measurement at every evaluation, as the progress callback reports it; runs `s`.
std::pair<recon::ReconstructionResult, std::vector<std::vector<double>>> run_recording_fits(const Small& s, uint64_t seed) {
  std::vector<std::vector<double>> fits;
  recon::seed_everything(seed);
  recon::ProgressiveDecoder decoder(s.decoder);
  auto result = recon::reconstruct(decoder, s.problem, s.options, [&](const recon::Progress& p) {
    if (p.phase != recon::Progress::Phase::sample) return;
    if (p.step == 1) fits.emplace_back();
    fits.back().push_back(p.loss_new);
  });
  return {std::move(result), std::move(fits)};
}

// The evaluation at which `options` stops on `losses`, or -1.
int64_t plateau_stop_at(const recon::FitPlateauOptions& options, const std::vector<double>& losses) {
  recon::FitPlateau rule(options);
  for (size_t t = 0; t < losses.size(); ++t) {
    rule.update(losses[t]);
    if (rule.should_stop()) return static_cast<int64_t>(t);
  }
  return -1;
}

TEST(trainer, the_fit_plateau_ends_a_sample_where_the_rule_says_on_its_own_measurements_loss) {
  recon::set_threads(1);
  for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
    auto s = small_problem(kind);
    recon::apply_preset(recon::SettingsPreset::robust, s.decoder, s.options);  // measured data: old row != new row
    s.options.init_candidates = 1;
    s.options.steps_per_sample = 30;
    s.options.fit_plateau = {4, 0.05};
    const auto [r, fits] = run_recording_fits(s, 0);
    ASSERT_EQ(r.samples.size(), fits.size()) << recon::to_string(kind);
    int early = 0, full = 0;
    for (size_t k = 0; k < fits.size(); ++k) {
      const auto& rec = r.samples[k];
      const int64_t stop = plateau_stop_at(s.options.fit_plateau, fits[k]);
      EXPECT_EQ(rec.loss_new, fits[k].back()) << recon::to_string(kind) << ", sample " << k;
      EXPECT_FALSE(rec.converged);
      if (stop >= 0) {
        EXPECT_TRUE(rec.plateaued) << recon::to_string(kind) << ", sample " << k;
        EXPECT_EQ(rec.steps, stop) << recon::to_string(kind) << ", sample " << k;  // stopped before that update
        ++early;
      } else {
        EXPECT_FALSE(rec.plateaued) << recon::to_string(kind) << ", sample " << k;
        EXPECT_EQ(rec.steps, 30) << recon::to_string(kind) << ", sample " << k;
        ++full;
      }
    }
    // Both outcomes occur, so the check above tells a stop at the rule's step from a stop anywhere else.
    EXPECT_GT(early, 0) << recon::to_string(kind);
    EXPECT_GT(full, 0) << recon::to_string(kind);

    // At a margin of 1 every window is a plateau: each sample takes exactly `window` updates. Off, every budget runs.
    s.options.fit_plateau = {4, 1.0};
    for (const auto& rec : run(s, 0).samples) EXPECT_EQ(rec.steps, 4) << recon::to_string(kind);
    s.options.fit_plateau = {};
    for (const auto& rec : run(s, 0).samples) EXPECT_EQ(rec.steps, 30) << recon::to_string(kind);
  }
}

TEST(trainer, rejects_a_fit_plateau_without_a_margin) {
  auto s = small_problem(recon::PipelineKind::optimized);
  s.options.fit_plateau = {4, 0.0};
  EXPECT_THROW(run(s, 0), std::invalid_argument);
  s.options.fit_plateau = {4, 1.5};
  EXPECT_THROW(run(s, 0), std::invalid_argument);
  s.options.fit_plateau = {-1, 0.1};
  EXPECT_THROW(run(s, 0), std::invalid_argument);
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

TEST(trainer, the_stepped_trainer_driven_by_hand_is_reconstruct) {
  // The benchmark suites time ProgressiveTrainer::step; driving it as its header's example does must give the very
  // reconstruction, records and step counts reconstruct() gives, for both memories and both pipelines.
  for (auto preset : {recon::SettingsPreset::robust, recon::SettingsPreset::prism_compat}) {
    for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
      auto s = small_problem(kind);
      recon::apply_preset(preset, s.decoder, s.options);
      s.options.steps_per_sample = 4;
      const auto expected = run(s, 1);
      recon::seed_everything(1);
      recon::ProgressiveDecoder decoder(s.decoder);
      recon::ProgressiveTrainer trainer(decoder, s.problem, s.options);
      trainer.initialise();
      for (size_t k = 0; k < s.problem.centers.size(); ++k) {
        trainer.begin_sample();
        for (int64_t step = 0; step < s.options.steps_per_sample && trainer.step(); ++step) {
        }
        trainer.end_sample();
      }
      const auto got = trainer.finish();
      const auto where = recon::to_string(preset) + ", " + recon::to_string(kind);
      EXPECT_TRUE(at::equal(got.reconstruction, expected.reconstruction)) << where;
      EXPECT_EQ(got.total_steps, expected.total_steps) << where;
      ASSERT_EQ(got.samples.size(), expected.samples.size()) << where;
      for (size_t k = 0; k < got.samples.size(); ++k) {
        EXPECT_EQ(got.samples[k].loss_new, expected.samples[k].loss_new) << where << ", sample " << k;
        EXPECT_EQ(got.samples[k].learning_rate, expected.samples[k].learning_rate) << where << ", sample " << k;
      }
    }
  }
}

TEST(trainer, output_average_is_the_decayed_mean_of_the_outputs_the_steps_were_taken_at) {
  // Drives the trainer by hand and reads, before each step, the output that step is computed at (train-mode
  // BatchNorm: the output depends on the parameters only). After every sample, the reported quality, and at the end
  // the reconstruction, must be those of Σ β^(t−i) x_i / Σ β^(t−i) over the steps so far; with averaging off, of
  // the decoder's last output.
  recon::set_threads(1);
  for (const double decay : {0.0, 0.5, 0.9}) {
    auto s = small_problem(recon::PipelineKind::optimized);
    recon::apply_preset(recon::SettingsPreset::robust, s.decoder, s.options);
    s.options.steps_per_sample = 3;
    s.options.output_average = decay;
    recon::seed_everything(2);
    recon::ProgressiveDecoder decoder(s.decoder);
    recon::ProgressiveTrainer trainer(decoder, s.problem, s.options);
    auto output_now = [&] {
      at::NoGradGuard no_grad;
      return decoder->forward().view({64, 64}).clone();
    };
    trainer.initialise();
    at::Tensor sum, expected;
    double weight = 0.0;
    std::vector<double> expected_psnr;
    for (size_t k = 0; k < s.problem.centers.size(); ++k) {
      trainer.begin_sample();
      for (int64_t step = 0; step < s.options.steps_per_sample; ++step) {
        const auto output = output_now();
        if (!trainer.step()) break;
        sum = sum.defined() ? sum * decay + output * (1.0 - decay) : output * (1.0 - decay);
        weight = weight * decay + (1.0 - decay);
      }
      trainer.end_sample();
      expected = decay > 0.0 ? sum / weight : output_now();
      expected_psnr.push_back(recon::evaluate(expected, s.problem.ground_truth, s.problem.object_size).psnr_db);
    }
    const auto got = trainer.finish();
    const auto where = "decay " + std::to_string(decay);
    EXPECT_TRUE(at::allclose(got.reconstruction, expected, 1e-5, 1e-6)) << where;
    ASSERT_EQ(got.samples.size(), expected_psnr.size());
    for (size_t k = 0; k < got.samples.size(); ++k) {
      EXPECT_NEAR(got.samples[k].quality.psnr_db, expected_psnr[k], 1e-4) << where << ", sample " << k;
    }
    // The average is not the last output (the check above could not tell them apart otherwise).
    if (decay > 0.0) {
      EXPECT_FALSE(at::allclose(got.reconstruction, output_now(), 1e-3, 1e-4)) << where;
    }
  }
  auto s = small_problem(recon::PipelineKind::optimized);
  for (const double bad : {-0.1, 1.0, std::nan("")}) {
    s.options.output_average = bad;
    EXPECT_THROW(run(s, 0), std::invalid_argument) << bad;
  }
}

TEST(trainer, multi_start_goes_on_from_the_candidate_whose_trial_fits_the_first_measurement_best) {
  // Candidate c is the c-th decoder constructed after seeding. Each is checked by hand: its initialisation alone (one
  // candidate) gives its recorded init loss, and its trial loss is the first measurement's loss after steps_per_sample
  // updates, which a one-sample run with one step more reads before its last update. The multi-start run must then be
  // the one-candidate run of the candidate with the lowest trial loss, bit for bit.
  recon::set_threads(1);
  for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
    auto s = small_problem(kind);
    recon::apply_preset(recon::SettingsPreset::robust, s.decoder, s.options);
    s.options.steps_per_sample = 4;
    s.options.init_candidates = 3;
    s.options.noise.enabled = true;  // the trial must fit the measurement the samples fit, noise and all
    s.options.noise.snr_db = 20.0;
    const auto where = recon::to_string(kind);
    const auto multi = run(s, 5);
    ASSERT_EQ(multi.init_candidates.size(), 3u) << where;

    auto single = s;
    single.options.init_candidates = 1;
    auto trial = single;
    trial.problem.centers.resize(1);
    trial.options.steps_per_sample = s.options.steps_per_sample + 1;
    size_t best = 0;
    for (size_t c = 0; c < 3; ++c) {
      auto decoder = nth_decoder(5, c, single.decoder);
      const auto by_hand = recon::reconstruct(decoder, trial.problem, trial.options);
      EXPECT_EQ(by_hand.init_loss, multi.init_candidates[c].init_loss) << where << ", candidate " << c;
      EXPECT_EQ(by_hand.samples.front().loss_new, multi.init_candidates[c].trial_loss) << where << ", candidate " << c;
      if (multi.init_candidates[c].trial_loss < multi.init_candidates[best].trial_loss) best = c;
    }
    EXPECT_NE(multi.init_candidates[0].trial_loss, multi.init_candidates[1].trial_loss) << where;
    EXPECT_EQ(multi.chosen_candidate, static_cast<int64_t>(best)) << where;
    EXPECT_EQ(recon::best_candidate(multi.init_candidates), best) << where;
    auto decoder = nth_decoder(5, best, single.decoder);
    const auto expected = recon::reconstruct(decoder, single.problem, single.options);
    EXPECT_TRUE(expected.init_candidates.empty()) << where;
    EXPECT_EQ(multi.init_loss, expected.init_loss) << where;
    // Every update counts: the other candidates' initialisations and every candidate's trial as well.
    EXPECT_EQ(multi.total_steps, expected.total_steps + 2 * s.options.init_steps + 3 * s.options.steps_per_sample) << where;
    for (const auto& c : multi.init_candidates) EXPECT_EQ(c.init_steps, s.options.init_steps) << where;
    EXPECT_TRUE(at::equal(multi.reconstruction, expected.reconstruction)) << where;
  }
  auto s = small_problem(recon::PipelineKind::optimized);
  s.options.init_candidates = 0;
  EXPECT_THROW(run(s, 0), std::invalid_argument);
}

// A screen ranks every candidate by a short initialisation and trial, and only its survivors take the full ones. Each
// candidate's short fits are checked by hand as above (one candidate, the screen's budgets); with every candidate
// surviving the run is the unscreened one bit for bit; with fewer, the survivors are the lowest short trials and the
// choice among them is the unscreened run's comparison; a single survivor is the one-candidate run of its draw.
TEST(trainer, a_screen_keeps_the_lowest_short_trials_and_chooses_among_them_as_without_one) {
  recon::set_threads(1);
  for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
    auto s = small_problem(kind);
    recon::apply_preset(recon::SettingsPreset::robust, s.decoder, s.options);
    s.options.steps_per_sample = 4;
    s.options.init_candidates = 4;
    const auto where = recon::to_string(kind);
    const auto unscreened = run(s, 7);
    auto screened = s;
    screened.options.candidate_screen = {4, 6, 2};
    const auto everyone = run(screened, 7);
    ASSERT_EQ(everyone.init_candidates.size(), 4u) << where;
    EXPECT_EQ(everyone.chosen_candidate, unscreened.chosen_candidate) << where;
    EXPECT_TRUE(at::equal(everyone.reconstruction, unscreened.reconstruction)) << where;
    EXPECT_EQ(everyone.total_steps, unscreened.total_steps + 4 * (6 + 2)) << where;

    auto single = s;
    single.options.init_candidates = 1;
    auto short_fits = single;
    short_fits.problem.centers.resize(1);
    short_fits.options.init_steps = 6;
    short_fits.options.steps_per_sample = 3;  // the trial's loss after 2 updates is read before the third
    std::vector<double> screen_losses;
    for (size_t c = 0; c < 4; ++c) {
      auto decoder = nth_decoder(7, c, single.decoder);
      const auto by_hand = recon::reconstruct(decoder, short_fits.problem, short_fits.options);
      EXPECT_EQ(by_hand.samples.front().loss_new, everyone.init_candidates[c].screen_loss) << where << ", candidate " << c;
      EXPECT_FALSE(everyone.init_candidates[c].screened_out) << where << ", candidate " << c;
      EXPECT_EQ(everyone.init_candidates[c].trial_loss, unscreened.init_candidates[c].trial_loss) << where << ", candidate " << c;
      screen_losses.push_back(everyone.init_candidates[c].screen_loss);
    }
    std::vector<size_t> order{0, 1, 2, 3};
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return screen_losses[a] < screen_losses[b]; });
    ASSERT_NE(screen_losses[order[0]], screen_losses[order[1]]) << where;

    screened.options.candidate_screen.survivors = 2;
    const auto two = run(screened, 7);
    // The survivors in draw order; the lower full trial wins, the earlier on a tie.
    const size_t lo = std::min(order[0], order[1]), hi = std::max(order[0], order[1]);
    const size_t expected_choice = unscreened.init_candidates[hi].trial_loss < unscreened.init_candidates[lo].trial_loss ? hi : lo;
    // The seed is chosen so that the full trials reverse the short ones: a choice by the short trial would differ.
    ASSERT_NE(expected_choice, order[0]) << where;
    EXPECT_EQ(two.chosen_candidate, static_cast<int64_t>(expected_choice)) << where;
    for (size_t c = 0; c < 4; ++c) {
      const bool survived = c == order[0] || c == order[1];
      EXPECT_EQ(two.init_candidates[c].screened_out, !survived) << where << ", candidate " << c;
      EXPECT_EQ(two.init_candidates[c].screen_loss, screen_losses[c]) << where << ", candidate " << c;
      if (survived) {
        EXPECT_EQ(two.init_candidates[c].trial_loss, unscreened.init_candidates[c].trial_loss) << where << ", candidate " << c;
        EXPECT_EQ(two.init_candidates[c].init_steps, s.options.init_steps) << where;
      } else {
        EXPECT_TRUE(std::isnan(two.init_candidates[c].trial_loss)) << where << ", candidate " << c;
        EXPECT_EQ(two.init_candidates[c].init_steps, 6) << where;
      }
    }
    EXPECT_EQ(recon::best_candidate(two.init_candidates), expected_choice) << where;
    EXPECT_EQ(two.total_steps, 4 * (6 + 2) + 2 * (s.options.init_steps + 4) + 6 * 4) << where;

    screened.options.candidate_screen.survivors = 1;
    const auto one = run(screened, 7);
    EXPECT_EQ(one.chosen_candidate, static_cast<int64_t>(order[0])) << where;
    EXPECT_TRUE(std::isnan(one.init_candidates[order[0]].trial_loss)) << where;
    auto decoder = nth_decoder(7, order[0], single.decoder);
    const auto expected = recon::reconstruct(decoder, single.problem, single.options);
    EXPECT_EQ(one.init_loss, expected.init_loss) << where;
    EXPECT_TRUE(at::equal(one.reconstruction, expected.reconstruction)) << where;
    EXPECT_EQ(one.total_steps, 4 * (6 + 2) + expected.total_steps) << where;
  }
  auto s = small_problem(recon::PipelineKind::optimized);
  s.options.init_candidates = 3;
  s.options.candidate_screen = {-1, 5, 5};
  EXPECT_THROW(run(s, 0), std::invalid_argument);
  s.options.candidate_screen = {1, -5, 5};
  EXPECT_THROW(run(s, 0), std::invalid_argument);
  s.options.candidate_screen = {1, 5, -5};
  EXPECT_THROW(run(s, 0), std::invalid_argument);
}

// The first-measurement initialisation pulls the decoder toward what the detector recorded through the first pupil,
// noise included, brought into register with the object and min-max normalised. Its first step's loss is computed
// here by hand from the measurement operator and the noise model, and must differ from the noise-free target's.
TEST(trainer, the_initialisation_fits_the_first_measurement_as_recorded_noise_and_all) {
  recon::set_threads(1);
  auto s = small_problem(recon::PipelineKind::reference);
  recon::apply_preset(recon::SettingsPreset::robust, s.decoder, s.options);
  s.options.init_target = recon::InitTarget::first_measurement;
  s.options.init_candidates = 1;
  s.options.init_steps = 1;  // the recorded init loss is then the loss of the untrained decoder's output
  s.options.steps_per_sample = 0;
  s.options.noise.enabled = true;
  s.options.noise.snr_db = 10.0;
  s.options.noise.seed = 3;
  const int64_t n = s.decoder.grid_size();
  const auto loss_against = [&](const recon::NoiseOptions& noise) {
    const auto recorded = recon::add_measurement_noise(
        recon::measure_amplitude(s.problem.ground_truth, recon::disc_mask(n, s.problem.centers.front(), s.problem.radius)),
        noise, 0);
    const auto registered = at::roll(recorded, {1, 1}, {0, 1});
    const auto target = (registered - registered.min()) / (registered.max() - registered.min());
    recon::seed_everything(11);
    recon::ProgressiveDecoder decoder(s.decoder);
    at::NoGradGuard no_grad;
    return ((decoder->forward().view({n, n}) - target).abs().mean() / target.mean()).item<double>();
  };
  const double expected = loss_against(s.options.noise);
  auto clean = s.options.noise;
  clean.enabled = false;
  const double noise_free = loss_against(clean);
  ASSERT_GT(std::abs(expected - noise_free), 1e-3 * noise_free);  // the noise moves the target measurably
  const auto result = run(s, 11);
  EXPECT_NEAR(result.init_loss, expected, 1e-5 * expected);
}

// PRISM's initialisation target (prism-compat): the binary disc y² + x² ≤ (S/2)² about the grid's DC pixel, in image
// space. With one step the recorded init loss is the untrained output's L1 distance to it over the disc's mean.
TEST(trainer, the_disc_initialisation_fits_prisms_disc_of_half_the_object_size) {
  recon::set_threads(1);
  auto s = small_problem(recon::PipelineKind::reference);
  recon::apply_preset(recon::SettingsPreset::prism_compat, s.decoder, s.options);
  ASSERT_EQ(s.options.init_target, recon::InitTarget::disc);
  s.options.init_steps = 1;
  s.options.steps_per_sample = 0;
  const int64_t n = s.decoder.grid_size();
  const double r = static_cast<double>(s.problem.object_size) / 2.0;
  const auto offset = at::arange(n, at::kDouble) - static_cast<double>(n / 2);
  const auto disc = ((offset.view({n, 1}).pow(2) + offset.view({1, n}).pow(2)) <= r * r).to(at::kFloat);
  const double expected = [&] {
    recon::seed_everything(11);
    recon::ProgressiveDecoder decoder(s.decoder);
    at::NoGradGuard no_grad;
    return ((decoder->forward().view({n, n}) - disc).abs().mean() / disc.mean()).item<double>();
  }();
  EXPECT_NEAR(run(s, 11).init_loss, expected, 1e-5 * expected);
}

// box_init_loss evaluates the initialisation's loss on the object box and adds the grid outside it, where the output is
// zero, as a constant: its gradient is the grid loss's, bit for bit, so the steps and the decoder they leave are the
// same, and the recorded loss differs by the order of its sum only. Both initialisation targets (the low-pass image,
// non-zero outside the box, and PRISM's disc, one pixel past the box on each axis) and an object whose N − S is odd
// (the box one pixel nearer the grid's start).
TEST(trainer, the_initialisation_on_the_object_box_takes_the_grid_losss_steps) {
  recon::set_threads(1);
  for (const int64_t object : {16, 15}) {
    for (auto preset : {recon::SettingsPreset::robust, recon::SettingsPreset::prism_compat}) {
      auto s = small_problem(recon::PipelineKind::optimized);
      s.decoder = recon::DecoderOptions(64, object);
      s.problem.object_size = object;
      s.problem.ground_truth = recon::synthetic_target(recon::TargetKind::planet, object, 64);
      recon::apply_preset(preset, s.decoder, s.options);
      s.options.init_candidates = 1;
      s.options.init_steps = 30;
      s.options.steps_per_sample = 0;
      SCOPED_TRACE(recon::to_string(s.options.init_target) + ", S = " + std::to_string(object));
      ASSERT_TRUE(s.options.pipeline.switches.box_init_loss);  // on by default
      const auto on_box = run(s, 11);
      s.options.pipeline.switches.box_init_loss = false;
      const auto on_grid = run(s, 11);
      EXPECT_EQ(on_box.init_steps, on_grid.init_steps);
      EXPECT_NEAR(on_box.init_loss, on_grid.init_loss, 1e-6 * on_grid.init_loss);
      EXPECT_TRUE(at::equal(on_box.reconstruction, on_grid.reconstruction));
    }
  }
}

// What box_init_loss saves is the grid's temporaries: the padded output, its difference from the target, their
// absolute value and, backward, the mean's gradient, the sign and their product, each N² floats, six per step. Counted
// at LibTorch's CPU allocator, which every tensor of the step goes through (caching_allocator off, so that the
// pipeline's scope leaves it in place), per step as the difference between a 20-step and a 10-step initialisation,
// so that what a run allocates once cancels. At least five of the six must be gone: a box loss that still pads the
// output to the grid and narrows it back, or rebuilds a grid-sized |target| per step, saves fewer. The reference
// pipeline runs no switch whatever its options hold: its initialisation allocates the same with the option on or off.
TEST(trainer, the_initialisation_on_the_object_box_allocates_no_grid_per_step) {
  recon::set_threads(1);
  auto s = small_problem(recon::PipelineKind::optimized);
  s.options.init_candidates = 1;
  s.options.steps_per_sample = 0;
  s.options.pipeline.switches.caching_allocator = false;
  const auto bytes_per_step = [&](bool on_box, recon::PipelineKind kind = recon::PipelineKind::optimized) {
    s.options.pipeline.kind = kind;
    s.options.pipeline.switches.box_init_loss = on_box;
    const auto bytes_of_run = [&](int64_t steps) {
      s.options.init_steps = steps;
      CountingCpuAllocator counter;
      run(s, 11);
      return counter.bytes();
    };
    return (bytes_of_run(20) - bytes_of_run(10)) / 10;
  };
  const int64_t n = s.decoder.grid_size();
  const int64_t grid_bytes = n * n * static_cast<int64_t>(sizeof(float));
  const int64_t on_grid = bytes_per_step(false), on_box = bytes_per_step(true);
  EXPECT_GE(on_grid - on_box, 5 * grid_bytes) << "per step: on the grid " << on_grid << " B, on the box " << on_box
                                              << " B, a grid " << grid_bytes << " B";
  EXPECT_EQ(bytes_per_step(true, recon::PipelineKind::reference), bytes_per_step(false, recon::PipelineKind::reference));
}

TEST(trainer, the_best_candidate_is_the_lowest_trial_loss_wherever_it_stands) {
  auto with_losses = [](std::vector<double> losses) {
    std::vector<recon::InitCandidate> candidates;
    for (double l : losses) candidates.push_back(recon::InitCandidate{100, 0.2, l});
    return candidates;
  };
  EXPECT_EQ(recon::best_candidate(with_losses({0.5})), 0u);
  EXPECT_EQ(recon::best_candidate(with_losses({1e-3, 3e-3, 2e-3})), 0u);  // first, and not beaten by a later improvement
  EXPECT_EQ(recon::best_candidate(with_losses({3e-3, 1e-3, 2e-3, 4e-3})), 1u);
  EXPECT_EQ(recon::best_candidate(with_losses({3e-3, 2e-3, 5e-3, 1e-3})), 3u);
  EXPECT_EQ(recon::best_candidate(with_losses({2e-3, 1e-3, 1e-3})), 1u);  // a tie keeps the earlier
  auto screened = with_losses({1e-3, 3e-3, 2e-3});
  screened[0].screened_out = true;  // a screened-out candidate never wins, whatever its loss reads
  EXPECT_EQ(recon::best_candidate(screened), 2u);
  screened[2].screened_out = true;
  screened[1].trial_loss = std::numeric_limits<double>::quiet_NaN();  // the only survivor, with no trial
  EXPECT_EQ(recon::best_candidate(screened), 1u);
  screened[1].screened_out = true;
  EXPECT_THROW(recon::best_candidate(screened), std::invalid_argument);
  // A diverged fit (NaN) ranks after every number, wherever it stands.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(recon::best_candidate(with_losses({nan, 3e-3, 2e-3})), 2u);
  EXPECT_EQ(recon::best_candidate(with_losses({3e-3, nan})), 0u);
  EXPECT_EQ(recon::best_candidate(with_losses({nan, nan})), 0u);
  EXPECT_THROW(recon::best_candidate({}), std::invalid_argument);
}

TEST(trainer, the_stepped_trainer_refuses_calls_out_of_order) {
  auto s = small_problem(recon::PipelineKind::optimized);
  recon::seed_everything(0);
  recon::ProgressiveDecoder decoder(s.decoder);
  recon::ProgressiveTrainer trainer(decoder, s.problem, s.options);
  EXPECT_THROW(trainer.step(), std::logic_error);        // no sample open
  EXPECT_THROW(trainer.end_sample(), std::logic_error);
  trainer.begin_sample();
  EXPECT_THROW(trainer.begin_sample(), std::logic_error);  // one open already
  EXPECT_THROW(trainer.initialise(), std::logic_error);    // after the first sample began
  EXPECT_THROW(trainer.finish(), std::logic_error);        // a sample is open
  EXPECT_TRUE(trainer.step());
  trainer.end_sample();
  for (size_t k = 1; k < s.problem.centers.size(); ++k) {
    trainer.begin_sample();
    trainer.end_sample();
  }
  EXPECT_EQ(trainer.samples_begun(), static_cast<int64_t>(s.problem.centers.size()));
  EXPECT_THROW(trainer.begin_sample(), std::logic_error);  // every sample begun
  const auto result = trainer.finish();
  ASSERT_EQ(result.samples.size(), s.problem.centers.size());
  // Samples that took no step left the output as sample 0 did: the same quality, and the same reconstruction as a
  // fresh forward of the decoder.
  for (const auto& rec : result.samples) EXPECT_EQ(rec.quality.psnr_db, result.samples[0].quality.psnr_db) << rec.index;
  {
    at::NoGradGuard no_grad;
    EXPECT_TRUE(at::equal(result.reconstruction, decoder->forward().view({64, 64})));
  }
  EXPECT_THROW(trainer.finish(), std::logic_error);  // spent
  EXPECT_THROW(trainer.begin_sample(), std::logic_error);
}

}  // namespace

namespace {

recon::ReconstructionResult synthetic_result(const std::vector<double>& psnr, double seconds_init, double per_sample) {
  recon::ReconstructionResult r;
  r.seconds_init = seconds_init;
  for (double p : psnr) {
    recon::SampleRecord s;
    s.quality.psnr_db = p;
    s.seconds = per_sample;
    r.samples.push_back(s);
  }
  return r;
}

TEST(trainer, trajectory_gain_and_time_to_quality) {
  const auto r = synthetic_result({11.0, 14.0, 20.0, 24.6, 25.0}, 1.0, 2.0);
  EXPECT_DOUBLE_EQ(recon::trajectory_gain_db(r), 14.0);
  // 24.6 ≥ 25.0 − 0.5 first at the fourth sample: 1 s of initialisation + 4 × 2 s.
  EXPECT_DOUBLE_EQ(recon::seconds_to_quality(r, 0.5), 9.0);
  EXPECT_DOUBLE_EQ(recon::seconds_to_quality(r, 20.0), 3.0);
  // A flat trajectory reaches its quality after its first sample: fast, and worth nothing.
  const auto flat = synthetic_result({11.4, 11.4, 11.4}, 1.0, 2.0);
  EXPECT_DOUBLE_EQ(recon::trajectory_gain_db(flat), 0.0);
  EXPECT_DOUBLE_EQ(recon::seconds_to_quality(flat), 3.0);
}

TEST(trainer, previous_reconstruction_memory_fits_the_union_of_the_earlier_discs_and_the_new_one) {
  // PRISM's memory (prism-compat): sample k's objective holds the output after sample k−1 through the union of discs
  // 0..k−1 and fits disc k's measurement. At a sample's first evaluation the old row is 0 whatever its mask (the
  // output has not moved yet), so each sample is checked at its second evaluation: the loss the trainer reports
  // there must be that of an objective built here by hand from the same state. With detector noise on, so that each
  // sample is also seen to fit its own noise draw (index k), not another sample's.
  recon::set_threads(1);
  for (auto kind : {recon::PipelineKind::reference, recon::PipelineKind::optimized}) {
    auto s = small_problem(kind);
    recon::apply_preset(recon::SettingsPreset::prism_compat, s.decoder, s.options);
    s.options.loss_threshold = 0.0;  // every evaluation updates
    s.options.noise.enabled = true;
    s.options.noise.snr_db = 20.0;
    s.options.noise.seed = 2;
    ASSERT_EQ(s.options.memory, recon::SampleMemory::previous_reconstruction);
    recon::seed_everything(3);
    recon::ProgressiveDecoder decoder(s.decoder);
    double reported = 0.0;
    recon::ProgressiveTrainer trainer(decoder, s.problem, s.options, [&](const recon::Progress& p) { reported = p.loss; });
    auto output_now = [&] {
      at::NoGradGuard no_grad;
      return decoder->forward().view({64, 64}).clone();
    };
    trainer.initialise();
    for (size_t k = 0; k < s.problem.centers.size(); ++k) {
      recon::SampleSetup setup;
      setup.ground_truth = s.problem.ground_truth;
      setup.previous_reconstruction = output_now();
      setup.previous_centers.assign(s.problem.centers.begin(), s.problem.centers.begin() + static_cast<int64_t>(k));
      setup.center = s.problem.centers[k];
      setup.radius = s.problem.radius;
      setup.first = k == 0;
      setup.index = static_cast<int64_t>(k);
      setup.loss = s.options.loss;
      setup.noise = s.options.noise;
      trainer.begin_sample();
      ASSERT_TRUE(trainer.step());
      const auto expected = (*recon::make_objective(setup, s.options.pipeline))(decoder->forward_object());
      const double expected_total = expected.old_row.item<double>() + expected.new_row.item<double>();
      ASSERT_TRUE(trainer.step());
      EXPECT_NEAR(reported, expected_total, 1e-5 * std::abs(expected_total)) << recon::to_string(kind) << ", sample " << k;
      trainer.end_sample();
    }
  }
}

TEST(trainer, measured_data_memory_lets_later_samples_count) {
  // The same small overlapping problem with the robust preset: with measured-data memory the later samples must
  // change the reconstruction; with PRISM's previous-reconstruction memory at the same learning rate they barely do.
  auto s = small_problem(recon::PipelineKind::optimized);
  s.problem.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 12, 16.0));
  s.problem.radius = 6.0;
  recon::apply_preset(recon::SettingsPreset::robust, s.decoder, s.options);
  ASSERT_EQ(s.options.memory, recon::SampleMemory::measured_data);
  const auto learning = run(s, 0);
  EXPECT_GT(recon::trajectory_gain_db(learning), 1.0);
  for (const auto& rec : learning.samples) EXPECT_GT(rec.loss_new, 0.0);
}

}  // namespace

namespace {

// PRISM's plateau schedule past the budgets the workloads run (they call it once, at most): on a flat loss the rate
// halves at the 12th call and then every 11th (the count starts again after each reduction, as in PyTorch); an
// improvement of more than 1e-4 of the best resets the count, a smaller one does not.
TEST(trainer, the_plateau_schedule_halves_after_eleven_calls_without_improvement_and_starts_counting_again) {
  struct RateOnly : recon::StepOptimizer {
    void zero_grad() override {}
    void step() override {}
    void set_learning_rate(double lr) override { rate = lr; }
    double learning_rate() const override { return rate; }
    double rate = 1.0;
  };
  RateOnly optimizer;
  recon::PlateauScheduler flat;
  std::vector<int> halved_at;
  for (int call = 1; call <= 40; ++call) {
    const double before = optimizer.rate;
    flat.step(1.0, optimizer);
    if (optimizer.rate != before) halved_at.push_back(call);
  }
  EXPECT_EQ(halved_at, (std::vector<int>{12, 23, 34}));
  RateOnly improving;
  recon::PlateauScheduler falling;
  double loss = 1.0;
  for (int call = 1; call <= 40; ++call) falling.step(loss *= 0.999, improving);  // 1e-3 better each call
  EXPECT_EQ(improving.rate, 1.0);
  RateOnly creeping;
  recon::PlateauScheduler barely;
  for (int call = 1; call <= 12; ++call) barely.step(1.0 - 1e-6 * call, creeping);  // all within 1e-4 of the first
  EXPECT_EQ(creeping.rate, 0.5);
}

TEST(trainer, isolated_learning_rate_applies_to_discs_no_earlier_one_overlaps) {
  recon::set_threads(1);
  auto s = small_problem(recon::PipelineKind::optimized);
  s.options.steps_per_sample = 1;
  s.options.init_steps = 1;
  // Four discs (radius 4): the first, one at the same place (wholly covered), one far away (not covered at all),
  // and one 6 pixels from that (partly covered: overlapped).
  s.problem.centers = {{0.0, 0.0}, {0.0, 0.0}, {0.0, 20.0}, {0.0, 26.0}};
  s.options.learning_rate = 1e-2;
  s.options.isolated_learning_rate = 1e-4;
  // The recorded rate is read back from the optimizer after its first update, so a kept optimizer (one Adam for all
  // samples, re-rated per sample) must show each sample's own rate too.
  for (const bool fresh : {true, false}) {
    s.options.fresh_optimizer_per_sample = fresh;
    SCOPED_TRACE(fresh ? "fresh optimizer per sample" : "one optimizer kept across samples");
    const auto r = run(s, 0);
    ASSERT_EQ(r.samples.size(), 4u);
    EXPECT_DOUBLE_EQ(r.samples[0].covered, 0.0);
    EXPECT_DOUBLE_EQ(r.samples[0].learning_rate, 1e-4);
    EXPECT_DOUBLE_EQ(r.samples[1].covered, 1.0);
    EXPECT_DOUBLE_EQ(r.samples[1].learning_rate, 1e-2);
    EXPECT_DOUBLE_EQ(r.samples[2].covered, 0.0);
    EXPECT_DOUBLE_EQ(r.samples[2].learning_rate, 1e-4);
    EXPECT_GT(r.samples[3].covered, recon::kOverlapped);
    EXPECT_LT(r.samples[3].covered, 0.5);
    EXPECT_DOUBLE_EQ(r.samples[3].learning_rate, 1e-2);
  }
  s.options.fresh_optimizer_per_sample = true;
  // Off (0): every sample runs at learning_rate.
  s.options.isolated_learning_rate = 0.0;
  for (const auto& sample : run(s, 0).samples) EXPECT_DOUBLE_EQ(sample.learning_rate, 1e-2);
  s.options.isolated_learning_rate = -1.0;
  EXPECT_THROW(run(s, 0), std::invalid_argument);
}

}  // namespace
