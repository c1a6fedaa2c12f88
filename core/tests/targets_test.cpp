// Contract: targets are prepared like PRISM (resize, 8-bit rounding, centred pad, min–max, square root) and the
// built-in objects are non-trivial images.
#include "recon/decoder.h"
#include "recon/noise.h"
#include "recon/object_box.h"
#include "recon/targets.h"
#include "test_util.h"

#include <cmath>
#include <utility>
#include <vector>

namespace {

TEST(targets, preparation_pads_normalises_and_takes_the_square_root) {
  auto image = at::full({8, 8}, 64.0);
  image.narrow(0, 2, 4).narrow(1, 2, 4).fill_(255.0);
  auto gt = recon::prepare_target(image, 8, 32);
  ASSERT_EQ(gt.sizes(), (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(gt.narrow(0, 0, 12).abs().max().item<float>(), 0.0f);  // pre = 12 rows of zero padding
  EXPECT_NEAR(gt.max().item<float>(), 1.0f, 1e-7);
  EXPECT_NEAR(gt[12][12].item<float>(), std::sqrt(64.0f / 255.0f), 1e-6);
}

TEST(targets, resize_to_the_shorter_side_then_crop) {
  auto image = at::rand({40, 80}) * 255.0;
  EXPECT_EQ(recon::prepare_target(image, 16, 64).sizes(), (std::vector<int64_t>{64, 64}));
}

// Downscaling is antialiased, as PRISM's preparation: stripes two pixels apart, shrunk 3x, must average out to a
// nearly flat grey instead of aliasing into full-contrast stripes.
TEST(targets, downscaling_averages_detail_finer_than_the_new_pixels) {
  auto columns = at::arange(96, at::kFloat).remainder(2.0) * 255.0;  // 0, 255, 0, ...
  const auto image = columns.view({1, 96}).expand({96, 96}).contiguous();
  const auto prepared = recon::prepare_target(image, 32, 64);  // the zero padding keeps the image from being constant
  const auto box = prepared.narrow(0, 16, 32).narrow(1, 16, 32);
  EXPECT_LT(box.std().item<double>(), 0.15);  // measured: 0.052 antialiased (the triangle filter's ripple), 0.50 not
  EXPECT_GT(box.mean().item<double>(), 0.5);  // and a bright grey, not a flat black box
}

// The prepared object fills exactly the box the decoder places its output in, the box recon/object_box.h defines, for
// odd N − S too (there ⌊(N − S)/2⌋ and N/2 − S/2 differ by a pixel, and no gated workload has one).
TEST(targets, the_prepared_object_and_the_decoder_output_share_one_box) {
  for (const auto& [n, s] : std::vector<std::pair<int64_t, int64_t>>{{64, 15}, {64, 16}, {32, 31}, {8, 5}}) {
    const auto box = recon::object_box(n, s);
    ASSERT_EQ(box.before + s + box.after, n);
    auto expected = at::zeros({n, n}, at::kBool);
    expected.narrow(0, box.before, s).narrow(1, box.before, s).fill_(true);
    const auto prepared = recon::prepare_target(at::full({s, s}, 200.0), s, n);  // the padding is the only contrast
    EXPECT_TRUE(at::equal(prepared > 0, expected)) << "N " << n << ", S " << s << ": prepared target";
    recon::ProgressiveDecoder decoder(recon::DecoderOptions(n, s));
    EXPECT_TRUE(at::equal(decoder->on_grid(at::ones({1, 1, s, s})).view({n, n}) > 0, expected))
        << "N " << n << ", S " << s << ": decoder output";
    EXPECT_EQ(decoder->object_offset(), box.before);
  }
}

TEST(targets, constant_image_is_rejected) {
  EXPECT_THROW(recon::prepare_target(at::full({8, 8}, 7.0), 8, 8), std::invalid_argument);  // no padding: constant
  EXPECT_NO_THROW(recon::prepare_target(at::full({8, 8}, 7.0), 8, 16));  // the zero padding gives contrast
}

TEST(targets, builtins_are_valid_amplitudes) {
  for (const char* name : {"usaf", "star", "planet", "points", "disc"}) {
    auto gt = recon::synthetic_target(recon::parse_choice<recon::TargetKind>(name), 64, 128);
    EXPECT_GE(gt.min().item<float>(), 0.0f) << name;
    EXPECT_NEAR(gt.max().item<float>(), 1.0f, 1e-6) << name;
    EXPECT_GT(gt.narrow(0, 32, 64).narrow(1, 32, 64).std().item<float>(), 0.05f) << name;
  }
  EXPECT_THROW(recon::parse_choice<recon::TargetKind>("lena"), std::invalid_argument);
}

TEST(noise, reaches_the_requested_snr_and_is_seeded) {
  auto amplitude = recon::synthetic_target(recon::TargetKind::planet, 64, 64);
  recon::NoiseOptions o;
  o.enabled = true;
  o.snr_db = 20.0;
  auto a = recon::add_measurement_noise(amplitude, o, 1), b = recon::add_measurement_noise(amplitude, o, 1);
  EXPECT_TRUE(at::equal(a, b));
  EXPECT_FALSE(at::equal(a, recon::add_measurement_noise(amplitude, o, 2)));
  // Away from the clamp at zero, intensity noise power relative to mean(I²) is 10^(−SNR/10).
  auto intensity = amplitude.pow(2);
  auto bright = intensity > 0.2;
  auto noise = (a.pow(2) - intensity).masked_select(bright);
  const double measured_db = 10.0 * std::log10(intensity.pow(2).mean().item<double>() / noise.pow(2).mean().item<double>());
  EXPECT_NEAR(measured_db, 20.0, 0.5);
  o.enabled = false;
  EXPECT_TRUE(at::equal(recon::add_measurement_noise(amplitude, o, 1), amplitude));
}

// An image in register with the object (PRISM's measurement rolled back by one pixel) gets, pixel for pixel, the
// noise its measured pixel got: the initialisation's target and ePIE's data are the measurements the trainer fits.
TEST(noise, registered_images_get_their_measured_pixels_noise) {
  const auto measured = recon::synthetic_target(recon::TargetKind::planet, 24, 32);
  const auto registered = at::roll(measured, {1, 1}, {0, 1});
  recon::NoiseOptions o;
  o.enabled = true;
  o.snr_db = 15.0;
  o.seed = 4;
  const auto noisy = recon::add_measurement_noise(measured, o, 3);
  EXPECT_FALSE(at::equal(noisy, measured));
  EXPECT_TRUE(at::equal(recon::add_registered_measurement_noise(registered, o, 3), at::roll(noisy, {1, 1}, {0, 1})));
  o.enabled = false;
  EXPECT_TRUE(at::equal(recon::add_registered_measurement_noise(registered, o, 3), registered));
}

// Every (seed, draw) pair has its own stream: two runs with neighbouring seeds must not share noise shifted by one
// sample, nor any draw of the first 16 samples with each other.
TEST(noise, neighbouring_seeds_share_no_draw) {
  auto amplitude = recon::synthetic_target(recon::TargetKind::planet, 32, 32);
  recon::NoiseOptions one, other;
  one.enabled = other.enabled = true;
  one.seed = 7;
  other.seed = 8;
  for (uint64_t i = 0; i < 16; ++i) {
    for (uint64_t j = 0; j < 16; ++j) {
      EXPECT_FALSE(at::equal(recon::add_measurement_noise(amplitude, one, i), recon::add_measurement_noise(amplitude, other, j)))
          << "seed 7 draw " << i << " and seed 8 draw " << j;
    }
  }
}

}  // namespace
