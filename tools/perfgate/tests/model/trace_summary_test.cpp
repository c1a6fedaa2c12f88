// Contract: a trace summary separates each operator's self time from the time of operators nested in it, per thread.
#include "model/trace_summary.h"
#include "base/error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

TEST(trace_summary, self_time_excludes_nested_operators_per_thread) {
  std::ifstream in(std::string(PERFGATE_TEST_INPUTS) + "/trace_small.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto s = perfgate::summarise_trace(text.str(), "trace_small.json");
  EXPECT_EQ(s.events, 5u);
  EXPECT_DOUBLE_EQ(s.wall_us, 100.0);
  auto find = [&](const std::string& name) {
    for (const auto& op : s.operators)
      if (op.name == name) return op;
    throw std::runtime_error(name);
  };
  EXPECT_DOUBLE_EQ(find("step").self_us, 100.0 - 50.0 - 5.0);  // conv2d and the second empty are its children
  EXPECT_DOUBLE_EQ(find("aten::conv2d").self_us, 45.0);
  EXPECT_EQ(find("aten::empty").calls, 2);
  EXPECT_DOUBLE_EQ(find("other thread").self_us, 30.0);  // another thread: not nested in step
  EXPECT_EQ(s.operators.front().name, "aten::conv2d");
  EXPECT_THROW(perfgate::summarise_trace("[]", "empty"), perfgate::InputError);
  EXPECT_THROW(perfgate::summarise_trace("{\"a\": 1}", "object"), perfgate::InputError);
}

}  // namespace
