// Contract: error_bands splits the error's spectral energy exactly by the measured discs and their mirrors through DC
// (a real object's spectrum at −k is the conjugate of the one at k): a real error built inside the discs is all
// "measured", one built outside discs and mirrors is all "unmeasured", a sum of the two splits by their energies, and
// the two parts add up to the error's energy over the evaluation window (Parseval).
#include "recon/error_bands.h"
#include "recon/fourier.h"
#include "recon/metrics.h"
#include "test_util.h"

#include <stdexcept>
#include <vector>

namespace {

constexpr int64_t kN = 64;
constexpr double kRadius = 6.0;
constexpr double kTolerance = 1e-10;  // float64 FFTs of O(1) values

// Not symmetric about DC, as the Fermat spiral is not: the disc at (10, −14) measures its mirror at (−10, 14) too.
const std::vector<recon::Center> kCenters = {{0.0, 0.0}, {10.0, -14.0}};
const std::vector<recon::Center> kCentersAndMirrors = {{0.0, 0.0}, {10.0, -14.0}, {-10.0, 14.0}};

// A real error whose spectrum is a seeded random field kept only where `keep` is true (and, being real, at the
// mirrors of those frequencies).
at::Tensor error_in(const at::Tensor& keep, uint64_t seed) {
  at::manual_seed(seed);
  const auto spectrum = at::randn({kN, kN}, at::kComplexDouble) * keep.to(at::kDouble);
  return at::real(recon::ifft2c(spectrum)).contiguous();
}

TEST(error_bands, a_real_error_inside_the_measured_discs_is_all_measured_mirrors_included) {
  const auto inside = recon::union_mask(kN, kCenters, kRadius);
  const auto truth = at::zeros({kN, kN}, at::kDouble);
  const auto bands = recon::error_bands(truth + error_in(inside, 1), truth, kN, kCenters, kRadius);
  EXPECT_GT(bands.measured, 1.0);
  EXPECT_LT(bands.unmeasured, kTolerance * bands.measured);
  EXPECT_LT(bands.unmeasured_fraction(), kTolerance);
  // Nothing measured: all of an error is unmeasured.
  EXPECT_EQ(recon::error_bands(truth + error_in(inside, 1), truth, kN, {}, kRadius).unmeasured_fraction(), 1.0);
}

TEST(error_bands, an_error_outside_every_disc_and_its_mirror_is_all_unmeasured) {
  const auto inside = recon::union_mask(kN, kCentersAndMirrors, kRadius);
  const auto truth = at::full({kN, kN}, 0.5, at::kDouble);
  const auto bands = recon::error_bands(truth + error_in(inside.logical_not(), 2), truth, kN, kCenters, kRadius);
  EXPECT_LT(bands.measured, kTolerance * bands.unmeasured);
  EXPECT_NEAR(bands.unmeasured_fraction(), 1.0, kTolerance);
}

TEST(error_bands, a_mixed_error_splits_by_the_energies_of_its_parts) {
  const auto inside = recon::union_mask(kN, kCentersAndMirrors, kRadius);
  const auto measured_part = error_in(inside, 3);
  const auto unmeasured_part = 0.3 * error_in(inside.logical_not(), 4);
  const double in = measured_part.pow(2).sum().item<double>(), out = unmeasured_part.pow(2).sum().item<double>();
  const auto truth = at::zeros({kN, kN}, at::kDouble);
  const auto bands = recon::error_bands(truth + measured_part + unmeasured_part, truth, kN, kCenters, kRadius);
  EXPECT_NEAR(bands.measured, in, kTolerance * in);
  EXPECT_NEAR(bands.unmeasured, out, kTolerance * in);
  EXPECT_NEAR(bands.unmeasured_fraction(), out / (in + out), kTolerance);
}

TEST(error_bands, the_parts_add_up_to_the_error_energy_on_the_evaluation_window_only) {
  constexpr int64_t kObject = 40;
  at::manual_seed(5);
  const auto truth = at::rand({kN, kN}, at::kFloat);
  const auto estimate = truth + 0.1 * at::randn({kN, kN}, at::kFloat);
  const auto window_error = recon::evaluation_window(estimate.to(at::kDouble) - truth.to(at::kDouble), kObject);
  const double energy = window_error.pow(2).sum().item<double>();
  const auto bands = recon::error_bands(estimate, truth, kObject, kCenters, kRadius);
  EXPECT_NEAR(bands.measured + bands.unmeasured, energy, kTolerance * energy);
  EXPECT_GT(bands.measured, 0.0);
  EXPECT_GT(bands.unmeasured, 0.0);
  // An error outside the window is not counted.
  auto outside = estimate.clone();
  outside[0][0] += 100.0f;
  const auto same = recon::error_bands(outside, truth, kObject, kCenters, kRadius);
  EXPECT_NEAR(same.measured + same.unmeasured, energy, kTolerance * energy);
}

TEST(error_bands, an_exact_reconstruction_has_no_error_anywhere) {
  const auto truth = at::rand({kN, kN}, at::kFloat);
  const auto bands = recon::error_bands(truth, truth, kN, kCenters, kRadius);
  EXPECT_EQ(bands.measured + bands.unmeasured, 0.0);
  EXPECT_EQ(bands.unmeasured_fraction(), 0.0);
}

TEST(error_bands, refuses_images_of_different_or_non_square_shapes) {
  const auto square = at::zeros({kN, kN});
  EXPECT_THROW(recon::error_bands(square, at::zeros({kN, kN / 2}), kN / 2, kCenters, kRadius), std::invalid_argument);
  EXPECT_THROW(recon::error_bands(at::zeros({kN, kN / 2}), at::zeros({kN, kN / 2}), kN / 2, kCenters, kRadius),
               std::invalid_argument);
}

}  // namespace
