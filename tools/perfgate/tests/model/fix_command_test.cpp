// The first baseline perfgate proposes: counts exactly, and a timing only where the gate has the machine to itself.
#include "model/fix_command.h"
#include "model/results.h"

#include <gtest/gtest.h>

#include <string>

TEST(fix_command, a_gate_sharing_the_machine_proposes_a_first_baseline_without_a_timing) {
  perfgate::Results results;
  results.source = "r.json";
  results.measurements = {{"BM_A", "real_time", 2.0, "ms", 0, std::nullopt},
                          {"BM_A", "allocations", 3.0, "", 0, int64_t{3}}};
  perfgate::FixContext alone{"perfgate", "r.json", "b.json", {}, false, false};
  const auto timed = perfgate::first_baseline_fix(results, alone);
  EXPECT_TRUE(timed.command.empty());  // a timing needs two runs of the suite, whose command is not known here
  perfgate::FixContext shared = alone;
  shared.no_timings = true;
  const auto counts = perfgate::first_baseline_fix(results, shared);
  EXPECT_NE(counts.command.find("--track allocations:either:exact"), std::string::npos) << counts.command;
  EXPECT_EQ(counts.command.find("real_time"), std::string::npos) << counts.command;
}
