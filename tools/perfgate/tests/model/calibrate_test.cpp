// Contract: calibration turns the spread of identical runs into a tolerance and a detectable slowdown by the
// stated formulas, flags two-cluster and noisy benchmarks, and refuses too few runs.
#include "model/calibrate.h"
#include "base/error.h"
#include "model/noise_band.h"
#include "model/stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

perfgate::Results run_with(const std::vector<double>& times) {
  perfgate::Results r;
  r.source = "test";
  for (size_t i = 0; i < times.size(); ++i)
    r.measurements.push_back({"BM_X", "real_time", times[i], "ms", static_cast<int>(i), std::nullopt});
  return r;
}

TEST(calibrate, tolerance_and_detectable_slowdown_follow_the_between_run_spread) {
  // Run medians 10, 10.5, 9.5, 10.2, 9.8: the robust sigma of their logs sets both figures.
  std::vector<perfgate::Results> runs;
  std::vector<double> logs;
  for (const double m : {10.0, 10.5, 9.5, 10.2, 9.8})
    runs.push_back(run_with({m * 0.99, m, m * 1.01})), logs.push_back(std::log(m));
  const auto c = perfgate::calibrate(runs, {});
  ASSERT_EQ(c.benchmarks.size(), 1u);
  const auto& n = c.benchmarks[0];
  const double sigma = perfgate::stats::robust_sigma(logs);
  EXPECT_NEAR(n.between_run_sigma, sigma, 1e-12);
  EXPECT_NEAR(n.suggested_tolerance, std::exp(2.3263478740408408 * sigma * std::sqrt(2.0)) - 1.0, 1e-9);
  EXPECT_NEAR(n.detectable_slowdown, std::exp((2.3263478740408408 + 1.2815515655446004) * sigma * std::sqrt(2.0)) - 1.0,
              1e-9);
  EXPECT_NEAR(n.median, 10.0, 1e-12);
  EXPECT_TRUE(n.flags.empty());
  // The band update's noise tolerance would learn from the same runs' medians.
  EXPECT_DOUBLE_EQ(n.noise_band, perfgate::noise_band({10.0, 10.5, 9.5, 10.2, 9.8}, perfgate::NoiseRule{},
                                                      perfgate::Direction::lower, "t")
                                     .tolerance);
  EXPECT_GT(n.noise_band, 0.05);  // spread enough to be above the floor
}

TEST(calibrate, flags_two_clusters_and_noise) {
  EXPECT_TRUE(perfgate::looks_bimodal({1.0, 1.01, 0.99, 1.02, 0.98, 2.0, 2.01, 1.99, 2.02, 1.98}));
  EXPECT_FALSE(perfgate::looks_bimodal({1.0, 1.01, 0.99, 1.02, 0.98, 1.03, 0.97, 1.0, 1.01, 0.99}));
  std::vector<perfgate::Results> noisy;
  for (const double m : {10.0, 13.0, 8.0, 11.5, 9.0}) noisy.push_back(run_with({m, m, m}));
  EXPECT_EQ(perfgate::calibrate(noisy, {}).benchmarks[0].flags, std::vector<std::string>{"unstable"});
}

// Each A/A run's speedup verdict is counted where it belongs: a run whose interval straddles the threshold is
// INCONCLUSIVE (ctest fails it with exit code 3), not PASS.
TEST(calibrate, counts_each_speedup_verdict_where_it_belongs) {
  const auto paired = [](double factor, double jitter) {
    perfgate::Results r;
    r.source = "test";
    for (int i = 0; i < 10; ++i) {
      const double ref = 60.0 + (i % 3);
      const double wobble = 1.0 + jitter * ((i % 2 == 0) ? 1.0 : -1.0) * (1.0 + 0.1 * i);
      r.measurements.push_back({"ref", "real_time", ref, "ms", i, std::nullopt});
      r.measurements.push_back({"cand", "real_time", ref / factor * wobble, "ms", i, std::nullopt});
    }
    return r;
  };
  perfgate::CalibrationOptions options;
  options.pair = std::make_pair(std::string("ref"), std::string("cand"));
  options.threshold = 3.0;
  // ~4x (pass), ~2x (fail), ~3x with ±5-10 % wobble (an interval across 3x: inconclusive).
  const auto c =
      perfgate::calibrate({paired(4.0, 0.01), paired(2.0, 0.01), paired(3.0, 0.08), paired(4.1, 0.01)}, options);
  ASSERT_TRUE(c.speedup.has_value());
  ASSERT_EQ(c.speedup->runs.size(), 4u);
  EXPECT_EQ(c.speedup->runs[2].verdict, perfgate::SpeedupVerdict::inconclusive);
  EXPECT_EQ(c.speedup->passes, 2);
  EXPECT_EQ(c.speedup->fails, 1);
  EXPECT_EQ(c.speedup->inconclusive, 1);
}

TEST(calibrate, refuses_too_few_runs_and_absent_fields) {
  EXPECT_THROW(perfgate::calibrate({run_with({1.0}), run_with({1.0})}, {}), perfgate::InputError);
  perfgate::CalibrationOptions options;
  options.field = "no_such_counter";
  EXPECT_THROW(perfgate::calibrate({run_with({1.0}), run_with({1.0}), run_with({1.0})}, options), perfgate::InputError);
}

}  // namespace
