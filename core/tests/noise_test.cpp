// Contract: photon-counting noise draws Poisson counts at the stated rate, adds read noise of the stated SD, and returns
// the amplitude the counts stand for; a draw is a function of (seed, draw) alone.
#include "recon/noise.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

constexpr int64_t kPixels = 200000;

// The counts a photon-noise measurement stands for: m² · photons / reference.
at::Tensor counts_of(const at::Tensor& measured, const recon::NoiseOptions& o) {
  return measured.to(at::kDouble).pow(2) * (o.photons / o.reference_intensity);
}

recon::NoiseOptions photons(double n, double read_noise = 0.0) {
  recon::NoiseOptions o;
  o.photons = n;
  o.read_noise = read_noise;
  o.reference_intensity = 4.0;  // an amplitude of 2 expects n counts
  o.seed = 7;
  return o;
}

TEST(photon_noise, counts_are_poisson_at_the_stated_rate) {
  // Amplitude 1 at reference 4 and 40 photons: 10 counts expected per pixel, mean and variance 10.
  const auto o = photons(40.0);
  const auto counts = counts_of(recon::add_measurement_noise(at::ones({kPixels}), o, 0), o);
  const double mean = counts.mean().item<double>(), variance = counts.var().item<double>();
  const double rate = 10.0, se_mean = std::sqrt(rate / kPixels), se_var = std::sqrt((2 * rate * rate + rate) / kPixels);
  EXPECT_NEAR(mean, rate, 5 * se_mean);
  EXPECT_NEAR(variance, rate, 5 * se_var);
  // Counts are whole numbers (up to float32's rounding of the amplitude), none negative.
  EXPECT_LT((counts - counts.round()).abs().max().item<double>(), 1e-4);
  EXPECT_GE(counts.min().item<double>(), 0.0);
}

TEST(photon_noise, read_noise_adds_its_variance) {
  // 100 counts expected and read noise SD 3: variance 100 + 9 = 109. A sum below 0 would be clamped; at 100 ± 10.4
  // that is 9.6 SDs away, so the clamp does not bend the moments checked here (5 standard errors each).
  const auto o = photons(400.0, 3.0);
  const auto counts = counts_of(recon::add_measurement_noise(at::ones({kPixels}), o, 0), o);
  const double variance = 109.0, se_mean = std::sqrt(variance / kPixels), se_var = variance * std::sqrt(2.0 / kPixels);
  EXPECT_NEAR(counts.mean().item<double>(), 100.0, 5 * se_mean);
  EXPECT_NEAR(counts.var().item<double>(), variance, 5 * se_var);
  EXPECT_GT((counts - counts.round()).abs().max().item<double>(), 0.01);  // no longer whole numbers
}

TEST(photon_noise, many_photons_approach_the_clean_amplitude) {
  const auto amplitude = at::linspace(0.1, 2.0, 1000, at::kFloat);
  const auto few = recon::add_measurement_noise(amplitude, photons(1e2), 0);
  const auto many = recon::add_measurement_noise(amplitude, photons(1e8), 0);
  // The amplitude's SD is ~sqrt(reference / photons) / 2 whatever the amplitude: 0.1 at 100 photons, 1e-4 at 1e8.
  EXPECT_GT((few - amplitude).std().item<double>(), 0.05);
  EXPECT_LT((many - amplitude).abs().max().item<double>(), 1e-3);
}

TEST(photon_noise, a_draw_depends_on_seed_and_draw_only) {
  const auto amplitude = at::full({1000}, 0.5, at::kFloat);
  auto o = photons(100.0, 1.0);
  const auto a = recon::add_measurement_noise(amplitude, o, 3);
  EXPECT_TRUE(at::equal(a, recon::add_measurement_noise(amplitude, o, 3)));
  EXPECT_FALSE(at::equal(a, recon::add_measurement_noise(amplitude, o, 4)));
  o.seed = 8;
  EXPECT_FALSE(at::equal(a, recon::add_measurement_noise(amplitude, o, 3)));
  // The registered form rolls by one pixel and back, so it is noise, not the amplitude unchanged.
  const auto image = at::full({8, 8}, 0.5, at::kFloat);
  EXPECT_FALSE(at::equal(recon::add_registered_measurement_noise(image, o, 3), image));
}

TEST(photon_noise, photon_noise_sets_the_reference_to_the_brightest_pixel) {
  const auto object = at::tensor({0.0f, 0.5f, -3.0f, 2.0f});
  const auto o = recon::photon_noise(1000.0, 2.0, object, 5);
  EXPECT_EQ(o.reference_intensity, 9.0);
  EXPECT_EQ(o.photons, 1000.0);
  EXPECT_EQ(o.read_noise, 2.0);
  EXPECT_EQ(o.seed, 5u);
  EXPECT_FALSE(o.enabled);
  EXPECT_TRUE(o.active());
}

TEST(photon_noise, refuses_inconsistent_options) {
  const auto amplitude = at::ones({4});
  auto both = photons(10.0);
  both.enabled = true;
  EXPECT_THROW(recon::add_measurement_noise(amplitude, both, 0), std::invalid_argument);
  auto no_reference = photons(10.0);
  no_reference.reference_intensity = 0.0;
  EXPECT_THROW(recon::add_measurement_noise(amplitude, no_reference, 0), std::invalid_argument);
  auto negative_read = photons(10.0, -1.0);
  EXPECT_THROW(recon::add_measurement_noise(amplitude, negative_read, 0), std::invalid_argument);
  EXPECT_THROW(recon::photon_noise(0.0, 0.0, amplitude, 0), std::invalid_argument);
  EXPECT_THROW(recon::photon_noise(10.0, 0.0, at::zeros({4}), 0), std::invalid_argument);
  EXPECT_THROW(recon::photon_noise(std::numeric_limits<double>::infinity(), 0.0, amplitude, 0), std::invalid_argument);
}

}  // namespace
