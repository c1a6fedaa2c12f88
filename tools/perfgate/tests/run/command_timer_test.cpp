// perfgate time's rounds: each command once per round, the order reversed every other round, so that neither of two
// commands always runs first; repetition r of each command is its run in round r.
#include "run/command_timer.h"
#include "base/error.h"
#include "model/results.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

TEST(command_timer, rounds_alternate_the_order) {
  EXPECT_EQ(perfgate::round_order(3, 0), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(perfgate::round_order(3, 1), (std::vector<size_t>{2, 1, 0}));
  EXPECT_EQ(perfgate::round_order(3, 2), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(perfgate::round_order(1, 1), (std::vector<size_t>{0}));
}

TEST(command_timer, runs_are_interleaved_and_recorded_per_round) {
  // Each run appends its name to a log: the log shows the order the runs took.
  const std::string log = ::testing::TempDir() + "command_timer_order.log";
  std::remove(log.c_str());
  perfgate::TimingPlan plan;
  plan.runs = 3;
  plan.warmup = 0;
  const auto results =
      perfgate::time_commands({{"a", "echo a >> '" + log + "'"}, {"b", "echo b >> '" + log + "'"}}, plan);
  std::ifstream in(log);
  std::string order, word;
  while (in >> word) order += word;
  EXPECT_EQ(order, "abbaab");
  const perfgate::MeasurementIndex index(results);
  EXPECT_EQ(index.values_of("a", "real_time").size(), 3u);
  EXPECT_EQ(index.values_of("b", "cpu_time").size(), 3u);
  for (const double t : index.values_in_unit("a", "real_time", "s")) EXPECT_GT(t, 0.0);
}

TEST(command_timer, a_failing_command_names_itself_and_its_run) {
  perfgate::TimingPlan plan;
  plan.runs = 2;
  plan.warmup = 0;
  try {
    perfgate::time_commands({{"ok", "true"}, {"broken", "echo 'no such input' >&2; exit 3"}}, plan);
    FAIL() << "a failing command was timed";
  } catch (const perfgate::InputError& e) {
    EXPECT_STREQ(e.what(), "'broken' (run 0) exited with 3: no such input");
  }
}

TEST(command_timer, a_run_past_its_time_limit_is_stopped_with_its_group) {
  perfgate::TimingPlan plan;
  plan.runs = 1;
  plan.warmup = 0;
  plan.timeout_seconds = 0.3;
  const auto start = std::chrono::steady_clock::now();
  try {
    // The shell's child sleeps too: the whole group is stopped, not only the shell.
    perfgate::time_commands({{"slow", "sleep 30; true"}}, plan);
    FAIL() << "a run past its limit was timed";
  } catch (const perfgate::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'slow' (run 0) did not finish within"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}
