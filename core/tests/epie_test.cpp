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

}  // namespace
