// Contract: a band from noise is the prediction interval of one more run's log (values from SciPy in
// oracle/stats_oracle.out), never narrower than the floor, one-sided unless asked, and refused with one clear error for
// too few runs or a value that has no logarithm.
#include "model/noise_band.h"
#include "base/error.h"

#include <gtest/gtest.h>

namespace {

const std::vector<double> kQuiet = {10, 10.2, 9.9, 10.1, 10.0};

TEST(perfgate_noise_band, is_the_prediction_interval_of_one_more_run) {
  perfgate::NoiseRule rule;
  rule.floor = 0.0;
  const auto band = perfgate::noise_band(kQuiet, rule, false, "t");
  EXPECT_NEAR(band.centre, 10.03948298533632, 1e-9);
  EXPECT_NEAR(band.sigma, 0.011341557626936944, 1e-12);
  EXPECT_NEAR(band.tolerance, 0.047652845056838845, 1e-9);
  EXPECT_EQ(band.runs, 5);
  EXPECT_FALSE(band.floored);
  // Both sides share the false-alarm rate: t at 0.995.
  EXPECT_NEAR(perfgate::noise_band(kQuiet, rule, true, "t").tolerance, 0.05886917521788775, 1e-9);
  EXPECT_NEAR(perfgate::noise_band({10, 11, 9.5, 10.5}, rule, false, "t").tolerance, 0.37754417081448133, 1e-9);
}

TEST(perfgate_noise_band, never_narrower_than_the_floor) {
  const auto band = perfgate::noise_band(kQuiet, perfgate::NoiseRule{}, false, "t");
  EXPECT_DOUBLE_EQ(band.tolerance, 0.05);
  EXPECT_TRUE(band.floored);
  const auto same = perfgate::noise_band({4, 4, 4}, perfgate::NoiseRule{}, false, "t");
  EXPECT_DOUBLE_EQ(same.sigma, 0.0);
  EXPECT_DOUBLE_EQ(same.tolerance, 0.05);
}

TEST(perfgate_noise_band, refuses_too_few_runs_and_values_without_a_logarithm) {
  EXPECT_THROW(perfgate::noise_band({1.0, 1.1}, perfgate::NoiseRule{}, false, "t"), perfgate::InputError);
  EXPECT_THROW(perfgate::noise_band({1.0, 0.0, 1.1}, perfgate::NoiseRule{}, false, "t"), perfgate::InputError);
  EXPECT_THROW(perfgate::noise_band({1.0, -2.0, 1.1}, perfgate::NoiseRule{}, false, "t"), perfgate::InputError);
  try {
    perfgate::noise_band({1.0, 1.1}, perfgate::NoiseRule{}, false, "BM_X real_time");
    FAIL();
  } catch (const perfgate::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("BM_X real_time"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("at least 3 runs"), std::string::npos);
  }
}

}  // namespace
