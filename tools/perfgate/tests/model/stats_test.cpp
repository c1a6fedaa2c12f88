// Contract: the statistics match SciPy (values in oracle/stats_oracle.out, produced by oracle/stats_oracle.py),
// and the speedup verdict is PASS / FAIL / INCONCLUSIVE by where the interval lies against the threshold.
#include "model/stats.h"
#include "base/error.h"
#include "model/speedup.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

constexpr double kTolerance = 1e-12;

TEST(perfgate_stats, agree_with_scipy) {
  const std::vector<double> a = {10.2, 11.0, 9.8, 10.5, 12.1, 10.0, 10.0, 11.3};
  const std::vector<double> b = {11.9, 12.4, 12.0, 13.1, 11.7, 12.8, 12.0, 12.2, 14.0};
  EXPECT_NEAR(perfgate::stats::mann_whitney_p(a, b), 0.002406870021192004, 1e-15);
  EXPECT_NEAR(perfgate::stats::quantile(a, 0.3), 10.02, kTolerance);
  EXPECT_NEAR(perfgate::stats::binomial_half_cdf(1, 10), 0.0107421875, kTolerance);
  EXPECT_NEAR(perfgate::stats::binomial_half_cdf(8, 30), 0.008062400855123998, kTolerance);
  EXPECT_NEAR(perfgate::stats::hodges_lehmann({0.3, -0.1, 0.45, 0.2, 0.05, 0.6, 0.25}), 0.25, kTolerance);
  const auto holm = perfgate::stats::holm_adjust({0.01, 0.04, 0.03, 0.20});
  EXPECT_NEAR(holm[0], 0.04, kTolerance);
  EXPECT_NEAR(holm[1], 0.09, kTolerance);
  EXPECT_NEAR(holm[2], 0.09, kTolerance);
  EXPECT_NEAR(holm[3], 0.20, kTolerance);
  EXPECT_NEAR(perfgate::stats::normal_quantile(0.99), 2.3263478740408408, 1e-10);
  EXPECT_NEAR(perfgate::stats::normal_quantile(0.9), 1.2815515655446004, 1e-10);
  EXPECT_NEAR(perfgate::stats::normal_quantile(0.5), 0.0, 1e-10);
  EXPECT_NEAR(perfgate::stats::normal_quantile(0.025), -1.9599639845400545, 1e-10);
  EXPECT_NEAR(perfgate::stats::robust_sigma(a), 0.6671709983275198, kTolerance);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.99, 4), 3.7469473879791937, 1e-9);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.99, 9), 2.821437925025809, 1e-9);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.99, 1), 31.82051595377389, 1e-8);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.995, 2), 9.924843200918295, 1e-9);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.99, 30), 2.4572615424005897, 1e-9);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.9, 3), 1.63774435369621, 1e-9);
  EXPECT_NEAR(perfgate::stats::student_t_quantile(0.01, 4), -3.7469473879791937, 1e-9);
  EXPECT_TRUE(std::isnan(perfgate::stats::student_t_quantile(0.99, 0)));
}

TEST(perfgate_stats, median_interval_uses_sign_test_ranks) {
  // n = 10: P(X ≤ 1) = 0.0107 ≤ 0.025 < P(X ≤ 2), so the 95 % interval is [x(2), x(9)] (1-based), coverage 97.9 %.
  const auto i = perfgate::stats::median_interval({10, 2, 3, 4, 5, 6, 7, 8, 9, 1});
  EXPECT_EQ(i.low, 2.0);
  EXPECT_EQ(i.high, 9.0);
  EXPECT_NEAR(i.confidence, 1.0 - 2.0 * 0.0107421875, kTolerance);
  EXPECT_THROW(perfgate::stats::median_interval({1, 2, 3, 4, 5}), perfgate::InputError);  // 2/32 > 5 %
}

perfgate::Results paired(const std::vector<double>& ref, const std::vector<double>& cand) {
  perfgate::Results r;
  r.source = "test";
  for (size_t i = 0; i < ref.size(); ++i) {
    r.measurements.push_back({"ref", "real_time", ref[i], "ms", static_cast<int>(i), std::nullopt});
    r.measurements.push_back({"cand", "real_time", cand[i], "ms", static_cast<int>(i), std::nullopt});
  }
  return r;
}

TEST(perfgate_speedup, verdict_follows_the_interval) {
  const std::vector<double> ref = {60, 62, 58, 61, 59, 63, 60, 61, 64, 57};
  const std::vector<double> fast = {15, 15.5, 14.8, 15.2, 15, 15.9, 15.1, 15, 16, 14.2};  // ~4x
  const std::vector<double> slow = {30, 31, 29, 30.5, 29.5, 31.5, 30, 30.5, 32, 28.5};    // ~2x
  const std::vector<double> edge = {20, 21, 19.5, 20.3, 20.6, 20, 19.4, 21.2, 20.1, 19};  // ~3x, straddling
  EXPECT_EQ(perfgate::judge_speedup(paired(ref, fast), "ref", "cand", 3.0).verdict, perfgate::SpeedupVerdict::pass);
  EXPECT_EQ(perfgate::judge_speedup(paired(ref, slow), "ref", "cand", 3.0).verdict, perfgate::SpeedupVerdict::fail);
  EXPECT_EQ(perfgate::judge_speedup(paired(ref, edge), "ref", "cand", 3.0).verdict,
            perfgate::SpeedupVerdict::inconclusive);
  EXPECT_THROW(perfgate::judge_speedup(paired({1, 2, 3}, {1, 2, 3}), "ref", "cand", 3.0), perfgate::InputError);
}

// Measuring more (speedup --more-seconds) pools each new run's repetitions after the earlier ones: every pair counts,
// however many runs there were and however their own indices were numbered.
TEST(perfgate_speedup, pooled_runs_add_their_pairs_to_the_judgement) {
  const std::vector<double> ref = {60, 62, 58, 61, 59, 63, 60, 61};
  const std::vector<double> cand = {15, 15.5, 14.8, 15.2, 15, 15.9, 15.1, 15};
  auto pooled = paired(ref, cand);
  for (int run = 1; run <= 3; ++run) {
    perfgate::append_repetitions(pooled, paired(ref, cand));  // each run numbers its repetitions from 0
    EXPECT_EQ(perfgate::judge_speedup(pooled, "ref", "cand", 3.0).pairs, 8 * (run + 1)) << "after run " << run;
  }
}

// Each side is converted to one unit before the ratios are formed: a reference in ms against a candidate in us.
TEST(perfgate_speedup, converts_each_side_to_one_unit) {
  const std::vector<double> ref = {60, 62, 58, 61, 59, 63, 60, 61, 64, 57};
  perfgate::Results r;
  r.source = "test";
  for (size_t i = 0; i < ref.size(); ++i) {
    r.measurements.push_back({"ref", "real_time", ref[i], "ms", static_cast<int>(i), std::nullopt});
    r.measurements.push_back(
        {"cand", "real_time", ref[i] * 1000.0 / 4.0, "us", static_cast<int>(i), std::nullopt});  // 4x faster
  }
  const auto report = perfgate::judge_speedup(r, "ref", "cand", 3.0);
  EXPECT_EQ(report.verdict, perfgate::SpeedupVerdict::pass);
  EXPECT_NEAR(report.median, 4.0, 1e-9);
}

}  // namespace
