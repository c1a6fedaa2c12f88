// Contract: task lists are read strictly (header, four fields, quoting, allowed options only), grouped with the
// first revision as base; the A/B verdict follows where the interval of head/base ratios lies against 1 + tolerance.
#include "base/error.h"
#include "model/ab_analysis.h"
#include "model/ab_tasks.h"

#include <gtest/gtest.h>

namespace {

TEST(ab_tasks, reads_groups_and_quotes) {
  const auto tasks = perfgate::parse_ab_tasks(
      "revision,gate,filter,options\n"
      "# a comment\n"
      "main,train_step,^BM_TrainStep_Optimized/n:512/,--benchmark_min_time=0.2\n"
      "feature,train_step,^BM_TrainStep_Optimized/n:512/,--benchmark_min_time=0.2\r\n"
      "main,fft,\"BM_Fft/(256|512)\",\n"
      "v1.0,fft,\"BM_Fft/(256|512)\",\n",
      "tasks.csv");
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(tasks[2].filter, "BM_Fft/(256|512)");
  EXPECT_TRUE(tasks[2].options.empty());
  const auto groups = perfgate::group_ab_tasks(tasks);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].revisions, (std::vector<std::string>{"main", "feature"}));
  EXPECT_EQ(groups[0].options, std::vector<std::string>{"--benchmark_min_time=0.2"});
}

TEST(ab_tasks, refuses_malformed_lists) {
  const std::string header = "revision,gate,filter,options\n";
  for (const std::string& text :
       {std::string(""), std::string("rev,suite\n"), header, header + "main,fft,x\n",
        header + "main,fft,\"unterminated,\n", header + "main,../evil,x,\n", header + "main,fft,,\n",
        header + "main,fft,x,--benchmark_out=/etc/passwd\n", header + "main,fft,x,; rm -rf /\n", header + ",fft,x,\n",
        header + "main,fft,x\"y\",\n"}) {
    EXPECT_THROW(perfgate::parse_ab_tasks(text, "t.csv"), perfgate::InputError) << text;
  }
  EXPECT_THROW(perfgate::group_ab_tasks(perfgate::parse_ab_tasks(header + "main,fft,x,\n", "t.csv")),
               perfgate::InputError);
}

perfgate::AbMeasurements rounds_with(const std::vector<double>& head_over_base) {
  perfgate::AbMeasurements m;
  m.revisions = {"base", "head"};
  m.unit = "ms";
  for (const double r : head_over_base) m.rounds.push_back({{"BM_X", {10.0, 10.0 * r}}});
  return m;
}

// More instructions in head is the regression: beyond the tolerated increase it fails, fewer never does.
TEST(ab_analysis, cost_fails_when_head_does_more_work_than_tolerated) {
  const std::map<std::string, double> base = {{"BM_A", 100.0}, {"BM_B", 100.0}, {"BM_C", 100.0}, {"BM_only_base", 5.0}};
  const std::map<std::string, double> head = {{"BM_A", 101.0}, {"BM_B", 99.0}, {"BM_C", 100.4}};
  const auto changes = perfgate::compare_costs(base, head, 0.005);
  ASSERT_EQ(changes.size(), 3u);  // a benchmark missing from head is not judged
  EXPECT_EQ(changes[0].benchmark, "BM_A");
  EXPECT_NEAR(changes[0].change, 0.01, 1e-12);
  EXPECT_TRUE(changes[0].fail);
  EXPECT_NEAR(changes[1].change, -0.01, 1e-12);
  EXPECT_FALSE(changes[1].fail);
  EXPECT_FALSE(changes[2].fail);  // +0.4 % inside 0.5 %
  EXPECT_THROW(perfgate::compare_costs({{"BM_A", 0.0}}, {{"BM_A", 1.0}}, 0.005), perfgate::InputError);
}

TEST(ab_analysis, verdict_follows_the_interval_against_the_tolerance) {
  const auto same = perfgate::compare_revisions(rounds_with({1.01, 0.99, 1.00, 1.02, 0.98, 1.01, 1.00, 0.99}), 0.05);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].verdict, perfgate::SpeedupVerdict::pass);
  EXPECT_NEAR(same[0].median, 1.0, 0.011);
  const auto slower = perfgate::compare_revisions(rounds_with({1.20, 1.22, 1.18, 1.21, 1.19, 1.20, 1.23, 1.17}), 0.05);
  EXPECT_EQ(slower[0].verdict, perfgate::SpeedupVerdict::fail);
  const auto unclear = perfgate::compare_revisions(rounds_with({1.00, 1.10, 0.97, 1.08, 1.03, 1.12, 0.99, 1.06}), 0.05);
  EXPECT_EQ(unclear[0].verdict, perfgate::SpeedupVerdict::inconclusive);
  const auto too_few = perfgate::compare_revisions(rounds_with({1.0, 1.0, 1.0}), 0.05);
  EXPECT_EQ(too_few[0].verdict, perfgate::SpeedupVerdict::inconclusive);  // no 95 % interval from 3 rounds
  EXPECT_EQ(perfgate::rounds_needed(0.95), 6);
}

}  // namespace
