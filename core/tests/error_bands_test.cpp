// Contract: error_bands splits the error's spectral energy exactly by the measured discs and their mirrors through DC
// (a real object's spectrum at −k is the conjugate of the one at k): a real error built inside the discs is all
// "measured", one built outside discs and mirrors is all "unmeasured", a sum of the two splits by their energies, and
// the two parts add up to the error's energy over the evaluation window (Parseval). Rotating the phases of a truth's
// spectrum region by region (conjugately on the mirrors) leaves every measurement's modulus unchanged, and
// error_bands attributes all of such an error to disc_phase; overlapping discs share one phase.
#include "recon/error_bands.h"
#include "recon/fourier.h"
#include "recon/metrics.h"
#include "recon/scenarios.h"
#include "test_util.h"

#include <ATen/ATen.h>

#include <cmath>

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

// The truth with its spectrum multiplied by e^{iφ_j} on region j and e^{−iφ_j} on its mirror (by −1 on a region that
// is its own mirror, when `flip_self_mirrored`), φ_j = phase_step · (j + 1): real, and measured exactly as the truth.
at::Tensor rotated(const at::Tensor& truth, const std::vector<recon::PhaseRegion>& regions, double phase_step,
                   bool flip_self_mirrored = true) {
  const auto spectrum = recon::fft2c(truth.to(at::kDouble));
  auto factor = at::ones_like(spectrum);
  for (size_t j = 0; j < regions.size(); ++j) {
    const double phi = phase_step * static_cast<double>(j + 1);
    if (regions[j].mirror.defined()) {
      factor.masked_fill_(regions[j].mask, c10::complex<double>(std::cos(phi), std::sin(phi)));
      factor.masked_fill_(regions[j].mirror, c10::complex<double>(std::cos(phi), -std::sin(phi)));
    } else if (flip_self_mirrored) {
      factor.masked_fill_(regions[j].mask, c10::complex<double>(-1.0, 0.0));
    }
  }
  const auto object = recon::ifft2c(spectrum * factor);
  EXPECT_LT(at::abs(at::imag(object)).max().item<double>(), 1e-12) << "a rotation conjugate on the mirrors keeps it real";
  return at::real(object).contiguous();
}

// The largest difference between the amplitude images of the two objects over every sub-aperture.
double largest_measurement_difference(const at::Tensor& a, const at::Tensor& b, const std::vector<recon::Center>& centers,
                                      double radius) {
  const int64_t n = a.size(0);
  const auto spectrum_a = recon::fft2c(a.to(at::kDouble)), spectrum_b = recon::fft2c(b.to(at::kDouble));
  double largest = 0.0;
  for (const auto& c : centers) {
    const auto pupil = recon::disc_mask(n, c, radius).to(at::kDouble);
    const auto difference = at::abs(recon::ifft2c(spectrum_a * pupil)) - at::abs(recon::ifft2c(spectrum_b * pupil));
    largest = std::max(largest, at::abs(difference).max().item<double>());
  }
  return largest;
}

TEST(error_bands, objects_rotated_in_phase_disc_by_disc_are_measured_identically_and_all_their_error_is_disc_phase) {
  at::manual_seed(6);
  const auto truth = at::rand({kN, kN}, at::kDouble);
  const auto regions = recon::phase_ambiguity_regions(kN, kCenters, kRadius);
  ASSERT_EQ(regions.size(), 2u);  // the DC disc (its own mirror) and the disc at (10, −14) with its mirror
  EXPECT_FALSE(regions[0].mirror.defined());
  EXPECT_TRUE(regions[1].mirror.defined());
  const auto twin = rotated(truth, regions, 1.1);
  EXPECT_LT(largest_measurement_difference(twin, truth, kCenters, kRadius), 1e-12);
  // Whole-grid window: the rotation's error is the whole error, and all of it lies in the measured discs.
  const auto bands = recon::error_bands(twin, truth, kN, kCenters, kRadius);
  EXPECT_GT(bands.measured, 1.0) << "the twin differs from the truth";
  EXPECT_LT(bands.unmeasured, kTolerance * bands.measured);
  EXPECT_NEAR(bands.disc_phase, bands.measured, 1e-9 * bands.measured);
  EXPECT_NEAR(bands.disc_phase_fraction(), 1.0, 1e-9);
}

TEST(error_bands, overlapping_discs_share_one_phase_and_rotating_one_alone_is_not_all_disc_phase) {
  // The discs at (10, −14) and (13, −10) overlap: one region, and its mirror.
  const std::vector<recon::Center> centers = {{10.0, -14.0}, {13.0, -10.0}};
  const auto regions = recon::phase_ambiguity_regions(kN, centers, kRadius);
  ASSERT_EQ(regions.size(), 1u);
  at::manual_seed(7);
  const auto truth = at::rand({kN, kN}, at::kDouble);
  const auto together = rotated(truth, regions, 0.8);
  EXPECT_LT(largest_measurement_difference(together, truth, centers, kRadius), 1e-12);
  const auto bands = recon::error_bands(together, truth, kN, centers, kRadius);
  EXPECT_NEAR(bands.disc_phase, bands.measured, 1e-9 * bands.measured);
  // One of the two discs rotated alone: its overlap with the other changes that one's measurement, and a single phase
  // for the region cannot undo it.
  const auto one_alone = rotated(truth, recon::phase_ambiguity_regions(kN, {{10.0, -14.0}}, kRadius), 0.8);
  EXPECT_GT(largest_measurement_difference(one_alone, truth, centers, kRadius), 1e-3);
  const auto partial = recon::error_bands(one_alone, truth, kN, centers, kRadius);
  EXPECT_GT(partial.disc_phase, 0.0);
  EXPECT_LT(partial.disc_phase, 0.9 * partial.measured);
}

TEST(error_bands, the_disc_phase_part_is_never_more_than_the_measured_part) {
  at::manual_seed(8);
  const auto truth = at::rand({kN, kN}, at::kFloat);
  for (int draw = 0; draw < 4; ++draw) {
    const auto estimate = truth + 0.2 * at::randn({kN, kN}, at::kFloat);
    const auto bands = recon::error_bands(estimate, truth, kN / 2, kCenters, kRadius);
    EXPECT_GE(bands.disc_phase, 0.0);
    EXPECT_LE(bands.disc_phase, bands.measured * (1.0 + 1e-12));
  }
  EXPECT_EQ(recon::error_bands(truth, truth, kN, kCenters, kRadius).disc_phase, 0.0);
}

// Regions scaled as well as rotated, where the answer is known in closed form: with E the truth's spectral energy on
// a region, scaling the self-mirrored DC region by −1/2 leaves 9E/4 of error that its sign flip cuts to E/4 (removes
// 2E); scaling a paired region by e^{iθ}/2 (and its mirror by e^{−iθ}/2) leaves 2E(5/4 − cos θ) that the best phase
// cuts to 2E/4 (removes 2E(1 − cos θ)).
TEST(error_bands, scaled_and_rotated_regions_give_the_closed_form_disc_phase) {
  at::manual_seed(9);
  const auto truth = at::rand({kN, kN}, at::kDouble);
  const auto regions = recon::phase_ambiguity_regions(kN, kCenters, kRadius);
  ASSERT_EQ(regions.size(), 2u);
  const auto spectrum = recon::fft2c(truth);
  const auto energy_on = [&spectrum](const at::Tensor& mask) {
    return at::abs(spectrum).pow(2).masked_select(mask).sum().item<double>();
  };
  const auto with_factor = [&spectrum](const at::Tensor& mask, c10::complex<double> factor, const at::Tensor& mirror,
                                       c10::complex<double> mirror_factor) {
    auto scaled = spectrum.clone();
    scaled.masked_scatter_(mask, spectrum.masked_select(mask) * factor);
    if (mirror.defined()) scaled.masked_scatter_(mirror, spectrum.masked_select(mirror) * mirror_factor);
    return at::real(recon::ifft2c(scaled)).contiguous();
  };
  const double dc = energy_on(regions[0].mask);
  const auto flipped = recon::error_bands(with_factor(regions[0].mask, {-0.5, 0.0}, {}, {}), truth, kN, kCenters, kRadius);
  EXPECT_NEAR(flipped.measured, 2.25 * dc, 1e-9 * dc);
  EXPECT_NEAR(flipped.disc_phase, 2.0 * dc, 1e-9 * dc);
  const double theta = 2.2, paired = energy_on(regions[1].mask);
  const c10::complex<double> turn(0.5 * std::cos(theta), 0.5 * std::sin(theta));
  const auto turned = recon::error_bands(with_factor(regions[1].mask, turn, regions[1].mirror, c10::complex<double>(turn.real(), -turn.imag())), truth, kN,
                                         kCenters, kRadius);
  EXPECT_NEAR(turned.measured, 2.0 * paired * (1.25 - std::cos(theta)), 1e-9 * paired);
  EXPECT_NEAR(turned.disc_phase, 2.0 * paired * (1.0 - std::cos(theta)), 1e-9 * paired);
}

// The seed workload: twenty discs that no other disc overlaps leave their phases free. A truth rotated region by
// region is measured identically yet is a different picture, and part of it leaves the S × S box the object lives in:
// only that box (the decoder's support) can tell the two apart. The DC region keeps its sign, which a non-negative
// object fixes.
TEST(error_bands, on_the_seed_workload_a_phase_rotated_truth_is_measured_identically_but_leaves_the_object_box) {
  const auto& scene = recon::scenario("seed");
  const auto problem = recon::make_problem(scene);
  const auto regions = recon::phase_ambiguity_regions(scene.grid, problem.centers, problem.radius);
  EXPECT_EQ(regions.size(), static_cast<size_t>(scene.samples));  // no disc meets another, or another's mirror
  const auto truth = problem.ground_truth.to(at::kDouble);
  const auto twin = rotated(truth, regions, 2.0, /*flip_self_mirrored=*/false);
  EXPECT_LT(largest_measurement_difference(twin, truth, problem.centers, problem.radius), 1e-9);
  const auto difference = twin - truth;
  const double all = difference.pow(2).sum().item<double>();
  const double inside = recon::evaluation_window(difference, scene.object).pow(2).sum().item<double>();
  // For these phases (φ_j = 2(j + 1) on the j-th region, the DC region unrotated), as docs/results.md reports them: 6.9 % of the difference
  // lies outside the box, and inside it the twin is 18.3 dB from the truth, a visibly different picture.
  EXPECT_NEAR((all - inside) / all, 0.069, 0.001) << "of the difference's energy " << all << ", outside the box: " << (all - inside);
  const auto quality = recon::evaluate(twin.to(at::kFloat), problem.ground_truth, scene.object);
  EXPECT_NEAR(quality.psnr_db, 18.28, 0.01);
}

TEST(error_bands, refuses_images_of_different_or_non_square_shapes) {
  const auto square = at::zeros({kN, kN});
  EXPECT_THROW(recon::error_bands(square, at::zeros({kN, kN / 2}), kN / 2, kCenters, kRadius), std::invalid_argument);
  EXPECT_THROW(recon::error_bands(at::zeros({kN, kN / 2}), at::zeros({kN, kN / 2}), kN / 2, kCenters, kRadius),
               std::invalid_argument);
}

}  // namespace
