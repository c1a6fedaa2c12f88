// Contract: a band from noise is the prediction interval of one more run's log (values from SciPy in
// oracle/stats_oracle.out) on the side where its direction fails, never narrower than the floor, and refused with one
// clear error for too few runs or a value that has no logarithm.
#include "model/noise_band.h"
#include "base/error.h"

#include <gtest/gtest.h>

namespace {

const std::vector<double> kQuiet = {10, 10.2, 9.9, 10.1, 10.0};

TEST(perfgate_noise_band, is_the_prediction_interval_of_one_more_run) {
  perfgate::NoiseRule rule;
  rule.floor = 0.0;
  const auto band = perfgate::noise_band(kQuiet, rule, perfgate::Direction::lower, "t");
  EXPECT_NEAR(band.centre, 10.03948298533632, 1e-9);
  EXPECT_NEAR(band.sigma, 0.011341557626936944, 1e-12);
  EXPECT_NEAR(band.tolerance, 0.047652845056838845, 1e-9);
  EXPECT_EQ(band.runs, 5);
  EXPECT_FALSE(band.floored);
  EXPECT_NEAR(band.factor, 1.047652845056838845, 1e-9);
  // Both sides share the false-alarm rate: t at 0.995.
  EXPECT_NEAR(perfgate::noise_band(kQuiet, rule, perfgate::Direction::either, "t").tolerance, 0.05886917521788775,
              1e-9);
  EXPECT_NEAR(perfgate::noise_band({10, 11, 9.5, 10.5}, rule, perfgate::Direction::lower, "t").tolerance,
              0.37754417081448133, 1e-9);
  // Higher fails below: the rel band whose lower edge is centre · e^−w, 1 − e^−w, the same change as a ratio.
  const auto higher = perfgate::noise_band(kQuiet, rule, perfgate::Direction::higher, "t");
  EXPECT_NEAR(higher.tolerance, 0.04548533923396496, 1e-9);
  EXPECT_NEAR(higher.factor, band.factor, 1e-9);
}

TEST(perfgate_noise_band, never_narrower_than_the_floor) {
  const auto band = perfgate::noise_band(kQuiet, perfgate::NoiseRule{}, perfgate::Direction::lower, "t");
  EXPECT_DOUBLE_EQ(band.tolerance, 0.05);
  EXPECT_TRUE(band.floored);
  const auto same = perfgate::noise_band({4, 4, 4}, perfgate::NoiseRule{}, perfgate::Direction::lower, "t");
  EXPECT_DOUBLE_EQ(same.sigma, 0.0);
  EXPECT_DOUBLE_EQ(same.tolerance, 0.05);
}

TEST(perfgate_noise_band, refuses_too_few_runs_and_values_without_a_logarithm) {
  EXPECT_THROW(perfgate::noise_band({1.0, 1.1}, perfgate::NoiseRule{}, perfgate::Direction::lower, "t"),
               perfgate::InputError);
  EXPECT_THROW(perfgate::noise_band({1.0, 0.0, 1.1}, perfgate::NoiseRule{}, perfgate::Direction::lower, "t"),
               perfgate::InputError);
  EXPECT_THROW(perfgate::noise_band({1.0, -2.0, 1.1}, perfgate::NoiseRule{}, perfgate::Direction::lower, "t"),
               perfgate::InputError);
  try {
    perfgate::noise_band({1.0, 1.1}, perfgate::NoiseRule{}, perfgate::Direction::lower, "BM_X real_time");
    FAIL();
  } catch (const perfgate::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("BM_X real_time"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("at least 3 runs"), std::string::npos);
  }
}

}  // namespace
