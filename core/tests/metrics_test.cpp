// Contract: the metrics agree with independent NumPy/SciPy implementations of their definitions
// (core/tests/oracle/metrics_oracle.py; its output is oracle/metrics_oracle.out).
#include "recon/metrics.h"
#include "test_util.h"

#include <cmath>

namespace {

constexpr double kFloat64Tolerance = 1e-12;  // same formula in float64 on both sides
constexpr double kSsimTolerance = 1e-9;      // float64 convolutions summed in different orders

struct OracleValues {
  int64_t n;
  double offset;  // b's brightness offset (oracle_image_pair)
  double mse, psnr_db, mae, rmse_pct, cosine, max_abs, ssim, ms_ssim;
};

// Pasted from metrics_oracle.out. Only n = 256 reaches MS-SSIM's fifth scale, whose luminance term the offset
// moves away from 1.
const OracleValues kOracle[] = {
    {32, 0.0, 0.0055943866554099136, 22.522475207124675, 0.060200202841767629, 13.644129597283944, 0.99080111662929304,
     0.14978150180619076, 0.81770078607985153, 0.97898969984210749},
    {64, 0.0, 0.005614499018354, 22.506889897624784, 0.060658985687938483, 13.584273287460137, 0.99089334148197861,
     0.14978863086176553, 0.84160280680649679, 0.97874758480244173},
    {256, 0.1, 0.015133940247010997, 18.200479850800036, 0.10423213562102179, 22.433904091417698, 0.99123762343926014,
     0.24983522556093019, 0.82960401551104812, 0.97690129294841654},
};

TEST(metrics, agree_with_independent_oracle) {
  for (const auto& o : kOracle) {
    auto [a, b] = recon::testing::oracle_image_pair(o.n, o.offset);
    SCOPED_TRACE("n = " + std::to_string(o.n) + ", offset " + std::to_string(o.offset));
    EXPECT_NEAR(recon::mse(b, a), o.mse, kFloat64Tolerance);
    EXPECT_NEAR(recon::psnr(b, a), o.psnr_db, kFloat64Tolerance * 1e3);
    EXPECT_NEAR(recon::mae(b, a), o.mae, kFloat64Tolerance);
    EXPECT_NEAR(recon::rmse_percent(b, a), o.rmse_pct, kFloat64Tolerance * 1e3);
    EXPECT_NEAR(recon::relative_error(b, a), o.rmse_pct / 100.0, kFloat64Tolerance);
    EXPECT_NEAR(recon::cosine_similarity(b, a), o.cosine, kFloat64Tolerance);
    EXPECT_NEAR(recon::max_abs_difference(b, a), o.max_abs, kFloat64Tolerance);
    EXPECT_NEAR(recon::ssim(b, a).item<double>(), o.ssim, kSsimTolerance);
    EXPECT_NEAR(recon::ms_ssim(b, a).item<double>(), o.ms_ssim, kSsimTolerance);
  }
}

// data_range is the images' scale: images k times brighter, measured with a range k times larger, give the same
// PSNR, SSIM and MS-SSIM (SSIM's constants scale with L², not L).
TEST(metrics, data_range_scales_with_the_images) {
  auto [a, b] = recon::testing::oracle_image_pair(256, 0.1);
  const double psnr_1 = recon::psnr(b, a), ssim_1 = recon::ssim(b, a).item<double>();
  const double ms_ssim_1 = recon::ms_ssim(b, a).item<double>();
  for (const double k : {255.0, 0.1}) {
    SCOPED_TRACE("data range " + std::to_string(k));
    EXPECT_NEAR(recon::psnr(b * k, a * k, k), psnr_1, kFloat64Tolerance * 1e3);
    EXPECT_NEAR(recon::ssim(b * k, a * k, k).item<double>(), ssim_1, kSsimTolerance);
    EXPECT_NEAR(recon::ms_ssim(b * k, a * k, k).item<double>(), ms_ssim_1, kSsimTolerance);
  }
  // Not vacuous: the same images under another range score differently.
  EXPECT_GT(std::abs(recon::ssim(b * 255.0, a * 255.0).item<double>() - ssim_1), 1e-3);
}

TEST(metrics, identical_images) {
  auto [a, b] = recon::testing::oracle_image_pair(32);
  (void)b;
  EXPECT_TRUE(std::isinf(recon::psnr(a, a)));
  EXPECT_NEAR(recon::ssim(a, a).item<double>(), 1.0, kFloat64Tolerance);
  EXPECT_NEAR(recon::cosine_similarity(a, a), 1.0, kFloat64Tolerance);
}

TEST(metrics, evaluation_window_has_prism_offset) {
  auto img = at::arange(512 * 512, at::kFloat).view({512, 512});
  auto w = recon::evaluation_window(img, 128);
  ASSERT_EQ(w.sizes(), (std::vector<int64_t>{128, 128}));
  EXPECT_EQ(w[0][0].item<float>(), img[193][193].item<float>());
  EXPECT_EQ(w[127][127].item<float>(), img[320][320].item<float>());
}

TEST(metrics, shape_mismatch_is_rejected) {
  EXPECT_THROW(recon::mse(at::zeros({4, 4}), at::zeros({4, 5})), std::invalid_argument);
}

}  // namespace
