// Contract: the ePIE baseline uses each sample's own pupil and amplitude measurements, so with dense k-space
// coverage it recovers the object far better than its starting point; a given start (EpieOptions::start) is where
// it begins, and the object itself, which every noise-free measurement agrees with, is where it stays.
#include "recon/epie.h"
#include "recon/sampling.h"
#include "recon/targets.h"
#include "test_util.h"

#include <limits>
#include <stdexcept>

namespace {

recon::ReconstructionProblem dense_problem() {
  recon::ReconstructionProblem p;
  p.ground_truth = recon::synthetic_target(recon::TargetKind::planet, 16, 64);
  p.object_size = 16;
  p.radius = 8.0;
  p.centers = recon::sample_centers(recon::PatternOptions(recon::PatternKind::fermat, 40, 32.0));
  return p;
}

TEST(epie, dense_coverage_recovers_the_object) {
  const auto p = dense_problem();
  recon::EpieOptions o;
  o.epochs = 30;
  auto r = recon::epie_reconstruct(p, o);
  ASSERT_EQ(r.per_epoch.size(), 30u);
  EXPECT_GT(r.per_epoch.back().psnr_db, r.per_epoch.front().psnr_db + 3.0);
  EXPECT_GT(r.per_epoch.back().psnr_db, 20.0);
  EXPECT_GE(r.reconstruction.min().item<float>(), 0.0f);
}

TEST(epie, starting_at_the_object_stays_there) {
  const auto p = dense_problem();
  recon::EpieOptions o;
  o.epochs = 3;
  o.start = p.ground_truth;
  const auto r = recon::epie_reconstruct(p, o);
  EXPECT_LT((r.reconstruction - p.ground_truth).abs().max().item<float>(), 1e-4f);
  // PRISM's start (ones) after the same epochs is far from the object: the start above was used, not ignored.
  o.start = at::Tensor();
  EXPECT_GT((recon::epie_reconstruct(p, o).reconstruction - p.ground_truth).abs().max().item<float>(), 1e-2f);
}

// A user's photo fills its box to the edge, unlike the built-in planet. ePIE's support must be exactly the object box
// (recon/object_box.h), odd N − S included: a support one pixel off cuts the object's edge row and column, and the
// object is then no longer where ePIE stays.
TEST(epie, an_object_that_fills_its_box_is_where_it_stays) {
  for (const int64_t s : {16, 15}) {
    auto p = dense_problem();
    p.object_size = s;
    const auto ramp = at::arange(s * s, at::kFloat).view({s, s}).remainder(7.0) * 30.0 + 40.0;  // no zero anywhere
    p.ground_truth = recon::prepare_target(ramp, s, 64);
    recon::EpieOptions o;
    o.epochs = 3;
    o.start = p.ground_truth;
    const auto r = recon::epie_reconstruct(p, o);
    EXPECT_LT((r.reconstruction - p.ground_truth).abs().max().item<float>(), 1e-4f) << "S " << s;
  }
}

TEST(epie, a_better_start_ends_nearer_the_object) {
  const auto p = dense_problem();
  recon::EpieOptions o;
  o.epochs = 2;
  const double from_ones = recon::epie_reconstruct(p, o).per_epoch.back().psnr_db;
  o.start = p.ground_truth + 0.05 * at::sin(at::arange(64 * 64, at::kFloat).view({64, 64}));  // a fixed perturbation
  EXPECT_GT(recon::epie_reconstruct(p, o).per_epoch.back().psnr_db, from_ones + 3.0);
}

// Every measurement acts: a problem of any one sample alone must move ePIE from its start in one epoch (a loop that
// leaves out the first or the last sample leaves such a problem untouched).
TEST(epie, each_sample_alone_moves_the_estimate) {
  const auto p = dense_problem();
  recon::EpieOptions o;
  o.epochs = 1;
  recon::EpieOptions no_epochs;
  no_epochs.epochs = 0;
  const auto start = recon::epie_reconstruct(p, no_epochs).reconstruction;  // PRISM's start, untouched
  for (const size_t k : {size_t{0}, size_t{1}, p.centers.size() - 1}) {
    auto alone = p;
    alone.centers = {p.centers[k]};
    const auto moved = (recon::epie_reconstruct(alone, o).reconstruction - start).abs().max().item<float>();
    EXPECT_GT(moved, 1e-3f) << "sample " << k << " alone left the start unchanged";
  }
}

TEST(epie, refuses_a_start_of_the_wrong_shape_or_not_finite) {
  const auto p = dense_problem();
  recon::EpieOptions o;
  o.start = at::ones({32, 32});
  EXPECT_THROW(recon::epie_reconstruct(p, o), std::invalid_argument);
  o.start = at::ones({64, 64});
  o.start[3][5] = std::numeric_limits<float>::quiet_NaN();  // one is enough: the FFT would spread it everywhere
  EXPECT_THROW(recon::epie_reconstruct(p, o), std::invalid_argument);
}

// One sample whose pupil covers the whole spectrum measures |O| itself. Started at c0 times the (real, non-negative)
// object, every update keeps the estimate a multiple c of the object: c <- c + beta (1 - c). mPIE's momentum, every
// momentum_period updates, then adds: v <- friction v + (c - c_last), c <- c + feedback v, c_last <- c. The solvers
// must follow these scalars.
double whole_pupil_multiple(const recon::EpieOptions& o, double c0, int64_t updates) {
  double c = c0, last = c0, v = 0.0;
  for (int64_t u = 1; u <= updates; ++u) {
    c += o.object_step * (1.0 - c);
    if (o.variant == recon::PieVariant::mpie && o.feedback > 0.0 && u % o.momentum_period == 0) {
      v = o.friction * v + (c - last);
      c += o.feedback * v;
      last = c;
    }
  }
  return c;
}

TEST(epie, every_variant_follows_its_update_rule_where_the_answer_is_known) {
  auto p = dense_problem();
  p.centers = {recon::Center{}};
  p.radius = 64.0;  // beyond every corner of the 64 x 64 grid: the pupil is everything
  for (const auto variant : {recon::PieVariant::epie, recon::PieVariant::rpie, recon::PieVariant::mpie}) {
    auto o = recon::EpieOptions::defaults(variant);
    o.object_step = 0.25;  // a partial step, so that the estimate moves by a known fraction
    o.start = 0.2 * p.ground_truth;
    // A momentum step after every update for three updates, then after every second for four: c stays below 1, so
    // no clamp binds.
    for (const auto& [period, epochs] : {std::pair<int64_t, int64_t>{1, 3}, {2, 4}}) {
      o.momentum_period = period;
      o.epochs = epochs;
      const double c = whole_pupil_multiple(o, 0.2, epochs);
      const auto r = recon::epie_reconstruct(p, o);
      EXPECT_LT((r.reconstruction - c * p.ground_truth).abs().max().item<float>(), 1e-4f)
          << recon::to_string(variant) << ", period " << period << ": c = " << c;
    }
  }
  // The momentum made a difference the check above sees: mPIE's multiple is not rPIE's, and a period of 2 is not 1.
  auto m = recon::EpieOptions::defaults(recon::PieVariant::mpie);
  m.momentum_period = 1;
  auto r = m;
  r.feedback = 0.0;
  EXPECT_GT(whole_pupil_multiple(m, 0.2, 3) - whole_pupil_multiple(r, 0.2, 3), 0.05);
  auto every_second = m;
  every_second.momentum_period = 2;
  EXPECT_GT(std::abs(whole_pupil_multiple(m, 0.2, 4) - whole_pupil_multiple(every_second, 0.2, 4)), 0.01);
}

TEST(epie, with_a_binary_pupil_rpie_is_epie_at_the_same_step_and_mpie_before_its_momentum_is_rpie) {
  const auto p = dense_problem();
  for (const double step : {1.0, 0.5}) {
    auto e = recon::EpieOptions::defaults(recon::PieVariant::epie);
    auto r = recon::EpieOptions::defaults(recon::PieVariant::rpie);
    e.object_step = r.object_step = step;
    e.epochs = r.epochs = 3;
    const auto from_e = recon::epie_reconstruct(p, e).reconstruction;
    EXPECT_LT((recon::epie_reconstruct(p, r).reconstruction - from_e).abs().max().item<float>(), 1e-5f) << "step " << step;
    r.regularization = 0.0;  // the denominator is 0 outside the pupil: no NaN may come of it
    EXPECT_LT((recon::epie_reconstruct(p, r).reconstruction - from_e).abs().max().item<float>(), 1e-5f) << "a = 0, step " << step;
  }
  // mPIE before its first momentum step is rPIE at its step: 3 epochs of 40 samples are 120 updates.
  auto m = recon::EpieOptions::defaults(recon::PieVariant::mpie);
  auto r = recon::EpieOptions::defaults(recon::PieVariant::rpie);
  r.object_step = m.object_step;
  m.epochs = r.epochs = 3;
  m.momentum_period = 121;
  const auto from_r = recon::epie_reconstruct(p, r).reconstruction;
  EXPECT_TRUE(at::equal(recon::epie_reconstruct(p, m).reconstruction, from_r));
  m.momentum_period = 120;  // one momentum step, after the last update
  EXPECT_FALSE(at::equal(recon::epie_reconstruct(p, m).reconstruction, from_r));
}

TEST(epie, every_variant_stays_at_the_object_and_recovers_it_from_the_default_start) {
  const auto p = dense_problem();
  for (const auto variant : {recon::PieVariant::epie, recon::PieVariant::rpie, recon::PieVariant::mpie}) {
    auto o = recon::EpieOptions::defaults(variant);
    o.epochs = 3;
    o.start = p.ground_truth;
    EXPECT_LT((recon::epie_reconstruct(p, o).reconstruction - p.ground_truth).abs().max().item<float>(), 1e-4f)
        << recon::to_string(variant);
    o.start = at::Tensor();
    o.epochs = 30;
    const auto r = recon::epie_reconstruct(p, o);
    EXPECT_GT(r.per_epoch.back().psnr_db, r.per_epoch.front().psnr_db + 3.0) << recon::to_string(variant);
    EXPECT_GT(r.per_epoch.back().psnr_db, 20.0) << recon::to_string(variant);
  }
}

TEST(epie, momentum_speeds_up_the_damped_step) {
  // mPIE's published step (0.25) with and without its momentum, the same epochs on the dense problem.
  const auto p = dense_problem();
  auto m = recon::EpieOptions::defaults(recon::PieVariant::mpie);
  m.epochs = 10;
  auto without = m;
  without.feedback = 0.0;
  const double with_momentum = recon::epie_reconstruct(p, m).per_epoch.back().psnr_db;
  const double damped = recon::epie_reconstruct(p, without).per_epoch.back().psnr_db;
  EXPECT_GT(with_momentum, damped + 1.0) << "with momentum " << with_momentum << " dB, without " << damped << " dB";
}

TEST(epie, refuses_steps_and_momentum_out_of_range) {
  const auto p = dense_problem();
  const auto refused = [&](auto change) {
    auto o = recon::EpieOptions::defaults(recon::PieVariant::mpie);
    o.epochs = 1;
    change(o);
    EXPECT_THROW(recon::epie_reconstruct(p, o), std::invalid_argument);
  };
  refused([](recon::EpieOptions& o) { o.object_step = 0.0; });
  refused([](recon::EpieOptions& o) { o.object_step = std::numeric_limits<double>::quiet_NaN(); });
  refused([](recon::EpieOptions& o) { o.regularization = 1.5; });
  refused([](recon::EpieOptions& o) { o.friction = 1.0; });
  refused([](recon::EpieOptions& o) { o.feedback = -0.1; });
  refused([](recon::EpieOptions& o) { o.momentum_period = 0; });
}

}  // namespace
